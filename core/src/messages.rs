//! The catalogue of user-visible messages (server errors, prediction-file problems, metric
//! names) in English and 中文, each under a stable code, so the server can send a code with
//! its parameters and the browser app can show it in the reader's language.
//!
//! A [`Message`] is a code plus named parameters. Its template in the catalogue ([`catalogue`]) says how it
//! reads in each [`Locale`]:
//!
//! - `{name}` is replaced by the parameter `name` (a number, an id, a value quoted from a file);
//! - `{@name}` embeds another message: the parameter `name` holds its code and the parameters
//!   `name.*` hold its parameters ([`Message::with_message`]); a value that is not a known code
//!   is shown as it is (e.g. a parser's own English wording);
//! - `{{` and `}}` are literal braces.
//!
//! The English text is the wire's `detail` (for API clients and logs); the app renders the
//! code itself and falls back to `detail` for codes it does not know.
//!
//! Adding a message: add an [`Entry`] (code, English, 中文, with the same parameters) to
//! [`CATALOGUE`] (quiz participants may meet it), [`CLIENT_CATALOGUE`] (protocol errors
//! only other API clients cause) or [`RESEARCHER_CATALOGUE`] (only researchers, owners and
//! board readers meet it), and build it with [`msg!`](crate::msg). The
//! tests check that codes are unique, both templates use the same parameters, and every `msg!`
//! in the workspace names a known code.
//!
//! ```
//! use memeboard_core::messages::{Locale, Message};
//! use memeboard_core::msg;
//! let m = msg!("quiz.not_found", slug = "memes");
//! assert_eq!(m.to_string(), "no open quiz named `memes`");
//! assert_eq!(m.render(Locale::Zh), "没有名为 `memes` 的开放测验");
//! let line = msg!("file.at_line_field", line = 3, field = "answer")
//!     .with_message("problem", msg!("file.missing"));
//! assert_eq!(line.to_string(), "line 3, field `answer`: missing");
//! assert_eq!(line.render(Locale::Zh), "第 3 行，字段 `answer`：缺失");
//! ```

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt::Write as _;

#[cfg(not(feature = "quiz-messages"))]
mod client_entries;
#[cfg(not(feature = "quiz-messages"))]
mod paper_entries;
mod quiz_entries;
#[cfg(not(feature = "quiz-messages"))]
mod researcher_entries;
#[cfg(not(feature = "quiz-messages"))]
mod study_entries;
#[cfg(not(feature = "quiz-messages"))]
pub use client_entries::*;
#[cfg(not(feature = "quiz-messages"))]
pub use paper_entries::*;
pub use quiz_entries::*;
#[cfg(not(feature = "quiz-messages"))]
pub use researcher_entries::*;
#[cfg(not(feature = "quiz-messages"))]
pub use study_entries::*;

/// A language messages are rendered in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Locale {
    /// English (also the wire's `detail`).
    En,
    /// Simplified Chinese.
    Zh,
}

/// One catalogue entry: a stable code and its two templates.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Entry {
    /// Stable dotted code, sent on the wire (`quiz.not_found`).
    pub code: &'static str,
    /// English template.
    pub en: &'static str,
    /// 中文 template.
    pub zh: &'static str,
}

impl Entry {
    /// The template of `locale`.
    pub fn template(&self, locale: Locale) -> &'static str {
        match locale {
            Locale::En => self.en,
            Locale::Zh => self.zh,
        }
    }
}

/// A user-visible message: a catalogue code and its named parameters.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Message {
    code: String,
    #[serde(default)]
    params: BTreeMap<String, String>,
}

impl Message {
    /// A message with catalogue code `code` and no parameters yet (add them with
    /// [`with`](Self::with)); prefer [`msg!`](crate::msg).
    pub fn new(code: &str) -> Self {
        debug_assert!(
            entry(code).is_some(),
            "message code `{code}` is not in the catalogue"
        );
        Self {
            code: code.to_owned(),
            params: BTreeMap::new(),
        }
    }

