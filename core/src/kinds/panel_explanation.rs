//! Comic explanation (CMPM's free-text task): explain what a multi-panel comic means, panels
//! shown in reading order with the post's title and caption. There is no gold explanation, so
//! answers are never scored automatically: model files and people's explanations are judged by
//! people (rating and ranking studies), and boards show no automatic metric for this kind.
//!
//! Nothing about an item is hidden: its [`Gold`] is empty, and the review shows the comic and
//! what the participant wrote.

use super::panels::{PanelContext, Panels};
use super::{FieldError, Kind, Presented, ReviewInput, ScoreScale, Scoring, TaskKind};
use crate::conditions::ConditionDecl;
use crate::tasks::items::MediaRef;
use serde::{Deserialize, Serialize};

/// Longest accepted quiz answer, in characters (the same bound as meme explanations).
pub const MAX_ANSWER_CHARS: usize = super::free_text::MAX_ANSWER_CHARS;

/// The kind's marker type.
#[derive(Debug, Clone, Copy)]
pub struct PanelExplanation;

/// A comic to explain: panels in reading order, and its title and caption where it has them
/// (readers' comments are left out: the explanation should be the model's or person's own).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "PanelExplanationPrompt"))]
pub struct Prompt {
    /// Panel images in reading order (opaque URLs).
    pub panels: Panels,
    /// Title and caption, when the comic has them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub context: Option<PanelContext>,
}

/// No gold: comic explanations are judged by people only. Stored as `{"kind":
/// "panel_explanation"}` so that the item table's shape stays the same for every kind.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "PanelExplanationGold"))]
pub struct Gold {}

/// What a participant sees: the comic (the prompt itself; nothing is shuffled).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "PanelExplanationView"))]
pub struct View {
    /// Panel images in reading order.
    pub panels: Vec<MediaRef>,
    /// Title and caption, when the comic has them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub context: Option<PanelContext>,
}

/// A free-text explanation of the comic, as sent.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "PanelExplanationInput"))]
pub struct Input {
    /// What the participant wrote (1 to [`MAX_ANSWER_CHARS`] characters).
    pub text: String,
}

/// The stored explanation (trimmed).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "PanelExplanationAnswer"))]
pub struct Answer {
    /// What the participant wrote.
    pub text: String,
}

/// Never produced ([`Kind::score`] answers [`Scoring::Unscored`]); the type exists because
/// every kind names one.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "PanelExplanationOutcome"))]
pub struct Outcome {}

/// A reviewed comic after the batch: the panels and what the participant wrote.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "PanelExplanationReview"))]
pub struct Review {
    /// Panels in reading order.
    pub panels: Vec<MediaRef>,
    /// What the participant wrote.
    pub answer: String,
}

impl Kind for PanelExplanation {
    /// CMPM Table 8: explanations with the post's text and comments, or from the image only.
    const CONDITIONS: &'static [ConditionDecl] = &[ConditionDecl {
        name: "context",
        values: &["full", "image_only"],
        default: "full",
    }];
    const KIND: TaskKind = TaskKind::PanelExplanation;
    const KEY: &'static str = "panel_explanation";
    const STUDY_PROTOCOL: Option<crate::human_eval::protocol::StudyProtocol> =
        Some(crate::human_eval::protocol::StudyProtocol::Cmpm);
    /// Unused: nothing is scored (no per-participant score or hidden mean is ever shown).
    const SCALE: ScoreScale = ScoreScale::Correctness;
    const INPUT_TAG: &'static str = "comic_text";
    const INSTRUCTIONS: [&'static str; 2] = [
        "Each question shows a comic's panels in reading order, with its title and caption. Say in your own words what the comic means and what makes it funny. There is no right answer: explanations are judged by people.",
        "每道题按阅读顺序给出一则多格漫画及其标题和配文。请用自己的话写出这则漫画想表达什么、笑点在哪里。没有标准答案，解读由人工评判。",
    ];

    crate::kind_types_and_wire!(PanelExplanation);

    fn present(prompt: &Prompt, _seed: u64, _item_id: &str) -> Presented<View> {
        Presented {
            view: View {
                panels: prompt.panels.clone(),
                context: prompt.context.clone(),
            },
            order: Vec::new(),
        }
    }

    /// ```
    /// use memeboard_core::kinds::{Kind, panel_explanation::{PanelExplanation, Input, Prompt}};
    /// let p = Prompt { panels: vec![], context: None };
    /// let ok = PanelExplanation::accept(&p, &[], Input { text: " a cat plans, the cake wins ".into() });
    /// assert_eq!(ok.unwrap().text, "a cat plans, the cake wins");
    /// let err = PanelExplanation::accept(&p, &[], Input { text: "\n".into() }).unwrap_err();
    /// assert_eq!(err.to_string(), "`answer.text`: expected 1 to 1000 characters, found 0");
    /// ```
    fn accept(_prompt: &Prompt, _order: &[usize], input: Input) -> Result<Answer, FieldError> {
        Ok(Answer {
            text: super::free_text::accept_text(&input.text)?,
        })
    }

    /// No gold: judged by people only.
    fn score(_gold: &Gold, _answer: &Answer) -> Scoring<Outcome> {
        Scoring::Unscored
    }

    fn primary(_outcome: &Outcome) -> f64 {
        0.0
    }

    fn subject(prompt: &Prompt) -> String {
        super::panels::comic_subject(&prompt.panels, prompt.context.as_ref())
    }

    fn review(input: ReviewInput<'_, Self>) -> Review {
        Review {
            panels: input.prompt.panels.clone(),
            answer: input.answer.text.clone(),
        }
    }
}

