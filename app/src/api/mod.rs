//! Every HTTP call the app makes to the JSON API under `/api/` (same origin).
//!
//! Failed calls come back as [`ApiError`]; a server error's [`Display`](std::fmt::Display) is
//! the `detail` text of its `{"errors":[{"detail":…}]}` body, so pages can show it as is.
//! Prediction uploads go through `XMLHttpRequest` instead of `fetch` so the page can show
//! upload progress; they fail with an [`UploadFailure`] that keeps every problem line.
mod account;
mod boards;
mod console;
mod model;
mod quiz;
mod submissions;
mod tasks;
#[cfg(test)]
mod tests;

use crate::i18n::Lang;
use gloo_net::http::{Request, RequestBuilder, Response};
use memeboard_core::api::ApiErrorBody;
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::fmt;

pub use account::{create_author, me};
pub use boards::{
    board, board_download_url, board_query, paper_tables, split_name, table_download_url,
};
pub use console::{
    console, delete_participant, owner_file, owner_tasks, progress, rescore, save_settings,
};
pub use model::{embedding_model, model_manifest_bytes};
pub use quiz::{
    get_quiz, get_results, get_session, list_quizzes, new_headphone_check, quiz_stats,
    start_session, submit_answer, submit_check, submit_preface, PREFACE_RETRY_DELAYS_MS,
};
pub use submissions::{
    item_gaps, submission, submission_query, upload_predictions, withdraw_submission,
    UploadFailure, UploadMeta, Withdrawn,
};
pub use tasks::{
    dev_gold, dev_gold_lines, dev_meanings, download_with_token, list_tasks, parse_dev_gold,
    task_file_url, task_manifest, TaskFile,
};

/// Why an API call failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ApiError {
    /// No response arrived (offline, server down, request blocked).
    Network(String),
    /// The server answered with a non-2xx status.
    Server {
        /// HTTP status code.
        status: u16,
        /// The error body's detail text (or a short description of the status), in the
        /// language of the moment it failed.
        detail: String,
        /// The error body as sent (empty for errors made here): its messages are written
        /// again in the reader's language whenever the error is shown.
        body: String,
    },
    /// A 2xx response whose body was not the expected JSON.
    Decode(String),
}

impl ApiError {
    /// Whether sending the same request again may succeed: no response at all, or a server
    /// that could not handle it now (5xx: e.g. 503 "not recorded, retry"). Safe for answers,
    /// whose idempotency key makes a resend record nothing twice.
    pub fn is_retryable(&self) -> bool {
        match self {
            Self::Network(_) => true,
            Self::Server { status, .. } => *status >= 500,
            Self::Decode(_) => false,
        }
    }

    /// The HTTP status, for server errors.
    pub fn status(&self) -> Option<u16> {
        match self {
            Self::Server { status, .. } => Some(*status),
            _ => None,
        }
    }
}

impl fmt::Display for ApiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Network(msg) => write!(f, "Could not reach the server ({msg})."),
            Self::Server { detail, body, .. } => {
                match body_messages(crate::i18n::current_lang(), body) {
                    Some(lines) => f.write_str(&lines.join("; ")),
                    None => f.write_str(detail),
                }
            }
            Self::Decode(msg) => write!(f, "Unexpected response from the server ({msg})."),
        }
    }
}

impl std::error::Error for ApiError {}

/// The message to show for a failed response: the details of an [`ApiErrorBody`] joined
/// with "; ", else the start of the body text, else the status line.
pub fn error_detail(status: u16, status_text: &str, body: &str) -> String {
    error_details(status, status_text, body).join("; ")
}

/// Every message of a failed response, one per problem, in the reader's language: the
/// details of an [`ApiErrorBody`] (rendered from their codes; `detail` as sent for codes this
/// app does not know), else one line from the body text or the status line.
pub fn error_details(status: u16, status_text: &str, body: &str) -> Vec<String> {
    error_details_in(crate::i18n::current_lang(), status, status_text, body)
}

/// [`error_details`] in `lang`.
pub fn error_details_in(lang: Lang, status: u16, status_text: &str, body: &str) -> Vec<String> {
    body_messages(lang, body).unwrap_or_else(|| vec![fallback_detail(status, status_text, body)])
}

/// The messages of an [`ApiErrorBody`] in `lang` (`None` when `body` is not one, or has none).
fn body_messages(lang: Lang, body: &str) -> Option<Vec<String>> {
    let parsed = serde_json::from_str::<ApiErrorBody>(body).ok()?;
    let details: Vec<String> = parsed
        .errors
        .iter()
        .map(|e| e.render(lang.locale()).trim().to_owned())
        .filter(|d| !d.is_empty())
        .collect();
    (!details.is_empty()).then_some(details)
}

