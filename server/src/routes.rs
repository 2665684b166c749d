//! HTTP routes: thin handlers that parse input, call [`crate::quiz`], and return JSON.

use crate::error::{ApiError, ApiResult};
use crate::quiz;
use crate::startup::AppState;
use axum::extract::{FromRequest, OriginalUri, Path, Request, State};
use axum::http::StatusCode;
use axum::routing::{get, post};
use axum::{Json, Router};
use memeboard_core::api::{
    CrowdStatsResponse, HealthResponse, QuizSummary, ResultsResponse, SessionResponse,
    StartSessionRequest, SubmitAnswerRequest, SubmitAnswerResponse,
};
use serde::de::DeserializeOwned;

/// A JSON body whose rejection is an [`ApiError`] with serde's precise message.
pub struct ApiJson<T>(pub T);

impl<S, T> FromRequest<S> for ApiJson<T>
where
    T: DeserializeOwned,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        Json::<T>::from_request(req, state)
            .await
            .map(|Json(v)| Self(v))
            .map_err(crate::error::json_rejection)
    }
}

/// The `/api` router.
pub fn api_router() -> Router<AppState> {
    Router::new()
        .route("/quizzes", get(list_quizzes))
        .route("/quizzes/{slug}", get(get_quiz))
        .route("/quizzes/{slug}/stats", get(get_quiz_stats))
        .route("/quizzes/{slug}/sessions", post(start_session))
        .route("/sessions/{id}", get(get_session))
        .route("/sessions/{id}/answers", post(submit_answer))
        .route("/sessions/{id}/results", get(get_results))
        .fallback(api_not_found)
}

async fn api_not_found(OriginalUri(uri): OriginalUri) -> ApiError {
    ApiError::NotFound(format!("no API endpoint at `{}`", uri.path()))
}

/// `GET /healthz`: the server is up and the database answers.
pub async fn healthz(State(state): State<AppState>) -> ApiResult<Json<HealthResponse>> {
    state.storage.ping().await?;
    Ok(Json(HealthResponse {
        status: "ok".into(),
        database: state.storage.backend().name().into(),
    }))
}

async fn list_quizzes(State(state): State<AppState>) -> ApiResult<Json<Vec<QuizSummary>>> {
    let quizzes = state.storage.list_open_quizzes().await?;
    Ok(Json(
        quizzes
            .iter()
            .map(quiz::summarize)
            .collect::<ApiResult<_>>()?,
    ))
}

async fn get_quiz(
    State(state): State<AppState>,
    Path(slug): Path<String>,
) -> ApiResult<Json<QuizSummary>> {
    Ok(Json(quiz::summarize(
        &quiz::find_quiz(&state.storage, &slug).await?,
    )?))
}

async fn get_quiz_stats(
    State(state): State<AppState>,
    Path(slug): Path<String>,
) -> ApiResult<Json<CrowdStatsResponse>> {
    Ok(Json(
        quiz::crowd_stats(
            &state.storage,
            &slug,
            state.settings.quiz.bootstrap_resamples,
        )
        .await?,
    ))
}

async fn start_session(
    State(state): State<AppState>,
    Path(slug): Path<String>,
    ApiJson(request): ApiJson<StartSessionRequest>,
) -> ApiResult<(StatusCode, Json<SessionResponse>)> {
    let session = quiz::start_session(&state.storage, &slug, request).await?;
    Ok((StatusCode::CREATED, Json(session)))
}

async fn get_session(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<Json<SessionResponse>> {
    Ok(Json(quiz::get_session(&state.storage, &id).await?))
}

async fn submit_answer(
    State(state): State<AppState>,
    Path(id): Path<String>,
    ApiJson(request): ApiJson<SubmitAnswerRequest>,
) -> ApiResult<(StatusCode, Json<SubmitAnswerResponse>)> {
    let (response, created) = quiz::submit_answer(&state.storage, &id, request).await?;
    let status = if created {
        StatusCode::CREATED
    } else {
        StatusCode::OK
    };
    Ok((status, Json(response)))
}

async fn get_results(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<Json<ResultsResponse>> {
    Ok(Json(
        quiz::results(&state.storage, &id, state.settings.quiz.bootstrap_resamples).await?,
    ))
}
