//! Starting a session: the request's checks, resuming an earlier participation, a resent
//! start answered with its session, and storing the new session with its batch.

use super::batch::balanced_batch;
use super::session::{get_session, session_response};
use super::{find_quiz, target_reached, MAX_KEY_LEN};
use crate::error::{ApiError, ApiResult};
use crate::ids::{random_hex, time_ordered_id};

use crate::crowd::quality;
use crate::storage::{NewSession, QuizRow, Storage};
use anyhow::Context;
use memeboard_core::api::{SessionResponse, StartSessionRequest};
use memeboard_core::fieldwork::{FieldworkSettings, SessionFacts};
use memeboard_core::kinds::capabilities::needs_headphones;
use memeboard_core::kinds::TaskKind;
use memeboard_core::{msg, with_kind};

fn random_u64() -> anyhow::Result<u64> {
    let mut buf = [0u8; 8];
    getrandom::fill(&mut buf).map_err(|e| anyhow::anyhow!("OS randomness unavailable: {e}"))?;
    Ok(u64::from_le_bytes(buf))
}

fn check_optional_id(field: &str, value: &Option<String>) -> ApiResult<()> {
    match value {
        Some(v) if v.len() > MAX_KEY_LEN || v.chars().any(char::is_control) => {
            Err(ApiError::BadRequest(msg!(
                "field.at_most_printable",
                field = field,
                max = MAX_KEY_LEN
            )))
        }
        _ => Ok(()),
    }
}

/// Starts a participant session: checks consent and survey, assigns a balanced batch
/// (least-exposed items first, flagged items skipped on request), and stores it. Returns the
/// session and whether it is new (`false`: a resent start, answered with its session).
pub async fn start_session(
    storage: &Storage,
    slug: &str,
    mut request: StartSessionRequest,
) -> ApiResult<(SessionResponse, bool)> {
    let quiz = find_quiz(storage, slug).await?;
    let kind = admit(&quiz, &request)?;
    // A resent start (same key): the session it created, not a second one.
    if let Some(key) = &request.start_key {
        if let Some((session_id, participant)) = storage.find_session_by_start_key(key).await? {
            let session = replay_start(storage, &quiz, &request, &session_id, &participant).await?;
            return Ok((session, false));
        }
    }
    let fieldwork = quality::fieldwork_settings(quiz.study_json.as_deref())?;
    // Prolific ids are stored and compared in their canonical form (case, spaces and
    // zero-width characters do not make a new participant).
    request.recruitment.prolific_pid = crate::crowd::participation::canonical_pid(
        request.recruitment.prolific_pid.as_deref(),
        &fieldwork,
        slug,
    )?;
    let existing = known_participant(storage, &request).await?;
    let earlier = EarlierStart {
        quiz: &quiz,
        fieldwork: &fieldwork,
        request: &request,
        existing: existing.as_deref(),
        kind,
        slug,
    };
    if let Some(session) = earlier_session(storage, &earlier).await? {
        return Ok((session, false));
    }
    let (participant_id, new_secret) = match existing {
        Some(id) => (id, None),
        None => (
            format!("P-{}", random_hex(6)?.to_uppercase()),
            Some(random_hex(16)?),
        ),
    };

    let (headphone_json, screen_reason) =
        headphone_screening(storage, &quiz, &fieldwork, &mut request, kind).await?;
    let seed = random_u64()?;
    let items = if kind.is_judging() {
        crate::judging::assign_batch(storage, &quiz, &fieldwork, Some(&participant_id), seed)
            .await?
    } else {
        balanced_batch(storage, &quiz, &fieldwork, &request, kind, seed).await?
    };
    let session = NewSession {
        id: time_ordered_id(16)?,
        participant_id,
        task_id: quiz.task.id.clone(),
        seed: seed as i64,
        survey_json: serde_json::to_string(&request.survey).context("encode survey")?,
        prolific_pid: request.recruitment.prolific_pid.clone(),
        study_id: request.recruitment.study_id.clone(),
        recruitment_session_id: request.recruitment.session_id.clone(),
        items,
        start_key: request.start_key.clone(),
        headphone_json,
        attention_checks: i64::from(fieldwork.attention_checks),
        screen_reason,
        pilot: fieldwork.pilot,
    };
    store_start(
        storage, &quiz, &request, &fieldwork, kind, session, new_secret,
    )
    .await
}

