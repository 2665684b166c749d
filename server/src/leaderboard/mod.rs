//! The leaderboard pipeline: author tokens and quotas, task manifests and templates, upload →
//! validate → score → store in one request, boards with human and baseline rows, model pages
//! and the per-item human–model gap view.

mod auth;
mod board;
mod board_crowd;
mod inputs_access;
pub mod invites;
mod ladder;
mod models;
mod paper_tables;
mod submit;
mod summaries;

pub use auth::*;
pub use board::*;
pub use inputs_access::*;
pub use models::*;
pub use paper_tables::{owners_paper_tables, paper_tables};
pub use submit::*;
pub(crate) use summaries::{
    has_view_summaries, store_view_summaries, summaries_by_half, summary_key,
};

use crate::error::{ApiError, ApiResult};
use crate::kinds::{self, FilesOf, PredictionFiles, ServerKind};
use crate::storage::{self, BoardTaskRow, Storage, TaskItemRow};
use anyhow::Context;
use memeboard_core::api::{BoardSplit, TaskSummary};
use memeboard_core::predictions::{FileFormat, Split, TaskManifest};
use memeboard_core::tasks::CategoryInfo;
use memeboard_core::{msg, with_kind};

/// Seed of the model-row bootstrap intervals (shared with the kinds' secondary figures).
pub(crate) use memeboard_core::leaderboard::BOOTSTRAP_SEED;

fn clean_text(field: &str, value: &str, max_chars: usize, required: bool) -> ApiResult<String> {
    let v = value.trim();
    if required && v.is_empty() {
        return Err(ApiError::BadRequest(msg!(
            "field.required_chars",
            field = field,
            max = max_chars
        )));
    }
    if v.chars().count() > max_chars {
        return Err(ApiError::BadRequest(msg!(
            "field.too_long",
            field = field,
            max = max_chars,
            found = v.chars().count()
        )));
    }
    if v.chars().any(|c| c.is_control() && c != '\n') {
        return Err(ApiError::BadRequest(msg!(
            "field.control_chars",
            field = field
        )));
    }
    Ok(v.to_owned())
}

/// A task with a board and prediction files. Judging tasks (ratings, rankings) have neither:
/// 404 naming why (their items' gold names the submissions behind the outputs).
async fn find_task(storage: &Storage, slug: &str) -> ApiResult<BoardTaskRow> {
    let task = storage
        .find_board_task(slug)
        .await?
        .ok_or_else(|| ApiError::NotFound(msg!("task.not_found", slug = slug)))?;
    if task.task.task_kind()?.is_judging() {
        return Err(ApiError::NotFound(msg!("judging.no_files", slug = slug)));
    }
    Ok(task)
}

fn categories(task: &BoardTaskRow) -> ApiResult<Vec<CategoryInfo>> {
    Ok(storage::decode_json(
        "tasks.categories_json",
        &task.task.categories_json,
    )?)
}

fn category_keys(task: &BoardTaskRow) -> ApiResult<Vec<String>> {
    Ok(categories(task)?.into_iter().map(|c| c.key).collect())
}

/// All tasks with boards.
pub async fn list_tasks(storage: &Storage) -> ApiResult<Vec<TaskSummary>> {
    let mut out = Vec::new();
    for task in storage.list_board_tasks().await? {
        if task.task.task_kind()?.is_judging() {
            continue;
        }
        let items = storage.offered_task_items(&task.task.id).await?;
        let count = |f: &dyn Fn(&TaskItemRow) -> bool| items.iter().filter(|i| f(i)).count();
        out.push(TaskSummary {
            slug: task.task.slug.clone(),
            title: task.task.title.clone(),
            kind: task.task.task_kind()?,
            dev_items: count(&|i| i.split == Split::Dev),
            public_items: count(&|i| i.on_board(BoardSplit::Public)),
            private_items: count(&|i| i.on_board(BoardSplit::Private)),
            submissions: usize::try_from(task.submissions).unwrap_or(0),
            categories: categories(&task)?,
            conditions: task.task.task_kind()?.conditions(),
        });
    }
    Ok(out)
}

/// The public manifest (items, categories, splits, options; no gold).
pub async fn manifest(storage: &Storage, slug: &str) -> ApiResult<TaskManifest> {
    let task = find_task(storage, slug).await?;
    with_kind!(task.task.task_kind()?, K => {
        let items = kinds::offered_items::<K>(storage, &task).await?;
        Ok(K::manifest(&task.task.slug, &items))
    })
}

/// Model inputs as JSON Lines: what a model needs to answer each item (for text MCQs the
/// sentence and its options under all five published orders). No gold.
pub async fn inputs_jsonl(storage: &Storage, slug: &str) -> ApiResult<String> {
    let task = find_task(storage, slug).await?;
    with_kind!(task.task.task_kind()?, K => {
        let items = kinds::offered_items::<K>(storage, &task).await?;
        Ok(items
            .iter()
            .map(|i| FilesOf::<K>::inputs_line(i).to_string() + "\n")
            .collect())
    })
}

/// A template to fill in: every item id with the kind's fields empty.
pub async fn template(storage: &Storage, slug: &str, format: FileFormat) -> ApiResult<String> {
    let task = find_task(storage, slug).await?;
    with_kind!(task.task.task_kind()?, K => {
        let items = kinds::offered_items::<K>(storage, &task).await?;
        Ok(kinds::template::<K>(&items, format))
    })
}

/// Gold of the open dev split only (public by design), as JSON Lines.
pub async fn dev_gold(storage: &Storage, slug: &str) -> ApiResult<Vec<serde_json::Value>> {
    let task = find_task(storage, slug).await?;
    with_kind!(task.task.task_kind()?, K => {
        let items = kinds::typed_items::<K>(storage, &task).await?;
        Ok(items
            .iter()
            .filter(|i| i.split() == Split::Dev)
            .map(FilesOf::<K>::dev_gold_line)
            .collect())
    })
}

/// Whether the task's kind scores prediction files automatically (see
/// [`crate::kinds::capabilities::AutoScoring`]).
fn auto_scored(task: &BoardTaskRow) -> ApiResult<bool> {
    Ok(with_kind!(task.task.task_kind()?, K => crate::kinds::capabilities::auto_scored::<K>()))
}

fn board_visible(task: &BoardTaskRow) -> bool {
    !task.blind || task.blind_revealed
}
