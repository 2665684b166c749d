//! One participation per Prolific id: the id in its canonical form, required when the owner
//! says so, and an unfinished session resumed only by the participant holding its secret.

use crate::error::{ApiError, ApiResult};
use crate::storage::{ProlificSessionRow, QuizRow, Storage};
use memeboard_core::fieldwork::FieldworkSettings;
use memeboard_core::msg;
use memeboard_core::recruitment::normalize_prolific_id;

/// The start's `PROLIFIC_PID` in its canonical form (`None` when absent or only invisible
/// characters); refused when the owner requires one and there is none.
pub fn canonical_pid(
    raw: Option<&str>,
    fieldwork: &FieldworkSettings,
    slug: &str,
) -> ApiResult<Option<String>> {
    let pid = raw.map(normalize_prolific_id).filter(|p| !p.is_empty());
    if pid.is_none() && fieldwork.handoff.require_prolific_id {
        tracing::debug!(slug, "start without a Prolific id refused");
        return Err(ApiError::Forbidden(msg!("quiz.prolific_id_required")));
    }
    Ok(pid)
}

/// The earlier sessions of this Prolific id in the quiz, all unfinished (none where the owner
/// allows repeat participation); a finished or screened-out one refuses the id (409
/// `quiz.prolific_repeat`). The start and the check before consent both ask this.
pub async fn unfinished_sessions(
    storage: &Storage,
    quiz: &QuizRow,
    fieldwork: &FieldworkSettings,
    pid: &str,
) -> ApiResult<Vec<ProlificSessionRow>> {
    // A judging task whose raters may judge several batches counts them itself
    // (`judging::earlier_participation`).
    let several_batches = memeboard_core::tasks::TaskKind::parse(&quiz.task.kind)
        .is_some_and(|k| k.is_judging())
        && fieldwork.rater_batches() > 1;
    if fieldwork.handoff.allow_repeat_participation || several_batches {
        return Ok(Vec::new());
    }
    let earlier = storage.prolific_sessions(&quiz.task.id, pid).await?;
    if earlier.iter().any(|s| s.completed || s.screened_out) {
        return Err(ApiError::Conflict(msg!(
            "quiz.prolific_repeat",
            pid = pid,
            slug = quiz.task.slug
        )));
    }
    Ok(earlier)
}

/// The earlier session of this Prolific id to resume, if any (unless the owner allows repeat
/// participation). A finished or screened-out session refuses the start; an unfinished one is
/// given back only to the participant who started it, proven by the participant secret
/// (`participant`: the start's participant id, already checked against its secret). Anyone
/// else presenting the same id — which Prolific shows in links and is no secret — is refused,
/// never handed the session, except a resend of the start that created it (`start_key`, a
/// random key only that browser holds), which the start's resend path answers.
pub async fn prolific_resume(
    storage: &Storage,
    quiz: &QuizRow,
    fieldwork: &FieldworkSettings,
    pid: Option<&str>,
    participant: Option<&str>,
    start_key: Option<&str>,
) -> ApiResult<Option<String>> {
    let Some(pid) = pid else {
        return Ok(None);
    };
    let earlier = unfinished_sessions(storage, quiz, fieldwork, pid).await?;
    match earlier.first() {
        Some(open) if Some(open.participant_id.as_str()) == participant => {
            Ok(Some(open.id.clone()))
        }
        // A resend of the very start that created the session (resends race each other: one
        // stored it after the others looked its key up): the start's own resend path answers
        // it with that session.
        Some(open) if start_key.is_some() && open.start_key.as_deref() == start_key => Ok(None),
        Some(_) => Err(ApiError::Conflict(msg!("session.prolific_id_in_use"))),
        None => Ok(None),
    }
}
