//! Wire types of the JSON API under `/api/`, shared by the server (which produces them) and
//! the browser app (which consumes them).
//!
//! Types here never carry gold for an unanswered item: gold-bearing fields exist only on
//! [`ResultsResponse`], which the server builds after the whole batch is recorded.

use crate::stats::Estimate;
use crate::survey::SurveyResponse;
use crate::tasks::{CategoryInfo, TaskKind};

pub use crate::kinds::explanation::{ExplanationReference, ExplanationScore};
pub use crate::kinds::{AnswerInput, PromptView, ReviewDetail, ScoreScale};
use serde::{Deserialize, Serialize};

/// The error body of every failed API call:
/// `{"errors":[{"detail":"…","code":"quiz.not_found","params":{"slug":"x"}}]}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "ErrorBody"))]
pub struct ApiErrorBody {
    /// One entry per problem, most important first.
    pub errors: Vec<ErrorDetail>,
}

/// One problem, in words a person can act on, and as a stable code with parameters that
/// clients translate (the codes and their wording: `docs/errors.md`, `crate::messages`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ErrorDetail {
    /// What went wrong (which field, what was expected), in English.
    pub detail: String,
    /// Stable message code, e.g. `quiz.not_found` (empty from servers that predate codes).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub code: String,
    /// The message's parameters by name (an embedded message `name` has its code under
    /// `name` and its own parameters under `name.*`).
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub params: std::collections::BTreeMap<String, String>,
}

impl ErrorDetail {
    /// The wire form of `message` (English `detail`, code, parameters).
    pub fn of(message: &crate::messages::Message) -> Self {
        Self {
            detail: message.to_string(),
            code: message.code().to_owned(),
            params: message.params().clone(),
        }
    }

    /// The text in `locale`: the code's template when known, else `detail` as sent.
    pub fn render(&self, locale: crate::messages::Locale) -> String {
        crate::messages::render(&self.code, &self.params, locale)
            .unwrap_or_else(|| self.detail.clone())
    }
}

impl ApiErrorBody {
    /// A body with a single message.
    pub fn single(message: impl Into<crate::messages::Message>) -> Self {
        Self {
            errors: vec![ErrorDetail::of(&message.into())],
        }
    }

    /// A body with one entry per message, in order.
    pub fn of(messages: &[crate::messages::Message]) -> Self {
        Self {
            errors: messages.iter().map(ErrorDetail::of).collect(),
        }
    }
}

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
    pub checks: Vec<crate::study::SessionCheck>,
    /// Set when the session was ended early (screen-out): where to go, and the code.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub screen_out: Option<crate::study::ScreenOut>,
    /// Once completed, where the owner sends finished participants (e.g. Prolific).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub redirect_url: Option<String>,
    /// The code that goes with `redirect_url` (Prolific's study code, else the session's).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub redirect_code: Option<String>,
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
}

/// A score with its number of answers.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct CategoryScore {
    /// Category key (`None` = overall).
    pub category: Option<String>,
    /// Correct answers, for kinds with right and wrong answers (`None` for similarity
    /// scores, which have no "correct").
    pub correct: Option<usize>,
    /// Scored answers.
    pub answered: usize,
    /// Mean score over the scored answers: an accuracy for [`ScoreScale::Correctness`], a
    /// mean similarity for [`ScoreScale::Similarity`].
    pub mean: f64,
}

/// Crowd statistics for one category (or overall).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
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
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct CrowdStatsResponse {
    /// Quiz slug.
    pub quiz_slug: String,
    /// Participants who finished a batch.
    pub completed_participants: usize,
    /// Overall row first, then one per category in benchmark order.
    pub rows: Vec<CrowdRow>,
    /// The reference level beside the crowd: chance for choice kinds (the mean of
    /// 1 / options over the quiz's items), the random-pair similarity for explanations;
    /// `None` when not known yet.
    pub baseline: Option<BaselineLevel>,
    /// Inter-rater agreement per rated dimension (for choice kinds: the choice, nominal).
    pub agreement: Vec<crate::crowd::AgreementRow>,
}

/// A baseline level and what it is.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct BaselineLevel {
    /// Which baseline.
    pub kind: RowKind,
    /// Its expected score.
    pub value: f64,
}

