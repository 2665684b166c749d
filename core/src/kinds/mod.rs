//! Task kinds as plug-ins: one module per kind, one closed [`TaskKind`] enum, and the wire
//! enums whose variants wrap each kind's own types.
//!
//! A kind says, in one place, everything the generic layers need: its public prompt, hidden
//! gold, what a participant sees ([`Kind::present`]), the answer in display terms (input) and
//! canonical terms (answer), how an answer is scored (a [`Scoring`] outcome), and the review
//! shown after a batch. The quiz protocol, storage, statistics and pages are generic over
//! [`Kind`]; they reach a kind through [`with_kind!`], the only `match` on [`TaskKind`] that
//! dispatches to kind code, so a new kind that is not handled somewhere is a compile error,
//! never a silent fall into another kind's path.
//!
//! # Adding a kind
//! 1. `core/src/kinds/<kind>.rs`: the types (`Prompt`, `Gold`, `View`, `Input`, `Answer`,
//!    `Outcome`, `Review`) and `impl Kind`, whose associated types and wire conversions
//!    `kind_types_and_wire!` declares.
//! 2. One variant in [`TaskKind`], one arm in [`with_kind!`], one variant in each wire enum
//!    below ([`ItemPrompt`], [`ItemGold`], [`AnswerValue`], [`PromptView`], [`AnswerInput`],
//!    [`ReviewDetail`]).
//! 3. The server's and the app's `kinds/<kind>.rs` (see docs/architecture.md).
//!
//! The serde tags of the wire enums are the stored JSON format (`items.prompt_json`,
//! `items.gold_json`, `answers.answer_json`): a newtype variant wrapping a struct serialises
//! exactly like the struct variant it replaced, so rows written by earlier versions decode
//! unchanged.

pub mod capabilities;
pub mod choice;
pub mod clip_mcq;
pub mod explanation;
pub mod free_text;
pub mod panel_explanation;
pub mod panel_order;
pub mod panel_type;
pub mod panels;
pub mod ranking;
pub mod rating;
mod tables;
pub mod text_mcq;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::fmt::Debug;

mod wire;
pub use wire::*;

/// The kinds of task. Closed on purpose: each has a module in `kinds/` and exhaustive
/// dispatch, so adding one is a compile error everywhere it still needs handling.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum TaskKind {
    /// CHIME task A: fill the blank with one of five memes.
    TextMcq,
    /// CHIME task B: explain a meme's meaning in free text (embedding-scored).
    Explanation,
    /// CMPM task 1b: put a comic's shuffled panels back in reading order.
    PanelOrder,
    /// CMPM task 1a: name a comic's structure type.
    PanelType,
    /// AVMeme Exam: a clip, the familiarity question, then a multiple-choice question.
    ClipMcq,
    /// Human evaluation: rate one model output (CHIME accuracy or CMPM dimensions).
    Rating,
    /// Human evaluation: rank 2–5 anonymous explanations of one meme (CMPM), ties allowed.
    Ranking,
    /// CMPM: explain a comic in free text (no gold; judged by people only).
    PanelExplanation,
}

impl TaskKind {
    /// Every kind, in the order pages list them.
    pub const ALL: [TaskKind; 8] = [
        Self::TextMcq,
        Self::Explanation,
        Self::PanelOrder,
        Self::PanelType,
        Self::ClipMcq,
        Self::PanelExplanation,
        Self::Rating,
        Self::Ranking,
    ];

