#!/usr/bin/env bash
# test.sh - set up (idempotent) and run every check and test of memeboard:
# formatting, clippy (native and wasm32), unit/doc/API tests on SQLite and PostgreSQL, the
# release front-end build, and browser end-to-end tests in headless Chromium.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT"
bash scripts/setup.sh
. scripts/env.sh
START=$(date +%s)
step() { printf '\n=== [%4ss] %s\n' "$(( $(date +%s) - START ))" "$*"; }

step "postgres: start a throw-away local server"
scripts/postgres.sh start
trap 'scripts/postgres.sh stop' EXIT
export MEMEBOARD_TEST_POSTGRES_URL="$(scripts/postgres.sh url)"
export MEMEBOARD_REQUIRE_POSTGRES=1
# The full-disk test mounts a small tmpfs: required where we can mount (root), else skipped.
if [ "$(id -u)" = 0 ]; then export MEMEBOARD_REQUIRE_TMPFS=1; fi
# setup.sh installed espeak-ng, sox and ffmpeg: the clip tests must run, not skip.
export MEMEBOARD_REQUIRE_MEDIA_TOOLS=1

step "embedding models: tiny test model + m3e-small (scripts/model/setup-model.sh)"
MEMEBOARD__DATA__DIR="$ROOT/target/test-data" bash scripts/model/setup-model.sh
export MEMEBOARD_TEST_MODELS="$ROOT/target/test-data/models"
export MEMEBOARD_REQUIRE_MODELS=1

step "cargo fmt --check"
cargo fmt --all --check

step "clippy (native: core, server, tests)"
$MEMEBOARD_CLIPPY --workspace --exclude memeboard-app --all-targets -- -D warnings
step "clippy (wasm32: app, core, embed with its browser backends)"
CLIPPY_CONF_DIR="$ROOT/clippy-wasm" $MEMEBOARD_CLIPPY -p memeboard-app -p memeboard-core --target wasm32-unknown-unknown -- -D warnings
# The quiz bundle builds with fewer messages and strings (feature quiz-bundle): lint that too.
CLIPPY_CONF_DIR="$ROOT/clippy-wasm" $MEMEBOARD_CLIPPY -p memeboard-app -p memeboard-core --features memeboard-app/quiz-bundle --target wasm32-unknown-unknown -- -D warnings
CLIPPY_CONF_DIR="$ROOT/clippy-wasm" $MEMEBOARD_CLIPPY -p memeboard-embed --features browser --target wasm32-unknown-unknown -- -D warnings
step "clippy (native: embed with its GPU path, feature gpu)"
$MEMEBOARD_CLIPPY -p memeboard-embed --features gpu --all-targets -- -D warnings

step "front end: quiz, boards and studio apps, embedder (scripts/build-web.sh)"
bash scripts/build-web.sh
step "front end: the quiz app's wasm is within its size budget (350 KB brotli)"
bash scripts/check-wasm-size.sh dist

step "cargo test (unit, doc, API on SQLite + PostgreSQL, import)"
cargo test --workspace --exclude memeboard-app
step "cargo test (the front end's logic, natively: view models, i18n, API client)"
cargo test -p memeboard-app

step "GPU embedding kernels natively on Vulkan (lavapipe: setup.sh installed mesa-vulkan-drivers)"
# No adapter is a failure here, not a skip. lavapipe's WSI layer wants XDG_RUNTIME_DIR.
MEMEBOARD_REQUIRE_GPU_ADAPTER=1 XDG_RUNTIME_DIR="${XDG_RUNTIME_DIR:-/tmp}" \
  cargo test -p memeboard-embed --features gpu --test gpu

step "browser end-to-end tests (headless Chromium)"
cargo build -q -p memeboard-server
# m3e-small on the software WebGPU adapter runs ~3 sentences/s: give it time for all 251 pairs.
(cd tests/e2e && MEMEBOARD_BIN="$ROOT/target/debug/memeboard" MEMEBOARD_EMBED_GPU_BUDGET_MS=120000 \
  node --test --test-concurrency=1)
step "all checks passed"
