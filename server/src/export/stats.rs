//! `memeboard stats --export FILE`: the site's human rows recomputed from an answer-level
//! export alone (CSV or JSON Lines), so a paper's table can be reproduced from released data.
//!
//! The rows come from the same core functions as the site's (`crowd::category_rows`,
//! `crowd::crowd_rows`, `crowd::facet_rows`, `crowd::agreement_by_dimension`), with the same
//! bootstrap seeds and resample count, over the same answers (completed sessions, not
//! excluded) in the same order ([`super::crowd_order`]): the numbers are identical, intervals
//! included (tested against the API).

mod read;
mod render;

pub use read::{read_export, ExportReadError, StatsRecord, STATS_COLUMNS};
pub use render::render;

use crate::kinds::ServerKind;
use memeboard_core::api::{CrowdRow, FamiliarityRow};
use memeboard_core::crowd::{
    agreement_by_dimension, category_rows, crowd_rows, AgreementRow, CrowdAnswer, CrowdObservation,
};
use memeboard_core::kinds::{Kind, TaskKind};
use memeboard_core::leaderboard::CategoryEstimate;
use memeboard_core::stats::Estimate;
use memeboard_core::with_kind;
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;

/// The subsets of a kind without any: the full item set.
const FULL_ONLY: &[&str] = &["full"];

/// Settings the site computes with (both from the configuration: `[quiz]
/// bootstrap_resamples`, `[leaderboard] min_category_items`).
#[derive(Debug, Clone, Copy)]
pub struct StatsOptions {
    /// Bootstrap resamples.
    pub resamples: usize,
    /// Categories with fewer items on a board half show no figure there.
    pub min_category_items: usize,
}

/// The quiz's crowd table (`GET /api/quizzes/{slug}/stats`: every item, dev and test).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct QuizTable {
    /// Participants with a counted answer.
    pub completed_participants: usize,
    /// Overall, then one row per category present in the file (sorted by key).
    pub rows: Vec<CrowdRow>,
    /// Agreement per rated dimension (choices: Fleiss' κ, Krippendorff's α).
    pub agreement: Vec<AgreementRow>,
}

/// The human rows of one board (`GET /api/boards/{slug}?split=…&subset=…`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BoardTable {
    /// `public` or `private`.
    pub split: String,
    /// Item subset (`full`, `main`…).
    pub subset: String,
    /// Participants in the rows (the site shows the rows only when there are any).
    pub participants: usize,
    /// The "Human average" row's scores, as the board's `scores`.
    pub human_average: Vec<CategoryEstimate>,
    /// The "Human best" row's scores.
    pub human_best: Vec<CategoryEstimate>,
    /// Accuracy by familiarity (kinds that ask it), as the board's `familiarity`.
    pub familiarity: Vec<FamiliarityRow>,
}

/// Everything `memeboard stats --export` prints.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StatsReport {
    /// Task slug.
    pub task: String,
    /// Task kind.
    pub task_kind: String,
    /// Rows in the file.
    pub answers_in_file: usize,
    /// Rows counted (completed sessions, not excluded).
    pub answers_counted: usize,
    /// The quiz statistics.
    pub quiz: QuizTable,
    /// The human rows of every board half and subset.
    pub boards: Vec<BoardTable>,
}

