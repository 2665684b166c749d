//! The crowd's figures as sent on the wire: per category (or overall) and per familiarity
//! answer. They live here, below the API module that re-exports them, so that computing them
//! needs nothing from `crate::api`.

use crate::stats::Estimate;
use serde::{Deserialize, Serialize};

/// Crowd statistics for one category (or overall).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct CrowdRow {
    /// Category key (`None` = overall).
    pub category: Option<String>,
    /// Participants with at least one answer here.
    pub participants: usize,
    /// Mean of per-participant accuracies, with bootstrap 95% interval.
    pub human_average: Option<Estimate>,
    /// Best per-participant accuracy, with bootstrap 95% interval.
    pub human_best: Option<Estimate>,
    /// All answers pooled (item-level accuracy), with bootstrap 95% interval.
    pub pooled: Option<Estimate>,
}

/// Crowd accuracy of the answers given with one familiarity answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct FamiliarityRow {
    /// The group.
    pub familiarity: crate::tasks::Familiarity,
    /// Participants with at least one answer in the group.
    pub participants: usize,
    /// Answers in the group.
    pub answers: usize,
    /// Pooled accuracy with a bootstrap 95% interval (resampling participants and items);
    /// `None` when the group has too few answers to show.
    pub estimate: Option<crate::stats::Estimate>,
}
