//! Study routes: an owner creates a human-evaluation study from an explanation board, reads
//! its page, sets its reliability thresholds, and downloads its judgements, computed tables and
//! per-rater reliability. Handlers are thin; the work is
//! in [`crate::studies`].

use super::ApiJson;
use crate::error::ApiResult;
use crate::state::AppState;
use crate::studies;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::IntoResponse;
use axum::routing::{get, post, put};
use axum::{Json, Router};
use memeboard_core::human_eval::study::{
    CreateStudyRequest, CreateStudyResponse, InvitationResponse, StudyPage, StudyPreview,
};
use memeboard_core::human_eval::thresholds::ReliabilityThresholds;
use memeboard_core::predictions::FileFormat;

/// Study routes (mounted under `/api`).
pub fn router() -> Router<AppState> {
    Router::new()
        .route(
            "/owner/tasks/{slug}/studies",
            post(create_study).get(list_studies),
        )
        .route("/owner/tasks/{slug}/studies/preview", post(preview_study))
        .route("/owner/studies/{slug}", get(study_page))
        .route("/owner/studies/{slug}/judgements.csv", get(judgements_csv))
        .route(
            "/owner/studies/{slug}/judgements.jsonl",
            get(judgements_jsonl),
        )
        .route("/owner/studies/{slug}/tables.json", get(tables))
        .route("/owner/studies/{slug}/raters.csv", get(raters_csv))
        .route("/owner/studies/{slug}/invitation", post(reissue_invitation))
        .route("/owner/studies/{slug}/reliability", put(set_thresholds))
}

/// `PUT /api/owner/studies/{slug}/reliability`.
async fn set_thresholds(
    State(state): State<AppState>,
    headers: HeaderMap,
    Path(slug): Path<String>,
    ApiJson(thresholds): ApiJson<ReliabilityThresholds>,
) -> ApiResult<Json<ReliabilityThresholds>> {
    Ok(Json(
        studies::set_thresholds(&state, &headers, &slug, thresholds).await?,
    ))
}

/// `POST /api/owner/tasks/{slug}/studies/preview`.
async fn preview_study(
    State(state): State<AppState>,
    headers: HeaderMap,
    Path(slug): Path<String>,
    ApiJson(request): ApiJson<CreateStudyRequest>,
) -> ApiResult<Json<StudyPreview>> {
    Ok(Json(
        studies::preview_study(&state, &headers, &slug, request).await?,
    ))
}

/// `POST /api/owner/studies/{slug}/invitation`.
async fn reissue_invitation(
    State(state): State<AppState>,
    headers: HeaderMap,
    Path(slug): Path<String>,
) -> ApiResult<Json<InvitationResponse>> {
    Ok(Json(
        studies::reissue_invitation(&state, &headers, &slug).await?,
    ))
}

/// `POST /api/owner/tasks/{slug}/studies`.
async fn create_study(
    State(state): State<AppState>,
    headers: HeaderMap,
    Path(slug): Path<String>,
    ApiJson(request): ApiJson<CreateStudyRequest>,
) -> ApiResult<(StatusCode, Json<CreateStudyResponse>)> {
    let created = studies::create_study(&state, &headers, &slug, request).await?;
    Ok((StatusCode::CREATED, Json(created)))
}

/// `GET /api/owner/tasks/{slug}/studies`: the board's study slugs, oldest first.
async fn list_studies(
    State(state): State<AppState>,
    headers: HeaderMap,
    Path(slug): Path<String>,
) -> ApiResult<Json<Vec<String>>> {
    Ok(Json(
        studies::studies_of_board(&state, &headers, &slug).await?,
    ))
}

/// `GET /api/owner/studies/{slug}`.
async fn study_page(
    State(state): State<AppState>,
    headers: HeaderMap,
    Path(slug): Path<String>,
) -> ApiResult<Json<StudyPage>> {
    Ok(Json(studies::study_page(&state, &headers, &slug).await?))
}

async fn judgements(
    state: &AppState,
    headers: &HeaderMap,
    slug: &str,
    format: FileFormat,
) -> ApiResult<impl IntoResponse> {
    let body = studies::export_judgements(state, headers, slug, format).await?;
    Ok(super::format_download(
        body,
        &format!("{slug}-judgements"),
        format,
    ))
}

/// `GET /api/owner/studies/{slug}/judgements.csv`.
async fn judgements_csv(
    State(state): State<AppState>,
    headers: HeaderMap,
    Path(slug): Path<String>,
) -> ApiResult<impl IntoResponse> {
    judgements(&state, &headers, &slug, FileFormat::Csv).await
}

/// `GET /api/owner/studies/{slug}/judgements.jsonl`.
async fn judgements_jsonl(
    State(state): State<AppState>,
    headers: HeaderMap,
    Path(slug): Path<String>,
) -> ApiResult<impl IntoResponse> {
    judgements(&state, &headers, &slug, FileFormat::JsonLines).await
}

/// `GET /api/owner/studies/{slug}/tables.json`.
async fn tables(
    State(state): State<AppState>,
    headers: HeaderMap,
    Path(slug): Path<String>,
) -> ApiResult<Json<serde_json::Value>> {
    Ok(Json(studies::export_tables(&state, &headers, &slug).await?))
}

/// `GET /api/owner/studies/{slug}/raters.csv`.
async fn raters_csv(
    State(state): State<AppState>,
    headers: HeaderMap,
    Path(slug): Path<String>,
) -> ApiResult<impl IntoResponse> {
    let body = studies::export_raters(&state, &headers, &slug).await?;
    Ok(super::format_download(
        body,
        &format!("{slug}-raters"),
        FileFormat::Csv,
    ))
}
