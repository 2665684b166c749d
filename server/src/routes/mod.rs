//! HTTP routes: thin handlers that parse input, call the feature modules ([`crate::quiz`],
//! [`crate::leaderboard`], [`crate::export`]) and return JSON. One file per feature.

mod leaderboard;
mod owner;
mod owners;
mod quizzes;
pub mod refusals;
mod studies;
mod tables;

use crate::error::{ApiError, ApiResult};
use crate::http::rate_limit::LimitedRoute;
use crate::state::AppState;
use axum::extract::ConnectInfo;
use axum::extract::{DefaultBodyLimit, FromRequest, OriginalUri, Request, State};
use axum::http::header::{CONTENT_DISPOSITION, CONTENT_TYPE};
use axum::http::{header, HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use memeboard_core::api::HealthResponse;
use memeboard_core::api::{ApiErrorBody, BoardSplit};
use memeboard_core::msg;
use memeboard_core::predictions::FileFormat;
use serde::de::DeserializeOwned;
use std::net::SocketAddr;
use std::time::{SystemTime, UNIX_EPOCH};

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

/// Largest JSON request body.
const MAX_JSON_BODY_BYTES: usize = 1024 * 1024;

/// The OpenAPI description of the JSON API, kept beside the routes it describes.
pub const OPENAPI_JSON: &str = include_str!("../../openapi.json");

/// `GET /api/openapi.json`.
async fn openapi() -> impl axum::response::IntoResponse {
    (
        [(axum::http::header::CONTENT_TYPE, "application/json")],
        OPENAPI_JSON,
    )
}

/// `method` behind the per-minute request budget of `route` (see `crate::http::rate_limit`).
pub(crate) fn rate_limited(
    method: axum::routing::MethodRouter<AppState>,
    state: &AppState,
    route: LimitedRoute,
) -> axum::routing::MethodRouter<AppState> {
    method.route_layer(axum::middleware::from_fn_with_state(
        state.clone(),
        move |st: State<AppState>, request: Request, next: Next| limit(route, st, request, next),
    ))
}

/// Middleware for `route`: counts the request against its client's budget, or answers 429.
async fn limit(
    route: LimitedRoute,
    State(state): State<AppState>,
    request: Request,
    next: Next,
) -> Response {
    let peer = request
        .extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map(|ConnectInfo(addr)| *addr);
    let client =
        crate::leaderboard::ClientAddress::of(&state.settings, request.headers(), peer).network();
    let now_s = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let per_minute = route.per_minute(&state.settings.rate_limits);
    match state.rate_limits.check(route, &client, per_minute, now_s) {
        Ok(()) => next.run(request).await,
        Err(retry_after) => {
            let body = ApiErrorBody::single(
                msg!(
                    "request.rate_limited",
                    limit = per_minute,
                    retry_after = retry_after
                )
                .with_message("what", route.what()),
            );
            let mut response = (StatusCode::TOO_MANY_REQUESTS, Json(body)).into_response();
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from(retry_after));
            response
        }
    }
}

/// The `/api` router.
pub fn api_router(state: &AppState) -> Router<AppState> {
    Router::new()
        .route("/quizzes", get(quizzes::list_quizzes))
        .route("/quizzes/{slug}", get(quizzes::get_quiz))
        .route("/quizzes/{slug}/stats", get(quizzes::get_quiz_stats))
        .route(
            "/quizzes/{slug}/sessions",
            rate_limited(
                post(quizzes::start_session),
                state,
                LimitedRoute::SessionStart,
            ),
        )
        .route(
            "/quizzes/{slug}/headphone-checks",
            rate_limited(
                post(quizzes::create_headphone_check),
                state,
                LimitedRoute::HeadphoneCheck,
            ),
        )
        .route(
            "/headphone-checks/{id}/sounds/{trial}",
            get(quizzes::headphone_sound),
        )
        .merge(quizzes::test_routes())
        .route("/sessions/{id}", get(quizzes::get_session))
        .route("/sessions/{id}/answers", post(quizzes::submit_answer))
        .route("/sessions/{id}/prefaces", post(quizzes::submit_preface))
        .route("/sessions/{id}/results", get(quizzes::get_results))
        .merge(leaderboard::router(state))
        .merge(owner::router())
        .merge(owners::router())
        .merge(studies::router())
        .merge(tables::router())
        .route("/openapi.json", get(openapi))
        .route("/embedding-model", get(embedding_model))
        .layer(DefaultBodyLimit::max(MAX_JSON_BODY_BYTES))
        .fallback(api_not_found)
        .layer(axum::middleware::from_fn_with_state(
            std::time::Duration::from_secs(state.settings.server.body_read_timeout_secs.max(1)),
            crate::http::body_deadline::limit,
        ))
        // Last, so it wraps the routes, their layers and the fallback.
        .layer(axum::middleware::from_fn(refusals::envelope))
}

