//! Every HTTP call the app makes to the JSON API under `/api/` (same origin).
//!
//! Failed calls come back as [`ApiError`]; a server error's [`Display`](std::fmt::Display) is
//! the `detail` text of its `{"errors":[{"detail":…}]}` body, so pages can show it as is.

use gloo_net::http::{Request, Response};
use memeboard_core::api::{
    ApiErrorBody, CrowdStatsResponse, QuizSummary, ResultsResponse, SessionResponse,
    StartSessionRequest, SubmitAnswerRequest, SubmitAnswerResponse,
};
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::fmt;

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
    if let Ok(parsed) = serde_json::from_str::<ApiErrorBody>(body) {
        let details: Vec<&str> = parsed
            .errors
            .iter()
            .map(|e| e.detail.trim())
            .filter(|d| !d.is_empty())
            .collect();
        if !details.is_empty() {
            return details.join("; ");
        }
    }
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
fn segment(s: &str) -> String {
    String::from(js_sys::encode_uri_component(s))
}

async fn read<T: DeserializeOwned>(resp: Response) -> Result<T, ApiError> {
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
    let resp = Request::get(url)
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

/// `GET /api/sessions/{id}/results`: score, crowd baseline and review (409 until complete).
pub async fn get_results(session_id: &str) -> Result<ResultsResponse, ApiError> {
    get_json(&format!("/api/sessions/{}/results", segment(session_id))).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn error_body_details_are_joined() {
        let body = r#"{"errors":[{"detail":"survey field `age_range`: missing"},{"detail":"consent must be true"}]}"#;
        assert_eq!(
            error_detail(422, "Unprocessable Entity", body),
            "survey field `age_range`: missing; consent must be true"
        );
    }

    #[test]
    fn non_json_bodies_fall_back_to_status() {
        assert_eq!(error_detail(502, "Bad Gateway", ""), "HTTP 502 Bad Gateway");
        assert_eq!(error_detail(500, "", "<html>oops</html>"), "HTTP 500");
        assert_eq!(error_detail(500, "", "boom"), "HTTP 500: boom");
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
