#!/usr/bin/env bash
# compress-dist.sh [DIR] - writes .br (brotli -q 11) and .gz (gzip -9) copies next to every
# text and wasm asset of the built front end (default dist/), so the server sends them
# precompressed (Accept-Encoding) without compressing on each request. Idempotent.
set -euo pipefail
DIR="${1:-dist}"
[ -d "$DIR" ] || { echo "compress-dist.sh: no $DIR (build the front end first)" >&2; exit 1; }
find "$DIR" -type f \( -name '*.wasm' -o -name '*.js' -o -name '*.css' -o -name '*.html' \
  -o -name '*.json' -o -name '*.svg' -o -name '*.txt' \) | while read -r f; do
  gzip -9 -k -f -n "$f"
  brotli -q 11 -k -f "$f"
done
# Print the sizes of the bundles' wasm (quiz, boards and studio apps, embedder: raw, gzip,
# brotli) for the record.
for w in "$DIR"/*.wasm "$DIR"/*/*.wasm; do
  [ -f "$w" ] || continue
  printf 'wasm bytes: %s raw, %s gzip, %s brotli  %s\n' "$(stat -c %s "$w")" \
    "$(stat -c %s "$w.gz")" "$(stat -c %s "$w.br")" "${w#"$DIR"/}"
done
