#!/usr/bin/env python3
"""Shuffles the options of server/demo/demo_mcq.json so that the correct option's position
follows no pattern (it used to be (line index mod 5) + 1, and a file answering by that
pattern scored 1.0). Correct positions are balanced over the five positions in a seeded
order; distractors are shuffled by a seed from the sentence. Deterministic: re-running gives
the same file. The questions, answers and distractor sets are unchanged.

Usage: python3 scripts/shuffle-demo-mcq.py [path]   (default server/demo/demo_mcq.json)
"""
import hashlib
import json
import sys

path = sys.argv[1] if len(sys.argv) > 1 else "server/demo/demo_mcq.json"
with open(path, encoding="utf-8") as f:
    questions = json.load(f)

def stream(seed):
    """Endless pseudo-random 64-bit numbers from a SHA-256 hash chain (stable everywhere)."""
    state = hashlib.sha256(seed.encode()).digest()
    while True:
        state = hashlib.sha256(state).digest()
        yield int.from_bytes(state[:8], "big")


def shuffle(items, numbers):
    for i in range(len(items) - 1, 0, -1):
        j = next(numbers) % (i + 1)
        items[i], items[j] = items[j], items[i]


# Balanced correct positions (each position equally often, up to one), in a seeded order, so
# that neither a positional pattern nor a constant answer beats chance.
n_options = len(questions[0]["options"])
positions = [k % n_options for k in range(len(questions))]
shuffle(positions, stream("memeboard-demo/positions"))
for q, position in zip(questions, positions):
    options = [q["options"][str(k)] for k in range(1, len(q["options"]) + 1)]
    answer = options[q["correct_answer"] - 1]
    distractors = sorted(o for o in options if o != answer)
    shuffle(distractors, stream("memeboard-demo/" + q["sentence"]))
    options = distractors[:position] + [answer] + distractors[position:]
    q["options"] = {str(k + 1): o for k, o in enumerate(options)}
    q["correct_answer"] = position + 1

with open(path, "w", encoding="utf-8") as f:
    json.dump(questions, f, ensure_ascii=False, indent=2)
    f.write("\n")
print("correct positions:", [q["correct_answer"] for q in questions])
