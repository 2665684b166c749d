//! The console of a quiz as its owner sees it: the settings with only those that apply to the
//! quiz, the action log, the excluded sessions under the export's pseudonyms, the hand-off as
//! it will look, the study link for Prolific, and the export links.

use super::{authorize, categories, console_settings};
use crate::crowd::quality;
use crate::error::ApiResult;
use crate::pseudonym::pseudonym;
use crate::state::AppState;
use axum::http::HeaderMap;
use memeboard_core::fieldwork::{
    completion_handoff, prolific_link, screenout_handoff, ConsoleItem, ConsoleResponse,
    ExcludedSession, HandoffIds, OwnerAction, SettingsInUse,
};

/// The console of a quiz: settings, the benchmark's action log, excluded sessions with
/// reasons, the hand-off as it will look, and the export links.
pub async fn console(
    state: &AppState,
    headers: &HeaderMap,
    slug: &str,
) -> ApiResult<ConsoleResponse> {
    let actor = authorize(state, headers, slug).await?;
    let storage = &state.storage;
    let task = &actor.task;
    let settings = console_settings(task)?;
    let items: Vec<ConsoleItem> = storage
        .assignment_candidates(&task.task.id, false)
        .await?
        .into_iter()
        .map(|c| ConsoleItem {
            item_id: c.id,
            category: c.category,
            flagged: c.flagged,
        })
        .collect();
    let actions = storage
        .owner_actions(&task.task.benchmark_id, 200)
        .await?
        .into_iter()
        .map(|a| OwnerAction {
            actor: a.actor_name,
            owner_id: a.owner_id,
            task: a.task_slug,
            action: a.action,
            detail: serde_json::from_str(&a.detail_json).unwrap_or(serde_json::Value::Null),
            at: a.created_at,
        })
        .collect();
    // Pilot sessions are the owner's own tests: not among the completed or excluded ones.
    let (data, _) = quality::without_pilot(storage.fieldwork_data(&task.task.id).await?);
    let benchmark = &task.task.benchmark_id;
    let reasons =
        quality::exclusions_of(&data, &settings.fieldwork, settings.exclude_failed_checks);
    let completed = data
        .sessions
        .iter()
        .filter(|s| s.completed_at.is_some())
        .count();
    let exclusions: Vec<ExcludedSession> = data
        .sessions
        .iter()
        .filter(|s| s.completed_at.is_some() || s.screened_out_at.is_some())
        .filter_map(|s| {
            reasons.get(&s.id).map(|r| ExcludedSession {
                session: pseudonym(benchmark, "session", &s.id),
                participant: pseudonym(benchmark, "participant", &s.participant_id),
                prolific_pid: s.prolific_pid.clone(),
                reason: r.clone(),
            })
        })
        .collect();
    let excluded_completed = data
        .sessions
        .iter()
        .filter(|s| s.completed_at.is_some() && reasons.contains_key(&s.id))
        .count();
    let example = HandoffIds::EXAMPLE;
    let uses = settings_in_use(state, task, &items, &data).await?;
    Ok(ConsoleResponse {
        task: task.task.slug.clone(),
        title: task.task.title.clone(),
        benchmark: task.benchmark_slug.clone(),
        actor: actor.name.clone(),
        completion_preview: completion_handoff(&settings.fieldwork.handoff, &example).map(|h| h.0),
        screenout_preview: screenout_handoff(&settings.fieldwork.handoff, &example).map(|h| h.0),
        settings,
        categories: categories(task)?,
        items,
        actions,
        exclusions,
        completed_before_exclusions: completed,
        completed_after_exclusions: completed - excluded_completed,
        exports: vec![
            format!("/api/owner/tasks/{slug}/export.csv"),
            format!("/api/owner/tasks/{slug}/export.jsonl"),
        ],
        uses,
        prolific_link: prolific_link(&task.task.slug),
    })
}

/// Which settings apply to the quiz: asked of its kind (a headphone check) and of its items
/// (options, planted outputs, content warnings, categories).
async fn settings_in_use(
    state: &AppState,
    task: &crate::storage::FieldworkTaskRow,
    items: &[ConsoleItem],
    data: &crate::storage::FieldworkData,
) -> ApiResult<SettingsInUse> {
    let kind = task.task.task_kind()?;
    let choices = crate::quiz::item_choices(&state.storage, &task.task.id, kind).await?;
    let first = items.first().map(|i| i.category.as_str());
    Ok(SettingsInUse {
        headphones: memeboard_core::with_kind!(kind, K => {
            memeboard_core::kinds::capabilities::needs_headphones::<K>()
        }),
        planted_checks: quality::has_planted_outputs(data),
        choices: choices.values().any(|c| c.is_some_and(|n| n > 1)),
        content_flags: items.iter().any(|i| i.flagged),
        categories: items.iter().any(|i| Some(i.category.as_str()) != first),
        rater_batches: kind.is_judging(),
    })
}
