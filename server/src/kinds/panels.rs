//! What the two multi-panel kinds share on the server: model inputs with the panel URLs, and
//! scoring a validated panel file into board figures (through [`super::outcomes`]).

use super::outcomes::{extra_json, item_scores};
use super::{ScoredFile, ServerKind, TypedItem};
use memeboard_core::kinds::panels::PanelContext;
use memeboard_core::kinds::Kind;
use memeboard_core::metrics::ItemOutcome;
use memeboard_core::predictions::panels::ValidatedPanelFile;
use memeboard_core::tasks::MediaRef;
use serde_json::{json, Value};

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

/// A scored panel file: per-item scores (parseable answers only when `parsed_only`), the
/// secondary figures per board half, and a warning naming missing items and how many answers
/// did not parse (`unparseable_code`: the catalogue message saying what that means for the kind).
pub(super) fn scored_file<K: ServerKind, T>(
    items: &[TypedItem<K>],
    file: &ValidatedPanelFile<T>,
    outcomes: &[ItemOutcome],
    parsed_only: bool,
    unparseable_code: &str,
    figures_of: impl Fn(&[ItemOutcome]) -> super::outcomes::Figures,
) -> ScoredFile {
    let unparseable = file.num_unparseable();
    let note = (unparseable > 0).then(|| {
        memeboard_core::messages::Message::new(unparseable_code).with("count", unparseable)
    });
    let warnings = file.missing_message().into_iter().chain(note).collect();
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
        warnings,
        outputs: Vec::new(),
    }
}
