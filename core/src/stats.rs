//! Crowd statistics: per-participant accuracy, human average / best / pooled rows with
//! bootstrap 95% intervals, and inter-rater agreement (Fleiss' kappa, Krippendorff's alpha).
//!
//! Intervals resample participants *and* items (two-way bootstrap) with a seeded
//! [`SplitMix64`], so the same data always gives the same interval on every platform.

use crate::rng::SplitMix64;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

mod crowd_bootstrap;
pub use crowd_bootstrap::{crowd_estimate, crowd_estimates, CrowdEstimates, CrowdStatistic};

/// One scored response: participant index, item index, score in `[0, 1]`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Response {
    /// Dense participant index.
    pub participant: usize,
    /// Dense item index.
    pub item: usize,
    /// Score (1.0 correct, 0.0 wrong, or a graded value).
    pub score: f64,
}

/// A point estimate with a 95% interval.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Estimate {
    /// Point estimate on the full data.
    pub value: f64,
    /// 2.5th bootstrap percentile.
    pub ci_low: f64,
    /// 97.5th bootstrap percentile.
    pub ci_high: f64,
}

/// The `q`-quantile (0..=1) of sorted data by linear interpolation (numpy's default).
///
/// ```
/// use memeboard_core::stats::quantile_sorted;
/// assert_eq!(quantile_sorted(&[1.0, 2.0, 3.0, 4.0], 0.5), 2.5);
/// assert_eq!(quantile_sorted(&[1.0, 2.0, 3.0, 4.0], 0.0), 1.0);
/// ```
pub fn quantile_sorted(sorted: &[f64], q: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let pos = q * (sorted.len() - 1) as f64;
    let lo = pos.floor() as usize;
    let hi = pos.ceil() as usize;
    sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo as f64)
}

/// Item-bootstrap 95% percentile intervals for several statistics computed from the same
/// resamples, so that joint quantities (every model's strength, the three shares of a verdict)
/// are drawn together and one seed gives the same intervals on every platform.
///
/// `evaluate(weights)` computes the statistics with item `i` counted `weights[i]` times
/// (multiplicities, nothing is copied) and returns one value per statistic, always the same
/// number of them. The point estimates use all weights 1. Each of `resamples` rounds draws
/// `num_items` items with replacement from a [`SplitMix64`] seeded with `seed`; the interval of
/// statistic `k` is the 2.5th–97.5th percentile of the rounds where it is defined (`Some`). A
/// statistic undefined on the full data is `None`; one never defined in a round (e.g.
/// `resamples = 0`) collapses to its point.
///
/// Worked example: the mean and the maximum of three item values 1, 2, 6. A round that draws
/// item 0 three times (probability 1/27 ≈ 3.7% > 2.5%) has mean and maximum 1, so both lower
/// bounds are 1; one that draws item 2 three times has mean 6.
///
/// ```
/// use memeboard_core::stats::item_bootstrap_many;
/// let values = [1.0, 2.0, 6.0];
/// let est = item_bootstrap_many(3, 2000, 9, |w| {
///     let n: u32 = w.iter().sum();
///     let sum: f64 = w.iter().zip(values).map(|(&w, v)| f64::from(w) * v).sum();
///     let max = w.iter().zip(values).filter(|(&w, _)| w > 0).map(|(_, v)| v).fold(f64::MIN, f64::max);
///     vec![Some(sum / f64::from(n)), Some(max)]
/// });
/// let (mean, max) = (est[0].unwrap(), est[1].unwrap());
/// assert_eq!((mean.value, max.value), (3.0, 6.0));
/// assert_eq!((mean.ci_low, mean.ci_high), (1.0, 6.0));
/// assert_eq!((max.ci_low, max.ci_high), (1.0, 6.0));
/// ```
pub fn item_bootstrap_many(
    num_items: usize,
    resamples: usize,
    seed: u64,
    mut evaluate: impl FnMut(&[u32]) -> Vec<Option<f64>>,
) -> Vec<Option<Estimate>> {
    let points = evaluate(&vec![1; num_items]);
    let mut draws: Vec<Vec<f64>> = vec![Vec::with_capacity(resamples); points.len()];
    if num_items > 0 {
        let mut rng = SplitMix64::new(seed);
        let mut weights = vec![0u32; num_items];
        for _ in 0..resamples {
            weights.fill(0);
            for _ in 0..num_items {
                weights[rng.below(num_items)] += 1;
            }
            for (k, v) in evaluate(&weights).into_iter().enumerate() {
                if let (Some(v), Some(d)) = (v, draws.get_mut(k)) {
                    d.push(v);
                }
            }
        }
    }
    points
        .into_iter()
        .zip(draws)
        .map(|(point, mut d)| {
            let value = point?;
            if d.is_empty() {
                return Some(Estimate {
                    value,
                    ci_low: value,
                    ci_high: value,
                });
            }
            d.sort_by(f64::total_cmp);
            Some(Estimate {
                value,
                ci_low: quantile_sorted(&d, 0.025),
                ci_high: quantile_sorted(&d, 0.975),
            })
        })
        .collect()
}

