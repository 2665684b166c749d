//! The task model: every benchmark task the site knows, with its public prompt, hidden gold
//! and answer shapes.
//!
//! One item = one question of one task. Its [`ItemPrompt`] may be shown to anyone; its
//! [`ItemGold`] never leaves the server before the participant's batch is finished (and for
//! leaderboard test splits, never). Answers are [`AnswerValue`]s in *canonical* terms (option
//! indices of the stored prompt, not of the shuffled display), so scoring never depends on
//! presentation.

pub use crate::kinds::{AnswerValue, ItemGold, ItemPrompt, TaskKind};

// The shared vocabulary lives in a child module that uses nothing of `kinds`, so the kinds
// can use it without a circle through the re-exports above.
pub(crate) mod items;
pub use items::*;
