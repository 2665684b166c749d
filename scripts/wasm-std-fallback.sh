#!/usr/bin/env bash
# wasm-std-fallback.sh - a wasm32-unknown-unknown Rust toolchain from Debian's packages alone,
# for machines where `rustup target add wasm32-unknown-unknown` cannot download.
#
# Installs Debian's rustc-web/cargo-web/rust-web-src (+ matching lld and clippy), builds the
# wasm32 std once from the shipped std source with -Zbuild-std, installs it into that rustc's
# sysroot and links rust-lld to Debian's lld. Afterwards `RUSTC=/usr/bin/rustc cargo build
# --target wasm32-unknown-unknown` works with no per-project flags (scripts/env.sh sets RUSTC).
# Idempotent: a stamp of `rustc -vV` skips the std build until apt upgrades rustc-web.
set -euo pipefail
DEB_RUSTC=/usr/bin/rustc
DEB_CARGO=/usr/bin/cargo
TARGET=wasm32-unknown-unknown
export DEBIAN_FRONTEND=noninteractive
log() { printf '[wasm-std] %s\n' "$*"; }
die() { printf '[wasm-std] ERROR: %s\n' "$*" >&2; exit 1; }
[ "$(id -u)" -eq 0 ] || die "run as root (apt-get and writes under /usr/lib/rustlib)"
unset RUSTC RUSTC_WRAPPER RUSTFLAGS CARGO_ENCODED_RUSTFLAGS CARGO_BUILD_RUSTFLAGS CARGO_TARGET_DIR CARGO_BUILD_TARGET RUSTC_BOOTSTRAP

apt_install() {
  local missing=() p
  for p in "$@"; do dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p"); done
  [ "${#missing[@]}" -eq 0 ] && return 0
  apt-get update -qq && apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

apt_install rustc-web cargo-web rust-web-src rust-web-clippy
RUSTC_VV="$("$DEB_RUSTC" -vV)"
HOST_TRIPLE="$(printf '%s\n' "$RUSTC_VV" | sed -n 's/^host: //p')"
LLVM_MAJOR="$(printf '%s\n' "$RUSTC_VV" | sed -n 's/^LLVM version: \([0-9]*\).*/\1/p')"
[ -n "$LLVM_MAJOR" ] || die "could not read the LLVM version of $DEB_RUSTC"
apt_install "lld-$LLVM_MAJOR"
LLD="/usr/lib/llvm-$LLVM_MAJOR/bin/lld"

SYSROOT="$("$DEB_RUSTC" --print sysroot)"
RUST_SRC="$SYSROOT/lib/rustlib/src/rust/library"
TARGET_LIBDIR="$SYSROOT/lib/rustlib/$TARGET/lib"
STAMP="$TARGET_LIBDIR/.memeboard-wasm-std-stamp"
STAMP_WANT="$(printf '%s\n' "$RUSTC_VV" | sha256sum | cut -d' ' -f1)"
if [ -f "$STAMP" ] && [ "$(cat "$STAMP")" = "$STAMP_WANT" ] && ls "$TARGET_LIBDIR"/libstd-*.rlib >/dev/null 2>&1; then
  log "wasm32 std already built for $("$DEB_RUSTC" -V)"
else
  log "building the wasm32 std from $RUST_SRC (1-2 min)"
  WORK="$(mktemp -d /tmp/wasm-sysroot.XXXXXX)"; trap 'rm -rf "$WORK"' EXIT
  mkdir -p "$WORK/src"; printf '#![no_std]\n' > "$WORK/src/lib.rs"
  cat > "$WORK/Cargo.toml" <<'TOML'
[package]
name = "wasm_sysroot_dummy"
version = "0.0.0"
edition = "2021"
[lib]
path = "src/lib.rs"
[profile.release]
opt-level = 3
codegen-units = 1
debug = 0
panic = "abort"
lto = false
incremental = false
TOML
  ( cd "$WORK" && RUSTC="$DEB_RUSTC" RUSTC_BOOTSTRAP=1 CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS="-Cembed-bitcode=yes" \
      "$DEB_CARGO" build --release --quiet --target "$TARGET" --target-dir "$WORK/target" \
      -Zbuild-std=std,panic_abort,proc_macro,test ) || die "building the wasm32 std failed"
  STAGE="$WORK/stage"; mkdir -p "$STAGE"
  for f in "$WORK/target/$TARGET/release/deps"/lib*.rlib "$WORK/target/$TARGET/release/deps"/lib*.rmeta; do
    case "$(basename "$f")" in libwasm_sysroot_dummy-*) ;; *) cp "$f" "$STAGE/" ;; esac
  done
  rm -rf "$TARGET_LIBDIR"; mkdir -p "$(dirname "$TARGET_LIBDIR")"; mv "$STAGE" "$TARGET_LIBDIR"
  chmod 755 "$TARGET_LIBDIR"; chmod 644 "$TARGET_LIBDIR"/*
  printf '%s\n' "$STAMP_WANT" > "$STAMP"
fi
HOST_BIN="$SYSROOT/lib/rustlib/$HOST_TRIPLE/bin"; mkdir -p "$HOST_BIN"
[ "$(readlink "$HOST_BIN/rust-lld" 2>/dev/null || true)" = "$LLD" ] || ln -sfn "$LLD" "$HOST_BIN/rust-lld"
log "ok: $("$DEB_RUSTC" -V) builds $TARGET"
