//! Crowd statistics of a quiz: item facts (choices, baseline), observations, and the cached
//! category table.

use super::{categories_of, find_quiz, BOOTSTRAP_SEED};
use crate::config::QuizSettings;
use crate::crowd::quality;
use crate::crowd_cache::CrowdCache;
use crate::error::ApiResult;
use crate::kinds::{typed_item, ServerKind};
use crate::storage::{self, QuizRow, Storage};
use anyhow::Context;
use memeboard_core::api::{BaselineLevel, CrowdStatsResponse};
use memeboard_core::crowd::{agreement_by_dimension, category_rows, CrowdObservation};
use memeboard_core::kinds::{Kind, TaskKind};
use memeboard_core::with_kind;
use std::collections::BTreeMap;

/// What the crowd statistics need to know about each item of a quiz: its number of choices
/// (agreement categories) and its baseline level (chance).
#[derive(Clone)]
pub(super) struct ItemFacts {
    choices: BTreeMap<String, Option<usize>>,
    baseline: Option<BaselineLevel>,
}

/// The mean of per-item baseline levels; exactly the level when all items share it (1/5 stays
/// 0.2, not a sum's rounding of it).
fn mean_level(levels: &[f64]) -> Option<f64> {
    let first = *levels.first()?;
    if levels.iter().all(|&l| l == first) {
        Some(first)
    } else {
        Some(levels.iter().sum::<f64>() / levels.len() as f64)
    }
}

/// Each item's number of choices (agreement categories), for the owner's progress view.
pub(crate) async fn item_choices(
    storage: &Storage,
    task_id: &str,
    kind: TaskKind,
) -> ApiResult<BTreeMap<String, Option<usize>>> {
    let rows = storage.task_items(task_id).await?;
    with_kind!(kind, K => {
        let mut choices = BTreeMap::new();
        for row in rows {
            let item = typed_item::<K>(row)?;
            choices.insert(item.row.id.clone(), K::num_choices(&item.prompt));
        }
        Ok(choices)
    })
}

pub(super) async fn item_facts(
    storage: &Storage,
    quiz: &QuizRow,
    kind: TaskKind,
) -> ApiResult<ItemFacts> {
    let rows = storage.task_items(&quiz.task.id).await?;
    with_kind!(kind, K => {
        let mut choices = BTreeMap::new();
        let mut levels = Vec::new();
        for row in rows {
            let item = typed_item::<K>(row)?;
            levels.extend(crate::kinds::capabilities::baseline_of(&item));
            choices.insert(item.row.id.clone(), K::num_choices(&item.prompt));
        }
        let baseline = K::AUTO_SCORING.and_then(|a| {
            mean_level(&levels).map(|value| BaselineLevel {
                kind: a.baseline_row,
                value,
            })
        });
        Ok(ItemFacts { choices, baseline })
    })
}

/// Crowd answers as observations: every answer of a completed batch counts (unscored ones
/// too), and choices feed nominal agreement over the item's real number of options.
fn observations(rows: Vec<storage::CrowdResponseRow>, facts: &ItemFacts) -> Vec<CrowdObservation> {
    rows.into_iter()
        .map(|r| {
            let options = facts.choices.get(&*r.item_id).copied().flatten();
            CrowdObservation::answer(r.participant_id, r.item_id, r.category, r.score)
                .with_choice(r.choice, options)
        })
        .collect()
}

/// The crowd table of a quiz: category rows with bootstrap intervals and agreement, bounded
/// as published (see `crate::crowd::published`). Pure CPU work (run on the blocking pool); the
/// baseline level and the count of completed participants are set by the caller.
fn crowd_tables(
    slug: String,
    categories: &[String],
    observations: &[CrowdObservation],
    bounds: Option<&crate::crowd::published::CrowdBounds>,
    resamples: usize,
) -> CrowdStatsResponse {
    let mut rows = category_rows(observations, categories, None, resamples, BOOTSTRAP_SEED);
    let mut agreement = agreement_by_dimension(observations);
    if let Some(b) = bounds {
        b.apply_rows(&mut rows);
        b.apply_agreement(&mut agreement);
    }
    CrowdStatsResponse {
        quiz_slug: slug,
        completed_participants: 0,
        rows,
        baseline: None,
        agreement,
    }
}