/// The start's own checks, before anything is read beyond the quiz: the invitation (for
/// invitation-only studies), consent, the survey, and the length and characters of every id
/// and key. Returns the quiz's kind.
fn admit(quiz: &QuizRow, request: &StartSessionRequest) -> ApiResult<TaskKind> {
    check_optional_id("invite", &request.invite)?;
    // Invitation-only studies admit only holders of the study link's secret.
    crate::judging::require_invite(quiz, request.invite.as_deref())?;
    let kind = quiz.task.task_kind()?;
    if !request.consent {
        return Err(ApiError::BadRequest(msg!("quiz.consent_required")));
    }
    request.survey.validate().map_err(ApiError::BadRequest)?;
    check_optional_id(
        "recruitment.prolific_pid",
        &request.recruitment.prolific_pid,
    )?;
    check_optional_id("recruitment.study_id", &request.recruitment.study_id)?;
    check_optional_id("recruitment.session_id", &request.recruitment.session_id)?;

    check_optional_id("participant_id", &request.participant_id)?;
    check_optional_id("participant_secret", &request.participant_secret)?;
    check_optional_id("start_key", &request.start_key)?;
    if request
        .start_key
        .as_deref()
        .is_some_and(|k| k.trim().is_empty())
    {
        return Err(ApiError::BadRequest(msg!("quiz.empty_start_key")));
    }
    Ok(kind)
}

/// The participant a start continues, if any.
///
/// Reusing a participant id needs the secret minted with it (ids are shown to participants
/// and are not secrets). Unknown ids, and ids created before secrets existed (nobody can
/// prove ownership of those), get a fresh participant; a wrong or missing secret for an id
/// that has one is refused.
async fn known_participant(
    storage: &Storage,
    request: &StartSessionRequest,
) -> ApiResult<Option<String>> {
    Ok(match &request.participant_id {
        Some(id) => match storage.participant_secret_hash(id).await? {
            Some(Some(stored)) => {
                let presented = request.participant_secret.as_deref().map(secret_hash);
                if presented.as_deref() != Some(stored.as_str()) {
                    return Err(ApiError::Forbidden(msg!("quiz.wrong_participant_secret")));
                }
                Some(id.clone())
            }
            Some(None) | None => None,
        },
        None => None,
    })
}

/// What [`earlier_session`] decides from: the start, its quiz and fieldwork settings, and the
/// known participant (see [`known_participant`]).
struct EarlierStart<'a> {
    quiz: &'a QuizRow,
    fieldwork: &'a FieldworkSettings,
    request: &'a StartSessionRequest,
    existing: Option<&'a str>,
    kind: TaskKind,
    slug: &'a str,
}

/// The earlier participation a start resumes instead of starting anew (`Some`), or the
/// refusal of a start that may not have a new batch: a finished Prolific participation, a
/// full quiz, a finished judging participation, a retake where retakes are not allowed.
async fn earlier_session(
    storage: &Storage,
    start: &EarlierStart<'_>,
) -> ApiResult<Option<SessionResponse>> {
    let EarlierStart {
        quiz,
        fieldwork,
        request,
        existing,
        kind,
        slug,
    } = *start;
    // One participation per Prolific id (unless the owner allows more): an unfinished session
    // is resumed only by the participant who holds its secret, a finished or screened-out one
    // refused.
    if let Some(open) = crate::crowd::participation::prolific_resume(
        storage,
        quiz,
        fieldwork,
        request.recruitment.prolific_pid.as_deref(),
        existing,
        request.start_key.as_deref(),
    )
    .await?
    {
        let mut session = get_session(storage, &open).await?;
        session.participant_secret = None;
        return Ok(Some(session));
    }
    if let Some(target) = target_reached(quiz)? {
        return Err(ApiError::Conflict(msg!(
            "quiz.target_reached",
            slug = slug,
            target = target
        )));
    }
    // Judging tasks: as many batches per rater as the owner allows (one by default), never the
    // same batch twice, so that nobody judges an output twice (an unfinished session is
    // resumed, a rater who finished them all refused).
    if let (Some(id), true) = (existing, kind.is_judging()) {
        if let Some(open) =
            crate::judging::earlier_participation(storage, id, quiz, fieldwork).await?
        {
            let mut session = get_session(storage, &open).await?;
            session.participant_secret = None;
            return Ok(Some(session));
        }
        return Ok(None);
    }
    // A participant who finished this quiz sees their results instead of a second batch,
    // unless the owner allows retakes.
    if let Some(id) = existing {
        if !quiz.allow_retake && storage.has_completed(id, &quiz.task.id).await? {
            return Err(ApiError::Conflict(msg!(
                "quiz.no_retake",
                participant = id,
                slug = slug
            )));
        }
    }
    Ok(None)
}

