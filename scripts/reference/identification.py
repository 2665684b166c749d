#!/usr/bin/env python3
"""Reference values for memeboard's meaning identification score (an AUC).

Independent of the Rust code: the AUC is computed as the Mann-Whitney U statistic from
average ranks (U / (n_pos * n_neg)), the textbook route, on fixed pseudo-random cosines.
Then each near-tie (cosines apart by less than TIE_BAND) has its 0 / 1/2 / 1 replaced by the
linear ramp 1/2 + gap / (2 * TIE_BAND) that keeps the score continuous (see the Rust doc).
Writes core/src/embed/identification_reference.json; the Rust test compares its own
`identification` with these numbers. Written for memeboard (MIT licence, as the project).

Run: python3 scripts/reference/identification.py
"""
import json
import pathlib
import random


def average_ranks(values):
    order = sorted(range(len(values)), key=lambda i: values[i])
    ranks = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            ranks[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return ranks


TIE_BAND = 0.001


def auc(own, others):
    values = [own] + others
    ranks = average_ranks(values)
    u = ranks[0] - 1  # rank sum of the one positive minus its minimum
    for other in others:
        gap = own - other
        if abs(gap) < TIE_BAND:
            hard = 1.0 if gap > 0 else (0.0 if gap < 0 else 0.5)
            u += 0.5 + gap / (2 * TIE_BAND) - hard
    return u / len(others)


def main():
    rng = random.Random(20261203)
    cases = []
    for n in list(range(1, 16)) + [40, 100, 250]:
        for grid in (None, 0.05):
            draw = lambda: rng.uniform(-0.2, 1.0)
            snap = (lambda v: round(round(v / grid) * grid, 6)) if grid else (lambda v: v)
            others = [snap(draw()) for _ in range(n)]
            own = snap(draw()) if rng.random() < 0.7 else rng.choice(others)
            cases.append({"own": own, "others": others, "auc": auc(own, others)})
        # A near-tie on purpose: own a little above or below one of the others.
        others = [rng.uniform(-0.2, 1.0) for _ in range(n)]
        own = rng.choice(others) + rng.uniform(-TIE_BAND, TIE_BAND)
        cases.append({"own": own, "others": others, "auc": auc(own, others)})
    out = pathlib.Path(__file__).resolve().parents[2] / "core/src/embed/identification_reference.json"
    out.write_text(json.dumps(cases, indent=1) + "\n")
    print(f"{len(cases)} cases written to {out}")


if __name__ == "__main__":
    main()
