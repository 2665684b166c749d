//! From a study's stored judgements to the statistics' input, and the board's human side:
//! which judgements count (finished batches of raters not excluded by `quality::exclusion`),
//! each judgement in `human_eval::board` terms with the rater's pseudonym, the automatic
//! scores of the judged outputs, one fingerprint over a study's judging tasks, and the board's
//! human columns and validity panel computed once per state of the judgements, off the
//! request path (`crowd_cache`). The owner's reliability thresholds are applied here too, once,
//! to the reliability of the raters the quality rules keep ([`apply_thresholds`]). The owner API
//! of studies is in the `studies` module.

use crate::crowd_cache::Fingerprint;
use crate::error::{ApiError, ApiResult};
use crate::kinds::capabilities::judgement_of;
use crate::pseudonym::pseudonym;
use crate::state::AppState;
use crate::storage::{self, BoardTaskRow, JudgementRow, JudgingTaskRow, Storage, StudyRecord};
use anyhow::Context;
use memeboard_core::fieldwork::ExclusionReason;
use memeboard_core::human_eval::board::{board_human, BoardHumanEval, StudyData};
use memeboard_core::human_eval::outputs::OutputScores;
use memeboard_core::human_eval::raters::{rater_reliability, PlantedTally, RaterRow};
use memeboard_core::human_eval::study::StudyProtocol;
use memeboard_core::human_eval::thresholds::{
    threshold_exclusions, without_excluded, ExcludedRater, ReliabilityThresholds, ThresholdCounts,
};
use memeboard_core::human_eval::{HUMAN_EVAL_RESAMPLES, HUMAN_EVAL_SEED};
use std::collections::{BTreeMap, BTreeSet};

pub use crate::state::StudyTables;
/// A board's computed human columns (or why they could not be computed).
pub type BoardHumanValue = Result<Option<BoardHumanEval>, String>;

/// One judging task's judgements with each session's exclusion.
pub struct TaskJudgements {
    /// The task.
    pub task: JudgingTaskRow,
    /// Its judgements.
    pub rows: Vec<JudgementRow>,
    /// Excluded sessions with their reasons.
    pub excluded: BTreeMap<String, ExclusionReason>,
    /// Planted quality checks judged and failed, by session (sessions with some only).
    pub planted: BTreeMap<String, PlantedTally>,
}

pub async fn task_judgements(storage: &Storage, task: JudgingTaskRow) -> ApiResult<TaskJudgements> {
    let settings = crate::crowd::quality::fieldwork_settings(task.study_json.as_deref())?;
    let data = storage.fieldwork_data(&task.id).await?;
    let facts = crate::crowd::quality::session_facts(&data);
    let excluded = facts
        .iter()
        .filter_map(|(id, f)| {
            crate::crowd::quality::exclusion(&settings, task.exclude_failed_checks, f)
                .map(|r| (id.clone(), r))
        })
        .collect();
    let planted = facts
        .into_iter()
        .filter(|(_, f)| f.planted_judged > 0)
        .map(|(id, f)| {
            let tally = PlantedTally {
                judged: f.planted_judged,
                failed: f.planted_failed,
            };
            (id, tally)
        })
        .collect();
    // Pilot sessions (the owner's tests) are no raters at all, not even excluded ones: their
    // judgements are left out of every table, count and download of the study.
    let pilot: BTreeSet<&str> = data
        .sessions
        .iter()
        .filter(|s| s.pilot)
        .map(|s| s.id.as_str())
        .collect();
    let mut rows = storage.judgement_rows(&task.id).await?;
    rows.retain(|r| !pilot.contains(r.session_id.as_str()));
    Ok(TaskJudgements {
        task,
        rows,
        excluded,
        planted,
    })
}

