//! Wire types of taking a quiz: listing quizzes, starting a session, prefaces, headphone checks and
//! answers.

use crate::kinds::explanation::{ExplanationReference, ExplanationScore};
use crate::kinds::{AnswerInput, PromptView};
use crate::survey::SurveyResponse;
use crate::tasks::{CategoryInfo, TaskKind};
use serde::{Deserialize, Serialize};

/// A quiz open to the public, as listed on the home page.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct QuizSummary {
    /// URL slug.
    pub slug: String,
    /// Title.
    pub title: String,
    /// One-paragraph description.
    pub description: String,
    /// Benchmark it belongs to.
    pub benchmark: String,
    /// Task kind.
    pub task_kind: TaskKind,
    /// Items per participant.
    pub batch_size: usize,
    /// Items in the pool.
    pub item_count: usize,
    /// Categories items are balanced over.
    pub categories: Vec<CategoryInfo>,
    /// Participants who finished a batch.
    pub completed_participants: usize,
    /// Share of items (percent, rounded) in the open practice split, whose correct answers
    /// are shown at the end; the rest are hidden test items.
    #[serde(default)]
    pub open_percent: Option<u8>,
    /// Whether someone who finished may take the quiz again (the owner's choice).
    #[serde(default)]
    pub allow_retake: bool,
    /// The owner's participant target is reached: new participants are refused.
    #[serde(default)]
    pub full: bool,
    /// A judging task (ratings, rankings) open by invitation only: starting needs the study
    /// link's `invite` secret.
    #[serde(default)]
    pub invitation_only: bool,
    /// The MIME types of the quiz's sound and video files (`audio/ogg`, `video/mp4`): the
    /// quiz page checks that the browser plays them before consent, as AVMeme Exam's
    /// device requirements ask (filled in on the quiz's own page, empty in lists).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub media_types: Vec<String>,
    /// The protocol of the human-evaluation study a judging task belongs to (`accuracy`,
    /// `cmpm`): the consent page describes that one ([`crate::kinds::Kind::instructions_for`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub study_protocol: Option<String>,
}

/// Prolific-style recruitment ids, recorded when present in the quiz URL.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct RecruitmentIds {
    /// `PROLIFIC_PID`.
    pub prolific_pid: Option<String>,
    /// `STUDY_ID`.
    pub study_id: Option<String>,
    /// `SESSION_ID`.
    pub session_id: Option<String>,
}

/// `POST /api/quizzes/{slug}/sessions`: consent given, survey answered, start a batch.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct StartSessionRequest {
    /// Must be true: the participant accepted the instructions and consent.
    pub consent: bool,
    /// The participant's anonymous id from an earlier quiz, if the browser has one.
    #[serde(default)]
    pub participant_id: Option<String>,
    /// The secret that came with `participant_id` (required to reuse an id: a start naming
    /// an existing participant without its secret is refused with 403).
    #[serde(default)]
    pub participant_secret: Option<String>,
    /// Client-made key of this start (1–128 characters): resending a start with the same key
    /// returns the session it created instead of a second one.
    #[serde(default)]
    pub start_key: Option<String>,
    /// Background survey.
    pub survey: SurveyResponse,
    /// Recruitment-platform ids from the URL.
    #[serde(default)]
    pub recruitment: RecruitmentIds,
    /// The headphone check (required by clip quizzes, ignored by others).
    #[serde(default)]
    pub headphone_check: Option<HeadphoneCheck>,
    /// The invitation secret of an invitation-only study link (also accepted as the
    /// `invite` query parameter).
    #[serde(default)]
    pub invite: Option<String>,
}

/// One item of a participant's batch.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct SessionItem {
    /// 0-based position in the batch.
    pub position: usize,
    /// Item id (needed to answer).
    pub item_id: String,
    /// Category key.
    pub category: String,
    /// Show a content warning first (profanity/offense).
    pub content_warning: bool,
    /// What to show.
    pub prompt: PromptView,
    /// Already answered (no right/wrong is revealed here).
    pub answered: bool,
    /// The stored preface answer (the clip task's familiarity), `None` until given; for
    /// kinds with a preface the question is sent only once it is stored.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub preface: Option<crate::tasks::Familiarity>,
}

/// `POST /api/sessions/{id}/prefaces`: the familiarity answer for one clip, stored before its
/// question is sent (exactly once: a resend of the same answer is accepted, another is refused).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct SubmitPrefaceRequest {
    /// The item.
    pub item_id: String,
    /// Have you seen or heard this before?
    pub familiarity: crate::tasks::Familiarity,
}

/// The item with its question, now that the preface is stored.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct SubmitPrefaceResponse {
    /// True when this repeated an already stored preface.
    pub replayed: bool,
    /// The item as the participant now sees it (question and options included).
    pub item: SessionItem,
}

