//! Wire types of the leaderboards: rows, their kinds and groups, the board response and its
//! settings.

use super::{ModelInfo, SubmissionStatus};
use crate::crowd::FamiliarityRow;
use crate::tasks::{CategoryInfo, TaskKind};
use serde::{Deserialize, Serialize};

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
    /// A figure a paper published (its model or human row), shown with its citation.
    Published,
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
    /// Figures a paper published, beside the site's own (not ranked, never mixed into the
    /// site's human rows).
    Published,
}

impl RowKind {
    /// Whether the row is the kind's chance level (the expected score of answering at
    /// random), the one a chart draws as its chance line; the other baselines (the display
    /// order, the majority type, a copied prompt, seeded random answers scored like a model)
    /// are rows of their own.
    ///
    /// ```
    /// use memeboard_core::api::RowKind;
    /// assert!(RowKind::Chance.is_chance());
    /// assert!(RowKind::RandomPair.is_chance());
    /// assert!(!RowKind::PromptCopy.is_chance());
    /// assert!(!RowKind::MajorityType.is_chance());
    /// ```
    pub fn is_chance(self) -> bool {
        matches!(self, RowKind::Chance | RowKind::RandomPair)
    }

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
            Self::Published => RowGroup::Published,
        }
    }
}

/// Which half of the test split a board scores, or both together.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum BoardSplit {
    /// Public board (always visible).
    Public,
    /// Private board (visible after the organisers reveal it).
    Private,
    /// The whole test split, both halves together: the figure the papers report (CHIME over
    /// all 1,268 questions, not half of them). Visible only once the private half is
    /// revealed, since before that it would move with the hidden half's gold. Never an
    /// item's half: items belong to `Public` or `Private`.
    Whole,
    /// Every item, open dev items and both test halves: the papers' whole datasets (CHIME's
    /// 1,268 questions include what memeboard keeps as dev). For the benchmark's owners (and
    /// the admin) only, once the private half is revealed: a public board over items whose
    /// gold is downloadable would invite tuning on them.
    All,
}

impl BoardSplit {
    /// The stored and serialised key (`public`, `private`, `whole`, `all`).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Public => "public",
            Self::Private => "private",
            Self::Whole => "whole",
            Self::All => "all",
        }
    }

    /// Whether a test item of board half `item_half` is scored by this view (`Whole` and
    /// `All` score both halves; only `All` scores dev items too, see [`Self::includes_dev`]).
    ///
    /// ```
    /// use memeboard_core::api::BoardSplit;
    /// assert!(BoardSplit::Whole.covers(BoardSplit::Private));
    /// assert!(!BoardSplit::Public.covers(BoardSplit::Private));
    /// assert!(BoardSplit::All.includes_dev() && !BoardSplit::Whole.includes_dev());
    /// ```
    pub fn covers(self, item_half: BoardSplit) -> bool {
        matches!(self, Self::Whole | Self::All) || self == item_half
    }

    /// Whether this view scores the open dev items too.
    pub fn includes_dev(self) -> bool {
        self == Self::All
    }

    /// Whether this view's figures depend on the private half's gold (and so wait for its
    /// reveal).
    pub fn needs_reveal(self) -> bool {
        self != Self::Public
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
    /// Where a published row's figures come from (the paper and its table).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
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
    /// A stable key for the figure (`parse_rate`, `macro_f1`, `sound:song`), so that the
    /// paper tables find it whatever its label says; absent on figures stored before keys.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub key: Option<String>,
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
            key: None,
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
            key: None,
        }
    }

    /// The same value with its stable key.
    pub fn keyed(mut self, key: impl Into<String>) -> Self {
        self.key = Some(key.into());
        self
    }

    /// The same value, saying how many items it covers.
    pub fn over(mut self, items: usize) -> Self {
        self.items = Some(items);
        self
    }
}

/// `GET /api/boards/{task}?split=public|private|whole|all`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct BoardResponse {
    /// Task slug.
    pub task: String,
    /// The task's benchmark (its paper tables are at `/benchmarks/{benchmark}/tables`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub benchmark: Option<String>,
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
    /// The task's kind (pages word its run conditions by it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<TaskKind>,
    /// The run conditions the task's submissions state (model rows carry their values in
    /// `model.conditions`); empty for a kind without conditions.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub conditions: Vec<crate::conditions::ConditionSpec>,
    /// Paired differences between rows of one model that differ in one condition.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub paired: Vec<PairedDifference>,
    /// When the task's uploads were last scored again, and why (newest first, at most five):
    /// figures before and after a corrected gold are not comparable.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rescorings: Vec<Rescoring>,
}

/// One rescoring of a task's uploads (a corrected gold re-imported, or the owner's button).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Rescoring {
    /// When it finished (ms since the epoch).
    pub at: i64,
    /// Why, in the owner's (or the importer's) words.
    pub reason: String,
    /// Uploads scored again.
    pub rescored: u64,
    /// Uploads that could not be (stored before files were kept, or no longer valid).
    pub skipped: u64,
}

/// `POST /api/owner/tasks/{task}/rescore`: score every upload of the task again.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct RescoreRequest {
    /// Why (shown in the board's history), e.g. "gold of 3 items corrected".
    pub reason: String,
}

/// The answer to a [`RescoreRequest`]: started in the background (202); the board's
/// `rescorings` lists it when done.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct RescoreStarted {
    /// The task.
    pub task: String,
    /// The reason as stored.
    pub reason: String,
}

/// How one model's overall score moves when one run condition changes from its default:
/// the row under `to` minus the row under `from`, the other conditions equal. On a half
/// whose gold is revealed (the private board) it comes from the two runs' item scores with a
/// paired item-bootstrap interval (see [`crate::conditions::paired_difference`]); on the
/// public half it is the difference of the two published (rounded) figures, with no
/// interval, so that it says nothing about the hidden gold the figures do not.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct PairedDifference {
    /// Model name.
    pub model: String,
    /// The condition that differs.
    pub condition: String,
    /// Its value in the first run (the condition's default).
    pub from: String,
    /// Its value in the second run.
    pub to: String,
    /// The first run's submission.
    pub from_submission: String,
    /// The second run's submission.
    pub to_submission: String,
    /// Δ = second − first, on the board's metric.
    pub delta: f64,
    /// Lower end of the paired 95% interval (revealed halves only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ci_low: Option<f64>,
    /// Upper end of the interval.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ci_high: Option<f64>,
    /// Items behind the difference.
    pub items: usize,
}

pub(super) fn automatic() -> bool {
    true
}

fn full_subset() -> String {
    "full".into()
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
    /// The run conditions a submission may state (the upload's `conditions`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub conditions: Vec<crate::conditions::ConditionSpec>,
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
