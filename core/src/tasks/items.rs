//! What items of every kind share: the meme types and category labels, label keys, media
//! references and the familiarity answer. Uses nothing of the kind modules, which build on it.

use serde::{Deserialize, Serialize};

/// The six CHIME meme types, used as the text-meme categories.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
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
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
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

/// The stored key of a label enum value: its serde name (`sound_effect`, `seen_not_familiar`…),
/// so storage, files and boards spell labels the way the wire does.
///
/// ```
/// use memeboard_core::tasks::{label_key, Familiarity};
/// assert_eq!(label_key(&Familiarity::SeenNotFamiliar), "seen_not_familiar");
/// ```
pub fn label_key<T: Serialize>(label: &T) -> String {
    serde_json::to_value(label)
        .ok()
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_default()
}

/// A media file (panel image, audio or video clip) served by the site.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct MediaRef {
    /// URL path under the site. Always an opaque name (e.g. `/media/3f9c…e1.png`) that says
    /// nothing about the item, a panel's canonical position or the answer.
    pub url: String,
    /// Alternative text / transcript for accessibility.
    #[serde(default)]
    pub alt: String,
}

/// How well a participant knows a clip, asked before its question (AVMeme protocol).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Familiarity {
    /// Knows it well.
    Familiar,
    /// Has seen/heard it but doesn't know it well.
    SeenNotFamiliar,
    /// Never encountered it.
    Unseen,
}

impl Familiarity {
    /// The wire name (as serde spells it), for page attributes without a serialiser.
    ///
    /// ```
    /// use memeboard_core::tasks::Familiarity;
    /// assert_eq!(Familiarity::SeenNotFamiliar.key(), "seen_not_familiar");
    /// ```
    pub fn key(self) -> &'static str {
        match self {
            Self::Familiar => "familiar",
            Self::SeenNotFamiliar => "seen_not_familiar",
            Self::Unseen => "unseen",
        }
    }
}
