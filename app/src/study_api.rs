//! Calls of the human-evaluation study pages (owner token): create a study from a board,
//! list a board's studies, read a study page, reissue its invitation, and the download URLs
//! of its exports.

use crate::api::{get_json_with_token, post_json_with_token, segment, send_with_token, ApiError};
use gloo_net::http::Request;
use memeboard_core::human_eval::study::{
    CreateStudyRequest, CreateStudyResponse, InvitationResponse, StudyPage, StudyPreview,
};

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

/// The URL of one of a study's downloads (`judgements.csv`, `judgements.jsonl`,
/// `tables.json`, `raters.csv`).
pub fn study_file_url(slug: &str, file: &str) -> String {
    format!("/api/owner/studies/{}/{file}", segment(slug))
}
