#!/usr/bin/env python3
"""Reference for the server embedding benchmark: the same sentences through Python
onnxruntime with the same model file, tokenizer, batch size and pooling as the Rust server.

usage: embed_ort.py MODEL_DIR SENTENCES.json BATCH THREADS
Prints one JSON line: {"seconds": ..., "sentences": N, "first": [first 4 dims of sentence 0]}
"""
import json
import sys
import time

import numpy as np
import onnxruntime as ort
from tokenizers import Tokenizer


def main():
    model_dir, sentences_path, batch, threads = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    sentences = json.load(open(sentences_path, encoding="utf-8"))
    tok = Tokenizer.from_file(f"{model_dir}/tokenizer.json")
    tok.enable_padding()
    tok.enable_truncation(512)
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = threads
    opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    sess = ort.InferenceSession(f"{model_dir}/model.onnx", opts, providers=["CPUExecutionProvider"])
    start = time.perf_counter()
    out = []
    for i in range(0, len(sentences), batch):
        enc = tok.encode_batch(sentences[i:i + batch])
        ids = np.array([e.ids for e in enc], np.int64)
        mask = np.array([e.attention_mask for e in enc], np.int64)
        hidden = sess.run(None, {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)})[0]
        pooled = (hidden * mask[..., None]).sum(1) / mask.sum(1, keepdims=True)
        pooled /= np.linalg.norm(pooled, axis=1, keepdims=True)
        out.append(pooled)
    seconds = time.perf_counter() - start
    first = np.concatenate(out)[0][:4].tolist()
    print(json.dumps({"seconds": seconds, "sentences": len(sentences), "first": first}))


if __name__ == "__main__":
    main()
