//! A generic metric layer: per-item outcomes as plain data, a closed set of metrics over them,
//! and item-bootstrap 95% intervals overall, per category and per subset.
//!
//! Task kinds differ in what one item yields (a graded score, a right/wrong/unparseable
//! verdict, a predicted label, a pairwise comparison) and in which numbers a board shows
//! (accuracy, parse rate, macro-F1, win rate…). Keeping outcomes as data and metrics as one
//! exhaustive enum lets every task kind share the same bootstrap and the same table shapes.
//!
//! The bootstrap resamples *items* with replacement and recomputes the metric on every
//! resample through multiplicity weights (nothing is copied), so metrics that are not means of
//! per-item values (F1) get honest intervals. Items are put in id order before drawing, so an
//! estimate depends only on the set of outcomes, never on their order, and a seed always gives
//! the same interval on every platform.

use crate::stats::{item_bootstrap, Estimate};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

mod confusion;
mod summary;
pub use confusion::*;
pub use summary::*;

/// A right / wrong / unparseable verdict, kept three-state so that accuracy on parseable
/// answers and the parse rate can be told apart from plain accuracy.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// The answer parsed and was right.
    Correct,
    /// The answer parsed and was wrong.
    Wrong,
    /// The answer could not be parsed (counts as wrong for plain accuracy).
    Unparseable,
}

/// The result of one comparison, from the side of the system being evaluated, so that
/// pairwise tasks can report a win rate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum PairOutcome {
    /// The evaluated system was preferred.
    Win,
    /// Neither was preferred (counts one half).
    Tie,
    /// The other system was preferred.
    Loss,
}

/// What one item yielded; each [`Metric`] reads the kinds it understands (see
/// [`Metric::applies_to`]) and ignores the others.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum OutcomeValue {
    /// A graded score, normally in `[0, 1]` (MCQ correctness, the mean over option orders).
    Score(f64),
    /// A three-state verdict (e.g. a panel order that may not parse).
    Verdict(Verdict),
    /// A predicted label against the gold label (e.g. a structure type); `predicted: None`
    /// means the answer did not parse.
    Label {
        /// Gold label.
        gold: String,
        /// Predicted label, `None` when unparseable.
        predicted: Option<String>,
    },
    /// One pairwise comparison outcome.
    Pairwise(PairOutcome),
}

/// One outcome of one item, with what is needed to group it: its category and the subsets
/// (e.g. `"main"`) it belongs to. An item may have several outcomes (several comparisons); the
/// bootstrap draws items, and a drawn item brings all its outcomes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ItemOutcome {
    /// Item id (the unit the bootstrap resamples).
    pub item: String,
    /// Category key, for per-category rows.
    pub category: String,
    /// Subsets the item belongs to, for subset rows and filters.
    pub subsets: Vec<String>,
    /// What the item yielded.
    pub value: OutcomeValue,
}

impl ItemOutcome {
    /// An outcome in no subset, so tests and simple task kinds stay short to write.
    pub fn new(item: impl Into<String>, category: impl Into<String>, value: OutcomeValue) -> Self {
        Self {
            item: item.into(),
            category: category.into(),
            subsets: Vec::new(),
            value,
        }
    }

    /// Whether the item belongs to `subset`, so callers can filter like the row functions do.
    pub fn in_subset(&self, subset: &str) -> bool {
        self.subsets.iter().any(|s| s == subset)
    }
}

