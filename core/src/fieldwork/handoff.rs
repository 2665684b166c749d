//! Recruitment hand-off: the completion and screen-out URLs a participant is sent to, filled with
//! their ids.

use super::{Handoff, PROLIFIC_COMPLETE_URL};

/// What a hand-off URL is filled with.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct HandoffIds<'a> {
    /// The site's anonymous participant id.
    pub participant_id: &'a str,
    /// `PROLIFIC_PID`, `STUDY_ID`, `SESSION_ID`, when the start had them.
    pub prolific_pid: Option<&'a str>,
    /// `STUDY_ID`.
    pub study_id: Option<&'a str>,
    /// `SESSION_ID`.
    pub session_id: Option<&'a str>,
    /// The session's own completion code (completion only).
    pub completion_code: Option<&'a str>,
}

impl HandoffIds<'static> {
    /// The ids a preview of the hand-off is filled with (the console shows the redirect as it
    /// will look, on the server and live in the browser while the owner types).
    pub const EXAMPLE: Self = Self {
        participant_id: "P-EXAMPLE",
        prolific_pid: Some("PROLIFIC_PID"),
        study_id: Some("STUDY_ID"),
        session_id: Some("SESSION_ID"),
        completion_code: Some("SESSIONCODE"),
    };
}

/// Percent-encodes a value for a URL query or path (RFC 3986 unreserved characters kept).
pub fn percent_encode(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for b in value.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

fn fill(template: &str, code: &str, ids: &HandoffIds<'_>) -> String {
    template
        .replace(
            "{participant}",
            &percent_encode(ids.prolific_pid.unwrap_or(ids.participant_id)),
        )
        .replace("{code}", &percent_encode(code))
        .replace("{study}", &percent_encode(ids.study_id.unwrap_or_default()))
        .replace(
            "{session}",
            &percent_encode(ids.session_id.unwrap_or_default()),
        )
}

/// Where to send someone who finished, and the code to show them: `(url, code)`.
///
/// ```
/// use memeboard_core::fieldwork::{completion_handoff, Handoff, HandoffIds};
/// let ids = HandoffIds { participant_id: "P-1", prolific_pid: Some("5f0c"), completion_code: Some("AB12CD34"), ..Default::default() };
/// let prolific = Handoff { prolific_completion_code: Some("C1ABCDEF".into()), ..Default::default() };
/// assert_eq!(completion_handoff(&prolific, &ids), Some((
///     "https://app.prolific.com/submissions/complete?cc=C1ABCDEF".to_owned(), "C1ABCDEF".to_owned())));
/// let panel = Handoff { completion_url_template: Some("https://panel.example/done?id={participant}&c={code}".into()), ..Default::default() };
/// assert_eq!(completion_handoff(&panel, &ids).unwrap().0, "https://panel.example/done?id=5f0c&c=AB12CD34");
/// assert_eq!(completion_handoff(&Handoff::default(), &ids), None);
/// ```
pub fn completion_handoff(h: &Handoff, ids: &HandoffIds<'_>) -> Option<(String, String)> {
    let code = h
        .prolific_completion_code
        .as_deref()
        .or(ids.completion_code)
        .unwrap_or_default()
        .to_owned();
    if let Some(t) = &h.completion_url_template {
        return Some((fill(t, &code, ids), code));
    }
    let cc = h.prolific_completion_code.as_deref()?;
    Some((
        format!("{PROLIFIC_COMPLETE_URL}?cc={}", percent_encode(cc)),
        code,
    ))
}

/// Where to send someone screened out, and the code to show: `(url, code)`; `None` without a
/// screen-out destination.
///
/// ```
/// use memeboard_core::fieldwork::{screenout_handoff, Handoff, HandoffIds};
/// let h = Handoff { prolific_screenout_code: Some("SCREEN1".into()), ..Default::default() };
/// let ids = HandoffIds { participant_id: "P-1", ..Default::default() };
/// assert_eq!(screenout_handoff(&h, &ids).unwrap().0, "https://app.prolific.com/submissions/complete?cc=SCREEN1");
/// ```
pub fn screenout_handoff(h: &Handoff, ids: &HandoffIds<'_>) -> Option<(String, String)> {
    let code = h.prolific_screenout_code.clone().unwrap_or_default();
    if let Some(t) = &h.screenout_url_template {
        return Some((fill(t, &code, ids), code));
    }
    let cc = h.prolific_screenout_code.as_deref()?;
    Some((
        format!("{PROLIFIC_COMPLETE_URL}?cc={}", percent_encode(cc)),
        code,
    ))
}
