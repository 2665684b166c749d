//! What the two judging kinds (rating, ranking) share on the server: they take no prediction
//! files and have no model inputs, templates, dev gold or baseline (their "gold" names the
//! submissions behind the outputs, which never leaves the server). The routes refuse judging
//! tasks before any of these is reached (`leaderboard::find_task`); these are the kind's
//! answers should anything call them anyway.

use super::{FileContext, ScoredFile, TypedItem};
use crate::error::{ApiError, ApiResult};
use memeboard_core::kinds::Kind;
use memeboard_core::msg;
use serde_json::{json, Value};

/// Refuses a prediction file for a judging task, naming the task.
pub(super) fn no_files(ctx: &FileContext<'_>) -> ApiResult<ScoredFile> {
    Err(ApiError::Unprocessable(msg!(
        "judging.no_files",
        slug = ctx.task.task.slug
    )))
}

/// A line naming only the item (no output, no submission).
pub(super) fn id_line<K: Kind>(item: &TypedItem<K>) -> Value {
    json!({"item_id": item.row.id, "category": item.row.category})
}

/// The board's metric name for judging tasks.
pub(super) const METRIC: &str = "judged by people (no automatic metric)";
/// The missing-items policy of judging tasks.
pub(super) const MISSING: &str = "Judging tasks take no prediction files.";
