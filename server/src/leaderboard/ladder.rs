//! Public figures of uploads over the hidden board halves: rounded to what the half supports
//! and, on the public half, answered with the Ladder (Blum & Hardt 2015): an author's new
//! upload is shown only when its overall score beats the author's shown best by more than
//! the margin; otherwise the upload response, the board and the model page repeat the
//! previous best. Stored summaries stay exact (owners and exports see them).

use super::*;
use crate::config::LeaderboardSettings;
use crate::error::ApiResult;
use crate::storage::{self, BoardTaskRow, Storage, SubmissionRecord};
use memeboard_core::api::NamedValue;
use memeboard_core::conditions::{non_default, stored_conditions, ConditionSpec};
use memeboard_core::disclosure::{item_grid, ladder, round_named, round_scores};
use memeboard_core::leaderboard::CategoryEstimate;
use std::collections::{BTreeMap, HashMap};

/// For each submission of a task (withdrawn ones too): the submission whose public-half
/// figures are shown for it.
pub(crate) struct Shown {
    by_id: HashMap<String, SubmissionRecord>,
}

impl Shown {
    /// The submission shown for `id` (itself when unknown).
    pub(crate) fn of<'a>(&'a self, s: &'a SubmissionRecord) -> &'a SubmissionRecord {
        self.by_id.get(&s.id).unwrap_or(s)
    }
}

/// Whose ladder an upload climbs: its author's, per model name and run conditions. A board
/// row is a model under one condition, so a row never shows another model's or another
/// condition's figures; an author who names new models (or conditions, a few declared
/// values) to start new ladders still spends the per-author daily quota on each upload, and
/// every first figure is rounded to what the half supports.
fn ladder_key(s: &SubmissionRecord, specs: &[ConditionSpec]) -> String {
    let conditions = non_default(
        specs,
        &stored_conditions(specs, s.conditions_json.as_deref()),
    );
    format!("{}\u{1f}{}\u{1f}{conditions:?}", s.author_id, s.model_name)
}

/// The overall public-half score of a stored submission and the items behind it.
fn overall(s: &SubmissionRecord) -> ApiResult<(Option<f64>, usize)> {
    let summary: Vec<CategoryEstimate> =
        storage::decode_json("submissions.public_summary_json", &s.public_summary_json)?;
    Ok(summary
        .first()
        .map_or((None, 0), |o| (o.estimate.map(|e| e.value), o.items)))
}

/// One upload on an author's ladder: the record, its exact overall score, its items.
type Upload<'a> = (&'a SubmissionRecord, Option<f64>, usize);

/// The Ladder over every upload to `task`, per author, in time order.
pub(crate) async fn shown_submissions(
    storage: &Storage,
    settings: &LeaderboardSettings,
    task: &BoardTaskRow,
) -> ApiResult<Shown> {
    let history = storage.task_submission_history(&task.task.id).await?;
    let specs = task.task.task_kind()?.conditions();
    let mut by_author: BTreeMap<String, Vec<Upload>> = BTreeMap::new();
    for s in &history {
        let (score, items) = overall(s)?;
        by_author
            .entry(ladder_key(s, &specs))
            .or_default()
            .push((s, score, items));
    }
    let mut by_id = HashMap::new();
    for uploads in by_author.values() {
        let items = uploads.iter().map(|u| u.2).max().unwrap_or(0);
        let Some(step) = item_grid(items, settings.score_grid_scale) else {
            continue;
        };
        let margin = settings.ladder_margin.max(step);
        let scores: Vec<Option<f64>> = uploads.iter().map(|u| u.1).collect();
        for (u, shown) in uploads.iter().zip(ladder(&scores, margin, step)) {
            by_id.insert(u.0.id.clone(), uploads[shown].0.clone());
        }
    }
    Ok(Shown { by_id })
}

/// A half's summary as published: small categories left out, the rest rounded to their grids.
pub(crate) fn published_scores(
    scores: Vec<CategoryEstimate>,
    settings: &LeaderboardSettings,
) -> Vec<CategoryEstimate> {
    let mut scores = publishable(scores, settings.min_category_items);
    round_scores(&mut scores, settings.score_grid_scale);
    scores
}

/// Secondary figures of a half as published: rounded to the grid of the items they cover.
pub(crate) fn published_extra(
    mut extra: Vec<NamedValue>,
    half_items: usize,
    settings: &LeaderboardSettings,
) -> Vec<NamedValue> {
    for v in &mut extra {
        round_named(v, half_items, settings.score_grid_scale);
    }
    extra
}

/// The public-half scores published for `s`: those of the submission its Ladder shows.
pub(crate) fn public_scores_of(
    shown: &Shown,
    s: &SubmissionRecord,
    settings: &LeaderboardSettings,
) -> ApiResult<Vec<CategoryEstimate>> {
    let from = shown.of(s);
    Ok(published_scores(
        storage::decode_json("submissions.public_summary_json", &from.public_summary_json)?,
        settings,
    ))
}
