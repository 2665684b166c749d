//! Which human evaluation a study reproduces: a leaf module, so the kinds that name their
//! protocol and the boards that read one need nothing else of the study planner.

use serde::{Deserialize, Serialize};

/// Which protocol a study runs: the benchmark's human evaluation it reproduces.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum StudyProtocol {
    /// CHIME: read the reference, then rate the model's meaning, origin and example
    /// Disagree / Neutral / Agree.
    Accuracy,
    /// CMPM task 2: rate one explanation per page on five 1–3 dimensions, and rank up to five
    /// explanations of the same meme on a separate page.
    Cmpm,
}

impl StudyProtocol {
    /// The stored and serialised key (`accuracy`, `cmpm`).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Accuracy => "accuracy",
            Self::Cmpm => "cmpm",
        }
    }

    /// Parses the stored key.
    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "accuracy" => Some(Self::Accuracy),
            "cmpm" => Some(Self::Cmpm),
            _ => None,
        }
    }
}
