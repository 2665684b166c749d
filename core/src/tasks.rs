//! The task model: every benchmark task the site knows, with its public prompt, hidden gold
//! and answer shapes.
//!
//! One item = one question of one task. Its [`ItemPrompt`] may be shown to anyone; its
//! [`ItemGold`] never leaves the server before the participant's batch is finished (and for
//! leaderboard test splits, never). Answers are [`AnswerValue`]s in *canonical* terms (option
//! indices of the stored prompt, not of the shuffled display), so scoring never depends on
//! presentation.

use serde::{Deserialize, Serialize};

/// The kinds of task, one per answer shape in the three benchmark families.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TaskKind {
    /// CHIME task A: fill the blank with one of five memes.
    TextMcq,
    /// CHIME task B: explain a meme's meaning in free text (embedding-scored).
    Explanation,
    /// CMPM task 1b: put shuffled panels back in reading order (group-aware).
    PanelOrder,
    /// CMPM task 1a: name the structure type of a multi-panel meme.
    StructureType,
    /// AVMeme: familiarity check on a clip, then a multiple-choice question.
    ClipMcq,
    /// Human rating of a model explanation on 1–3 scales (CHIME / CMPM human evaluation).
    Rating,
}

impl TaskKind {
    /// Stable storage key (same as the serde name).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::TextMcq => "text_mcq",
            Self::Explanation => "explanation",
            Self::PanelOrder => "panel_order",
            Self::StructureType => "structure_type",
            Self::ClipMcq => "clip_mcq",
            Self::Rating => "rating",
        }
    }

    /// Parses a storage key.
    pub fn parse(s: &str) -> Option<Self> {
        [
            Self::TextMcq,
            Self::Explanation,
            Self::PanelOrder,
            Self::StructureType,
            Self::ClipMcq,
            Self::Rating,
        ]
        .into_iter()
        .find(|k| k.as_str() == s)
    }

    /// Whether the participant must first say whether they know the stimulus (AVMeme protocol).
    pub fn asks_familiarity_first(self) -> bool {
        matches!(self, Self::ClipMcq)
    }

    /// Whether options are shuffled per participant.
    pub fn shuffles_options(self) -> bool {
        matches!(self, Self::TextMcq | Self::ClipMcq)
    }
}

/// The six CHIME meme types, used as the text-meme categories.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MemeType {
    /// 现象: a phenomenon or shared experience.
    Experience,
    /// 引用: a quotation from a person, show or post.
    Quotation,
    /// 修辞: a stylistic device (metaphor, exaggeration…).
    StylisticDevice,
    /// 谐音: a homophonic pun.
    HomophonicPun,
    /// 俗语: slang.
    Slang,
    /// 缩写: an abbreviation.
    Abbreviation,
}

impl MemeType {
    /// All six, in the order the benchmark reports them.
    pub const ALL: [MemeType; 6] = [
        Self::Experience,
        Self::Quotation,
        Self::StylisticDevice,
        Self::HomophonicPun,
        Self::Slang,
        Self::Abbreviation,
    ];

    /// Category key as stored (snake case).
    pub fn key(self) -> &'static str {
        match self {
            Self::Experience => "experience",
            Self::Quotation => "quotation",
            Self::StylisticDevice => "stylistic_device",
            Self::HomophonicPun => "homophonic_pun",
            Self::Slang => "slang",
            Self::Abbreviation => "abbreviation",
        }
    }

    /// The upstream `type_en` spelling.
    pub fn upstream_en(self) -> &'static str {
        match self {
            Self::Experience => "experience",
            Self::Quotation => "quotation",
            Self::StylisticDevice => "stylistic device",
            Self::HomophonicPun => "homophonic pun",
            Self::Slang => "slang",
            Self::Abbreviation => "abbreviation",
        }
    }

    /// The upstream `type_cn` spelling.
    pub fn upstream_cn(self) -> &'static str {
        match self {
            Self::Experience => "现象",
            Self::Quotation => "引用",
            Self::StylisticDevice => "修辞",
            Self::HomophonicPun => "谐音",
            Self::Slang => "俗语",
            Self::Abbreviation => "缩写",
        }
    }

    /// Parses the upstream `type_en` value (or a stored key).
    pub fn from_upstream_en(s: &str) -> Option<Self> {
        Self::ALL
            .into_iter()
            .find(|t| t.upstream_en() == s || t.key() == s)
    }

    /// Parses a stored category key.
    pub fn from_key(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|t| t.key() == s)
    }
}

/// A category of a task as shown to people: a stable key plus bilingual labels.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CategoryInfo {
    /// Stable key (e.g. `homophonic_pun`).
    pub key: String,
    /// English label.
    pub label_en: String,
    /// Chinese label.
    pub label_zh: String,
}

