//! Human evaluation of explanations: the pure statistics behind accuracy ratings (CHIME),
//! dimension ratings and holistic rankings (CMPM), Bradley–Terry strengths and the agreement of
//! automatic metrics with people, and each rater's reliability.
//!
//! Plain data in, plain data out, no IO. Every input is already filtered: the caller drops
//! excluded raters (failed attention checks, withdrawn consent) and withdrawn submissions
//! before calling, so nothing here knows about exclusions.
//!
//! Intervals are item-bootstrap 95% percentile intervals ([`crate::stats::item_bootstrap_many`]):
//! the unit resampled is the *item* (the meme), which brings every rating, ranking and model
//! of that meme with it, so raters' correlated judgements of one meme are never treated as
//! independent. Callers pass [`HUMAN_EVAL_SEED`] and [`HUMAN_EVAL_RESAMPLES`] unless they have
//! a reason not to; the same data and seed give the same intervals on the server and in the
//! browser. See `docs/human-evaluation.md` for the formulas and worked examples.

pub mod accuracy;
pub mod board;
pub mod bradley_terry;
pub mod cmpm_tables;
pub mod context_ablation;
pub mod correlation;
pub mod dawid_skene;
pub mod dimensions;
pub mod error_labels;
pub mod error_tables;
pub mod outputs;
pub mod protocol;
pub mod ranking;
pub mod raters;
pub mod statements;
pub mod study;
pub mod thresholds;
pub mod training;

use std::collections::BTreeMap;

/// Seed of every human-evaluation bootstrap (the ASCII bytes of `"human_ev"`), so that the
/// study page and the boards show reproducible intervals.
pub const HUMAN_EVAL_SEED: u64 = 0x6875_6d61_6e5f_6576;

/// Number of bootstrap rounds behind every human-evaluation interval (the boards' count).
pub const HUMAN_EVAL_RESAMPLES: usize = 1000;

/// Dense indices of keys in sorted order, so that a bootstrap's draws depend only on the set
/// of items, never on the order of the input.
fn sorted_index<'a>(keys: impl Iterator<Item = &'a str>) -> BTreeMap<&'a str, usize> {
    let mut map: BTreeMap<&'a str, usize> = keys.map(|k| (k, 0)).collect();
    for (i, v) in map.values_mut().enumerate() {
        *v = i;
    }
    map
}

/// Why human-evaluation input was rejected, naming the rater, item and value at fault so the
/// study page (or an importer) can point at the bad record.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum JudgementError {
    /// A dimension score outside the 1–3 scale.
    #[error("rater {rater} gave {model} on item {item} a {dimension} score of {value}; expected 1, 2 or 3")]
    ScoreOutOfRange {
        /// Rater id.
        rater: String,
        /// Item id.
        item: String,
        /// Model (submission) id.
        model: String,
        /// Dimension key.
        dimension: &'static str,
        /// The score given.
        value: u8,
    },
    /// A ranking with fewer than two entries (nothing to compare).
    #[error("ranking of item {item} by rater {rater} has {count} entries; expected 2 to {max}")]
    WrongEntryCount {
        /// Rater id.
        rater: String,
        /// Item id.
        item: String,
        /// Entries given.
        count: usize,
        /// Most entries allowed.
        max: usize,
    },
    /// The same explanation ranked twice.
    #[error("ranking of item {item} by rater {rater} lists {system} twice")]
    DuplicateEntry {
        /// Rater id.
        rater: String,
        /// Item id.
        item: String,
        /// The repeated system.
        system: String,
    },
    /// Ranks that skip a number or start above 1.
    #[error(
        "ranking of item {item} by rater {rater} has ranks {ranks:?}; expected every rank from 1 \
         to the largest, equal ranks for ties (1 = best), e.g. [1, 1, 2]"
    )]
    RanksNotDense {
        /// Rater id.
        rater: String,
        /// Item id.
        item: String,
        /// The ranks given, in entry order.
        ranks: Vec<u8>,
    },
}
