//! Every HTTP call the app makes to the JSON API under `/api/` (same origin).
//!
//! Failed calls come back as [`ApiError`]; a server error's [`Display`](std::fmt::Display) is
//! the `detail` text of its `{"errors":[{"detail":…}]}` body, so pages can show it as is.
//! Prediction uploads go through `XMLHttpRequest` instead of `fetch` so the page can show
//! upload progress; they fail with an [`UploadFailure`] that keeps every problem line.

use crate::i18n::Lang;
use gloo_net::http::{Request, RequestBuilder, Response};
use memeboard_core::api::{
    ApiErrorBody, BoardResponse, BoardSplit, CreateAuthorRequest, CreateAuthorResponse,
    CrowdStatsResponse, ItemGap, MeResponse, QuizSummary, ResultsResponse, SessionResponse,
    StartSessionRequest, SubmissionDetail, SubmitAnswerRequest, SubmitAnswerResponse,
    SubmitPredictionsResponse, SubmitPrefaceRequest, SubmitPrefaceResponse, TaskSummary, Weights,
};
use memeboard_core::leaderboard::{McqDevGold, McqGold};
use memeboard_core::predictions::{FileFormat, TaskManifest};
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::fmt;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;

/// Why an API call failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ApiError {
    /// No response arrived (offline, server down, request blocked).
    Network(String),
    /// The server answered with a non-2xx status.
    Server {
        /// HTTP status code.
        status: u16,
        /// The error body's detail text (or a short description of the status).
        detail: String,
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
            Self::Server { detail, .. } => f.write_str(detail),
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
    if let Ok(parsed) = serde_json::from_str::<ApiErrorBody>(body) {
        let details: Vec<String> = parsed
            .errors
            .iter()
            .map(|e| e.render(lang.locale()).trim().to_owned())
            .filter(|d| !d.is_empty())
            .collect();
        if !details.is_empty() {
            return details;
        }
    }
    vec![fallback_detail(status, status_text, body)]
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
        let status = resp.status();
        let status_text = resp.status_text();
        let body = resp.text().await.unwrap_or_default();
        Err(ApiError::Server {
            status,
            detail: error_detail(status, &status_text, &body),
        })
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
    send_json(Request::get(url).header("Authorization", &format!("Bearer {}", token.trim()))).await
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
    let resp = Request::post(url)
        .header("Accept", "application/json")
        .json(body)
        .map_err(|e| ApiError::Decode(e.to_string()))?
        .send()
        .await
        .map_err(|e| ApiError::Network(e.to_string()))?;
    read(resp).await
}

/// `GET /api/quizzes`: the open quizzes.
pub async fn list_quizzes() -> Result<Vec<QuizSummary>, ApiError> {
    get_json("/api/quizzes").await
}

/// `GET /api/quizzes/{slug}`: one quiz.
pub async fn get_quiz(slug: &str) -> Result<QuizSummary, ApiError> {
    get_json(&format!("/api/quizzes/{}", segment(slug))).await
}