/// One reviewed item on the results page (sent only after the whole batch is recorded).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ReviewItem {
    /// Position in the batch.
    pub position: usize,
    /// Item id.
    pub item_id: String,
    /// Category key.
    pub category: String,
    /// True for items of a hidden test split: their gold never leaves the server, even after
    /// the batch (otherwise taking the quiz repeatedly would reveal the leaderboard's answers).
    pub gold_withheld: bool,
    /// Share of other completed participants who got this item right: open dev items only,
    /// and only above a minimum number of answers (`None` otherwise).
    pub crowd_accuracy: Option<f64>,
    /// What the item's kind shows: question, answer, and gold where allowed.
    pub detail: ReviewDetail,
}

/// `GET /api/sessions/{id}/results`: available once the batch is complete.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ResultsResponse {
    /// Session id.
    pub session_id: String,
    /// Anonymous participant id.
    pub participant_id: String,
    /// Quiz slug.
    pub quiz_slug: String,
    /// Completion code for recruitment platforms.
    pub completion_code: String,
    /// The quiz's task kind (how to word the scores and reviews).
    pub task_kind: TaskKind,
    /// How the scores read.
    pub scale: ScoreScale,
    /// Answers to hidden test items: recorded for the crowd baseline, but neither scored
    /// nor reviewed here (that would reveal the benchmark's answers).
    pub held_out: usize,
    /// Your score on the open items: overall first, then per category.
    pub you: Vec<CategoryScore>,
    /// The crowd baseline including you.
    pub crowd: CrowdStatsResponse,
    /// Per-item review with the gold answers.
    pub review: Vec<ReviewItem>,
    /// Explanation quizzes: your mean similarity over the batch's hidden test items, rounded
    /// to one decimal (`correct` unused). Hidden items have no per-item score anywhere, and
    /// `you` counts open dev items only, so that repeating the quiz cannot probe the hidden
    /// reference meanings.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hidden_items: Option<CategoryScore>,
    /// Where the owner sends finished participants (e.g. back to Prolific), if anywhere.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub redirect_url: Option<String>,
    /// The code that goes with `redirect_url`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub redirect_code: Option<String>,
}

/// `GET /api/meta`: categories and labels for the UI.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct HealthResponse {
    /// "ok".
    pub status: String,
    /// Storage backend in use (`sqlite` or `postgres`).
    pub database: String,
}

/// `POST /api/authors`: get a submission token (shown once; only its hash is stored).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct CreateAuthorRequest {
    /// Display name of the author or team.
    pub name: String,
    /// Organisation (may be empty).
    #[serde(default)]
    pub organisation: String,
}

/// Daily submission quota of a token.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Quota {
    /// Submissions accepted today (UTC).
    pub used_today: usize,
    /// Daily limit.
    pub daily_limit: usize,
    /// What is left today.
    pub remaining: usize,
}

/// The new token (the only time it is ever shown).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct CreateAuthorResponse {
    /// Author id.
    pub author_id: String,
    /// Name.
    pub name: String,
    /// Organisation.
    pub organisation: String,
    /// Bearer token for uploads: store it now, it cannot be shown again.
    pub token: String,
    /// Quota.
    pub quota: Quota,
}

/// Open or closed model weights.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Weights {
    /// Weights downloadable.
    Open,
    /// API-only or unreleased.
    Closed,
}

/// What a submission says about the model (all user text, rendered inert).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ModelInfo {
    /// Model name.
    pub model_name: String,
    /// Organisation.
    pub organisation: String,
    /// Size, e.g. "7B" (optional).
    pub parameters: Option<String>,
    /// Open or closed weights.
    pub weights: Weights,
    /// Paper or code URL (http/https only).
    pub link: Option<String>,
    /// Free text.
    pub description: String,
}

/// Whether scores are visible yet.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum SubmissionStatus {
    /// Scored and visible.
    Scored,
    /// Stored and scored, but the board is blind until the organisers reveal it.
    Received,
    /// Stored, with no automatic score: the kind has no gold (comic explanations), so the
    /// submission is judged by people only (its row has no scores).
    Unscored,
}

/// Response of an accepted upload (scored in the same request).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct SubmitPredictionsResponse {
    /// Submission id (model page: `/models/{id}`).
    pub submission_id: String,
    /// Task slug.
    pub task: String,
    /// Scored or only received (blind board).
    pub status: SubmissionStatus,
    /// Lines read.
    pub lines: usize,
    /// Non-fatal notes, e.g. missing items scored as wrong (English).
    pub warnings: Vec<String>,
    /// The same notes as codes with parameters, for clients that translate them.
    #[serde(default)]
    pub notes: Vec<ErrorDetail>,
    /// Public-board score overall then per category (absent while blind).
    pub public_scores: Option<Vec<crate::leaderboard::CategoryEstimate>>,
    /// Quota after this upload.
    pub quota: Quota,
}

