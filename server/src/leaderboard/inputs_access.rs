//! Who may read a task's model inputs: everybody, except for kinds whose inputs hold what the
//! quiz shows only after a preface (the clip task's question and choices come after the
//! familiarity answer) while the task's quiz is open — then only authors with a token, and
//! every such download is logged in the benchmark's action log, which its owners see.

use super::find_task;
use crate::error::{ApiError, ApiResult};
use crate::kinds::ServerKind;
use crate::storage::{AuthorRecord, NewOwnerAction, Storage};
use axum::http::HeaderMap;
use memeboard_core::{msg, with_kind};

/// The action logged for each download of withheld inputs.
pub const INPUTS_ACTION: &str = "download_inputs";

/// Checks that the request may read the inputs of task `slug` (`file`: what is downloaded,
/// for the log). While the quiz of a kind with [`ServerKind::INPUTS_AFTER_PREFACE`] is open,
/// a request without an author token is refused (401 with the reason) and one with a token is
/// logged; otherwise the inputs are public and the token, if any, is not even read.
pub async fn check_inputs_access(
    storage: &Storage,
    headers: &HeaderMap,
    slug: &str,
    file: &str,
) -> ApiResult<()> {
    let task = find_task(storage, slug).await?;
    let withheld = with_kind!(task.task.task_kind()?, K => K::INPUTS_AFTER_PREFACE);
    if !withheld || !task.task.quiz_open {
        return Ok(());
    }
    if super::auth::bearer(headers).is_none() {
        return Err(ApiError::Unauthorized(msg!(
            "task.inputs_need_token",
            slug = slug
        )));
    }
    let author: AuthorRecord = super::authenticate(storage, headers).await?;
    let actor = format!("author {}", author.name);
    let detail = serde_json::json!({"author_id": author.id, "file": file}).to_string();
    storage
        .log_owner_action(&NewOwnerAction {
            owner_id: None,
            actor_name: &actor,
            benchmark_id: &task.task.benchmark_id,
            task_id: Some(&task.task.id),
            action: INPUTS_ACTION,
            detail_json: &detail,
        })
        .await?;
    Ok(())
}