/// `GET /api/quizzes/{slug}/stats`: the crowd baseline of a quiz.
pub async fn quiz_stats(slug: &str) -> Result<CrowdStatsResponse, ApiError> {
    get_json(&format!("/api/quizzes/{}/stats", segment(slug))).await
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

/// `POST /api/quizzes/{slug}/headphone-checks`: a headphone check drawn by the server.
pub async fn new_headphone_check(
    slug: &str,
) -> Result<memeboard_core::api::HeadphoneCheckStart, ApiError> {
    post_json(
        &format!("/api/quizzes/{}/headphone-checks", segment(slug)),
        &serde_json::json!({}),
    )
    .await
}

/// `POST /api/quizzes/{slug}/sessions`: starts a batch.
pub async fn start_session(
    slug: &str,
    request: &StartSessionRequest,
) -> Result<SessionResponse, ApiError> {
    post_json(&format!("/api/quizzes/{}/sessions", segment(slug)), request).await
}

/// `GET /api/sessions/{id}`: a session with its items.
pub async fn get_session(session_id: &str) -> Result<SessionResponse, ApiError> {
    get_json(&format!("/api/sessions/{}", segment(session_id))).await
}

/// `POST /api/sessions/{id}/answers`: records one answer (idempotent per key).
pub async fn submit_answer(
    session_id: &str,
    request: &SubmitAnswerRequest,
) -> Result<SubmitAnswerResponse, ApiError> {
    post_json(
        &format!("/api/sessions/{}/answers", segment(session_id)),
        request,
    )
    .await
}

/// Waits before the automatic resends of a failed preface (as for answers): an identical
/// resend is answered with the stored preface, so repeating it is safe.
pub const PREFACE_RETRY_DELAYS_MS: [i32; 4] = [1_000, 2_000, 4_000, 8_000];

/// `POST /api/sessions/{id}/prefaces`: stores the familiarity answer of a clip and returns
/// the item with its question. Resent by itself while the failure may be temporary
/// (`before_resend(n)` as in [`with_resends`]): the server stores a preface once and answers
/// an identical resend with `replayed: true`.
pub async fn submit_preface(
    session_id: &str,
    request: &SubmitPrefaceRequest,
    before_resend: impl FnMut(u32) -> bool,
) -> Result<SubmitPrefaceResponse, ApiError> {
    let url = format!("/api/sessions/{}/prefaces", segment(session_id));
    with_resends(
        &PREFACE_RETRY_DELAYS_MS,
        || post_json(&url, request),
        before_resend,
    )
    .await
}

/// `GET /api/sessions/{id}/results`: score, crowd baseline and review (409 until complete).
pub async fn get_results(session_id: &str) -> Result<ResultsResponse, ApiError> {
    get_json(&format!("/api/sessions/{}/results", segment(session_id))).await
}

/// `POST /api/authors`: a new author and its bearer token (shown only in this response).
pub async fn create_author(
    request: &CreateAuthorRequest,
) -> Result<CreateAuthorResponse, ApiError> {
    post_json("/api/authors", request).await
}

/// `GET /api/me`: the token's author, quota and submissions (401 for an unknown token).
pub async fn me(token: &str) -> Result<MeResponse, ApiError> {
    get_json_with_token("/api/me", token).await
}

/// `GET /api/embedding-model`: the model behind explanation scores and its browser copy.
pub async fn embedding_model() -> Result<memeboard_core::api::EmbeddingModelInfo, ApiError> {
    get_json("/api/embedding-model").await
}

/// The size in bytes of the browser model's weights, from its manifest (`browser.json`,
/// about 1 KB; the weights themselves are not fetched).
pub async fn model_manifest_bytes(manifest_url: &str) -> Result<u64, ApiError> {
    /// The part of the manifest needed here.
    #[derive(serde::Deserialize)]
    struct Manifest {
        /// Size of the weights file.
        bytes: u64,
    }
    get_json::<Manifest>(manifest_url).await.map(|m| m.bytes)
}

/// `GET /api/tasks`: the tasks that have leaderboards.
pub async fn list_tasks() -> Result<Vec<TaskSummary>, ApiError> {
    get_json("/api/tasks").await
}

/// `GET /api/tasks/{slug}/manifest`: what a prediction file may contain (no gold). Sent with
/// the stored author token when there is one: a clip task's manifest (its choices) is given
/// only to authors while its quiz is open (the server ignores the token otherwise).
pub async fn task_manifest(slug: &str) -> Result<TaskManifest, ApiError> {
    let url = format!("/api/tasks/{}/manifest", segment(slug));
    match crate::storage::token() {
        Some(token) => get_json_with_token(&url, &token).await,
        None => get_json(&url).await,
    }
}

/// `GET /api/tasks/{slug}/dev-gold.jsonl`: gold of the open dev split (for previews).
pub async fn dev_gold(slug: &str) -> Result<Vec<McqGold>, ApiError> {
    let text = get_text(&task_file_url(slug, TaskFile::DevGold)).await?;
    parse_dev_gold(&text).map_err(ApiError::Decode)
}

/// `GET /api/tasks/{slug}/dev-gold.jsonl` read as one `T` per non-empty line: for kinds whose
/// dev gold lines have their own shape (the multi-panel kinds), so each kind declares it.
pub async fn dev_gold_lines<T: DeserializeOwned>(slug: &str) -> Result<Vec<T>, ApiError> {
    let text = get_text(&task_file_url(slug, TaskFile::DevGold)).await?;
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| {
            serde_json::from_str(l)
                .map_err(|e| ApiError::Decode(format!("dev gold line {}: {e}", i + 1)))
        })
        .collect()
}