/// The participant's answers to a headphone screening before a clip quiz (Woods et al. 2017:
/// three tones per trial, one of them quieter, one in antiphase; pick the quietest). The
/// check's tones and their order were drawn and are kept by the server
/// ([`HeadphoneCheckStart`]): the page never knows the right answers, so it cannot score
/// itself. The server scores the answers once, stores the pass (5 of 6 right) and owners may
/// exclude failed participants from the rows.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct HeadphoneCheck {
    /// The check's id, from `POST /api/quizzes/{slug}/headphone-checks`.
    pub id: String,
    /// For each trial in order, the 0-based position (0, 1 or 2) of the tone chosen as the
    /// quietest.
    pub answers: Vec<u8>,
}

/// A fresh headphone check (`POST /api/quizzes/{slug}/headphone-checks`): its random id and
/// the number of trials. Trial `k` (1-based) plays `GET /api/headphone-checks/{id}/sounds/{k}`
/// (three tones in an order drawn by the server); `sounds/0` is the calibration tone.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct HeadphoneCheckStart {
    /// The check's id: a 128-bit random capability.
    pub id: String,
    /// Trials to answer (6).
    pub trials: u8,
}

/// Where a session stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum SessionStatus {
    /// Items remain.
    InProgress,
    /// Every item is recorded.
    Completed,
}

/// A participant's session: enough to render and resume the batch.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct SessionResponse {
    /// Session id (a capability: keep it private).
    pub session_id: String,
    /// Anonymous participant id.
    pub participant_id: String,
    /// Quiz slug.
    pub quiz_slug: String,
    /// Quiz title.
    pub quiz_title: String,
    /// Status.
    pub status: SessionStatus,
    /// The batch, in order.
    pub items: Vec<SessionItem>,
    /// Answers recorded.
    pub answered: usize,
    /// Position of the first unanswered item, if any.
    pub next_position: Option<usize>,
    /// Completion code, once every answer is recorded.
    pub completion_code: Option<String>,
    /// Sent once, in the start response that creates the participant: the secret to keep
    /// with `participant_id` and send when starting later sessions (only a hash is stored).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub participant_secret: Option<String>,
    /// Attention checks of this session, shown before the items they name.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub checks: Vec<crate::fieldwork::SessionCheck>,
    /// Set when the session was ended early (screen-out): where to go, and the code.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub screen_out: Option<crate::fieldwork::ScreenOut>,
    /// Once completed, where the owner sends finished participants (e.g. Prolific).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub redirect_url: Option<String>,
    /// The code that goes with `redirect_url` (Prolific's study code, else the session's).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub redirect_code: Option<String>,
    /// Judging tasks with rater training: the rubric and practice pages that come before the
    /// first item (answered through the answers endpoint under their `practice-N` ids).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub training: Option<crate::human_eval::training::TrainingView>,
}

/// `POST /api/sessions/{id}/answers`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct SubmitAnswerRequest {
    /// The item answered.
    pub item_id: String,
    /// Client-made key; resending the same key returns the first outcome and records nothing new.
    pub idempotency_key: String,
    /// The answer.
    pub answer: AnswerInput,
    /// Milliseconds from showing the question to answering.
    pub response_ms: u64,
}

/// The server's acknowledgement of a recorded answer (no correctness is revealed).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct SubmitAnswerResponse {
    /// Always true: an answer that is not recorded gets an error instead.
    pub recorded: bool,
    /// True when this was a resend of an already recorded answer (same idempotency key).
    pub replayed: bool,
    /// Answers recorded in this session.
    pub answered: usize,
    /// Batch size.
    pub total: usize,
    /// Completion code, present once the last answer is recorded.
    pub completion_code: Option<String>,
    /// For explanations: scores and the reference, sent only after the answer is stored.
    #[serde(default)]
    pub feedback: Option<ExplanationFeedback>,
    /// With the completion: where the owner sends finished participants (the app follows it
    /// after showing the code).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub redirect_url: Option<String>,
    /// The code that goes with `redirect_url`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub redirect_code: Option<String>,
    /// A practice page's answer: the expected answer beside the rater's, sent only now that
    /// the answer is stored.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub practice: Option<crate::human_eval::training::PracticeFeedback>,
    /// Set when this answer ended the session (a practice below the pass mark).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub screen_out: Option<crate::fieldwork::ScreenOut>,
}

/// What a participant sees after their explanation is stored.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ExplanationFeedback {
    /// The reference meaning (open dev items only; `None` when withheld).
    pub reference: Option<ExplanationReference>,
    /// True when the reference is withheld (hidden test item).
    pub gold_withheld: bool,
    /// The server's authoritative score (absent when the model is not installed or busy).
    pub server_score: Option<ExplanationScore>,
    /// Why there is no server score, if there is none.
    pub scoring_error: Option<String>,
    /// Raw cosines of everyone's scored explanations of this meme (sorted, including yours).
    pub crowd_scores: Vec<f64>,
    /// True for hidden test items: the answer is stored and scored, but nothing derived from
    /// the reference (score, crowd scores) is sent now; the score comes with the results.
    #[serde(default)]
    pub scores_with_results: bool,
}