/// The planted-check tallies of the raters the tables count (finished, not excluded), by rater
/// pseudonym, summed over the study's tasks.
pub fn planted_by_rater(
    study: &StudyRecord,
    tasks: &[TaskJudgements],
) -> BTreeMap<String, PlantedTally> {
    let mut out: BTreeMap<String, PlantedTally> = BTreeMap::new();
    for t in tasks {
        let kept: BTreeMap<&str, &str> = t
            .rows
            .iter()
            .filter(|r| r.completed_at.is_some() && !t.excluded.contains_key(&r.session_id))
            .map(|r| (r.session_id.as_str(), r.participant_id.as_str()))
            .collect();
        for (session, tally) in &t.planted {
            let Some(participant) = kept.get(session.as_str()) else {
                continue;
            };
            let rater = pseudonym(&study.benchmark_id, "participant", participant);
            let e = out.entry(rater).or_default();
            e.judged += tally.judged;
            e.failed += tally.failed;
        }
    }
    out
}

/// A study's data for the statistics: judgements of finished, kept raters, the excluded
/// raters, and the automatic scores of the judged outputs.
pub async fn study_data(
    storage: &Storage,
    study: &StudyRecord,
) -> ApiResult<(StudyData, Vec<TaskJudgements>)> {
    let mut tasks = Vec::new();
    for t in storage.study_tasks(&study.id).await? {
        tasks.push(task_judgements(storage, t).await?);
    }
    let mut judgements = Vec::new();
    let mut excluded_raters = BTreeSet::new();
    for t in &tasks {
        for row in &t.rows {
            if t.excluded.contains_key(&row.session_id) {
                excluded_raters.insert(row.participant_id.clone());
                continue;
            }
            if row.completed_at.is_none() {
                continue;
            }
            let rater = pseudonym(&study.benchmark_id, "participant", &row.participant_id);
            if let Some(j) = judgement_of(row, rater)? {
                judgements.push(j);
            }
        }
    }
    let submissions: Vec<String> =
        storage::decode_json("studies.submissions_json", &study.submissions_json)?;
    let mut metric_scores: BTreeMap<(String, String), OutputScores> = BTreeMap::new();
    for s in &submissions {
        for o in storage.submission_outputs(s).await? {
            if let Some(scores) = o.scores {
                metric_scores.insert((o.item_id, s.clone()), scores);
            }
        }
    }
    let exposed: Vec<String> =
        storage::decode_json("studies.exposed_items_json", &study.exposed_items_json)?;
    let protocol = StudyProtocol::parse(&study.protocol).ok_or_else(|| {
        ApiError::Unexpected(anyhow::anyhow!(
            "unknown stored protocol `{}`",
            study.protocol
        ))
    })?;
    Ok((
        StudyData {
            study: study.slug.clone(),
            protocol,
            judgements,
            excluded_raters: excluded_raters.len(),
            exposed_test_items: exposed.len(),
            metric_scores,
        },
        tasks,
    ))
}

/// A study's reliability thresholds as stored (none stored: the default, which leaves nobody
/// out).
pub fn thresholds_of(study: &StudyRecord) -> ApiResult<ReliabilityThresholds> {
    match study.reliability_json.as_deref() {
        Some(json) => Ok(storage::decode_json("studies.reliability_json", json)?),
        None => Ok(ReliabilityThresholds::default()),
    }
}

/// A study's data after its owner's reliability thresholds.
pub struct Thresholded {
    /// The data without the judgements of the raters left out (counted as excluded).
    pub data: StudyData,
    /// The reliability rows of the raters the quality rules keep (what the thresholds read).
    pub rows: Vec<RaterRow>,
    /// The raters left out, and why.
    pub excluded: Vec<ExcludedRater>,
    /// Raters and judgements before and after.
    pub counts: ThresholdCounts,
}

/// Applies the thresholds once: the reliability of the raters the quality rules keep, then the
/// raters failing a threshold leave the judgements (and count as excluded). Not iterated: the
/// rows are not recomputed without them. CPU work (Dawid–Skene, leave-one-out agreement): call
/// it inside a cache computation, off the request path. `want_rows`: compute the rows even
/// without thresholds (the study page shows them; the board does not).
pub fn apply_thresholds(
    mut data: StudyData,
    planted: &BTreeMap<String, PlantedTally>,
    thresholds: &ReliabilityThresholds,
    want_rows: bool,
) -> Thresholded {
    let rows = if want_rows || !thresholds.is_empty() {
        rater_reliability(&data.judgements, planted)
    } else {
        Vec::new()
    };
    let excluded = threshold_exclusions(&rows, thresholds);
    let (kept, counts) = without_excluded(std::mem::take(&mut data.judgements), &excluded);
    data.judgements = kept;
    data.excluded_raters += excluded.len();
    Thresholded {
        data,
        rows,
        excluded,
        counts,
    }
}