/// The site's human rows from an export's records.
pub fn human_rows(
    records: &[StatsRecord],
    options: StatsOptions,
) -> Result<StatsReport, ExportReadError> {
    let first = records
        .first()
        .ok_or_else(|| ExportReadError::File("the export has no answers".into()))?;
    if let Some(other) = records.iter().find(|r| r.task != first.task) {
        return Err(ExportReadError::File(format!(
            "the file mixes tasks `{}` and `{}` (expected one task's export)",
            first.task, other.task
        )));
    }
    let kind = TaskKind::parse(&first.task_kind).ok_or_else(|| {
        ExportReadError::File(format!(
            "unknown task kind `{}` (expected one of {})",
            first.task_kind,
            TaskKind::ALL.map(TaskKind::as_str).join(", ")
        ))
    })?;
    // The site's crowd: completed sessions, not excluded, in its order.
    let mut counted: Vec<&StatsRecord> = records
        .iter()
        .filter(|r| r.session_completed_at.is_some() && r.excluded == 0)
        .collect();
    counted.sort_by(|a, b| {
        (&a.participant, &a.item_id, a.answered_at, &a.session).cmp(&(
            &b.participant,
            &b.item_id,
            b.answered_at,
            &b.session,
        ))
    });
    let categories: Vec<String> = records
        .iter()
        .map(|r| r.category.clone())
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    let observations: Vec<CrowdObservation> = counted
        .iter()
        .map(|r| {
            let options = r.num_options.and_then(|n| usize::try_from(n).ok());
            CrowdObservation::answer(&*r.participant, &*r.item_id, &*r.category, r.score)
                .with_choice(r.choice, options)
        })
        .collect();
    let rows = category_rows(
        &observations,
        &categories,
        None,
        options.resamples,
        crate::quiz::BOOTSTRAP_SEED,
    );
    let quiz = QuizTable {
        completed_participants: rows.first().map_or(0, |r| r.participants),
        rows,
        agreement: agreement_by_dimension(&observations),
    };
    let (subsets, preface) = with_kind!(kind, K => (
        K::SUBSETS.map_or(FULL_ONLY, |s| s.names()),
        K::PREFACE.is_some(),
    ));
    let mut boards = Vec::new();
    for half in ["public", "private"] {
        for subset in subsets {
            let in_half: Vec<&StatsRecord> = counted
                .iter()
                .copied()
                .filter(|r| {
                    r.split == "test"
                        && r.board_half.as_deref() == Some(half)
                        && r.subsets.iter().any(|s| s == subset)
                })
                .collect();
            boards.push(board_table(
                half,
                subset,
                &in_half,
                &categories,
                options,
                preface,
            ));
        }
    }
    Ok(StatsReport {
        task: first.task.clone(),
        task_kind: first.task_kind.clone(),
        answers_in_file: records.len(),
        answers_counted: counted.len(),
        quiz,
        boards,
    })
}

fn board_table(
    half: &str,
    subset: &str,
    in_half: &[&StatsRecord],
    categories: &[String],
    options: StatsOptions,
    preface: bool,
) -> BoardTable {
    let seed = memeboard_core::leaderboard::BOOTSTRAP_SEED;
    let answers: Vec<CrowdAnswer> = in_half
        .iter()
        .filter_map(|r| {
            Some(CrowdAnswer {
                participant: r.participant.as_str().into(),
                item: r.item_id.as_str().into(),
                category: r.category.as_str().into(),
                choice: r.choice.and_then(|c| usize::try_from(c).ok()),
                score: r.score?,
            })
        })
        .collect();
    let crowd = crowd_rows(&answers, categories, options.resamples, seed);
    let items_answered = |cat: Option<&String>| {
        answers
            .iter()
            .filter(|a| cat.is_none_or(|c| *a.category == **c))
            .map(|a| &*a.item)
            .collect::<BTreeSet<_>>()
            .len()
    };
    let row = |pick: fn(&CrowdRow) -> Option<Estimate>| -> Vec<CategoryEstimate> {
        crowd
            .iter()
            .map(|r| {
                let mut e = CategoryEstimate {
                    category: r.category.clone(),
                    items: items_answered(r.category.as_ref()),
                    estimate: pick(r),
                    suppressed: false,
                };
                e.suppress_below(options.min_category_items);
                e
            })
            .collect()
    };
    let familiarity = if preface {
        familiarity_rows(in_half, options, seed)
    } else {
        Vec::new()
    };
    BoardTable {
        split: half.to_owned(),
        subset: subset.to_owned(),
        participants: crowd.first().map_or(0, |r| r.participants),
        human_average: row(|r| r.human_average),
        human_best: row(|r| r.human_best),
        familiarity,
    }
}

/// As the board's familiarity rows: pooled accuracy per familiarity answer, shown from the
/// category minimum of answers.
fn familiarity_rows(
    in_half: &[&StatsRecord],
    options: StatsOptions,
    seed: u64,
) -> Vec<FamiliarityRow> {
    let observations: Vec<CrowdObservation> = in_half
        .iter()
        .filter_map(|r| {
            let familiarity = r.familiarity.clone()?;
            Some(
                CrowdObservation::answer(&*r.participant, &*r.item_id, &*r.category, r.score)
                    .with_facet("familiarity", familiarity),
            )
        })
        .collect();
    memeboard_core::crowd::familiarity_rows(
        &observations,
        options.resamples,
        seed,
        options.min_category_items,
    )
}

/// Reads an export and recomputes its human rows.
pub fn stats_from_export(
    text: &str,
    options: StatsOptions,
) -> Result<StatsReport, ExportReadError> {
    human_rows(&read_export(text)?, options)
}
