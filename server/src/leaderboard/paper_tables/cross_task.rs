//! The figures of a cross-task table (CHIME §5.3): for each model with a scored run under the
//! default conditions on both tasks' boards, the two runs' item scores on the board view,
//! joined through the items' memes and reduced by `paper_tables::cross_task`, each figure
//! with its 95% bootstrap interval over the joined questions. Figures over hidden items are
//! computed on revealed views only (the private half and the whole split, once revealed): on
//! the public half a per-model figure over the joined items of two runs would be a second,
//! finer channel beside the Ladder's rounded summaries.

use super::ComputedScope;
use crate::error::ApiResult;
use crate::state::AppState;
use crate::storage::{self, Storage};
use anyhow::Context;
use memeboard_core::api::{BoardResponse, BoardRow, BoardSplit, RowKind, SubmissionStatus};
use memeboard_core::conditions::Conditions;
use memeboard_core::leaderboard::{ItemScore, BOOTSTRAP_SEED};
use memeboard_core::paper_tables::cross_task::{cross_task, join_through_source, published};
use memeboard_core::paper_tables::{ColumnSpec, ComputedCells, CrossTaskSpec, TableSpec};
use std::collections::HashMap;

/// Most models one computed table joins (each costs stored score lists).
pub(super) const MAX_MODELS: usize = 64;

/// Each item of a task on the board view with its source meme: item id → meme id.
async fn memes_on_view(
    storage: &Storage,
    task_id: &str,
    split: BoardSplit,
) -> ApiResult<HashMap<String, String>> {
    let on_view = storage.items_on_board(task_id, split).await?;
    Ok(storage
        .item_memes(task_id)
        .await?
        .into_iter()
        .filter(|(id, _)| on_view.contains(id))
        .filter_map(|(id, meme)| Some((id, meme?)))
        .collect())
}

/// A run's stored item scores (empty when the submission is gone).
pub(super) async fn item_scores(storage: &Storage, submission: &str) -> ApiResult<Vec<ItemScore>> {
    Ok(match storage.submission_item_scores(submission).await? {
        Some(json) => storage::decode_json("submissions.item_scores_json", &json)?,
        None => Vec::new(),
    })
}

/// A run's item scores on the view: `(item, meme, score)`.
async fn scores_on_view(
    storage: &Storage,
    submission: &str,
    memes: &HashMap<String, String>,
) -> ApiResult<Vec<(String, String, f64)>> {
    Ok(item_scores(storage, submission)
        .await?
        .into_iter()
        .filter_map(|i| Some((i.item_id.clone(), memes.get(&i.item_id)?.clone(), i.score)))
        .collect())
}

/// Borrowed `(item, meme, score)` triples, as `join_through_source` takes them.
fn borrowed(v: &[(String, String, f64)]) -> Vec<(&str, &str, f64)> {
    v.iter()
        .map(|(i, m, s)| (i.as_str(), m.as_str(), *s))
        .collect()
}

/// The scored model rows of a board under its default conditions: model name → submission.
pub(super) fn default_runs(board: &BoardResponse) -> Vec<(&str, &str)> {
    let defaults: Conditions = board
        .conditions
        .iter()
        .map(|c| (c.name.clone(), c.default.clone()))
        .collect();
    let is_default = |r: &BoardRow| r.model.as_ref().is_some_and(|m| m.conditions == defaults);
    board
        .rows
        .iter()
        .filter(|r| r.kind == RowKind::Model && r.status == SubmissionStatus::Scored)
        .filter(|r| is_default(r))
        .filter_map(|r| Some((r.label.as_str(), r.submission_id.as_deref()?)))
        .collect()
}

/// The computed cells of the page's cross-task tables (`specs` with
/// [`ColumnSpec::CrossTask`] columns), by column key and the first task's submission.
pub(super) async fn computed_cells(
    state: &AppState,
    specs: &[TableSpec],
    scope: &ComputedScope<'_>,
) -> ApiResult<ComputedCells> {
    let mut out = ComputedCells::new();
    for spec in specs {
        if let ColumnSpec::CrossTask(cross) = spec.columns {
            out.extend(cross_task_cells(state, cross, spec.subset, scope).await?);
        }
    }
    Ok(out)
}

/// The published cells of one cross-task table over `subset`; empty on the public half, or
/// when a task or its board is missing.
async fn cross_task_cells(
    state: &AppState,
    spec: &CrossTaskSpec,
    subset: &str,
    scope: &ComputedScope<'_>,
) -> ApiResult<ComputedCells> {
    let mut out = ComputedCells::new();
    if !scope.split.needs_reveal() {
        return Ok(out);
    }
    let (Some((_, first_id, first)), Some((_, second_id, second))) = (
        scope.task(spec.first, subset),
        scope.task(spec.second, subset),
    ) else {
        return Ok(out);
    };
    let second_runs = default_runs(second);
    let pairs: Vec<(&str, &str)> = default_runs(first)
        .into_iter()
        .filter_map(|(model, a)| {
            let b = second_runs.iter().find(|(m, _)| *m == model)?.1;
            Some((a, b))
        })
        .take(MAX_MODELS)
        .collect();
    if pairs.is_empty() {
        return Ok(out);
    }
    let (storage, settings) = (&state.storage, &*state.settings);
    let lb = &settings.leaderboard;
    let resamples = settings.quiz.bootstrap_resamples;
    let first_memes = memes_on_view(storage, first_id, scope.split).await?;
    let second_memes = memes_on_view(storage, second_id, scope.split).await?;
    // One pair of runs at a time: two score lists in memory, whatever the number of models.
    for (a, b) in pairs {
        let first_scores = scores_on_view(storage, a, &first_memes).await?;
        let second_scores = scores_on_view(storage, b, &second_memes).await?;
        let joined = join_through_source(&borrowed(&first_scores), &borrowed(&second_scores));
        let (first_correct, second_correct) = (spec.first_correct, spec.second_correct);
        // The bootstrap intervals are computed off the executor.
        let figures = tokio::task::spawn_blocking(move || {
            cross_task(
                &joined,
                first_correct,
                second_correct,
                resamples,
                BOOTSTRAP_SEED,
            )
        })
        .await
        .context("computing a cross-task table's figures")?;
        for (key, figure) in [
            (spec.first_given_second.0, figures.first_given_second),
            (spec.second_given_first.0, figures.second_given_first),
        ] {
            if let Some(cell) = published(figure, lb.min_category_items, lb.score_grid_scale) {
                out.insert((key.to_owned(), a.to_owned()), cell);
            }
        }
    }
    Ok(out)
}