/// The crowd statistics of a quiz, reused while its crowd data is unchanged and otherwise
/// computed once (see `crowd_cache`: with a refresh interval, new completions are computed in
/// the background while requests get the stored figures). Over hidden test items the figures
/// are a bounded snapshot (see `crate::crowd::published`): they move only when the participant count
/// crosses the next step.
pub(super) async fn cached_crowd_stats(
    storage: &Storage,
    cache: &CrowdCache<CrowdStatsResponse>,
    quiz: &QuizRow,
    facts: &ItemFacts,
    settings: &QuizSettings,
) -> ApiResult<CrowdStatsResponse> {
    let fingerprint = storage.crowd_fingerprint(&quiz.task.id).await?;
    let load = {
        let (storage, quiz) = (storage.clone(), quiz.clone());
        let (facts, settings) = (facts.clone(), settings.clone());
        move || async move { compute_crowd_stats(&storage, &quiz, &facts, &settings).await }
    };
    let lag = storage.crowd_figures_may_lag();
    let stats = cache
        .get_or_refresh(&quiz.task.id, fingerprint, lag, load)
        .await?;
    let mut response = (*stats).clone();
    response.baseline = facts.baseline;
    Ok(response)
}

/// [`cached_crowd_stats`] computed: the crowd's answers read, snapshot, and tabled on the
/// blocking pool.
async fn compute_crowd_stats(
    storage: &Storage,
    quiz: &QuizRow,
    facts: &ItemFacts,
    settings: &QuizSettings,
) -> ApiResult<CrowdStatsResponse> {
    let rows = quality::crowd_responses(storage, &quiz.task.id).await?;
    let completed = quality::participants(&rows);
    let surface = format!("stats:{}", quiz.task.id);
    let noise = crate::crowd::published::surface_noise(storage, surface, settings).await?;
    let snap = crate::crowd::published::crowd_snapshot(rows, settings, noise);
    let observations = observations(snap.rows, facts);
    let categories: Vec<String> = categories_of(quiz)?.into_iter().map(|c| c.key).collect();
    let slug = quiz.task.slug.clone();
    let (bounds, resamples) = (snap.bounds, settings.bootstrap_resamples);
    let table = tokio::task::spawn_blocking(move || {
        let mut t = crowd_tables(slug, &categories, &observations, bounds.as_ref(), resamples);
        t.completed_participants = completed;
        t
    })
    .await
    .context("computing crowd statistics")?;
    Ok(table)
}

/// The crowd baseline of a quiz (completed batches only; no gold).
pub async fn crowd_stats(
    storage: &Storage,
    cache: &CrowdCache<CrowdStatsResponse>,
    slug: &str,
    settings: &QuizSettings,
) -> ApiResult<CrowdStatsResponse> {
    let quiz = find_quiz(storage, slug).await?;
    let facts = item_facts(storage, &quiz, quiz.task.task_kind()?).await?;
    cached_crowd_stats(storage, cache, &quiz, &facts, settings).await
}

/// Computes every open quiz's crowd statistics into `cache`, one quiz at a time (at start-up,
/// so that the first `/stats` after a restart does not wait for them).
pub async fn warm_crowd_stats(
    storage: Storage,
    cache: std::sync::Arc<CrowdCache<CrowdStatsResponse>>,
    settings: QuizSettings,
) {
    let quizzes = match storage.list_open_quizzes().await {
        Ok(quizzes) => quizzes,
        Err(e) => return tracing::warn!(error = %e, "warming crowd figures: cannot list quizzes"),
    };
    let started = std::time::Instant::now();
    for quiz in &quizzes {
        let stats = crowd_stats(&storage, &cache, &quiz.task.slug, &settings);
        if let Err(e) = stats.await {
            tracing::warn!(quiz = %quiz.task.slug, error = %e, "warming crowd figures");
        }
    }
    let ms = started.elapsed().as_millis() as u64;
    tracing::info!(quizzes = quizzes.len(), ms, "crowd figures computed");
}
