//! Rating (human evaluation): a rater judges one model output — an explanation of a meme or a
//! comic — under one of two protocols. **Accuracy** (CHIME's human evaluation): the rater first
//! reads the reference meaning, origin and examples, then says Disagree / Neutral / Agree to
//! the study's statement on the output's meaning, origin and example (the paper's three by
//! default, `human_eval::statements`). **Dimensions** (CMPM Task 2): five 1–3 scores (visual
//! correctness, panel coherence, humour comprehension, context handling when the comic has
//! context, faithfulness).
//!
//! A rating has no gold answer: [`Kind::score`] is [`Scoring::Unscored`] and the crowd code
//! counts the answers without scoring them. The hidden gold says *which submission* produced
//! the output, so model identity never reaches the browser (it is withheld like any gold).

use super::{FieldError, Kind, Presented, ReviewInput, ScoreScale, Scoring, TaskKind};
use crate::human_eval::accuracy::Verdict3;
use crate::human_eval::dimensions::{DimensionScores, MAX_SCORE, MIN_SCORE};
use crate::human_eval::error_labels::ErrorLabel;
use crate::human_eval::outputs::{ExplainedOutput, RatedSubject, Reference};
use crate::human_eval::statements::AccuracyStatements;
use crate::msg;
use serde::{Deserialize, Serialize};

mod errors;

/// The kind's marker type.
#[derive(Debug, Clone, Copy)]
pub struct Rating;

/// Which questions a rating page asks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum RatingProtocol {
    /// CHIME: reference first, then Disagree / Neutral / Agree per explanation field.
    Accuracy,
    /// CMPM: five 1–3 dimensions (Core4 = the mean of four of them).
    Dimensions,
}

impl RatingProtocol {
    /// The wire name, for messages.
    pub fn key(self) -> &'static str {
        match self {
            Self::Accuracy => "accuracy",
            Self::Dimensions => "dimensions",
        }
    }
}

/// One output to judge (`items.prompt_json`): public, with no model identity.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "RatingPrompt"))]
pub struct Prompt {
    /// The questions asked.
    pub protocol: RatingProtocol,
    /// What the output explains.
    pub subject: RatedSubject,
    /// The reference, read first (accuracy protocol).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reference: Option<Reference>,
    /// The model output (or a planted one of known quality).
    pub output: ExplainedOutput,
    /// Dimensions protocol: whether the comic has text context, so that context handling
    /// applies.
    #[serde(default)]
    pub has_context: bool,
    /// Accuracy protocol: the study's statements (`None`, as stored by earlier versions:
    /// the paper's, [`AccuracyStatements::default`]); boxed, so that a rating page is not
    /// much larger than the other kinds' in the wire enums.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub statements: Option<Box<AccuracyStatements>>,
    /// CHIME's page design (App. C.4): this output is shown on one page with the other
    /// outputs of its subject in the rater's batch, the reference once above them all.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub one_page_per_subject: bool,
    /// The study's error labels (issue 31): what a rater may tag the output with when they
    /// judge it wrong; empty (as stored by earlier versions): no tagging.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub error_labels: Vec<ErrorLabel>,
}

/// An output of known quality planted among the real ones, as a quality check of raters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Planted {
    /// The reference explanation itself: an attentive rater agrees (or scores it well).
    Reference,
    /// Another meme's meaning: an attentive rater disagrees (or scores it poorly).
    OtherMeaning,
}

/// The hidden part of a rating item (`items.gold_json`): where the output came from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "RatingGold"))]
pub struct Gold {
    /// The submission that produced the output; `None` for planted outputs.
    pub submission_id: Option<String>,
    /// Id of the explanation (or comic) item whose output this is.
    pub source_item: String,
    /// Set for planted quality-check outputs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub planted: Option<Planted>,
    /// The fixed batch the item belongs to.
    pub batch: u32,
}

/// What the rater sees: the prompt as is (nothing in it is hidden or shuffled).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "RatingView"))]
pub struct View {
    /// The questions asked.
    pub protocol: RatingProtocol,
    /// What the output explains.
    pub subject: RatedSubject,
    /// The reference, shown first (accuracy protocol).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reference: Option<Reference>,
    /// The output to judge.
    pub output: ExplainedOutput,
    /// Whether context handling is asked (dimensions protocol).
    #[serde(default)]
    pub has_context: bool,
    /// Accuracy protocol: the statements to agree or disagree with (`None`: the paper's).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub statements: Option<Box<AccuracyStatements>>,
    /// Shown on one page with the batch's other outputs of the same subject.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub one_page_per_subject: bool,
    /// The error labels offered once the rater judges the output wrong (empty: none).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub error_labels: Vec<ErrorLabel>,
}

