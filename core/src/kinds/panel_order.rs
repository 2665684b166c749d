//! Multi-panel order recovery (CMPM task 1b): put a comic's shuffled panels back in reading
//! order.
//!
//! Every item has one fixed shuffled display ([`super::panels::fixed_display`]), the same for
//! every participant and in the model inputs, so human and model numbers are comparable; the
//! prompt stores the panels *already in display order*, and only the gold knows which
//! canonical panel each displayed one is. An answer is the reading order as displayed panel
//! numbers (1-based, as in prediction files); it is right when, mapped back to canonical
//! panels, it is a linear extension of the order groups (any order inside a group).

use super::panels::{check_permutation, reads_in_order, PanelContext, Panels, StructureType};
use super::{FieldError, Kind, Presented, ReviewInput, ScoreScale, Scoring, TaskKind};
use crate::tasks::items::MediaRef;
use serde::{Deserialize, Serialize};

/// The kind's marker type.
#[derive(Debug, Clone, Copy)]
pub struct PanelOrder;

/// A comic's panels in display order, with the context the task variant shows.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "PanelOrderPrompt"))]
pub struct Prompt {
    /// Panel images in display order (opaque URLs); displayed panel `k` is `panels[k - 1]`.
    pub panels: Panels,
    /// Text context, in the variants that show it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub context: Option<PanelContext>,
}

/// What the display hides.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "PanelOrderGold"))]
pub struct Gold {
    /// `display[i]`: the 1-based canonical number of the panel shown at position `i`.
    pub display: Vec<usize>,
    /// Order groups over canonical numbers, e.g. `[[1],[2,3],[4]]`.
    pub order_groups: Vec<Vec<usize>>,
    /// The comic's structure type (for per-type board columns; gold of the typing task).
    pub structure: StructureType,
    /// Whether the comic has readers' comments: CMPM's context ablation (Table 6) runs on
    /// these comics only, so the main order task keeps them as the `cas` subset. Public in
    /// itself (the context variants show the comments); kept here because the main task's
    /// prompt carries no context. `false` for items imported before it existed.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub comments_available: bool,
}

/// The comic as a participant sees it (the same for everyone).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "PanelOrderView"))]
pub struct View {
    /// Panel images in display order.
    pub panels: Vec<MediaRef>,
    /// Text context, in the variants that show it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub context: Option<PanelContext>,
}

/// A reading order as sent: displayed panel numbers, 1-based, first panel to read first.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "PanelOrderInput"))]
pub struct Input {
    /// Displayed panel numbers (1-based) in reading order, each once.
    pub order: Vec<usize>,
}

/// The stored reading order (displayed numbers: the display is the same for everyone).
pub type Answer = Input;

/// Right or wrong.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "PanelOrderOutcome"))]
pub struct Outcome {
    /// Whether the order is a valid reading order.
    pub correct: bool,
}

/// A reviewed comic after the batch.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "PanelOrderReview"))]
pub struct Review {
    /// Panels in display order.
    pub panels: Vec<MediaRef>,
    /// The participant's order (displayed numbers).
    pub chosen: Vec<usize>,
    /// Whether it was right; `None` when withheld.
    pub correct: Option<bool>,
    /// The reading order in displayed numbers, grouped (panels of one group may be read in
    /// any order); `None` when withheld.
    pub reading_groups: Option<Vec<Vec<usize>>>,
}

impl Kind for PanelOrder {
    const PAPER_TABLES: &'static [crate::paper_tables::spec::TableSpec] =
        super::tables::panel_order::TABLES;
    const KIND: TaskKind = TaskKind::PanelOrder;
    const KEY: &'static str = "panel_order";
    const SCALE: ScoreScale = ScoreScale::Correctness;
    const INPUT_TAG: &'static str = "order";
    const INSTRUCTIONS: [&'static str; 2] = [
        "Each question shows the panels of a comic in a shuffled order, numbered as shown. Put them back in reading order: tap or click the panels in the order you would read them, or drag them into “your order” (keyboard: Tab to a panel, Enter or Space picks it up, arrow keys move it, Enter or Space drops it). Where some panels can be read in either order, any valid reading order counts as right.",
        "每道题给出一则多格漫画，各格已被打乱，并按显示顺序编号。请把它们恢复成阅读顺序：按你阅读的先后依次点按各格，或把各格拖入“你的顺序”中（键盘：Tab 移到某一格，Enter 或空格拿起，方向键移动，再按 Enter 或空格放下）。有些格子的先后无关紧要，任何合理的阅读顺序都算对。",
    ];

    crate::kind_types_and_wire!(PanelOrder);

    /// The stored display, for everyone (no per-participant shuffle: see the module doc).
    fn present(prompt: &Prompt, _seed: u64, _item_id: &str) -> Presented<View> {
        Presented {
            view: View {
                panels: prompt.panels.clone(),
                context: prompt.context.clone(),
            },
            order: (0..prompt.panels.len()).collect(),
        }
    }

