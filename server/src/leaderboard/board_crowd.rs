//! A board's crowd rows (human average, human best) and familiarity rows over the items of
//! one board half. All of a board's items are hidden test items, so the figures are published
//! bounded (see `crate::crowd::published`): from a snapshot of the crowd that moves only every
//! `crowd_snapshot_step` participants, above the minimums, with keyed noise of `crowd_noise`
//! answers' worth, rounded to `crowd_grid`.

use super::*;
use crate::crowd::published::{crowd_snapshot, surface_noise, CrowdBounds, Figure};
use crate::error::ApiResult;
use crate::state::AppState;
use crate::storage::{BoardTaskRow, CrowdResponseRow, TaskItemRow};
use memeboard_core::api::{BoardRow, CrowdRow, FamiliarityRow, RowKind, SubmissionStatus};
use memeboard_core::crowd::{crowd_rows, CrowdAnswer, CrowdObservation};
use memeboard_core::leaderboard::CategoryEstimate;
use memeboard_core::stats::Estimate;
use std::collections::{HashMap, HashSet};

/// Items of a board half with their baseline levels, by id.
pub(super) type HalfItems<'a> = HashMap<&'a str, &'a (TaskItemRow, Option<f64>)>;

/// The board's human rows (empty for kinds without an automatic metric, or with nobody yet)
/// and, for kinds with a preface, the familiarity rows: reused while the crowd's data is
/// unchanged, so that a board request reads no crowd answer unless a completion (or an
/// owner's rule) changed them (see `crowd_cache`).
pub(super) async fn human_rows(
    state: &AppState,
    task: &BoardTaskRow,
    in_half: &HalfItems<'_>,
    key: &str,
    preface: bool,
    auto_scored: bool,
) -> ApiResult<(Vec<BoardRow>, Vec<FamiliarityRow>)> {
    let fingerprint = state.storage.crowd_fingerprint(&task.task.id).await?;
    let load = {
        let (state, task, key) = (state.clone(), task.clone(), key.to_owned());
        let in_half: HashSet<String> = in_half.keys().map(|&id| id.to_owned()).collect();
        let board = HumanRowsOf {
            preface,
            auto_scored,
            fingerprint,
        };
        move || async move { read_human_rows(&state, &task, &in_half, &key, board).await }
    };
    let lag = state.storage.crowd_figures_may_lag();
    let rows = state
        .board_human_rows
        .get_or_refresh(key, fingerprint, lag, load)
        .await?;
    Ok((*rows).clone())
}

/// What a board's human rows are computed for, besides the task, its half and its key.
#[derive(Clone, Copy)]
struct HumanRowsOf {
    /// The kind asks a familiarity preface (familiarity rows).
    preface: bool,
    /// The kind has an automatic metric (crowd score rows).
    auto_scored: bool,
    /// The crowd's data the rows are computed at.
    fingerprint: crate::crowd_cache::Fingerprint,
}

