//! Refusals before consent: what a start would refuse that is known when the quiz page loads
//! (an invitation-only study without its secret, a study that needs a Prolific id, a Prolific
//! id that already took part, a full study, a browser that cannot play the quiz's clips), so
//! that a visitor reads the outcome first instead of after giving consent and filling in the
//! survey. The start checks everything again (but the device check, which only the browser
//! can make).

use super::target_reached;
use crate::crowd::quality;
use crate::error::{ApiError, ApiResult};
use crate::storage::{QuizRow, Storage};
use memeboard_core::fieldwork::{screenout_handoff, FieldworkSettings, HandoffIds};
use memeboard_core::msg;

/// What the quiz page's link says about its visitor (`?admission&PROLIFIC_PID=…&STUDY_ID=…&
/// SESSION_ID=…&invite=…`; other parameters are ignored). Without `admission` the quiz's
/// summary is answered for anyone.
#[derive(Debug, Default, serde::Deserialize)]
#[allow(non_snake_case)]
pub struct Visitor {
    /// Present: answer the refusal a start by this visitor would get instead of the summary.
    pub admission: Option<String>,
    /// `PROLIFIC_PID`.
    pub PROLIFIC_PID: Option<String>,
    /// `STUDY_ID` (fills the screen-out URL template).
    pub STUDY_ID: Option<String>,
    /// `SESSION_ID` (fills the screen-out URL template).
    pub SESSION_ID: Option<String>,
    /// The invitation secret of an invitation-only study link.
    pub invite: Option<String>,
    /// What the page's device check found this browser lacks: `audio` (no way to play
    /// sound) or one of the quiz's media types it cannot play (`video/mp4`).
    pub device: Option<String>,
    /// The browser's participant id, sent by the page of a finished participant: a judging
    /// task refuses one who may judge no further batch (`judging.already_judged`), so the
    /// page offers no "next batch" that the start would refuse.
    pub participant: Option<String>,
}

/// The refusal a start by this visitor would get, as the start answers it, if it is known
/// before consent. In the start's order: the invitation (403), then the Prolific id (403 when
/// the owner requires one; 409 when it took part already: a participant told that they
/// finished rather than that the study is full; an unfinished participation of the id is
/// resumed even in a full study), then the participant target (409; for a Prolific
/// participant with the owner's screen-out code or URL, the message carries both), then the
/// device the page found wanting (409, with the screen-out hand-off likewise; 400 for a
/// `device` that is neither `audio` nor one of the quiz's media types).
///
/// A finished participant known by their participant id and secret (kept in the browser) is
/// recognised by the page itself; the start refuses a retake as before. Of a judging task,
/// the page sends the id of a finished rater (`participant`), and a rater who may judge no
/// further batch is refused here too (409 `judging.already_judged`).
pub async fn check(storage: &Storage, quiz: &QuizRow, visitor: &Visitor) -> ApiResult<()> {
    let slug = &quiz.task.slug;
    crate::judging::require_invite(quiz, visitor.invite.as_deref())?;
    let fieldwork = quality::fieldwork_settings(quiz.study_json.as_deref())?;
    if let Some(participant) = visitor.participant.as_deref() {
        if quiz.task.task_kind()?.is_judging() {
            crate::judging::earlier_participation(storage, participant, quiz, &fieldwork).await?;
        }
    }
    // The start's own checks of the Prolific id: required, and not one that took part.
    let pid = crate::crowd::participation::canonical_pid(
        visitor.PROLIFIC_PID.as_deref(),
        &fieldwork,
        slug,
    )?;
    if let Some(pid) = &pid {
        let earlier =
            crate::crowd::participation::unfinished_sessions(storage, quiz, &fieldwork, pid)
                .await?;
        if !earlier.is_empty() {
            // An unfinished participation: its browser resumes it, whatever the target.
            return Ok(());
        }
    }
    let handoff = pid
        .as_deref()
        .and_then(|pid| screenout_handoff_of(&fieldwork, pid, visitor));
    let Some(target) = target_reached(quiz)? else {
        return match visitor.device.as_deref() {
            Some(lacks) => Err(device_refusal(storage, quiz, lacks, handoff).await),
            None => Ok(()),
        };
    };
    Err(ApiError::Conflict(match handoff {
        Some((url, code)) => msg!(
            "quiz.target_reached_handoff",
            slug = slug,
            target = target,
            code = code,
            url = url
        ),
        None => msg!("quiz.target_reached", slug = slug, target = target),
    }))
}

/// The refusal of a browser that lacks `lacks` (`audio`, or a media type of the quiz): where
/// to get a browser that plays the clips, with the screen-out `handoff` (URL, code) if any.
async fn device_refusal(
    storage: &Storage,
    quiz: &QuizRow,
    lacks: &str,
    handoff: Option<(String, String)>,
) -> ApiError {
    let slug = &quiz.task.slug;
    let types = match storage.task_media_types(&quiz.task.id).await {
        Ok(types) => types,
        Err(e) => return e.into(),
    };
    if types.is_empty() || (lacks != "audio" && !types.iter().any(|t| t == lacks)) {
        return ApiError::BadRequest(msg!(
            "quiz.device_param",
            found = lacks,
            expected = types.join(", ")
        ));
    }
    ApiError::Conflict(match (lacks, handoff) {
        ("audio", None) => msg!("quiz.no_sound", slug = slug),
        ("audio", Some((url, code))) => {
            msg!("quiz.no_sound_handoff", slug = slug, code = code, url = url)
        }
        (format, None) => msg!("quiz.format_unplayable", slug = slug, format = format),
        (format, Some((url, code))) => msg!(
            "quiz.format_unplayable_handoff",
            slug = slug,
            format = format,
            code = code,
            url = url
        ),
    })
}

/// The owner's screen-out hand-off (URL, code) for a Prolific participant turned away
/// before consent (a full study, a browser that cannot play the clips).
fn screenout_handoff_of(
    fieldwork: &FieldworkSettings,
    pid: &str,
    visitor: &Visitor,
) -> Option<(String, String)> {
    if !fieldwork.has_screenout() {
        return None;
    }
    let ids = HandoffIds {
        participant_id: "",
        prolific_pid: Some(pid),
        study_id: visitor.STUDY_ID.as_deref(),
        session_id: visitor.SESSION_ID.as_deref(),
        completion_code: None,
    };
    screenout_handoff(&fieldwork.handoff, &ids)
}