/// The metrics a board can show: a closed set so that every consumer matches exhaustively and
/// a new metric is a compile error everywhere it must be handled.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Metric {
    /// Mean correctness over scores, verdicts and labels: a score counts as itself, a verdict
    /// 1 when correct and 0 otherwise (unparseable is wrong), a label 1 when the prediction
    /// equals the gold label.
    ///
    /// Worked example: Correct, Wrong, Unparseable, Correct → 2 / 4 = 0.5.
    ///
    /// ```
    /// use memeboard_core::metrics::{ItemOutcome, Metric, OutcomeValue::Verdict, Verdict::*};
    /// let o: Vec<_> = [Correct, Wrong, Unparseable, Correct].into_iter().enumerate()
    ///     .map(|(i, v)| ItemOutcome::new(format!("i{i}"), "x", Verdict(v))).collect();
    /// assert_eq!(Metric::Accuracy.compute(&o), Some(0.5));
    /// ```
    Accuracy,
    /// Correctness over the answers that parsed only (unparseable verdicts and labels
    /// predicted as `None` leave the denominator; scores always count as parsed).
    ///
    /// Worked example: Correct, Wrong, Unparseable, Correct → 2 / 3.
    ///
    /// ```
    /// use memeboard_core::metrics::{ItemOutcome, Metric, OutcomeValue::Verdict, Verdict::*};
    /// let o: Vec<_> = [Correct, Wrong, Unparseable, Correct].into_iter().enumerate()
    ///     .map(|(i, v)| ItemOutcome::new(format!("i{i}"), "x", Verdict(v))).collect();
    /// assert_eq!(Metric::AccuracyOnParseable.compute(&o), Some(2.0 / 3.0));
    /// ```
    AccuracyOnParseable,
    /// Share of scores, verdicts and labels whose answer parsed (a score always did).
    ///
    /// Worked example: Correct, Wrong, Unparseable, Correct → 3 / 4 = 0.75.
    ///
    /// ```
    /// use memeboard_core::metrics::{ItemOutcome, Metric, OutcomeValue::Verdict, Verdict::*};
    /// let o: Vec<_> = [Correct, Wrong, Unparseable, Correct].into_iter().enumerate()
    ///     .map(|(i, v)| ItemOutcome::new(format!("i{i}"), "x", Verdict(v))).collect();
    /// assert_eq!(Metric::ParseRate.compute(&o), Some(0.75));
    /// ```
    ParseRate,
    /// Unweighted mean of per-class F1 over labels, as scikit-learn's
    /// `f1_score(y_true, y_pred, labels=L, average='macro')` with `L` = the union of the gold
    /// labels and the *parsed* predicted labels. Per class `F1 = 2·TP / (2·TP + FP + FN)`, which
    /// is 0 when `TP = 0`; a class that is only ever predicted (no gold support) is in `L` and
    /// scores 0; a class with neither gold nor prediction is not in `L` at all (in a bootstrap
    /// resample `L` is recomputed from the drawn items). An unparseable prediction counts as a
    /// wrong prediction of a class outside `L`: a false negative of its gold class and a false
    /// positive of no class.
    ///
    /// Worked example, gold → predicted: a→a, a→a, a→b, b→b, b→c, c→unparseable.
    /// a: TP 2, FP 0, FN 1 → 4/5 = 0.8; b: TP 1, FP 1, FN 1 → 2/4 = 0.5; c: TP 0 → 0.
    /// Macro-F1 = (0.8 + 0.5 + 0) / 3 = 0.4333….
    ///
    /// ```
    /// use memeboard_core::metrics::{ItemOutcome, Metric, OutcomeValue};
    /// let pairs = [("a", Some("a")), ("a", Some("a")), ("a", Some("b")), ("b", Some("b")), ("b", Some("c")), ("c", None)];
    /// let o: Vec<_> = pairs.iter().enumerate().map(|(i, (g, p))| ItemOutcome::new(
    ///     format!("i{i}"), "x", OutcomeValue::Label { gold: g.to_string(), predicted: p.map(str::to_owned) })).collect();
    /// let f1 = Metric::MacroF1.compute(&o).unwrap();
    /// assert!((f1 - 1.3 / 3.0).abs() < 1e-12);
    /// ```
    MacroF1,
    /// Mean of per-class F1 weighted by gold support (scikit-learn's `average='weighted'`);
    /// classes only ever predicted have no support and drop out; unparseable predictions are
    /// treated as for [`Metric::MacroF1`].
    ///
    /// Worked example (the same six items): supports a 3, b 2, c 1 →
    /// (3·0.8 + 2·0.5 + 1·0) / 6 = 3.4 / 6 = 0.5666….
    ///
    /// ```
    /// use memeboard_core::metrics::{ItemOutcome, Metric, OutcomeValue};
    /// let pairs = [("a", Some("a")), ("a", Some("a")), ("a", Some("b")), ("b", Some("b")), ("b", Some("c")), ("c", None)];
    /// let o: Vec<_> = pairs.iter().enumerate().map(|(i, (g, p))| ItemOutcome::new(
    ///     format!("i{i}"), "x", OutcomeValue::Label { gold: g.to_string(), predicted: p.map(str::to_owned) })).collect();
    /// let f1 = Metric::WeightedF1.compute(&o).unwrap();
    /// assert!((f1 - 3.4 / 6.0).abs() < 1e-12);
    /// ```
    WeightedF1,
    /// Mean of the graded scores only (what the MCQ board shows: each item's score is its
    /// mean correctness over option orders).
    ///
    /// Worked example: scores 1, 0.5, 0 and 0.5 → 2 / 4 = 0.5.
    ///
    /// ```
    /// use memeboard_core::metrics::{ItemOutcome, Metric, OutcomeValue::Score};
    /// let o: Vec<_> = [1.0, 0.5, 0.0, 0.5].into_iter().enumerate()
    ///     .map(|(i, s)| ItemOutcome::new(format!("i{i}"), "x", Score(s))).collect();
    /// assert_eq!(Metric::MeanScore.compute(&o), Some(0.5));
    /// ```
    MeanScore,
    /// Pairwise win rate: `(wins + 0.5 · ties) / comparisons`.
    ///
    /// Worked example: Win, Win, Tie, Loss → (2 + 0.5) / 4 = 0.625.
    ///
    /// ```
    /// use memeboard_core::metrics::{ItemOutcome, Metric, OutcomeValue::Pairwise, PairOutcome::*};
    /// let o: Vec<_> = [Win, Win, Tie, Loss].into_iter().enumerate()
    ///     .map(|(i, v)| ItemOutcome::new(format!("i{i}"), "x", Pairwise(v))).collect();
    /// assert_eq!(Metric::WinRate.compute(&o), Some(0.625));
    /// ```
    WinRate,
}

