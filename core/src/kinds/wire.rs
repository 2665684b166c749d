//! The wire enums over every kind (prompts, gold, stored answers, views, inputs, reviews), with one
//! variant per kind, their `kind()` and the browser's tag-first decoder.

use super::{
    clip_mcq, explanation, panel_explanation, panel_order, panel_type, ranking, rating, text_mcq,
    Kind, TaskKind,
};
use serde::{Deserialize, Serialize};
use std::fmt::Debug;

/// The public part of an item: what a participant or model sees. Never contains gold.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ItemPrompt {
    /// Fill the blank (text MCQ): [`text_mcq::Prompt`].
    TextMcq(text_mcq::Prompt),
    /// Explain the meme: [`explanation::Prompt`].
    Explanation(explanation::Prompt),
    /// Panel order: [`panel_order::Prompt`].
    PanelOrder(panel_order::Prompt),
    /// Structure type: [`panel_type::Prompt`].
    PanelType(panel_type::Prompt),
    /// Clip question: [`clip_mcq::Prompt`].
    ClipMcq(clip_mcq::Prompt),
    /// One output to rate: [`rating::Prompt`].
    Rating(rating::Prompt),
    /// Explanations to rank: [`ranking::Prompt`].
    Ranking(ranking::Prompt),
    /// Comic explanation: [`panel_explanation::Prompt`].
    PanelExplanation(panel_explanation::Prompt),
}

/// The hidden part of an item. Stays on the server (see the kind's review for what a finished
/// batch may show). Tags are the stored format of earlier versions.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "kind")]
pub enum ItemGold {
    /// Text MCQ: [`text_mcq::Gold`].
    #[serde(rename = "choice")]
    TextMcq(text_mcq::Gold),
    /// Explanation: [`explanation::Gold`].
    #[serde(rename = "explanation")]
    Explanation(explanation::Gold),
    /// Panel order: [`panel_order::Gold`].
    #[serde(rename = "panel_order")]
    PanelOrder(panel_order::Gold),
    /// Structure type: [`panel_type::Gold`].
    #[serde(rename = "panel_type")]
    PanelType(panel_type::Gold),
    /// Clip question: [`clip_mcq::Gold`].
    #[serde(rename = "clip_mcq")]
    ClipMcq(clip_mcq::Gold),
    /// Rating: which submission wrote the output, [`rating::Gold`].
    #[serde(rename = "rating")]
    Rating(rating::Gold),
    /// Ranking: which submission wrote each candidate, [`ranking::Gold`].
    #[serde(rename = "ranking")]
    Ranking(ranking::Gold),
    /// Comic explanation: nothing ([`panel_explanation::Gold`]).
    #[serde(rename = "panel_explanation")]
    PanelExplanation(panel_explanation::Gold),
}

/// A recorded answer in canonical terms (independent of display shuffling).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "kind")]
pub enum AnswerValue {
    /// Text MCQ: the canonical option, [`text_mcq::Answer`].
    #[serde(rename = "choice")]
    TextMcq(text_mcq::Answer),
    /// Explanation: the text, [`explanation::Answer`].
    #[serde(rename = "text")]
    Explanation(explanation::Answer),
    /// Panel order: displayed numbers in reading order, [`panel_order::Answer`].
    #[serde(rename = "order")]
    PanelOrder(panel_order::Answer),
    /// Structure type: the label, [`panel_type::Answer`].
    #[serde(rename = "structure")]
    PanelType(panel_type::Answer),
    /// Clip question: the canonical option and the play count, [`clip_mcq::Answer`].
    #[serde(rename = "clip_choice")]
    ClipMcq(clip_mcq::Answer),
    /// Rating: verdicts or dimension scores, [`rating::Answer`].
    #[serde(rename = "rating")]
    Rating(rating::Answer),
    /// Ranking: one rank per canonical candidate, [`ranking::Answer`].
    #[serde(rename = "ranking")]
    Ranking(ranking::Answer),
    /// Comic explanation: the text, [`panel_explanation::Answer`].
    #[serde(rename = "comic_text")]
    PanelExplanation(panel_explanation::Answer),
}

