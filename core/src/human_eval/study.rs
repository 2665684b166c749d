//! Planning a human-evaluation study from a board: which submissions and which items are
//! judged, how the judging pages are batched, where the planted quality checks go, and which
//! test items the study shows to raters. Pure: the server feeds it the board's submissions,
//! their stored outputs and the source items, and turns the plan into judging tasks.
//!
//! Every judging item gets a random opaque id drawn from the plan's seeded [`SplitMix64`](crate::rng::SplitMix64); no id
//! is derived from a submission id, so nothing a rater's browser receives names a model.

use super::outputs::{ExplainedOutput, RatedSubject, Reference};
use super::statements::AccuracyStatements;
use crate::kinds::rating::Planted;
use crate::predictions::Split;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

mod cut;
mod pick;
mod plan;
mod preview;
pub use super::protocol::StudyProtocol;
pub use plan::*;
pub use preview::*;

/// Most judging pages in one batch (a rater does a whole batch in one sitting).
pub const MAX_BATCH_SIZE: usize = 200;
/// Most raters an owner may ask for per batch.
pub const MAX_RATERS_PER_BATCH: usize = 50;
/// Most source items a study may draw per category.
pub const MAX_ITEMS_PER_CATEGORY: usize = 1000;

/// Which submissions a study judges.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "pick", rename_all = "snake_case")]
pub enum SubmissionPick {
    /// The best `k` by the board's primary score (unscored ones after scored ones, then in
    /// board order).
    Top {
        /// How many.
        k: usize,
    },
    /// Exactly these submissions, in this order.
    Ids {
        /// Submission ids, each on the board once.
        ids: Vec<String>,
    },
}

/// What the owner asks for when creating a study.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct PlanRequest {
    /// The protocol.
    pub protocol: StudyProtocol,
    /// The submissions to judge.
    pub submissions: SubmissionPick,
    /// Source items drawn per category (meme type, comic structure type); a category with
    /// fewer eligible items gives all it has.
    pub items_per_category: usize,
    /// Which split the items come from: `dev` (default) or `test` (invitation-only studies
    /// only, since raters see the test items' gold).
    #[serde(default = "dev_split")]
    pub split: Split,
    /// Whether the study is reached only through its secret link.
    #[serde(default)]
    pub invitation_only: bool,
    /// Judging pages per batch, planted checks included (a rater does one whole batch; see
    /// the planner's rule 4 for how a batch with a planted group is filled).
    pub batch_size: usize,
    /// Raters wanted per batch (the task's target is batches × this).
    pub raters_per_batch: usize,
    /// Whether every rating batch gets planted outputs of known quality (the reference
    /// itself, another item's meaning).
    #[serde(default)]
    pub planted_checks: bool,
    /// Rating batches of one category each (CHIME: batches of 20 memes of one type); see the
    /// planner's rule 4.
    #[serde(default)]
    pub one_category_batches: bool,
    /// All outputs of a subject on one page (CHIME App. C.4: a meme and every model's
    /// explanation of it): batches then hold whole subjects (the planner's rule 4).
    #[serde(default)]
    pub one_page_per_subject: bool,
    /// Seed of the sampling, batching and item ids (the server draws one when the owner
    /// gives none).
    pub seed: u64,
}

fn dev_split() -> Split {
    Split::Dev
}

/// A submission on the board, with the board's primary score (`None` on boards without an
/// automatic metric, such as comic explanations).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BoardSubmission {
    /// Submission id.
    pub id: String,
    /// Primary score on the board (higher is better).
    pub score: Option<f64>,
    /// The submission's stored outputs by source item id.
    pub outputs: BTreeMap<String, ExplainedOutput>,
}