impl Metric {
    /// Every metric, so tables and tests can iterate over the closed set.
    pub const ALL: [Metric; 7] = [
        Metric::Accuracy,
        Metric::AccuracyOnParseable,
        Metric::ParseRate,
        Metric::MacroF1,
        Metric::WeightedF1,
        Metric::MeanScore,
        Metric::WinRate,
    ];

    /// Whether this metric reads outcomes of this kind; items with no such outcome are not
    /// counted and not resampled for it.
    pub fn applies_to(&self, value: &OutcomeValue) -> bool {
        match self {
            Metric::Accuracy | Metric::AccuracyOnParseable | Metric::ParseRate => matches!(
                value,
                OutcomeValue::Score(_) | OutcomeValue::Verdict(_) | OutcomeValue::Label { .. }
            ),
            Metric::MacroF1 | Metric::WeightedF1 => matches!(value, OutcomeValue::Label { .. }),
            Metric::MeanScore => matches!(value, OutcomeValue::Score(_)),
            Metric::WinRate => matches!(value, OutcomeValue::Pairwise(_)),
        }
    }

    /// The metric on all `outcomes` (no interval); `None` when it is undefined there (no
    /// outcome it reads, or e.g. no parsed answer for accuracy on parseable answers).
    pub fn compute(&self, outcomes: &[ItemOutcome]) -> Option<f64> {
        let prepared = Prepared::new(*self, outcomes.iter());
        prepared.evaluate(&vec![1; prepared.num_items])
    }
}

/// An outcome with item and labels replaced by dense indices.
#[derive(Debug, Clone, Copy)]
enum Compact {
    Score(f64),
    Verdict(Verdict),
    Label {
        gold: usize,
        predicted: Option<usize>,
    },
    Pair(PairOutcome),
}

impl Compact {
    /// A total order (kind, then value) used to sort outcomes canonically.
    fn canonical_cmp(&self, other: &Self) -> std::cmp::Ordering {
        let rank = |c: &Compact| match c {
            Compact::Score(_) => 0u8,
            Compact::Verdict(_) => 1,
            Compact::Label { .. } => 2,
            Compact::Pair(_) => 3,
        };
        let verdict = |v: Verdict| v as u8;
        let pair = |p: PairOutcome| p as u8;
        match (self, other) {
            (Compact::Score(a), Compact::Score(b)) => a.total_cmp(b),
            (Compact::Verdict(a), Compact::Verdict(b)) => verdict(*a).cmp(&verdict(*b)),
            (
                Compact::Label {
                    gold: ga,
                    predicted: pa,
                },
                Compact::Label {
                    gold: gb,
                    predicted: pb,
                },
            ) => (ga, pa).cmp(&(gb, pb)),
            (Compact::Pair(a), Compact::Pair(b)) => pair(*a).cmp(&pair(*b)),
            _ => rank(self).cmp(&rank(other)),
        }
    }
}

