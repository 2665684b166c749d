//! Wire types of the JSON API under `/api/`, shared by the server (which produces them) and
//! the browser app (which consumes them).
//!
//! Types here never carry gold for an unanswered item: gold-bearing fields exist only on
//! [`ResultsResponse`], which the server builds after the whole batch is recorded.

use crate::stats::Estimate;
use crate::survey::SurveyResponse;
use crate::tasks::{CategoryInfo, TaskKind};
use serde::{Deserialize, Serialize};

/// The error body of every failed API call: `{"errors":[{"detail":"…"}]}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ApiErrorBody {
    /// One entry per problem, most important first.
    pub errors: Vec<ErrorDetail>,
}

/// One problem, in words a person can act on.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ErrorDetail {
    /// What went wrong (which field, what was expected).
    pub detail: String,
}

impl ApiErrorBody {
    /// A body with a single message.
    pub fn single(detail: impl Into<String>) -> Self {
        Self {
            errors: vec![ErrorDetail {
                detail: detail.into(),
            }],
        }
    }
}

/// A quiz open to the public, as listed on the home page.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
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
}

/// Prolific-style recruitment ids, recorded when present in the quiz URL.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
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
#[serde(deny_unknown_fields)]
pub struct StartSessionRequest {
    /// Must be true: the participant accepted the instructions and consent.
    pub consent: bool,
    /// The participant's anonymous id from an earlier quiz, if the browser has one.
    #[serde(default)]
    pub participant_id: Option<String>,
    /// Background survey.
    pub survey: SurveyResponse,
    /// Recruitment-platform ids from the URL.
    #[serde(default)]
    pub recruitment: RecruitmentIds,
}

/// A text MCQ as shown to one participant: options already in their shuffled order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum PromptView {
    /// Fill the blank.
    TextMcq {
        /// The sentence with `_____`.
        sentence: String,
        /// Options in display order.
        options: Vec<String>,
    },
}

/// One item of a participant's batch.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
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
}

/// Where a session stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SessionStatus {
    /// Items remain.
    InProgress,
    /// Every item is recorded.
    Completed,
}

/// A participant's session: enough to render and resume the batch.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
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
}

/// The participant's response to one item, in display terms.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum AnswerInput {
    /// The chosen option's 0-based position *as displayed*.
    Choice {
        /// Display position.
        position: usize,
    },
}

/// `POST /api/sessions/{id}/answers`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
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
}

/// A score with its number of answers.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CategoryScore {
    /// Category key (`None` = overall).
    pub category: Option<String>,
    /// Correct answers.
    pub correct: usize,
    /// Answers.
    pub answered: usize,
    /// correct / answered.
    pub accuracy: f64,
}

/// Crowd statistics for one category (or overall).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CrowdRow {
    /// Category key (`None` = overall).
    pub category: Option<String>,
    /// Participants with at least one answer here.
    pub participants: usize,
    /// Mean of per-participant accuracies, with bootstrap 95% interval.
    pub human_average: Option<Estimate>,
    /// Best per-participant accuracy, with bootstrap 95% interval.
    pub human_best: Option<Estimate>,
    /// All answers pooled (item-level accuracy), with bootstrap 95% interval.
    pub pooled: Option<Estimate>,
}

/// `GET /api/quizzes/{slug}/stats`: the crowd baseline of a quiz (completed batches only).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CrowdStatsResponse {
    /// Quiz slug.
    pub quiz_slug: String,
    /// Participants who finished a batch.
    pub completed_participants: usize,
    /// Overall row first, then one per category in benchmark order.
    pub rows: Vec<CrowdRow>,
    /// Chance accuracy (1 / options).
    pub chance: f64,
    /// Fleiss' kappa over items answered by the same number (≥ 2) of participants, if any.
    pub fleiss_kappa: Option<f64>,
    /// Krippendorff's nominal alpha over all answers (missing allowed), if computable.
    pub krippendorff_alpha: Option<f64>,
}

/// One reviewed item on the results page (sent only after the whole batch is recorded).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ReviewItem {
    /// Position in the batch.
    pub position: usize,
    /// Item id.
    pub item_id: String,
    /// Category key.
    pub category: String,
    /// The sentence.
    pub sentence: String,
    /// Options in the order the participant saw them.
    pub options: Vec<String>,
    /// Display position the participant chose.
    pub chosen_position: usize,
    /// Display position of the correct option; `None` when withheld (see `gold_withheld`).
    pub correct_position: Option<usize>,
    /// Meaning of the correct meme, when known and not withheld.
    pub meaning: Option<String>,
    /// True for items of a hidden test split: their gold never leaves the server, even after
    /// the batch (otherwise taking the quiz repeatedly would reveal the leaderboard's answers).
    pub gold_withheld: bool,
    /// Share of completed participants who got this item right (None if nobody else saw it).
    pub crowd_accuracy: Option<f64>,
}

/// `GET /api/sessions/{id}/results`: available once the batch is complete.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ResultsResponse {
    /// Session id.
    pub session_id: String,
    /// Anonymous participant id.
    pub participant_id: String,
    /// Quiz slug.
    pub quiz_slug: String,
    /// Completion code for recruitment platforms.
    pub completion_code: String,
    /// Your score: overall first, then per category.
    pub you: Vec<CategoryScore>,
    /// The crowd baseline including you.
    pub crowd: CrowdStatsResponse,
    /// Per-item review with the gold answers.
    pub review: Vec<ReviewItem>,
}

/// `GET /api/meta`: categories and labels for the UI.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HealthResponse {
    /// "ok".
    pub status: String,
    /// Storage backend in use (`sqlite` or `postgres`).
    pub database: String,
}
