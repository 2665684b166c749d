#!/usr/bin/env python3
"""Builds the test fixtures of memeboard-embed (embed/tests/data/) from the project's demo
data and the reference implementations:

  pairs.json    sentence pairs, built deterministically from server/demo/demo_memes.json plus
                a few hand-written edge cases (ASCII, punctuation, emoji, full-width, accents,
                special-token literals, control characters, an over-long text, "").
  tokens.json   for every distinct string of the pairs and of the demo data: the token ids of
                the reference HF `tokenizers` (special tokens added, truncated to 512 as the
                server does), per model.
  cosines.json  per model, the cosine of each pair's sentence embeddings computed with
                onnxruntime on model.onnx (mean pooling, L2 norm), inputs truncated to the
                model's positions.

usage: make_fixtures.py MODELS_DIR   (MODELS_DIR holds m3e-small/ and tiny-bert/; run with
       the model venv: target/model-venv/bin/python, which has tokenizers and onnxruntime)
"""
import json, os, sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DATA = os.path.join(ROOT, "embed", "tests", "data")
MODELS = ["tiny-bert", "m3e-small"]

EXTRAS = [
    "",
    "yyds!",
    "Hello, World! It's 2024 -- don't panic.",
    "LOL 这个梗太 funny 了 😂😂",
    "emoji: 👍🏻❤️👨‍👩‍👧 🐶",
    "ＡＢＣ１２３，全角字符！？（测试）",
    "……——「」『』【】《》“”‘’~!@#$%^&*()_+-=[]{}|;':\",./<>?",
    "Café naïve résumé Ångström façade ÉCOLE",
    "[MASK] 和 [CLS] 是特殊标记[SEP]",
    "tab\there\nnewline\r\n\u00a0nbsp\u3000ideographic space\u200bzwsp\u0007bell",
    "a" * 120 + " ok",
    "日本語のテキストと한국어 텍스트",
    "2020年前后，3.14159 和 100% 的人都知道 1,000,000",
    "DOGE 神烦狗 Doge doge",
    "兼容汉字\uf900与扩展𠀀字\ue000私用\ufffd替换",
    "   ",
]

REFERENCE_PAIR = ["这个梗用来形容事情彻底搞砸了，无法挽回。", "这句流行语表示事情已经完全失败、没救了。"]


def build_pairs(memes):
    n = len(memes)
    pairs = [REFERENCE_PAIR]
    for i, m in enumerate(memes):
        other = memes[(i + 1) % n]
        far = memes[(i + 7) % n]
        pairs += [
            [m["meaning"], m["examples"][0]],
            [m["meaning"], other["meaning"]],
            [m["examples"][1], m["examples"][2]],
            [m["origin"] or m["examples"][2], m["meaning"]],  # origin is null for some
            [m["examples"][0], far["examples"][0]],
            [m["meme"], m["meaning"]],
        ]
    long_text = "".join(m["meaning"] for m in memes)  # far beyond 512 tokens: truncation
    extras = EXTRAS + [long_text]
    for i, e in enumerate(extras):
        pairs.append([e, extras[(i + 1) % len(extras)]])
        pairs.append([e, memes[i % n]["meaning"]])
    return pairs


def demo_strings(memes):
    out = []
    for m in memes:
        out += [m["meme"], m["meaning"], m["origin"], *m["examples"], m["type_cn"], m["type_en"]]
    return [s for s in out if isinstance(s, str)]


def unique(seq):
    seen, out = set(), []
    for s in seq:
        if s not in seen:
            seen.add(s)
            out.append(s)
    return out


def main(models_dir):
    import numpy as np
    import onnxruntime as ort
    from tokenizers import Tokenizer

    memes = json.load(open(os.path.join(ROOT, "server", "demo", "demo_memes.json"), encoding="utf-8"))
    pairs = build_pairs(memes)
    sentences = unique([s for p in pairs for s in p] + demo_strings(memes))
    tokens = {"sentences": sentences}
    cosines = {}
    for name in MODELS:
        d = os.path.join(models_dir, name)
        tok = Tokenizer.from_file(os.path.join(d, "tokenizer.json"))
        tok.enable_truncation(max_length=512)
        tokens[name] = [tok.encode(s).ids for s in sentences]
        cfg = json.load(open(os.path.join(d, "config.json")))
        tok.enable_truncation(max_length=min(512, cfg["max_position_embeddings"]))
        sess = ort.InferenceSession(os.path.join(d, "model.onnx"), providers=["CPUExecutionProvider"])
        vec = {}
        for s in unique([s for p in pairs for s in p]):
            ids = np.array([tok.encode(s).ids], dtype=np.int64)
            (hidden,) = sess.run(["last_hidden_state"], {
                "input_ids": ids,
                "attention_mask": np.ones_like(ids),
                "token_type_ids": np.zeros_like(ids),
            })
            v = hidden[0].astype(np.float64).mean(axis=0)
            vec[s] = v / np.linalg.norm(v)
        cosines[name] = [round(float(vec[a] @ vec[b]), 9) for a, b in pairs]
        print(f"{name}: {len(sentences)} tokenized, pair 0 cosine {cosines[name][0]:.6f}")

    os.makedirs(DATA, exist_ok=True)

    def dump(name, obj, rows):
        with open(os.path.join(DATA, name), "w", encoding="utf-8") as f:
            if rows is None:
                json.dump(obj, f, ensure_ascii=False)
            else:  # one row per line: readable diffs
                f.write("[\n" + ",\n".join(json.dumps(r, ensure_ascii=False, separators=(",", ":")) for r in obj) + "\n]")
            f.write("\n")

    dump("pairs.json", pairs, True)
    with open(os.path.join(DATA, "tokens.json"), "w", encoding="utf-8") as f:
        f.write("{\n")
        f.write('"sentences": [\n' + ",\n".join(json.dumps(s, ensure_ascii=False) for s in sentences) + "\n]")
        for name in MODELS:
            f.write(f',\n"{name}": [\n' + ",\n".join(json.dumps(t, separators=(",", ":")) for t in tokens[name]) + "\n]")
        f.write("\n}\n")
    with open(os.path.join(DATA, "cosines.json"), "w", encoding="utf-8") as f:
        f.write("{\n" + ",\n".join(f'"{n}": {json.dumps(cosines[n])}' for n in MODELS) + "\n}\n")
    print(f"{len(pairs)} pairs, {len(sentences)} sentences -> {DATA}")


if __name__ == "__main__":
    main(sys.argv[1])