/// An item of the board's task that outputs explain: a meme or a comic.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SourceItem {
    /// Item id in the source task.
    pub id: String,
    /// Category (meme type, comic structure type).
    pub category: String,
    /// Split of the source item.
    pub split: Split,
    /// What the outputs explain.
    pub subject: RatedSubject,
    /// The gold explanation, where the dataset has one (comics have none).
    pub reference: Option<Reference>,
    /// Whether the item has text context (title, caption), so context handling applies.
    pub has_context: bool,
}

/// One rating page: one output of one source item.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PlannedRating {
    /// Random opaque judging-item id.
    pub id: String,
    /// Batch number, from 1.
    pub batch: u32,
    /// The source item judged.
    pub source_item: String,
    /// Its category.
    pub category: String,
    /// Its split.
    pub split: Split,
    /// What the output explains.
    pub subject: RatedSubject,
    /// The reference shown first (accuracy protocol only).
    pub reference: Option<Reference>,
    /// Whether context handling applies (dimension protocol).
    pub has_context: bool,
    /// The output to judge.
    pub output: ExplainedOutput,
    /// The submission that produced it; `None` for a planted output.
    pub submission_id: Option<String>,
    /// Which planted check this is, if any.
    pub planted: Option<Planted>,
}

/// One ranking page: the judged submissions' outputs for one source item (CMPM).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PlannedRanking {
    /// Random opaque judging-item id.
    pub id: String,
    /// Batch number, from 1.
    pub batch: u32,
    /// The source item judged.
    pub source_item: String,
    /// Its category.
    pub category: String,
    /// Its split.
    pub split: Split,
    /// What the outputs explain.
    pub subject: RatedSubject,
    /// Candidates in a seeded random canonical order (the page shuffles again per rater).
    pub candidates: Vec<ExplainedOutput>,
    /// The submission of each candidate, aligned with `candidates`; `None` on a planted
    /// subject's page (its outputs belong to another item, so its ranks count nowhere).
    pub submissions: Vec<Option<String>>,
}

/// The plan of a study: the judging items of its rating task and (CMPM) its ranking task.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StudyPlan {
    /// The protocol.
    pub protocol: StudyProtocol,
    /// Judged submissions, in pick order.
    pub submissions: Vec<String>,
    /// Source items drawn, sorted by id.
    pub source_items: Vec<String>,
    /// Source items drawn per category.
    pub per_category: BTreeMap<String, usize>,
    /// Rating pages, by batch.
    pub ratings: Vec<PlannedRating>,
    /// Rating batches.
    pub rating_batches: u32,
    /// Ranking pages, by batch (CMPM only; empty for accuracy).
    pub rankings: Vec<PlannedRanking>,
    /// Ranking batches.
    pub ranking_batches: u32,
    /// Planted subject groups placed (at most one per rating batch).
    pub planted_groups: u32,
    /// Rating batches left without a planted group because no eligible item outside the
    /// study was left to plant (the owner is told; a plant is never made detectable instead).
    pub unplanted_batches: u32,
    /// Test items whose gold some page shows (sorted); empty unless the study draws test
    /// items, which needs an invitation-only study.
    pub exposed_test_items: Vec<String>,
}