/// [`item_bootstrap_many`] for one statistic: a point estimate with an item-bootstrap 95%
/// percentile interval, `None` when the statistic is undefined on the full data.
///
/// ```
/// use memeboard_core::stats::item_bootstrap;
/// let values = [0.0, 1.0, 1.0, 1.0];
/// let e = item_bootstrap(4, 1000, 3, |w| {
///     let n: u32 = w.iter().sum();
///     Some(w.iter().zip(values).map(|(&w, v)| f64::from(w) * v).sum::<f64>() / f64::from(n))
/// }).unwrap();
/// assert_eq!(e.value, 0.75);
/// assert!(e.ci_low < 0.75 && e.ci_high == 1.0);
/// ```
pub fn item_bootstrap(
    num_items: usize,
    resamples: usize,
    seed: u64,
    mut evaluate: impl FnMut(&[u32]) -> Option<f64>,
) -> Option<Estimate> {
    item_bootstrap_many(num_items, resamples, seed, |w| vec![evaluate(w)])
        .pop()
        .flatten()
}

/// Mean score per participant (only participants with at least one response), keyed by the
/// participant index.
///
/// ```
/// use memeboard_core::stats::{participant_accuracy, Response};
/// let r = |participant, item, score| Response { participant, item, score };
/// let acc = participant_accuracy(&[r(0, 0, 1.0), r(0, 1, 0.0), r(3, 0, 1.0)]);
/// assert_eq!(acc.get(&0), Some(&0.5));
/// assert_eq!(acc.get(&3), Some(&1.0));
/// ```
pub fn participant_accuracy(responses: &[Response]) -> BTreeMap<usize, f64> {
    let mut sums: BTreeMap<usize, (f64, f64)> = BTreeMap::new();
    for r in responses {
        let e = sums.entry(r.participant).or_default();
        e.0 += r.score;
        e.1 += 1.0;
    }
    sums.into_iter().map(|(p, (s, n))| (p, s / n)).collect()
}