/// One rating page's answers (sent and stored alike: nothing is reordered for display).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "RatingAnswer"))]
#[serde(tag = "protocol", rename_all = "snake_case")]
pub enum Answer {
    /// Accuracy verdicts; origin and example exactly when the output has them.
    Accuracy {
        /// Verdict on the meaning.
        meaning: Verdict3,
        /// Verdict on the origin (outputs with an origin).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        origin: Option<Verdict3>,
        /// Verdict on the example (outputs with an example).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        example: Option<Verdict3>,
        /// Keys of the page's error labels the rater tagged the output with (only when
        /// some verdict is Disagree).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        errors: Vec<String>,
    },
    /// The five dimension scores (context handling exactly when the comic has context).
    Dimensions {
        /// Scores 1–3.
        scores: DimensionScores,
        /// Keys of the page's error labels the rater tagged the output with (only when
        /// some score is 1).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        errors: Vec<String>,
    },
}

impl Answer {
    /// The protocol this answer belongs to.
    pub fn protocol(&self) -> RatingProtocol {
        match self {
            Self::Accuracy { .. } => RatingProtocol::Accuracy,
            Self::Dimensions { .. } => RatingProtocol::Dimensions,
        }
    }

    /// The error labels the rater tagged the output with (keys).
    pub fn errors(&self) -> &[String] {
        match self {
            Self::Accuracy { errors, .. } | Self::Dimensions { errors, .. } => errors,
        }
    }

    /// Whether the rater judged the output wrong, so that it may be tagged: some verdict
    /// Disagree (accuracy), or some dimension scored [`MIN_SCORE`].
    pub fn judged_wrong(&self) -> bool {
        match self {
            Self::Accuracy {
                meaning,
                origin,
                example,
                ..
            } => [Some(*meaning), *origin, *example].contains(&Some(Verdict3::Disagree)),
            Self::Dimensions { scores, .. } => crate::human_eval::dimensions::Dimension::ALL
                .into_iter()
                .any(|d| scores.get(d) == Some(MIN_SCORE)),
        }
    }
}

/// The answer as the browser sends it (same as stored).
pub type Input = Answer;

/// A rated output on the results page: what was judged and the rater's own judgement (there is
/// no right answer to show).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "RatingReview"))]
pub struct Review {
    /// What the output explains.
    pub subject: RatedSubject,
    /// The output.
    pub output: ExplainedOutput,
    /// The rater's judgement.
    pub answer: Answer,
}

/// The field error of a verdict that must be given exactly when the output has the field.
fn verdict_presence(
    field: &'static str,
    name: &str,
    has_field: bool,
    verdict: Option<Verdict3>,
) -> Result<(), FieldError> {
    match (has_field, verdict.is_some()) {
        (true, false) => Err(FieldError {
            field,
            message: msg!("answer.rating_needs", field = name),
        }),
        (false, true) => Err(FieldError {
            field,
            message: msg!("answer.rating_no_field", field = name),
        }),
        _ => Ok(()),
    }
}

/// Checks a rating against the page it answers (see [`Kind::accept`] for [`Rating`]).
fn check(prompt: &Prompt, answer: &Answer) -> Result<(), FieldError> {
    if answer.protocol() != prompt.protocol {
        return Err(FieldError {
            field: "answer.protocol",
            message: msg!(
                "answer.rating_protocol",
                expected = prompt.protocol.key(),
                found = answer.protocol().key()
            ),
        });
    }
    match answer {
        Answer::Accuracy {
            origin, example, ..
        } => {
            errors::check_tags(prompt, answer)?;
            verdict_presence(
                "answer.origin",
                "origin",
                prompt.output.origin.is_some(),
                *origin,
            )?;
            verdict_presence(
                "answer.example",
                "example",
                prompt.output.example.is_some(),
                *example,
            )
        }
        Answer::Dimensions { scores, .. } => {
            errors::check_tags(prompt, answer)?;
            if let Some((dimension, value)) = scores.out_of_range() {
                return Err(FieldError {
                    field: "answer.scores",
                    message: msg!(
                        "answer.dimension_range",
                        dimension = dimension.key(),
                        min = MIN_SCORE,
                        max = MAX_SCORE,
                        found = value
                    ),
                });
            }
            match (prompt.has_context, scores.context_handling.is_some()) {
                (true, false) => Err(FieldError {
                    field: "answer.scores.context_handling",
                    message: msg!("answer.context_needed"),
                }),
                (false, true) => Err(FieldError {
                    field: "answer.scores.context_handling",
                    message: msg!("answer.context_not_applicable"),
                }),
                _ => Ok(()),
            }
        }
    }
}

/// A short name of a rated subject for lists: the meme phrase, or the comic's title
/// ([`RatedSubject::name`], which the ranking kind uses too).
pub fn subject_name(subject: &RatedSubject) -> String {
    subject.name()
}