    /// ```
    /// use memeboard_core::kinds::{Kind, panel_order::{Input, PanelOrder, Prompt}};
    /// use memeboard_core::tasks::MediaRef;
    /// let panel = |n: u8| MediaRef { url: format!("/media/{n}.png"), alt: String::new() };
    /// let p = Prompt { panels: vec![panel(1), panel(2), panel(3)], context: None };
    /// assert!(PanelOrder::accept(&p, &[0, 1, 2], Input { order: vec![3, 1, 2] }).is_ok());
    /// let err = PanelOrder::accept(&p, &[0, 1, 2], Input { order: vec![3, 1] }).unwrap_err();
    /// assert_eq!(err.field, "answer.order");
    /// ```
    fn accept(prompt: &Prompt, _order: &[usize], input: Input) -> Result<Answer, FieldError> {
        check_permutation(&input.order, prompt.panels.len()).map_err(|message| FieldError {
            field: "answer.order",
            message,
        })?;
        Ok(input)
    }

    fn score(gold: &Gold, answer: &Answer) -> Scoring<Outcome> {
        Scoring::Scored(Outcome {
            correct: reads_in_order(&gold.display, &gold.order_groups, &answer.order),
        })
    }

    fn primary(outcome: &Outcome) -> f64 {
        super::choice::right_or_wrong(outcome.correct)
    }

    fn correct(outcome: &Outcome) -> Option<bool> {
        Some(outcome.correct)
    }

    /// No single-number chance from the prompt: it depends on the (hidden) order groups; the
    /// board's random-order baseline computes it from gold.
    fn chance(_prompt: &Prompt) -> Option<f64> {
        None
    }

    fn subject(prompt: &Prompt) -> String {
        super::panels::comic_subject(&prompt.panels, prompt.context.as_ref())
    }

    fn review(input: ReviewInput<'_, Self>) -> Review {
        let reading_groups = input.gold.map(|g| {
            g.order_groups
                .iter()
                .map(|group| {
                    group
                        .iter()
                        .filter_map(|c| g.display.iter().position(|d| d == c).map(|i| i + 1))
                        .collect()
                })
                .collect()
        });
        Review {
            panels: input.prompt.panels.clone(),
            chosen: input.answer.order.clone(),
            correct: input
                .gold
                .map(|g| reads_in_order(&g.display, &g.order_groups, &input.answer.order)),
            reading_groups,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn panel(n: usize) -> MediaRef {
        MediaRef {
            url: format!("/media/{n:032x}.png"),
            alt: String::new(),
        }
    }

    fn item() -> (Prompt, Gold) {
        // Canonical 1..4 with groups [[1],[2,3],[4]], shown as 4, 2, 1, 3.
        (
            Prompt {
                panels: (0..4).map(panel).collect(),
                context: None,
            },
            Gold {
                display: vec![4, 2, 1, 3],
                order_groups: vec![vec![1], vec![2, 3], vec![4]],
                structure: StructureType::Narrative,
                comments_available: false,
            },
        )
    }

    #[test]
    fn any_order_inside_a_group_is_right() {
        let (p, g) = item();
        let shown = PanelOrder::present(&p, 7, "x");
        assert_eq!(shown.view.panels, p.panels);
        let score = |order: Vec<usize>| {
            let a = PanelOrder::accept(&p, &shown.order, Input { order }).unwrap();
            match PanelOrder::score(&g, &a) {
                Scoring::Scored(o) => o.correct,
                _ => unreachable!(),
            }
        };
        assert!(score(vec![3, 2, 4, 1])); // canonical 1, 2, 3, 4
        assert!(score(vec![3, 4, 2, 1])); // canonical 1, 3, 2, 4
        assert!(!score(vec![1, 2, 3, 4])); // the display order
        assert!(!score(vec![2, 3, 4, 1])); // 2 before 1
    }

    #[test]
    fn every_participant_sees_the_same_display() {
        let (p, _) = item();
        assert_eq!(
            PanelOrder::present(&p, 1, "a"),
            PanelOrder::present(&p, 2, "a")
        );
    }

    #[test]
    fn a_withheld_review_shows_nothing_derived_from_gold() {
        let (p, g) = item();
        let answer = Input {
            order: vec![3, 2, 4, 1],
        };
        let base = |gold| {
            PanelOrder::review(ReviewInput {
                prompt: &p,
                order: &[0, 1, 2, 3],
                answer: &answer,
                gold,
                outcome: None,
                source_note: None,
            })
        };
        let hidden = base(None);
        assert_eq!(hidden.correct, None);
        assert_eq!(hidden.reading_groups, None);
        assert_eq!(hidden.chosen, vec![3, 2, 4, 1]);
        let shown = base(Some(&g));
        assert_eq!(shown.correct, Some(true));
        assert_eq!(
            shown.reading_groups,
            Some(vec![vec![3], vec![2, 4], vec![1]])
        );
    }
}
