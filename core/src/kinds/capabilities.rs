//! Optional capabilities of a kind in core, each a typed hook that only the kinds having it
//! set (the `Kind` constants that name them default to `None`): a question asked before an
//! item's own question ([`Preface`]) and a check a session starts with ([`PreCheck`]). Shared
//! layers ask `K::PREFACE` / `K::PRE_CHECK` and skip kinds without one; the server's own
//! capabilities are in `server/src/kinds/capabilities.rs`.

use super::Kind;

/// A question asked before an item's own question, whose answer is stored first (the clip
/// task's familiarity check, AVMeme §3): the shared quiz protocol stores the preface answer,
/// refuses an answer before it, and sends the view this hook leaves until then.
pub trait Preface<K: Kind>: Sync {
    /// What the item's view may show before the preface answer is stored (for clips: the
    /// clip, without its question and options).
    fn before_answer(&self, view: K::View) -> K::View;
}

/// A check a session of the kind starts with, before any item.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PreCheck {
    /// The headphone check (three tones at a time, which was quietest; clips with sound):
    /// its trials are drawn on the server and its answers scored there
    /// (`server/src/crowd/headphones.rs`).
    Headphones,
}

/// Whether sessions of kind `K` start with the headphone check.
///
/// ```
/// use memeboard_core::kinds::{capabilities::needs_headphones, clip_mcq::ClipMcq, text_mcq::TextMcq};
/// assert!(needs_headphones::<ClipMcq>());
/// assert!(!needs_headphones::<TextMcq>());
/// ```
pub fn needs_headphones<K: Kind>() -> bool {
    matches!(K::PRE_CHECK, Some(PreCheck::Headphones))
}

/// The view of an item as it may be shown now: before a kind's preface answer is stored,
/// what its [`Preface`] leaves; otherwise the whole view.
pub fn view_before_preface<K: Kind>(view: K::View, preface_answered: bool) -> K::View {
    match K::PREFACE {
        Some(preface) if !preface_answered => preface.before_answer(view),
        _ => view,
    }
}