/// Downloads `url` with `Authorization: Bearer {token}` and saves it as `file_name` (a link
/// cannot send the header): for inputs given only to authors (a clip task's while its quiz
/// is open).
pub async fn download_with_token(url: &str, token: &str, file_name: &str) -> Result<(), ApiError> {
    let resp = Request::get(url)
        .header("Authorization", &format!("Bearer {}", token.trim()))
        .send()
        .await
        .map_err(|e| ApiError::Network(e.to_string()))?;
    let text = checked_text(resp).await?;
    let js = |e: wasm_bindgen::JsValue| ApiError::Decode(format!("{e:?}"));
    let parts = js_sys::Array::of1(&wasm_bindgen::JsValue::from_str(&text));
    let blob = web_sys::Blob::new_with_str_sequence(&parts).map_err(js)?;
    let href = web_sys::Url::create_object_url_with_blob(&blob).map_err(js)?;
    let link: web_sys::HtmlElement = web_sys::window()
        .and_then(|w| w.document())
        .ok_or_else(|| ApiError::Decode("no document".into()))?
        .create_element("a")
        .map_err(js)?
        .unchecked_into();
    let _ = link.set_attribute("href", &href);
    let _ = link.set_attribute("download", file_name);
    link.click();
    let _ = web_sys::Url::revoke_object_url(&href);
    Ok(())
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
async fn checked_text(resp: Response) -> Result<String, ApiError> {
    if !resp.ok() {
        let status = resp.status();
        let status_text = resp.status_text();
        let body = resp.text().await.unwrap_or_default();
        return Err(ApiError::Server {
            status,
            detail: error_detail(status, &status_text, &body),
        });
    }
    resp.text()
        .await
        .map_err(|e| ApiError::Decode(e.to_string()))
}

/// Parses a text-MCQ task's dev gold JSON Lines (`{"item_id","category","answer"}` per line,
/// `answer` numbered from 1 as in prediction files).
pub fn parse_dev_gold(text: &str) -> Result<Vec<McqGold>, String> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| {
            serde_json::from_str::<McqDevGold>(l)
                .map(McqGold::from)
                .map_err(|e| format!("dev gold line {}: {e}", i + 1))
        })
        .collect()
}

/// `GET /api/tasks/{slug}/dev-gold.jsonl` of an explanation task: `(item id, reference
/// meaning)` of the open dev items.
pub async fn dev_meanings(slug: &str) -> Result<Vec<(String, String)>, ApiError> {
    let text = get_text(&task_file_url(slug, TaskFile::DevGold)).await?;
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let v: serde_json::Value =
                serde_json::from_str(l).map_err(|e| ApiError::Decode(e.to_string()))?;
            Ok((
                v["item_id"].as_str().unwrap_or_default().to_owned(),
                v["meaning"].as_str().unwrap_or_default().to_owned(),
            ))
        })
        .collect()
}

/// A downloadable file of a task.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TaskFile {
    /// Model inputs: sentence and options under every option order.
    Inputs,
    /// JSON Lines template (every item id, empty answers).
    TemplateJsonl,
    /// CSV template.
    TemplateCsv,
    /// Gold of the open dev split.
    DevGold,
}

