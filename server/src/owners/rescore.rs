//! Scoring every upload of a task again: after a corrected gold is re-imported (the import
//! command does it for the tasks whose gold, split or halves changed), or when its owner asks
//! (the console's button, `POST /api/owner/tasks/{slug}/rescore`, `memeboard rescore`). Each
//! stored file goes through the upload's own scoring path (`leaderboard::score_as`), so
//! rescored figures are exactly what a fresh upload of the same file would get; each
//! submission is rewritten in its own transaction and the rescoring is recorded for the
//! board's history (when, why, how many). Uploads stored before files were kept are counted
//! as skipped (explanation files among them are rescored from their outputs at start-up when
//! the embedding model changes, `upgrade::explanations`).
//!
//! Heavy: it never runs on a request's path. The route starts it in the background, one per
//! task at a time ([`crate::task_slots::TaskSlots`]).

use crate::config::Settings;
use crate::error::{ApiError, ApiResult};
use crate::explain::inference::EmbeddingService;
use crate::leaderboard::score_as;
use crate::state::AppState;
use crate::storage::{self, RescoringRecord, Storage, SubmissionRewrite};
use axum::http::HeaderMap;
use memeboard_core::api::{RescoreRequest, RescoreStarted};
use memeboard_core::predictions::{FileFormat, Limits};
use memeboard_core::{msg, with_kind};
use std::collections::BTreeMap;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

/// Longest reason kept (characters).
pub const MAX_REASON_CHARS: usize = 200;

/// The reason as stored: trimmed, one line, at most [`MAX_REASON_CHARS`]; 400 when empty.
pub fn clean_reason(reason: &str) -> ApiResult<String> {
    let one_line: String = reason
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .chars()
        .take(MAX_REASON_CHARS)
        .collect();
    if one_line.is_empty() {
        return Err(ApiError::BadRequest(msg!("rescore.reason_required")));
    }
    Ok(one_line)
}

/// `POST /api/owner/tasks/{slug}/rescore`: for the admin or an owner of the task's benchmark;
/// logged (`rescore`), then run in the background (409 while the task is being rescored).
pub async fn start(
    state: &AppState,
    headers: &HeaderMap,
    slug: &str,
    request: &RescoreRequest,
) -> ApiResult<RescoreStarted> {
    let actor = crate::owners::authorize(state, headers, slug).await?;
    let reason = clean_reason(&request.reason)?;
    let slot = state
        .rescorings
        .claim(slug)
        .ok_or_else(|| ApiError::Conflict(msg!("rescore.running", slug = slug)))?;
    let detail = serde_json::json!({ "reason": reason });
    crate::owners::log_action(&state.storage, &actor, "rescore", &detail).await?;
    let (storage, settings, embeddings) = (
        state.storage.clone(),
        Arc::clone(&state.settings),
        state.embeddings.clone(),
    );
    let (task, why) = (slug.to_owned(), reason.clone());
    tokio::spawn(async move {
        let _slot = slot;
        if let Err(e) = rescore_task(&storage, &settings, &embeddings, &task, &why).await {
            tracing::error!(task = %task, error = %e, "rescoring failed");
        }
    });
    Ok(RescoreStarted {
        task: slug.to_owned(),
        reason,
    })
}