/// An item as shown to one participant (options already in their order). Never gold.
// The browser app decodes it with `tag_first_deserialize!` (below).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum PromptView {
    /// Fill the blank, options in the participant's order: [`text_mcq::View`].
    TextMcq(text_mcq::View),
    /// Explain the meme in your own words: [`explanation::View`].
    Explanation(explanation::View),
    /// Put the panels in reading order: [`panel_order::View`].
    PanelOrder(panel_order::View),
    /// Name the structure type: [`panel_type::View`].
    PanelType(panel_type::View),
    /// A clip, then (after the familiarity answer) its question: [`clip_mcq::View`].
    ClipMcq(clip_mcq::View),
    /// The reference (when shown), then the output to rate: [`rating::View`].
    Rating(rating::View),
    /// Explanations to rank, in the rater's order: [`ranking::View`].
    Ranking(ranking::View),
    /// Explain the comic in your own words: [`panel_explanation::View`].
    PanelExplanation(panel_explanation::View),
}

/// The participant's response to one item, in display terms.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "kind")]
pub enum AnswerInput {
    /// Text MCQ: the displayed position chosen, [`text_mcq::Input`].
    #[serde(rename = "choice")]
    TextMcq(text_mcq::Input),
    /// Explanation: the text written, [`explanation::Input`].
    #[serde(rename = "text")]
    Explanation(explanation::Input),
    /// Panel order: [`panel_order::Input`].
    #[serde(rename = "order")]
    PanelOrder(panel_order::Input),
    /// Structure type: [`panel_type::Input`].
    #[serde(rename = "structure")]
    PanelType(panel_type::Input),
    /// Clip question: the displayed position and the play count, [`clip_mcq::Input`].
    #[serde(rename = "clip_choice")]
    ClipMcq(clip_mcq::Input),
    /// Rating: verdicts or dimension scores, [`rating::Input`].
    #[serde(rename = "rating")]
    Rating(rating::Input),
    /// Ranking: one rank per displayed candidate, [`ranking::Input`].
    #[serde(rename = "ranking")]
    Ranking(ranking::Input),
    /// Comic explanation: the text written, [`panel_explanation::Input`].
    #[serde(rename = "comic_text")]
    PanelExplanation(panel_explanation::Input),
}

/// The kind-specific part of a reviewed item on the results page.
// The browser app decodes it with `tag_first_deserialize!` (below).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ReviewDetail {
    /// Text MCQ review: [`text_mcq::Review`].
    TextMcq(text_mcq::Review),
    /// Explanation review: [`explanation::Review`].
    Explanation(explanation::Review),
    /// Panel order review: [`panel_order::Review`].
    PanelOrder(panel_order::Review),
    /// Structure type review: [`panel_type::Review`].
    PanelType(panel_type::Review),
    /// Clip question review: [`clip_mcq::Review`].
    ClipMcq(clip_mcq::Review),
    /// Rating review: [`rating::Review`].
    Rating(rating::Review),
    /// Ranking review: [`ranking::Review`].
    Ranking(ranking::Review),
    /// Comic explanation review: [`panel_explanation::Review`].
    PanelExplanation(panel_explanation::Review),
}

