//! The model rows of a familiarity-groups table (AVMeme Exam Figure 4): for each model with a
//! scored run under the default conditions on the board, its accuracy over the crowd's
//! answers given with each familiarity answer, reduced by `paper_tables::familiarity`. The
//! answers are those the board's familiarity figure counts (completed sessions after the
//! owner's exclusions, in the published crowd snapshot) on the items of the board view.
//!
//! Such a figure puts hidden item scores together with people's familiarity answers, so that
//! one participant's answers can move it: it is computed on revealed views only (the private
//! half and the whole split, once revealed), not below `min_crowd_participants` people in the
//! snapshot, and each group is withheld under `min_category_items` items.

use super::cross_task::{default_runs, item_scores, MAX_MODELS};
use super::ComputedScope;
use crate::crowd::published::crowd_snapshot;
use crate::error::ApiResult;
use crate::state::AppState;
use anyhow::Context;
use memeboard_core::leaderboard::BOOTSTRAP_SEED;
use memeboard_core::paper_tables::familiarity::{computed_key, group_figure, published};
use memeboard_core::paper_tables::{ColumnSpec, ComputedCells, TableSpec};
use std::collections::HashMap;

/// The computed cells of the page's familiarity-groups tables (`specs` with
/// [`ColumnSpec::FamiliarityGroups`] columns), by `familiarity:<group>` and submission.
pub(super) async fn computed_cells(
    state: &AppState,
    specs: &[TableSpec],
    scope: &ComputedScope<'_>,
) -> ApiResult<ComputedCells> {
    let mut out = ComputedCells::new();
    if !scope.split.needs_reveal() {
        return Ok(out);
    }
    for spec in specs {
        if let ColumnSpec::FamiliarityGroups { groups, .. } = spec.columns {
            let groups: Vec<&str> = groups.iter().map(|g| g.value).collect();
            out.extend(table_cells(state, spec, &groups, scope).await?);
        }
    }
    Ok(out)
}

/// The published cells of one familiarity-groups table; empty when its task or board is
/// missing, the table is over a subset (the crowd's answers are read over every item of the
/// view), the board has no default run, or the snapshot has too few people.
async fn table_cells(
    state: &AppState,
    spec: &TableSpec,
    groups: &[&str],
    scope: &ComputedScope<'_>,
) -> ApiResult<ComputedCells> {
    let mut out = ComputedCells::new();
    let Some((_, task_id, board)) = scope.task(spec.task, spec.subset) else {
        return Ok(out);
    };
    let runs: Vec<&str> = default_runs(board)
        .into_iter()
        .map(|(_, submission)| submission)
        .take(MAX_MODELS)
        .collect();
    if runs.is_empty() || spec.subset != "full" {
        return Ok(out);
    }
    let (storage, settings) = (&state.storage, &*state.settings);
    let on_view = storage.items_on_board(task_id, scope.split).await?;
    let kept = crate::crowd::quality::crowd_responses(storage, task_id).await?;
    let snapshot = crowd_snapshot(kept, &settings.quiz, None);
    let people = settings.quiz.min_crowd_participants.max(1);
    if snapshot
        .bounds
        .as_ref()
        .is_some_and(|b| b.participants < people)
    {
        return Ok(out);
    }
    // One `(item, familiarity)` per scored answer on the view given with a familiarity.
    let answers: Vec<(std::sync::Arc<str>, std::sync::Arc<str>)> = snapshot
        .rows
        .into_iter()
        .filter(|r| r.score.is_some() && on_view.contains(&*r.item_id))
        .filter_map(|r| Some((r.item_id, r.familiarity?)))
        .collect();
    if answers.is_empty() {
        return Ok(out);
    }
    let answers = std::sync::Arc::new(answers);
    let groups: Vec<String> = groups.iter().map(|g| (*g).to_owned()).collect();
    let lb = &settings.leaderboard;
    let (min_items, scale) = (lb.min_category_items, lb.score_grid_scale);
    let resamples = settings.quiz.bootstrap_resamples;
    for submission in runs {
        let scores: HashMap<String, f64> = item_scores(storage, submission)
            .await?
            .into_iter()
            .filter(|s| on_view.contains(&s.item_id))
            .map(|s| (s.item_id, s.score))
            .collect();
        let (answers, groups) = (answers.clone(), groups.clone());
        // The bootstrap intervals are computed off the executor.
        let cells = tokio::task::spawn_blocking(move || {
            let pairs: Vec<(&str, &str)> = answers.iter().map(|(i, g)| (&**i, &**g)).collect();
            let scores: HashMap<&str, f64> = scores.iter().map(|(i, s)| (i.as_str(), *s)).collect();
            groups
                .iter()
                .filter_map(|g| {
                    let f = group_figure(&pairs, &scores, g, resamples, BOOTSTRAP_SEED);
                    Some((computed_key(g), published(f, min_items, scale)?))
                })
                .collect::<Vec<_>>()
        })
        .await
        .context("computing a familiarity table's figures")?;
        for (key, cell) in cells {
            out.insert((key, submission.to_owned()), cell);
        }
    }
    Ok(out)
}
