//! Fieldwork: how a quiz collects its crowd — the owner's settings of a quiz (participant
//! target, items, content-flag policy, recruitment hand-off, quality rules), attention checks
//! drawn per session, the one decision that excludes a session from the human rows, and the
//! live-progress wire types. ("Study" names the human-evaluation studies of
//! [`crate::human_eval`]; these settings keep their first name, `study`, on the wire and in
//! storage: the console's `study` field, `tasks.study_json`, the `study.*` messages.)
//!
//! Everything here is pure: the server stores and serves, the app renders, both agree on the
//! same rules because they run this code.

use serde::{Deserialize, Serialize};

mod checks;
mod console;
mod exclusion;
mod handoff;
mod progress;
pub use checks::*;
pub use console::*;
pub use exclusion::*;
pub use handoff::*;
pub use progress::*;

/// Most attention checks a session can carry.
pub const MAX_ATTENTION_CHECKS: u8 = 5;

/// Most batches one rater may judge ([`FieldworkSettings::batches_per_rater`]).
pub const MAX_BATCHES_PER_RATER: u32 = 100;
/// Options of an attention check (a five-point agreement scale, see [`check_option_labels`]).
pub const CHECK_OPTIONS: u8 = 5;
/// Fewest choice answers before straight-lining is judged (with fewer, one repeated position
/// says nothing).
pub const MIN_STRAIGHTLINE_ANSWERS: usize = 4;
/// Prolific's completion page; `?cc=CODE` completes the submission with the study's code.
pub const PROLIFIC_COMPLETE_URL: &str = "https://app.prolific.com/submissions/complete";
/// Longest completion code, screen-out code or URL template.
pub const MAX_HANDOFF_LEN: usize = 500;

/// Which participants a content warning may reach.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum FlaggedPolicy {
    /// Each participant chooses on the survey whether to see flagged items (the default).
    #[default]
    ParticipantChoice,
    /// Flagged items are never assigned.
    Never,
}

/// Where a participant goes when they finish or are screened out: Prolific's completion URL
/// with the study's code, or a URL template of another panel.
///
/// Templates may use `{participant}` (the `PROLIFIC_PID` when present, else the site's
/// anonymous participant id), `{code}` (the code shown: Prolific's study-wide code when set,
/// else the session's own completion code), `{study}` and `{session}` (`STUDY_ID`,
/// `SESSION_ID`); values are percent-encoded. A template starting with `/` stays on this site.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields, default)]
pub struct Handoff {
    /// Prolific's study-wide completion code: shown at the end and sent as
    /// `https://app.prolific.com/submissions/complete?cc=CODE`.
    pub prolific_completion_code: Option<String>,
    /// Prolific's screen-out code, for participants excluded early.
    pub prolific_screenout_code: Option<String>,
    /// Completion redirect of another panel (wins over the Prolific URL when both are set).
    pub completion_url_template: Option<String>,
    /// Screen-out redirect of another panel.
    pub screenout_url_template: Option<String>,
    /// Let one `PROLIFIC_PID` take the quiz more than once (by default an unfinished session
    /// is resumed only by the browser holding its participant secret, and a finished one
    /// refused). Ids are compared after [`crate::recruitment::normalize_prolific_id`].
    pub allow_repeat_participation: bool,
    /// Refuse starts without a `PROLIFIC_PID` (a study run only through Prolific, where a
    /// link without the id is a participant who could otherwise take part twice).
    pub require_prolific_id: bool,
}

/// Rules that leave a participant's session out of the human rows (all off by default).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields, default)]
pub struct QualityRules {
    /// Excluded when at least this many attention checks are failed (an unanswered check of
    /// a finished session counts as failed). With a screen-out set, reaching it during the
    /// quiz ends the session there.
    pub fail_checks_at_least: Option<u32>,
    /// Excluded when the median response time per item is below this (ms).
    pub min_median_ms: Option<u64>,
    /// With `fast_share_percent`: excluded when at least that share of answers took less than
    /// this (ms).
    pub min_item_ms: Option<u64>,
    /// See `min_item_ms` (default 50 when unset).
    pub fast_share_percent: Option<u8>,
    /// Choice kinds: excluded when one display position holds at least this share (percent)
    /// of the choice answers (at least [`MIN_STRAIGHTLINE_ANSWERS`] of them).
    pub straightline_percent: Option<u8>,
    /// Screen out at the start those who fail the headphone check (clip quizzes; needs a
    /// screen-out code or URL). Leaving them out of the rows is the board switch
    /// `exclude_failed_checks`.
    pub screen_out_failed_headphones: bool,
    /// Judging tasks (ratings): excluded when any planted output of known quality was judged
    /// the wrong way round — the reference itself rated Disagree (Core4 below 2), or another
    /// meme's meaning rated Agree (Core4 above 2). See [`planted_failed`].
    pub planted_checks: bool,
}

