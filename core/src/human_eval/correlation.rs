//! Metric validity: how well automatic explanation metrics (cosine, rescaled cosine,
//! BERTScore-F1) agree with people, as Kendall's τ-b and Spearman's ρ with item-bootstrap
//! intervals, across models (system level) and across item × model pairs (segment level).
//!
//! Rank correlations only see order, so a metric and any increasing transform of it (the
//! baseline-rescaled cosine is an increasing affine map of the raw cosine) get the same τ and ρ.

use super::sorted_index;
use crate::stats::{item_bootstrap_many, Estimate};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Ranks 1..=n of `x`, ties given the average of the ranks they span (the "fractional" ranks
/// Spearman's ρ uses).
///
/// ```
/// use memeboard_core::human_eval::correlation::average_ranks;
/// assert_eq!(average_ranks(&[10.0, 30.0, 20.0, 30.0]), [1.0, 3.5, 2.0, 3.5]);
/// ```
pub fn average_ranks(x: &[f64]) -> Vec<f64> {
    let mut order: Vec<usize> = (0..x.len()).collect();
    order.sort_by(|&a, &b| x[a].total_cmp(&x[b]));
    let mut ranks = vec![0.0; x.len()];
    let mut start = 0;
    while start < order.len() {
        let mut end = start + 1;
        while end < order.len() && x[order[end]] == x[order[start]] {
            end += 1;
        }
        // Positions start..end hold ranks start+1..=end; their average:
        let avg = (start + 1 + end) as f64 / 2.0;
        for &k in &order[start..end] {
            ranks[k] = avg;
        }
        start = end;
    }
    ranks
}

fn usable(x: &[f64], y: &[f64]) -> bool {
    x.len() == y.len() && x.len() >= 2 && x.iter().chain(y).all(|v| v.is_finite())
}

fn pearson(x: &[f64], y: &[f64]) -> Option<f64> {
    let n = x.len() as f64;
    let mx = x.iter().sum::<f64>() / n;
    let my = y.iter().sum::<f64>() / n;
    let (mut sxy, mut sxx, mut syy) = (0.0, 0.0, 0.0);
    for (a, b) in x.iter().zip(y) {
        sxy += (a - mx) * (b - my);
        sxx += (a - mx) * (a - mx);
        syy += (b - my) * (b - my);
    }
    (sxx > 0.0 && syy > 0.0).then(|| (sxy / (sxx * syy).sqrt()).clamp(-1.0, 1.0))
}

/// Spearman's ρ: Pearson's correlation of the average ranks ([`average_ranks`]), so ties are
/// handled as scipy's `spearmanr` does. `None` when the lengths differ, fewer than two pairs,
/// a value is not finite, or one side is constant.
///
/// Worked example: x = (1, 2, 2, 3), y = (1, 3, 2, 3). Ranks (1, 2.5, 2.5, 4) and
/// (1, 3.5, 2, 3.5), both with mean 2.5; deviations (−1.5, 0, 0, 1.5) and (−1.5, 1, −0.5, 1);
/// Σ dx·dy = 3.75, Σ dx² = Σ dy² = 4.5, so ρ = 3.75 / 4.5 = 5/6.
///
/// ```
/// use memeboard_core::human_eval::correlation::spearman_rho;
/// let rho = spearman_rho(&[1.0, 2.0, 2.0, 3.0], &[1.0, 3.0, 2.0, 3.0]).unwrap();
/// assert!((rho - 5.0 / 6.0).abs() < 1e-12);
/// assert_eq!(spearman_rho(&[1.0, 2.0, 3.0], &[3.0, 2.0, 1.0]), Some(-1.0));
/// assert_eq!(spearman_rho(&[1.0, 1.0], &[1.0, 2.0]), None);
/// ```
pub fn spearman_rho(x: &[f64], y: &[f64]) -> Option<f64> {
    if !usable(x, y) {
        return None;
    }
    pearson(&average_ranks(x), &average_ranks(y))
}

/// Pairs tied within each run of equal keys, Σ t(t − 1)/2, over a slice sorted so that equal
/// keys are adjacent.
fn tied_pairs(sorted: &[usize], same: impl Fn(usize, usize) -> bool) -> u64 {
    let mut total = 0u64;
    let mut run = 1u64;
    for w in sorted.windows(2) {
        if same(w[0], w[1]) {
            run += 1;
        } else {
            total += run * (run - 1) / 2;
            run = 1;
        }
    }
    total + run * (run - 1) / 2
}

/// Sorts `idx` by `y` (stable merge sort) and returns how many pairs it had to swap: pairs
/// i < j with y[idx[i]] > y[idx[j]] (equal values are not swaps).
fn count_swaps(idx: &mut [usize], buf: &mut [usize], y: &[f64]) -> u64 {
    let n = idx.len();
    if n < 2 {
        return 0;
    }
    let mid = n / 2;
    let mut swaps = count_swaps(&mut idx[..mid], &mut buf[..mid], y)
        + count_swaps(&mut idx[mid..], &mut buf[mid..], y);
    let (mut i, mut j, mut k) = (0, mid, 0);
    while i < mid && j < n {
        if y[idx[j]] < y[idx[i]] {
            buf[k] = idx[j];
            swaps += (mid - i) as u64;
            j += 1;
        } else {
            buf[k] = idx[i];
            i += 1;
        }
        k += 1;
    }
    buf[k..k + mid - i].copy_from_slice(&idx[i..mid]);
    k += mid - i;
    buf[k..k + n - j].copy_from_slice(&idx[j..n]);
    idx.copy_from_slice(&buf[..n]);
    swaps
}

/// Kendall's τ-b, which corrects for ties on either side (scipy's `kendalltau` default):
/// τ-b = (C − D) / √((n₀ − n₁)(n₀ − n₂)), with C / D the concordant / discordant pairs,
/// n₀ = n(n − 1)/2, n₁ and n₂ the pairs tied in x and in y. Knight's O(n log n) algorithm, so
/// segment-level bootstraps over thousands of pairs stay fast. `None` when the lengths differ,
/// fewer than two pairs, a value is not finite, or one side is constant.
///
/// Worked example: x = (1, 2, 2, 3), y = (1, 3, 2, 3). Of the 6 pairs, 4 are concordant,
/// none discordant, (2, 2) is tied in x and (3, 3) in y: τ-b = 4 / √(5 · 5) = 0.8.
///
/// ```
/// use memeboard_core::human_eval::correlation::kendall_tau_b;
/// let tau = kendall_tau_b(&[1.0, 2.0, 2.0, 3.0], &[1.0, 3.0, 2.0, 3.0]).unwrap();
/// assert!((tau - 0.8).abs() < 1e-12);
/// // One swap among five: (10 − 2) / 10.
/// let tau = kendall_tau_b(&[1.0, 2.0, 3.0, 4.0, 5.0], &[1.0, 2.0, 4.0, 3.0, 5.0]).unwrap();
/// assert!((tau - 0.8).abs() < 1e-12);
/// assert_eq!(kendall_tau_b(&[1.0, 2.0], &[5.0, 5.0]), None);
/// // Signed zeros tie (scipy: 0.8165 = 2 / √6).
/// let tau = kendall_tau_b(&[0.0, -0.0, 1.0], &[1.0, 2.0, 3.0]).unwrap();
/// assert!((tau - 2.0 / 6f64.sqrt()).abs() < 1e-12);
/// ```
pub fn kendall_tau_b(x: &[f64], y: &[f64]) -> Option<f64> {
    if !usable(x, y) {
        return None;
    }
    // −0.0 and 0.0 are equal values (a tie, as scipy counts them), but `total_cmp` orders
    // them apart, which would break the tie's secondary order by y: adding +0.0 turns −0.0
    // into 0.0 and leaves every other value as it is.
    let x: Vec<f64> = x.iter().map(|v| v + 0.0).collect();
    let y: Vec<f64> = y.iter().map(|v| v + 0.0).collect();
    let (x, y) = (x.as_slice(), y.as_slice());
    let n = x.len();
    let n0 = (n as u64) * (n as u64 - 1) / 2;
    let mut idx: Vec<usize> = (0..n).collect();
    idx.sort_by(|&a, &b| x[a].total_cmp(&x[b]).then(y[a].total_cmp(&y[b])));
    let n1 = tied_pairs(&idx, |a, b| x[a] == x[b]);
    let n3 = tied_pairs(&idx, |a, b| x[a] == x[b] && y[a] == y[b]);
    let mut buf = vec![0; n];
    let swaps = count_swaps(&mut idx, &mut buf, y);
    let n2 = tied_pairs(&idx, |a, b| y[a] == y[b]);
    let (tx, ty) = (n0 - n1, n0 - n2);
    if tx == 0 || ty == 0 {
        return None;
    }
    // C − D = n₀ − n₁ − n₂ + n₃ − 2·swaps.
    let diff = n0 as f64 - n1 as f64 - n2 as f64 + n3 as f64 - 2.0 * swaps as f64;
    Some((diff / ((tx as f64) * (ty as f64)).sqrt()).clamp(-1.0, 1.0))
}

/// One model's explanation of one item, scored by people and by an automatic metric.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct SegmentScore {
    /// Item (meme) id: the bootstrap unit.
    pub item: String,
    /// Model (submission) id.
    pub model: String,
    /// The human score of this explanation (e.g. the mean of its meaning verdicts with
    /// Disagree 0, Neutral ½, Agree 1, or its mean Core4).
    pub human: f64,
    /// The automatic metric's score of the same explanation.
    pub metric: f64,
}

