//! What the two multi-panel kinds share on the server: model inputs with the panel URLs, and
//! turning per-item outcomes into board figures (scores per item, secondary metrics with
//! item-bootstrap intervals per board half, the confusion matrix).

use super::{ScoredFile, ServerKind, TypedItem};
use crate::storage::TaskItemRow;
use memeboard_core::api::{BoardSplit, NamedValue};
use memeboard_core::kinds::panels::PanelContext;
use memeboard_core::kinds::Kind;
use memeboard_core::leaderboard::ItemScore;
use memeboard_core::metrics::{confusion_matrix, estimate, ItemOutcome, Metric, OutcomeValue};
use memeboard_core::predictions::panels::ValidatedPanelFile;
use memeboard_core::predictions::TaskManifest;
use memeboard_core::tasks::MediaRef;
use serde_json::{json, Value};

/// Seed of every bootstrap behind the secondary figures (as for the main columns).
const SEED: u64 = memeboard_core::leaderboard::BOOTSTRAP_SEED;

/// Resamples of the secondary figures' intervals.
pub(super) const RESAMPLES: usize = 1000;

/// One line of `inputs.jsonl` for a comic: panel URLs in the order they are shown, numbered
/// from 1 as answers number them.
pub(super) fn inputs_line<K: Kind>(
    item: &TypedItem<K>,
    panels: &[MediaRef],
    context: Option<&PanelContext>,
    extra: Value,
) -> Value {
    let mut line = json!({
        "item_id": item.row.id,
        "category": item.row.category,
        "split": item.split(),
        "num_panels": panels.len(),
        "panels": panels.iter().enumerate().map(|(i, p)| json!({
            "number": i + 1, "url": p.url, "file": p.url.trim_start_matches('/'), "alt": p.alt,
        })).collect::<Vec<_>>(),
    });
    if let (Some(obj), Some(c)) = (line.as_object_mut(), context) {
        obj.insert("context".into(), json!(c));
    }
    if let (Some(obj), Value::Object(more)) = (line.as_object_mut(), extra) {
        obj.extend(more);
    }
    line
}

/// Per-item board scores of verdict or label outcomes: 1 right, 0 wrong; unparseable items
/// are left out when `parsed_only` (the column is then accuracy on parseable answers).
pub(super) fn item_scores(outcomes: &[ItemOutcome], parsed_only: bool) -> Vec<ItemScore> {
    outcomes
        .iter()
        .filter_map(|o| {
            let score = match &o.value {
                OutcomeValue::Verdict(v) => match v {
                    memeboard_core::metrics::Verdict::Correct => Some(1.0),
                    memeboard_core::metrics::Verdict::Wrong => Some(0.0),
                    memeboard_core::metrics::Verdict::Unparseable => None,
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

/// The secondary figures of one set of outcomes: `metrics` over all of them, then accuracy on
/// parseable answers per subset in `subsets` (key, label), each with its interval and item
/// count; and the confusion matrix when `confusion`.
pub(super) fn figures(
    outcomes: &[ItemOutcome],
    metrics: &[(Metric, &str)],
    subsets: &[(&str, &str)],
    confusion: bool,
) -> (
    Vec<NamedValue>,
    Option<memeboard_core::metrics::ConfusionMatrix>,
) {
    let mut out = Vec::new();
    for (metric, name) in metrics {
        if let Some(e) = estimate(*metric, outcomes, RESAMPLES, SEED) {
            out.push(NamedValue::estimated(*name, e));
        }
    }
    for (key, label) in subsets {
        let subset: Vec<ItemOutcome> = outcomes
            .iter()
            .filter(|o| o.in_subset(key))
            .cloned()
            .collect();
        if let Some(e) = estimate(Metric::AccuracyOnParseable, &subset, RESAMPLES, SEED) {
            out.push(NamedValue::estimated(*label, e).over(subset.len()));
        }
    }
    let matrix = (confusion && !outcomes.is_empty()).then(|| confusion_matrix(outcomes));
    (out, matrix)
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

/// The stored secondary figures of a file: `{"public": [...], "private": [...],
/// "public_confusion": …, "private_confusion": …}` (the shape the board reads).
pub(super) fn extra_json<'a>(
    rows: impl Iterator<Item = &'a TaskItemRow> + Clone,
    outcomes: &[ItemOutcome],
    figures_of: impl Fn(
        &[ItemOutcome],
    ) -> (
        Vec<NamedValue>,
        Option<memeboard_core::metrics::ConfusionMatrix>,
    ),
) -> Value {
    let (public, public_confusion) =
        figures_of(&of_half(rows.clone(), outcomes, BoardSplit::Public));
    let (private, private_confusion) = figures_of(&of_half(rows, outcomes, BoardSplit::Private));
    json!({
        "public": public, "private": private,
        "public_confusion": public_confusion, "private_confusion": private_confusion,
    })
}

/// What a prediction file may name, for a panel kind's validator.
pub(super) fn manifest<K: ServerKind>(items: &[TypedItem<K>]) -> TaskManifest {
    TaskManifest {
        task: String::new(),
        items: items.iter().map(K::manifest_item).collect(),
    }
}

/// A scored panel file: per-item scores (parseable answers only when `parsed_only`), the
/// secondary figures per board half, and a warning naming missing items and how many answers
/// did not parse (`unparseable_note` says what that means for the kind).
pub(super) fn scored_file<K: ServerKind, T>(
    items: &[TypedItem<K>],
    file: &ValidatedPanelFile<T>,
    outcomes: &[ItemOutcome],
    parsed_only: bool,
    unparseable_note: &str,
    figures_of: impl Fn(
        &[ItemOutcome],
    ) -> (
        Vec<NamedValue>,
        Option<memeboard_core::metrics::ConfusionMatrix>,
    ),
) -> ScoredFile {
    let unparseable = file.num_unparseable();
    let note = (unparseable > 0).then(|| format!("{unparseable} {unparseable_note}"));
    let warning = match (file.missing_warning(), note) {
        (Some(w), Some(n)) => Some(format!("{w}; {n}")),
        (w, n) => w.or(n),
    };
    ScoredFile {
        scores: item_scores(outcomes, parsed_only),
        extra: Some(extra_json(
            items.iter().map(|i| &i.row),
            outcomes,
            figures_of,
        )),
        num_lines: file.num_lines,
        num_missing: file.missing.len(),
        orders_json: "[]".into(),
        warning,
    }
}