/// The URL of a task's downloadable file.
pub fn task_file_url(slug: &str, file: TaskFile) -> String {
    let name = match file {
        TaskFile::Inputs => "inputs.jsonl",
        TaskFile::TemplateJsonl => "template.jsonl",
        TaskFile::TemplateCsv => "template.csv",
        TaskFile::DevGold => "dev-gold.jsonl",
    };
    format!("/api/tasks/{}/{name}", encode_component(slug))
}

/// The wire name of a board split.
pub fn split_name(split: BoardSplit) -> &'static str {
    match split {
        BoardSplit::Public => "public",
        BoardSplit::Private => "private",
    }
}

/// `GET /api/boards/{slug}?split=…&subset=…`: one board (403 for a private board not yet
/// revealed). `subset` (e.g. `main`) is passed through when given; without it the server
/// shows its default subset.
pub async fn board(
    slug: &str,
    split: BoardSplit,
    subset: Option<&str>,
    all_attempts: bool,
) -> Result<BoardResponse, ApiError> {
    get_json(&board_query(slug, split, subset, all_attempts)).await
}

/// The URL of a board fetch (see [`board`]); `all_attempts` asks for every upload of every
/// model (`attempts=all`) instead of one row per model.
pub fn board_query(
    slug: &str,
    split: BoardSplit,
    subset: Option<&str>,
    all_attempts: bool,
) -> String {
    let mut url = format!(
        "/api/boards/{}?split={}",
        encode_component(slug),
        split_name(split)
    );
    if let Some(subset) = subset.map(str::trim).filter(|s| !s.is_empty()) {
        url.push_str("&subset=");
        url.push_str(&encode_component(subset));
    }
    if all_attempts {
        url.push_str("&attempts=all");
    }
    url
}

/// The URL of a board download (`ext` is `csv` or `json`).
pub fn board_download_url(slug: &str, split: BoardSplit, ext: &str) -> String {
    format!(
        "/api/boards/{}/download.{ext}?split={}",
        encode_component(slug),
        split_name(split)
    )
}

/// `GET /api/submissions/{id}`: a model page.
pub async fn submission(id: &str) -> Result<SubmissionDetail, ApiError> {
    get_json(&format!("/api/submissions/{}", segment(id))).await
}

/// `DELETE /api/submissions/{id}` answer: the submission is off every board.
#[derive(Debug, Clone, PartialEq, Eq, serde::Deserialize)]
pub struct Withdrawn {
    /// The submission.
    pub submission_id: String,
    /// Always true.
    pub withdrawn: bool,
}

/// `DELETE /api/submissions/{id}` with the author's token: the author takes their own
/// submission off every board (403 for someone else's).
pub async fn withdraw_submission(token: &str, id: &str) -> Result<Withdrawn, ApiError> {
    send_json(
        Request::delete(&format!("/api/submissions/{}", segment(id)))
            .header("Authorization", &format!("Bearer {}", token.trim())),
    )
    .await
}

/// `GET /api/submissions/{id}/items`: items the model got wrong that most people got right
/// (only for the submission's author).
pub async fn item_gaps(id: &str, token: &str) -> Result<Vec<ItemGap>, ApiError> {
    get_json_with_token(&format!("/api/submissions/{}/items", segment(id)), token).await
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

/// What an upload says about the model and the file (sent as query parameters).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UploadMeta {
    /// Model name (required).
    pub model: String,
    /// Organisation (empty: the author's).
    pub organisation: String,
    /// Size, e.g. `7B` (may be empty).
    pub parameters: String,
    /// Open or closed weights.
    pub weights: Weights,
    /// Paper or code URL (may be empty).
    pub link: String,
    /// Free text (may be empty).
    pub description: String,
    /// The file's name.
    pub filename: String,
    /// The format the browser validated the file as (the server parses it the same way).
    pub format: FileFormat,
}

