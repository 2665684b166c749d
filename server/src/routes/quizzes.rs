//! Quiz routes: list quizzes, start a session, answer, resume, results, crowd stats.

use super::ApiJson;
use crate::error::ApiResult;
use crate::quiz;
use crate::state::AppState;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::Json;
use memeboard_core::api::{
    CrowdStatsResponse, QuizSummary, ResultsResponse, SessionResponse, StartSessionRequest,
    SubmitAnswerRequest, SubmitAnswerResponse, SubmitPrefaceRequest, SubmitPrefaceResponse,
};

pub async fn list_quizzes(State(state): State<AppState>) -> ApiResult<Json<Vec<QuizSummary>>> {
    Ok(Json(quiz::public_quizzes(&state.storage).await?))
}

/// `?invite=SECRET` of an invitation-only study link.
#[derive(Debug, Default, serde::Deserialize)]
pub struct InviteQuery {
    invite: Option<String>,
}

pub async fn get_quiz(
    State(state): State<AppState>,
    Path(slug): Path<String>,
) -> ApiResult<Json<QuizSummary>> {
    Ok(Json(quiz::summarize(
        &quiz::find_quiz(&state.storage, &slug).await?,
    )?))
}

pub async fn get_quiz_stats(
    State(state): State<AppState>,
    Path(slug): Path<String>,
) -> ApiResult<Json<CrowdStatsResponse>> {
    Ok(Json(
        quiz::crowd_stats(
            &state.storage,
            &state.crowd_stats,
            &slug,
            &state.settings.quiz,
        )
        .await?,
    ))
}

pub async fn start_session(
    State(state): State<AppState>,
    Path(slug): Path<String>,
    Query(query): Query<InviteQuery>,
    ApiJson(mut request): ApiJson<StartSessionRequest>,
) -> ApiResult<(StatusCode, Json<SessionResponse>)> {
    if request.invite.is_none() {
        request.invite = query.invite;
    }
    let (session, created) = quiz::start_session(&state.storage, &slug, request).await?;
    let status = if created {
        StatusCode::CREATED
    } else {
        StatusCode::OK
    };
    Ok((status, Json(session)))
}

pub async fn get_session(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<Json<SessionResponse>> {
    Ok(Json(quiz::get_session(&state.storage, &id).await?))
}

pub async fn submit_answer(
    State(state): State<AppState>,
    Path(id): Path<String>,
    ApiJson(request): ApiJson<SubmitAnswerRequest>,
) -> ApiResult<(StatusCode, Json<SubmitAnswerResponse>)> {
    let (response, created) =
        quiz::submit_answer(&state.storage, &state.embeddings, &id, request).await?;
    let status = if created {
        StatusCode::CREATED
    } else {
        StatusCode::OK
    };
    Ok((status, Json(response)))
}

/// `POST /api/sessions/{id}/prefaces`: the familiarity answer, before the question.
pub async fn submit_preface(
    State(state): State<AppState>,
    Path(id): Path<String>,
    ApiJson(request): ApiJson<SubmitPrefaceRequest>,
) -> ApiResult<(StatusCode, Json<SubmitPrefaceResponse>)> {
    let (response, created) = quiz::submit_preface(&state.storage, &id, request).await?;
    let status = if created {
        StatusCode::CREATED
    } else {
        StatusCode::OK
    };
    Ok((status, Json(response)))
}

pub async fn get_results(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<Json<ResultsResponse>> {
    Ok(Json(
        quiz::results(
            &state.storage,
            &state.crowd_stats,
            &id,
            &state.settings.quiz,
        )
        .await?,
    ))
}
