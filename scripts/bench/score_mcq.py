#!/usr/bin/env python3
"""Reference scorer for the leaderboard benchmark: the same metric as memeboard's
`score_mcq` + per-category accuracy, written the straightforward way in Python.

usage: score_mcq.py GOLD.jsonl PREDICTIONS.jsonl
GOLD lines: {"item_id": str, "category": str, "correct": int (0-based)}
PREDICTIONS lines: {"item_id": str, "answer": int (1-based)}
Prints one JSON line: {"seconds": parse+score time, "accuracy": ..., "per_category": {...}}
"""
import json
import sys
import time


def main():
    gold_path, pred_path = sys.argv[1], sys.argv[2]
    with open(gold_path, encoding="utf-8") as f:
        gold_text = f.read()
    with open(pred_path, encoding="utf-8") as f:
        pred_text = f.read()
    start = time.perf_counter()
    gold = {}
    for line in gold_text.splitlines():
        g = json.loads(line)
        gold[g["item_id"]] = (g["category"], g["correct"])
    answers = {}
    for number, line in enumerate(pred_text.splitlines(), 1):
        if not line.strip():
            continue
        p = json.loads(line)
        item = p["item_id"]
        if item not in gold:
            raise SystemExit(f"line {number}: unknown item id {item}")
        if item in answers:
            raise SystemExit(f"line {number}: duplicate prediction for {item}")
        answer = p["answer"]
        if not isinstance(answer, int) or not 1 <= answer <= 5:
            raise SystemExit(f"line {number}: answer out of range")
        answers[item] = answer - 1
    right, total = {}, {}
    for item, (category, correct) in gold.items():
        ok = 1 if answers.get(item) == correct else 0
        right[category] = right.get(category, 0) + ok
        total[category] = total.get(category, 0) + 1
    accuracy = sum(right.values()) / sum(total.values())
    per_category = {c: right[c] / total[c] for c in sorted(total)}
    elapsed = time.perf_counter() - start
    print(json.dumps({"seconds": elapsed, "accuracy": accuracy, "per_category": per_category}))


if __name__ == "__main__":
    main()
