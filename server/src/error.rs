//! The one error type every API handler returns, rendered as
//! `{"errors":[{"detail":…,"code":…,"params":{…}}]}`.
//!
//! Every variant carries a catalogue [`Message`] (`memeboard_core::messages`): build it with
//! `msg!("code", name = value)` after adding the code to the catalogue, so the app can show
//! it in the reader's language. A test (`architecture`) refuses raw strings here.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use memeboard_core::api::ApiErrorBody;
use memeboard_core::messages::Message;
use memeboard_core::msg;

/// Everything a client can be told went wrong.
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// The request is malformed or breaks a rule (400).
    #[error("{0}")]
    BadRequest(Message),
    /// The request is well-formed but cannot be applied (422), e.g. an item not in the batch.
    #[error("{0}")]
    Unprocessable(Message),
    /// Something named by the request does not exist (404).
    #[error("{0}")]
    NotFound(Message),
    /// The request conflicts with what is recorded (409), e.g. answering twice.
    #[error("{0}")]
    Conflict(Message),
    /// No or an unknown bearer token (401).
    #[error("{0}")]
    Unauthorized(Message),
    /// Authenticated but not allowed, or not revealed yet (403).
    #[error("{0}")]
    Forbidden(Message),
    /// Quota used up (429).
    #[error("{0}")]
    TooManyRequests(Message),
    /// Body over the size limit (413).
    #[error("{0}")]
    PayloadTooLarge(Message),
    /// A needed service is not available (503), e.g. the embedding model is not installed.
    #[error("{0}")]
    Unavailable(Message),
    /// A file with problems (422): one detail per problem, in line order.
    #[error("{}", .0.iter().map(ToString::to_string).collect::<Vec<_>>().join("; "))]
    Invalid(Vec<Message>),
    /// A bug or an infrastructure failure (500); details are logged, never sent.
    #[error(transparent)]
    Unexpected(#[from] anyhow::Error),
}

/// Result alias for handlers.
pub type ApiResult<T> = Result<T, ApiError>;

impl ApiError {
    /// The HTTP status for this error.
    pub fn status(&self) -> StatusCode {
        match self {
            Self::BadRequest(_) => StatusCode::BAD_REQUEST,
            Self::Unprocessable(_) => StatusCode::UNPROCESSABLE_ENTITY,
            Self::NotFound(_) => StatusCode::NOT_FOUND,
            Self::Conflict(_) => StatusCode::CONFLICT,
            Self::Unauthorized(_) => StatusCode::UNAUTHORIZED,
            Self::Forbidden(_) => StatusCode::FORBIDDEN,
            Self::TooManyRequests(_) => StatusCode::TOO_MANY_REQUESTS,
            Self::PayloadTooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            Self::Invalid(_) => StatusCode::UNPROCESSABLE_ENTITY,
            Self::Unavailable(_) => StatusCode::SERVICE_UNAVAILABLE,
            Self::Unexpected(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }
}

impl From<crate::storage::StorageError> for ApiError {
    fn from(e: crate::storage::StorageError) -> Self {
        match e {
            // Nothing was stored: a retryable 503, logged once here with its cause.
            crate::storage::StorageError::NotRecorded(cause) => {
                tracing::error!(error = %cause, "answer not recorded");
                Self::Unavailable(msg!("not_recorded"))
            }
            // A full disk, a busy or locked database, an aborted deadlock: nothing of the
            // request was committed, and the client may retry (503 with Retry-After).
            crate::storage::StorageError::Database(e) if crate::storage::is_temporary(&e) => {
                tracing::error!(error = %e, "request not stored: the database is unavailable");
                Self::Unavailable(msg!("not_stored"))
            }
            other => Self::Unexpected(anyhow::Error::new(other)),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let status = self.status();
        let body = match &self {
            Self::Unexpected(e) => {
                // Logged once here, at the boundary; the client gets a generic message.
                tracing::error!(error = format!("{e:#}"), "request failed");
                ApiErrorBody::single(msg!("internal"))
            }
            Self::Invalid(problems) => ApiErrorBody::of(problems),
            Self::BadRequest(m)
            | Self::Unprocessable(m)
            | Self::NotFound(m)
            | Self::Conflict(m)
            | Self::Unauthorized(m)
            | Self::Forbidden(m)
            | Self::TooManyRequests(m)
            | Self::PayloadTooLarge(m)
            | Self::Unavailable(m) => ApiErrorBody::single(m.clone()),
        };
        let mut response = (status, Json(body)).into_response();
        if status == StatusCode::SERVICE_UNAVAILABLE {
            // Temporary: storage full or busy, a model not loaded yet.
            response.headers_mut().insert(
                axum::http::header::RETRY_AFTER,
                axum::http::HeaderValue::from(5u64),
            );
        }
        if status == StatusCode::TOO_MANY_REQUESTS {
            // Every limit here is per UTC day: retry after the next midnight.
            response.headers_mut().insert(
                axum::http::header::RETRY_AFTER,
                axum::http::HeaderValue::from(seconds_to_utc_midnight()),
            );
        }
        response
    }
}

/// Seconds until the next 00:00 UTC (at least 1).
fn seconds_to_utc_midnight() -> u64 {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    (86_400 - now % 86_400).max(1)
}

/// Turns axum's JSON extractor rejections into our error shape with serde's precise message
/// (which field, what was expected).
pub fn json_rejection(rejection: axum::extract::rejection::JsonRejection) -> ApiError {
    if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
        return ApiError::PayloadTooLarge(msg!("request.body_too_large"));
    }
    ApiError::BadRequest(msg!("request.invalid_body", reason = rejection.body_text()))
}