/// Why a study cannot be planned, saying what was expected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PlanError {
    /// The board has no submissions.
    #[error("the board has no submissions to judge; upload explanation predictions first")]
    NoSubmissions,
    /// `Top { k: 0 }` or an empty id list.
    #[error("no submissions picked; expected top k with k ≥ 1 or at least one submission id")]
    NothingPicked,
    /// More submissions asked for than the board has.
    #[error("top {k} asked for but the board has {available} submissions")]
    TooFewSubmissions {
        /// Asked for.
        k: usize,
        /// On the board.
        available: usize,
    },
    /// An explicit id that is not on the board.
    #[error("submission {0} is not on this board")]
    UnknownSubmission(String),
    /// An explicit id given twice.
    #[error("submission {0} is listed twice")]
    DuplicateSubmission(String),
    /// A submission without stored outputs on the study's split.
    #[error(
        "submission {submission} has no stored outputs for the {split} items; only submissions \
         uploaded with their explanations can be judged"
    )]
    NoOutputs {
        /// Submission id.
        submission: String,
        /// The split.
        split: &'static str,
    },
    /// A ranking page needs 2 to 5 candidates.
    #[error("a CMPM study ranks 2 to {max} submissions per page; {picked} picked")]
    RankingSize {
        /// Picked.
        picked: usize,
        /// Most allowed.
        max: usize,
    },
    /// Test items in a public study.
    #[error(
        "a study of test items shows their gold to raters, so it must be invitation-only; \
         use the dev split or make the study invitation-only"
    )]
    TestNeedsInvitation,
    /// A number outside its range.
    #[error("{field} is {value}; expected {min} to {max}")]
    OutOfRange {
        /// Field name.
        field: &'static str,
        /// Given.
        value: usize,
        /// Least allowed.
        min: usize,
        /// Most allowed.
        max: usize,
    },
    /// Too few source items have an output from every picked submission.
    #[error(
        "only {eligible} {split} items have an output from every picked submission{reference}; \
         a study needs at least {min}"
    )]
    TooFewItems {
        /// Eligible items.
        eligible: usize,
        /// The split.
        split: &'static str,
        /// " and a reference" for the accuracy protocol.
        reference: &'static str,
        /// Least needed.
        min: usize,
    },
}

impl PlanError {
    /// The error as a catalogue message (both languages), for API responses.
    pub fn message(&self) -> crate::messages::Message {
        use crate::msg;
        match self {
            Self::NoSubmissions => msg!("study_plan.no_submissions"),
            Self::NothingPicked => msg!("study_plan.nothing_picked"),
            Self::TooFewSubmissions { k, available } => {
                msg!(
                    "study_plan.too_few_submissions",
                    k = k,
                    available = available
                )
            }
            Self::UnknownSubmission(id) => msg!("study_plan.unknown_submission", id = id),
            Self::DuplicateSubmission(id) => msg!("study_plan.duplicate_submission", id = id),
            Self::NoOutputs { submission, split } => {
                msg!("study_plan.no_outputs", id = submission, split = split)
            }
            Self::RankingSize { picked, max } => {
                msg!("study_plan.ranking_size", picked = picked, max = max)
            }
            Self::TestNeedsInvitation => msg!("study_plan.test_needs_invitation"),
            Self::OutOfRange {
                field,
                value,
                min,
                max,
            } => msg!(
                "study_plan.out_of_range",
                field = field,
                value = value,
                min = min,
                max = max
            ),
            Self::TooFewItems {
                eligible,
                split,
                reference,
                min,
            } => msg!(
                "study_plan.too_few_items",
                eligible = eligible,
                split = split,
                min = min
            )
            .with_message(
                "reference",
                if reference.is_empty() {
                    msg!("study_plan.none")
                } else {
                    msg!("study_plan.and_reference")
                },
            ),
        }
    }
}

