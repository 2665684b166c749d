//! Metric rows: a metric overall and per category or subset, each with its bootstrap interval.

use super::{ItemOutcome, Metric, Prepared};
use crate::stats::Estimate;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// One row of a metric table: a metric over one group of items with its interval.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct MetricRow {
    /// The metric shown.
    pub metric: Metric,
    /// Category key (`None` = all categories).
    pub category: Option<String>,
    /// Subset the row is restricted to (`None` = all items).
    pub subset: Option<String>,
    /// Distinct items the metric reads in this group.
    pub items: usize,
    /// Point estimate with item-bootstrap 95% interval (`None` when undefined, e.g. no items).
    pub estimate: Option<Estimate>,
}

fn metric_row<'a>(
    metric: Metric,
    outcomes: impl Iterator<Item = &'a ItemOutcome>,
    category: Option<&str>,
    subset: Option<&str>,
    resamples: usize,
    seed: u64,
) -> MetricRow {
    let prepared = Prepared::new(metric, outcomes);
    MetricRow {
        metric,
        category: category.map(str::to_owned),
        subset: subset.map(str::to_owned),
        items: prepared.num_items,
        estimate: prepared.estimate(resamples, seed),
    }
}

/// The overall row, then one row per category in `categories` order (a category with no
/// items gets an empty row so tables keep their shape), optionally restricted to the items of
/// one subset (e.g. only `"main"`). Every row uses the same seed, as
/// [`crate::leaderboard::summarize`] does.
///
/// ```
/// use memeboard_core::metrics::{summarize_by, ItemOutcome, Metric, OutcomeValue::Verdict, Verdict::*};
/// let mut o = vec![
///     ItemOutcome::new("i1", "x", Verdict(Correct)),
///     ItemOutcome::new("i2", "x", Verdict(Unparseable)),
///     ItemOutcome::new("i3", "y", Verdict(Wrong)),
/// ];
/// o[0].subsets.push("main".into());
/// o[2].subsets.push("main".into());
/// let cats = ["x".to_string(), "y".into(), "z".into()];
/// let rows = summarize_by(Metric::ParseRate, &o, &cats, None, 100, 1);
/// assert!((rows[0].estimate.unwrap().value - 2.0 / 3.0).abs() < 1e-12);
/// assert_eq!(rows[1].estimate.unwrap().value, 0.5);
/// assert_eq!((rows[3].items, rows[3].estimate), (0, None));
/// let main = summarize_by(Metric::Accuracy, &o, &cats, Some("main"), 100, 1);
/// assert_eq!((main[0].items, main[0].estimate.unwrap().value), (2, 0.5));
/// assert_eq!(main[1].subset.as_deref(), Some("main"));
/// ```
pub fn summarize_by(
    metric: Metric,
    outcomes: &[ItemOutcome],
    categories: &[String],
    subset: Option<&str>,
    resamples: usize,
    seed: u64,
) -> Vec<MetricRow> {
    let kept: Vec<&ItemOutcome> = outcomes
        .iter()
        .filter(|o| subset.is_none_or(|s| o.in_subset(s)))
        .collect();
    let mut by_category: BTreeMap<&str, Vec<&ItemOutcome>> = BTreeMap::new();
    for o in &kept {
        by_category.entry(o.category.as_str()).or_default().push(o);
    }
    let mut rows = vec![metric_row(
        metric,
        kept.iter().copied(),
        None,
        subset,
        resamples,
        seed,
    )];
    for c in categories {
        let group = by_category.remove(c.as_str()).unwrap_or_default();
        rows.push(metric_row(
            metric,
            group.into_iter(),
            Some(c),
            subset,
            resamples,
            seed,
        ));
    }
    rows
}

/// The overall row, then one row per subset in `subsets` order (items may be in several
/// subsets or none), so a board can show e.g. "main" next to "hard" for the same metric.
///
/// ```
/// use memeboard_core::metrics::{summarize_by_subset, ItemOutcome, Metric, OutcomeValue::Score};
/// let mut o = vec![ItemOutcome::new("i1", "x", Score(1.0)), ItemOutcome::new("i2", "x", Score(0.0))];
/// o[0].subsets = vec!["main".into(), "hard".into()];
/// o[1].subsets = vec!["main".into()];
/// let rows = summarize_by_subset(Metric::MeanScore, &o, &["main".into(), "hard".into()], 100, 1);
/// assert_eq!(rows.iter().map(|r| r.items).collect::<Vec<_>>(), [2, 2, 1]);
/// assert_eq!(rows[2].estimate.unwrap().value, 1.0);
/// ```
pub fn summarize_by_subset(
    metric: Metric,
    outcomes: &[ItemOutcome],
    subsets: &[String],
    resamples: usize,
    seed: u64,
) -> Vec<MetricRow> {
    let mut rows = vec![metric_row(
        metric,
        outcomes.iter(),
        None,
        None,
        resamples,
        seed,
    )];
    for s in subsets {
        rows.push(metric_row(
            metric,
            outcomes.iter().filter(|o| o.in_subset(s)),
            None,
            Some(s),
            resamples,
            seed,
        ));
    }
    rows
}
