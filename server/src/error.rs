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
            Self::Unexpected(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }
}

impl From<crate::storage::StorageError> for ApiError {
    fn from(e: crate::storage::StorageError) -> Self {
        Self::Unexpected(anyhow::Error::new(e))
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let status = self.status();
        let detail = match &self {
            Self::Unexpected(e) => {
                // Logged once here, at the boundary; the client gets a generic message.
                tracing::error!(error = format!("{e:#}"), "request failed");
                "internal server error".to_owned()
            }
            other => other.to_string(),
        };
        (status, Json(ApiErrorBody::single(detail))).into_response()
    }
}

/// Turns axum's JSON extractor rejections into our error shape with serde's precise message
/// (which field, what was expected).
pub fn json_rejection(rejection: axum::extract::rejection::JsonRejection) -> ApiError {
    ApiError::BadRequest(format!("invalid request body: {}", rejection.body_text()))
}