/// The query string of an upload (empty optional fields are left out).
pub fn submission_query(meta: &UploadMeta) -> String {
    let weights = match meta.weights {
        Weights::Open => "open",
        Weights::Closed => "closed",
    };
    let format = match meta.format {
        FileFormat::JsonLines => "jsonl",
        FileFormat::Csv => "csv",
    };
    let mut parts = vec![format!("model={}", encode_component(meta.model.trim()))];
    for (key, value) in [
        ("organisation", meta.organisation.as_str()),
        ("parameters", meta.parameters.as_str()),
        ("weights", weights),
        ("link", meta.link.as_str()),
        ("description", meta.description.as_str()),
        ("filename", meta.filename.as_str()),
        ("format", format),
    ] {
        let value = value.trim();
        if !value.is_empty() {
            parts.push(format!("{key}={}", encode_component(value)));
        }
    }
    parts.join("&")
}

/// Why an upload failed: the HTTP status (none when no response came) and one message per
/// problem (for a rejected file: one per bad line).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UploadFailure {
    /// HTTP status, if the server answered.
    pub status: Option<u16>,
    /// What went wrong.
    pub messages: Vec<String>,
}

impl UploadFailure {
    fn network(detail: &str) -> Self {
        Self {
            status: None,
            messages: vec![format!("Could not reach the server ({detail}).")],
        }
    }
}