/// Fleiss' kappa for a fixed number of raters per item.
///
/// `counts[i][j]` = how many raters put item `i` in category `j`; every row must have the same
/// total `n ≥ 2`. Returns `None` for inconsistent rows or no variation (`P̄e = 1`).
///
/// Worked example (Fleiss 1971 as reproduced on Wikipedia: 10 items, 14 raters, 5 categories):
/// κ = 0.210.
///
/// ```
/// use memeboard_core::stats::fleiss_kappa;
/// let counts = vec![
///     vec![0, 0, 0, 0, 14], vec![0, 2, 6, 4, 2], vec![0, 0, 3, 5, 6], vec![0, 3, 9, 2, 0],
///     vec![2, 2, 8, 1, 1], vec![7, 7, 0, 0, 0], vec![3, 2, 6, 3, 0], vec![2, 5, 3, 2, 2],
///     vec![6, 5, 2, 1, 0], vec![0, 2, 2, 3, 7],
/// ];
/// let k = fleiss_kappa(&counts).unwrap();
/// assert!((k - 0.210).abs() < 0.001);
/// ```
pub fn fleiss_kappa(counts: &[Vec<u32>]) -> Option<f64> {
    let first = counts.first()?;
    let n: u32 = first.iter().sum();
    let k = first.len();
    if n < 2
        || counts
            .iter()
            .any(|row| row.len() != k || row.iter().sum::<u32>() != n)
    {
        return None;
    }
    let n_items = counts.len() as f64;
    let nf = f64::from(n);
    let p_bar = counts
        .iter()
        .map(|row| {
            let sq: f64 = row.iter().map(|&c| f64::from(c) * f64::from(c)).sum();
            (sq - nf) / (nf * (nf - 1.0))
        })
        .sum::<f64>()
        / n_items;
    let p_e: f64 = (0..k)
        .map(|j| {
            let pj = counts.iter().map(|row| f64::from(row[j])).sum::<f64>() / (n_items * nf);
            pj * pj
        })
        .sum();
    if (1.0 - p_e).abs() < f64::EPSILON {
        return None;
    }
    Some((p_bar - p_e) / (1.0 - p_e))
}

/// The difference function of Krippendorff's alpha.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum AlphaLevel {
    /// Categories: any two different values disagree equally.
    Nominal,
    /// Ranks: disagreement grows with how many values lie between.
    Ordinal,
    /// Numbers: squared difference.
    Interval,
}

