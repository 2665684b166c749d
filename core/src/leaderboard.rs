//! Scoring of validated prediction files and the per-category summaries shown on boards.

use crate::predictions::{FnvMap, ResolvedAnswer, TaskManifest, ValidatedPredictions};
use crate::stats::{crowd_estimate, CrowdStatistic, Estimate, Response};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Gold of one MCQ item (server side, or the open dev split in the browser).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct McqGold {
    /// Item id.
    pub item_id: String,
    /// Category key.
    pub category: String,
    /// Canonical index of the correct option.
    pub correct: usize,
}

/// One line of a text-MCQ task's `dev-gold.jsonl`: the correct option numbered **from 1 in
/// canonical order**, exactly as a prediction file's `answer` numbers it, so a dev-gold line
/// can be copied into a file unchanged.
///
/// ```
/// use memeboard_core::leaderboard::{McqDevGold, McqGold};
/// let line: McqDevGold = serde_json::from_str(r#"{"item_id":"q1","category":"slang","answer":3}"#).unwrap();
/// assert_eq!(McqGold::from(line).correct, 2); // 0-based inside
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct McqDevGold {
    /// Item id.
    pub item_id: String,
    /// Category key.
    pub category: String,
    /// The correct option's number, from 1, in canonical order (as in prediction files).
    pub answer: usize,
}

impl From<&McqGold> for McqDevGold {
    fn from(g: &McqGold) -> Self {
        Self {
            item_id: g.item_id.clone(),
            category: g.category.clone(),
            answer: g.correct + 1,
        }
    }
}

impl From<McqDevGold> for McqGold {
    fn from(g: McqDevGold) -> Self {
        Self {
            item_id: g.item_id,
            category: g.category,
            correct: g.answer.saturating_sub(1),
        }
    }
}

/// Seed of every board bootstrap (model rows, baseline rows, secondary figures), so that a
/// board's intervals are reproducible.
pub const BOOTSTRAP_SEED: u64 = 0x6c65_6164_6572_626f;

/// The score of one item.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ItemScore {
    /// Item id.
    pub item_id: String,
    /// Category key.
    pub category: String,
    /// In `[0, 1]`: mean correctness over the file's option orders.
    pub score: f64,
}

/// The majority answer among `options` (ties go to the answer seen first in the file).
pub(crate) fn majority(options: &[usize]) -> Option<usize> {
    let mut counts: Vec<(usize, usize)> = Vec::new(); // (option, count) in first-seen order
    for &o in options {
        match counts.iter_mut().find(|(opt, _)| *opt == o) {
            Some((_, c)) => *c += 1,
            None => counts.push((o, 1)),
        }
    }
    let best = counts.iter().map(|(_, c)| *c).max()?;
    counts.iter().find(|(_, c)| *c == best).map(|(o, _)| *o)
}

/// Scores MCQ predictions with the multi-order protocol: for every item and every option
/// order used in the file, the majority answer over that order's samples is right or wrong;
/// the item's score is the mean over the orders (an order with no line counts as wrong, and
/// so does an item with no line at all). With one order and one sample this is plain
/// accuracy. Line order in the file does not matter.
///
/// Worked example: orders {0, 1}; item A is right under order 0 and wrong under order 1 → 0.5;
/// item B has three samples under each order, two right → majority right twice → 1.0.
///
/// ```
/// use memeboard_core::leaderboard::{score_mcq, McqGold};
/// use memeboard_core::predictions::{ResolvedAnswer, ValidatedPredictions};
/// let a = |order, sample, option| ResolvedAnswer { order, sample, option };
/// use memeboard_core::predictions::{ManifestItem, Split, TaskManifest};
/// let item = |id: &str| ManifestItem { id: id.into(), category: "x".into(), split: Split::Test, options: vec![] };
/// let manifest = TaskManifest { task: "t".into(), items: vec![item("A"), item("B")] };
/// let preds = ValidatedPredictions {
///     answers: vec![
///         a(0, 0, 2), a(1, 0, 4),
///         a(0, 0, 1), a(0, 1, 1), a(0, 2, 3), a(1, 0, 1), a(1, 1, 0), a(1, 2, 1),
///     ],
///     offsets: vec![0, 2, 8],
///     orders: [0, 1].into_iter().collect(),
///     num_lines: 8,
///     missing: vec![],
/// };
/// let gold = vec![
///     McqGold { item_id: "A".into(), category: "x".into(), correct: 2 },
///     McqGold { item_id: "B".into(), category: "y".into(), correct: 1 },
/// ];
/// let scores = score_mcq(&manifest, &preds, &gold);
/// assert_eq!(scores[0].score, 0.5);
/// assert_eq!(scores[1].score, 1.0);
/// ```
pub fn score_mcq(
    manifest: &TaskManifest,
    predictions: &ValidatedPredictions,
    gold: &[McqGold],
) -> Vec<ItemScore> {
    let num_orders = predictions.orders.len().max(1);
    // Gold usually lists the items in manifest order; otherwise look ids up.
    let aligned = gold.len() == manifest.items.len()
        && gold
            .iter()
            .zip(&manifest.items)
            .all(|(g, item)| g.item_id == item.id);
    let lookup: FnvMap<&str, usize> = if aligned {
        FnvMap::default()
    } else {
        manifest
            .items
            .iter()
            .enumerate()
            .map(|(i, item)| (item.id.as_str(), i))
            .collect()
    };
    let single_order = predictions.orders.len() == 1;
    gold.iter()
        .enumerate()
        .map(|(gi, g)| {
            let index = if aligned {
                Some(gi)
            } else {
                lookup.get(g.item_id.as_str()).copied()
            };
            let answers: &[ResolvedAnswer] = index.map_or(&[], |i| predictions.answers_at(i));
            let right = if single_order && answers.len() == 1 {
                // The common case: one answer per item.
                usize::from(answers[0].option == g.correct)
            } else {
                predictions
                    .orders
                    .iter()
                    .filter(|&&order| {
                        let options: Vec<usize> = answers
                            .iter()
                            .filter(|a| a.order == order)
                            .map(|a| a.option)
                            .collect();
                        majority(&options) == Some(g.correct)
                    })
                    .count()
            };
            ItemScore {
                item_id: g.item_id.clone(),
                category: g.category.clone(),
                score: right as f64 / num_orders as f64,
            }
        })
        .collect()
}

