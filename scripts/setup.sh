#!/usr/bin/env bash
# setup.sh - install everything memeboard needs on a fresh Debian 12 machine, from the package
# registries only (apt, crates.io, npm). Idempotent: a second run takes seconds.
#
#   scripts/setup.sh          everything (build + tests)
#   scripts/setup.sh --run    only what building and running the site needs
#
# Installs: the wasm32 target (rustup; else Debian's rustc-web via wasm-std-fallback.sh),
# Trunk 0.21.14, wasm-bindgen-cli at the version Cargo.lock pins, wasm-opt (npm binaryen),
# espeak-ng, sox and ffmpeg (the demo audio/video clips are generated with them),
# and for tests: Chromium, PostgreSQL, playwright-core (tests/e2e), libvulkan1 and
# mesa-vulkan-drivers (lavapipe: the native GPU embedding test).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
MODE="${1:-all}"
TRUNK_VERSION=0.21.14
BINARYEN_VERSION=132.0.0
TOOLS="${MEMEBOARD_TOOLS:-/opt/memeboard-tools}"
export DEBIAN_FRONTEND=noninteractive
START=$(date +%s)
log() { printf '[setup %4ss] %s\n' "$(( $(date +%s) - START ))" "$*"; }
case ":$PATH:" in *":$HOME/.cargo/bin:"*) ;; *) export PATH="$HOME/.cargo/bin:$PATH" ;; esac
SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"

APT_UPDATED=0
apt_install() {
  local missing=() p
  for p in "$@"; do dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p"); done
  [ "${#missing[@]}" -eq 0 ] && return 0
  if [ "$APT_UPDATED" = 0 ]; then $SUDO apt-get update -qq; APT_UPDATED=1; fi
  log "apt: installing ${missing[*]}"
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

# 1. Base tools.
apt_install ca-certificates curl git gcc pkg-config brotli
command -v npm >/dev/null || apt_install nodejs npm
# Demo clips (server/demo/clips): speech, tones and video made at first start, not committed.
apt_install espeak-ng sox ffmpeg

# 2. The wasm32 target: rustup first (short timeout), then the Debian fallback.
if rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown; then
  log "wasm32: rustup target present"
elif timeout 180 rustup target add wasm32-unknown-unknown >/dev/null 2>&1; then
  log "wasm32: added with rustup"
else
  log "wasm32: rustup could not download; using Debian's rustc-web (registry-only fallback)"
  $SUDO bash "$ROOT/scripts/wasm-std-fallback.sh"
fi

# 3. Native tools from crates.io, pinned (Trunk 0.22 needs a newer rustc than we have).
cargo_install() {  # crate version binary
  local have=""
  command -v "$3" >/dev/null && have="$("$3" --version 2>/dev/null | awk '{print $2}')"
  [ "$have" = "$2" ] && return 0
  log "cargo: installing $1 $2 (a few minutes, once)"
  # Without fat LTO: half the build time, same behaviour. --locked first, as the authors
  # tested; a yanked locked dependency (seen for wasm-bindgen-cli) falls back to resolving.
  export CARGO_PROFILE_RELEASE_LTO=false CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16
  local err; err="$(mktemp)"
  if ! env -u RUSTC cargo install --quiet "$1" --version "$2" --locked --force 2>"$err"; then
    log "cargo: $1 with its locked dependencies failed ($(grep -m1 '^error' "$err")); resolving them afresh"
    env -u RUSTC cargo install --quiet "$1" --version "$2" --force
  fi
  rm -f "$err"
  unset CARGO_PROFILE_RELEASE_LTO CARGO_PROFILE_RELEASE_CODEGEN_UNITS
}
WASM_BINDGEN_VERSION="$(awk '/^name = "wasm-bindgen"$/{getline; gsub(/[^0-9.]/,""); print; exit}' "$ROOT/Cargo.lock")"
[ -n "$WASM_BINDGEN_VERSION" ] || { echo "setup: no wasm-bindgen in Cargo.lock" >&2; exit 1; }
cargo_install trunk "$TRUNK_VERSION" trunk
cargo_install wasm-bindgen-cli "$WASM_BINDGEN_VERSION" wasm-bindgen

# 4. wasm-opt from npm (Debian's binaryen 108 is too old and breaks the output).
if ! "$TOOLS/bin/wasm-opt" --version 2>/dev/null | grep -q "version ${BINARYEN_VERSION%%.*}"; then
  log "npm: installing binaryen@$BINARYEN_VERSION into $TOOLS"
  $SUDO mkdir -p "$TOOLS"
  $SUDO npm install --global --prefix "$TOOLS" --no-audit --no-fund --loglevel=error "binaryen@$BINARYEN_VERSION" >/dev/null
fi

if [ "$MODE" != "--run" ]; then
  # 5. Test tools: Chromium (headless e2e), PostgreSQL (storage tests), playwright-core, and
  # the Vulkan loader + Mesa's drivers (lavapipe, a software Vulkan adapter) on which the
  # native GPU embedding test runs the WebGPU kernels (embed/tests/gpu.rs).
  apt_install chromium postgresql libvulkan1 mesa-vulkan-drivers
  if [ ! -d "$ROOT/tests/e2e/node_modules/playwright-core" ]; then
    log "npm: installing tests/e2e dependencies"
    (cd "$ROOT/tests/e2e" && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
  fi
fi
log "done"
