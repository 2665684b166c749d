//! Model pages: a submission's details, the author's own submissions, and the per-item
//! human–model gap view (authors: dev items only; admins: all).

use super::*;
use crate::config::Settings;
use crate::crowd::items::{item_crowd_table, ItemCrowdTable};
use crate::crowd_cache::CrowdCache;
use crate::error::{ApiError, ApiResult};
use crate::kinds::{self, PredictionFiles};
use crate::storage::{self, BoardTaskRow, Storage, SubmissionRecord, TaskItemRow};
use axum::http::HeaderMap;
use memeboard_core::api::{
    ItemGap, MeResponse, ModelInfo, SubmissionDetail, SubmissionStatus, Weights,
};
use memeboard_core::conditions::{stored_conditions, ConditionSpec};
use memeboard_core::kinds::Kind;
use memeboard_core::leaderboard::{CategoryEstimate, ItemScore};
use memeboard_core::predictions::Split;
use memeboard_core::{msg, with_kind};
use std::collections::HashMap;

/// A submission's model details, its run conditions read against the task's (`specs`).
pub(super) fn model_of(s: &SubmissionRecord, specs: &[ConditionSpec]) -> ModelInfo {
    ModelInfo {
        model_name: s.model_name.clone(),
        organisation: s.organisation.clone(),
        parameters: s.parameters.clone(),
        weights: if s.weights == "open" {
            Weights::Open
        } else {
            Weights::Closed
        },
        link: s.link.clone(),
        description: s.description.clone(),
        conditions: stored_conditions(specs, s.conditions_json.as_deref()),
    }
}

/// Per-category figures are published only for categories with at least `min_items` items
/// on the board half: with one or two items a handful of uploads (e.g. constant answers per
/// option order) would reveal their answers. The overall entry is always kept.
pub(super) fn publishable(
    mut scores: Vec<CategoryEstimate>,
    min_items: usize,
) -> Vec<CategoryEstimate> {
    for s in &mut scores {
        s.suppress_below(min_items);
    }
    scores
}

/// A submission's page as the public sees it: public-half figures of the upload its author's
/// Ladder shows (see `ladder`), both halves rounded to what they support.
pub(super) fn detail_of(
    task: &BoardTaskRow,
    s: &SubmissionRecord,
    shown: &super::ladder::Shown,
    settings: &crate::config::LeaderboardSettings,
) -> ApiResult<SubmissionDetail> {
    let scored = auto_scored(task)?;
    let visible = board_visible(task) && scored;
    let task_kind = task.task.task_kind()?;
    Ok(SubmissionDetail {
        withdrawn: s.withdrawn_at.is_some(),
        submission_id: s.id.clone(),
        task: task.task.slug.clone(),
        kind: Some(task_kind),
        model: model_of(s, &task_kind.conditions()),
        submitted_at: s.created_at,
        status: if !scored {
            SubmissionStatus::Unscored
        } else if visible {
            SubmissionStatus::Scored
        } else {
            SubmissionStatus::Received
        },
        lines: usize::try_from(s.num_lines).unwrap_or(0),
        missing_items: usize::try_from(s.num_missing).unwrap_or(0),
        categories: categories(task)?,
        public_scores: if visible {
            super::ladder::public_scores_of(shown, s, settings)?
        } else {
            Vec::new()
        },
        private_scores: if visible && task.private_revealed {
            super::ladder::published_scores(
                storage::decode_json("submissions.private_summary_json", &s.private_summary_json)?,
                settings,
            )
        } else {
            Vec::new()
        },
    })
}

/// The token's author, quota and submissions.
pub async fn me(
    storage: &Storage,
    settings: &Settings,
    headers: &HeaderMap,
) -> ApiResult<MeResponse> {
    let author = authenticate(storage, headers).await?;
    let tasks: HashMap<String, BoardTaskRow> = storage
        .list_board_tasks()
        .await?
        .into_iter()
        .map(|t| (t.task.id.clone(), t))
        .collect();
    let mut submissions = Vec::new();
    let mut ladders: HashMap<String, super::ladder::Shown> = HashMap::new();
    for s in storage.author_submissions(&author.id).await? {
        if let Some(task) = tasks.get(&s.task_id) {
            if !ladders.contains_key(&s.task_id) {
                let shown =
                    super::ladder::shown_submissions(storage, &settings.leaderboard, task).await?;
                ladders.insert(s.task_id.clone(), shown);
            }
            if let Some(shown) = ladders.get(&s.task_id) {
                submissions.push(detail_of(task, &s, shown, &settings.leaderboard)?);
            }
        }
    }
    Ok(MeResponse {
        quota: quota(storage, settings, &author).await?,
        author_id: author.id,
        name: author.name,
        organisation: author.organisation,
        submissions,
    })
}