/// A metric with its interval over one set of items.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct CategoryEstimate {
    /// Category key (`None` = overall).
    pub category: Option<String>,
    /// Items scored.
    pub items: usize,
    /// Mean item score with an item-bootstrap 95% interval (`None` with no items, or when
    /// suppressed).
    pub estimate: Option<Estimate>,
    /// True when the category has too few items on this board half to publish a figure
    /// (a handful of uploads could otherwise reveal answers); the value is left out.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub suppressed: bool,
}

impl CategoryEstimate {
    /// Leaves out the value of a category (never the overall entry) with fewer than
    /// `min_items` items.
    ///
    /// ```
    /// use memeboard_core::leaderboard::CategoryEstimate;
    /// use memeboard_core::stats::Estimate;
    /// let e = Some(Estimate { value: 0.5, ci_low: 0.0, ci_high: 1.0 });
    /// let mut c = CategoryEstimate { category: Some("slang".into()), items: 2, estimate: e, suppressed: false };
    /// c.suppress_below(10);
    /// assert!(c.suppressed && c.estimate.is_none());
    /// ```
    pub fn suppress_below(&mut self, min_items: usize) {
        if self.category.is_some() && self.items < min_items {
            self.estimate = None;
            self.suppressed = true;
        }
    }
}

