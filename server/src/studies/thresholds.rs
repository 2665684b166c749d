//! The study owner's reliability thresholds: set with [`set_thresholds`], stored with the study,
//! applied once to the reliability of the raters the quality rules keep (see
//! `study_tables::apply_thresholds`) so that raters failing one leave every table of the study
//! and of its board.

use super::{authorized_study, encode};
use crate::error::{ApiError, ApiResult};
use crate::state::AppState;
use crate::storage::NewOwnerAction;
use axum::http::HeaderMap;
use memeboard_core::human_eval::thresholds::ReliabilityThresholds;
use memeboard_core::msg;

/// `PUT /api/owner/studies/{slug}/reliability`: replaces the study's reliability thresholds
/// (an empty object removes them), each checked against its range (400 naming the field, its
/// range and the value); logged as `set_reliability_thresholds`. The tables follow at once:
/// the thresholds are part of the study tables' fingerprint.
pub async fn set_thresholds(
    state: &AppState,
    headers: &HeaderMap,
    slug: &str,
    thresholds: ReliabilityThresholds,
) -> ApiResult<ReliabilityThresholds> {
    let (study, actor) = authorized_study(state, headers, slug).await?;
    if let Err(e) = thresholds.validate() {
        return Err(ApiError::BadRequest(msg!(
            "study.reliability_threshold",
            field = e.field,
            min = e.min,
            max = e.max,
            found = e.found,
        )));
    }
    let stored = if thresholds.is_empty() {
        None
    } else {
        Some(encode(&thresholds)?)
    };
    let detail = serde_json::json!({ "study": study.slug, "thresholds": thresholds }).to_string();
    let action = NewOwnerAction {
        owner_id: actor.owner_id.as_deref(),
        actor_name: &actor.name,
        benchmark_id: &study.benchmark_id,
        task_id: Some(&actor.task.task.id),
        action: "set_reliability_thresholds",
        detail_json: &detail,
    };
    state
        .storage
        .set_study_thresholds(&study.id, stored.as_deref(), &action)
        .await?;
    tracing::info!(study = %study.slug, "study reliability thresholds set");
    Ok(thresholds)
}