/// One [`SegmentScore`] per explanation (item × model) from its raters' scores (`(item,
/// model, score)`, one per rating): `human` is their mean and `metric` is
/// `metric(item, model)`; explanations the metric has no score for are skipped. Sorted by
/// (item, model). What the accuracy and dimension protocols' segment panels share.
pub(super) fn mean_segments<'a>(
    scores: impl IntoIterator<Item = (&'a str, &'a str, f64)>,
    metric: impl Fn(&str, &str) -> Option<f64>,
) -> Vec<SegmentScore> {
    let mut sums: BTreeMap<(&str, &str), (f64, u32)> = BTreeMap::new();
    for (item, model, score) in scores {
        let e = sums.entry((item, model)).or_default();
        e.0 += score;
        e.1 += 1;
    }
    sums.into_iter()
        .filter_map(|((item, model), (sum, n))| {
            Some(SegmentScore {
                item: item.to_owned(),
                model: model.to_owned(),
                human: sum / f64::from(n),
                metric: metric(item, model)?,
            })
        })
        .collect()
}

/// Kendall's τ-b and Spearman's ρ at one level, with item-bootstrap 95% intervals.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Correlation {
    /// Points correlated (models at system level, item × model pairs at segment level).
    pub n: usize,
    /// Kendall's τ-b, `None` when undefined (see [`kendall_tau_b`]).
    pub kendall_tau_b: Option<Estimate>,
    /// Spearman's ρ, `None` when undefined (see [`spearman_rho`]).
    pub spearman_rho: Option<Estimate>,
}

