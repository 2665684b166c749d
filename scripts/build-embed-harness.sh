#!/usr/bin/env bash
# build-embed-harness.sh - builds memeboard-embed's browser backends for the e2e tests
# (tests/e2e/embed.test.mjs): the crate with feature `browser` as a wasm32 cdylib (SIMD128
# on, as the app's build should be), then wasm-bindgen --target web into target/embed-harness/
# (memeboard_embed.js + memeboard_embed_bg.wasm, loaded by tests/e2e/embed-harness/index.html).
#
# `cargo rustc --crate-type cdylib` keeps the crate an rlib everywhere else (the app links it
# as a library; no native .so or second .wasm in other builds). A separate target dir keeps
# the +simd128 RUSTFLAGS from invalidating the app's trunk build artefacts.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT"
. scripts/env.sh
export CARGO_TARGET_DIR="${MEMEBOARD_EMBED_TARGET_DIR:-$ROOT/target/embed-wasm}"
OUT="${1:-$ROOT/target/embed-harness}"
RUSTFLAGS="${RUSTFLAGS:-} -C target-feature=+simd128" \
  cargo rustc -q -p memeboard-embed --lib --crate-type cdylib --features browser \
    --target wasm32-unknown-unknown --release
wasm-bindgen --target web --out-dir "$OUT" \
  "$CARGO_TARGET_DIR/wasm32-unknown-unknown/release/memeboard_embed.wasm"
ls -l "$OUT"/memeboard_embed_bg.wasm | awk '{print "[build-embed-harness] wasm bytes:", $5}'
