//! Owner routes: a task's raw data (answer-level export as CSV or JSON Lines, its data
//! dictionary), deleting a participant's data on request, and scoring its uploads again.

use super::ApiJson;
use crate::error::ApiResult;
use crate::export;
use crate::state::AppState;
use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::response::IntoResponse;
use axum::routing::{delete, get, post};
use axum::{Json, Router};
use memeboard_core::api::{DataDictionary, DeleteParticipantResponse, RescoreRequest};
use memeboard_core::predictions::FileFormat;

/// Owner routes (mounted under `/api`).
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/owner/tasks/{slug}/export.csv", get(export_csv))
        .route("/owner/tasks/{slug}/export.jsonl", get(export_jsonl))
        .route("/owner/tasks/{slug}/export-dictionary", get(dictionary))
        .route(
            "/owner/tasks/{slug}/participants/{who}",
            delete(delete_participant),
        )
        .route("/owner/tasks/{slug}/rescore", post(rescore))
}

/// `POST /api/owner/tasks/{slug}/rescore`: every upload of the task scored again, in the
/// background (202).
async fn rescore(
    State(state): State<AppState>,
    headers: HeaderMap,
    Path(slug): Path<String>,
    ApiJson(request): ApiJson<RescoreRequest>,
) -> ApiResult<impl IntoResponse> {
    let started = crate::owners::rescore::start(&state, &headers, &slug, &request).await?;
    Ok((axum::http::StatusCode::ACCEPTED, Json(started)))
}

async fn export_file(
    state: &AppState,
    headers: &HeaderMap,
    slug: &str,
    format: FileFormat,
) -> ApiResult<impl IntoResponse> {
    let body = export::export_body(state, headers, slug, format).await?;
    Ok(super::format_download(
        body,
        &format!("{slug}-answers"),
        format,
    ))
}

/// `GET /api/owner/tasks/{slug}/export.csv`: every answer, streamed.
async fn export_csv(
    State(state): State<AppState>,
    headers: HeaderMap,
    Path(slug): Path<String>,
) -> ApiResult<impl IntoResponse> {
    export_file(&state, &headers, &slug, FileFormat::Csv).await
}

/// `GET /api/owner/tasks/{slug}/export.jsonl`: the same as JSON Lines.
async fn export_jsonl(
    State(state): State<AppState>,
    headers: HeaderMap,
    Path(slug): Path<String>,
) -> ApiResult<impl IntoResponse> {
    export_file(&state, &headers, &slug, FileFormat::JsonLines).await
}

/// `GET /api/owner/tasks/{slug}/export-dictionary`.
async fn dictionary(
    State(state): State<AppState>,
    headers: HeaderMap,
    Path(slug): Path<String>,
) -> ApiResult<Json<DataDictionary>> {
    Ok(Json(export::dictionary_for(&state, &headers, &slug).await?))
}

/// `DELETE /api/owner/tasks/{slug}/participants/{who}` (pseudonym or Prolific id).
async fn delete_participant(
    State(state): State<AppState>,
    headers: HeaderMap,
    Path((slug, who)): Path<(String, String)>,
) -> ApiResult<Json<DeleteParticipantResponse>> {
    Ok(Json(
        export::delete_participant_request(&state, &headers, &slug, &who).await?,
    ))
}