macro_rules! kind_of {
    ($ty:ident) => {
        impl $ty {
            /// The task kind of this value.
            pub fn kind(&self) -> TaskKind {
                match self {
                    Self::TextMcq(_) => TaskKind::TextMcq,
                    Self::Explanation(_) => TaskKind::Explanation,
                    Self::PanelOrder(_) => TaskKind::PanelOrder,
                    Self::PanelType(_) => TaskKind::PanelType,
                    Self::ClipMcq(_) => TaskKind::ClipMcq,
                    Self::Rating(_) => TaskKind::Rating,
                    Self::Ranking(_) => TaskKind::Ranking,
                    Self::PanelExplanation(_) => TaskKind::PanelExplanation,
                }
            }
        }
    };
}
/// Decodes an internally tagged wire enum (`{"kind": "<tag>", ...fields}`) reading the tag
/// as the first field, as serde writes it, then handing the rest of the same map to the
/// variant's own decoder. Why: serde's derived decoding of `#[serde(tag = "kind")]` buffers
/// the whole object into its generic `Content` tree and decodes every variant a second time
/// from there, which cost the browser's quiz bundle about 46 KB of code (issue 12's 350 KB
/// budget). The browser app uses this decoder (wasm32); native builds (the server, tools)
/// keep serde's derived one, which also accepts the tag in any position. The JSON is the
/// same either way; `tests::tag_first_decoding_matches_the_derived_one` checks both agree.
///
/// Example: `{"kind":"rating","protocol":"accuracy",...}` reads `"rating"`, then decodes
/// `{"protocol":"accuracy",...}` as a [`rating::View`] into `PromptView::Rating`.
macro_rules! tag_first_deserialize {
    ($ty:ident { $($tag:literal => $variant:ident($inner:ty)),* $(,)? }) => {
        impl $ty {
            /// Decodes the value with its `"kind"` tag first (see [`tag_first_deserialize!`]).
            #[cfg_attr(not(any(target_arch = "wasm32", test)), allow(dead_code))]
            pub(super) fn deserialize_tag_first<'de, D: serde::Deserializer<'de>>(
                deserializer: D,
            ) -> Result<Self, D::Error> {
                struct TagFirst;
                impl<'de> serde::de::Visitor<'de> for TagFirst {
                    type Value = $ty;
                    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                        f.write_str(concat!("a ", stringify!($ty), " object"))
                    }
                    fn visit_map<A: serde::de::MapAccess<'de>>(
                        self,
                        mut map: A,
                    ) -> Result<$ty, A::Error> {
                        use serde::de::Error as _;
                        if map.next_key::<String>()?.as_deref() != Some("kind") {
                            return Err(A::Error::custom(concat!(
                                stringify!($ty),
                                ": expected the \"kind\" tag as the first field"
                            )));
                        }
                        let tag: String = map.next_value()?;
                        let rest = serde::de::value::MapAccessDeserializer::new(map);
                        match tag.as_str() {
                            $($tag => <$inner as Deserialize>::deserialize(rest).map($ty::$variant),)*
                            other => Err(A::Error::unknown_variant(other, &[$($tag),*])),
                        }
                    }
                }
                deserializer.deserialize_map(TagFirst)
            }
        }
        #[cfg(target_arch = "wasm32")]
        impl<'de> Deserialize<'de> for $ty {
            fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                Self::deserialize_tag_first(deserializer)
            }
        }
    };
}
tag_first_deserialize!(PromptView {
    "text_mcq" => TextMcq(text_mcq::View),
    "explanation" => Explanation(explanation::View),
    "panel_order" => PanelOrder(panel_order::View),
    "panel_type" => PanelType(panel_type::View),
    "clip_mcq" => ClipMcq(clip_mcq::View),
    "rating" => Rating(rating::View),
    "ranking" => Ranking(ranking::View),
    "panel_explanation" => PanelExplanation(panel_explanation::View),
});
tag_first_deserialize!(ReviewDetail {
    "text_mcq" => TextMcq(text_mcq::Review),
    "explanation" => Explanation(explanation::Review),
    "panel_order" => PanelOrder(panel_order::Review),
    "panel_type" => PanelType(panel_type::Review),
    "clip_mcq" => ClipMcq(clip_mcq::Review),
    "rating" => Rating(rating::Review),
    "ranking" => Ranking(ranking::Review),
    "panel_explanation" => PanelExplanation(panel_explanation::Review),
});

kind_of!(ItemPrompt);
kind_of!(ItemGold);

/// What shared layers ask of a gold without matching on its variants (a wildcard arm there
/// would let a new kind pass unnoticed; see the architecture test).
impl ItemGold {
    /// An explanation item's reference meaning and origin.
    pub fn into_explanation(self) -> Option<explanation::Gold> {
        explanation::Explanation::gold_of(self).ok()
    }

    /// A rating page's hidden facts (its submission, whether its output is planted).
    pub fn into_rating(self) -> Option<rating::Gold> {
        rating::Rating::gold_of(self).ok()
    }

    /// The judging batch a human-evaluation page belongs to (rating and ranking pages).
    pub fn judged_batch(&self) -> Option<u32> {
        match self {
            Self::Rating(g) => Some(g.batch),
            Self::Ranking(g) => Some(g.batch),
            Self::TextMcq(_)
            | Self::Explanation(_)
            | Self::PanelOrder(_)
            | Self::PanelType(_)
            | Self::ClipMcq(_)
            | Self::PanelExplanation(_) => None,
        }
    }
}
kind_of!(AnswerValue);
kind_of!(PromptView);
kind_of!(AnswerInput);
kind_of!(ReviewDetail);
