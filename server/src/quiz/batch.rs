//! The balanced batch a new session of a (non-judging) quiz is assigned.

use super::categories_of;
use crate::error::{ApiError, ApiResult};
use crate::storage::{self, QuizRow, Storage};
use memeboard_core::api::StartSessionRequest;
use memeboard_core::assign::{assign_balanced, Candidate};
use memeboard_core::fieldwork::{FieldworkSettings, FlaggedPolicy};
use memeboard_core::kinds::{ItemPrompt, Kind, TaskKind};
use memeboard_core::messages::Message;
use memeboard_core::{msg, with_kind};

/// A balanced batch for a quiz: the owner's categories and excluded items, the kind's
/// eligibility filter (clip languages), then equal quotas per category, least-exposed items
/// first, flagged items skipped on request.
pub(super) async fn balanced_batch(
    storage: &Storage,
    quiz: &QuizRow,
    fieldwork: &FieldworkSettings,
    request: &StartSessionRequest,
    kind: TaskKind,
    seed: u64,
) -> ApiResult<Vec<String>> {
    let filters = with_kind!(kind, K => K::FILTERS_BY_SURVEY);
    // The owner's item selection: categories (all when none chosen) and excluded items.
    let categories: Vec<String> = categories_of(quiz)?
        .into_iter()
        .map(|c| c.key)
        .filter(|k| fieldwork.categories.is_empty() || fieldwork.categories.contains(k))
        .collect();
    let mut rows = storage
        .assignment_candidates(&quiz.task.id, filters)
        .await?;
    rows.retain(|c| categories.contains(&c.category) && !fieldwork.excluded_items.contains(&c.id));
    if filters {
        // Only the items this participant may get (the clip task: their native language and
        // clips without language).
        let survey = &request.survey;
        let mut kept = Vec::with_capacity(rows.len());
        for c in rows {
            let prompt: ItemPrompt = storage::decode_json(
                "items.prompt_json",
                c.prompt_json.as_deref().unwrap_or_default(),
            )?;
            let eligible = with_kind!(kind, K => K::prompt_of(prompt)
                .map(|p| K::eligible(&p, survey))
                .map_err(|e| ApiError::Unexpected(anyhow::anyhow!("item {}: {e}", c.id)))?);
            if eligible {
                kept.push(c);
            }
        }
        rows = kept;
    }
    let candidates: Vec<Candidate> = rows
        .into_iter()
        .map(|c| Candidate {
            id: c.id,
            category: c.category,
            exposures: u64::try_from(c.exposures).unwrap_or(0),
            flagged: c.flagged,
        })
        .collect();
    let skip_flagged =
        request.survey.skip_flagged || fieldwork.flagged_policy == FlaggedPolicy::Never;
    let eligible = candidates
        .iter()
        .filter(|c| !(skip_flagged && c.flagged))
        .count();
    let batch_size = usize::try_from(quiz.task.batch_size)
        .unwrap_or(0)
        .min(eligible);
    if batch_size == 0 {
        return Err(ApiError::Conflict(msg!(
            "quiz.no_items",
            slug = quiz.task.slug
        )));
    }
    assign_balanced(&candidates, &categories, batch_size, skip_flagged, seed).map_err(|e| {
        ApiError::Conflict(
            Message::new("quiz.cannot_assign").with_message("reason", e.to_message()),
        )
    })
}
