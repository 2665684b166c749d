//! Quiz routes: list quizzes, the headphone check, start a session, answer, resume, results,
//! crowd stats.

use super::ApiJson;
use crate::error::ApiResult;
use crate::quiz;
use crate::state::AppState;
use axum::extract::{ConnectInfo, Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::{Extension, Json};
use memeboard_core::api::{
    CrowdStatsResponse, HeadphoneCheckStart, QuizSummary, ResultsResponse, SessionResponse,
    StartSessionRequest, SubmitAnswerRequest, SubmitAnswerResponse, SubmitPrefaceRequest,
    SubmitPrefaceResponse,
};
use std::net::SocketAddr;

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
    Query(visitor): Query<quiz::Visitor>,
) -> ApiResult<Json<QuizSummary>> {
    Ok(Json(
        quiz::summary_for(&state.storage, &slug, &visitor).await?,
    ))
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

/// `POST /api/quizzes/{slug}/headphone-checks`: a fresh check (its answer key stays here).
pub async fn create_headphone_check(
    State(state): State<AppState>,
    Path(slug): Path<String>,
) -> ApiResult<(StatusCode, Json<HeadphoneCheckStart>)> {
    let quiz = quiz::find_quiz(&state.storage, &slug).await?;
    let check = crate::crowd::headphones::create(&state.storage, &quiz).await?;
    Ok((StatusCode::CREATED, Json(check)))
}

/// `GET /api/headphone-checks/{id}/sounds/{trial}`: a trial's three tones (WAV), `0` the
/// calibration tone.
pub async fn headphone_sound(
    State(state): State<AppState>,
    Path((id, trial)): Path<(String, u8)>,
) -> ApiResult<impl axum::response::IntoResponse> {
    let body = crate::crowd::headphones::sound(&state.storage, &id, trial).await?;
    Ok((
        [
            (axum::http::header::CONTENT_TYPE, "audio/wav"),
            (axum::http::header::CACHE_CONTROL, "private, no-store"),
        ],
        body,
    ))
}

/// Routes of debug builds only: `GET /api/headphone-checks/{id}/key`, the quiet tone's
/// position per trial, for the browser tests (which run a debug build). A release build has
/// none, so no shipped server can hand out a check's answers.
#[cfg(debug_assertions)]
pub fn test_routes() -> axum::Router<AppState> {
    axum::Router::new().route(
        "/headphone-checks/{id}/key",
        axum::routing::get(headphone_key),
    )
}

/// Release builds: no test routes.
#[cfg(not(debug_assertions))]
pub fn test_routes() -> axum::Router<AppState> {
    axum::Router::new()
}

#[cfg(debug_assertions)]
async fn headphone_key(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<Json<Vec<u8>>> {
    Ok(Json(
        crate::crowd::headphones::answer_key(&state.storage, &id).await?,
    ))
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
    peer: Option<Extension<ConnectInfo<SocketAddr>>>,
    headers: HeaderMap,
    ApiJson(request): ApiJson<SubmitAnswerRequest>,
) -> ApiResult<(StatusCode, Json<SubmitAnswerResponse>)> {
    let client = crate::leaderboard::ClientAddress::of(
        &state.settings,
        &headers,
        peer.map(|Extension(ConnectInfo(addr))| addr),
    )
    .network();
    let scorer = quiz::Scorer {
        embeddings: &state.embeddings,
        admission: &state.scoring_admission,
        client: &client,
    };
    let (response, created) = quiz::submit_answer(&state.storage, scorer, &id, request).await?;
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
            quiz::ResultsCaches {
                crowd: &state.crowd_stats,
                items: &state.item_crowd,
            },
            &id,
            &state.settings.quiz,
        )
        .await?,
    ))
}