/// Krippendorff's alpha with missing ratings allowed.
///
/// `units[u][c]` is coder `c`'s value for unit `u` (`None` = not rated). Units with fewer
/// than two values are not pairable and are ignored. Returns `None` when there is no expected
/// disagreement (a single value overall) or fewer than two pairable values.
///
/// Worked example (Krippendorff 2011, "Computing Krippendorff's alpha-reliability", 4 coders ×
/// 12 units): nominal α = 0.743, ordinal α = 0.815, interval α = 0.849.
///
/// ```
/// use memeboard_core::stats::{krippendorff_alpha, AlphaLevel};
/// let m = None;
/// let coders: [[Option<f64>; 12]; 4] = [
///     [Some(1.), Some(2.), Some(3.), Some(3.), Some(2.), Some(1.), Some(4.), Some(1.), Some(2.), m, m, m],
///     [Some(1.), Some(2.), Some(3.), Some(3.), Some(2.), Some(2.), Some(4.), Some(1.), Some(2.), Some(5.), m, Some(3.)],
///     [m, Some(3.), Some(3.), Some(3.), Some(2.), Some(3.), Some(4.), Some(2.), Some(2.), Some(5.), Some(1.), m],
///     [Some(1.), Some(2.), Some(3.), Some(3.), Some(2.), Some(4.), Some(4.), Some(1.), Some(2.), Some(5.), Some(1.), m],
/// ];
/// let units: Vec<Vec<Option<f64>>> = (0..12).map(|u| coders.iter().map(|c| c[u]).collect()).collect();
/// let a = |level| krippendorff_alpha(&units, level).unwrap();
/// assert!((a(AlphaLevel::Nominal) - 0.743).abs() < 0.001);
/// assert!((a(AlphaLevel::Ordinal) - 0.815).abs() < 0.001);
/// assert!((a(AlphaLevel::Interval) - 0.849).abs() < 0.001);
/// ```
pub fn krippendorff_alpha(units: &[Vec<Option<f64>>], level: AlphaLevel) -> Option<f64> {
    // Distinct values, sorted.
    let mut values: Vec<f64> = units.iter().flatten().flatten().copied().collect();
    values.sort_by(f64::total_cmp);
    values.dedup();
    let v = values.len();
    if v < 2 {
        return None;
    }
    // `==`, as `dedup` compared: −0.0 finds 0.0.
    let index = |x: f64| {
        let i = values.partition_point(|&y| y < x);
        (i < v && values[i] == x).then_some(i)
    };
    // Coincidence matrix, from each unit's count per value: a unit with `m` values adds
    // `n_a·n_b/(m−1)` to `o[a][b]` (`n_a·(n_a−1)/(m−1)` on the diagonal), the sum over its
    // ordered pairs of values without enumerating them (a crowd item has thousands).
    let mut o = vec![vec![0.0f64; v]; v];
    let mut counts = vec![0u64; v];
    for unit in units {
        counts.iter_mut().for_each(|c| *c = 0);
        let mut m = 0u64;
        for a in unit.iter().flatten().filter_map(|&x| index(x)) {
            counts[a] += 1;
            m += 1;
        }
        if m < 2 {
            continue;
        }
        let w = 1.0 / (m as f64 - 1.0);
        let present: Vec<usize> = (0..v).filter(|&a| counts[a] > 0).collect();
        for &a in &present {
            for &b in &present {
                let pairs = if a == b {
                    counts[a] * (counts[a] - 1)
                } else {
                    counts[a] * counts[b]
                };
                o[a][b] += pairs as f64 * w;
            }
        }
    }
    let n_c: Vec<f64> = o.iter().map(|row| row.iter().sum()).collect();
    let n: f64 = n_c.iter().sum();
    if n < 2.0 {
        return None;
    }
    let delta2 = |c: usize, k: usize| -> f64 {
        match level {
            AlphaLevel::Nominal => f64::from(u8::from(c != k)),
            AlphaLevel::Interval => (values[c] - values[k]).powi(2),
            AlphaLevel::Ordinal => {
                let (lo, hi) = (c.min(k), c.max(k));
                let s: f64 = n_c[lo..=hi].iter().sum::<f64>() - (n_c[c] + n_c[k]) / 2.0;
                s * s
            }
        }
    };
    let (mut observed, mut expected) = (0.0, 0.0);
    for c in 0..v {
        for k in 0..v {
            let d = delta2(c, k);
            observed += o[c][k] * d;
            expected += n_c[c] * n_c[k] * d;
        }
    }
    if expected == 0.0 {
        return None;
    }
    Some(1.0 - (n - 1.0) * observed / expected)
}