/// `POST /api/tasks/{slug}/submissions`: uploads a prediction file with the bearer `token`.
/// `on_progress` receives the share of the file sent so far (0 to 1) while it uploads.
pub async fn upload_predictions(
    slug: &str,
    token: &str,
    meta: &UploadMeta,
    file: &web_sys::Blob,
    on_progress: impl Fn(f64) + 'static,
) -> Result<SubmitPredictionsResponse, UploadFailure> {
    let failed = |what: &str| {
        let what = what.to_owned();
        move |_| UploadFailure::network(&what)
    };
    let url = format!(
        "/api/tasks/{}/submissions?{}",
        segment(slug),
        submission_query(meta)
    );
    let content_type = match meta.format {
        FileFormat::JsonLines => "application/x-ndjson; charset=utf-8",
        FileFormat::Csv => "text/csv; charset=utf-8",
    };
    let xhr = web_sys::XmlHttpRequest::new().map_err(failed("XMLHttpRequest unavailable"))?;
    xhr.open_with_async("POST", &url, true)
        .map_err(failed("could not open the request"))?;
    for (name, value) in [
        ("Authorization", format!("Bearer {}", token.trim())),
        ("Accept", "application/json".to_owned()),
        ("Content-Type", content_type.to_owned()),
    ] {
        xhr.set_request_header(name, &value)
            .map_err(failed("invalid request header"))?;
    }
    let progress =
        Closure::<dyn FnMut(web_sys::ProgressEvent)>::new(move |ev: web_sys::ProgressEvent| {
            if ev.length_computable() && ev.total() > 0.0 {
                on_progress((ev.loaded() / ev.total()).clamp(0.0, 1.0));
            }
        });
    let upload = xhr.upload().map_err(failed("upload unavailable"))?;
    upload.set_onprogress(Some(progress.as_ref().unchecked_ref()));
    // Resolves on `loadend`: after success, error, abort or timeout alike.
    let finished = js_sys::Promise::new(&mut |resolve, _reject| {
        xhr.set_onloadend(Some(&resolve));
    });
    xhr.send_with_opt_blob(Some(file))
        .map_err(failed("could not send the file"))?;
    let _ = wasm_bindgen_futures::JsFuture::from(finished).await;
    upload.set_onprogress(None);
    xhr.set_onloadend(None);
    drop(progress);

    let status = xhr.status().unwrap_or(0);
    if status == 0 {
        return Err(UploadFailure::network("the upload was interrupted"));
    }
    let body = xhr.response_text().ok().flatten().unwrap_or_default();
    if (200..300).contains(&status) {
        serde_json::from_str(&body).map_err(|e| UploadFailure {
            status: Some(status),
            messages: vec![ApiError::Decode(e.to_string()).to_string()],
        })
    } else {
        let status_text = xhr.status_text().unwrap_or_default();
        Err(UploadFailure {
            status: Some(status),
            messages: error_details(status, &status_text, &body),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn board_queries_pass_the_subset_through() {
        assert_eq!(
            board_query("clips", BoardSplit::Public, None, false),
            "/api/boards/clips?split=public"
        );
        assert_eq!(
            board_query("clips", BoardSplit::Private, Some("main"), false),
            "/api/boards/clips?split=private&subset=main"
        );
        assert_eq!(
            board_query("a b", BoardSplit::Public, Some(" "), false),
            "/api/boards/a%20b?split=public"
        );
        assert_eq!(
            board_query("clips", BoardSplit::Public, Some("main"), true),
            "/api/boards/clips?split=public&subset=main&attempts=all"
        );
    }

    #[test]
    fn error_body_details_are_joined() {
        let body = r#"{"errors":[{"detail":"survey field `age_range`: missing"},{"detail":"consent must be true"}]}"#;
        assert_eq!(
            error_detail(422, "Unprocessable Entity", body),
            "survey field `age_range`: missing; consent must be true"
        );
    }

    #[test]
    fn coded_errors_show_in_the_reader_language_and_unknown_codes_as_sent() {
        let body = r#"{"errors":[{"detail":"no open quiz named `x`","code":"quiz.not_found","params":{"slug":"x"}},{"detail":"from a newer server","code":"brand.new"}]}"#;
        assert_eq!(
            error_details_in(Lang::Zh, 404, "", body),
            vec![
                "没有名为 `x` 的开放测验".to_owned(),
                "from a newer server".to_owned()
            ]
        );
        assert_eq!(
            error_details_in(Lang::En, 404, "", body)[0],
            "no open quiz named `x`"
        );
    }

    #[test]
    fn non_json_bodies_fall_back_to_status() {
        assert_eq!(error_detail(502, "Bad Gateway", ""), "HTTP 502 Bad Gateway");
        assert_eq!(error_detail(500, "", "<html>oops</html>"), "HTTP 500");
        assert_eq!(error_detail(500, "", "boom"), "HTTP 500: boom");
    }

    #[test]
    fn error_details_keep_one_message_per_problem() {
        let body = r#"{"errors":[{"detail":"line 1, field `item_id`: unknown item id `nope`"},{"detail":"line 2: oops"}]}"#;
        assert_eq!(
            error_details(422, "", body),
            vec![
                "line 1, field `item_id`: unknown item id `nope`".to_owned(),
                "line 2: oops".to_owned()
            ]
        );
        assert_eq!(
            error_details(413, "Payload Too Large", ""),
            vec!["HTTP 413 Payload Too Large".to_owned()]
        );
    }

    #[test]
    fn upload_query_encodes_values_and_skips_empty_ones() {
        let meta = UploadMeta {
            model: " My Model/v2 ".into(),
            organisation: "".into(),
            parameters: "7B".into(),
            weights: Weights::Open,
            link: "https://example.org/a?b=c&d".into(),
            description: "大模型".into(),
            filename: "preds.csv".into(),
            format: FileFormat::Csv,
        };
        assert_eq!(
            submission_query(&meta),
            "model=My%20Model%2Fv2&parameters=7B&weights=open\
             &link=https%3A%2F%2Fexample.org%2Fa%3Fb%3Dc%26d\
             &description=%E5%A4%A7%E6%A8%A1%E5%9E%8B&filename=preds.csv&format=csv"
        );
    }

    #[test]
    fn urls_of_downloads() {
        assert_eq!(
            task_file_url("demo-mcq", TaskFile::TemplateCsv),
            "/api/tasks/demo-mcq/template.csv"
        );
        assert_eq!(
            board_download_url("demo-mcq", BoardSplit::Private, "json"),
            "/api/boards/demo-mcq/download.json?split=private"
        );
    }

    #[test]
    fn dev_gold_lines_parse() {
        let gold = parse_dev_gold(
            "{\"item_id\":\"a\",\"category\":\"slang\",\"answer\":3}\n\n{\"item_id\":\"b\",\"category\":\"x\",\"answer\":1}\n",
        )
        .unwrap();
        assert_eq!(gold.len(), 2);
        // Numbered from 1 in the file (as prediction files are), 0-based inside.
        assert_eq!((gold[0].correct, gold[1].correct), (2, 0));
        assert!(parse_dev_gold("{}")
            .unwrap_err()
            .starts_with("dev gold line 1"));
    }

    #[test]
    fn server_error_displays_detail() {
        let e = ApiError::Server {
            status: 409,
            detail: "the batch is not complete".into(),
        };
        assert_eq!(e.to_string(), "the batch is not complete");
        assert_eq!(e.status(), Some(409));
    }
}

/// `Authorization: Bearer {token}` for owner calls.
pub(crate) fn bearer(token: &str) -> String {
    format!("Bearer {}", token.trim())
}

/// `GET /api/owner/tasks`: the tasks an owner token manages.
pub async fn owner_tasks(token: &str) -> Result<Vec<memeboard_core::study::OwnedTask>, ApiError> {
    get_json_with_token("/api/owner/tasks", token).await
}

/// `GET /api/owner/tasks/{slug}/console`: a quiz's console.
pub async fn console(
    slug: &str,
    token: &str,
) -> Result<memeboard_core::study::ConsoleResponse, ApiError> {
    get_json_with_token(
        &format!("/api/owner/tasks/{}/console", segment(slug)),
        token,
    )
    .await
}

/// `GET /api/owner/tasks/{slug}/progress`: a quiz's live progress.
pub async fn progress(
    slug: &str,
    token: &str,
) -> Result<memeboard_core::study::ProgressResponse, ApiError> {
    get_json_with_token(
        &format!("/api/owner/tasks/{}/progress", segment(slug)),
        token,
    )
    .await
}

/// `PUT /api/owner/tasks/{slug}/settings`: replaces a quiz's settings.
pub async fn save_settings(
    slug: &str,
    token: &str,
    settings: &memeboard_core::study::ConsoleSettings,
) -> Result<memeboard_core::study::ConsoleSettings, ApiError> {
    let resp = Request::put(&format!("/api/owner/tasks/{}/settings", segment(slug)))
        .header("Accept", "application/json")
        .header("Authorization", &bearer(token))
        .json(settings)
        .map_err(|e| ApiError::Decode(e.to_string()))?
        .send()
        .await
        .map_err(|e| ApiError::Network(e.to_string()))?;
    read(resp).await
}

/// A file an owner downloads with the token (e.g. the answer-level export), as text.
pub async fn owner_file(url: &str, token: &str) -> Result<String, ApiError> {
    let resp = Request::get(url)
        .header("Authorization", &bearer(token))
        .send()
        .await
        .map_err(|e| ApiError::Network(e.to_string()))?;
    if resp.ok() {
        resp.text()
            .await
            .map_err(|e| ApiError::Decode(e.to_string()))
    } else {
        let status = resp.status();
        let status_text = resp.status_text();
        let body = resp.text().await.unwrap_or_default();
        Err(ApiError::Server {
            status,
            detail: error_detail(status, &status_text, &body),
        })
    }
}

/// `POST /api/sessions/{id}/checks`: one attention-check answer (stored once), resent by
/// itself while the failure may be temporary (an identical resend is acknowledged).
pub async fn submit_check(
    session_id: &str,
    request: &memeboard_core::study::SubmitCheckRequest,
) -> Result<memeboard_core::study::SubmitCheckResponse, ApiError> {
    let url = format!("/api/sessions/{}/checks", segment(session_id));
    with_resends(
        &PREFACE_RETRY_DELAYS_MS,
        || post_json(&url, request),
        |_| true,
    )
    .await
}