/// `POST /api/owner/tasks/{slug}/studies`: what an owner asks for when creating a study from
/// an explanation board (the [`PlanRequest`] plus the study's name and quality settings).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct CreateStudyRequest {
    /// URL name of the study (1–50 lower-case letters, digits, hyphens); its tasks are
    /// `<slug>-rate` and (CMPM) `<slug>-rank`.
    pub slug: String,
    /// Title shown to raters (default: "Rate explanations" / "Rank explanations").
    #[serde(default)]
    pub title: Option<String>,
    /// The protocol.
    pub protocol: StudyProtocol,
    /// The submissions to judge.
    pub submissions: SubmissionPick,
    /// Source items per category.
    pub items_per_category: usize,
    /// `dev` (default) or `test` (invitation-only studies only).
    #[serde(default = "dev_split")]
    pub split: Split,
    /// Reached only through a secret link (returned once).
    #[serde(default)]
    pub invitation_only: bool,
    /// Judging pages per batch, planted checks included.
    pub batch_size: usize,
    /// Raters wanted per batch.
    pub raters_per_batch: usize,
    /// Planted outputs of known quality in every rating batch, and raters who judge them the
    /// wrong way round excluded.
    #[serde(default)]
    pub planted_checks: bool,
    /// Minimum time per page (ms); raters faster on any page are excluded.
    #[serde(default)]
    pub min_item_ms: Option<u64>,
    /// Seed of the sample and batches (default: a random one, reported on the study page).
    #[serde(default)]
    pub seed: Option<u64>,
    /// Rating batches of one category each (CHIME App. C.4: batches of 20 memes of one type,
    /// all models' explanations of a meme in its batch); planted groups then come from the
    /// batch's own category.
    #[serde(default)]
    pub one_category_batches: bool,
    /// Accuracy protocol: a page is one meme with every picked model's explanation of it,
    /// the reference once above them (CHIME App. C.4); each explanation's verdicts are still
    /// saved as they are given, and batches hold whole memes. Refused for CMPM studies.
    #[serde(default)]
    pub one_page_per_subject: bool,
    /// Sample by the classes another task of the benchmark gives the same sources (the slug
    /// of the comics' panel-type task: CMPM's 12–13 comics per structure type) instead of the
    /// board's own categories; the pages and tables then carry those classes. Dev split only
    /// (a test item's class is hidden gold).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stratify_by: Option<String>,
    /// The dense design (CMPM §5.3): every rater judges every page of each task, one fixed
    /// batch after another as resumable parts, never the same one twice (the tasks' "batches
    /// one rater may judge" is set to their batch count). Off: each rater judges one batch.
    #[serde(default)]
    pub dense: bool,
    /// Accuracy protocol: the statements raters agree or disagree with, in both languages
    /// (default: the paper's, [`AccuracyStatements::default`]). Refused for CMPM studies.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub statements: Option<AccuracyStatements>,
    /// Rater training: the rubric and practice pages with expected answers before the first
    /// rating page, and an optional pass mark that screens out (the rating task only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub training: Option<super::training::TrainingRequest>,
    /// The error types raters may tag a wrong output with (issue 31; 1 to 12 labels, e.g.
    /// [`paper_error_labels`](super::error_labels::paper_error_labels) for the protocol);
    /// `None`: no tagging. Every rating page of the study carries them, planted ones too.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error_labels: Option<Vec<super::error_labels::ErrorLabel>>,
}

/// One judging task of a study, with the link raters use.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct StudyTaskLink {
    /// Task (quiz) slug.
    pub slug: String,
    /// `rating` or `ranking`.
    pub kind: String,
    /// Judging pages (planted checks included).
    pub items: usize,
    /// Fixed batches.
    pub batches: u32,
    /// Raters wanted: batches × raters per batch (the task's participant target).
    pub raters_target: u32,
    /// The rater link (site path), with the invitation secret when the study is
    /// invitation-only and the secret is known (only in the creation response).
    pub link: String,
    /// The same link with Prolific's URL parameters
    /// (`PROLIFIC_PID={{%PROLIFIC_PID%}}&STUDY_ID={{%STUDY_ID%}}&SESSION_ID={{%SESSION_ID%}}`).
    pub prolific_link: String,
}

/// A rater link of a study's judging task (see [`StudyTaskLink`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct RaterLink {
    /// Task (quiz) slug.
    pub task: String,
    /// The rater link (site path) with the invitation secret.
    pub link: String,
    /// The same link with Prolific's URL parameters.
    pub prolific_link: String,
}

/// `POST /api/owner/studies/{slug}/invitation`: the new invitation of an invitation-only
/// study, shown once like the first (only its hash is stored); the old links stop admitting
/// new raters.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct InvitationResponse {
    /// Study slug.
    pub study: String,
    /// The new secret.
    pub invite: String,
    /// Each judging task's rater links with the new secret.
    pub links: Vec<RaterLink>,
}