/// Fleiss' kappa over the items rated by the modal number (≥ 2) of raters (ties go to the
/// larger number). Values must be category indices; the number of categories is the declared
/// count or the largest index seen plus one, whichever is larger (categories nobody chose do
/// not change kappa, so nothing is dropped for exceeding a guess).
pub(crate) fn modal_fleiss_kappa<K>(
    per_item: &BTreeMap<K, Vec<f64>>,
    declared: usize,
) -> Option<f64> {
    let as_index = |v: f64| (v >= 0.0 && v.fract() == 0.0).then_some(v as usize);
    let per_item: Vec<Vec<usize>> = per_item
        .values()
        .map(|vals| vals.iter().filter_map(|&v| as_index(v)).collect())
        .collect();
    let mut rater_counts: BTreeMap<usize, usize> = BTreeMap::new();
    for choices in per_item.iter().filter(|c| c.len() >= 2) {
        *rater_counts.entry(choices.len()).or_default() += 1;
    }
    let (&modal, _) = rater_counts
        .iter()
        .max_by_key(|(n, count)| (**count, **n))?;
    let observed = per_item.iter().flatten().max().map_or(0, |&m| m + 1);
    let k = declared.max(observed);
    let table: Vec<Vec<u32>> = per_item
        .iter()
        .filter(|c| c.len() == modal)
        .map(|choices| {
            let mut row = vec![0u32; k];
            for &c in choices {
                row[c] += 1;
            }
            row
        })
        .collect();
    fleiss_kappa(&table)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn perfect_agreement_gives_kappa_one_and_alpha_one() {
        let counts = vec![vec![3, 0], vec![0, 3], vec![3, 0]];
        assert!((fleiss_kappa(&counts).unwrap() - 1.0).abs() < 1e-12);
        let units = vec![
            vec![Some(1.0), Some(1.0)],
            vec![Some(2.0), Some(2.0)],
            vec![Some(1.0), None],
        ];
        assert!((krippendorff_alpha(&units, AlphaLevel::Nominal).unwrap() - 1.0).abs() < 1e-12);
    }

    /// Krippendorff's alpha as the textbook enumerates it: every ordered pair of values
    /// within a unit adds `1/(m−1)` to the coincidence matrix.
    fn alpha_by_pairs(units: &[Vec<Option<f64>>], level: AlphaLevel) -> Option<f64> {
        let mut values: Vec<f64> = units.iter().flatten().flatten().copied().collect();
        values.sort_by(f64::total_cmp);
        values.dedup();
        let v = values.len();
        let index = |x: f64| values.iter().position(|&y| y == x).unwrap();
        let mut o = vec![vec![0.0f64; v]; v];
        for unit in units {
            let vals: Vec<usize> = unit.iter().flatten().map(|&x| index(x)).collect();
            let m = vals.len();
            if m < 2 {
                continue;
            }
            for (i, &a) in vals.iter().enumerate() {
                for (j, &b) in vals.iter().enumerate() {
                    if i != j {
                        o[a][b] += 1.0 / (m as f64 - 1.0);
                    }
                }
            }
        }
        let n_c: Vec<f64> = o.iter().map(|row| row.iter().sum()).collect();
        let n: f64 = n_c.iter().sum();
        let delta2 = |c: usize, k: usize| match level {
            AlphaLevel::Nominal => f64::from(u8::from(c != k)),
            AlphaLevel::Interval => (values[c] - values[k]).powi(2),
            AlphaLevel::Ordinal => {
                let (lo, hi) = (c.min(k), c.max(k));
                (n_c[lo..=hi].iter().sum::<f64>() - (n_c[c] + n_c[k]) / 2.0).powi(2)
            }
        };
        let (mut observed, mut expected) = (0.0, 0.0);
        for c in 0..v {
            for k in 0..v {
                observed += o[c][k] * delta2(c, k);
                expected += n_c[c] * n_c[k] * delta2(c, k);
            }
        }
        Some(1.0 - (n - 1.0) * observed / expected)
    }

    /// Counting values per unit gives the pairwise enumeration's alpha, at every level, with
    /// missing ratings, lone ratings and crowd-sized units.
    #[test]
    fn alpha_from_value_counts_matches_the_pairwise_definition() {
        let mut rng = SplitMix64::new(3);
        for size in [2usize, 5, 40, 300] {
            let units: Vec<Vec<Option<f64>>> = (0..12)
                .map(|u| {
                    (0..size)
                        .map(|_| match rng.below(6) {
                            0 => None,
                            x => Some(((x + u) % 5) as f64),
                        })
                        .collect()
                })
                .collect();
            for level in [
                AlphaLevel::Nominal,
                AlphaLevel::Ordinal,
                AlphaLevel::Interval,
            ] {
                let (fast, slow) = (
                    krippendorff_alpha(&units, level),
                    alpha_by_pairs(&units, level),
                );
                let (fast, slow) = (fast.unwrap(), slow.unwrap());
                assert!(
                    (fast - slow).abs() < 1e-9,
                    "{size} {level:?}: {fast} vs {slow}"
                );
            }
        }
        // −0.0 and 0.0 are one value.
        let units = vec![vec![Some(-0.0), Some(0.0)], vec![Some(1.0), Some(0.0)]];
        assert!(krippendorff_alpha(&units, AlphaLevel::Nominal).is_some());
    }

    #[test]
    fn rows_with_different_rater_counts_are_rejected() {
        assert_eq!(fleiss_kappa(&[vec![2, 0], vec![1, 0]]), None);
    }
}
