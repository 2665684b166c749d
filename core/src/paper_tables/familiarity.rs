//! Models inside the crowd's familiarity groups (AVMeme Exam Figure 4): a model's accuracy
//! over the (participant, item) pairs whose participant gave one familiarity answer on that
//! item, so that the model is scored on the memes the people of that group saw, each item
//! weighted as often as they answered it. Pure computation; the page feeds it a run's item
//! scores and the crowd's familiarity answers on a revealed board view.

use super::TableCell;
use crate::disclosure::{item_grid, round_estimate};
use crate::stats::{item_bootstrap, Estimate};
use std::collections::{BTreeMap, HashMap};

/// The key under which the page hands a model's figure in group `group` to the table (see
/// [`super::ComputedCells`]): `familiarity:<group>`.
///
/// ```
/// use memeboard_core::paper_tables::familiarity::computed_key;
/// assert_eq!(computed_key("unseen"), "familiarity:unseen");
/// ```
pub fn computed_key(group: &str) -> String {
    format!("familiarity:{group}")
}

/// A model's figure in one familiarity group, exact.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GroupFigure {
    /// Mean item score over the group's pairs, with a 95% item-bootstrap interval.
    pub estimate: Estimate,
    /// Distinct items among the pairs.
    pub items: usize,
    /// (participant, item) pairs counted.
    pub pairs: usize,
}

/// A model's accuracy over the crowd's answers given with familiarity `group`.
///
/// `answers` holds one `(item, familiarity)` per (participant, item) answer of the crowd;
/// `scores` the run's item scores. Each item of the group counts as often as people answered
/// it with that familiarity; pairs whose item the run has no score for are left out. The
/// interval resamples the group's items (with their pair counts) with replacement
/// ([`item_bootstrap`], items in id order, so the order of `answers` does not matter).
/// `None` when no pair of the group has a score.
///
/// Worked example: three people answered items `i1`–`i3`; the model got `i1` right and
/// `i2`, `i3` wrong.
///
/// | participant | item | familiarity | model's score |
/// | --- | --- | --- | --- |
/// | p1 | i1 | familiar | 1 |
/// | p2 | i1 | familiar | 1 |
/// | p3 | i3 | familiar | 0 |
/// | p1 | i2 | unseen | 0 |
///
/// In the familiar group `i1` counts twice and `i3` once: (1 + 1 + 0) / 3 = 2/3 over 3 pairs
/// and 2 items (the model's plain accuracy over those two items would be 1/2).
///
/// ```
/// use memeboard_core::paper_tables::familiarity::group_figure;
/// use std::collections::HashMap;
/// let answers = [("i1", "familiar"), ("i1", "familiar"), ("i3", "familiar"), ("i2", "unseen")];
/// let scores: HashMap<&str, f64> = [("i1", 1.0), ("i2", 0.0), ("i3", 0.0)].into();
/// let f = group_figure(&answers, &scores, "familiar", 200, 7).unwrap();
/// assert!((f.estimate.value - 2.0 / 3.0).abs() < 1e-12);
/// assert_eq!((f.pairs, f.items), (3, 2));
/// assert!(f.estimate.ci_low <= f.estimate.value && f.estimate.value <= f.estimate.ci_high);
/// let u = group_figure(&answers, &scores, "unseen", 200, 7).unwrap();
/// assert_eq!((u.estimate.value, u.pairs, u.items), (0.0, 1, 1));
/// assert_eq!(group_figure(&answers, &scores, "seen_not_familiar", 200, 7), None);
/// ```
pub fn group_figure(
    answers: &[(&str, &str)],
    scores: &HashMap<&str, f64>,
    group: &str,
    resamples: usize,
    seed: u64,
) -> Option<GroupFigure> {
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    for (item, g) in answers {
        if *g == group && scores.contains_key(item) {
            *counts.entry(item).or_default() += 1;
        }
    }
    // (pairs, score) per item, in item id order.
    let items: Vec<(f64, f64)> = counts
        .iter()
        .filter_map(|(item, n)| Some((*n as f64, *scores.get(item)?)))
        .collect();
    let estimate = item_bootstrap(items.len(), resamples, seed, |w| {
        let (mut sum, mut pairs) = (0.0, 0.0);
        for (&w, (n, score)) in w.iter().zip(&items) {
            sum += f64::from(w) * n * score;
            pairs += f64::from(w) * n;
        }
        (pairs > 0.0).then(|| sum / pairs)
    })?;
    Some(GroupFigure {
        estimate,
        items: items.len(),
        pairs: counts.values().sum(),
    })
}

/// A group figure as a table publishes it over hidden items on a revealed view: withheld
/// under `min_items` distinct items (like a board's category), else rounded to the grid its
/// item count supports ([`item_grid`] with `grid_scale`, the interval widened outwards to the
/// grid), with its items and pairs.
///
/// ```
/// use memeboard_core::paper_tables::familiarity::{published, GroupFigure};
/// use memeboard_core::stats::Estimate;
/// let f = GroupFigure { estimate: Estimate { value: 0.62, ci_low: 0.41, ci_high: 0.8 }, items: 30, pairs: 75 };
/// // 30 items support a grid of 0.2 at scale 1 (1 / sqrt(30) ≈ 0.18).
/// let cell = published(Some(f), 10, 1.0).unwrap();
/// assert_eq!((cell.value, cell.ci_low, cell.ci_high), (0.6, Some(0.4), Some(0.8)));
/// assert_eq!((cell.items, cell.pairs), (Some(30), Some(75)));
/// assert_eq!(published(Some(f), 31, 1.0), None);
/// assert_eq!(published(Some(f), 10, 0.0).unwrap().value, 0.62);
/// ```
pub fn published(f: Option<GroupFigure>, min_items: usize, grid_scale: f64) -> Option<TableCell> {
    let f = f.filter(|f| f.items >= min_items.max(1))?;
    let e = match item_grid(f.items, grid_scale) {
        Some(step) => round_estimate(f.estimate, step),
        None => f.estimate,
    };
    Some(TableCell {
        value: e.value,
        ci_low: Some(e.ci_low),
        ci_high: Some(e.ci_high),
        items: Some(f.items),
        pairs: Some(f.pairs),
    })
}
