#!/usr/bin/env bash
# build-web.sh - builds the whole front end (release) into dist/, which the server serves.
# Three nested app bundles (app/src/bundles.rs), so each visitor downloads only what their
# pages need:
#   dist/             the quiz app (index.html, bin memeboard-app): home, quiz, session,
#                     results — what every quiz participant downloads (size budget below)
#   dist/boards-app/  the boards app (boards.html, bin memeboard-boards): the quiz pages plus
#                     leaderboards and model pages; served for /boards…, /models/…
#   dist/studio/      the studio app (studio.html, bin memeboard-studio): every page; served
#                     for the researcher pages (/console…, /submit, /account)
#   dist/embed/       the in-browser sentence embedder (scripts/build-embed-harness.sh)
# then the precompressed .br/.gz copies (scripts/compress-dist.sh). Trunk empties its output
# folder first, so the quiz app (dist/) is built first. scripts/check-wasm-size.sh checks the
# quiz app's budget (scripts/test.sh runs it).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT"
. scripts/env.sh
trunk build --release 2>&1 | tail -n 3
trunk build --release --dist dist/boards-app --public-url /boards-app/ boards.html 2>&1 | tail -n 3
trunk build --release --dist dist/studio --public-url /studio/ studio.html 2>&1 | tail -n 3
bash scripts/build-embed-harness.sh
mkdir -p dist/embed
cp target/embed-harness/memeboard_embed.js target/embed-harness/memeboard_embed_bg.wasm dist/embed/
bash scripts/compress-dist.sh dist
