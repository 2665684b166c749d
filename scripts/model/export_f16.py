#!/usr/bin/env python3
"""Exports a BERT checkpoint for the browser: half-precision weights and a manifest.

usage: export_f16.py MODEL_DIR
  reads  MODEL_DIR/model.safetensors (F32/F16 tensors) and MODEL_DIR/config.json
  writes MODEL_DIR/model.f16.safetensors  every floating-point tensor as float16, same names
                                          (integer buffers such as position_ids are not
                                          weights and are left out)
         MODEL_DIR/browser.json           {"weights", "sha256", "bytes", "config", "tokenizer"}
                                          read by memeboard-embed (ModelManifest)
Needs only numpy (use target/model-venv/bin/python). Output is deterministic: same input,
same bytes, same sha256.
"""
import hashlib, json, os, sys
import numpy as np

DTYPES = {"F64": np.float64, "F32": np.float32, "F16": np.float16,
          "I64": np.int64, "I32": np.int32, "I16": np.int16, "I8": np.int8, "U8": np.uint8, "BOOL": np.bool_}
F16_MAX = float(np.finfo(np.float16).max)


def read_safetensors(path):
    with open(path, "rb") as f:
        n = int.from_bytes(f.read(8), "little")
        header = json.loads(f.read(n))
        data = f.read()
    tensors = {}
    for name, info in header.items():
        if name == "__metadata__":
            continue
        if info["dtype"] not in DTYPES:
            raise SystemExit(f"{path}: tensor {name} has unsupported dtype {info['dtype']}")
        begin, end = info["data_offsets"]
        dtype = np.dtype(DTYPES[info["dtype"]]).newbyteorder("<")
        tensors[name] = np.frombuffer(data[begin:end], dtype=dtype).reshape(info["shape"])
    return tensors


def write_safetensors(tensors, path):
    """Same layout as scripts/model/bert_to_onnx.py save_safetensors (sorted names, header
    padded with spaces to a multiple of 8), F16 only."""
    header, blobs, off = {"__metadata__": {"format": "pt"}}, [], 0
    for name in sorted(tensors):
        a = np.ascontiguousarray(tensors[name], dtype=np.dtype(np.float16).newbyteorder("<"))
        b = a.tobytes()
        header[name] = {"dtype": "F16", "shape": list(a.shape), "data_offsets": [off, off + len(b)]}
        blobs.append(b)
        off += len(b)
    h = json.dumps(header, separators=(",", ":")).encode()
    h += b" " * (-len(h) % 8)
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        f.write(len(h).to_bytes(8, "little"))
        f.write(h)
        for b in blobs:
            f.write(b)
    os.replace(tmp, path)


def main(model_dir):
    src = os.path.join(model_dir, "model.safetensors")
    tensors = read_safetensors(src)
    half, dropped = {}, []
    for name, a in tensors.items():
        if not np.issubdtype(a.dtype, np.floating):
            dropped.append(name)
            continue
        peak = float(np.max(np.abs(a))) if a.size else 0.0
        if not np.isfinite(peak) or peak > F16_MAX:
            raise SystemExit(f"{name}: values up to {peak} do not fit float16")
        half[name] = a.astype(np.float16)
        if a.size and not np.all(np.isfinite(half[name])):
            raise SystemExit(f"{name}: not finite after conversion")
    out = os.path.join(model_dir, "model.f16.safetensors")
    write_safetensors(half, out)
    digest = hashlib.sha256()
    with open(out, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            digest.update(chunk)
    with open(os.path.join(model_dir, "config.json"), encoding="utf-8") as f:
        config = json.load(f)
    manifest = {
        "weights": "model.f16.safetensors",
        "sha256": digest.hexdigest(),
        "bytes": os.path.getsize(out),
        "config": config,
        "tokenizer": "tokenizer.json",
    }
    with open(os.path.join(model_dir, "browser.json"), "w", encoding="utf-8") as f:
        json.dump(manifest, f, indent=2, ensure_ascii=False)
        f.write("\n")
    worst = max((float(np.max(np.abs(half[n].astype(np.float32) - tensors[n].astype(np.float32))))
                 for n in half if tensors[n].size), default=0.0)
    print(f"wrote {out}: {len(half)} tensors, {manifest['bytes']} bytes, sha256 {manifest['sha256']}, "
          f"max abs rounding {worst:.2e}" + (f"; left out non-float {', '.join(sorted(dropped))}" if dropped else ""))


if __name__ == "__main__":
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    main(sys.argv[1])
