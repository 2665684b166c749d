//! Quality control: which sessions the human rows leave out and why. One decision
//! ([`exclusion`], the owner's rules applied to one session's facts) used by the quiz crowd
//! statistics, the board's human rows, the owner's console and the answer-level export.

use crate::error::ApiResult;
use crate::storage::{self, CrowdResponseRow, FieldworkData, Storage};
use memeboard_core::fieldwork::{self, plan_checks, FieldworkSettings, SessionFacts};
pub use memeboard_core::fieldwork::{ExclusionCode, ExclusionReason, QualityRules};
use memeboard_core::kinds::rating::Planted;
use memeboard_core::kinds::{AnswerValue, ItemGold};
use std::collections::{BTreeMap, HashMap};

/// A task's fieldwork settings from their stored JSON (defaults when unset).
pub fn fieldwork_settings(json: Option<&str>) -> ApiResult<FieldworkSettings> {
    Ok(match json {
        Some(j) => storage::decode_json("tasks.study_json", j)?,
        None => FieldworkSettings::default(),
    })
}

/// Whether a session is excluded from the human rows, and why: the owner's rules
/// (`fieldwork.quality`), the board switch `exclude_failed_checks` (failed headphone checks),
/// and screen-outs. This is the one decision; everything that shows or exports human data
/// calls it.
pub fn exclusion(
    fieldwork: &FieldworkSettings,
    exclude_failed_checks: bool,
    facts: &SessionFacts,
) -> Option<ExclusionReason> {
    fieldwork::exclusion(&fieldwork.quality, exclude_failed_checks, facts)
}

/// Whether any rule can exclude a completed session (otherwise nothing needs loading).
pub fn rules_active(fieldwork: &FieldworkSettings, exclude_failed_checks: bool) -> bool {
    let q = &fieldwork.quality;
    exclude_failed_checks
        || q.fail_checks_at_least.is_some()
        || q.min_median_ms.is_some()
        || q.min_item_ms.is_some()
        || q.straightline_percent.is_some()
        || q.planted_checks
}

/// The headphone pass of a stored check (`{"trials":6,"correct":5,"passed":true}`).
fn headphone_passed(json: Option<&str>) -> Option<bool> {
    let v: serde_json::Value = serde_json::from_str(json?).ok()?;
    v["passed"].as_bool()
}

/// The task's pages that show a planted output of known quality, with which one.
fn planted_outputs(data: &FieldworkData) -> BTreeMap<&str, Planted> {
    data.rating_golds
        .iter()
        .filter_map(|(id, json)| {
            let gold = serde_json::from_str::<ItemGold>(json).ok()?.into_rating()?;
            gold.planted.map(|p| (id.as_str(), p))
        })
        .collect()
}

/// Whether the task's pages carry planted outputs, so the planted-check rule applies to it.
pub fn has_planted_outputs(data: &FieldworkData) -> bool {
    !planted_outputs(data).is_empty()
}

/// The facts of every session of a task, by session id.
pub fn session_facts(data: &FieldworkData) -> BTreeMap<String, SessionFacts> {
    let mut facts: BTreeMap<String, SessionFacts> = data
        .sessions
        .iter()
        .map(|s| {
            let planned = plan_checks(
                s.seed as u64,
                usize::try_from(s.batch_size).unwrap_or(0),
                u8::try_from(s.attention_checks).unwrap_or(0),
            )
            .len();
            (
                s.id.clone(),
                SessionFacts {
                    pilot: s.pilot,
                    screened_out: s.screened_out_at.is_some(),
                    completed: s.completed_at.is_some(),
                    headphone_passed: headphone_passed(s.headphone_json.as_deref()),
                    checks_planned: planned,
                    ..SessionFacts::default()
                },
            )
        })
        .collect();
    for a in &data.answers {
        let Some(f) = facts.get_mut(&a.session_id) else {
            continue;
        };
        f.response_ms
            .push(u64::try_from(a.response_ms).unwrap_or(0));
        if let Some(choice) = a.choice.and_then(|c| usize::try_from(c).ok()) {
            // The display position of the chosen option (straight-lining is about where on
            // the screen people click, not which option they mean).
            let order: Vec<usize> = serde_json::from_str(&a.option_order_json).unwrap_or_default();
            if let Some(p) = order.iter().position(|&c| c == choice) {
                f.choice_positions.push(p);
            }
        }
    }
    // Ratings of planted outputs of known quality (rating tasks only).
    let planted = planted_outputs(data);
    if !planted.is_empty() {
        for a in &data.answers {
            let (Some(&kind), Some(f)) = (
                planted.get(a.item_id.as_str()),
                facts.get_mut(&a.session_id),
            ) else {
                continue;
            };
            if let Ok(AnswerValue::Rating(answer)) = serde_json::from_str(&a.answer_json) {
                f.planted_judged += 1;
                f.planted_failed += usize::from(fieldwork::planted_failed(kind, &answer));
            }
        }
    }
    for c in &data.checks {
        if let Some(f) = facts.get_mut(&c.session_id) {
            f.checks_answered += 1;
            f.checks_failed += usize::from(!c.passed);
        }
    }
    facts
}

