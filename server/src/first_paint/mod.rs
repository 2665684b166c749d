//! The first paint: the pages a slow phone waits longest for — the home page's quiz list and
//! a quiz's intro and consent — rendered on the server into the app's HTML shell, so that
//! their content is on screen before the WebAssembly app has arrived (issue 32: real content
//! within 2.5 s on a slow-4G phone, measured by `tests/e2e/perf/first-paint.mjs`).
//!
//! The rendered markup sits inside the shell's `#boot` element, which the app removes when it
//! mounts and renders the same page itself: a progressive enhancement, never a second source
//! of truth. The words come from [`memeboard_core::page_text`], which the app's string tables
//! read too, and the data from the same functions as the JSON API (nothing a page could not
//! already fetch). Anything that fails (no shell built, an unknown quiz) serves the plain
//! shell, whose app then says what went wrong.

mod board;
mod home;
mod quiz;

use crate::state::AppState;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use axum::http::header::{ACCEPT_LANGUAGE, COOKIE};
use axum::http::HeaderMap;
use axum::response::Response;

/// The cookie the shells' head script copies the reader's language choice into (the app
/// keeps it in `localStorage`, which a server cannot read).
pub const LANG_COOKIE: &str = "memeboard_lang";

/// Whether to render in Chinese: the reader's stored choice (the [`LANG_COOKIE`]), else the
/// first English or Chinese tag of `Accept-Language` (what `navigator.language`, the app's
/// own fallback, reports), else English — the app's order.
///
/// ```
/// use axum::http::{HeaderMap, HeaderValue};
/// use memeboard_server::first_paint::reads_chinese;
/// let mut h = HeaderMap::new();
/// h.insert("accept-language", HeaderValue::from_static("fr-FR,zh-CN;q=0.8,en;q=0.5"));
/// assert!(reads_chinese(&h));
/// h.insert("cookie", HeaderValue::from_static("a=1; memeboard_lang=en"));
/// assert!(!reads_chinese(&h));
/// ```
pub fn reads_chinese(headers: &HeaderMap) -> bool {
    let stored = headers
        .get_all(COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .find_map(|pair| pair.trim().strip_prefix(LANG_COOKIE)?.strip_prefix('='));
    let browser = headers
        .get(ACCEPT_LANGUAGE)
        .and_then(|v| v.to_str().ok())
        .into_iter()
        .flat_map(|v| v.split(','))
        .map(|tag| tag.split(';').next().unwrap_or_default().trim());
    stored
        .into_iter()
        .chain(browser)
        .map(str::to_ascii_lowercase)
        .find_map(|tag| {
            if tag.starts_with("zh") {
                Some(true)
            } else if tag.starts_with("en") {
                Some(false)
            } else {
                None
            }
        })
        .unwrap_or(false)
}

/// `GET /`: the home page with its quiz list.
pub async fn home_page(State(state): State<AppState>, headers: HeaderMap) -> Response {
    let zh = reads_chinese(&headers);
    let content = crate::quiz::public_quizzes(&state.storage)
        .await
        .ok()
        .map(|quizzes| home::render(&quizzes, zh));
    state.shells.quiz_page(content, zh)
}

/// `GET /quiz/{slug}`: the quiz's intro and consent, or its header alone when a start would
/// be refused (the app then shows why).
pub async fn quiz_page(
    State(state): State<AppState>,
    Path(slug): Path<String>,
    query: Result<Query<crate::quiz::Visitor>, QueryRejection>,
    headers: HeaderMap,
) -> Response {
    let zh = reads_chinese(&headers);
    let visitor = query.map(|Query(v)| v).unwrap_or_default();
    // One read of the quiz: its summary, and whether a start by this visitor is refused.
    let (kind, content) = match crate::quiz::find_quiz(&state.storage, &slug).await {
        Ok(row) => {
            let admitted = crate::quiz::check_admission(&state.storage, &row, &visitor)
                .await
                .is_ok();
            match crate::quiz::summarize(&row) {
                Ok(summary) => (
                    Some(summary.task_kind),
                    Some(quiz::render(&summary, admitted, zh)),
                ),
                Err(_) => (None, None),
            }
        }
        Err(_) => (None, None),
    };
    state.shells.quiz_kind_page(kind, content, zh)
}

/// `GET /session/{id}` and `/session/{id}/results`: the plain shell (these pages are the
/// participant's own: no first paint) of the bundle that has the session's kind.
pub async fn session_page(
    State(state): State<AppState>,
    Path(rest): Path<String>,
    headers: HeaderMap,
) -> Response {
    let id = rest.split('/').next().unwrap_or_default();
    let kind = match state.storage.find_session(id).await {
        Ok(session) => session.map(|s| s.task_kind),
        Err(_) => None,
    };
    state
        .shells
        .quiz_kind_page(kind, None, reads_chinese(&headers))
}

/// What a board link may say: which half, which subset.
#[derive(Debug, Default, serde::Deserialize)]
pub struct BoardLink {
    split: Option<memeboard_core::api::BoardSplit>,
    subset: Option<String>,
}

/// `GET /boards/{*rest}`: a board's heading and table (`/boards/{slug}`); the boards
/// bundle's other pages (`/boards`) get the plain shell.
pub async fn board_page(
    State(state): State<AppState>,
    path: Option<Path<String>>,
    query: Result<Query<BoardLink>, QueryRejection>,
    headers: HeaderMap,
) -> Response {
    let zh = reads_chinese(&headers);
    let link = query.map(|Query(l)| l).unwrap_or_default();
    let slug = path
        .map(|Path(p)| p)
        .filter(|p| !p.is_empty() && !p.contains('/'));
    let content = match slug {
        Some(slug) => crate::leaderboard::board(
            &state,
            &slug,
            link.split
                .unwrap_or(memeboard_core::api::BoardSplit::Public),
            link.subset.as_deref(),
            false,
        )
        .await
        .ok()
        .map(|b| board::render(&b, zh)),
        None => None,
    };
    state.shells.boards_page(content, zh)
}