    /// Stable storage key (same as the serde name).
    pub fn as_str(self) -> &'static str {
        crate::with_kind!(self, K => K::KEY)
    }

    /// Parses a storage key.
    ///
    /// ```
    /// use memeboard_core::kinds::TaskKind;
    /// assert_eq!(TaskKind::parse("text_mcq"), Some(TaskKind::TextMcq));
    /// assert_eq!(TaskKind::parse("panel"), None);
    /// ```
    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|k| k.as_str() == s)
    }

    /// Whether tasks of this kind are judging tasks (see [`Kind::JUDGING`]).
    ///
    /// ```
    /// use memeboard_core::kinds::TaskKind;
    /// assert!(TaskKind::Rating.is_judging() && TaskKind::Ranking.is_judging());
    /// assert!(!TaskKind::TextMcq.is_judging());
    /// ```
    pub fn is_judging(self) -> bool {
        crate::with_kind!(self, K => K::JUDGING)
    }

    /// The run conditions submissions of the kind may state ([`Kind::CONDITIONS`]), as sent
    /// on the wire.
    pub fn conditions(self) -> Vec<crate::conditions::ConditionSpec> {
        crate::with_kind!(self, K => K::CONDITIONS.iter().map(|c| c.to_spec()).collect())
    }

    /// The tables of the kind's paper its tasks fill ([`Kind::PAPER_TABLES`]).
    pub fn paper_tables(self) -> &'static [crate::paper_tables::spec::TableSpec] {
        crate::with_kind!(self, K => K::PAPER_TABLES)
    }

    /// The kind's [`Kind::STUDY_PROTOCOL`].
    ///
    /// ```
    /// use memeboard_core::human_eval::study::StudyProtocol;
    /// use memeboard_core::kinds::TaskKind;
    /// assert_eq!(TaskKind::Explanation.study_protocol(), Some(StudyProtocol::Accuracy));
    /// assert_eq!(TaskKind::PanelExplanation.study_protocol(), Some(StudyProtocol::Cmpm));
    /// assert_eq!(TaskKind::TextMcq.study_protocol(), None);
    /// ```
    pub fn study_protocol(self) -> Option<crate::human_eval::protocol::StudyProtocol> {
        crate::with_kind!(self, K => K::STUDY_PROTOCOL)
    }
}

impl std::fmt::Display for TaskKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Runs `$body` with `$K` bound to the [`Kind`] type of `$kind` (a [`TaskKind`]): the one
/// place that maps the enum to kind code. A missing arm is a compile error.
///
/// ```
/// use memeboard_core::kinds::{Kind, TaskKind};
/// use memeboard_core::with_kind;
/// let key = with_kind!(TaskKind::Explanation, K => K::KEY);
/// assert_eq!(key, "explanation");
/// ```
#[macro_export]
macro_rules! with_kind {
    ($kind:expr, $K:ident => $body:expr) => {
        match $kind {
            $crate::kinds::TaskKind::TextMcq => {
                type $K = $crate::kinds::text_mcq::TextMcq;
                $body
            }
            $crate::kinds::TaskKind::Explanation => {
                type $K = $crate::kinds::explanation::Explanation;
                $body
            }
            $crate::kinds::TaskKind::PanelOrder => {
                type $K = $crate::kinds::panel_order::PanelOrder;
                $body
            }
            $crate::kinds::TaskKind::PanelType => {
                type $K = $crate::kinds::panel_type::PanelType;
                $body
            }
            $crate::kinds::TaskKind::ClipMcq => {
                type $K = $crate::kinds::clip_mcq::ClipMcq;
                $body
            }
            $crate::kinds::TaskKind::Rating => {
                type $K = $crate::kinds::rating::Rating;
                $body
            }
            $crate::kinds::TaskKind::Ranking => {
                type $K = $crate::kinds::ranking::Ranking;
                $body
            }
            $crate::kinds::TaskKind::PanelExplanation => {
                type $K = $crate::kinds::panel_explanation::PanelExplanation;
                $body
            }
        }
    };
}

/// A stored or sent value belonged to another kind than the code expected (for example a
/// text answer sent for a choice item).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("expected a `{expected}` {what}, found a `{found}` one")]
pub struct KindMismatch {
    /// What was being read ("prompt", "gold", "answer"…).
    pub what: &'static str,
    /// The kind the code expected.
    pub expected: &'static str,
    /// The tag that was found.
    pub found: &'static str,
}

/// An answer refused before it is stored, naming the field and what was expected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{field}`: {message}")]
pub struct FieldError {
    /// JSON path of the field, e.g. `answer.position`.
    pub field: &'static str,
    /// What was expected and what was found.
    pub message: crate::messages::Message,
}

impl FieldError {
    /// The whole problem as one message: "`answer.position`: …".
    pub fn to_message(&self) -> crate::messages::Message {
        crate::msg!("field.problem", field = self.field)
            .with_message("problem", self.message.clone())
    }
}

/// The outcome of scoring one answer against gold.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum Scoring<O> {
    /// Scored here, at once.
    Scored(O),
    /// Needs more than plain data (e.g. the embedding model on the server); scored later.
    Pending,
    /// The kind has no gold (e.g. ratings): never scored, still counted.
    Unscored,
}

/// How a kind's primary per-item score reads, so generic pages word it right.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum ScoreScale {
    /// 1 right / 0 wrong; averages are accuracies ("7 / 10 correct").
    Correctness,
    /// A similarity in [-1, 1] (cosine); averages are mean similarities, not accuracies.
    Similarity,
}