/// Every excluded session of a task with its reason, from already loaded data.
pub fn exclusions_of(
    data: &FieldworkData,
    fieldwork: &FieldworkSettings,
    exclude_failed_checks: bool,
) -> BTreeMap<String, ExclusionReason> {
    session_facts(data)
        .into_iter()
        .filter_map(|(id, f)| exclusion(fieldwork, exclude_failed_checks, &f).map(|r| (id, r)))
        .collect()
}

/// Crowd responses of completed sessions, the excluded sessions' left out (the owner's rules).
pub async fn crowd_responses(storage: &Storage, task_id: &str) -> ApiResult<Vec<CrowdResponseRow>> {
    Ok(crowd_responses_counting(storage, task_id, |_| ()).await?.0)
}

/// [`crowd_responses`], with `before` computed over all of them first (figures that state
/// what they count before exclusions). The excluded rows are dropped in place: the crowd's
/// rows are never held twice.
pub async fn crowd_responses_counting<T>(
    storage: &Storage,
    task_id: &str,
    before: impl FnOnce(&[CrowdResponseRow]) -> T,
) -> ApiResult<(Vec<CrowdResponseRow>, T)> {
    let mut rows = storage.crowd_responses(task_id).await?;
    let counted = before(&rows);
    let Some(task) = storage.task_quality_switches(task_id).await? else {
        return Ok((rows, counted));
    };
    let fieldwork = fieldwork_settings(task.0.as_deref())?;
    if !rules_active(&fieldwork, task.1) {
        return Ok((rows, counted));
    }
    // The sessions' facts from this server's kept copy, which reads only the sessions changed
    // since its last read.
    let excluded: std::collections::HashSet<String> = storage
        .with_crowd_session_values(task_id, session_facts, |facts| {
            facts
                .iter()
                .filter(|(_, f)| exclusion(&fieldwork, task.1, f).is_some())
                .map(|(id, _)| id.clone())
                .collect()
        })
        .await?;
    rows.retain(|r| !excluded.contains(&*r.session_id));
    Ok((rows, counted))
}

/// A task's data without its pilot sessions (nor their answers and checks), with how many
/// pilot sessions were started and completed: the console and the live progress count only
/// real sessions and show the pilot ones apart.
pub fn without_pilot(mut data: FieldworkData) -> (FieldworkData, (usize, usize)) {
    let pilot: std::collections::HashSet<String> = data
        .sessions
        .iter()
        .filter(|s| s.pilot)
        .map(|s| s.id.clone())
        .collect();
    if pilot.is_empty() {
        return (data, (0, 0));
    }
    let completed = data
        .sessions
        .iter()
        .filter(|s| s.pilot && s.completed_at.is_some())
        .count();
    data.sessions.retain(|s| !s.pilot);
    data.answers.retain(|a| !pilot.contains(&a.session_id));
    data.checks.retain(|c| !pilot.contains(&c.session_id));
    (data, (pilot.len(), completed))
}

/// Distinct participants among crowd rows.
pub fn participants(rows: &[CrowdResponseRow]) -> usize {
    rows.iter()
        .map(|r| &*r.participant_id)
        .collect::<std::collections::HashSet<_>>()
        .len()
}

/// Per session: how many of its planned checks were answered and failed (for messages).
pub fn check_tally(answers: &[(i64, bool)]) -> (usize, usize) {
    let failed = answers.iter().filter(|(_, passed)| !passed).count();
    (answers.len(), failed)
}

/// Completed, non-excluded sessions' ids, for agreement so far.
pub fn kept_sessions(
    data: &FieldworkData,
    excluded: &BTreeMap<String, ExclusionReason>,
) -> HashMap<String, String> {
    data.sessions
        .iter()
        .filter(|s| s.completed_at.is_some() && !excluded.contains_key(&s.id))
        .map(|s| (s.id.clone(), s.participant_id.clone()))
        .collect()
}