/// How well one automatic metric agrees with people, at both levels.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct MetricValidity {
    /// Across models: each model's mean human score against its mean metric score.
    pub system: Correlation,
    /// Across explanations: every item × model pair's human score against its metric score.
    pub segment: Correlation,
}

/// Per-model means of human and metric scores under item weights (items with weight 0 drop
/// out; a model with no weighted item is left out).
fn system_points(models: &[Vec<(usize, f64, f64)>], weights: &[u32]) -> (Vec<f64>, Vec<f64>) {
    let mut xs = Vec::with_capacity(models.len());
    let mut ys = Vec::with_capacity(models.len());
    for segments in models {
        let (mut h, mut m, mut n) = (0.0, 0.0, 0.0);
        for &(item, human, metric) in segments {
            let w = f64::from(weights[item]);
            h += w * human;
            m += w * metric;
            n += w;
        }
        if n > 0.0 {
            xs.push(h / n);
            ys.push(m / n);
        }
    }
    (xs, ys)
}

/// Every segment repeated as often as its item was drawn.
fn segment_points(segments: &[(usize, f64, f64)], weights: &[u32]) -> (Vec<f64>, Vec<f64>) {
    let mut xs = Vec::new();
    let mut ys = Vec::new();
    for &(item, human, metric) in segments {
        for _ in 0..weights[item] {
            xs.push(human);
            ys.push(metric);
        }
    }
    (xs, ys)
}