impl From<MemeType> for CategoryInfo {
    fn from(t: MemeType) -> Self {
        Self {
            key: t.key().to_owned(),
            label_en: t.upstream_en().to_owned(),
            label_zh: t.upstream_cn().to_owned(),
        }
    }
}

/// A media file (panel image, audio or video clip) served by the site.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MediaRef {
    /// URL path under the site (e.g. `/media/cmpm/123/2.png`).
    pub url: String,
    /// Alternative text / transcript for accessibility.
    #[serde(default)]
    pub alt: String,
}

/// The public part of an item: what a participant or model sees. Never contains gold.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ItemPrompt {
    /// A sentence with `_____` and options in canonical (stored) order.
    TextMcq {
        /// Sentence with the meme masked as `_____`.
        sentence: String,
        /// Options in canonical order; shown shuffled per participant.
        options: Vec<String>,
    },
    /// A meme phrase to explain.
    Explanation {
        /// The meme phrase.
        meme: String,
    },
    /// Panels in the fixed shuffled display order.
    PanelOrder {
        /// Panels as displayed (already shuffled; see gold for the mapping).
        panels: Vec<MediaRef>,
    },
    /// Panels in canonical order, to be typed.
    StructureType {
        /// Panels in reading order.
        panels: Vec<MediaRef>,
        /// The label set to choose from.
        labels: Vec<String>,
    },
    /// An audio/video clip with one question.
    ClipMcq {
        /// The clip.
        clip: MediaRef,
        /// The question.
        question: String,
        /// Options in canonical order; shown shuffled and lettered from A.
        options: Vec<String>,
    },
    /// A model output to rate against a reference shown beside it.
    Rating {
        /// What is being explained (meme phrase or panel set description).
        subject: String,
        /// Reference material raters see first (gold meaning etc., public by design here).
        reference: String,
        /// The candidate explanation to rate.
        candidate: String,
        /// Dimension keys, each rated 1..=3.
        dimensions: Vec<String>,
    },
}

impl ItemPrompt {
    /// The task kind this prompt belongs to.
    pub fn kind(&self) -> TaskKind {
        match self {
            Self::TextMcq { .. } => TaskKind::TextMcq,
            Self::Explanation { .. } => TaskKind::Explanation,
            Self::PanelOrder { .. } => TaskKind::PanelOrder,
            Self::StructureType { .. } => TaskKind::StructureType,
            Self::ClipMcq { .. } => TaskKind::ClipMcq,
            Self::Rating { .. } => TaskKind::Rating,
        }
    }

    /// Number of options for choice tasks (0 otherwise).
    pub fn num_options(&self) -> usize {
        match self {
            Self::TextMcq { options, .. } | Self::ClipMcq { options, .. } => options.len(),
            Self::StructureType { labels, .. } => labels.len(),
            _ => 0,
        }
    }
}

/// The hidden part of an item. Stays on the server until the batch holding it is finished.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ItemGold {
    /// Index of the correct option in the canonical option list.
    Choice {
        /// 0-based canonical index.
        correct: usize,
    },
    /// Reference texts for embedding scoring.
    Explanation {
        /// Gold meaning.
        meaning: String,
        /// Gold origin, when the meme has one.
        origin: Option<String>,
    },
    /// Canonical reading-order constraints.
    PanelOrder {
        /// `display[i]` = canonical panel number (1-based) shown at display index `i`.
        display: Vec<usize>,
        /// Blocks of canonical panel numbers; blocks in order, any order inside a block.
        order_groups: Vec<Vec<usize>>,
    },
    /// The correct label.
    Label {
        /// Label key.
        label: String,
    },
    /// Rating tasks have no gold.
    None,
}

/// How well a participant knows a clip, asked before its question (AVMeme protocol).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Familiarity {
    /// Knows it well.
    Familiar,
    /// Has seen/heard it but doesn't know it well.
    SeenNotFamiliar,
    /// Never encountered it.
    Unseen,
}

/// A recorded answer in canonical terms (independent of display shuffling).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum AnswerValue {
    /// Canonical option index (text MCQ, structure type by index).
    Choice {
        /// 0-based canonical option index.
        option: usize,
    },
    /// Free text (explanations).
    Text {
        /// What the participant wrote.
        text: String,
    },
    /// A reading order over displayed panel indices (0-based).
    Order {
        /// Displayed indices in the order the participant reads them.
        order: Vec<usize>,
    },
    /// Familiarity first, then the canonical option index.
    ClipChoice {
        /// Asked before the question.
        familiarity: Familiarity,
        /// 0-based canonical option index.
        option: usize,
    },
    /// One 1..=3 rating per dimension.
    Rating {
        /// Ratings in dimension order.
        scores: Vec<u8>,
    },
}
