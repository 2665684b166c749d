//! Multi-panel structure typing (CMPM task 1a): name a comic's structure type (narrative,
//! progressive, conversational, parallel, comparison), panels shown in canonical order.
//!
//! The five types are shown in their fixed benchmark order with a one-line description each
//! (a typology reads best in one order); the answer is the label itself, and agreement is
//! nominal over the five labels. Chance is 1/5.

use super::panels::{PanelContext, Panels, StructureType};
use super::{FieldError, Kind, Presented, ReviewInput, ScoreScale, Scoring, TaskKind};
use crate::tasks::items::MediaRef;
use serde::{Deserialize, Serialize};

/// The kind's marker type.
#[derive(Debug, Clone, Copy)]
pub struct PanelType;

/// A comic's panels in canonical order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "PanelTypePrompt"))]
pub struct Prompt {
    /// Panel images in reading order (opaque URLs).
    pub panels: Panels,
    /// Text context, in the variants that show it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub context: Option<PanelContext>,
}

/// The structure type.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "PanelTypeGold"))]
pub struct Gold {
    /// The annotated type.
    pub structure: StructureType,
}

/// The comic and the five types to choose from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "PanelTypeView"))]
pub struct View {
    /// Panel images in reading order.
    pub panels: Vec<MediaRef>,
    /// Text context, in the variants that show it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub context: Option<PanelContext>,
    /// The choices, in the benchmark's order.
    pub types: Vec<StructureType>,
}

/// The chosen type.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "PanelTypeInput"))]
pub struct Input {
    /// One of the five labels.
    pub structure: StructureType,
}

/// The stored type (labels need no display mapping).
pub type Answer = Input;

/// Right or wrong.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "PanelTypeOutcome"))]
pub struct Outcome {
    /// Whether the type is the annotated one.
    pub correct: bool,
}

/// A reviewed comic after the batch.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "PanelTypeReview"))]
pub struct Review {
    /// Panels in reading order.
    pub panels: Vec<MediaRef>,
    /// The participant's choice.
    pub chosen: StructureType,
    /// The annotated type; `None` when withheld.
    pub gold: Option<StructureType>,
    /// Whether the participant was right; `None` when withheld.
    pub correct: Option<bool>,
}

impl Kind for PanelType {
    const PAPER_TABLES: &'static [crate::paper_tables::spec::TableSpec] =
        super::tables::panel_type::TABLES;
    const KIND: TaskKind = TaskKind::PanelType;
    const KEY: &'static str = "panel_type";
    const SCALE: ScoreScale = ScoreScale::Correctness;
    const INPUT_TAG: &'static str = "structure";
    const INSTRUCTIONS: [&'static str; 2] = [
        "Each question shows the panels of a comic in reading order. Say which structure it has: narrative, progressive, conversational, parallel or comparison (each comes with a description and an example).",
        "每道题按阅读顺序给出一则多格漫画。请判断它属于哪种结构：叙事、递进、对话、并列或对比（每种类型都附有说明和例子）。",
    ];

    crate::kind_types_and_wire!(PanelType);

    fn present(prompt: &Prompt, _seed: u64, _item_id: &str) -> Presented<View> {
        Presented {
            view: View {
                panels: prompt.panels.clone(),
                context: prompt.context.clone(),
                types: StructureType::ALL.to_vec(),
            },
            order: (0..StructureType::ALL.len()).collect(),
        }
    }

    fn accept(_prompt: &Prompt, _order: &[usize], input: Input) -> Result<Answer, FieldError> {
        Ok(input)
    }

    fn score(gold: &Gold, answer: &Answer) -> Scoring<Outcome> {
        Scoring::Scored(Outcome {
            correct: gold.structure == answer.structure,
        })
    }

    fn primary(outcome: &Outcome) -> f64 {
        super::choice::right_or_wrong(outcome.correct)
    }

    fn correct(outcome: &Outcome) -> Option<bool> {
        Some(outcome.correct)
    }

    fn choice(answer: &Answer) -> Option<usize> {
        Some(answer.structure.index())
    }

    fn num_choices(_prompt: &Prompt) -> Option<usize> {
        Some(StructureType::ALL.len())
    }

    fn subject(prompt: &Prompt) -> String {
        super::panels::comic_subject(&prompt.panels, prompt.context.as_ref())
    }

    fn review(input: ReviewInput<'_, Self>) -> Review {
        Review {
            panels: input.prompt.panels.clone(),
            chosen: input.answer.structure,
            gold: input.gold.map(|g| g.structure),
            correct: input.gold.map(|g| g.structure == input.answer.structure),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn prompt() -> Prompt {
        Prompt {
            panels: vec![MediaRef {
                url: "/media/a.png".into(),
                alt: String::new(),
            }],
            context: None,
        }
    }

    #[test]
    fn labels_score_and_chance_is_one_in_five() {
        let gold = Gold {
            structure: StructureType::Comparison,
        };
        let answer = |structure| PanelType::accept(&prompt(), &[], Input { structure }).unwrap();
        assert_eq!(
            PanelType::score(&gold, &answer(StructureType::Comparison)),
            Scoring::Scored(Outcome { correct: true })
        );
        assert_eq!(
            PanelType::score(&gold, &answer(StructureType::Parallel)),
            Scoring::Scored(Outcome { correct: false })
        );
        assert_eq!(PanelType::chance(&prompt()), Some(0.2));
        assert_eq!(PanelType::present(&prompt(), 1, "x").view.types.len(), 5);
    }

    #[test]
    fn a_withheld_review_shows_nothing_derived_from_gold() {
        let answer = Input {
            structure: StructureType::Narrative,
        };
        let review = PanelType::review(ReviewInput {
            prompt: &prompt(),
            order: &[],
            answer: &answer,
            gold: None,
            outcome: None,
            source_note: None,
        });
        assert_eq!((review.gold, review.correct), (None, None));
    }

    #[test]
    fn inputs_are_the_labels_on_the_wire() {
        let json = serde_json::to_string(&super::super::AnswerInput::PanelType(Input {
            structure: StructureType::Parallel,
        }))
        .unwrap();
        assert_eq!(json, r#"{"kind":"structure","structure":"parallel"}"#);
    }
}