async fn api_not_found(OriginalUri(uri): OriginalUri) -> ApiError {
    ApiError::NotFound(msg!("request.no_endpoint", path = uri.path()))
}

/// `GET /api/embedding-model`: the model behind explanation scores and its browser copy.
async fn embedding_model(
    State(state): State<AppState>,
) -> Json<memeboard_core::api::EmbeddingModelInfo> {
    let dir = state.settings.model_dir();
    Json(memeboard_core::api::EmbeddingModelInfo {
        name: state.settings.model.name.clone(),
        server_available: state.embeddings.model_name().is_ok(),
        browser_manifest: dir
            .join("browser.json")
            .exists()
            .then(|| "/model-files/browser.json".to_owned()),
    })
}

/// `GET /healthz`: the server is up and the database answers and can commit a write (503 with
/// `Retry-After` otherwise, e.g. on a full disk or with the write lock held), answered within
/// a bound: a database that does not answer is a 503, not a hanging probe.
pub async fn healthz(State(state): State<AppState>) -> ApiResult<Json<HealthResponse>> {
    let unavailable = |e: crate::storage::StorageError| {
        tracing::error!(error = %e, "health check: database not writable");
        ApiError::Unavailable(msg!("service.unavailable", reason = e))
    };
    let bound = crate::storage::HEALTH_WRITE_TIMEOUT;
    match tokio::time::timeout(bound, state.storage.ping()).await {
        Ok(result) => result.map_err(unavailable)?,
        Err(_) => {
            return Err(ApiError::Unavailable(msg!(
                "service.unavailable",
                reason = "the database does not answer"
            )))
        }
    }
    state.storage.check_writable().await.map_err(unavailable)?;
    Ok(Json(HealthResponse {
        status: "ok".into(),
        database: state.storage.backend().name().into(),
    }))
}

/// The cache rule of a board view's responses (the board, its downloads, the paper tables):
/// the owners' view over every item is kept by no cache (`private, no-store`); the public
/// views are revalidated, as every API response (`no-cache`).
pub(super) fn cache_rule(split: BoardSplit) -> [(header::HeaderName, &'static str); 1] {
    let rule = if split == BoardSplit::All {
        "private, no-store"
    } else {
        "no-cache"
    };
    [(header::CACHE_CONTROL, rule)]
}

pub(super) fn download(
    content_type: &'static str,
    file_name: String,
    body: impl IntoResponse,
) -> impl IntoResponse {
    (
        [
            (CONTENT_TYPE, content_type.to_owned()),
            (
                CONTENT_DISPOSITION,
                format!("attachment; filename=\"{file_name}\""),
            ),
        ],
        body,
    )
}

/// A file download: the content type of `format` and an attachment named `{stem}.csv` or
/// `{stem}.jsonl` (the answer export, the study judgement export and the prediction
/// templates send the same headers).
pub(super) fn format_download(
    body: impl IntoResponse,
    stem: &str,
    format: FileFormat,
) -> impl IntoResponse {
    let (content_type, ext) = match format {
        FileFormat::Csv => ("text/csv; charset=utf-8", "csv"),
        FileFormat::JsonLines => ("application/x-ndjson; charset=utf-8", "jsonl"),
    };
    download(content_type, format!("{stem}.{ext}"), body)
}