/// What a board row is, machine-readable, so pages never recognise rows by their label text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum RowKind {
    /// A submitted model.
    Model,
    /// Crowd: mean of per-participant scores.
    HumanAverage,
    /// Crowd: the best participant's score.
    HumanBest,
    /// Crowd: all answers pooled per item.
    HumanPooled,
    /// Expected score of uniformly random answers (1 / options, averaged over items).
    Chance,
    /// Explanations: the similarity of two random reference meanings of the task.
    RandomPair,
    /// Panel order: answering the order the panels are shown in.
    DisplayOrder,
    /// Panel order: one seeded uniformly random order per item, scored like a model.
    RandomOrder,
    /// Structure typing: always the most common type of the scored items.
    MajorityType,
    /// Structure typing: one seeded uniformly random type per item, scored like a model.
    RandomType,
    /// Explanations: the prompt itself (the meme phrase) given as the meaning.
    PromptCopy,
}

/// The three groups of board rows: ranked models, and the reference rows beside them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum RowGroup {
    /// Ranked among each other.
    Model,
    /// Crowd human rows (not ranked among models).
    Human,
    /// Chance and trivial baselines (not ranked among models).
    Baseline,
}

impl RowKind {
    /// The group the row belongs to.
    ///
    /// ```
    /// use memeboard_core::api::{RowGroup, RowKind};
    /// assert_eq!(RowKind::HumanBest.group(), RowGroup::Human);
    /// assert_eq!(RowKind::RandomPair.group(), RowGroup::Baseline);
    /// ```
    pub fn group(self) -> RowGroup {
        match self {
            Self::Model => RowGroup::Model,
            Self::HumanAverage | Self::HumanBest | Self::HumanPooled => RowGroup::Human,
            Self::Chance
            | Self::RandomPair
            | Self::DisplayOrder
            | Self::RandomOrder
            | Self::MajorityType
            | Self::RandomType
            | Self::PromptCopy => RowGroup::Baseline,
        }
    }
}

/// Which half of the test split a board scores.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum BoardSplit {
    /// Public board (always visible).
    Public,
    /// Private board (visible after the organisers reveal it).
    Private,
}

impl BoardSplit {
    /// The stored and serialised key (`public`, `private`).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Public => "public",
            Self::Private => "private",
        }
    }
}

/// One row of a board.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct BoardRow {
    /// What the row is (model, which human row, which baseline).
    pub kind: RowKind,
    /// Display label (model name, "Human average", "Chance").
    pub label: String,
    /// Submission id for model rows.
    pub submission_id: Option<String>,
    /// Model details for model rows.
    pub model: Option<ModelInfo>,
    /// Upload time (ms since epoch) for model rows.
    pub submitted_at: Option<i64>,
    /// Scored, or received only (blind board).
    pub status: SubmissionStatus,
    /// Overall then per category (board's category order); empty while received only.
    pub scores: Vec<crate::leaderboard::CategoryEstimate>,
    /// Participants behind a human row (after the owner's exclusions).
    pub participants: Option<usize>,
    /// Participants behind a human row before exclusions.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub participants_before_exclusions: Option<usize>,
    /// Secondary overall metrics (e.g. rescaled cosine, BERTScore-F1, parse rate), labelled.
    #[serde(default)]
    pub extra: Vec<NamedValue>,
    /// Gold against predicted labels over the board's items (classification kinds).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub confusion: Option<crate::metrics::ConfusionMatrix>,
    /// Warnings about a model row, e.g. `copies_prompt` (most answers repeat the input).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub flags: Vec<String>,
}

/// A labelled number.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct NamedValue {
    /// What it is (e.g. "meaning cosine, rescaled").
    pub name: String,
    /// The value.
    pub value: f64,
    /// Lower end of the item-bootstrap 95% interval, where there is one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ci_low: Option<f64>,
    /// Upper end of the interval.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ci_high: Option<f64>,
    /// Items behind the value, where it covers a subset (boards leave out values over fewer
    /// items than their minimum, as for categories).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub items: Option<usize>,
}

impl NamedValue {
    /// A value without an interval.
    pub fn plain(name: impl Into<String>, value: f64) -> Self {
        Self {
            name: name.into(),
            value,
            ci_low: None,
            ci_high: None,
            items: None,
        }
    }

