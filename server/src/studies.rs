//! Human-evaluation studies: an owner makes one from an explanation board (which submissions,
//! which items, batches, raters per batch, protocol); the study's judging tasks (`rating`,
//! and for CMPM `ranking`) are created in one transaction with the study; the study page shows
//! progress and agreement; every judgement can be exported; and the board gets the
//! human-judged columns and the metric-validity panel, computed off the request path once per
//! state of the judgements (see `crowd_cache`).
//!
//! The planning and the statistics are pure (`memeboard_core::human_eval::{study, board}`);
//! this module reads and writes, and decides who may. Documented in
//! `docs/human-evaluation.md` ("Running a study").

mod create;
mod export;
mod invite;
mod preview;
mod strata;
mod thresholds;
mod training;
mod wording;

pub use create::{create_study, create_study_as};
pub use export::{
    export_judgements, export_raters, export_tables, JUDGEMENT_COLUMNS, RATER_COLUMNS,
    RATER_THRESHOLD_COLUMNS,
};
pub use invite::reissue_invitation;
pub use preview::preview_study;
pub use thresholds::set_thresholds;

use crate::error::{ApiError, ApiResult};
use crate::owners::{self, Actor};
use crate::state::AppState;
use crate::storage::{self, StudyRecord};
use crate::study_tables::{
    apply_thresholds, combined_fingerprint, planted_by_rater, study_data, thresholds_of,
    with_thresholds, TaskJudgements,
};
use anyhow::Context;
use axum::http::HeaderMap;
use memeboard_core::conditions::stored_conditions;
use memeboard_core::human_eval::board::{
    study_summary, study_tables, HumanEvalSummary, HumanTables, Judgement, JudgementValue,
};
use memeboard_core::human_eval::cmpm_tables::{rater_dimension_rows, study_win_matrix, CmpmTables};
use memeboard_core::human_eval::context_ablation::context_ablation;
use memeboard_core::human_eval::error_labels::trimmed_error_labels;
use memeboard_core::human_eval::error_tables::{error_tables, ErrorTables};
use memeboard_core::human_eval::raters::RaterRow;
use memeboard_core::human_eval::study::{
    BatchProgress, CreateStudyRequest, StudyPage, StudyProtocol, StudySubmission, StudyTaskLink,
    StudyTaskProgress,
};
use memeboard_core::human_eval::thresholds::ExcludedRater;
use memeboard_core::human_eval::{HUMAN_EVAL_RESAMPLES, HUMAN_EVAL_SEED};
use memeboard_core::kinds::TaskKind;
use memeboard_core::msg;
use std::collections::{BTreeMap, BTreeSet};

/// Longest study slug (its tasks add `-rate` / `-rank`).
const MAX_SLUG: usize = 50;
/// Longest minimum time per page an owner may set (ms).
const MAX_MIN_ITEM_MS: u64 = 600_000;

/// Prolific's URL parameters, appended to a rater link for a Prolific study.
pub const PROLIFIC_PARAMS: &str =
    "PROLIFIC_PID={{%PROLIFIC_PID%}}&STUDY_ID={{%STUDY_ID%}}&SESSION_ID={{%SESSION_ID%}}";

/// The rater link of a task: the quiz page, with the invitation secret when known.
fn links(task_slug: &str, invite: Option<&str>) -> (String, String) {
    let link = match invite {
        Some(secret) => format!("/quiz/{task_slug}?invite={secret}"),
        None => format!("/quiz/{task_slug}"),
    };
    let sep = if link.contains('?') { '&' } else { '?' };
    let prolific = format!("{link}{sep}{PROLIFIC_PARAMS}");
    (link, prolific)
}

/// JSON text of a study column.
fn encode<T: serde::Serialize>(value: &T) -> ApiResult<String> {
    serde_json::to_string(value)
        .map_err(|e| ApiError::Unexpected(anyhow::anyhow!("encode study column: {e}")))
}

/// A study and its source task, for an owner of the source task's benchmark (401/403/404 as
/// [`owners::authorize`]).
async fn authorized_study(
    state: &AppState,
    headers: &HeaderMap,
    slug: &str,
) -> ApiResult<(StudyRecord, Actor)> {
    let study = state
        .storage
        .find_study(slug)
        .await?
        .ok_or_else(|| ApiError::NotFound(msg!("study.not_found", slug = slug)))?;
    let source = state
        .storage
        .task_slug(&study.source_task_id)
        .await?
        .ok_or_else(|| ApiError::NotFound(msg!("study.not_found", slug = slug)))?;
    let actor = owners::authorize(state, headers, &source).await?;
    Ok((study, actor))
}

