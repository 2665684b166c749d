//! Submissions: a model page, withdrawing it, its item gaps, and uploading a prediction file
//! (through `XMLHttpRequest`, for upload progress).

use super::ApiError;
use super::{encode_component, error_details, get_json, get_json_with_token, segment, send_json};
use gloo_net::http::Request;
use memeboard_core::api::{ItemGap, SubmissionDetail, SubmitPredictionsResponse, Weights};
use memeboard_core::predictions::FileFormat;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;

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
    /// Run conditions, `name=value` pairs separated by commas (empty: every default).
    pub conditions: String,
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
        ("conditions", meta.conditions.as_str()),
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
