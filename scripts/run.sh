#!/usr/bin/env bash
# run.sh - set up (idempotent), build the front end and the server in release mode, and run
# the site with SQLite and the demo data on http://127.0.0.1:${PORT:-3000}.
# Extra arguments go to `memeboard serve`; settings: config/base.toml, MEMEBOARD__… variables,
# DATABASE_URL=postgres://… for PostgreSQL.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT"
bash scripts/setup.sh --run
# The embedding model is optional for the site; install it unless MEMEBOARD_SKIP_MODEL=1.
[ "${MEMEBOARD_SKIP_MODEL:-0}" = 1 ] || bash scripts/model/setup-model.sh || echo "warning: embedding model not installed; explanation scoring is off" >&2
. scripts/env.sh
# The quiz, boards and studio apps (dist/, dist/boards-app/, dist/studio/), the sentence
# embedder loaded on demand (dist/embed/) and their precompressed copies (.br, .gz).
bash scripts/build-web.sh
cargo build --release -p memeboard-server
export MEMEBOARD__SERVER__PORT="${PORT:-${MEMEBOARD__SERVER__PORT:-3000}}"
exec target/release/memeboard serve "$@"