/// The `context` condition (CMPM Table 8) of each judged submission of a CMPM study, as
/// submission id → (model name, condition value), the kind's default filled in; empty for
/// other studies and for kinds without the condition. A submission's conditions never change
/// after its upload, so the judgements' fingerprint covers this too.
async fn context_runs(
    storage: &storage::Storage,
    study: &StudyRecord,
) -> ApiResult<BTreeMap<String, (String, String)>> {
    let mut runs = BTreeMap::new();
    if data_protocol(&study.protocol)? != StudyProtocol::Cmpm {
        return Ok(runs);
    }
    let Some(slug) = storage.task_slug(&study.source_task_id).await? else {
        return Ok(runs);
    };
    let Some(kind) = storage
        .find_board_task(&slug)
        .await?
        .and_then(|t| TaskKind::parse(&t.task.kind))
    else {
        return Ok(runs);
    };
    let specs = kind.conditions();
    if !specs.iter().any(|c| c.name == CONTEXT) {
        return Ok(runs);
    }
    let judged: BTreeSet<String> =
        storage::decode_json("studies.submissions_json", &study.submissions_json)?;
    for s in storage
        .task_submission_history(&study.source_task_id)
        .await?
    {
        if !judged.contains(&s.id) {
            continue;
        }
        let mut conditions = stored_conditions(&specs, s.conditions_json.as_deref());
        if let Some(value) = conditions.remove(CONTEXT) {
            runs.insert(s.id, (s.model_name, value));
        }
    }
    Ok(runs)
}

/// The run condition Table 8 compares (`full` vs `image_only`).
const CONTEXT: &str = "context";

/// A study's computed summary, tables, reliability rows, the raters its thresholds leave out,
/// and the CMPM per-annotator table, win matrix and context ablation.
type Computed = (
    HumanEvalSummary,
    HumanTables,
    Vec<RaterRow>,
    Vec<ExcludedRater>,
    CmpmTables,
    Option<ErrorTables>,
);

/// A study's computed tables, once per state of its judgements and thresholds, off the request
/// path (the crowd cache), with its tasks' judgements. The thresholds are applied once, to the
/// reliability of the raters the quality rules keep; the summary carries the counts before and
/// after.
pub(crate) async fn computed_study(
    state: &AppState,
    study: &StudyRecord,
) -> ApiResult<(Computed, Vec<TaskJudgements>)> {
    let storage = &state.storage;
    let (data, tasks) = study_data(storage, study).await?;
    let ids: Vec<String> = tasks.iter().map(|t| t.task.id.clone()).collect();
    let fingerprint = with_thresholds(
        combined_fingerprint(storage, &ids).await?,
        std::slice::from_ref(study),
    );
    let planted = planted_by_rater(study, &tasks);
    let thresholds = thresholds_of(study)?;
    let runs = context_runs(storage, study).await?;
    let request: CreateStudyRequest =
        storage::decode_json("studies.request_json", &study.request_json)?;
    let labels = request.error_labels.as_deref().map(trimmed_error_labels);
    let computed = state
        .study_tables
        .get_or_compute(&format!("study/{}", study.id), fingerprint, move || {
            // Table 7 per annotator lists the raters the thresholds leave out too (marked):
            // their dimension pages are kept aside before the thresholds drop them.
            let ratings: Vec<Judgement> = data
                .judgements
                .iter()
                .filter(|j| matches!(j.value, JudgementValue::Dimensions { .. }))
                .cloned()
                .collect();
            let kept = apply_thresholds(data, &planted, &thresholds, true);
            let mut summary = study_summary(&kept.data).map_err(|e| e.to_string())?;
            summary.reliability = Some(kept.counts);
            let tables = study_tables(&kept.data, HUMAN_EVAL_RESAMPLES, HUMAN_EVAL_SEED)
                .map_err(|e| e.to_string())?;
            let cmpm = CmpmTables {
                per_rater: rater_dimension_rows(&ratings, &kept.excluded)
                    .map_err(|e| e.to_string())?,
                win_matrix: study_win_matrix(&kept.data.judgements).map_err(|e| e.to_string())?,
                context_ablation: context_ablation(
                    &kept.data.judgements,
                    &runs,
                    HUMAN_EVAL_RESAMPLES,
                    HUMAN_EVAL_SEED,
                )
                .map_err(|e| e.to_string())?,
            };
            let errors = labels.map(|l| error_tables(&l, &kept.data.judgements));
            Ok((summary, tables, kept.rows, kept.excluded, cmpm, errors))
        })
        .await
        .context("computing the study's tables")?;
    let computed = computed
        .as_ref()
        .clone()
        .map_err(|e| ApiError::Unexpected(anyhow::anyhow!("study tables: {e}")))?;
    Ok((computed, tasks))
}

