//! Text multiple choice (CHIME task A): fill the blank in a sentence with one of the memes.
//!
//! Options are stored in canonical order and shown shuffled per participant (seeded by the
//! session, recorded with each answer); answers are stored as canonical indices, so scoring
//! never depends on the display. Chance is 1 / number of options; agreement is nominal on the
//! canonical choice.

use super::{choice, FieldError, Kind, Presented, ReviewInput, ScoreScale, Scoring, TaskKind};
use crate::assign::option_order;
use crate::conditions::ConditionDecl;
use serde::{Deserialize, Serialize};

/// The kind's marker type.
#[derive(Debug, Clone, Copy)]
pub struct TextMcq;

/// A sentence with a blank and its options, in canonical (stored) order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "TextMcqPrompt"))]
pub struct Prompt {
    /// Sentence with the meme masked as `_____`.
    pub sentence: String,
    /// Options in canonical order; shown shuffled per participant.
    pub options: Vec<String>,
}

/// The correct option.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "TextMcqGold"))]
pub struct Gold {
    /// 0-based canonical index of the correct option.
    pub correct: usize,
}

/// The question as one participant sees it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "TextMcqView"))]
pub struct View {
    /// The sentence with `_____`.
    pub sentence: String,
    /// Options in display order.
    pub options: Vec<String>,
}

/// The chosen option, as displayed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "TextMcqInput"))]
pub struct Input {
    /// 0-based display position.
    pub position: usize,
}

/// The chosen option, canonically.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "TextMcqAnswer"))]
pub struct Answer {
    /// 0-based canonical option index.
    pub option: usize,
}

/// Right or wrong.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "TextMcqOutcome"))]
pub struct Outcome {
    /// Whether the chosen option is the correct one.
    pub correct: bool,
}

/// A reviewed question after the batch: what was shown and chosen, and the answer where it
/// may be shown.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "TextMcqReview"))]
pub struct Review {
    /// The sentence.
    pub sentence: String,
    /// Options in the order the participant saw them.
    pub options: Vec<String>,
    /// Display position the participant chose.
    pub chosen_position: usize,
    /// Display position of the correct option; `None` when withheld.
    pub correct_position: Option<usize>,
    /// Whether the participant was right; `None` when withheld.
    pub correct: Option<bool>,
    /// Meaning of the correct meme, when known and not withheld.
    pub meaning: Option<String>,
}