/// The headphone check of kinds that start with one, scored (`headphone_json`), and the
/// screen-out reason it gives (JSON), if any.
async fn headphone_screening(
    storage: &Storage,
    quiz: &QuizRow,
    fieldwork: &FieldworkSettings,
    request: &mut StartSessionRequest,
    kind: TaskKind,
) -> ApiResult<(Option<String>, Option<String>)> {
    let needs_check = with_kind!(kind, K => needs_headphones::<K>());
    let headphone_json = if needs_check {
        Some(crate::crowd::headphones::score(storage, quiz, request.headphone_check.take()).await?)
    } else {
        None
    };
    // A failed headphone check ends the session at once when the owner screens them out.
    let screen_reason = match &headphone_json {
        Some(json)
            if fieldwork.quality.screen_out_failed_headphones && fieldwork.has_screenout() =>
        {
            let facts = SessionFacts {
                headphone_passed: serde_json::from_str::<serde_json::Value>(json)
                    .ok()
                    .and_then(|v| v["passed"].as_bool()),
                ..SessionFacts::default()
            };
            memeboard_core::fieldwork::exclusion(&fieldwork.quality, true, &facts)
                .map(|r| serde_json::to_string(&r).context("encode screen-out reason"))
                .transpose()?
        }
        _ => None,
    };
    Ok((headphone_json, screen_reason))
}

/// Stores a new session (and its participant, when `new_secret` is set) and answers with it;
/// a concurrent resend of the same start that won the race is answered with its session.
async fn store_start(
    storage: &Storage,
    quiz: &QuizRow,
    request: &StartSessionRequest,
    fieldwork: &FieldworkSettings,
    kind: TaskKind,
    session: NewSession,
    new_secret: Option<String>,
) -> ApiResult<(SessionResponse, bool)> {
    let new_hash = new_secret.as_deref().map(secret_hash);
    if let Some(existing) = storage
        .create_session(&session, new_hash.as_deref())
        .await
        .map_err(start_not_stored)?
    {
        // A concurrent resend of this start won the race: answer with its session.
        let participant = get_session(storage, &existing).await?.participant_id;
        let session = replay_start(storage, quiz, request, &existing, &participant).await?;
        return Ok((session, false));
    }
    // The new session's answer is built from what the start holds (the session as stored,
    // the fieldwork settings read above, no checks answered yet); only the batch's items are read.
    let stored = session.stored_row(&quiz.task.slug, &quiz.task.title, kind);
    let rows = storage.session_items(&session.id).await?;
    let mut response = session_response(stored.clone(), &rows, fieldwork, &[])?;
    super::practice::with_training(storage, &stored, fieldwork, &mut response).await?;
    response.participant_secret = new_secret;
    Ok((response, true))
}

/// A start that could not be stored (a failed group commit, a full disk) is a retryable 503
/// in the start's own words (the browser resends it with its start key); other failures as
/// usual.
fn start_not_stored(e: crate::storage::StorageError) -> ApiError {
    match e {
        crate::storage::StorageError::NotRecorded(cause) => {
            tracing::error!(error = %cause, "session start not stored");
            ApiError::Unavailable(msg!("session.not_stored"))
        }
        other => other.into(),
    }
}

/// The answer to a resent start: the session the key created. Its participant secret went
/// out only in the first response, which the client may never have received; so unless the
/// request proves it holds the secret already, a new one replaces it and is sent now. Only the
/// client that made the (random, never shown) start key can get here.
async fn replay_start(
    storage: &Storage,
    quiz: &QuizRow,
    request: &StartSessionRequest,
    session_id: &str,
    participant: &str,
) -> ApiResult<SessionResponse> {
    let mut response = get_session(storage, session_id).await?;
    if response.quiz_slug != quiz.task.slug {
        return Err(ApiError::Conflict(msg!("quiz.start_key_other_quiz")));
    }
    let holds_secret = request.participant_id.as_deref() == Some(participant)
        && match (
            storage
                .participant_secret_hash(participant)
                .await?
                .flatten(),
            request.participant_secret.as_deref(),
        ) {
            (Some(stored), Some(presented)) => secret_hash(presented) == stored,
            _ => false,
        };
    if !holds_secret {
        let secret = random_hex(16)?;
        storage
            .set_participant_secret(participant, &secret_hash(&secret))
            .await?;
        response.participant_secret = Some(secret);
    }
    Ok(response)
}

/// SHA-256 (hex) of a participant secret; only this is stored. Comparing digests with `==`
/// leaks nothing useful: timing reveals at most a prefix of a hash of an unknown secret.
fn secret_hash(secret: &str) -> String {
    use sha2::{Digest, Sha256};
    Sha256::digest(secret.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}
