//! The app's HTML shells, read once when the router is built, with the place in each where
//! the first paint (`server/src/first_paint/`) goes: the `<main>` inside `#boot`, which holds a
//! "Loading…" note; and HTML escaping. Its own module, below both the shared state (which
//! holds the shells) and the first paint (which fills them in).

use axum::http::header::{CONTENT_TYPE, VARY};
use axum::http::{HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use memeboard_core::kinds::TaskKind;
use std::path::Path;

/// One shell split around its boot `<main>`'s content.
#[derive(Debug, Clone)]
struct Shell {
    /// Up to and including `<main …>` of `#boot`.
    head: String,
    /// From the boot `</main>` on.
    tail: String,
}

impl Shell {
    /// Splits `html` at the boot `<main>`; `None` for a shell without one.
    fn split(html: &str) -> Option<Self> {
        let boot = html.find("<div id=\"boot\"")?;
        let open = boot + html[boot..].find("<main")?;
        let content = open + html[open..].find('>')? + 1;
        let close = content + html[content..].find("</main>")?;
        Some(Self {
            head: html[..content].to_owned(),
            tail: html[close..].to_owned(),
        })
    }

    /// The page with `content` in the boot `<main>`, `<html lang>` and `<title>` set.
    fn page(&self, content: &str, title: &str, zh: bool) -> String {
        let lang = if zh { "zh-CN" } else { "en" };
        let head = self
            .head
            .replacen(
                "<html lang=\"zh-CN\">",
                &format!("<html lang=\"{lang}\">"),
                1,
            )
            .replacen(
                "<title>memeboard</title>",
                &format!("<title>{} · memeboard</title>", escape(title)),
                1,
            );
        format!(
            "{head}<div data-first-paint=\"\">{content}</div>{}",
            self.tail
        )
    }
}

/// One bundle's shell: split for filling in, and whole for serving as it is.
#[derive(Debug, Clone, Default)]
struct BundleShell {
    split: Option<Shell>,
    whole: Option<String>,
}

impl BundleShell {
    fn read(path: &Path) -> Option<Self> {
        let whole = std::fs::read_to_string(path).ok()?;
        Some(Self {
            split: Shell::split(&whole),
            whole: Some(whole),
        })
    }

    /// The shell with `content` (`(title, html)`) in it, or the plain shell when there is no
    /// content to show. `Vary` names what chose the language.
    fn page(&self, content: Option<(String, String)>, zh: bool) -> Response {
        let html = match (&self.split, &self.whole, content) {
            (Some(shell), _, Some((title, body))) => shell.page(&body, &title, zh),
            (_, Some(whole), _) => whole.clone(),
            (_, None, _) => return StatusCode::NOT_FOUND.into_response(),
        };
        (
            [
                (
                    CONTENT_TYPE,
                    HeaderValue::from_static("text/html; charset=utf-8"),
                ),
                (VARY, HeaderValue::from_static("Accept-Language, Cookie")),
            ],
            html,
        )
            .into_response()
    }
}

/// The shells the first paint fills in: the quiz bundle's (home and quiz pages) and the
/// boards bundle's (a board).
#[derive(Debug, Clone, Default)]
pub struct Shells {
    quiz: BundleShell,
    boards: BundleShell,
}

impl Shells {
    /// The shells built into `static_dir` (none: pages answer 404, as the static files do;
    /// no boards bundle: its pages get the quiz bundle's shell, as `startup` serves them).
    pub fn read(static_dir: &Path) -> Self {
        let quiz = BundleShell::read(&static_dir.join("index.html")).unwrap_or_default();
        let boards = BundleShell::read(&static_dir.join("boards-app/index.html"))
            .unwrap_or_else(|| quiz.clone());
        Self { quiz, boards }
    }

    /// A quiz-bundle page with `content` (`(title, html)`), or the plain shell.
    pub fn quiz_page(&self, content: Option<(String, String)>, zh: bool) -> Response {
        self.quiz.page(content, zh)
    }

    /// A boards-bundle page with `content`, or the plain shell.
    pub fn boards_page(&self, content: Option<(String, String)>, zh: bool) -> Response {
        self.boards.page(content, zh)
    }

    /// A page of a quiz of `kind` (`None`: not known) with `content`: the judging kinds'
    /// pages are in the boards bundle (the quiz bundle leaves their components out,
    /// `app/src/bundles.rs`), every other quiz's in the quiz bundle.
    pub fn quiz_kind_page(
        &self,
        kind: Option<TaskKind>,
        content: Option<(String, String)>,
        zh: bool,
    ) -> Response {
        if kind.is_some_and(TaskKind::is_judging) {
            self.boards.page(content, zh)
        } else {
            self.quiz.page(content, zh)
        }
    }
}

/// `text` with the characters that HTML gives meaning to escaped (for element text and
/// double-quoted attribute values).
///
/// ```
/// # use memeboard_server::http::html_shell::escape;
/// assert_eq!(escape("<b>\"A&B\"</b>"), "&lt;b&gt;&quot;A&amp;B&quot;&lt;/b&gt;");
/// ```
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const SHELL: &str = "<!DOCTYPE html><html lang=\"zh-CN\"><head><title>memeboard</title>\
        </head><body><div id=\"boot\" class=\"boot\"><header></header><main class=\"wrap\">\
        <p class=\"boot-note\">Loading…</p></main></div></body></html>";

    #[test]
    fn content_replaces_the_loading_note() {
        let shell = Shell::split(SHELL).expect("a boot main");
        let page = shell.page("<h1>Hi</h1>", "Home <1>", false);
        assert!(page
            .contains("<main class=\"wrap\"><div data-first-paint=\"\"><h1>Hi</h1></div></main>"));
        assert!(!page.contains("Loading…"));
        assert!(page.contains("<html lang=\"en\">"));
        assert!(page.contains("<title>Home &lt;1&gt; · memeboard</title>"));
    }

    #[test]
    fn a_shell_without_boot_is_served_whole() {
        assert!(Shell::split("<html><body><main></main></body></html>").is_none());
    }
}
