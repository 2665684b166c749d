#!/usr/bin/env bash
# bench.sh - print the project's performance figures (release build). Not part of the tests:
# speed targets live here, as ratios against a reference measured in the same run.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/env.sh
cargo bench -p memeboard-server --bench leaderboard
# Embeddings need the models (scripts/model/setup-model.sh puts them in data/models).
MEMEBOARD_BENCH_MODELS="${MEMEBOARD_BENCH_MODELS:-$PWD/data/models}" cargo bench -p memeboard-server --bench embeddings
