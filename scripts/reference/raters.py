#!/usr/bin/env python3
"""Reference per-rater reliability for core/src/human_eval/raters.rs and dawid_skene.rs.

Prints, as Rust source to paste into the test `matches_the_reference_script` in
core/src/human_eval/raters/tests.rs:
  - per batch, Fleiss' kappa with every rater and with each rater left out, from statsmodels
    (`statsmodels.stats.inter_rater.fleiss_kappa` of `aggregate_raters`), an implementation
    independent of the Rust one;
  - per rater, the Dawid-Skene competence (sum_k prior_k * confusion_r[k][k]) of an EM fit
    written here in numpy from Dawid & Skene (1979), with the smoothing, start and stopping
    rule documented in dawid_skene.rs (pseudo-count 0.01, soft majority-vote start, stop when
    no posterior moves by more than 1e-9 or after 200 rounds, then a last M step);
  - the competences of the worked example in the doc of `dawid_skene`.

The verdicts are meaning verdicts, 0 = disagree, 1 = neutral, 2 = agree; rows are raters,
columns the pages of their batch. The same data is written out in the Rust test.

Needs numpy and statsmodels (e.g. python3 -m venv target/refvenv &&
target/refvenv/bin/pip install statsmodels). Run from the repository root:
  target/refvenv/bin/python scripts/reference/raters.py
"""
import numpy as np
from statsmodels.stats.inter_rater import aggregate_raters, fleiss_kappa

BATCHES = {
    "1": {
        "r1": [2, 2, 0, 1, 2, 0, 0, 2, 1, 2, 0, 2],
        "r2": [2, 2, 0, 1, 2, 0, 1, 2, 1, 2, 0, 0],
        "r3": [2, 1, 0, 1, 2, 0, 0, 2, 2, 2, 0, 2],
        "r4": [0, 2, 1, 2, 0, 0, 2, 1, 1, 0, 2, 2],
    },
    "2": {
        "r5": [2, 0, 0, 1, 2, 2, 0, 1],
        "r6": [2, 0, 1, 1, 2, 2, 0, 1],
        "r7": [2, 0, 0, 2, 2, 1, 0, 0],
    },
}
SMOOTHING = 0.01
MAX_ITERATIONS = 200
TOLERANCE = 1e-9


def kappa(columns):
    data = np.array(columns).T  # subjects x raters
    table, _ = aggregate_raters(data, n_cat=3)
    return fleiss_kappa(table, method="fleiss")


def dawid_skene(labels, k):
    """labels: list of (subject, rater, class). Returns (competence by rater, iterations)."""
    subjects = sorted({s for s, _, _ in labels})
    raters = sorted({r for _, r, _ in labels})
    si = {s: i for i, s in enumerate(subjects)}
    ri = {r: i for i, r in enumerate(raters)}
    # one-hot counts: n[i, r, l]
    n = np.zeros((len(subjects), len(raters), k))
    for s, r, c in labels:
        n[si[s], ri[r], c] += 1
    votes = n.sum(axis=1)
    t = votes / votes.sum(axis=1, keepdims=True)

    def m_step(t):
        priors = SMOOTHING + t.sum(axis=0)
        priors = priors / priors.sum()
        conf = SMOOTHING + np.einsum("ik,irl->rkl", t, n)
        conf = conf / conf.sum(axis=2, keepdims=True)
        return priors, conf

    it = 0
    while it < MAX_ITERATIONS:
        it += 1
        priors, conf = m_step(t)
        logs = np.log(priors)[None, :] + np.einsum("irl,rkl->ik", n, np.log(conf))
        logs -= logs.max(axis=1, keepdims=True)
        nxt = np.exp(logs)
        nxt /= nxt.sum(axis=1, keepdims=True)
        moved = np.abs(nxt - t).max()
        t = nxt
        if moved < TOLERANCE:
            break
    priors, conf = m_step(t)
    return {r: float(sum(priors[c] * conf[ri[r], c, c] for c in range(k))) for r in raters}, it


def main():
    print("// Per batch: (batch, kappa with all, [(rater, kappa without the rater)]).")
    print("const KAPPA: &[(&str, f64, &[(&str, f64)])] = &[")
    labels = []
    for batch, raters in BATCHES.items():
        names = sorted(raters)
        full = kappa([raters[r] for r in names])
        loo = [(r, kappa([raters[o] for o in names if o != r])) for r in names]
        inner = ", ".join(f'("{r}", {float(v)!r})' for r, v in loo)
        print(f'    ("{batch}", {float(full)!r}, &[{inner}]),')
        for r in names:
            for page, v in enumerate(raters[r]):
                labels.append((f"{batch}/p{page:02}", r, v))
    print("];")
    competence, iterations = dawid_skene(labels, 3)
    print(f"// Dawid-Skene competence ({iterations} EM rounds).")
    print("const COMPETENCE: &[(&str, f64)] = &[")
    for r, c in competence.items():
        print(f'    ("{r}", {c!r}),')
    print("];")
    example = []
    for subject, truth, c_gives in [("s1", 0, 0), ("s2", 1, 1), ("s3", 0, 1), ("s4", 1, 0)]:
        example += [(subject, "a", truth), (subject, "b", truth), (subject, "c", c_gives)]
    doc, iterations = dawid_skene(example, 2)
    print(f"// Worked example of `dawid_skene` ({iterations} EM rounds): {doc}")


if __name__ == "__main__":
    main()
