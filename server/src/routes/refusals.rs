//! One error envelope for every refusal under `/api`: responses that axum or a tower layer
//! writes without our JSON body (405 method not allowed, a query, path or body rejection,
//! 413, 415) are rewritten into `{"errors":[…]}` with a specific code, and over-long URIs are
//! refused (414) with the envelope before routing.

use crate::error::ApiError;
use axum::body::Body;
use axum::extract::Request;
use axum::http::header::{ALLOW, CONTENT_TYPE};
use axum::http::StatusCode;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::Json;
use memeboard_core::api::ApiErrorBody;
use memeboard_core::messages::Message;
use memeboard_core::msg;

/// Longest request URI (path and query) accepted on `/api`, in bytes. Longer ones are 414
/// with the envelope here; hyper itself refuses request lines over 64 KiB before any
/// application code runs (a bodiless 414 that no server code can reach).
pub const MAX_URI_BYTES: usize = 8 * 1024;

/// How much of a bodiless refusal's plain-text reason is kept.
const MAX_REASON_BYTES: usize = 1024;

/// Middleware of the `/api` router: refuses over-long URIs, and gives every other refusal
/// that lacks it the JSON error envelope.
pub async fn envelope(request: Request, next: Next) -> Response {
    let uri_len = request.uri().to_string().len();
    if uri_len > MAX_URI_BYTES {
        let body = ApiErrorBody::single(msg!(
            "request.uri_too_long",
            length = uri_len,
            limit = MAX_URI_BYTES
        ));
        return (StatusCode::URI_TOO_LONG, Json(body)).into_response();
    }
    let method = request.method().clone();
    let path = request.uri().path().to_owned();
    let response = next.run(request).await;
    let status = response.status();
    let is_json = response
        .headers()
        .get(CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|ct| ct.starts_with("application/json"));
    if !(status.is_client_error() || status.is_server_error()) || is_json {
        return response;
    }
    let (mut parts, body) = response.into_parts();
    let text = axum::body::to_bytes(body, MAX_REASON_BYTES * 4)
        .await
        .map(|b| String::from_utf8_lossy(&b).trim().to_owned())
        .unwrap_or_default();
    let reason: String = text.chars().take(MAX_REASON_BYTES).collect();
    let allowed = parts
        .headers
        .get(ALLOW)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_owned();
    let message = refusal(status, &reason, method.as_str(), &path, &allowed);
    let rendered = match status {
        // The ones `ApiError` renders with their own headers (Retry-After).
        StatusCode::SERVICE_UNAVAILABLE => ApiError::Unavailable(message).into_response(),
        StatusCode::INTERNAL_SERVER_ERROR => {
            tracing::error!(%reason, %path, "bodiless 500 from a layer");
            ApiError::Unexpected(anyhow::anyhow!("bodiless 500: {reason}")).into_response()
        }
        _ => (status, Json(ApiErrorBody::single(message))).into_response(),
    };
    let (new_parts, new_body) = rendered.into_parts();
    parts.headers.remove(axum::http::header::CONTENT_LENGTH);
    for (name, value) in &new_parts.headers {
        parts.headers.insert(name, value.clone());
    }
    Response::from_parts(parts, Body::new(new_body))
}

/// The catalogue message of a bodiless refusal, from its status and axum's plain-text reason.
fn refusal(status: StatusCode, reason: &str, method: &str, path: &str, allowed: &str) -> Message {
    match status {
        StatusCode::METHOD_NOT_ALLOWED => msg!(
            "request.method_not_allowed",
            method = method,
            path = path,
            allowed = allowed
        ),
        StatusCode::PAYLOAD_TOO_LARGE => msg!("request.body_too_large"),
        StatusCode::NOT_FOUND => msg!("request.no_endpoint", path = path),
        _ if reason.starts_with("Failed to deserialize query string") => {
            msg!("request.invalid_query", reason = reason)
        }
        _ if reason.starts_with("Invalid URL")
            || reason.contains("path param")
            || reason.contains("paths parameter") =>
        {
            msg!("request.invalid_path", reason = reason)
        }
        _ if reason.contains("JSON") || reason.contains("request body") => {
            msg!("request.invalid_body", reason = reason)
        }
        _ => msg!(
            "request.refused",
            status = status.as_u16(),
            reason = if reason.is_empty() {
                status.canonical_reason().unwrap_or("refused")
            } else {
                reason
            }
        ),
    }
}