    /// Text that is not translated (a third-party parser's wording, a value from a file):
    /// shown as is in both languages.
    pub fn text(text: impl Into<String>) -> Self {
        Self::new(TEXT).with("text", text.into())
    }

    /// Rebuilds a message received on the wire (codes unknown here render as `None`).
    pub fn from_parts(code: impl Into<String>, params: BTreeMap<String, String>) -> Self {
        Self {
            code: code.into(),
            params,
        }
    }

    /// Sets parameter `name`.
    #[must_use]
    pub fn with(mut self, name: &str, value: impl std::fmt::Display) -> Self {
        self.params.insert(name.to_owned(), value.to_string());
        self
    }

    /// Embeds `inner` as parameter `name` (rendered where the template says `{@name}`).
    #[must_use]
    pub fn with_message(mut self, name: &str, inner: Message) -> Self {
        for (k, v) in inner.params {
            self.params.insert(format!("{name}.{k}"), v);
        }
        self.params.insert(name.to_owned(), inner.code);
        self
    }

    /// The stable code.
    pub fn code(&self) -> &str {
        &self.code
    }

    /// The parameters (embedded messages flattened as `name` = code, `name.*` = parameters).
    pub fn params(&self) -> &BTreeMap<String, String> {
        &self.params
    }

    /// The text in `locale`; an unknown code (a newer server's) gives its code and parameters.
    pub fn render(&self, locale: Locale) -> String {
        render(&self.code, &self.params, locale).unwrap_or_else(|| {
            let params: Vec<String> = self
                .params
                .iter()
                .map(|(k, v)| format!("{k}={v}"))
                .collect();
            format!("{} ({})", self.code, params.join(", "))
        })
    }
}

impl std::fmt::Display for Message {
    /// The English text.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.render(Locale::En))
    }
}

impl From<String> for Message {
    /// Untranslated text (see [`Message::text`]).
    fn from(text: String) -> Self {
        Self::text(text)
    }
}

impl From<&str> for Message {
    /// Untranslated text (see [`Message::text`]).
    fn from(text: &str) -> Self {
        Self::text(text)
    }
}

/// Builds a [`Message`]: `msg!("code", name = value, …)`; values are `Display`.
#[macro_export]
macro_rules! msg {
    ($code:literal $(, $name:ident = $value:expr)* $(,)?) => {
        $crate::messages::Message::new($code)$(.with(stringify!($name), &$value))*
    };
}

/// The code of untranslated text.
pub const TEXT: &str = "text";

/// Every message of this build: [`CATALOGUE`], then [`CLIENT_CATALOGUE`],
/// [`RESEARCHER_CATALOGUE`], [`STUDY_CATALOGUE`] and [`PAPER_CATALOGUE`] unless built with the `quiz-messages`
/// feature (the quiz browser bundle).
pub fn catalogue() -> impl Iterator<Item = &'static Entry> {
    #[cfg(not(feature = "quiz-messages"))]
    let rest = CLIENT_CATALOGUE
        .iter()
        .chain(RESEARCHER_CATALOGUE)
        .chain(STUDY_CATALOGUE)
        .chain(PAPER_CATALOGUE);
    #[cfg(feature = "quiz-messages")]
    let rest = [].iter();
    CATALOGUE.iter().chain(rest)
}

/// The entry of `code`.
pub fn entry(code: &str) -> Option<&'static Entry> {
    catalogue().find(|e| e.code == code)
}