/// The start of a non-JSON body, else the status line.
fn fallback_detail(status: u16, status_text: &str, body: &str) -> String {
    let text = body.trim();
    if text.is_empty() || text.starts_with('<') {
        let status_text = status_text.trim();
        if status_text.is_empty() {
            format!("HTTP {status}")
        } else {
            format!("HTTP {status} {status_text}")
        }
    } else {
        let short: String = text.chars().take(200).collect();
        format!("HTTP {status}: {short}")
    }
}

/// Percent-encodes one path segment.
pub(crate) fn segment(s: &str) -> String {
    String::from(js_sys::encode_uri_component(s))
}

pub(crate) async fn read<T: DeserializeOwned>(resp: Response) -> Result<T, ApiError> {
    if resp.ok() {
        resp.json::<T>()
            .await
            .map_err(|e| ApiError::Decode(e.to_string()))
    } else {
        Err(server_error(resp).await)
    }
}

/// The error of a response that is not ok: its status, the server's detail and the body.
async fn server_error(resp: Response) -> ApiError {
    let status = resp.status();
    let status_text = resp.status_text();
    let body = resp.text().await.unwrap_or_default();
    ApiError::Server {
        status,
        detail: error_detail(status, &status_text, &body),
        body,
    }
}

async fn get_json<T: DeserializeOwned>(url: &str) -> Result<T, ApiError> {
    send_json(Request::get(url)).await
}

/// `GET` with `Authorization: Bearer {token}`.
pub(crate) async fn get_json_with_token<T: DeserializeOwned>(
    url: &str,
    token: &str,
) -> Result<T, ApiError> {
    send_with_token(Request::get(url), token).await
}

/// Sends `request` (no body) with an owner token and reads its JSON answer.
pub(crate) async fn send_with_token<T: DeserializeOwned>(
    request: RequestBuilder,
    token: &str,
) -> Result<T, ApiError> {
    send_json(request.header("Authorization", &bearer(token))).await
}

/// POSTs `body` as JSON with an owner token and reads the JSON answer.
pub(crate) async fn post_json_with_token<T: DeserializeOwned, B: Serialize>(
    url: &str,
    token: &str,
    body: &B,
) -> Result<T, ApiError> {
    let request = Request::post(url)
        .header("Accept", "application/json")
        .header("Authorization", &bearer(token));
    send_body(request, body).await
}

async fn send_json<T: DeserializeOwned>(request: RequestBuilder) -> Result<T, ApiError> {
    let resp = request
        .header("Accept", "application/json")
        .send()
        .await
        .map_err(|e| ApiError::Network(e.to_string()))?;
    read(resp).await
}

async fn post_json<B: Serialize, T: DeserializeOwned>(url: &str, body: &B) -> Result<T, ApiError> {
    send_body(
        Request::post(url).header("Accept", "application/json"),
        body,
    )
    .await
}

/// Sends `request` with `body` as JSON and reads the JSON answer.
async fn send_body<B: Serialize, T: DeserializeOwned>(
    request: RequestBuilder,
    body: &B,
) -> Result<T, ApiError> {
    let resp = request
        .json(body)
        .map_err(|e| ApiError::Decode(e.to_string()))?
        .send()
        .await
        .map_err(|e| ApiError::Network(e.to_string()))?;
    read(resp).await
}

/// Sends a request, and again after each of `delays_ms` while the failure may be temporary
/// ([`ApiError::is_retryable`]); the last outcome. Only for requests that are safe to repeat
/// (idempotency keys). `before_resend(n)` runs before the n-th resend; returning false stops.
pub async fn with_resends<T, F: std::future::Future<Output = Result<T, ApiError>>>(
    delays_ms: &[i32],
    mut send: impl FnMut() -> F,
    mut before_resend: impl FnMut(u32) -> bool,
) -> Result<T, ApiError> {
    let mut outcome = send().await;
    for (n, &delay) in (1..).zip(delays_ms) {
        match &outcome {
            Err(e) if e.is_retryable() && before_resend(n) => {}
            _ => break,
        }
        crate::browser::sleep_ms(delay).await;
        outcome = send().await;
    }
    outcome
}

/// A GET whose body is text (downloads), with the API's error handling.
async fn get_text(url: &str) -> Result<String, ApiError> {
    let resp = Request::get(url)
        .send()
        .await
        .map_err(|e| ApiError::Network(e.to_string()))?;
    checked_text(resp).await
}

/// A response's text, or the API's error when it is not a success.
pub(crate) async fn checked_text(resp: Response) -> Result<String, ApiError> {
    if !resp.ok() {
        return Err(server_error(resp).await);
    }
    resp.text()
        .await
        .map_err(|e| ApiError::Decode(e.to_string()))
}

/// Percent-encodes a query value or path segment (everything but `A-Z a-z 0-9 - _ . ~`).
pub fn encode_component(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~') {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// `Authorization: Bearer {token}` for owner calls.
pub(crate) fn bearer(token: &str) -> String {
    format!("Bearer {}", token.trim())
}
