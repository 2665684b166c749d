//! Wire types of the owner's console: actions, excluded sessions, settings, items, owned tasks and
//! owner accounts.

use super::{ExclusionReason, FieldworkSettings};
use serde::{Deserialize, Serialize};

/// One action of an owner (or the admin), as the console lists it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct OwnerAction {
    /// Who: `admin` or the owner's name.
    pub actor: String,
    /// The owner id (`None` for the admin).
    pub owner_id: Option<String>,
    /// Task slug, for task actions.
    pub task: Option<String>,
    /// What (`update_settings`, `update_board`, `create_owner`, …).
    pub action: String,
    /// Details (e.g. changed fields with old and new values).
    pub detail: serde_json::Value,
    /// When (ms since the epoch).
    pub at: i64,
}

/// An excluded session, for the owner.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ExcludedSession {
    /// Session pseudonym, as in the answer-level export's `session` column.
    pub session: String,
    /// Participant pseudonym, as in the export's `participant` column (and what deleting a
    /// participant's data takes).
    pub participant: String,
    /// `PROLIFIC_PID`, if any (to reject or pay on Prolific).
    pub prolific_pid: Option<String>,
    /// Why.
    pub reason: ExclusionReason,
}

/// The board switches the console shows beside the fieldwork settings.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct ConsoleSettings {
    /// Listed and open to new participants.
    pub quiz_open: bool,
    /// Items per participant.
    pub batch_size: u32,
    /// Someone who finished may take the quiz again (participant id).
    pub allow_retake: bool,
    /// Failed headphone checks are left out of the human rows.
    pub exclude_failed_checks: bool,
    /// The quiz's fieldwork settings: participant target, items, hand-off, quality rules,
    /// pilot mode.
    // `study` on the wire and in stored actions, its first name.
    #[serde(rename = "study")]
    pub fieldwork: FieldworkSettings,
}

/// An item as the console lists it (for the item selection).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ConsoleItem {
    /// Id.
    pub item_id: String,
    /// Category key.
    pub category: String,
    /// Content warning.
    pub flagged: bool,
}

/// `GET /api/owner/tasks/{slug}/console`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ConsoleResponse {
    /// Task slug.
    pub task: String,
    /// Task title.
    pub title: String,
    /// Benchmark slug.
    pub benchmark: String,
    /// Who is looking (`admin` or the owner's name).
    pub actor: String,
    /// Current settings.
    pub settings: ConsoleSettings,
    /// Categories (keys and labels).
    pub categories: Vec<crate::tasks::CategoryInfo>,
    /// Items of the pool.
    pub items: Vec<ConsoleItem>,
    /// Owner actions on this benchmark, newest first (at most 200).
    pub actions: Vec<OwnerAction>,
    /// Excluded sessions with reasons.
    pub exclusions: Vec<ExcludedSession>,
    /// Completed sessions before and after exclusions.
    pub completed_before_exclusions: usize,
    /// After exclusions.
    pub completed_after_exclusions: usize,
    /// The completion redirect as it will look (placeholders filled with examples), if any.
    pub completion_preview: Option<String>,
    /// The screen-out redirect likewise.
    pub screenout_preview: Option<String>,
    /// Answer-level downloads.
    pub exports: Vec<String>,
    /// Which settings apply to this quiz (the console shows only those).
    pub uses: SettingsInUse,
    /// The quiz's link with Prolific's URL parameters (`/quiz/{slug}?PROLIFIC_PID=…`), the
    /// path the owner pastes into Prolific after the site's address (see [`prolific_link`]).
    pub prolific_link: String,
}

/// The settings that apply to a quiz beyond those every quiz has, so the console hides the
/// others (a headphone rule on a text quiz only confuses the owner). Hidden settings keep
/// their stored values.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct SettingsInUse {
    /// The quiz starts with a headphone check (clips with sound): the screen-out and
    /// exclusion rules for a failed check.
    pub headphones: bool,
    /// Pages carry planted outputs of known quality (rating tasks): the planted-check rule.
    pub planted_checks: bool,
    /// Items have options shown in an order: the straight-lining rule.
    pub choices: bool,
    /// Some items carry a content warning: the content-flag policy.
    pub content_flags: bool,
    /// The pool has more than one category: the category selection.
    pub categories: bool,
    /// Fixed batches of judging pages (rating and ranking tasks): how many one rater may judge.
    #[serde(default)]
    pub rater_batches: bool,
}

/// The quiz link to paste into a Prolific study: Prolific fills the placeholders with the
/// participant's, study's and session's ids, which the quiz keeps for the hand-off and the
/// export. Prefixed by the site's address.
///
/// ```
/// use memeboard_core::fieldwork::prolific_link;
/// assert_eq!(
///     prolific_link("demo-mcq"),
///     "/quiz/demo-mcq?PROLIFIC_PID={{%PROLIFIC_PID%}}&STUDY_ID={{%STUDY_ID%}}&SESSION_ID={{%SESSION_ID%}}"
/// );
/// ```
pub fn prolific_link(slug: &str) -> String {
    format!(
        "/quiz/{}?PROLIFIC_PID={{{{%PROLIFIC_PID%}}}}&STUDY_ID={{{{%STUDY_ID%}}}}&SESSION_ID={{{{%SESSION_ID%}}}}",
        super::percent_encode(slug)
    )
}

/// A task an owner token may manage (`GET /api/owner/tasks`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct OwnedTask {
    /// Slug.
    pub slug: String,
    /// Title.
    pub title: String,
    /// Benchmark slug.
    pub benchmark: String,
    /// Open as a quiz.
    pub quiz_open: bool,
}

/// `POST /api/admin/owners`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct CreateOwnerRequest {
    /// Benchmark slug the owner may manage.
    pub benchmark: String,
    /// Who (a person or lab, for the action log).
    pub name: String,
}

/// The new owner and its token (shown only here; only a hash is stored).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct CreateOwnerResponse {
    /// Owner id.
    pub owner_id: String,
    /// Benchmark slug.
    pub benchmark: String,
    /// Name.
    pub name: String,
    /// Bearer token for `/api/owner/…` (and the board switches of the benchmark's tasks).
    pub token: String,
}
