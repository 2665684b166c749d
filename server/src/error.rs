//! The one error type every API handler returns, rendered as `{"errors":[{"detail":…}]}`.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use memeboard_core::api::ApiErrorBody;

/// Everything a client can be told went wrong.
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// The request is malformed or breaks a rule (400).
    #[error("{0}")]
    BadRequest(String),
    /// The request is well-formed but cannot be applied (422), e.g. an item not in the batch.
    #[error("{0}")]
    Unprocessable(String),
    /// Something named by the request does not exist (404).
    #[error("{0}")]
    NotFound(String),
    /// The request conflicts with what is recorded (409), e.g. answering twice.
    #[error("{0}")]
    Conflict(String),
    /// No or an unknown bearer token (401).
    #[error("{0}")]
    Unauthorized(String),
    /// Authenticated but not allowed, or not revealed yet (403).
    #[error("{0}")]
    Forbidden(String),
    /// Quota used up (429).
    #[error("{0}")]
    TooManyRequests(String),
    /// Body over the size limit (413).
    #[error("{0}")]
    PayloadTooLarge(String),
    /// A needed service is not available (503), e.g. the embedding model is not installed.
    #[error("{0}")]
    Unavailable(String),
    /// A file with problems (422): one detail per problem, in line order.
    #[error("{}", .0.join("; "))]
    Invalid(Vec<String>),
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
                Self::Unavailable(
                    "the answer was not recorded (the database could not store it); nothing was \
                     saved, please send it again in a moment"
                        .into(),
                )
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
                ApiErrorBody::single("internal server error")
            }
            Self::Invalid(problems) => ApiErrorBody {
                errors: problems
                    .iter()
                    .map(|p| memeboard_core::api::ErrorDetail { detail: p.clone() })
                    .collect(),
            },
            other => ApiErrorBody::single(other.to_string()),
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
        return ApiError::PayloadTooLarge("request body is larger than the limit".into());
    }
    ApiError::BadRequest(format!("invalid request body: {}", rejection.body_text()))
}