    /// A value with its interval.
    pub fn estimated(name: impl Into<String>, e: crate::stats::Estimate) -> Self {
        Self {
            name: name.into(),
            value: e.value,
            ci_low: Some(e.ci_low),
            ci_high: Some(e.ci_high),
            items: None,
        }
    }

    /// The same value, saying how many items it covers.
    pub fn over(mut self, items: usize) -> Self {
        self.items = Some(items);
        self
    }
}

/// `GET /api/boards/{task}?split=public|private`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct BoardResponse {
    /// Task slug.
    pub task: String,
    /// Task title.
    pub title: String,
    /// Which board.
    pub split: BoardSplit,
    /// Metric name.
    pub metric: String,
    /// How missing predictions are scored.
    pub missing_policy: String,
    /// Categories (column order after "overall").
    pub categories: Vec<CategoryInfo>,
    /// Test items scored by this board.
    pub items: usize,
    /// Whether the private board is revealed.
    pub private_revealed: bool,
    /// Whether model scores are hidden until reveal.
    pub blind: bool,
    /// Rows, best overall first (received-only rows last).
    pub rows: Vec<BoardRow>,
    /// The item subset shown (`full`, or e.g. `main` = clips not answerable from text alone).
    #[serde(default = "full_subset")]
    pub subset: String,
    /// The subsets this board can show (a switch; empty when the kind has only `full`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub subsets: Vec<String>,
    /// Human accuracy by familiarity group (clip boards), the benchmark's figure.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub familiarity: Vec<FamiliarityRow>,
    /// Which model rows are shown: `best` or `latest` (one per model name, the task owner's
    /// choice) or `all` (every attempt, `?attempts=all`).
    #[serde(default)]
    pub attempts: String,
    /// Model rows left out by `best`/`latest` (other attempts of the same models).
    #[serde(default)]
    pub hidden_attempts: usize,
    /// Whether model rows have an automatic score. `false` for kinds without gold (comic
    /// explanations): rows are listed unscored ("judged by people only"), with no metric,
    /// baseline or crowd score columns.
    #[serde(default = "automatic")]
    pub automatic_metric: bool,
    /// Human evaluation of the board's submissions (studies made from this board): the
    /// human-judged columns, each study's summary and the metric-validity panel; absent when
    /// no study has judgements yet.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub human_eval: Option<crate::human_eval::board::BoardHumanEval>,
}

fn automatic() -> bool {
    true
}

fn full_subset() -> String {
    "full".into()
}

/// Crowd accuracy of the answers given with one familiarity answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct FamiliarityRow {
    /// The group.
    pub familiarity: crate::tasks::Familiarity,
    /// Participants with at least one answer in the group.
    pub participants: usize,
    /// Answers in the group.
    pub answers: usize,
    /// Pooled accuracy with a bootstrap 95% interval (resampling participants and items);
    /// `None` when the group has too few answers to show.
    pub estimate: Option<crate::stats::Estimate>,
}

/// A task that has a board, for the board index and the submit page.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct TaskSummary {
    /// Slug.
    pub slug: String,
    /// Title.
    pub title: String,
    /// Kind.
    pub kind: TaskKind,
    /// Items per split: dev, public test, private test.
    pub dev_items: usize,
    /// Public-board items.
    pub public_items: usize,
    /// Private-board items.
    pub private_items: usize,
    /// Accepted submissions.
    pub submissions: usize,
    /// Categories.
    pub categories: Vec<CategoryInfo>,
}

/// `GET /api/submissions/{id}`: the model page.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct SubmissionDetail {
    /// Withdrawn by its author (on no board).
    #[serde(default)]
    pub withdrawn: bool,
    /// Submission id.
    pub submission_id: String,
    /// Task slug.
    pub task: String,
    /// Model details.
    pub model: ModelInfo,
    /// Upload time (ms since epoch).
    pub submitted_at: i64,
    /// Scored or received.
    pub status: SubmissionStatus,
    /// Lines in the file.
    pub lines: usize,
    /// Items without a prediction (scored as wrong).
    pub missing_items: usize,
    /// Categories.
    pub categories: Vec<CategoryInfo>,
    /// Public-board scores (empty while blind).
    pub public_scores: Vec<crate::leaderboard::CategoryEstimate>,
    /// Private-board scores (empty until revealed).
    pub private_scores: Vec<crate::leaderboard::CategoryEstimate>,
}

/// `GET /api/me`: the token's author, quota and submissions.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct MeResponse {
    /// Author id.
    pub author_id: String,
    /// Name.
    pub name: String,
    /// Organisation.
    pub organisation: String,
    /// Quota.
    pub quota: Quota,
    /// Own submissions, newest first.
    pub submissions: Vec<SubmissionDetail>,
}

