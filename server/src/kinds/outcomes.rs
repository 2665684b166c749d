//! Per-item outcomes turned into board figures, for every kind scored through
//! `memeboard_core::metrics`: per-item scores, secondary figures with item-bootstrap intervals
//! per board half, and the confusion matrix of classification kinds.

use crate::storage::TaskItemRow;
use memeboard_core::api::{BoardSplit, NamedValue};
use memeboard_core::leaderboard::ItemScore;
use memeboard_core::metrics::{
    confusion_matrix, estimate, ConfusionMatrix, ItemOutcome, Metric, OutcomeValue, Verdict,
};
use serde_json::{json, Value};

/// Seed of every bootstrap behind the secondary figures (as for the main columns).
const SEED: u64 = memeboard_core::leaderboard::BOOTSTRAP_SEED;

/// Resamples of the secondary figures' intervals.
const RESAMPLES: usize = 1000;

/// Secondary figures and the confusion matrix of one set of outcomes.
pub(super) type Figures = (Vec<NamedValue>, Option<ConfusionMatrix>);

/// Per-item board scores of verdict or label outcomes: 1 right, 0 wrong; unparseable items
/// are left out when `parsed_only` (the column is then accuracy on parseable answers).
pub(super) fn item_scores(outcomes: &[ItemOutcome], parsed_only: bool) -> Vec<ItemScore> {
    outcomes
        .iter()
        .filter_map(|o| {
            let score = match &o.value {
                OutcomeValue::Verdict(v) => match v {
                    Verdict::Correct => Some(1.0),
                    Verdict::Wrong => Some(0.0),
                    Verdict::Unparseable => None,
                },
                OutcomeValue::Label { gold, predicted } => {
                    predicted.as_ref().map(|p| f64::from(u8::from(p == gold)))
                }
                OutcomeValue::Score(s) => Some(*s),
                OutcomeValue::Pairwise(_) => None,
            };
            let score = if parsed_only {
                score?
            } else {
                score.unwrap_or(0.0)
            };
            Some(ItemScore {
                item_id: o.item.clone(),
                category: o.category.clone(),
                score,
            })
        })
        .collect()
}

/// Fewest parseable answers in a subset for its figure to be published (as
/// `leaderboard.min_category_items` for categories).
pub(super) const MIN_SUBSET_ANSWERS: usize = 10;

/// The secondary figures of one set of outcomes: `metrics` over all of them, then accuracy on
/// parseable answers per subset in `subsets` (key, label), each with its interval and item
/// count; and the confusion matrix when `confusion`.
pub(super) fn figures(
    outcomes: &[ItemOutcome],
    metrics: &[(Metric, &str)],
    subsets: &[(&str, &str)],
    confusion: bool,
) -> (Vec<NamedValue>, Option<ConfusionMatrix>) {
    let mut out = Vec::new();
    for (metric, name) in metrics {
        if let Some(e) = estimate(*metric, outcomes, RESAMPLES, SEED) {
            let named = NamedValue::estimated(*name, e);
            // The metric's wire key (`parse_rate`) names the figure for the paper tables.
            out.push(match serde_json::to_value(metric) {
                Ok(serde_json::Value::String(key)) => named.keyed(key),
                _ => named,
            });
        }
    }
    for (key, label) in subsets {
        let subset: Vec<ItemOutcome> = outcomes
            .iter()
            .filter(|o| o.in_subset(key))
            .cloned()
            .collect();
        // A subset figure appears only over enough answered items: whether it appears must
        // not tell which subset one answered item is in (a panel's structure type is the
        // typing task's gold; a file answering one comic would otherwise name its type).
        let answered = subset.iter().filter(|o| parseable(&o.value)).count();
        if answered < MIN_SUBSET_ANSWERS {
            continue;
        }
        if let Some(e) = estimate(Metric::AccuracyOnParseable, &subset, RESAMPLES, SEED) {
            out.push(
                NamedValue::estimated(*label, e)
                    .over(subset.len())
                    .keyed(*key),
            );
        }
    }
    let matrix = (confusion && !outcomes.is_empty()).then(|| confusion_matrix(outcomes));
    (out, matrix)
}

/// Whether an outcome comes from an answer that parsed.
fn parseable(value: &memeboard_core::metrics::OutcomeValue) -> bool {
    use memeboard_core::metrics::{OutcomeValue, Verdict};
    !matches!(
        value,
        OutcomeValue::Verdict(Verdict::Unparseable)
            | OutcomeValue::Label {
                predicted: None,
                ..
            }
    )
}

/// The outcomes of the items that one board half scores.
pub(super) fn of_half<'a>(
    rows: impl Iterator<Item = &'a TaskItemRow>,
    outcomes: &[ItemOutcome],
    half: BoardSplit,
) -> Vec<ItemOutcome> {
    let ids: std::collections::HashSet<&str> = rows
        .filter(|r| r.on_board(half))
        .map(|r| r.id.as_str())
        .collect();
    outcomes
        .iter()
        .filter(|o| ids.contains(o.item.as_str()))
        .cloned()
        .collect()
}

/// The stored secondary figures of a file: `{"public": [...], "private": [...], "whole":
/// [...], "all": [...], "public_confusion": …, …, "all_confusion": …}` (the shape the board
/// reads; `whole` covers both test halves, `all` every item).
pub(super) fn extra_json<'a>(
    rows: impl Iterator<Item = &'a TaskItemRow> + Clone,
    outcomes: &[ItemOutcome],
    figures_of: impl Fn(&[ItemOutcome]) -> (Vec<NamedValue>, Option<ConfusionMatrix>),
) -> Value {
    let (public, public_confusion) =
        figures_of(&of_half(rows.clone(), outcomes, BoardSplit::Public));
    let (private, private_confusion) =
        figures_of(&of_half(rows.clone(), outcomes, BoardSplit::Private));
    let (whole, whole_confusion) = figures_of(&of_half(rows.clone(), outcomes, BoardSplit::Whole));
    let (all, all_confusion) = figures_of(&of_half(rows, outcomes, BoardSplit::All));
    json!({
        "public": public, "private": private, "whole": whole, "all": all,
        "public_confusion": public_confusion, "private_confusion": private_confusion,
        "whole_confusion": whole_confusion, "all_confusion": all_confusion,
    })
}