impl Kind for TextMcq {
    const PAPER_TABLES: &'static [crate::paper_tables::spec::TableSpec] =
        super::tables::text_mcq::TABLES;
    /// CHIME Table 5: the MCQ with each option's meaning given to the model.
    const CONDITIONS: &'static [ConditionDecl] = &[ConditionDecl {
        name: "options",
        values: &["labels_only", "with_meanings"],
        default: "labels_only",
    }];
    const KIND: TaskKind = TaskKind::TextMcq;
    const KEY: &'static str = "text_mcq";
    const SCALE: ScoreScale = ScoreScale::Correctness;
    const INPUT_TAG: &'static str = "choice";
    const INSTRUCTIONS: [&'static str; 2] = [
        "Each question shows a Chinese sentence in which one internet meme has been replaced by a blank (_____). Choose, from five options, the meme that fits the blank.",
        "每道题给出一个中文句子，其中一个网络梗被替换为空白（_____）。请从五个选项中选出最适合填入空白处的梗。",
    ];

    crate::kind_types_and_wire!(TextMcq);

    /// Options shuffled by the session seed and the item id (see [`option_order`]).
    fn present(prompt: &Prompt, seed: u64, item_id: &str) -> Presented<View> {
        let order = option_order(seed, item_id, prompt.options.len());
        let options = choice::in_display_order(&order, &prompt.options);
        Presented {
            view: View {
                sentence: prompt.sentence.clone(),
                options,
            },
            order,
        }
    }

    /// ```
    /// use memeboard_core::kinds::{Kind, text_mcq::{Answer, Input, Prompt, TextMcq}};
    /// let p = Prompt { sentence: "_____".into(), options: vec!["a".into(), "b".into(), "c".into()] };
    /// // Shown as c, a, b: display position 0 is canonical option 2.
    /// assert_eq!(TextMcq::accept(&p, &[2, 0, 1], Input { position: 0 }), Ok(Answer { option: 2 }));
    /// assert!(TextMcq::accept(&p, &[2, 0, 1], Input { position: 3 }).is_err());
    /// ```
    fn accept(prompt: &Prompt, order: &[usize], input: Input) -> Result<Answer, FieldError> {
        let option = choice::option_at(order, input.position, prompt.options.len())?;
        Ok(Answer { option })
    }

    fn score(gold: &Gold, answer: &Answer) -> Scoring<Outcome> {
        Scoring::Scored(Outcome {
            correct: answer.option == gold.correct,
        })
    }

    fn primary(outcome: &Outcome) -> f64 {
        choice::right_or_wrong(outcome.correct)
    }

    fn correct(outcome: &Outcome) -> Option<bool> {
        Some(outcome.correct)
    }

    fn choice(answer: &Answer) -> Option<usize> {
        Some(answer.option)
    }

    fn num_choices(prompt: &Prompt) -> Option<usize> {
        Some(prompt.options.len())
    }

    fn subject(prompt: &Prompt) -> String {
        prompt.sentence.clone()
    }

    fn review(input: ReviewInput<'_, Self>) -> Review {
        let shown = choice::ChoiceReview::of(
            input.order,
            input.answer.option,
            input.gold.map(|g| g.correct),
        );
        let options = choice::in_display_order(input.order, &input.prompt.options);
        Review {
            sentence: input.prompt.sentence.clone(),
            options,
            chosen_position: shown.chosen_position,
            correct_position: shown.correct_position,
            correct: shown.correct,
            meaning: input.gold.and(input.source_note).map(str::to_owned),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn prompt() -> Prompt {
        Prompt {
            sentence: "我今天又 _____ 了".into(),
            options: (0..5).map(|i| format!("meme{i}")).collect(),
        }
    }

    #[test]
    fn a_participant_sees_every_option_once_and_answers_map_back() {
        let p = prompt();
        let shown = TextMcq::present(&p, 42, "item-1");
        let mut sorted = shown.view.options.clone();
        sorted.sort();
        assert_eq!(sorted, p.options);
        for position in 0..5 {
            let answer = TextMcq::accept(&p, &shown.order, Input { position }).unwrap();
            assert_eq!(p.options[answer.option], shown.view.options[position]);
        }
    }

    #[test]
    fn a_withheld_review_shows_nothing_derived_from_gold() {
        let p = prompt();
        let order = vec![4, 3, 2, 1, 0];
        let answer = Answer { option: 1 };
        let review = TextMcq::review(ReviewInput {
            prompt: &p,
            order: &order,
            answer: &answer,
            gold: None,
            outcome: None,
            source_note: Some("the meaning"),
        });
        assert_eq!(review.chosen_position, 3);
        assert_eq!(review.correct_position, None);
        assert_eq!(review.correct, None);
        assert_eq!(review.meaning, None);
        let gold = Gold { correct: 1 };
        let shown = TextMcq::review(ReviewInput {
            prompt: &p,
            order: &order,
            answer: &answer,
            gold: Some(&gold),
            outcome: None,
            source_note: Some("the meaning"),
        });
        assert_eq!(shown.correct_position, Some(3));
        assert_eq!(shown.correct, Some(true));
        assert_eq!(shown.meaning.as_deref(), Some("the meaning"));
    }

    #[test]
    fn chance_follows_the_real_number_of_options() {
        let mut p = prompt();
        p.options.push("meme5".into());
        assert_eq!(TextMcq::chance(&p), Some(1.0 / 6.0));
    }
}