/// The outcomes one metric reads, indexed once so every bootstrap round is a linear pass.
struct Prepared {
    metric: Metric,
    /// `(item index, value)` per outcome; item indices follow item id order.
    outcomes: Vec<(usize, Compact)>,
    num_items: usize,
    num_labels: usize,
}

impl Prepared {
    fn new<'a>(metric: Metric, outcomes: impl Iterator<Item = &'a ItemOutcome>) -> Self {
        let read: Vec<&ItemOutcome> = outcomes.filter(|o| metric.applies_to(&o.value)).collect();
        let mut items: BTreeMap<&str, usize> = BTreeMap::new();
        let mut labels: BTreeMap<&str, usize> = BTreeMap::new();
        for o in &read {
            items.insert(o.item.as_str(), 0);
            if let OutcomeValue::Label { gold, predicted } = &o.value {
                labels.insert(gold.as_str(), 0);
                if let Some(p) = predicted {
                    labels.insert(p.as_str(), 0);
                }
            }
        }
        for (i, v) in items.values_mut().enumerate() {
            *v = i;
        }
        for (i, v) in labels.values_mut().enumerate() {
            *v = i;
        }
        let mut outcomes: Vec<(usize, Compact)> = read
            .iter()
            .map(|o| {
                let value = match &o.value {
                    OutcomeValue::Score(s) => Compact::Score(*s),
                    OutcomeValue::Verdict(v) => Compact::Verdict(*v),
                    OutcomeValue::Label { gold, predicted } => Compact::Label {
                        gold: labels[gold.as_str()],
                        predicted: predicted.as_deref().map(|p| labels[p]),
                    },
                    OutcomeValue::Pairwise(p) => Compact::Pair(*p),
                };
                (items[o.item.as_str()], value)
            })
            .collect();
        // A canonical order makes every floating-point sum independent of the input order.
        outcomes.sort_by(|(ia, a), (ib, b)| ia.cmp(ib).then_with(|| a.canonical_cmp(b)));
        Self {
            metric,
            outcomes,
            num_items: items.len(),
            num_labels: labels.len(),
        }
    }

    /// Weighted ratio `Σ w·x / Σ w` over the outcomes for which `f` gives a value.
    fn ratio(&self, weights: &[u32], f: impl Fn(&Compact) -> Option<f64>) -> Option<f64> {
        let (mut num, mut den) = (0.0, 0.0);
        for (item, value) in &self.outcomes {
            let w = weights[*item];
            if w == 0 {
                continue;
            }
            if let Some(x) = f(value) {
                num += f64::from(w) * x;
                den += f64::from(w);
            }
        }
        (den > 0.0).then(|| num / den)
    }

    fn f1(&self, weights: &[u32], weighted: bool) -> Option<f64> {
        let n = self.num_labels;
        let (mut tp, mut fp, mut fn_) = (vec![0.0f64; n], vec![0.0f64; n], vec![0.0f64; n]);
        let mut in_labels = vec![false; n];
        for (item, value) in &self.outcomes {
            let w = f64::from(weights[*item]);
            let Compact::Label { gold, predicted } = *value else {
                continue;
            };
            if w == 0.0 {
                continue;
            }
            in_labels[gold] = true;
            if predicted == Some(gold) {
                tp[gold] += w;
            } else {
                fn_[gold] += w;
                if let Some(p) = predicted {
                    fp[p] += w;
                    in_labels[p] = true;
                }
            }
        }
        let f1 = |c: usize| {
            let d = 2.0 * tp[c] + fp[c] + fn_[c];
            if d > 0.0 {
                2.0 * tp[c] / d
            } else {
                0.0
            }
        };
        let classes = (0..n).filter(|&c| in_labels[c]);
        if weighted {
            let support: f64 = (0..n).map(|c| tp[c] + fn_[c]).sum();
            (support > 0.0)
                .then(|| classes.map(|c| (tp[c] + fn_[c]) * f1(c)).sum::<f64>() / support)
        } else {
            let (sum, count) = classes.fold((0.0, 0usize), |(s, k), c| (s + f1(c), k + 1));
            (count > 0).then(|| sum / count as f64)
        }
    }

    fn evaluate(&self, weights: &[u32]) -> Option<f64> {
        let bit = |b: bool| f64::from(u8::from(b));
        match self.metric {
            Metric::Accuracy => self.ratio(weights, |v| match *v {
                Compact::Score(s) => Some(s),
                Compact::Verdict(v) => Some(bit(v == Verdict::Correct)),
                Compact::Label { gold, predicted } => Some(bit(predicted == Some(gold))),
                Compact::Pair(_) => None,
            }),
            Metric::AccuracyOnParseable => self.ratio(weights, |v| match *v {
                Compact::Score(s) => Some(s),
                Compact::Verdict(Verdict::Unparseable) => None,
                Compact::Verdict(v) => Some(bit(v == Verdict::Correct)),
                Compact::Label {
                    predicted: None, ..
                } => None,
                Compact::Label { gold, predicted } => Some(bit(predicted == Some(gold))),
                Compact::Pair(_) => None,
            }),
            Metric::ParseRate => self.ratio(weights, |v| match *v {
                Compact::Score(_) => Some(1.0),
                Compact::Verdict(v) => Some(bit(v != Verdict::Unparseable)),
                Compact::Label { predicted, .. } => Some(bit(predicted.is_some())),
                Compact::Pair(_) => None,
            }),
            Metric::MacroF1 => self.f1(weights, false),
            Metric::WeightedF1 => self.f1(weights, true),
            Metric::MeanScore => self.ratio(weights, |v| match *v {
                Compact::Score(s) => Some(s),
                Compact::Verdict(_) | Compact::Label { .. } | Compact::Pair(_) => None,
            }),
            Metric::WinRate => self.ratio(weights, |v| match *v {
                Compact::Pair(PairOutcome::Win) => Some(1.0),
                Compact::Pair(PairOutcome::Tie) => Some(0.5),
                Compact::Pair(PairOutcome::Loss) => Some(0.0),
                Compact::Score(_) | Compact::Verdict(_) | Compact::Label { .. } => None,
            }),
        }
    }

    /// Point estimate and item-bootstrap percentile interval.
    fn estimate(&self, resamples: usize, seed: u64) -> Option<Estimate> {
        item_bootstrap(self.num_items, resamples, seed, |weights| {
            self.evaluate(weights)
        })
    }
}

