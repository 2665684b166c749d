//! Deleting a participant's data on request ([`delete_participant`]), from the owner route
//! or the command line.

use super::{authorize, find_task};
use crate::error::{ApiError, ApiResult};
use crate::pseudonym::pseudonym;
use crate::state::AppState;
use crate::storage::Storage;
use axum::http::HeaderMap;
use memeboard_core::api::DeleteParticipantResponse;
use memeboard_core::msg;

/// Deletes a participant's data on request (owner route): see [`delete_participant`].
pub async fn delete_participant_request(
    state: &AppState,
    headers: &HeaderMap,
    slug: &str,
    who: &str,
) -> ApiResult<DeleteParticipantResponse> {
    let actor = authorize(state, headers, slug).await?;
    let deleted = delete_participant(&state.storage, slug, who).await?;
    // Logged without the name asked for (it may be a Prolific id): what was removed.
    crate::owners::log_action(
        &state.storage,
        &actor,
        "delete_participant",
        &serde_json::json!({
            "participants": deleted.participants,
            "sessions": deleted.sessions,
            "answers": deleted.answers,
        }),
    )
    .await?;
    Ok(deleted)
}

/// Deletes everything a participant recorded in the benchmark of task `slug` (every task
/// of it: the pseudonym is per benchmark), named by pseudonym or Prolific id, in one
/// transaction; the crowd rows of the tasks touched are recomputed on the next request.
/// Also `memeboard delete-participant --task SLUG WHO`.
pub async fn delete_participant(
    storage: &Storage,
    slug: &str,
    who: &str,
) -> ApiResult<DeleteParticipantResponse> {
    let who = who.trim();
    if who.is_empty() {
        return Err(ApiError::BadRequest(msg!("participant.name_expected")));
    }
    let task = find_task(storage, slug).await?;
    let benchmark = &task.task.benchmark_id;
    let mut ids: Vec<String> = storage
        .benchmark_participants(benchmark)
        .await?
        .into_iter()
        .filter(|(id, prolific)| {
            prolific.as_deref() == Some(who) || pseudonym(benchmark, "participant", id) == who
        })
        .map(|(id, _)| id)
        .collect();
    ids.sort();
    ids.dedup();
    if ids.is_empty() {
        return Err(ApiError::NotFound(msg!(
            "participant.not_found",
            who = who,
            slug = slug
        )));
    }
    let deleted = storage.delete_participants(benchmark, &ids).await?;
    tracing::info!(
        task = slug,
        participants = ids.len(),
        sessions = deleted.sessions,
        "participant data deleted on request"
    );
    Ok(DeleteParticipantResponse {
        who: who.to_owned(),
        participants: ids.len(),
        participants_removed: deleted.participants,
        sessions: deleted.sessions,
        answers: deleted.answers,
        prefaces: deleted.prefaces,
        tasks: deleted.tasks,
    })
}