/// Scores every upload of task `slug` again (withdrawn ones too: the Ladder reads the whole
/// history) and records it with `reason`; returns the record. 404 for an unknown task.
pub async fn rescore_task(
    storage: &Storage,
    settings: &Settings,
    embeddings: &EmbeddingService,
    slug: &str,
    reason: &str,
) -> ApiResult<RescoringRecord> {
    let reason = clean_reason(reason)?;
    let task = storage
        .find_board_task(slug)
        .await?
        .ok_or_else(|| ApiError::NotFound(msg!("task.not_found", slug = slug)))?;
    let kind = task.task.task_kind()?;
    // The stored files passed the limits when they were uploaded.
    let limits = Limits {
        max_bytes: usize::MAX,
        max_rows: usize::MAX,
    };
    let (mut rescored, mut skipped) = (0, 0);
    for s in storage.task_submission_history(&task.task.id).await? {
        let Some(file) = storage.submission_file(&s.id).await? else {
            skipped += 1;
            continue;
        };
        let format = FileFormat::from_key(&s.file_format);
        let scored = with_kind!(kind, K => {
            score_as::<K>(storage, settings, embeddings, &task, &file.body, format, limits).await
        });
        let (scored, public, private, _) = match scored {
            Ok(scored) => scored,
            Err(e) => {
                // E.g. an item the file names was removed by the re-import.
                tracing::warn!(submission = %s.id, error = %e, "stored file not scored again");
                skipped += 1;
                continue;
            }
        };
        let rewrite = SubmissionRewrite {
            id: s.id.clone(),
            item_scores_json: json_text(&scored.scores)?,
            public_summary_json: json_text(&public)?,
            private_summary_json: json_text(&private)?,
            extra_json: scored.extra.as_ref().map(serde_json::Value::to_string),
        };
        storage
            .rescore_submission(&rewrite, &scored.outputs)
            .await?;
        rescored += 1;
    }
    let record = RescoringRecord {
        id: format!("R-{}", crate::ids::random_hex(8)?.to_uppercase()),
        task_id: task.task.id.clone(),
        at: storage::now_ms(),
        reason,
        rescored,
        skipped,
    };
    storage.record_rescoring(&record).await?;
    tracing::warn!(
        task = slug,
        rescored,
        skipped,
        reason = %record.reason,
        "uploads scored again"
    );
    Ok(record)
}

/// Per task of benchmark `benchmark` (by task slug): a digest of its items' ids, gold,
/// splits and board halves, taken before and after a re-import to find the tasks whose
/// gold changed ([`rescore_reimported`]). Only compared within one process.
pub async fn gold_digests(storage: &Storage, benchmark: &str) -> ApiResult<BTreeMap<String, u64>> {
    let mut out = BTreeMap::new();
    let Some((_, tasks)) = storage.benchmark_tasks(benchmark).await? else {
        return Ok(out);
    };
    for task in tasks {
        let mut items = storage.task_items(&task.id).await?;
        items.sort_by(|a, b| a.id.cmp(&b.id));
        let mut hasher = std::hash::DefaultHasher::new();
        for item in &items {
            (
                &item.id,
                &item.gold_json,
                item.split.as_str(),
                item.board_half.as_str(),
            )
                .hash(&mut hasher);
        }
        out.insert(task.slug, hasher.finish());
    }
    Ok(out)
}

/// After a re-import of benchmark `benchmark`: scores again the uploads of every task that
/// existed before (`before`, from [`gold_digests`]) and whose items' gold, split or halves
/// changed, recording `reason`; returns each rescored task with its record. The embedding
/// model is loaded (`embeddings`) only when some task has uploads to score again.
pub async fn rescore_reimported(
    storage: &Storage,
    settings: &Settings,
    embeddings: impl FnOnce() -> EmbeddingService,
    benchmark: &str,
    before: &BTreeMap<String, u64>,
    reason: &str,
) -> ApiResult<Vec<(String, RescoringRecord)>> {
    let after = gold_digests(storage, benchmark).await?;
    let mut changed = Vec::new();
    for (slug, digest) in &after {
        if before.get(slug).is_some_and(|b| b != digest) {
            let Some(task) = storage.find_board_task(slug).await? else {
                continue;
            };
            if !storage
                .task_submission_history(&task.task.id)
                .await?
                .is_empty()
            {
                changed.push(slug.clone());
            }
        }
    }
    let mut out = Vec::new();
    if changed.is_empty() {
        return Ok(out);
    }
    let embeddings = embeddings();
    for slug in changed {
        let record = rescore_task(storage, settings, &embeddings, &slug, reason).await?;
        out.push((slug, record));
    }
    Ok(out)
}

fn json_text<T: serde::Serialize>(value: &T) -> ApiResult<String> {
    Ok(serde_json::to_string(value).map_err(anyhow::Error::from)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reasons_are_one_trimmed_line() {
        assert_eq!(
            clean_reason("  gold of item 12\n corrected ").unwrap(),
            "gold of item 12 corrected"
        );
        assert!(clean_reason(" \n ").is_err());
        assert_eq!(
            clean_reason(&"x".repeat(500)).unwrap().len(),
            MAX_REASON_CHARS
        );
    }
}
