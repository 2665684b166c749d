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
use std::collections::{HashMap, HashSet};

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
///
/// Kept per state of the crowd's data, of the view's items and of the runs' item scores: a
/// request reads the runs' scores (O(items) each) but never the crowd's answers, which only
/// the one computation per state reads (in the background with a crowd refresh interval).
async fn table_cells(
    state: &AppState,
    spec: &TableSpec,
    groups: &[&str],
    scope: &ComputedScope<'_>,
) -> ApiResult<ComputedCells> {
    let Some((_, task_id, board)) = scope.task(spec.task, spec.subset) else {
        return Ok(ComputedCells::new());
    };
    let runs: Vec<&str> = default_runs(board)
        .into_iter()
        .map(|(_, submission)| submission)
        .take(MAX_MODELS)
        .collect();
    if runs.is_empty() || spec.subset != "full" {
        return Ok(ComputedCells::new());
    }
    let storage = &state.storage;
    let on_view = storage.items_on_board(task_id, scope.split).await?;
    let mut run_scores = Vec::with_capacity(runs.len());
    for submission in runs {
        let mut scores: Vec<(String, f64)> = item_scores(storage, submission)
            .await?
            .into_iter()
            .filter(|s| on_view.contains(&s.item_id))
            .map(|s| (s.item_id, s.score))
            .collect();
        scores.sort_by(|a, b| a.0.cmp(&b.0));
        run_scores.push((submission.to_owned(), scores));
    }
    let groups: Vec<String> = groups.iter().map(|g| (*g).to_owned()).collect();
    let key = format!("{task_id}/{}/{}", scope.split.as_str(), groups.join(","));
    // The view's items and the runs' scores join the crowd version, the part that decides
    // whether a stored value may be served while its successor is computed: only new
    // completions are served stale (as for every crowd figure), never other inputs.
    let crowd = storage.crowd_fingerprint(task_id).await?;
    let inputs = inputs_digest(crowd.4, &on_view, &run_scores);
    let fingerprint = (crowd.0, crowd.1, crowd.2, crowd.3, inputs);
    let load = {
        let (state, task_id) = (state.clone(), task_id.to_owned());
        let inputs = FamiliarityInputs {
            on_view,
            run_scores,
            groups,
        };
        move || async move { compute_cells(&state, &task_id, inputs).await }
    };
    let cells = state
        .paper_familiarity
        .get_or_refresh(&key, fingerprint, storage.crowd_figures_may_lag(), load)
        .await?;
    Ok((*cells).clone())
}

/// What a familiarity table's cells are computed from besides the crowd's answers.
struct FamiliarityInputs {
    /// The items of the board view.
    on_view: HashSet<String>,
    /// Each run (submission id) with its item scores on the view, by item id.
    run_scores: Vec<(String, Vec<(String, f64)>)>,
    /// The table's familiarity groups.
    groups: Vec<String>,
}

/// A digest of the crowd `version`, the view's items and the runs' scores, so that the cells
/// stored for one state of them are never served for another (a re-scored run, another view).
fn inputs_digest(
    version: i64,
    on_view: &HashSet<String>,
    run_scores: &[(String, Vec<(String, f64)>)],
) -> i64 {
    let mut items: Vec<&str> = on_view.iter().map(String::as_str).collect();
    items.sort_unstable();
    let mut text = format!("{version}\n{}", items.join("\n"));
    for (run, scores) in run_scores {
        text.push_str(&format!("\n#{run}"));
        for (item, score) in scores {
            text.push_str(&format!("\n{item}={score}"));
        }
    }
    memeboard_core::ids::fnv1a64(text.as_bytes()) as i64
}

/// [`table_cells`] computed: the crowd's answers read and snapshot, and each run's groups
/// with their bootstrap intervals computed off the executor.
async fn compute_cells(
    state: &AppState,
    task_id: &str,
    inputs: FamiliarityInputs,
) -> ApiResult<ComputedCells> {
    let mut out = ComputedCells::new();
    let FamiliarityInputs {
        on_view,
        run_scores,
        groups,
    } = inputs;
    let (storage, settings) = (&state.storage, &*state.settings);
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
    let groups = std::sync::Arc::new(groups);
    let lb = &settings.leaderboard;
    let (min_items, scale) = (lb.min_category_items, lb.score_grid_scale);
    let resamples = settings.quiz.bootstrap_resamples;
    for (submission, scores) in run_scores {
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
            out.insert((key, submission.clone()), cell);
        }
    }
    Ok(out)
}
