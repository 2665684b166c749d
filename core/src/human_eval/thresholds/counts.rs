//! The counts before and after the reliability thresholds, in a file of their own so that the
//! study summary (`human_eval::board`) can carry them without depending on the thresholds'
//! rules (which read the board's judgements).

use serde::{Deserialize, Serialize};

/// Raters and judgements before and after the thresholds: "before" counts the raters the
/// quality rules keep, "after" those the thresholds keep too (equal when none is set).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ThresholdCounts {
    /// Raters kept by the quality rules.
    pub raters_before: usize,
    /// Of those, kept by the thresholds too.
    pub raters_after: usize,
    /// Judgements of the raters kept by the quality rules.
    pub judgements_before: usize,
    /// Judgements of the raters kept by both.
    pub judgements_after: usize,
}
