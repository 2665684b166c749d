#!/usr/bin/env python3
# Adapted for memeboard from the project's model notes (a worked recipe); the graph builder
# is split out as build_onnx() so scripts/model/make_tiny_bert.py can reuse it.
"""Torch-free converter: BERT checkpoint (pytorch_model.bin) -> ONNX (opset 17).

Needs only `numpy` and `onnx`. Reads the PyTorch zip/pickle checkpoint with a restricted
unpickler (no torch import, no arbitrary code), and writes a plain BERT encoder graph:
  inputs  input_ids, attention_mask, token_type_ids : int64 [batch, seq]
  output  last_hidden_state                         : float32 [batch, seq, hidden]
Pooling (mean / CLS) and L2-normalisation are left to the caller.
usage: bert_to_onnx.py MODEL_DIR OUT.onnx          (MODEL_DIR has config.json + pytorch_model.bin)
       bert_to_onnx.py MODEL_DIR OUT.safetensors   (same tensors, safetensors container: for candle / wasm)
"""
import json, math, pickle, sys, zipfile
import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

_DT = {"FloatStorage": np.float32, "HalfStorage": np.float16, "LongStorage": np.int64,
       "IntStorage": np.int32, "BFloat16Storage": None}

def load_torch_bin(path):
    zf = zipfile.ZipFile(path)
    pkl = [n for n in zf.namelist() if n.endswith("data.pkl")][0]
    root = pkl[: -len("data.pkl")]

    class _Storage:
        def __init__(self, dtype, key): self.dtype, self.key = dtype, key

    def _rebuild_tensor_v2(storage, offset, size, stride, *args):
        raw = np.frombuffer(zf.read(f"{root}data/{storage.key}"), dtype=storage.dtype)
        if not size:
            return raw[offset:offset + 1].reshape(())
        item = raw.itemsize
        return np.lib.stride_tricks.as_strided(raw[offset:], shape=tuple(size),
                                               strides=tuple(s * item for s in stride)).copy()

    class U(pickle.Unpickler):
        def find_class(self, mod, name):
            if mod == "torch._utils" and name == "_rebuild_tensor_v2": return _rebuild_tensor_v2
            if mod == "torch" and name in _DT:
                if _DT[name] is None: raise ValueError("bf16 checkpoint not supported")
                return name
            if mod == "collections" and name == "OrderedDict":
                import collections; return collections.OrderedDict
            raise pickle.UnpicklingError(f"refusing {mod}.{name}")
        def persistent_load(self, pid):
            _, storage_type, key, _loc, _n = pid
            return _Storage(_DT[storage_type], key)

    return U(zf.open(pkl)).load()

def save_safetensors(sd, out):
    names = {np.dtype(np.float32): "F32", np.dtype(np.float16): "F16", np.dtype(np.int64): "I64", np.dtype(np.int32): "I32"}
    header, blobs, off = {}, [], 0
    for k in sorted(sd):
        a = np.ascontiguousarray(sd[k]); b = a.tobytes()
        header[k] = {"dtype": names[a.dtype], "shape": list(a.shape), "data_offsets": [off, off + len(b)]}
        blobs.append(b); off += len(b)
    h = json.dumps(header, separators=(",", ":")).encode()
    h += b" " * (-len(h) % 8)
    with open(out, "wb") as f:
        f.write(len(h).to_bytes(8, "little")); f.write(h)
        for b in blobs: f.write(b)
    print(f"wrote {out}: {len(sd)} tensors")

def main(model_dir, out):
    cfg = json.load(open(f"{model_dir}/config.json"))
    sd = load_torch_bin(f"{model_dir}/pytorch_model.bin")
    if out.endswith(".safetensors"):
        return save_safetensors(sd, out)
    build_onnx(cfg, sd, out)