/// [`human_rows`] read and computed from the crowd's answers.
async fn read_human_rows(
    state: &AppState,
    task: &BoardTaskRow,
    in_half: &HashSet<String>,
    key: &str,
    board: HumanRowsOf,
) -> ApiResult<(Vec<BoardRow>, Vec<FamiliarityRow>)> {
    let HumanRowsOf {
        preface,
        auto_scored,
        fingerprint,
    } = board;
    let (storage, settings) = (&state.storage, &*state.settings);
    let participants_in_half = |all: &[CrowdResponseRow]| {
        let mut who: Vec<&str> = all
            .iter()
            .filter(|r| r.score.is_some() && in_half.contains(&*r.item_id))
            .map(|r| &*r.participant_id)
            .collect();
        who.sort_unstable();
        who.dedup();
        who.len()
    };
    let (kept, before_exclusions) = crate::crowd::quality::crowd_responses_counting(
        storage,
        &task.task.id,
        participants_in_half,
    )
    .await?;
    let noise = surface_noise(storage, format!("board:{key}"), &settings.quiz).await?;
    let snap = crowd_snapshot(kept, &settings.quiz, noise);
    let in_half_rows: Vec<CrowdResponseRow> = snap
        .rows
        .into_iter()
        .filter(|r| in_half.contains(&*r.item_id))
        .collect();
    // The half's figures: noise scaled to the half's own answers.
    let bounds = snap
        .bounds
        .as_ref()
        .map(|b| b.over(&in_half_rows, &format!("board:{key}")));
    // The bootstrap intervals are computed off the executor.
    let familiarity = if preface {
        familiarity_rows(state, &in_half_rows, bounds.as_ref(), key, fingerprint).await?
    } else {
        Vec::new()
    };
    let answers: Vec<CrowdAnswer> = scored_answers(in_half_rows);
    let crowd = match state.board_crowd.stored(key, fingerprint) {
        Some(rows) => rows,
        None => {
            let answers = answers.clone();
            let keys = category_keys(task)?;
            let resamples = settings.quiz.bootstrap_resamples;
            state
                .board_crowd
                .get_or_compute(key, fingerprint, move || {
                    crowd_rows(&answers, &keys, resamples, BOOTSTRAP_SEED)
                })
                .await
                .context("computing the board's crowd rows")?
        }
    };
    // Participants of the snapshot with answers on this half's items.
    let participants = crowd.first().map_or(0, |r| r.participants);
    let mut rows = Vec::new();
    // Kinds without an automatic metric have no crowd score rows (people's answers are
    // free text, judged in studies like the models' outputs).
    if !auto_scored || (participants == 0 && before_exclusions == 0) {
        return Ok((rows, familiarity));
    }
    let items_answered = |cat: Option<&String>| -> usize {
        let mut ids: Vec<&str> = answers
            .iter()
            .filter(|a| cat.is_none_or(|c| *a.category == **c))
            .map(|a| &*a.item)
            .collect();
        ids.sort_unstable();
        ids.dedup();
        ids.len()
    };
    type Pick = fn(&CrowdRow) -> Option<Estimate>;
    for (row_kind, label, pick, figure) in [
        (
            RowKind::HumanAverage,
            "Human average (crowd)",
            (|r: &CrowdRow| r.human_average) as Pick,
            Figure::Average,
        ),
        (
            RowKind::HumanBest,
            "Human best (crowd)",
            |r: &CrowdRow| r.human_best,
            Figure::Best,
        ),
    ] {
        let scores = crowd
            .iter()
            .map(|r| {
                let mut s = CategoryEstimate {
                    category: r.category.clone(),
                    items: items_answered(r.category.as_ref()),
                    estimate: pick(r),
                    suppressed: false,
                };
                if let Some(b) = &bounds {
                    b.apply_board(&mut s, figure, participants);
                }
                s
            })
            .collect();
        rows.push(BoardRow {
            flags: Vec::new(),
            confusion: None,
            extra: Vec::new(),
            kind: row_kind,
            label: label.into(),
            submission_id: None,
            model: None,
            submitted_at: None,
            status: SubmissionStatus::Scored,
            scores,
            participants: Some(participants),
            participants_before_exclusions: Some(before_exclusions),
            source: None,
        });
    }
    Ok((rows, familiarity))
}

/// Human accuracy by the familiarity given before each question (kinds with a preface), on
/// the items of the board half: the benchmark's figure. Pooled over answers, with a bootstrap
/// interval over participants and items; groups with fewer answers than the category minimum
/// show no estimate, and the others are bounded like every crowd figure over hidden items.
async fn familiarity_rows(
    state: &AppState,
    rows: &[CrowdResponseRow],
    bounds: Option<&CrowdBounds>,
    key: &str,
    fingerprint: crate::crowd_cache::Fingerprint,
) -> ApiResult<Vec<FamiliarityRow>> {
    if let Some(rows) = state.board_familiarity.stored(key, fingerprint) {
        return Ok((*rows).clone());
    }
    let observations: Vec<CrowdObservation> = rows
        .iter()
        .filter_map(|r| {
            let familiarity = r.familiarity.clone()?;
            Some(
                CrowdObservation::answer(
                    r.participant_id.clone(),
                    r.item_id.clone(),
                    r.category.clone(),
                    r.score,
                )
                .with_facet("familiarity", familiarity),
            )
        })
        .collect();
    let resamples = state.settings.quiz.bootstrap_resamples;
    let min_answers = state.settings.leaderboard.min_category_items;
    let bounds = bounds.cloned();
    let rows = state
        .board_familiarity
        .get_or_compute(key, fingerprint, move || {
            let mut rows = memeboard_core::crowd::familiarity_rows(
                &observations,
                resamples,
                BOOTSTRAP_SEED,
                min_answers,
            );
            if let Some(b) = &bounds {
                for r in &mut rows {
                    let group = Figure::Group(r.answers);
                    let tag = format!("{:?}", r.familiarity);
                    r.estimate = b.estimate_tagged(None, group, &tag, r.estimate);
                }
            }
            rows
        })
        .await
        .context("computing the board's familiarity rows")?;
    Ok((*rows).clone())
}

/// The scored ones of crowd rows, as the human rows' statistics take them.
fn scored_answers(rows: Vec<crate::storage::CrowdResponseRow>) -> Vec<CrowdAnswer> {
    rows.into_iter()
        .filter_map(|r| {
            // Human rows average scored answers; unscored ones carry no score to average.
            let score = r.score?;
            Some(CrowdAnswer {
                participant: r.participant_id,
                item: r.item_id,
                category: r.category,
                choice: r.choice.and_then(|c| usize::try_from(c).ok()),
                score,
            })
        })
        .collect()
}
