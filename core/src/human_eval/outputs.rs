//! What people judge in a human evaluation: one model output (an explanation of a meme or a
//! comic), what it explains, and the reference a rater may read first. Shared by the stored
//! submission outputs, the judging task kinds (`rating`, `ranking`) and the study planner.

use serde::{Deserialize, Serialize};

/// One model output to judge: the explanation fields of a prediction line (CHIME: meaning,
/// origin, example; a comic explanation has only the text, in `meaning`). Never carries the
/// model's name or submission id, so it can be shown to raters as is.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ExplainedOutput {
    /// What the meme means (or the comic's explanation).
    pub meaning: String,
    /// Where it comes from, when the output says.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub origin: Option<String>,
    /// An example sentence, when the output gives one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub example: Option<String>,
}

/// What the judged output explains: a meme phrase (text memes) or a comic (multi-panel memes).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum RatedSubject {
    /// A text meme.
    Meme {
        /// The meme phrase.
        phrase: String,
    },
    /// A multi-panel comic, panels in reading order.
    Comic {
        /// Panel image URLs in reading order (the opaque media names of the panel kinds).
        panels: Vec<String>,
        /// The comic's title, when the dataset has one.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        title: Option<String>,
        /// The comic's caption, when the dataset has one.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        caption: Option<String>,
    },
}

impl RatedSubject {
    /// A short name of the subject for lists (both judging kinds name their pages by it): the
    /// meme phrase, or the comic's title, else its number of panels.
    ///
    /// ```
    /// use memeboard_core::human_eval::outputs::RatedSubject;
    /// let meme = RatedSubject::Meme { phrase: "yyds".into() };
    /// assert_eq!(meme.name(), "yyds");
    /// let comic = RatedSubject::Comic { panels: vec!["a".into(), "b".into()], title: None, caption: None };
    /// assert_eq!(comic.name(), "2 panels");
    /// ```
    pub fn name(&self) -> String {
        match self {
            Self::Meme { phrase } => phrase.clone(),
            Self::Comic { title, panels, .. } => title
                .clone()
                .unwrap_or_else(|| format!("{} panels", panels.len())),
        }
    }
}

/// The reference explanation a rater reads before judging (CHIME's protocol: gold meaning,
/// origin and examples). Only in studies that may show it: dev items, or test items in an
/// invitation-only study (those items are then marked as exposed on the board).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Reference {
    /// The gold meaning.
    pub meaning: String,
    /// The gold origin, when the meme has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub origin: Option<String>,
    /// Gold example sentences.
    #[serde(default)]
    pub examples: Vec<String>,
}

/// The automatic scores of one stored output against its reference (explanation files only;
/// comic explanations are not auto-scored). Kept per item so the metric-validity panel can
/// correlate them with people's judgements at the segment level.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct OutputScores {
    /// Meaning identification, the board's primary score (absent on outputs stored before
    /// it existed: such outputs are left out of its panel row).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub identification: Option<f64>,
    /// Raw cosine similarity of the meaning's embedding to the reference's.
    pub cosine: f64,
    /// The cosine rescaled against the random-pair baseline.
    pub rescaled: f64,
    /// BERTScore F1 of the meaning against the reference.
    pub bert_f1: f64,
}
