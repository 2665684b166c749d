//! Wire types of model authors: tokens, quotas, uploads and the model page.

use super::ErrorDetail;
use crate::tasks::CategoryInfo;
use serde::{Deserialize, Serialize};

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
    /// Run conditions (every condition the task declares, defaults filled in; empty for a
    /// task without conditions).
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub conditions: crate::conditions::Conditions,
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
    /// The run conditions recorded for the upload (defaults filled in; empty for a task
    /// without conditions).
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub conditions: crate::conditions::Conditions,
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
    /// The task's kind (pages word its run conditions by it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<crate::tasks::TaskKind>,
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

/// `DELETE /api/submissions/{id}`: the author's own row is off every board.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct WithdrawResponse {
    /// The submission.
    pub submission_id: String,
    /// Always true.
    pub withdrawn: bool,
}