/// Overall and per-category accuracy with item-bootstrap 95% intervals.
///
/// ```
/// use memeboard_core::leaderboard::{summarize, ItemScore};
/// let s = |c: &str, score| ItemScore { item_id: format!("{c}{score}"), category: c.into(), score };
/// let rows = summarize(&[s("x", 1.0), s("x", 0.0), s("y", 1.0)], &["x".into(), "y".into()], 200, 1);
/// assert!((rows[0].estimate.as_ref().unwrap().value - 2.0 / 3.0).abs() < 1e-12);
/// assert_eq!(rows[1].estimate.as_ref().unwrap().value, 0.5);
/// assert_eq!(rows[2].items, 1);
/// ```
pub fn summarize(
    scores: &[ItemScore],
    categories: &[String],
    resamples: usize,
    seed: u64,
) -> Vec<CategoryEstimate> {
    let estimate = |subset: Vec<&ItemScore>| {
        let responses: Vec<Response> = subset
            .iter()
            .enumerate()
            .map(|(item, s)| Response {
                participant: 0,
                item,
                score: s.score,
            })
            .collect();
        (
            subset.len(),
            crowd_estimate(&responses, CrowdStatistic::Pooled, resamples, seed),
        )
    };
    let (items, overall) = estimate(scores.iter().collect());
    let mut out = vec![CategoryEstimate {
        category: None,
        items,
        estimate: overall,
        suppressed: false,
    }];
    let mut by_category: BTreeMap<&str, Vec<&ItemScore>> = BTreeMap::new();
    for s in scores {
        by_category.entry(s.category.as_str()).or_default().push(s);
    }
    for c in categories {
        let (items, est) = estimate(by_category.remove(c.as_str()).unwrap_or_default());
        out.push(CategoryEstimate {
            category: Some(c.clone()),
            items,
            estimate: est,
            suppressed: false,
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::predictions::{
        validate_predictions, FileFormat, Limits, ManifestItem, Split, TaskManifest,
    };

    fn manifest() -> (TaskManifest, Vec<McqGold>) {
        let items: Vec<ManifestItem> = (0..6)
            .map(|i| ManifestItem {
                id: format!("i{i}"),
                category: if i < 3 { "a" } else { "b" }.into(),
                split: Split::Test,
                options: (0..5).map(|o| format!("opt{i}-{o}")).collect(),
            })
            .collect();
        let gold = items
            .iter()
            .enumerate()
            .map(|(i, it)| McqGold {
                item_id: it.id.clone(),
                category: it.category.clone(),
                correct: i % 5,
            })
            .collect();
        (
            TaskManifest {
                task: "t".into(),
                items,
            },
            gold,
        )
    }

    fn score_text(text: &str) -> Vec<f64> {
        let (m, gold) = manifest();
        let v = validate_predictions(text, FileFormat::JsonLines, &m, Limits::default()).unwrap();
        score_mcq(&m, &v, &gold)
            .into_iter()
            .map(|s| s.score)
            .collect()
    }

    #[test]
    fn line_order_does_not_change_scores() {
        let lines: Vec<String> = (0..6)
            .map(|i| format!("{{\"item_id\":\"i{i}\",\"answer\":{}}}", (i % 3) + 1))
            .collect();
        let forward = score_text(&lines.join("\n"));
        let mut reversed = lines.clone();
        reversed.reverse();
        assert_eq!(forward, score_text(&reversed.join("\n")));
        // Rotations too.
        for k in 1..6 {
            let mut rotated = lines.clone();
            rotated.rotate_left(k);
            assert_eq!(forward, score_text(&rotated.join("\n")));
        }
    }

    #[test]
    fn answers_under_other_orders_are_mapped_back_to_canonical_options() {
        use crate::predictions::order_permutation;
        // Item i2 (correct canonical option 2) answered correctly under every order.
        let lines: Vec<String> = (0..5)
            .map(|order| {
                let perm = order_permutation("i2", order, 5);
                let shown = perm.iter().position(|&c| c == 2).unwrap() + 1;
                format!("{{\"item_id\":\"i2\",\"answer\":{shown},\"order\":{order}}}")
            })
            .collect();
        let scores = score_text(&lines.join("\n"));
        assert_eq!(scores[2], 1.0);
        // Other items have no lines: wrong under every order.
        assert_eq!(scores[0], 0.0);
    }

    #[test]
    fn the_five_order_protocol_averages_majorities_over_orders() {
        // Item i1 (correct 1 → option number 2 in order 0). Order 0: 3 samples, 2 right.
        // Order 1..4 only given via text: right in orders 1 and 2, wrong in 3, missing in 4.
        let text = [
            r#"{"item_id":"i1","answer":2,"order":0,"sample":0}"#,
            r#"{"item_id":"i1","answer":2,"order":0,"sample":1}"#,
            r#"{"item_id":"i1","answer":1,"order":0,"sample":2}"#,
            r#"{"item_id":"i1","answer":"opt1-1","order":1}"#,
            r#"{"item_id":"i1","answer":"opt1-1","order":2}"#,
            r#"{"item_id":"i1","answer":"opt1-0","order":3}"#,
            r#"{"item_id":"i0","answer":"opt0-0","order":4}"#,
        ]
        .join("\n");
        let scores = score_text(&text);
        // Orders used in the file: 0..=4 → i1 right in 0, 1, 2 → 3/5.
        assert!((scores[1] - 0.6).abs() < 1e-12, "{scores:?}");
        // i0 right only under order 4 → 1/5.
        assert!((scores[0] - 0.2).abs() < 1e-12);
    }

    #[test]
    fn ties_go_to_the_answer_seen_first() {
        assert_eq!(majority(&[3, 1, 1, 3]), Some(3));
        assert_eq!(majority(&[]), None);
    }

    #[test]
    fn duplicate_lines_are_rejected() {
        let (m, _) = manifest();
        let text = "{\"item_id\":\"i0\",\"answer\":1}\n{\"item_id\":\"i0\",\"answer\":2}\n";
        let err =
            validate_predictions(text, FileFormat::JsonLines, &m, Limits::default()).unwrap_err();
        assert_eq!(
            err.lines(),
            vec!["line 2, field `item_id`: duplicate prediction for `i0` (order 0, sample 0); first on line 1"]
        );
    }
}
