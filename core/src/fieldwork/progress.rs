//! Live progress of a quiz's fieldwork: per-item and per-category counts, drop points and
//! the completion-time histogram.

use crate::crowd::AgreementRow;
use serde::{Deserialize, Serialize};

/// Answers and timing of one item so far.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ItemProgress {
    /// Item id.
    pub item_id: String,
    /// Category.
    pub category: String,
    /// Answers stored (any session).
    pub answers: usize,
    /// Median response time (ms), if answered.
    pub median_ms: Option<f64>,
}

/// Answers per category so far.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct CategoryProgress {
    /// Category key.
    pub category: String,
    /// Answers stored.
    pub answers: usize,
}

/// Sessions that stopped before the item at `position` (0-based).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct DropPoint {
    /// The first unanswered position.
    pub position: usize,
    /// Sessions.
    pub sessions: usize,
}

/// One bin of the completion-time histogram: sessions finished in `[from_s, to_s)`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct HistogramBin {
    /// Lower edge (seconds).
    pub from_s: u64,
    /// Upper edge (seconds, exclusive).
    pub to_s: u64,
    /// Sessions.
    pub sessions: usize,
}

/// `GET /api/owner/tasks/{slug}/progress`: the live view.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ProgressResponse {
    /// Task slug.
    pub task: String,
    /// Sessions started (pilot sessions are left out of this and every other figure but the
    /// two `pilot_` counts).
    pub started: usize,
    /// Completed.
    pub completed: usize,
    /// Completed and not excluded.
    pub completed_after_exclusions: usize,
    /// Unfinished with activity in the last [`DROP_AFTER_MS`].
    pub in_progress: usize,
    /// Unfinished and idle longer.
    pub dropped: usize,
    /// Screened out.
    pub screened_out: usize,
    /// Where the dropped sessions stopped.
    pub dropped_at: Vec<DropPoint>,
    /// The participant target, if any.
    pub participant_target: Option<u32>,
    /// Per item, in pool order.
    pub items: Vec<ItemProgress>,
    /// Per category, in benchmark order.
    pub categories: Vec<CategoryProgress>,
    /// Agreement so far (completed, non-excluded sessions).
    pub agreement: Vec<AgreementRow>,
    /// Time from start to completion.
    pub completion_histogram: Vec<HistogramBin>,
    /// When these figures were computed (ms since the epoch).
    pub computed_at: i64,
    /// Pilot sessions started (the owner's test runs, the console's pilot mode), counted
    /// nowhere else.
    #[serde(default)]
    pub pilot_sessions: usize,
    /// Pilot sessions completed.
    #[serde(default)]
    pub pilot_completed: usize,
}

/// An unfinished session counts as dropped after this long without an answer (30 minutes).
pub const DROP_AFTER_MS: i64 = 30 * 60 * 1000;

/// Bins of a completion-time histogram: 10 equal bins from 0 to the longest duration rounded
/// up to a whole minute (a single bin for no data).
///
/// ```
/// use memeboard_core::fieldwork::histogram;
/// let bins = histogram(&[30_000, 45_000, 170_000]);
/// assert_eq!(bins.len(), 10);
/// assert_eq!((bins[0].from_s, bins[0].to_s), (0, 18)); // 180 s / 10
/// assert_eq!(bins[1].sessions + bins[2].sessions, 2);  // 30 s and 45 s
/// assert_eq!(bins[9].sessions, 1);                      // 170 s
/// ```
pub fn histogram(durations_ms: &[i64]) -> Vec<HistogramBin> {
    let max_s = durations_ms.iter().copied().max().unwrap_or(0).max(0) as u64 / 1000 + 1;
    let top = max_s.div_ceil(60) * 60;
    let width = (top / 10).max(1);
    let mut bins: Vec<HistogramBin> = (0..10)
        .map(|i| HistogramBin {
            from_s: i * width,
            to_s: (i + 1) * width,
            sessions: 0,
        })
        .collect();
    for &d in durations_ms {
        let s = d.max(0) as u64 / 1000;
        let i = usize::try_from(s / width).unwrap_or(usize::MAX).min(9);
        bins[i].sessions += 1;
    }
    bins
}
