#!/usr/bin/env python3
"""Writes core/tests/fixtures/f1_vectors.json: seeded random structure-typing cases with
scikit-learn's macro and weighted F1, so that core/tests/f1_against_sklearn.rs can check
Metric::MacroF1 and Metric::WeightedF1 against scikit-learn without needing Python.

Each random case draws 3-5 of the five structure labels, 5-60 items, gold and predicted labels from
them, and ~10% unparseable predictions (written as null). scikit-learn is called as the
MacroF1 doc in core/src/metrics.rs defines the metric:

    f1_score(y_true, y_pred, labels=L, average='macro'|'weighted', zero_division=0)

with L = sorted union of the gold labels and the parsed predicted labels, and each
unparseable prediction mapped to a sentinel label outside L (a false negative of its gold
class, a false positive of no class).

Deterministic (seeded): rerunning gives the same file. To rerun:

    python3 -m venv /tmp/skl && /tmp/skl/bin/pip install scikit-learn
    /tmp/skl/bin/python scripts/sklearn_f1_vectors.py      # from the repository root
"""
import json
import random

import sklearn
from sklearn.metrics import f1_score

LABELS = ["narrative", "progressive", "conversational", "parallel", "comparison"]
SENTINEL = "<unparseable>"
OUT = "core/tests/fixtures/f1_vectors.json"


def scored(gold, predicted):
    """A case with scikit-learn's macro and weighted F1 (see the module docstring)."""
    labels = sorted(set(gold) | {p for p in predicted if p is not None})
    y_pred = [SENTINEL if p is None else p for p in predicted]
    assert SENTINEL not in labels
    out = {"gold": gold, "predicted": predicted, "labels": labels}
    for avg in ("macro", "weighted"):
        out[f"{avg}_f1"] = float(
            f1_score(gold, y_pred, labels=labels, average=avg, zero_division=0)
        )
    return out


def random_case(rng):
    # 3 to 5 classes: there are only five structure labels.
    classes = rng.sample(LABELS, rng.randint(3, len(LABELS)))
    n = rng.randint(5, 60)
    gold = [rng.choice(classes) for _ in range(n)]
    predicted = []
    for g in gold:
        r = rng.random()
        if r < 0.10:
            predicted.append(None)
        elif r < 0.55:
            predicted.append(g)  # some skill, so F1 values spread out
        else:
            predicted.append(rng.choice(classes))
    return scored(gold, predicted)


def main():
    rng = random.Random(20240611)
    cases = [random_case(rng) for _ in range(30)]
    # Edge cases: every prediction unparseable; a class only ever predicted; all right.
    cases.append(scored(["narrative", "parallel", "parallel"], [None, None, None]))
    cases.append(
        scored(
            ["narrative", "narrative", "parallel", "parallel", "comparison"],
            ["narrative", "conversational", "parallel", None, "comparison"],
        )
    )
    cases.append(
        scored(
            ["progressive", "comparison", "comparison"],
            ["progressive", "comparison", "comparison"],
        )
    )
    # One case per line, so a regenerated file diffs readably.
    lines = ",\n".join("  " + json.dumps(c, ensure_ascii=False) for c in cases)
    with open(OUT, "w", encoding="utf-8") as f:
        f.write("{\n")
        f.write('"generator": "scripts/sklearn_f1_vectors.py",\n')
        f.write(f'"sklearn_version": {json.dumps(sklearn.__version__)},\n')
        f.write(f'"cases": [\n{lines}\n]\n}}\n')
    print(f"wrote {len(cases)} cases to {OUT}")


if __name__ == "__main__":
    main()
