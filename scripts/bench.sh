#!/usr/bin/env bash
# bench.sh - print the project's performance figures (release build). Not part of the tests:
# speed targets live here, as ratios against a reference measured in the same run.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/env.sh
cargo bench -p memeboard-server --bench leaderboard
cargo bench -p memeboard-server --bench panels
cargo bench -p memeboard-server --bench crowd
# Quiz answers: 10 and 200 participants, then a sustained 200-participant run per interval
# (MEMEBOARD_BENCH_SECONDS=600 for the 10-minute run, printed per minute).
MEMEBOARD_BENCH_SECONDS="${MEMEBOARD_BENCH_SECONDS:-60}" cargo bench -p memeboard-server --bench answers
# The same answers over real HTTP to the server binary in its own process, beside the same
# workload in process in the same run (10 and 200 participants, 15 s each).
MEMEBOARD_BENCH_SECONDS=15 cargo bench -p memeboard-server --bench http
# Embeddings need the models (scripts/model/setup-model.sh puts them in data/models).
MEMEBOARD_BENCH_MODELS="${MEMEBOARD_BENCH_MODELS:-$PWD/data/models}" cargo bench -p memeboard-server --bench embeddings
# The GPU embedding path natively (wgpu on Vulkan: lavapipe without a GPU), batch 1/8/32
# beside the CPU path in the same run; prints the adapter.
XDG_RUNTIME_DIR="${XDG_RUNTIME_DIR:-/tmp}" MEMEBOARD_BENCH_MODELS="${MEMEBOARD_BENCH_MODELS:-$PWD/data/models}" \
  cargo bench -p memeboard-embed --features gpu --bench gpu
# Browser embedding figures in headless Chromium: the CPU-wasm path and the WebGPU path (on
# SwiftShader here; a hardware GPU is much faster): sentences/s, first-use cost, weight size.
bash scripts/build-embed-harness.sh > /dev/null
(cd tests/e2e && MEMEBOARD_TEST_MODELS="${MEMEBOARD_BENCH_MODELS:-$PWD/../../data/models}" \
  node --test --test-concurrency=1 embed.test.mjs 2>&1 | grep '\[embed\]' || true)
# Bundle sizes (brotli) and first contentful paint on a throttled slow-4G phone profile (need
# the release front end in dist/: scripts/build-web.sh).
bash scripts/check-wasm-size.sh dist || true
cargo build -q -p memeboard-server
(cd tests/e2e && node perf/first-paint.mjs 3)
