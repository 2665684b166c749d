//! Krippendorff's ordinal α with every coder and with each coder left out, from one set of
//! integer pair counts: leaving a coder out only changes the units they coded, so each
//! leave-one-out α costs the coder's own units, not the whole study's (a study can have
//! hundreds of raters). Agrees with [`crate::stats::krippendorff_alpha`] (the tests check it).

use std::collections::BTreeMap;

/// Ordered value pairs within units, by unit size `m` (a pair in a unit of `m` values weighs
/// `1/(m−1)` in the coincidence matrix): integers, so that taking a coder out is exact.
#[derive(Clone, Default)]
struct PairCounts {
    /// `m` → `k × k` ordered pair counts (row-major).
    by_size: BTreeMap<usize, Vec<i64>>,
}

impl PairCounts {
    /// Adds (`sign` = 1) or removes (−1) the ordered pairs of one unit given as value indices.
    fn add(&mut self, unit: &[usize], k: usize, sign: i64) {
        let m = unit.len();
        if m < 2 {
            return;
        }
        let cells = self.by_size.entry(m).or_insert_with(|| vec![0; k * k]);
        for (i, &a) in unit.iter().enumerate() {
            for (j, &b) in unit.iter().enumerate() {
                if i != j {
                    cells[a * k + b] += sign;
                }
            }
        }
    }

    /// Ordinal α of the counts (`None`: fewer than two pairable values, or no expected
    /// disagreement), as `krippendorff_alpha` defines it.
    fn ordinal_alpha(&self, k: usize) -> Option<f64> {
        let mut o = vec![0.0f64; k * k];
        for (&m, cells) in &self.by_size {
            let w = 1.0 / (m as f64 - 1.0);
            for (x, &c) in o.iter_mut().zip(cells) {
                *x += c as f64 * w;
            }
        }
        let n_c: Vec<f64> = (0..k).map(|c| o[c * k..(c + 1) * k].iter().sum()).collect();
        let n: f64 = n_c.iter().sum();
        if n < 2.0 {
            return None;
        }
        let delta2 = |c: usize, g: usize| {
            let (lo, hi) = (c.min(g), c.max(g));
            let s: f64 = n_c[lo..=hi].iter().sum::<f64>() - (n_c[c] + n_c[g]) / 2.0;
            s * s
        };
        let (mut observed, mut expected) = (0.0, 0.0);
        for c in 0..k {
            for g in 0..k {
                let d = delta2(c, g);
                observed += o[c * k + g] * d;
                expected += n_c[c] * n_c[g] * d;
            }
        }
        (expected > 0.0).then(|| 1.0 - (n - 1.0) * observed / expected)
    }
}

/// Ordinal α of `units` (each unit: (coder index, value) pairs; a coder has at most one value
/// per unit) with every coder, and without each of the `coders` coders in turn.
pub(super) fn ordinal_alpha_loo(
    units: &[Vec<(usize, f64)>],
    coders: usize,
) -> (Option<f64>, Vec<Option<f64>>) {
    let mut values: Vec<f64> = units.iter().flatten().map(|&(_, v)| v).collect();
    values.sort_by(f64::total_cmp);
    values.dedup();
    let k = values.len();
    let index = |x: f64| values.partition_point(|&y| y < x);
    let indexed: Vec<Vec<(usize, usize)>> = units
        .iter()
        .map(|u| u.iter().map(|&(c, v)| (c, index(v))).collect())
        .collect();
    let mut total = PairCounts::default();
    let mut of_coder: Vec<Vec<usize>> = vec![Vec::new(); coders];
    for (u, unit) in indexed.iter().enumerate() {
        let vals: Vec<usize> = unit.iter().map(|&(_, v)| v).collect();
        total.add(&vals, k, 1);
        for &(c, _) in unit {
            if let Some(list) = of_coder.get_mut(c) {
                list.push(u);
            }
        }
    }
    // A coder's units, each once.
    of_coder.iter_mut().for_each(Vec::dedup);
    let with = total.ordinal_alpha(k);
    let without = of_coder
        .iter()
        .enumerate()
        .map(|(coder, own)| {
            let mut counts = total.clone();
            for &u in own {
                let all: Vec<usize> = indexed[u].iter().map(|&(_, v)| v).collect();
                let rest: Vec<usize> = indexed[u]
                    .iter()
                    .filter(|&&(c, _)| c != coder)
                    .map(|&(_, v)| v)
                    .collect();
                counts.add(&all, k, -1);
                counts.add(&rest, k, 1);
            }
            counts.ordinal_alpha(k)
        })
        .collect();
    (with, without)
}