/// `GET /api/owner/studies/{slug}`: the study page (progress per batch, raters and
/// exclusions, κ per batch, α per dimension, the computed tables, each rater's reliability,
/// the reliability thresholds and the raters they leave out).
pub async fn study_page(state: &AppState, headers: &HeaderMap, slug: &str) -> ApiResult<StudyPage> {
    let (study, _actor) = authorized_study(state, headers, slug).await?;
    let storage = &state.storage;
    let ((summary, tables, rater_rows, threshold_excluded, cmpm_tables, error_tables), tasks) =
        computed_study(state, &study).await?;
    let thresholds = thresholds_of(&study)?;
    let request: CreateStudyRequest =
        storage::decode_json("studies.request_json", &study.request_json)?;
    let submission_ids: Vec<String> =
        storage::decode_json("studies.submissions_json", &study.submissions_json)?;
    let source_items: Vec<String> =
        storage::decode_json("studies.source_items_json", &study.source_items_json)?;
    let exposed: Vec<String> =
        storage::decode_json("studies.exposed_items_json", &study.exposed_items_json)?;
    let mut submissions = Vec::new();
    for id in submission_ids {
        let label = storage
            .find_submission(&id)
            .await?
            .map_or_else(|| id.clone(), |s| s.model_name);
        submissions.push(StudySubmission {
            submission_id: id,
            label,
        });
    }
    let raters = u32::try_from(request.raters_per_batch).unwrap_or(u32::MAX);
    let mut progress = Vec::new();
    for t in &tasks {
        let sizes = storage.batch_sizes(&t.task.id).await?;
        let mut completed: BTreeMap<i64, BTreeSet<&str>> = BTreeMap::new();
        let mut excluded: BTreeMap<i64, BTreeSet<&str>> = BTreeMap::new();
        for r in &t.rows {
            let (Some(b), Some(_)) = (r.batch, r.completed_at) else {
                continue;
            };
            completed.entry(b).or_default().insert(&r.session_id);
            if t.excluded.contains_key(&r.session_id) {
                excluded.entry(b).or_default().insert(&r.session_id);
            }
        }
        let batches: Vec<BatchProgress> = sizes
            .iter()
            .map(|&(b, n)| BatchProgress {
                batch: u32::try_from(b).unwrap_or(0),
                items: usize::try_from(n).unwrap_or(0),
                completed: completed.get(&b).map_or(0, BTreeSet::len),
                excluded: excluded.get(&b).map_or(0, BTreeSet::len),
            })
            .collect();
        let n = u32::try_from(batches.len()).unwrap_or(u32::MAX);
        let (link, prolific_link) = links(&t.task.slug, None);
        progress.push(StudyTaskProgress {
            task: StudyTaskLink {
                slug: t.task.slug.clone(),
                kind: t.task.kind.clone(),
                items: batches.iter().map(|b| b.items).sum(),
                batches: n,
                raters_target: n.saturating_mul(raters),
                link,
                prolific_link,
            },
            batches,
        });
    }
    let source_task = storage
        .task_slug(&study.source_task_id)
        .await?
        .unwrap_or_default();
    Ok(StudyPage {
        slug: study.slug,
        source_task,
        protocol: data_protocol(&study.protocol)?,
        created_at: study.created_at,
        created_by: study.created_by,
        invitation_only: study.invite_hash.is_some(),
        request,
        submissions,
        tasks: progress,
        source_items: source_items.len(),
        exposed_test_items: exposed,
        summary,
        tables,
        raters: rater_rows,
        thresholds,
        threshold_excluded,
        cmpm_tables,
        error_tables,
    })
}

fn data_protocol(s: &str) -> ApiResult<StudyProtocol> {
    StudyProtocol::parse(s)
        .ok_or_else(|| ApiError::Unexpected(anyhow::anyhow!("unknown stored protocol `{s}`")))
}

/// The study slugs of a board (for the console's list).
pub async fn studies_of_board(
    state: &AppState,
    headers: &HeaderMap,
    source_slug: &str,
) -> ApiResult<Vec<String>> {
    let actor = owners::authorize(state, headers, source_slug).await?;
    Ok(state
        .storage
        .studies_of_task(&actor.task.task.id)
        .await?
        .into_iter()
        .map(|s| s.slug)
        .collect())
}

#[cfg(test)]
mod tests;
