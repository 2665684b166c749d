#!/usr/bin/env python3
"""Generates a tiny deterministic BERT (2 layers, hidden 32, random weights, seed 0) with its
own WordPiece tokenizer, for fast tests of the embedding code paths.

usage: make_tiny_bert.py OUT_DIR
writes OUT_DIR/{config.json, tokenizer.json, model.onnx, model.safetensors, reference.json}
reference.json holds embeddings computed here with onnxruntime, so Rust backends can be
checked against an independent implementation.
"""
import json
import os
import sys

import numpy as np
from tokenizers import Tokenizer, models, normalizers, pre_tokenizers, processors

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bert_to_onnx import build_onnx, save_safetensors  # noqa: E402

SPECIAL = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]
# One token per character, as in Chinese BERT vocabularies: common CJK + ASCII.
CHARS = list("的一是不了人我在有他这中大来上个国到说们为子和你地出道也时年得就那要下以生会自着去之过家学对可她里后小么心多天而能好都然没日于起还发成事只作当想看文无开手十用主行方又如前所本见经头面公同三已老从动两长知民样现分将外但身些与高意进把法此实回二理美点月明其种声全工己话儿者向情部正名定女问力机给等几很业最间新什打便位因重被走电四第门相次东政海口使教西再平真听世气信北少关并内加化由却代军产入先山五太水万市眼体别处总才场师书比住员九笑性通目华报立马命张活难神数件安表原车白应路期叫死常提感金何更反合放做系计或司利受光王果亲界及今京务制解各任至清物台象记边共风战干接它许八特觉望直服毛林题建南度统色字请交爱让认算论百吃义科怎元社术结六功指思非流每青管夫连远资队跟带花快条院变联言权往展该领传近留红治决周保达办运武半候七必城父强步完革深区即求品士转量空甚众技轻程告江语英基派满式李息写呢识极令黄德收脸钱党倒未持取设始版双历越史商千片容研像找友孩站广改议形委早房音火际则首单据导影失拿网香似斯专石若兵弟谁校读志飞观争究包组造落视济喜离虽坏兴切今梗网友形容事情意思用来表示流行语句搞砸失败没救彻底挽回躺平内卷破防社死摆烂打工人真香绝子吃瓜韭菜卧槽")
ASCII = list("abcdefghijklmnopqrstuvwxyz0123456789.,!?;:'()-_") + ['"'] + list("，。！？；：“”（）、…")


def vocab():
    seen, out = set(), []
    for t in SPECIAL + CHARS + ASCII:
        if t not in seen:
            seen.add(t)
            out.append(t)
    return {t: i for i, t in enumerate(out)}


def main(out_dir):
    os.makedirs(out_dir, exist_ok=True)
    v = vocab()
    H, L, NH, I, P = 32, 2, 4, 64, 128
    cfg = {"architectures": ["BertModel"], "model_type": "bert", "hidden_size": H,
           "num_hidden_layers": L, "num_attention_heads": NH, "intermediate_size": I,
           "hidden_act": "gelu", "max_position_embeddings": P, "type_vocab_size": 2,
           "vocab_size": len(v), "layer_norm_eps": 1e-12, "pooling": "mean"}
    rng = np.random.default_rng(0)
    w = lambda *shape: (rng.standard_normal(shape) * 0.1).astype(np.float32)
    sd = {"embeddings.word_embeddings.weight": w(len(v), H),
          "embeddings.position_embeddings.weight": w(P, H),
          "embeddings.token_type_embeddings.weight": w(2, H),
          "embeddings.LayerNorm.weight": np.ones(H, np.float32) + w(H),
          "embeddings.LayerNorm.bias": w(H)}
    for i in range(L):
        p = f"encoder.layer.{i}"
        for name, (o, n) in {"attention.self.query": (H, H), "attention.self.key": (H, H),
                             "attention.self.value": (H, H), "attention.output.dense": (H, H),
                             "intermediate.dense": (I, H), "output.dense": (H, I)}.items():
            sd[f"{p}.{name}.weight"] = w(o, n)
            sd[f"{p}.{name}.bias"] = w(o)
        for ln in ["attention.output.LayerNorm", "output.LayerNorm"]:
            sd[f"{p}.{ln}.weight"] = np.ones(H, np.float32) + w(H)
            sd[f"{p}.{ln}.bias"] = w(H)
    json.dump(cfg, open(f"{out_dir}/config.json", "w"), indent=2)
    build_onnx(cfg, sd, f"{out_dir}/model.onnx")
    save_safetensors(sd, f"{out_dir}/model.safetensors")

    tok = Tokenizer(models.WordPiece(v, unk_token="[UNK]", max_input_chars_per_word=100))
    tok.normalizer = normalizers.BertNormalizer(clean_text=True, handle_chinese_chars=True, strip_accents=None, lowercase=True)
    tok.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    tok.post_processor = processors.TemplateProcessing(
        single="[CLS] $A [SEP]", pair="[CLS] $A [SEP] $B:1 [SEP]:1",
        special_tokens=[("[CLS]", v["[CLS]"]), ("[SEP]", v["[SEP]"])])
    tok.save(f"{out_dir}/tokenizer.json")

    # Reference embeddings with onnxruntime (mean pooling + L2), for the Rust agreement test.
    import onnxruntime as ort
    sentences = ["这个梗用来形容事情彻底搞砸了，无法挽回。", "这句流行语表示事情已经完全失败、没救了。",
                 "躺平", "打工人的一天", "yyds!", ""]
    sess = ort.InferenceSession(f"{out_dir}/model.onnx", providers=["CPUExecutionProvider"])
    tok.enable_padding()
    enc = tok.encode_batch(sentences)
    ids = np.array([e.ids for e in enc], np.int64)
    mask = np.array([e.attention_mask for e in enc], np.int64)
    hidden = sess.run(None, {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)})[0]
    pooled = (hidden * mask[..., None]).sum(1) / np.maximum(mask.sum(1, keepdims=True), 1)
    pooled /= np.maximum(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12)
    json.dump({"sentences": sentences, "embeddings": pooled.tolist()}, open(f"{out_dir}/reference.json", "w"))
    print(f"wrote tiny BERT to {out_dir}: vocab {len(v)}, {L} layers, hidden {H}")


if __name__ == "__main__":
    main(sys.argv[1])