/// A metric with an item-bootstrap 95% percentile interval, so every task kind's board number
/// comes with the same kind of uncertainty.
///
/// Each of `resamples` rounds draws as many items as there are (items the metric reads) with
/// replacement and recomputes the metric with the draw counts as weights; the interval is the
/// 2.5th–97.5th percentile of the rounds where the metric is defined. Items are ordered by id
/// before drawing, so the result does not depend on the order of `outcomes`. `None` when the
/// metric is undefined on the full data (e.g. no outcome it reads); when no round is defined
/// (e.g. `resamples = 0`) the interval collapses to the point.
///
/// ```
/// use memeboard_core::metrics::{estimate, ItemOutcome, Metric, OutcomeValue::Score};
/// let o: Vec<_> = (0..10).map(|i| ItemOutcome::new(format!("i{i}"), "x", Score(f64::from(u8::from(i < 7))))).collect();
/// let e = estimate(Metric::MeanScore, &o, 500, 1).unwrap();
/// assert_eq!(e.value, 0.7);
/// assert!(e.ci_low < 0.7 && 0.7 < e.ci_high);
/// assert_eq!(estimate(Metric::WinRate, &o, 500, 1), None);
/// ```
pub fn estimate(
    metric: Metric,
    outcomes: &[ItemOutcome],
    resamples: usize,
    seed: u64,
) -> Option<Estimate> {
    Prepared::new(metric, outcomes.iter()).estimate(resamples, seed)
}

#[cfg(test)]
mod tests;