/// Renders code `code` with `params` in `locale`; `None` when the code is unknown.
pub fn render(code: &str, params: &BTreeMap<String, String>, locale: Locale) -> Option<String> {
    let template = entry(code)?.template(locale);
    let mut out = String::with_capacity(template.len() + 16);
    let mut rest = template;
    while let Some(k) = rest.find(['{', '}']) {
        out.push_str(&rest[..k]);
        let tail = &rest[k..];
        if tail.starts_with("{{") || tail.starts_with("}}") {
            out.push_str(&tail[..1]);
            rest = &tail[2..];
            continue;
        }
        let Some(end) = tail.find('}').filter(|_| tail.starts_with('{')) else {
            out.push_str(&tail[..1]);
            rest = &tail[1..];
            continue;
        };
        let name = &tail[1..end];
        rest = &tail[end + 1..];
        if let Some(name) = name.strip_prefix('@') {
            match params.get(name) {
                Some(inner_code) => {
                    let prefix = format!("{name}.");
                    let inner: BTreeMap<String, String> = params
                        .iter()
                        .filter_map(|(k, v)| {
                            k.strip_prefix(&prefix).map(|k| (k.to_owned(), v.clone()))
                        })
                        .collect();
                    match render(inner_code, &inner, locale) {
                        Some(text) => out.push_str(&text),
                        None => out.push_str(inner_code),
                    }
                }
                None => {
                    let _ = write!(out, "{{@{name}}}");
                }
            }
        } else {
            match params.get(name) {
                Some(v) => out.push_str(v),
                None => {
                    let _ = write!(out, "{{{name}}}");
                }
            }
        }
    }
    out.push_str(rest);
    Some(out)
}

/// The parameter names a template uses (`{name}` and `{@name}` both give `name`), sorted.
pub fn placeholders(template: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = template;
    while let Some(k) = rest.find(['{', '}']) {
        let tail = &rest[k..];
        if tail.starts_with("{{") || tail.starts_with("}}") {
            rest = &tail[2..];
            continue;
        }
        match tail.find('}').filter(|_| tail.starts_with('{')) {
            Some(end) => {
                out.push(tail[1..end].trim_start_matches('@'));
                rest = &tail[end + 1..];
            }
            None => rest = &tail[1..],
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// Reads an English label the server sent (a metric name, a baseline row, a scoring note) as
/// its catalogue message, so the app can show it in the reader's language. Only entries
/// under `label.` are matched; parameters are captured from the text.
///
/// ```
/// use memeboard_core::messages::{parse_label, Locale};
/// let m = parse_label("accuracy on parseable answers").unwrap();
/// assert_eq!(m.code(), "label.accuracy_on_parseable");
/// assert_eq!(m.render(Locale::Zh), "可解析答案的准确率");
/// assert!(parse_label("something else").is_none());
/// ```
pub fn parse_label(text: &str) -> Option<Message> {
    catalogue()
        .filter(|e| e.code.starts_with("label."))
        .find_map(|e| match_template(e.en, text).map(|params| Message::from_parts(e.code, params)))
}

/// The parameters that make `template` read as `text` (literal parts in order, each
/// parameter a non-empty run), or `None`. Braces escapes are not used in labels.
fn match_template(template: &str, text: &str) -> Option<BTreeMap<String, String>> {
    // Split into literal pieces and parameter names.
    let mut literals = Vec::new();
    let mut names = Vec::new();
    let mut rest = template;
    while let Some(k) = rest.find('{') {
        literals.push(&rest[..k]);
        let end = rest[k..].find('}')? + k;
        names.push(rest[k + 1..end].trim_start_matches('@'));
        rest = &rest[end + 1..];
    }
    literals.push(rest);
    let mut text = text.strip_prefix(literals[0])?;
    let mut params = BTreeMap::new();
    for (i, name) in names.iter().enumerate() {
        let next = literals[i + 1];
        let end = if next.is_empty() && i + 1 == names.len() {
            text.len()
        } else if i + 1 == names.len() {
            text.len()
                .checked_sub(next.len())
                .filter(|&e| text[e..] == *next && text.is_char_boundary(e))?
        } else {
            text.find(next).filter(|&e| e > 0)?
        };
        if end == 0 {
            return None;
        }
        params.insert((*name).to_owned(), text[..end].to_owned());
        text = &text[end..];
        text = text.strip_prefix(next)?;
    }
    text.is_empty().then_some(params)
}

#[cfg(test)]
mod tests;