/// The comic as a judged subject (panels in reading order, title and caption), for studies
/// built from comic explanation files.
pub fn rated_subject(prompt: &Prompt) -> crate::human_eval::outputs::RatedSubject {
    let context = prompt.context.clone().unwrap_or_default();
    crate::human_eval::outputs::RatedSubject::Comic {
        panels: prompt.panels.iter().map(|p| p.url.clone()).collect(),
        title: context.title,
        caption: context.caption,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kinds::{AnswerInput, ItemGold};

    fn prompt() -> Prompt {
        Prompt {
            panels: vec![MediaRef {
                url: "/media/a.png".into(),
                alt: "a cat".into(),
            }],
            context: Some(PanelContext {
                title: Some("Monday".into()),
                caption: None,
                comments: Vec::new(),
            }),
        }
    }

    #[test]
    fn answers_are_never_scored_and_have_no_chance_level() {
        let answer = PanelExplanation::accept(
            &prompt(),
            &[],
            Input {
                text: "Mondays win".into(),
            },
        )
        .unwrap();
        assert_eq!(
            PanelExplanation::score(&Gold {}, &answer),
            Scoring::Unscored
        );
        assert_eq!(PanelExplanation::chance(&prompt()), None);
        assert_eq!(PanelExplanation::subject(&prompt()), "Monday");
    }

    #[test]
    fn the_view_is_the_prompt_and_the_review_shows_the_answer() {
        let shown = PanelExplanation::present(&prompt(), 7, "x");
        assert_eq!(shown.view.panels, prompt().panels);
        assert_eq!(shown.view.context, prompt().context);
        let review = PanelExplanation::review(ReviewInput {
            prompt: &prompt(),
            order: &[],
            answer: &Answer { text: "t".into() },
            gold: None,
            outcome: None,
            source_note: None,
        });
        assert_eq!(review.answer, "t");
    }

    #[test]
    fn the_empty_gold_and_the_input_have_stable_wire_forms() {
        let gold = serde_json::to_string(&ItemGold::PanelExplanation(Gold {})).unwrap();
        assert_eq!(gold, r#"{"kind":"panel_explanation"}"#);
        let back: ItemGold = serde_json::from_str(&gold).unwrap();
        assert_eq!(back, ItemGold::PanelExplanation(Gold {}));
        let input =
            serde_json::to_string(&AnswerInput::PanelExplanation(Input { text: "x".into() }))
                .unwrap();
        assert_eq!(input, r#"{"kind":"comic_text","text":"x"}"#);
    }

    #[test]
    fn the_subject_keeps_title_and_caption_and_drops_comments() {
        let mut p = prompt();
        p.context = Some(PanelContext {
            title: Some("t".into()),
            caption: Some("c".into()),
            comments: vec!["lol".into()],
        });
        assert_eq!(
            rated_subject(&p),
            crate::human_eval::outputs::RatedSubject::Comic {
                panels: vec!["/media/a.png".into()],
                title: Some("t".into()),
                caption: Some("c".into()),
            }
        );
    }
}