/// A model page.
pub async fn submission(
    storage: &Storage,
    settings: &Settings,
    id: &str,
) -> ApiResult<SubmissionDetail> {
    let s = storage
        .find_submission(id)
        .await?
        .ok_or_else(|| ApiError::NotFound(msg!("submission.not_found", id = id)))?;
    let task = storage
        .list_board_tasks()
        .await?
        .into_iter()
        .find(|t| t.task.id == s.task_id)
        .ok_or_else(|| ApiError::NotFound(msg!("submission.task_gone", id = id)))?;
    let shown = super::ladder::shown_submissions(storage, &settings.leaderboard, &task).await?;
    detail_of(&task, &s, &shown, &settings.leaderboard)
}

/// Items the model got wrong that most people got right, biggest gap first. Authors see
/// their own submission on dev items only (listing the test items a file got wrong would
/// reveal their gold after a few constant-answer uploads); admins see every item.
pub async fn item_gaps(
    storage: &Storage,
    settings: &Settings,
    item_cache: &CrowdCache<ItemCrowdTable>,
    headers: &HeaderMap,
    id: &str,
) -> ApiResult<Vec<ItemGap>> {
    let admin = is_admin(settings, headers);
    let s = storage
        .find_submission(id)
        .await?
        .ok_or_else(|| ApiError::NotFound(msg!("submission.not_found", id = id)))?;
    if !admin {
        let author = authenticate(storage, headers).await?;
        if author.id != s.author_id {
            return Err(ApiError::Forbidden(msg!("submission.author_only")));
        }
    }
    let task = storage
        .list_board_tasks()
        .await?
        .into_iter()
        .find(|t| t.task.id == s.task_id)
        .ok_or_else(|| ApiError::NotFound(msg!("submission.task_gone_short")))?;
    if !admin && !board_visible(&task) {
        return Err(ApiError::Forbidden(msg!("submission.blind")));
    }
    // (row, text shown) per item: a sentence, a meme phrase…
    let task_kind = task.task.task_kind()?;
    let items: Vec<(TaskItemRow, String)> = with_kind!(task_kind, K => {
        kinds::offered_items::<K>(storage, &task)
            .await?
            .into_iter()
            .map(|i| {
                let subject = K::subject(&i.prompt);
                (i.row, subject)
            })
            .collect()
    });
    let scores: Vec<ItemScore> =
        storage::decode_json("submissions.item_scores_json", &s.item_scores_json)?;
    let by_id: HashMap<&str, &(TaskItemRow, String)> =
        items.iter().map(|i| (i.0.id.as_str(), i)).collect();
    // Per-item crowd totals kept per state of the crowd's data (never the crowd's answers
    // read on this request's path).
    let crowd = item_crowd_table(storage, item_cache, &task.task.id).await?;
    let mut gaps: Vec<ItemGap> = scores
        .iter()
        .filter_map(|sc| {
            let (row, text) = by_id.get(sc.item_id.as_str())?;
            let allowed = admin || row.split == Split::Dev;
            let (crowd_accuracy, n) = crowd.mean(&sc.item_id)?;
            // Choices: wrong where most people were right. Explanations: below the crowd.
            let notable = with_kind!(task_kind, K => {
                kinds::FilesOf::<K>::notable_gap(sc.score, crowd_accuracy)
            });
            (allowed && notable).then(|| ItemGap {
                item_id: sc.item_id.clone(),
                category: sc.category.clone(),
                sentence: text.clone(),
                model_score: sc.score,
                crowd_accuracy,
                crowd_answers: n,
                gap: crowd_accuracy - sc.score,
            })
        })
        .collect();
    gaps.sort_by(|a, b| b.gap.total_cmp(&a.gap).then(a.item_id.cmp(&b.item_id)));
    Ok(gaps)
}

/// Withdraws the caller's own submission: it leaves every board (its upload still counted
/// against the day's quota). Repeating it is harmless; someone else's submission is refused.
pub async fn withdraw(
    storage: &Storage,
    headers: &HeaderMap,
    id: &str,
) -> ApiResult<memeboard_core::api::WithdrawResponse> {
    let author = authenticate(storage, headers).await?;
    let found = storage
        .find_submission(id)
        .await?
        .ok_or_else(|| ApiError::NotFound(msg!("submission.not_found_short", id = id)))?;
    if found.author_id != author.id || !storage.withdraw_submission(id, &author.id).await? {
        return Err(ApiError::Forbidden(msg!("submission.not_yours", id = id)));
    }
    tracing::info!(submission = id, "withdrawn by its author");
    Ok(memeboard_core::api::WithdrawResponse {
        submission_id: id.to_owned(),
        withdrawn: true,
    })
}
