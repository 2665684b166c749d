//! The quiz protocol: start a session (consent + survey + balanced batch), serve it without
//! gold, record each answer once, and build results and crowd statistics.
//!
//! By feature: `admission` (refusals known before consent), `start` (new, resumed and resent
//! starts) with `batch` (the balanced batch), `session` (the session as shown, prefaces),
//! `answers`, `practice` (rater training before a judging task's pages), `checks` (attention
//! checks), `results` and `crowd` (crowd statistics). This module holds what several of them read:
//! the quiz and session look-ups, the fieldwork settings and hand-off ids.

mod admission;
mod answers;
mod batch;
mod checks;
mod crowd;
mod practice;
mod results;
mod session;
mod start;

pub use admission::{check as check_admission, Visitor};
pub use answers::{submit_answer, Scorer};
pub use checks::submit_check;
pub(crate) use crowd::item_choices;
pub use crowd::{crowd_stats, warm_crowd_stats};
pub use results::{results, ResultsCaches};
pub use session::{get_session, submit_preface};
pub use start::start_session;

use crate::crowd::quality;
use crate::error::{ApiError, ApiResult};
use crate::storage::{self, QuizRow, SessionRow, Storage};
use memeboard_core::api::QuizSummary;
use memeboard_core::fieldwork::{
    screenout_handoff, ExclusionReason, FieldworkSettings, HandoffIds, ScreenOut,
};
use memeboard_core::msg;
use memeboard_core::tasks::CategoryInfo;

/// Longest accepted idempotency key / recruitment id.
const MAX_KEY_LEN: usize = 128;
/// Seed of the quiz statistics' bootstrap (fixed so the same data always shows the same
/// interval; `memeboard stats --export` uses it too).
pub const BOOTSTRAP_SEED: u64 = 0x6d65_6d65_626f_6172;

fn categories_of(quiz: &QuizRow) -> ApiResult<Vec<CategoryInfo>> {
    Ok(storage::decode_json(
        "tasks.categories_json",
        &quiz.task.categories_json,
    )?)
}

/// Whether a judging task lets one rater judge several batches (the owner's
/// `batches_per_rater`).
fn several_batches(quiz: &QuizRow) -> ApiResult<bool> {
    Ok(quiz.task.task_kind()?.is_judging()
        && crate::crowd::quality::fieldwork_settings(quiz.study_json.as_deref())?.rater_batches()
            > 1)
}

/// The public summary of a quiz.
pub fn summarize(quiz: &QuizRow) -> ApiResult<QuizSummary> {
    Ok(QuizSummary {
        slug: quiz.task.slug.clone(),
        title: quiz.task.title.clone(),
        description: quiz.task.description.clone(),
        benchmark: quiz.benchmark_title.clone(),
        task_kind: quiz.task.task_kind()?,
        batch_size: usize::try_from(quiz.task.batch_size).unwrap_or(0),
        item_count: usize::try_from(quiz.item_count).unwrap_or(0),
        categories: categories_of(quiz)?,
        completed_participants: usize::try_from(quiz.completed_participants).unwrap_or(0),
        open_percent: (quiz.item_count > 0).then(|| {
            u8::try_from((quiz.dev_count * 100 + quiz.item_count / 2) / quiz.item_count)
                .unwrap_or(100)
        }),
        // A rater who may judge several batches starts the next one like a retake.
        allow_retake: quiz.allow_retake || several_batches(quiz)?,
        full: target_reached(quiz)?.is_some(),
        invitation_only: quiz.invite_hash.is_some(),
        media_types: Vec::new(),
        study_protocol: quiz.study_protocol.clone(),
    })
}

/// The quiz page's summary; with `visitor.admission`, the refusal a start by this visitor
/// would get instead, when it is known before consent (see [`admission::check`]).
pub async fn summary_for(
    storage: &Storage,
    slug: &str,
    visitor: &Visitor,
) -> ApiResult<QuizSummary> {
    let quiz = find_quiz(storage, slug).await?;
    if visitor.admission.is_some() {
        admission::check(storage, &quiz, visitor).await?;
    }
    let mut summary = summarize(&quiz)?;
    summary.media_types = storage.task_media_types(&quiz.task.id).await?;
    Ok(summary)
}

/// The quizzes listed on the home page: open tasks except judging tasks (raters come through
/// a study link, never the public list).
pub async fn public_quizzes(storage: &Storage) -> ApiResult<Vec<QuizSummary>> {
    let mut out = Vec::new();
    for quiz in storage.list_open_quizzes().await? {
        let summary = summarize(&quiz)?;
        if !summary.task_kind.is_judging() {
            out.push(summary);
        }
    }
    Ok(out)
}

/// The participant target when the quiz has reached it (completed sessions, see
/// `FieldworkSettings::participant_target`).
fn target_reached(quiz: &QuizRow) -> ApiResult<Option<u32>> {
    let fieldwork = quality::fieldwork_settings(quiz.study_json.as_deref())?;
    Ok(fieldwork
        .participant_target
        .filter(|&t| quiz.completed_sessions >= i64::from(t)))
}

/// The ids a hand-off URL is filled with, from a stored session.
fn handoff_ids(session: &SessionRow) -> HandoffIds<'_> {
    HandoffIds {
        participant_id: &session.participant_id,
        prolific_pid: session.prolific_pid.as_deref(),
        study_id: session.study_id.as_deref(),
        session_id: session.recruitment_session_id.as_deref(),
        completion_code: session.completion_code.as_deref(),
    }
}

/// The fieldwork settings of a session's task.
async fn session_fieldwork(
    storage: &Storage,
    session: &SessionRow,
) -> ApiResult<FieldworkSettings> {
    let json = storage
        .task_quality_switches(&session.task_id)
        .await?
        .and_then(|(json, _)| json);
    quality::fieldwork_settings(json.as_deref())
}

/// The screen-out of a session ended early: reason, redirect and code.
fn screen_out_of(
    session: &SessionRow,
    fieldwork: &FieldworkSettings,
) -> ApiResult<Option<ScreenOut>> {
    let Some(json) = &session.screen_reason else {
        return Ok(None);
    };
    let reason: ExclusionReason = storage::decode_json("sessions.screen_reason", json)?;
    let (redirect_url, code) =
        screenout_handoff(&fieldwork.handoff, &handoff_ids(session)).unwrap_or_default();
    Ok(Some(ScreenOut {
        reason,
        redirect_url,
        code,
    }))
}

/// Finds an open quiz or answers 404 naming the slug.
pub async fn find_quiz(storage: &Storage, slug: &str) -> ApiResult<QuizRow> {
    storage
        .find_open_quiz(slug)
        .await?
        .ok_or_else(|| ApiError::NotFound(msg!("quiz.not_found", slug = slug)))
}

/// Finds a session or answers 404 naming its id.
async fn find_session(storage: &Storage, id: &str) -> ApiResult<SessionRow> {
    storage
        .find_session(id)
        .await?
        .ok_or_else(|| ApiError::NotFound(msg!("session.not_found", id = id)))
}
