# env.sh - sourced by the project's scripts: tool paths and Trunk settings (no downloads).
# Source it yourself to run trunk/cargo by hand:  . scripts/env.sh
export PATH="${MEMEBOARD_TOOLS:-/opt/memeboard-tools}/bin:$HOME/.cargo/bin:$PATH"
# The wasm-bindgen CLI must equal the wasm-bindgen crate in Cargo.lock; Trunk then uses the
# local one instead of downloading. Same for wasm-opt (npm binaryen).
_mb_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export TRUNK_TOOLS_WASM_BINDGEN="$(awk '/^name = "wasm-bindgen"$/{getline; gsub(/[^0-9.]/,""); print; exit}' "$_mb_root/Cargo.lock")"
export TRUNK_TOOLS_WASM_OPT="version_${MEMEBOARD_BINARYEN_MAJOR:-132}"
export TRUNK_SKIP_VERSION_CHECK=true
# When rustup has no wasm32 std (offline fallback), build with Debian's rustc-web, whose
# sysroot scripts/wasm-std-fallback.sh completed; lint with the matching Debian clippy.
if ! rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown \
   && [ -d /usr/lib/rustlib/wasm32-unknown-unknown/lib ]; then
  export RUSTC=/usr/bin/rustc
  export MEMEBOARD_CLIPPY="/usr/bin/cargo-clippy clippy"
else
  export MEMEBOARD_CLIPPY="cargo clippy"
fi
export CHROMIUM_BIN="${CHROMIUM_BIN:-/usr/bin/chromium}"
unset _mb_root
