//! The short background survey every participant fills in before their batch.
//!
//! Only coarse, non-identifying answers are asked (ranges, not values), following the
//! published human-baseline protocols (age range, native language, internet use, meme
//! familiarity).

use serde::{Deserialize, Serialize};

/// Age range (no exact age is collected).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum AgeRange {
    /// 18–24.
    #[serde(rename = "18-24")]
    From18To24,
    /// 25–34.
    #[serde(rename = "25-34")]
    From25To34,
    /// 35–44.
    #[serde(rename = "35-44")]
    From35To44,
    /// 45–54.
    #[serde(rename = "45-54")]
    From45To54,
    /// 55 or older.
    #[serde(rename = "55+")]
    From55,
    /// Prefer not to say.
    #[serde(rename = "prefer_not_to_say")]
    PreferNotToSay,
}

impl AgeRange {
    /// Every option, in display order.
    pub const ALL: [AgeRange; 6] = [
        Self::From18To24,
        Self::From25To34,
        Self::From35To44,
        Self::From45To54,
        Self::From55,
        Self::PreferNotToSay,
    ];
}

/// Native language (coarse).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum NativeLanguage {
    /// Chinese (any variety).
    Chinese,
    /// English.
    English,
    /// Spanish.
    Spanish,
    /// French.
    French,
    /// German.
    German,
    /// Japanese.
    Japanese,
    /// Korean.
    Korean,
    /// Any other language.
    Other,
}

impl NativeLanguage {
    /// Every option, in display order.
    pub const ALL: [NativeLanguage; 8] = [
        Self::Chinese,
        Self::English,
        Self::Spanish,
        Self::French,
        Self::German,
        Self::Japanese,
        Self::Korean,
        Self::Other,
    ];

    /// The ISO 639-1 code clips in this language are labelled with (`None` for "other": such
    /// participants get the clips with no language).
    ///
    /// ```
    /// use memeboard_core::survey::NativeLanguage;
    /// assert_eq!(NativeLanguage::Chinese.code(), Some("zh"));
    /// assert_eq!(NativeLanguage::Other.code(), None);
    /// ```
    pub fn code(self) -> Option<&'static str> {
        match self {
            Self::Chinese => Some("zh"),
            Self::English => Some("en"),
            Self::Spanish => Some("es"),
            Self::French => Some("fr"),
            Self::German => Some("de"),
            Self::Japanese => Some("ja"),
            Self::Korean => Some("ko"),
            Self::Other => None,
        }
    }
}

/// Time spent online per day.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum OnlineTime {
    /// Under 1 hour.
    UnderOneHour,
    /// 1–3 hours.
    OneToThreeHours,
    /// 3–6 hours.
    ThreeToSixHours,
    /// Over 6 hours.
    OverSixHours,
}

impl OnlineTime {
    /// Every option, in display order.
    pub const ALL: [OnlineTime; 4] = [
        Self::UnderOneHour,
        Self::OneToThreeHours,
        Self::ThreeToSixHours,
        Self::OverSixHours,
    ];
}

/// The background survey answers.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct SurveyResponse {
    /// Age range.
    pub age_range: AgeRange,
    /// Native language.
    pub native_language: NativeLanguage,
    /// Daily time online.
    pub online_time: OnlineTime,
    /// Self-rated familiarity with the quiz's kind of meme (the survey names it: Chinese
    /// internet memes, multi-panel comic memes, memes in clips), 1 (none) to 5 (very familiar).
    pub meme_familiarity: u8,
    /// Opt out of items flagged for profanity or offensive content.
    pub skip_flagged: bool,
}

impl SurveyResponse {
    /// Checks value ranges serde cannot express; the error names the field.
    pub fn validate(&self) -> Result<(), crate::messages::Message> {
        if !(1..=5).contains(&self.meme_familiarity) {
            return Err(crate::msg!(
                "survey.familiarity_range",
                found = self.meme_familiarity
            ));
        }
        Ok(())
    }
}
