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

/// Whose ladder an upload climbs: its author's, per model name. A board row is a model, so
/// a row never shows another model's figures; an author who names new models to start new
/// ladders still spends the per-author daily quota on each upload, and every first figure is
/// rounded to what the half supports.
fn ladder_key(s: &SubmissionRecord) -> String {
    format!("{}\u{1f}{}", s.author_id, s.model_name)
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
    let mut by_author: BTreeMap<String, Vec<Upload>> = BTreeMap::new();
    for s in &history {
        let (score, items) = overall(s)?;
        by_author
            .entry(ladder_key(s))
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

/// The scale a task's figures are read on (explanations: rescaled so that 0 is a random pair
/// of reference meanings and 1 the reference; others as scored), so that an upload response,
/// a model page and the board show one number for one submission.
#[derive(Debug, Clone, Copy)]
pub(crate) struct ReaderScale {
    board_value: fn(f64, Option<f64>) -> f64,
    baseline: Option<f64>,
}

impl ReaderScale {
    /// Task `task`'s scale (its kind's `board_value` and its stored baseline).
    pub(crate) async fn of(
        storage: &crate::storage::Storage,
        task: &BoardTaskRow,
    ) -> ApiResult<Self> {
        let board_value = memeboard_core::with_kind!(super::kind(task)?, K => K::board_value as fn(f64, Option<f64>) -> f64);
        let baseline = storage.task_baseline(&task.task.id).await?.map(|(b, _)| b);
        Ok(Self {
            board_value,
            baseline,
        })
    }

    fn apply(&self, scores: &mut [CategoryEstimate]) {
        for s in scores {
            if let Some(e) = &mut s.estimate {
                e.value = (self.board_value)(e.value, self.baseline);
                e.ci_low = (self.board_value)(e.ci_low, self.baseline);
                e.ci_high = (self.board_value)(e.ci_high, self.baseline);
            }
        }
    }
}

/// A half's summary as published: small categories left out, the rest on the reader's scale
/// and rounded there to their grids (as the board does).
pub(crate) fn published_scores(
    scores: Vec<CategoryEstimate>,
    settings: &LeaderboardSettings,
    scale: &ReaderScale,
) -> Vec<CategoryEstimate> {
    let mut scores = publishable(scores, settings.min_category_items);
    scale.apply(&mut scores);
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
    scale: &ReaderScale,
) -> ApiResult<Vec<CategoryEstimate>> {
    let from = shown.of(s);
    Ok(published_scores(
        storage::decode_json("submissions.public_summary_json", &from.public_summary_json)?,
        settings,
        scale,
    ))
}