/// The answer to creating a study. The invitation secret is in here once and never again
/// (only its hash is stored).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct CreateStudyResponse {
    /// Study slug.
    pub study: String,
    /// The judging tasks (rating; CMPM also ranking).
    pub tasks: Vec<StudyTaskLink>,
    /// The invitation secret (invitation-only studies): keep it, it is not shown again.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub invite: Option<String>,
    /// Judged submissions.
    pub submissions: Vec<String>,
    /// Source items drawn.
    pub source_items: usize,
    /// Test items whose gold raters will see.
    pub exposed_test_items: usize,
    /// Planted quality-check subject groups placed (one per rating batch where possible).
    #[serde(default)]
    pub planted_groups: u32,
    /// Rating batches without a planted group: no eligible item was left outside the study
    /// to plant (draw fewer items per category to plant in every batch).
    #[serde(default)]
    pub unplanted_batches: u32,
    /// The seed used.
    pub seed: u64,
}

/// A judged submission as the study page names it (owners see model names; raters never).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct StudySubmission {
    /// Submission id.
    pub submission_id: String,
    /// Model name.
    pub label: String,
}

/// Progress of one fixed batch.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct BatchProgress {
    /// Batch number.
    pub batch: u32,
    /// Pages in the batch.
    pub items: usize,
    /// Raters who finished it (excluded ones included).
    pub completed: usize,
    /// Raters who finished it and were excluded.
    pub excluded: usize,
}

/// One judging task's progress on the study page.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct StudyTaskProgress {
    /// The task and its link (without the invitation secret).
    pub task: StudyTaskLink,
    /// Per batch.
    pub batches: Vec<BatchProgress>,
}

/// `GET /api/owner/studies/{slug}`: the study page.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct StudyPage {
    /// Study slug.
    pub slug: String,
    /// The board (explanation task) the study judges.
    pub source_task: String,
    /// Protocol.
    pub protocol: StudyProtocol,
    /// When it was created (ms since the Unix epoch).
    pub created_at: i64,
    /// Who created it (`admin` or the owner's name).
    pub created_by: String,
    /// Reached only through the secret link.
    pub invitation_only: bool,
    /// What was asked for.
    pub request: CreateStudyRequest,
    /// Judged submissions.
    pub submissions: Vec<StudySubmission>,
    /// The judging tasks and their progress.
    pub tasks: Vec<StudyTaskProgress>,
    /// Source items drawn.
    pub source_items: usize,
    /// Test items whose gold raters see.
    pub exposed_test_items: Vec<String>,
    /// Raters, exclusions, κ per batch, α per dimension.
    pub summary: super::board::HumanEvalSummary,
    /// The computed tables.
    pub tables: super::board::HumanTables,
    /// Each counted rater's reliability per scale (leave-one-out agreement, planted-check pass
    /// rate, Dawid–Skene competence), sorted by scale, then rater.
    #[serde(default)]
    pub raters: Vec<super::raters::RaterRow>,
    /// The owner's reliability thresholds, applied once to those rows.
    #[serde(default)]
    pub thresholds: super::thresholds::ReliabilityThresholds,
    /// Raters the thresholds leave out of every table, with the thresholds each fails.
    #[serde(default)]
    pub threshold_excluded: Vec<super::thresholds::ExcludedRater>,
    /// CMPM Table 7 per annotator (the raters the quality rules keep, those the thresholds leave
    /// out marked) and the rankings' pairwise win matrix (the raters every table counts).
    #[serde(default)]
    pub cmpm_tables: super::cmpm_tables::CmpmTables,
    /// The error labels' tables (issue 31): error types per model and agreement per label;
    /// absent when the study has no error labels.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error_tables: Option<super::error_tables::ErrorTables>,
}

#[cfg(test)]
mod tests;
