//! Calls of the human-evaluation study pages (owner token): create a study from a board,
//! list a board's studies, read a study page, reissue its invitation, set its reliability
//! thresholds, and the download URLs of its exports.

use crate::api::{
    bearer, get_json_with_token, post_json_with_token, read, segment, send_with_token, ApiError,
};
use gloo_net::http::Request;
use memeboard_core::human_eval::study::{
    CreateStudyRequest, CreateStudyResponse, InvitationResponse, StudyPage, StudyPreview,
};
use memeboard_core::human_eval::thresholds::ReliabilityThresholds;

/// `POST /api/owner/tasks/{slug}/studies`.
pub async fn create_study(
    slug: &str,
    token: &str,
    request: &CreateStudyRequest,
) -> Result<CreateStudyResponse, ApiError> {
    let url = format!("/api/owner/tasks/{}/studies", segment(slug));
    post_json_with_token(&url, token, request).await
}

/// `POST /api/owner/tasks/{slug}/studies/preview`: what the request would make, stored
/// nowhere.
pub async fn preview_study(
    slug: &str,
    token: &str,
    request: &CreateStudyRequest,
) -> Result<StudyPreview, ApiError> {
    let url = format!("/api/owner/tasks/{}/studies/preview", segment(slug));
    post_json_with_token(&url, token, request).await
}

/// `GET /api/owner/tasks/{slug}/studies`: the board's study slugs.
pub async fn board_studies(slug: &str, token: &str) -> Result<Vec<String>, ApiError> {
    get_json_with_token(
        &format!("/api/owner/tasks/{}/studies", segment(slug)),
        token,
    )
    .await
}

/// `GET /api/owner/studies/{slug}`.
pub async fn study_page(slug: &str, token: &str) -> Result<StudyPage, ApiError> {
    get_json_with_token(&format!("/api/owner/studies/{}", segment(slug)), token).await
}

/// `POST /api/owner/studies/{slug}/invitation`: a new invitation secret and rater links.
pub async fn reissue_invitation(slug: &str, token: &str) -> Result<InvitationResponse, ApiError> {
    let url = format!("/api/owner/studies/{}/invitation", segment(slug));
    send_with_token(Request::post(&url), token).await
}

/// `PUT /api/owner/studies/{slug}/reliability`: replaces the study's reliability thresholds.
pub async fn set_thresholds(
    slug: &str,
    token: &str,
    thresholds: &ReliabilityThresholds,
) -> Result<ReliabilityThresholds, ApiError> {
    let url = format!("/api/owner/studies/{}/reliability", segment(slug));
    let resp = Request::put(&url)
        .header("Accept", "application/json")
        .header("Authorization", &bearer(token))
        .json(thresholds)
        .map_err(|e| ApiError::Decode(e.to_string()))?
        .send()
        .await
        .map_err(|e| ApiError::Network(e.to_string()))?;
    read(resp).await
}

/// The URL of one of a study's downloads (`judgements.csv`, `judgements.jsonl`,
/// `tables.json`, `raters.csv`).
pub fn study_file_url(slug: &str, file: &str) -> String {
    format!("/api/owner/studies/{}/{file}", segment(slug))
}