/// A fingerprint that also changes with the studies' stored thresholds (the tables follow a
/// change of thresholds as they follow new judgements).
pub fn with_thresholds(mut fingerprint: Fingerprint, studies: &[StudyRecord]) -> Fingerprint {
    let mut text = fingerprint.2.to_string();
    for s in studies {
        text.push(';');
        text.push_str(s.reliability_json.as_deref().unwrap_or(""));
    }
    fingerprint.2 = memeboard_core::ids::fnv1a64(text.as_bytes()) as i64;
    fingerprint
}

/// One fingerprint over several tasks' crowd fingerprints (a change in any changes it).
pub async fn combined_fingerprint(
    storage: &Storage,
    task_ids: &[String],
) -> ApiResult<Fingerprint> {
    let mut text = String::new();
    let (mut sessions, mut answers, mut version) = (0, 0, 0i64);
    let mut latest: Option<i64> = None;
    for id in task_ids {
        let f = storage.crowd_fingerprint(id).await?;
        text.push_str(&format!("{id}:{f:?};"));
        sessions += f.0;
        answers += f.1;
        latest = latest.max(f.3);
        // The version carries a hash of each task's rules (any i64): summed modulo 2^64.
        version = version.wrapping_add(f.4);
    }
    let hash = memeboard_core::ids::fnv1a64(text.as_bytes()) as i64;
    Ok((sessions, answers, hash, latest, version))
}

/// The human side of a board: every study made from it, pooled, computed once per state of
/// their judgements off the executor; `None` without a study with judgements.
pub async fn board_human_eval(
    state: &AppState,
    task: &BoardTaskRow,
) -> ApiResult<Option<BoardHumanEval>> {
    let storage = &state.storage;
    let studies = storage.studies_of_task(&task.task.id).await?;
    if studies.is_empty() {
        return Ok(None);
    }
    let mut ids = Vec::new();
    for s in &studies {
        ids.extend(storage.study_tasks(&s.id).await?.into_iter().map(|t| t.id));
    }
    let fingerprint = with_thresholds(combined_fingerprint(storage, &ids).await?, &studies);
    let key = format!("board/{}", task.task.id);
    let value = match state.board_human.stored(&key, fingerprint) {
        Some(v) => v,
        None => {
            let mut inputs = Vec::new();
            for s in &studies {
                let (data, tasks) = study_data(storage, s).await?;
                inputs.push((data, planted_by_rater(s, &tasks), thresholds_of(s)?));
            }
            state
                .board_human
                .get_or_compute(&key, fingerprint, move || {
                    let (mut data, mut counts) = (Vec::new(), Vec::new());
                    for (d, planted, t) in inputs {
                        let kept = apply_thresholds(d, &planted, &t, false);
                        data.push(kept.data);
                        counts.push(kept.counts);
                    }
                    // Nothing to show until some rater finished a batch (kept or excluded).
                    if data
                        .iter()
                        .all(|d| d.judgements.is_empty() && d.excluded_raters == 0)
                    {
                        return Ok(None);
                    }
                    let mut human = board_human(&data, HUMAN_EVAL_RESAMPLES, HUMAN_EVAL_SEED)
                        .map_err(|e| e.to_string())?;
                    for (summary, n) in human.studies.iter_mut().zip(counts) {
                        summary.reliability = Some(n);
                    }
                    Ok(Some(BoardHumanEval::from(human)))
                })
                .await
                .context("computing the board's human columns")?
        }
    };
    match value.as_ref() {
        Ok(v) => Ok(v.clone()),
        Err(e) => Err(ApiError::Unexpected(anyhow::anyhow!(
            "board human columns: {e}"
        ))),
    }
}
