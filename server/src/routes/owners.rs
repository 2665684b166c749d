//! Owner routes: owner tokens (admin), the console, settings and live progress of a quiz, and
//! the participant's attention-check answers.

use super::ApiJson;
use crate::error::ApiResult;
use crate::owners;
use crate::state::AppState;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::routing::{get, post, put};
use axum::{Json, Router};
use memeboard_core::fieldwork::{
    ConsoleResponse, ConsoleSettings, CreateOwnerRequest, CreateOwnerResponse, OwnedTask,
    ProgressResponse, SubmitCheckRequest, SubmitCheckResponse,
};

/// Owner routes (mounted under `/api`).
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/admin/owners", post(create_owner))
        .route("/owner/tasks", get(owned_tasks))
        .route("/owner/tasks/{slug}/console", get(console))
        .route("/owner/tasks/{slug}/settings", put(update_settings))
        .route("/owner/tasks/{slug}/progress", get(progress))
        .route("/sessions/{id}/checks", post(submit_check))
}

async fn create_owner(
    State(state): State<AppState>,
    headers: HeaderMap,
    ApiJson(request): ApiJson<CreateOwnerRequest>,
) -> ApiResult<(StatusCode, Json<CreateOwnerResponse>)> {
    let owner = owners::create_owner_as_admin(&state, &headers, &request).await?;
    Ok((StatusCode::CREATED, Json(owner)))
}

async fn owned_tasks(
    State(state): State<AppState>,
    headers: HeaderMap,
) -> ApiResult<Json<Vec<OwnedTask>>> {
    Ok(Json(owners::owned_tasks(&state, &headers).await?))
}

async fn console(
    State(state): State<AppState>,
    Path(slug): Path<String>,
    headers: HeaderMap,
) -> ApiResult<Json<ConsoleResponse>> {
    Ok(Json(owners::console(&state, &headers, &slug).await?))
}

async fn update_settings(
    State(state): State<AppState>,
    Path(slug): Path<String>,
    headers: HeaderMap,
    ApiJson(request): ApiJson<ConsoleSettings>,
) -> ApiResult<Json<ConsoleSettings>> {
    Ok(Json(
        owners::update_settings(&state, &headers, &slug, request).await?,
    ))
}

async fn progress(
    State(state): State<AppState>,
    Path(slug): Path<String>,
    headers: HeaderMap,
) -> ApiResult<Json<ProgressResponse>> {
    Ok(Json(owners::progress(&state, &headers, &slug).await?))
}

/// `POST /api/sessions/{id}/checks`: one attention-check answer, stored once.
async fn submit_check(
    State(state): State<AppState>,
    Path(id): Path<String>,
    ApiJson(request): ApiJson<SubmitCheckRequest>,
) -> ApiResult<(StatusCode, Json<SubmitCheckResponse>)> {
    let (response, created) = crate::quiz::submit_check(&state.storage, &id, request).await?;
    let status = if created {
        StatusCode::CREATED
    } else {
        StatusCode::OK
    };
    Ok((status, Json(response)))
}