impl Kind for Rating {
    const KIND: TaskKind = TaskKind::Rating;
    const KEY: &'static str = "rating";
    const SCALE: ScoreScale = ScoreScale::Correctness;
    const INPUT_TAG: &'static str = "rating";
    const INSTRUCTIONS: [&'static str; 2] = [
        "Each page shows a model's explanation of a meme (or a multi-panel comic); you are not told which model wrote it. Accuracy rating: read the reference explanation first, then say whether the model's meaning, origin and example are accurate (Disagree / Neutral / Agree). Dimension rating: score five dimensions from 1 to 3. There are no right or wrong answers: give your honest judgement.",
        "每页给出一个模型对梗（或多格漫画）的解释，不显示是哪个模型写的。准确性评判：先阅读参考解释，再判断模型给出的含义、出处和例句是否准确（不同意 / 中立 / 同意）。维度评判：按五个维度各打 1–3 分。评判没有对错之分，请按你的真实判断作答。",
    ];
    /// A study's raters read only their own protocol (`accuracy`: CHIME's verdicts; `cmpm`:
    /// CMPM's five dimensions); a task made by hand, whose items may mix them, describes both.
    ///
    /// ```
    /// use memeboard_core::kinds::{rating::Rating, Kind};
    /// assert!(Rating::instructions_for(Some("accuracy"))[0].contains("reference explanation"));
    /// assert!(!Rating::instructions_for(Some("accuracy"))[0].contains("five dimensions"));
    /// assert!(Rating::instructions_for(Some("cmpm"))[0].contains("five dimensions"));
    /// assert_eq!(Rating::instructions_for(None), Rating::INSTRUCTIONS);
    /// ```
    fn instructions_for(protocol: Option<&str>) -> [&'static str; 2] {
        match protocol {
            Some("accuracy") => [
                "Each page shows a meme with its reference explanation, then a model's explanation of it; you are not told which model wrote it. Read the reference explanation first, then say whether the model's meaning, origin and example are accurate (Disagree / Neutral / Agree). There are no right or wrong answers: give your honest judgement.",
                "每页先给出一个梗及其参考解释，再给出一个模型对它的解释，不显示是哪个模型写的。请先阅读参考解释，再判断模型给出的含义、出处和例句是否准确（不同意 / 中立 / 同意）。评判没有对错之分，请按你的真实判断作答。",
            ],
            Some("cmpm") => [
                "Each page shows a multi-panel comic and a model's explanation of it; you are not told which model wrote it. Score the explanation on five dimensions from 1 to 3, as the page describes each. There are no right or wrong answers: give your honest judgement.",
                "每页给出一幅多格漫画和一个模型对它的解释，不显示是哪个模型写的。请按页面上的说明，从五个维度各给解释打 1–3 分。评判没有对错之分，请按你的真实判断作答。",
            ],
            _ => Self::INSTRUCTIONS,
        }
    }
    const JUDGING: bool = true;

    crate::kind_types_and_wire!(Rating, ());

    fn present(prompt: &Prompt, _seed: u64, _item_id: &str) -> Presented<View> {
        Presented {
            view: View {
                protocol: prompt.protocol,
                subject: prompt.subject.clone(),
                reference: prompt.reference.clone(),
                output: prompt.output.clone(),
                has_context: prompt.has_context,
                statements: prompt.statements.clone(),
                one_page_per_subject: prompt.one_page_per_subject,
                error_labels: prompt.error_labels.clone(),
            },
            order: Vec::new(),
        }
    }

    /// The protocol must be the page's; accuracy verdicts on origin and example exactly when
    /// the output has them; dimension scores 1–3, context handling exactly when it applies;
    /// error tags only from the page's labels, each once, and only on an output judged wrong
    /// ([`Answer::judged_wrong`]).
    ///
    /// ```
    /// use memeboard_core::human_eval::accuracy::Verdict3::*;
    /// use memeboard_core::human_eval::outputs::{ExplainedOutput, RatedSubject};
    /// use memeboard_core::kinds::rating::{Answer, Prompt, Rating, RatingProtocol};
    /// use memeboard_core::kinds::Kind;
    /// let p = Prompt {
    ///     protocol: RatingProtocol::Accuracy,
    ///     subject: RatedSubject::Meme { phrase: "yyds".into() },
    ///     reference: None,
    ///     output: ExplainedOutput { meaning: "the best".into(), origin: Some("esports".into()), example: None },
    ///     has_context: false,
    ///     statements: None,
    ///     one_page_per_subject: false,
    ///     error_labels: vec![],
    /// };
    /// let ok = Answer::Accuracy { meaning: Agree, origin: Some(Neutral), example: None, errors: vec![] };
    /// assert_eq!(Rating::accept(&p, &[], ok.clone()), Ok(ok));
    /// let err = Rating::accept(&p, &[], Answer::Accuracy { meaning: Agree, origin: None, example: None, errors: vec![] }).unwrap_err();
    /// assert_eq!(err.to_string(), "`answer.origin`: this output has an origin: give a verdict on it");
    /// ```
    fn accept(prompt: &Prompt, _order: &[usize], input: Input) -> Result<Answer, FieldError> {
        check(prompt, &input)?;
        Ok(input)
    }

    /// No gold answer: counted, never scored.
    fn score(_gold: &Gold, _answer: &Answer) -> Scoring<()> {
        Scoring::Unscored
    }

    fn primary(_outcome: &()) -> f64 {
        0.0
    }

    fn subject(prompt: &Prompt) -> String {
        subject_name(&prompt.subject)
    }

    fn review(input: ReviewInput<'_, Self>) -> Review {
        Review {
            subject: input.prompt.subject.clone(),
            output: input.prompt.output.clone(),
            answer: input.answer.clone(),
        }
    }
}

#[cfg(test)]
mod tests;