/// What a participant is shown for one item, and how the display maps to canonical terms.
#[derive(Debug, Clone, PartialEq)]
pub struct Presented<V> {
    /// The view (options already in the participant's order).
    pub view: V,
    /// `order[display position] = canonical index` (empty for kinds without options).
    pub order: Vec<usize>,
}

/// Everything a kind's review needs. Gold is `None` when it is withheld (hidden test split):
/// a review must then show nothing derived from it.
pub struct ReviewInput<'a, K: Kind> {
    /// The stored prompt.
    pub prompt: &'a K::Prompt,
    /// The participant's display order.
    pub order: &'a [usize],
    /// The recorded answer.
    pub answer: &'a K::Answer,
    /// Gold, when it may be shown.
    pub gold: Option<&'a K::Gold>,
    /// The scoring outcome, when there is one and it may be shown.
    pub outcome: Option<&'a K::Outcome>,
    /// Extra reference text from the item's source (a meme's meaning), shown with the gold.
    pub source_note: Option<&'a str>,
}

/// One task kind: its types and the pure functions every generic layer calls.
pub trait Kind: Sized + 'static {
    /// The enum value.
    const KIND: TaskKind;
    /// Storage key and serde name (`text_mcq`…).
    const KEY: &'static str;
    /// How the primary score reads.
    const SCALE: ScoreScale;
    /// The `kind` tag of this kind's [`AnswerInput`] (`choice`, `text`), for error messages.
    const INPUT_TAG: &'static str;
    /// What the participant will do, shown on the consent page before they agree: English,
    /// then Chinese (the app's consent card and the server's first paint of it).
    const INSTRUCTIONS: [&'static str; 2];
    /// [`Kind::INSTRUCTIONS`] for a task of a human-evaluation study run under `protocol`
    /// (`accuracy`, `cmpm`), for kinds whose task depends on it; by default the same.
    fn instructions_for(_protocol: Option<&str>) -> [&'static str; 2] {
        Self::INSTRUCTIONS
    }

    /// Public part of an item (`items.prompt_json`); may be shown to anyone.
    type Prompt: Serialize + DeserializeOwned + Clone + Debug + PartialEq;
    /// Hidden part of an item (`items.gold_json`).
    type Gold: Serialize + DeserializeOwned + Clone + Debug + PartialEq;
    /// What one participant sees.
    type View: Serialize + DeserializeOwned + Clone + Debug + PartialEq;
    /// The participant's answer in display terms (what the browser sends).
    type Input: Serialize + DeserializeOwned + Clone + Debug + PartialEq;
    /// The answer in canonical terms (`answers.answer_json`).
    type Answer: Serialize + DeserializeOwned + Clone + Debug + PartialEq;
    /// The outcome of scoring one answer.
    type Outcome: Serialize + DeserializeOwned + Clone + Debug + PartialEq;
    /// The per-item review after a finished batch.
    type Review: Serialize + DeserializeOwned + Clone + Debug + PartialEq;

    /// Unwraps this kind's prompt from the wire enum.
    fn prompt_of(p: ItemPrompt) -> Result<Self::Prompt, KindMismatch>;
    /// Unwraps this kind's gold.
    fn gold_of(g: ItemGold) -> Result<Self::Gold, KindMismatch>;
    /// Unwraps this kind's input.
    fn input_of(i: AnswerInput) -> Result<Self::Input, KindMismatch>;
    /// Unwraps this kind's stored answer.
    fn answer_of(a: AnswerValue) -> Result<Self::Answer, KindMismatch>;
    /// Unwraps this kind's view from the wire (the browser's side).
    fn view_of(v: PromptView) -> Result<Self::View, KindMismatch>;
    /// Unwraps this kind's review from the wire (the browser's side).
    fn review_of(r: ReviewDetail) -> Result<Self::Review, KindMismatch>;
    /// Wraps a prompt for storage.
    fn wire_prompt(p: Self::Prompt) -> ItemPrompt;
    /// Wraps gold for storage.
    fn wire_gold(g: Self::Gold) -> ItemGold;
    /// Wraps a view for the wire.
    fn wire_view(v: Self::View) -> PromptView;
    /// Wraps an answer for storage.
    fn wire_answer(a: Self::Answer) -> AnswerValue;
    /// Wraps a review for the wire.
    fn wire_review(r: Self::Review) -> ReviewDetail;

    /// How the item is shown to the participant whose session seed is `seed`.
    fn present(prompt: &Self::Prompt, seed: u64, item_id: &str) -> Presented<Self::View>;
    /// Checks an input against what was shown and turns it into canonical terms.
    fn accept(
        prompt: &Self::Prompt,
        order: &[usize],
        input: Self::Input,
    ) -> Result<Self::Answer, FieldError>;
    /// Scores an answer against gold.
    fn score(gold: &Self::Gold, answer: &Self::Answer) -> Scoring<Self::Outcome>;
    /// The outcome as one number (`answers.score`), averaged by crowd rows.
    fn primary(outcome: &Self::Outcome) -> f64;
    /// Whether the outcome counts as correct, for kinds with right and wrong answers (`None`,
    /// the default, for the others: free text, judging).
    fn correct(_outcome: &Self::Outcome) -> Option<bool> {
        None
    }
    /// The canonical choice, for nominal agreement (kinds whose answers are choices).
    fn choice(_answer: &Self::Answer) -> Option<usize> {
        None
    }
    /// Number of choices of an item (agreement categories and chance), if it has choices.
    fn num_choices(_prompt: &Self::Prompt) -> Option<usize> {
        None
    }
    /// Expected score of a uniformly random answer, if the kind has one.
    fn chance(prompt: &Self::Prompt) -> Option<f64> {
        Self::num_choices(prompt)
            .filter(|&n| n > 0)
            .map(|n| 1.0 / n as f64)
    }
    /// Whether [`Kind::eligible`] depends on the item (the assignment then reads prompts).
    const FILTERS_BY_SURVEY: bool = false;
    /// The check a session starts with, if any (clips with sound: the headphone check).
    const PRE_CHECK: Option<capabilities::PreCheck> = None;
    /// Whether the kind is a judging task (people judge model outputs; no gold): fixed
    /// batches, one participation per rater, no prediction files, not listed publicly.
    const JUDGING: bool = false;
    /// The human-evaluation protocol a board of this kind is judged with in a study
    /// (`human_eval::study`): meme explanations by CHIME accuracy ratings, comic explanations
    /// by CMPM dimension ratings and rankings; `None` for kinds whose outputs are not
    /// explanations.
    const STUDY_PROTOCOL: Option<crate::human_eval::protocol::StudyProtocol> = None;
    /// The preface question the kind asks before an item's own question (the clip task's
    /// familiarity check), whose answer must be stored before the question is sent.
    const PREFACE: Option<&'static dyn capabilities::Preface<Self>> = None;
    /// The run conditions a submission of the kind may state (the papers' settings compared
    /// on one model, see [`crate::conditions`]); none by default.
    const CONDITIONS: &'static [crate::conditions::ConditionDecl] = &[];
    /// The tables of the kind's paper that its tasks fill (the paper-tables page, see
    /// `memeboard_core::paper_tables`); none by default.
    const PAPER_TABLES: &'static [crate::paper_tables::spec::TableSpec] = &[];
    /// Whether the item may be assigned to a participant with this survey (the clip task:
    /// clips in their native language and clips without language).
    fn eligible(_prompt: &Self::Prompt, _survey: &crate::survey::SurveyResponse) -> bool {
        true
    }
    /// The text that names the item in lists (a sentence, a meme phrase).
    fn subject(prompt: &Self::Prompt) -> String;
    /// The review of one answered item.
    fn review(input: ReviewInput<'_, Self>) -> Self::Review;
}

/// Declares a kind's seven associated types and implements the wire conversions of [`Kind`],
/// for a kind whose variant is `$variant` in every wire enum (used inside each kind's
/// `impl Kind`). The types are the kind module's own `Prompt`, `Gold`, `View`, `Input`,
/// `Answer`, `Outcome` and `Review` (every kind names them so); a kind whose outcome is
/// another type names it second.
#[macro_export]
#[doc(hidden)]
macro_rules! kind_types_and_wire {
    ($variant:ident) => {
        $crate::kind_types_and_wire!($variant, Outcome);
    };
    ($variant:ident, $outcome:ty) => {
        type Prompt = Prompt;
        type Gold = Gold;
        type View = View;
        type Input = Input;
        type Answer = Answer;
        type Outcome = $outcome;
        type Review = Review;

        fn prompt_of(
            p: $crate::kinds::ItemPrompt,
        ) -> Result<Self::Prompt, $crate::kinds::KindMismatch> {
            match p {
                $crate::kinds::ItemPrompt::$variant(p) => Ok(p),
                #[allow(unreachable_patterns)]
                other => Err($crate::kinds::KindMismatch {
                    what: "prompt",
                    expected: Self::KEY,
                    found: other.kind().as_str(),
                }),
            }
        }
        fn gold_of(g: $crate::kinds::ItemGold) -> Result<Self::Gold, $crate::kinds::KindMismatch> {
            match g {
                $crate::kinds::ItemGold::$variant(g) => Ok(g),
                #[allow(unreachable_patterns)]
                other => Err($crate::kinds::KindMismatch {
                    what: "gold",
                    expected: Self::KEY,
                    found: other.kind().as_str(),
                }),
            }
        }
        fn input_of(
            i: $crate::kinds::AnswerInput,
        ) -> Result<Self::Input, $crate::kinds::KindMismatch> {
            match i {
                $crate::kinds::AnswerInput::$variant(i) => Ok(i),
                #[allow(unreachable_patterns)]
                other => Err($crate::kinds::KindMismatch {
                    what: "answer",
                    expected: Self::KEY,
                    found: other.kind().as_str(),
                }),
            }
        }
        fn answer_of(
            a: $crate::kinds::AnswerValue,
        ) -> Result<Self::Answer, $crate::kinds::KindMismatch> {
            match a {
                $crate::kinds::AnswerValue::$variant(a) => Ok(a),
                #[allow(unreachable_patterns)]
                other => Err($crate::kinds::KindMismatch {
                    what: "stored answer",
                    expected: Self::KEY,
                    found: other.kind().as_str(),
                }),
            }
        }
        fn view_of(
            v: $crate::kinds::PromptView,
        ) -> Result<Self::View, $crate::kinds::KindMismatch> {
            match v {
                $crate::kinds::PromptView::$variant(v) => Ok(v),
                #[allow(unreachable_patterns)]
                other => Err($crate::kinds::KindMismatch {
                    what: "view",
                    expected: Self::KEY,
                    found: other.kind().as_str(),
                }),
            }
        }
        fn review_of(
            r: $crate::kinds::ReviewDetail,
        ) -> Result<Self::Review, $crate::kinds::KindMismatch> {
            match r {
                $crate::kinds::ReviewDetail::$variant(r) => Ok(r),
                #[allow(unreachable_patterns)]
                other => Err($crate::kinds::KindMismatch {
                    what: "review",
                    expected: Self::KEY,
                    found: other.kind().as_str(),
                }),
            }
        }
        fn wire_prompt(p: Self::Prompt) -> $crate::kinds::ItemPrompt {
            $crate::kinds::ItemPrompt::$variant(p)
        }
        fn wire_gold(g: Self::Gold) -> $crate::kinds::ItemGold {
            $crate::kinds::ItemGold::$variant(g)
        }
        fn wire_view(v: Self::View) -> $crate::kinds::PromptView {
            $crate::kinds::PromptView::$variant(v)
        }
        fn wire_answer(a: Self::Answer) -> $crate::kinds::AnswerValue {
            $crate::kinds::AnswerValue::$variant(a)
        }
        fn wire_review(r: Self::Review) -> $crate::kinds::ReviewDetail {
            $crate::kinds::ReviewDetail::$variant(r)
        }
    };
}

/// Scores a stored answer against stored gold of any kind, as one number: `Ok(Some(x))`
/// scored, `Ok(None)` scored later or never (see [`Scoring`]), `Err` when the two belong to
/// different kinds.
///
/// ```
/// use memeboard_core::kinds::{score_stored, text_mcq, AnswerValue, ItemGold};
/// let gold = ItemGold::TextMcq(text_mcq::Gold { correct: 4 });
/// let right = AnswerValue::TextMcq(text_mcq::Answer { option: 4 });
/// let wrong = AnswerValue::TextMcq(text_mcq::Answer { option: 0 });
/// assert_eq!(score_stored(gold.clone(), right), Ok(Some(1.0)));
/// assert_eq!(score_stored(gold, wrong), Ok(Some(0.0)));
/// ```
pub fn score_stored(gold: ItemGold, answer: AnswerValue) -> Result<Option<f64>, KindMismatch> {
    crate::with_kind!(gold.kind(), K => {
        let gold = K::gold_of(gold)?;
        let answer = K::answer_of(answer)?;
        Ok(match K::score(&gold, &answer) {
            Scoring::Scored(o) => Some(K::primary(&o)),
            Scoring::Pending | Scoring::Unscored => None,
        })
    })
}

#[cfg(test)]
mod tests;