/// Kendall's τ-b and Spearman's ρ between human and metric scores, across models (system level:
/// per-model means over items) and across item × model pairs (segment level), each with an
/// item-bootstrap 95% interval: every round draws the items (memes) with replacement and
/// recomputes the model means and the correlations from the drawn items (a segment drawn twice
/// counts twice, tied with itself). Non-finite scores are dropped first. Call it once per
/// metric (cosine, rescaled cosine, BERTScore-F1).
///
/// Worked example: three models on two memes. Model means (human, metric): a (1, 0.9),
/// b (0.5, 0.8), c (0, 0.85). System level: of the 3 model pairs, a–b and a–c are concordant,
/// b–c discordant, so τ-b = 1/3; the ranks (3, 2, 1) and (3, 1, 2) give ρ = 0.5. Segment level:
/// the six explanations' human and metric scores as listed.
///
/// ```
/// use memeboard_core::human_eval::correlation::{metric_validity, SegmentScore};
/// let s = |item: &str, model: &str, human, metric| SegmentScore { item: item.into(), model: model.into(), human, metric };
/// let data = [
///     s("1", "a", 1.0, 0.95), s("2", "a", 1.0, 0.85),
///     s("1", "b", 0.5, 0.80), s("2", "b", 0.5, 0.80),
///     s("1", "c", 0.0, 0.90), s("2", "c", 0.0, 0.80),
/// ];
/// let v = metric_validity(&data, 500, 1);
/// assert_eq!((v.system.n, v.segment.n), (3, 6));
/// assert!((v.system.kendall_tau_b.unwrap().value - 1.0 / 3.0).abs() < 1e-12);
/// assert!((v.system.spearman_rho.unwrap().value - 0.5).abs() < 1e-12);
/// let seg = v.segment.kendall_tau_b.unwrap();
/// assert!(seg.ci_low <= seg.value && seg.value <= seg.ci_high);
/// ```
pub fn metric_validity(scores: &[SegmentScore], resamples: usize, seed: u64) -> MetricValidity {
    let finite: Vec<&SegmentScore> = scores
        .iter()
        .filter(|s| s.human.is_finite() && s.metric.is_finite())
        .collect();
    let items = sorted_index(finite.iter().map(|s| s.item.as_str()));
    let mut by_model: BTreeMap<&str, Vec<(usize, f64, f64)>> = BTreeMap::new();
    for s in &finite {
        by_model.entry(s.model.as_str()).or_default().push((
            items[s.item.as_str()],
            s.human,
            s.metric,
        ));
    }
    let models: Vec<Vec<(usize, f64, f64)>> = by_model.into_values().collect();
    let segments: Vec<(usize, f64, f64)> = models.iter().flatten().copied().collect();
    let est = item_bootstrap_many(items.len(), resamples, seed, |w| {
        let (sx, sy) = system_points(&models, w);
        let (gx, gy) = segment_points(&segments, w);
        vec![
            kendall_tau_b(&sx, &sy),
            spearman_rho(&sx, &sy),
            kendall_tau_b(&gx, &gy),
            spearman_rho(&gx, &gy),
        ]
    });
    MetricValidity {
        system: Correlation {
            n: models.len(),
            kendall_tau_b: est.first().copied().flatten(),
            spearman_rho: est.get(1).copied().flatten(),
        },
        segment: Correlation {
            n: segments.len(),
            kendall_tau_b: est.get(2).copied().flatten(),
            spearman_rho: est.get(3).copied().flatten(),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::SplitMix64;

    /// The O(n²) definition, to check Knight's algorithm against.
    fn tau_b_brute(x: &[f64], y: &[f64]) -> Option<f64> {
        let n = x.len();
        let (mut c, mut d, mut tx, mut ty) = (0.0, 0.0, 0.0, 0.0);
        for i in 0..n {
            for j in i + 1..n {
                let (dx, dy) = (x[i] - x[j], y[i] - y[j]);
                if dx == 0.0 {
                    tx += 1.0;
                }
                if dy == 0.0 {
                    ty += 1.0;
                }
                if dx * dy > 0.0 {
                    c += 1.0;
                } else if dx * dy < 0.0 {
                    d += 1.0;
                }
            }
        }
        let n0 = (n * (n - 1) / 2) as f64;
        let den = ((n0 - tx) * (n0 - ty)).sqrt();
        (den > 0.0).then(|| (c - d) / den)
    }

    #[test]
    fn knight_matches_the_definition_on_random_data_with_ties() {
        let mut rng = SplitMix64::new(11);
        for case in 0..200 {
            let n = 2 + rng.below(40);
            let levels = 1 + rng.below(6);
            let x: Vec<f64> = (0..n).map(|_| rng.below(levels) as f64).collect();
            let y: Vec<f64> = (0..n).map(|_| rng.below(levels + 2) as f64 * 0.5).collect();
            let (fast, slow) = (kendall_tau_b(&x, &y), tau_b_brute(&x, &y));
            match (fast, slow) {
                (Some(a), Some(b)) => assert!((a - b).abs() < 1e-12, "case {case}: {a} vs {b}"),
                (a, b) => assert_eq!(a, b, "case {case}"),
            }
        }
    }

    #[test]
    fn hand_worked_values() {
        // Perfectly reversed.
        let x = [1.0, 2.0, 3.0, 4.0];
        let rev = [4.0, 3.0, 2.0, 1.0];
        assert_eq!(kendall_tau_b(&x, &rev), Some(-1.0));
        assert_eq!(spearman_rho(&x, &rev), Some(-1.0));
        // x = (1, 2, 3, 4), y = (2, 1, 4, 3): C = 4, D = 2, τ = 2/6 = 1/3;
        // d = ranks differ by 1 each: ρ = 1 − 6·4 / (4·15) = 0.6.
        let y = [2.0, 1.0, 4.0, 3.0];
        assert!((kendall_tau_b(&x, &y).unwrap() - 1.0 / 3.0).abs() < 1e-12);
        assert!((spearman_rho(&x, &y).unwrap() - 0.6).abs() < 1e-12);
        // Ties on both sides: x = (1, 1, 2, 2), y = (1, 2, 1, 2): C = 1 (1-4), D = 1 (2-3),
        // τ-b = 0; ρ = 0.
        let (a, b) = ([1.0, 1.0, 2.0, 2.0], [1.0, 2.0, 1.0, 2.0]);
        assert_eq!(kendall_tau_b(&a, &b), Some(0.0));
        assert_eq!(spearman_rho(&a, &b), Some(0.0));
        // x = (1, 2, 3), y = (1, 1, 2): C = 2, D = 0, n₀ = 3, n₂ = 1: τ-b = 2 / √(3 · 2).
        let t = kendall_tau_b(&[1.0, 2.0, 3.0], &[1.0, 1.0, 2.0]).unwrap();
        assert!((t - 2.0 / 6f64.sqrt()).abs() < 1e-12);
        // Ranks (1, 2, 3) and (1.5, 1.5, 3): ρ = 1.5 / √(2 · 1.5) = √3 / 2.
        let r = spearman_rho(&[1.0, 2.0, 3.0], &[1.0, 1.0, 2.0]).unwrap();
        assert!((r - 3f64.sqrt() / 2.0).abs() < 1e-12);
    }

    #[test]
    fn rank_correlations_ignore_increasing_transforms() {
        let x = [0.3, 0.9, 0.1, 0.5, 0.5, 0.7];
        let y = [0.81, 0.86, 0.80, 0.84, 0.82, 0.88];
        let rescaled: Vec<f64> = y.iter().map(|v| (v - 0.7) / 0.3).collect();
        assert_eq!(kendall_tau_b(&x, &y), kendall_tau_b(&x, &rescaled));
        assert_eq!(spearman_rho(&x, &y), spearman_rho(&x, &rescaled));
    }

    #[test]
    fn malformed_input_gives_none() {
        assert_eq!(kendall_tau_b(&[1.0], &[1.0]), None);
        assert_eq!(kendall_tau_b(&[1.0, 2.0], &[1.0]), None);
        assert_eq!(spearman_rho(&[1.0, f64::NAN], &[1.0, 2.0]), None);
        let v = metric_validity(&[], 10, 1);
        assert_eq!((v.system.n, v.segment.n), (0, 0));
        assert_eq!(v.system.kendall_tau_b, None);
    }

    #[test]
    fn validity_is_reproducible_and_independent_of_input_order() {
        let mut rng = SplitMix64::new(3);
        let mut data = Vec::new();
        for item in 0..20 {
            for (k, model) in ["a", "b", "c", "d"].iter().enumerate() {
                let human = (k as f64 + rng.below(3) as f64) / 5.0;
                let metric = 0.7 + human * 0.1 + rng.below(10) as f64 * 0.005;
                data.push(SegmentScore {
                    item: format!("m{item}"),
                    model: (*model).into(),
                    human,
                    metric,
                });
            }
        }
        let a = metric_validity(&data, 200, 9);
        data.reverse();
        let b = metric_validity(&data, 200, 9);
        assert_eq!(a, b);
        let seg = a.segment.spearman_rho.unwrap();
        assert!(seg.value > 0.5 && seg.ci_low > 0.3, "{seg:?}");
        assert_eq!(a.system.n, 4);
    }
}