def build_onnx(cfg, sd, out):
    """Writes the BERT encoder graph for config `cfg` and state dict `sd` (numpy arrays)."""
    sd = {k[5:] if k.startswith("bert.") else k: v for k, v in sd.items()}
    H, nh, L = cfg["hidden_size"], cfg["num_attention_heads"], cfg["num_hidden_layers"]
    hd, eps = H // nh, cfg.get("layer_norm_eps", 1e-12)
    assert cfg.get("hidden_act", "gelu") == "gelu", "only erf-GELU implemented"
    inits, nodes = [], []
    def W(name, arr):
        inits.append(numpy_helper.from_array(np.ascontiguousarray(arr), name)); return name
    def C(name, arr): return W(name, np.array(arr))
    def N(op, ins, outs, **kw):
        nodes.append(helper.make_node(op, ins, outs, name=outs[0] + "_" + op, **kw)); return outs[0]
    def linear(x, prefix, tag):
        m = N("MatMul", [x, W(prefix + ".wT", sd[prefix + ".weight"].T.astype(np.float32))], [tag + "_mm"])
        return N("Add", [m, W(prefix + ".bias", sd[prefix + ".bias"].astype(np.float32))], [tag])
    def layernorm(x, prefix, tag):
        return N("LayerNormalization", [x, W(prefix + ".weight", sd[prefix + ".weight"]), W(prefix + ".bias", sd[prefix + ".bias"])],
                 [tag], axis=-1, epsilon=eps)

    # embeddings
    C("axis0", np.array([0], np.int64)); C("axes12", np.array([1, 2], np.int64))
    we = N("Gather", [W("word_emb", sd["embeddings.word_embeddings.weight"]), "input_ids"], ["we"])
    T1 = N("Shape", ["input_ids"], ["seq_len_1d"], start=1, end=2)          # [T]
    pe = N("Slice", [W("pos_emb", sd["embeddings.position_embeddings.weight"]), "axis0", T1, "axis0"], ["pe"])  # rows 0..T -> [T,H]
    te = N("Gather", [W("type_emb", sd["embeddings.token_type_embeddings.weight"]), "token_type_ids"], ["te"])
    x = N("Add", [N("Add", [we, te], ["wt"]), pe], ["emb_sum"])
    x = layernorm(x, "embeddings.LayerNorm", "h0")
    # additive attention mask [B,1,1,T]
    mf = N("Cast", ["attention_mask"], ["mask_f"], to=TensorProto.FLOAT)
    inv = N("Sub", [C("one_f", np.float32(1.0)), mf], ["mask_inv"])
    ext = N("Mul", [inv, C("neg_big", np.float32(-10000.0))], ["mask_add2"])
    ext = N("Unsqueeze", [ext, "axes12"], ["mask_add"])
    C("shape_heads", np.array([0, 0, nh, hd], np.int64)); C("shape_merge", np.array([0, 0, H], np.int64)); C("scale", np.float32(1.0 / math.sqrt(hd)))
    C("half", np.float32(0.5)); C("inv_sqrt2", np.float32(1.0 / math.sqrt(2.0)))
    for i in range(L):
        p = f"encoder.layer.{i}"; t = f"l{i}"
        def heads(name, perm):
            y = linear(x, f"{p}.attention.self.{name}", f"{t}_{name}")
            y = N("Reshape", [y, "shape_heads"], [f"{t}_{name}_r"])
            return N("Transpose", [y], [f"{t}_{name}_t"], perm=perm)
        q, k, v = heads("query", [0, 2, 1, 3]), heads("key", [0, 2, 3, 1]), heads("value", [0, 2, 1, 3])
        s = N("MatMul", [q, k], [f"{t}_qk"])
        s = N("Add", [N("Mul", [s, "scale"], [f"{t}_qk_s"]), ext], [f"{t}_scores"])
        a = N("Softmax", [s], [f"{t}_probs"], axis=-1)
        c = N("MatMul", [a, v], [f"{t}_ctx"])
        c = N("Reshape", [N("Transpose", [c], [f"{t}_ctx_t"], perm=[0, 2, 1, 3]), "shape_merge"], [f"{t}_ctx_m"])
        o = linear(c, f"{p}.attention.output.dense", f"{t}_attn_out")
        x1 = layernorm(N("Add", [o, x], [f"{t}_res1"]), f"{p}.attention.output.LayerNorm", f"{t}_h1")
        f = linear(x1, f"{p}.intermediate.dense", f"{t}_ff1")
        g = N("Mul", [N("Mul", [f, "half"], [f"{t}_g_half"]),
                      N("Add", [N("Erf", [N("Mul", [f, "inv_sqrt2"], [f"{t}_g_s"])], [f"{t}_g_erf"]), "one_f"], [f"{t}_g_1p"])],
              [f"{t}_gelu"])
        f2 = linear(g, f"{p}.output.dense", f"{t}_ff2")
        x = layernorm(N("Add", [f2, x1], [f"{t}_res2"]), f"{p}.output.LayerNorm", f"{t}_h2")
    nodes.append(helper.make_node("Identity", [x], ["last_hidden_state"], name="out"))
    dyn = ["batch", "seq"]
    g = helper.make_graph(nodes, "bert",
        [helper.make_tensor_value_info(n, TensorProto.INT64, dyn) for n in ["input_ids", "attention_mask", "token_type_ids"]],
        [helper.make_tensor_value_info("last_hidden_state", TensorProto.FLOAT, dyn + [H])], inits)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)], producer_name="bert_to_onnx.py")
    m.ir_version = 8
    onnx.checker.check_model(m)
    onnx.save(m, out)
    print(f"wrote {out}: {L} layers, hidden {H}, heads {nh}, {sum(v.size for v in sd.values() if hasattr(v, 'size'))/1e6:.1f}M params")

if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
