//! The owner's calls (with the owner token): the tasks it manages, a quiz's console,
//! progress and settings, and files downloaded with the token.

use super::{bearer, checked_text, get_json_with_token, read, segment, ApiError};
use gloo_net::http::Request;

/// `GET /api/owner/tasks`: the tasks an owner token manages.
pub async fn owner_tasks(
    token: &str,
) -> Result<Vec<memeboard_core::fieldwork::OwnedTask>, ApiError> {
    get_json_with_token("/api/owner/tasks", token).await
}

/// `GET /api/owner/tasks/{slug}/console`: a quiz's console.
pub async fn console(
    slug: &str,
    token: &str,
) -> Result<memeboard_core::fieldwork::ConsoleResponse, ApiError> {
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
) -> Result<memeboard_core::fieldwork::ProgressResponse, ApiError> {
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
    settings: &memeboard_core::fieldwork::ConsoleSettings,
) -> Result<memeboard_core::fieldwork::ConsoleSettings, ApiError> {
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
    checked_text(resp).await
}

/// `DELETE /api/owner/tasks/{slug}/participants/{who}`: deletes everything a participant
/// (pseudonym or Prolific id) recorded in the task's benchmark.
pub async fn delete_participant(
    slug: &str,
    who: &str,
    token: &str,
) -> Result<memeboard_core::api::DeleteParticipantResponse, ApiError> {
    let url = format!(
        "/api/owner/tasks/{}/participants/{}",
        segment(slug),
        segment(who)
    );
    super::send_with_token(Request::delete(&url), token).await
}

/// `POST /api/owner/tasks/{slug}/rescore`: every upload of the task scored again in the
/// background, with the reason the board shows.
pub async fn rescore(
    slug: &str,
    reason: &str,
    token: &str,
) -> Result<memeboard_core::api::RescoreStarted, ApiError> {
    let url = format!("/api/owner/tasks/{}/rescore", segment(slug));
    let body = memeboard_core::api::RescoreRequest {
        reason: reason.to_owned(),
    };
    super::post_json_with_token(&url, token, &body).await
}
