//! Wire types of what a participant sees afterwards: the crowd baseline and the reviewed results.

use super::RowKind;
use crate::crowd::CrowdRow;
use crate::kinds::{ReviewDetail, ScoreScale};
use crate::tasks::TaskKind;
use serde::{Deserialize, Serialize};

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