/// One item where the model and the crowd disagree (`GET /api/submissions/{id}/items`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ItemGap {
    /// Item id.
    pub item_id: String,
    /// Category.
    pub category: String,
    /// The question (public prompt).
    pub sentence: String,
    /// Model score on the item.
    pub model_score: f64,
    /// Share of crowd answers that were right.
    pub crowd_accuracy: f64,
    /// Crowd answers behind it.
    pub crowd_answers: usize,
    /// crowd_accuracy − model_score.
    pub gap: f64,
}

/// `POST /api/admin/tasks/{task}/board`: board switches (admin token required).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct BoardSettingsRequest {
    /// Reveal the private board.
    pub private_revealed: Option<bool>,
    /// Hide model scores until revealed.
    pub blind: Option<bool>,
    /// Reveal a blind board.
    pub blind_revealed: Option<bool>,
    /// List the task as a public quiz (e.g. open a context-ablation variant).
    #[serde(default)]
    pub quiz_open: Option<bool>,
    /// Leave participants who failed the headphone check out of the human rows (clip tasks).
    #[serde(default)]
    pub exclude_failed_checks: Option<bool>,
    /// Which row per model the board shows by default: `best` (highest overall) or `latest`.
    #[serde(default)]
    pub attempts: Option<BoardAttempts>,
    /// Let participants who finished take the quiz again.
    #[serde(default)]
    pub allow_retake: Option<bool>,
    /// Reveal this task's test gold: tasks whose public inputs show it (e.g. a variant
    /// displaying the shuffled comics in reading order) then offer their items of this
    /// task's test sources too (before, only the others).
    #[serde(default)]
    pub test_gold_revealed: Option<bool>,
}

/// Which of a model's uploads a board shows by default.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum BoardAttempts {
    /// The one with the highest overall score (ties: the latest).
    Best,
    /// The most recent one.
    Latest,
}

impl BoardAttempts {
    /// Storage key.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Best => "best",
            Self::Latest => "latest",
        }
    }
}

/// `DELETE /api/submissions/{id}`: the author's own row is off every board.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct WithdrawResponse {
    /// The submission.
    pub submission_id: String,
    /// Always true.
    pub withdrawn: bool,
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

/// `GET /api/embedding-model`: which sentence-embedding model scores explanations, and where
/// the browser can download its compact copy.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct EmbeddingModelInfo {
    /// Model name (recorded with every score).
    pub name: String,
    /// Whether the server can score (model installed).
    pub server_available: bool,
    /// URL of the browser manifest (`browser.json`: weights file, SHA-256, size, config), if
    /// the compact browser copy is installed.
    pub browser_manifest: Option<String>,
}

/// One column of the raw-data export, as the data dictionary lists it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct DictionaryColumn {
    /// Column name (the CSV header and the JSON Lines key).
    pub name: String,
    /// Value type: `text`, `integer`, `number` or `json` (a JSON array or object: written
    /// as compact JSON text in CSV, as the value itself in JSON Lines). Empty CSV cells and
    /// JSON `null` mean "no value".
    #[serde(rename = "type")]
    pub value_type: String,
    /// What the column holds.
    pub meaning: String,
}

/// `GET /api/owner/tasks/{slug}/export-dictionary`: every column of the answer-level export
/// with its type and meaning, so that released data can be read without the site.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct DataDictionary {
    /// The task the export is for.
    pub task: String,
    /// Columns in file order.
    pub columns: Vec<DictionaryColumn>,
    /// How the files are written and what they do not hold (pseudonyms, exclusions,
    /// rating judgements), one note per line.
    pub notes: Vec<String>,
}

/// `DELETE /api/owner/tasks/{slug}/participants/{who}`: what deleting a participant's data
/// removed (every task of the task's benchmark; crowd rows are recomputed).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct DeleteParticipantResponse {
    /// The pseudonym or Prolific id asked for.
    pub who: String,
    /// Participants it named (a Prolific id may have used several browsers).
    pub participants: usize,
    /// Participant rows removed (those left with no session on the site).
    pub participants_removed: i64,
    /// Sessions removed, with their survey answers, recruitment ids and headphone checks.
    pub sessions: i64,
    /// Answers removed.
    pub answers: i64,
    /// Familiarity answers removed.
    pub prefaces: i64,
    /// Tasks whose data changed (their human rows are recomputed).
    pub tasks: Vec<String>,
}
