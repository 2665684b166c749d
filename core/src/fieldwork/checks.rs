//! Attention checks: where they are drawn in a batch, how they read, and their answers on the wire.

use super::{ExclusionReason, CHECK_OPTIONS, MAX_ATTENTION_CHECKS};
use crate::rng::SplitMix64;
use serde::{Deserialize, Serialize};

/// One instructed-response check of a session: "choose option `target + 1` of
/// `num_options`", shown just before the item at `before_position`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct CheckPlan {
    /// 0-based index of the check in the session.
    pub index: u8,
    /// Shown before the item at this batch position (1 or later: never before the first
    /// item, so a check cannot be mistaken for the instructions).
    pub before_position: usize,
    /// The option to choose, 0-based (not a secret: the instruction names it).
    pub target: u8,
    /// Options shown.
    pub num_options: u8,
}

/// The checks of a session, drawn from its seed: `count` distinct positions in
/// `1..batch_size` (fewer when the batch is too small), each with its own target.
///
/// ```
/// use memeboard_core::fieldwork::plan_checks;
/// let a = plan_checks(42, 24, 3);
/// assert_eq!(a, plan_checks(42, 24, 3)); // deterministic per seed
/// assert_eq!(a.len(), 3);
/// assert!(a.windows(2).all(|w| w[0].before_position < w[1].before_position));
/// assert!(a.iter().all(|c| (1..24).contains(&c.before_position) && c.target < c.num_options));
/// assert_eq!(plan_checks(42, 1, 3), vec![]); // no room between items
/// ```
pub fn plan_checks(seed: u64, batch_size: usize, count: u8) -> Vec<CheckPlan> {
    if batch_size < 2 || count == 0 {
        return Vec::new();
    }
    // Mixed with a constant so that the checks do not follow the option orders of the seed.
    let mut rng = SplitMix64::new(seed ^ 0x6174_7465_6e74_696f);
    let mut positions: Vec<usize> = (1..batch_size).collect();
    rng.shuffle(&mut positions);
    positions.truncate(usize::from(count.min(MAX_ATTENTION_CHECKS)));
    positions.sort_unstable();
    positions
        .into_iter()
        .zip(0u8..)
        .map(|(before_position, index)| CheckPlan {
            index,
            before_position,
            target: u8::try_from(rng.below(usize::from(CHECK_OPTIONS))).unwrap_or(0),
            num_options: CHECK_OPTIONS,
        })
        .collect()
}

/// The options of an attention check in a language (`zh` or anything else for English):
/// a five-point agreement scale, so that the right answer is never the obvious one.
pub fn check_option_labels(lang_zh: bool) -> [&'static str; CHECK_OPTIONS as usize] {
    if lang_zh {
        ["非常不同意", "不同意", "说不清", "同意", "非常同意"]
    } else {
        [
            "Strongly disagree",
            "Disagree",
            "Neither",
            "Agree",
            "Strongly agree",
        ]
    }
}

/// The instruction of an attention check in a language.
///
/// ```
/// use memeboard_core::fieldwork::check_instruction;
/// assert_eq!(check_instruction(false, 2), "This question checks attention. Please choose the third option, “Neither”.");
/// assert_eq!(check_instruction(true, 0), "本题用于检查注意力：请选择第一个选项“非常不同意”。");
/// ```
pub fn check_instruction(lang_zh: bool, target: u8) -> String {
    let label = check_option_labels(lang_zh)
        .get(usize::from(target))
        .copied()
        .unwrap_or_default();
    if lang_zh {
        let nth = ["一", "二", "三", "四", "五"]
            .get(usize::from(target))
            .copied()
            .unwrap_or("一");
        format!("本题用于检查注意力：请选择第{nth}个选项“{label}”。")
    } else {
        let nth = ["first", "second", "third", "fourth", "fifth"]
            .get(usize::from(target))
            .copied()
            .unwrap_or("first");
        format!("This question checks attention. Please choose the {nth} option, “{label}”.")
    }
}
/// `POST /api/sessions/{id}/checks`: the answer to one attention check.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct SubmitCheckRequest {
    /// Which check (its `index`).
    pub index: u8,
    /// The option chosen, 0-based.
    pub choice: u8,
    /// Milliseconds from showing the check to answering.
    pub response_ms: u64,
}

/// Where a screened-out participant goes, and the code to show.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ScreenOut {
    /// Why (also the owner's exclusion list).
    pub reason: ExclusionReason,
    /// The screen-out redirect.
    pub redirect_url: String,
    /// The screen-out code (may be empty for URL-only panels).
    pub code: String,
}

/// The stored answer to a check (no right/wrong is revealed).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct SubmitCheckResponse {
    /// True when this repeated the stored answer.
    pub replayed: bool,
    /// Set when this answer ended the session (too many failed checks, with a screen-out).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub screen_out: Option<ScreenOut>,
}

/// A check as a session carries it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct SessionCheck {
    /// The plan.
    #[serde(flatten)]
    pub plan: CheckPlan,
    /// Already answered.
    pub answered: bool,
}
