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
use crate::human_eval::outputs::{ExplainedOutput, RatedSubject, Reference};
use crate::human_eval::statements::AccuracyStatements;
use crate::msg;
use serde::{Deserialize, Serialize};

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
    /// the paper's, [`AccuracyStatements::default`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub statements: Option<AccuracyStatements>,
    /// CHIME's page design (App. C.4): this output is shown on one page with the other
    /// outputs of its subject in the rater's batch, the reference once above them all.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub one_page_per_subject: bool,
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
    pub statements: Option<AccuracyStatements>,
    /// Shown on one page with the batch's other outputs of the same subject.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub one_page_per_subject: bool,
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
    },
    /// The five dimension scores (context handling exactly when the comic has context).
    Dimensions {
        /// Scores 1–3.
        scores: DimensionScores,
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
        Answer::Dimensions { scores } => {
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

/// A short name of a rated subject for lists: the meme phrase, or the comic's title.
pub fn subject_name(subject: &RatedSubject) -> String {
    match subject {
        RatedSubject::Meme { phrase } => phrase.clone(),
        RatedSubject::Comic { title, panels, .. } => title
            .clone()
            .unwrap_or_else(|| format!("{} panels", panels.len())),
    }
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
    type Prompt = Prompt;
    type Gold = Gold;
    type View = View;
    type Input = Input;
    type Answer = Answer;
    type Outcome = ();
    type Review = Review;
    const JUDGING: bool = true;

    crate::kind_wire_conversions!(Rating);

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
            },
            order: Vec::new(),
        }
    }

    /// The protocol must be the page's; accuracy verdicts on origin and example exactly when
    /// the output has them; dimension scores 1–3, context handling exactly when it applies.
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
    /// };
    /// let ok = Answer::Accuracy { meaning: Agree, origin: Some(Neutral), example: None };
    /// assert_eq!(Rating::accept(&p, &[], ok.clone()), Ok(ok));
    /// let err = Rating::accept(&p, &[], Answer::Accuracy { meaning: Agree, origin: None, example: None }).unwrap_err();
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

    fn correct(_outcome: &()) -> Option<bool> {
        None
    }

    fn chance(_prompt: &Prompt) -> Option<f64> {
        None
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
mod tests {
    use super::*;
    use crate::human_eval::accuracy::Verdict3::{Agree, Disagree, Neutral};
    use crate::kinds::{AnswerInput, AnswerValue, ItemGold, PromptView};

    fn prompt(protocol: RatingProtocol) -> Prompt {
        Prompt {
            protocol,
            subject: RatedSubject::Comic {
                panels: vec!["/media/a.png".into(), "/media/b.png".into()],
                title: Some("Cat".into()),
                caption: None,
            },
            reference: Some(Reference {
                meaning: "gold meaning".into(),
                origin: None,
                examples: vec![],
            }),
            output: ExplainedOutput {
                meaning: "a cat".into(),
                origin: None,
                example: Some("ex".into()),
            },
            has_context: true,
            statements: None,
            one_page_per_subject: false,
        }
    }

    fn scores(context: Option<u8>) -> DimensionScores {
        DimensionScores {
            visual_correctness: 3,
            panel_coherence: 2,
            humour_comprehension: 1,
            context_handling: context,
            faithfulness: 2,
        }
    }

    #[test]
    fn present_and_accept_round_trip_through_the_wire() {
        let p = prompt(RatingProtocol::Accuracy);
        let shown = Rating::present(&p, 7, "r1");
        assert!(shown.order.is_empty());
        assert_eq!(shown.view.output, p.output);
        assert_eq!(shown.view.reference, p.reference);
        let input = Answer::Accuracy {
            meaning: Agree,
            origin: None,
            example: Some(Disagree),
        };
        let wire = serde_json::to_string(&AnswerInput::Rating(input.clone())).unwrap();
        assert_eq!(
            wire,
            r#"{"kind":"rating","protocol":"accuracy","meaning":"agree","example":"disagree"}"#
        );
        let back: AnswerInput = serde_json::from_str(&wire).unwrap();
        let input = Rating::input_of(back).unwrap();
        let answer = Rating::accept(&p, &shown.order, input.clone()).unwrap();
        assert_eq!(answer, input);
        let stored = serde_json::to_string(&AnswerValue::Rating(answer.clone())).unwrap();
        let read: AnswerValue = serde_json::from_str(&stored).unwrap();
        assert_eq!(Rating::answer_of(read).unwrap(), answer);
        assert_eq!(
            Rating::score(
                &Gold {
                    submission_id: Some("s".into()),
                    source_item: "i".into(),
                    planted: None,
                    batch: 0
                },
                &answer
            ),
            Scoring::Unscored
        );

        let d = prompt(RatingProtocol::Dimensions);
        let answer = Answer::Dimensions {
            scores: scores(Some(3)),
        };
        let wire = serde_json::to_string(&AnswerInput::Rating(answer.clone())).unwrap();
        let back = Rating::input_of(serde_json::from_str(&wire).unwrap()).unwrap();
        assert_eq!(Rating::accept(&d, &[], back), Ok(answer));
    }

    #[test]
    fn refuses_the_wrong_protocol_missing_fields_and_bad_scores() {
        let a = prompt(RatingProtocol::Accuracy);
        let d = prompt(RatingProtocol::Dimensions);
        let dims = |context| Answer::Dimensions {
            scores: scores(context),
        };
        let err = Rating::accept(&a, &[], dims(Some(1))).unwrap_err();
        assert_eq!(err.field, "answer.protocol");
        assert_eq!(
            err.to_string(),
            "`answer.protocol`: this page asks for a `accuracy` rating, found a `dimensions` one"
        );
        // The output has an example but no origin.
        let no_example = Answer::Accuracy {
            meaning: Neutral,
            origin: None,
            example: None,
        };
        assert_eq!(
            Rating::accept(&a, &[], no_example).unwrap_err().field,
            "answer.example"
        );
        let extra_origin = Answer::Accuracy {
            meaning: Neutral,
            origin: Some(Agree),
            example: Some(Agree),
        };
        assert_eq!(
            Rating::accept(&a, &[], extra_origin)
                .unwrap_err()
                .to_string(),
            "`answer.origin`: this output has no origin: leave the origin verdict out"
        );
        assert_eq!(
            Rating::accept(&d, &[], dims(None)).unwrap_err().field,
            "answer.scores.context_handling"
        );
        let mut no_context = d.clone();
        no_context.has_context = false;
        assert!(Rating::accept(&no_context, &[], dims(Some(2))).is_err());
        assert!(Rating::accept(&no_context, &[], dims(None)).is_ok());
        let mut bad = scores(Some(2));
        bad.faithfulness = 4;
        assert_eq!(
            Rating::accept(&d, &[], Answer::Dimensions { scores: bad })
                .unwrap_err()
                .to_string(),
            "`answer.scores`: `faithfulness`: expected a score from 1 to 3, found 4"
        );
        // A missing field in the JSON is refused by the decoder.
        assert!(serde_json::from_str::<AnswerInput>(
            r#"{"kind":"rating","protocol":"dimensions","scores":{"visual_correctness":1}}"#
        )
        .is_err());
        assert!(
            serde_json::from_str::<AnswerInput>(r#"{"kind":"rating","protocol":"accuracy"}"#)
                .is_err()
        );
    }

    #[test]
    fn nothing_sent_to_the_rater_names_the_submission() {
        let p = prompt(RatingProtocol::Accuracy);
        let gold = Gold {
            submission_id: Some("sub-secret-123".into()),
            source_item: "explain-1".into(),
            planted: None,
            batch: 2,
        };
        let view =
            serde_json::to_string(&PromptView::Rating(Rating::present(&p, 1, "x").view)).unwrap();
        let answer = Answer::Accuracy {
            meaning: Agree,
            origin: None,
            example: Some(Agree),
        };
        let review = Rating::review(ReviewInput {
            prompt: &p,
            order: &[],
            answer: &answer,
            gold: Some(&gold),
            outcome: None,
            source_note: None,
        });
        let review = serde_json::to_string(&crate::kinds::ReviewDetail::Rating(review)).unwrap();
        // The browser's tag-first decoder reads both as serde's derived one does.
        assert_eq!(
            crate::kinds::tests::view_tag_first(&view).unwrap(),
            serde_json::from_str::<PromptView>(&view).unwrap()
        );
        assert_eq!(
            crate::kinds::tests::review_tag_first(&review).unwrap(),
            serde_json::from_str::<crate::kinds::ReviewDetail>(&review).unwrap()
        );
        for text in [view, review] {
            assert!(!text.contains("sub-secret-123"), "{text}");
            assert!(!text.contains("explain-1"), "{text}");
        }
        let stored = serde_json::to_string(&ItemGold::Rating(gold)).unwrap();
        assert!(stored.contains(r#""kind":"rating""#));
    }
}