/// Everything an owner sets on a quiz's console beyond the board switches.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields, default)]
// The schema keeps the name API clients know (the wire and stored JSON are unchanged).
#[cfg_attr(feature = "schema", schemars(rename = "StudySettings"))]
pub struct FieldworkSettings {
    /// Stop taking new participants once this many sessions are completed (sessions already
    /// started may still finish).
    pub participant_target: Option<u32>,
    /// Only these categories are assigned (empty: all).
    pub categories: Vec<String>,
    /// Items never assigned.
    pub excluded_items: Vec<String>,
    /// Content warnings.
    pub flagged_policy: FlaggedPolicy,
    /// Attention checks per session (0 to [`MAX_ATTENTION_CHECKS`]).
    pub attention_checks: u8,
    /// Completion and screen-out hand-off.
    pub handoff: Handoff,
    /// Exclusion rules.
    pub quality: QualityRules,
    /// Pilot mode: every session started while it is on is stored as a pilot session, which
    /// no figure, count or participant target ever counts (not even after pilot mode is
    /// turned off), so the owner can try the quiz end to end. The export marks them.
    pub pilot: bool,
    /// Judging tasks: how many different fixed batches one rater may judge, one session each,
    /// never the same batch twice (CHIME: 14 raters did 1 to 3 of 12 batches). `None`: one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub batches_per_rater: Option<u32>,
}

impl FieldworkSettings {
    /// How many batches one rater may judge (judging tasks; 1 unless the owner set more).
    pub fn rater_batches(&self) -> u32 {
        self.batches_per_rater.unwrap_or(1)
    }

    /// Whether a screen-out destination is set (then early exclusions end the session).
    pub fn has_screenout(&self) -> bool {
        self.handoff.prolific_screenout_code.is_some()
            || self.handoff.screenout_url_template.is_some()
    }

    /// Checks every field: which one is wrong and what was expected.
    pub fn validate(&self) -> Result<(), crate::messages::Message> {
        use crate::msg;
        if self.participant_target == Some(0) {
            return Err(msg!("study.participant_target"));
        }
        if let Some(n) = self
            .batches_per_rater
            .filter(|n| !(1..=MAX_BATCHES_PER_RATER).contains(n))
        {
            return Err(msg!(
                "study.range",
                field = "batches_per_rater",
                min = 1,
                max = MAX_BATCHES_PER_RATER,
                found = n
            ));
        }
        if self.attention_checks > MAX_ATTENTION_CHECKS {
            return Err(msg!(
                "study.range",
                field = "attention_checks",
                min = 0,
                max = MAX_ATTENTION_CHECKS,
                found = self.attention_checks
            ));
        }
        let h = &self.handoff;
        for (field, code) in [
            (
                "handoff.prolific_completion_code",
                &h.prolific_completion_code,
            ),
            (
                "handoff.prolific_screenout_code",
                &h.prolific_screenout_code,
            ),
        ] {
            if let Some(c) = code {
                if c.is_empty()
                    || c.len() > 64
                    || !c
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
                {
                    return Err(msg!("study.code_chars", field = field, found = c));
                }
            }
        }
        for (field, template) in [
            (
                "handoff.completion_url_template",
                &h.completion_url_template,
            ),
            ("handoff.screenout_url_template", &h.screenout_url_template),
        ] {
            if let Some(t) = template {
                let ok_start = t.starts_with("https://")
                    || t.starts_with("http://")
                    || (t.starts_with('/') && !t.starts_with("//"));
                if !ok_start || t.len() > MAX_HANDOFF_LEN || t.chars().any(char::is_whitespace) {
                    return Err(msg!(
                        "study.url_template",
                        field = field,
                        max = MAX_HANDOFF_LEN,
                        found = t
                    ));
                }
            }
        }
        let q = &self.quality;
        for (field, p) in [
            ("quality.fast_share_percent", q.fast_share_percent),
            ("quality.straightline_percent", q.straightline_percent),
        ] {
            if let Some(p) = p {
                if !(1..=100).contains(&p) {
                    return Err(msg!(
                        "study.range",
                        field = field,
                        min = 1,
                        max = 100,
                        found = p
                    ));
                }
            }
        }
        if q.fail_checks_at_least == Some(0) {
            return Err(msg!("study.fail_checks"));
        }
        if q.screen_out_failed_headphones && !self.has_screenout() {
            return Err(msg!("study.screenout_needs_target"));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests;
