#!/usr/bin/env bash
# check-wasm-size.sh [DIR] - prints the brotli size of each WebAssembly bundle in DIR
# (default dist/, after scripts/build-web.sh) and fails when the quiz app's
# (DIR/memeboard-app-*_bg.wasm.br, what every quiz participant downloads) is over its budget:
# MEMEBOARD_WASM_BUDGET_BYTES, default 350000 (350 KB; issue 12). The boards app, the studio
# app (researcher pages) and the embedder (loaded on demand) are reported, not limited.
set -euo pipefail
DIR="${1:-dist}"
BUDGET="${MEMEBOARD_WASM_BUDGET_BYTES:-350000}"
shopt -s nullglob
app=("$DIR"/memeboard-app-*_bg.wasm.br)
[ "${#app[@]}" -eq 1 ] || { echo "check-wasm-size.sh: expected one $DIR/memeboard-app-*_bg.wasm.br (run scripts/build-web.sh), found ${#app[@]}" >&2; exit 1; }
for f in "$DIR"/*_bg.wasm.br "$DIR"/boards-app/*_bg.wasm.br "$DIR"/studio/*_bg.wasm.br "$DIR"/embed/*_bg.wasm.br; do
  printf '[wasm-size] %8d bytes brotli  %s\n' "$(stat -c %s "$f")" "${f#"$DIR"/}"
done
size="$(stat -c %s "${app[0]}")"
if [ "$size" -gt "$BUDGET" ]; then
  echo "[wasm-size] FAIL: the quiz app is $size bytes brotli, over the $BUDGET-byte budget" >&2
  exit 1
fi
echo "[wasm-size] quiz app: $size bytes brotli, within the $BUDGET-byte budget"
