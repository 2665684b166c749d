//! Leaderboard routes: tokens, task manifests and templates, uploads, boards, model pages,
//! per-item gaps and the admin board switches.

use super::{cache_rule, download, rate_limited, ApiJson};
use crate::error::{ApiError, ApiResult};
use crate::http::rate_limit::LimitedRoute;
use crate::leaderboard::{self, SubmitQuery};
use crate::state::AppState;
use axum::body::Body;
use axum::extract::rejection::QueryRejection;
use axum::extract::{ConnectInfo, Path, Query, State};
use axum::http::header::{CONTENT_DISPOSITION, CONTENT_TYPE};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Extension, Json, Router};
use memeboard_core::api::{
    BoardResponse, BoardSettingsRequest, BoardSplit, CreateAuthorRequest, CreateAuthorResponse,
    ItemGap, MeResponse, SubmissionDetail, SubmitPredictionsResponse, TaskSummary,
    WithdrawResponse,
};
use memeboard_core::msg;
use memeboard_core::predictions::{FileFormat, TaskManifest};
use serde::Deserialize;
use std::net::SocketAddr;

/// Leaderboard routes (mounted under `/api`).
pub fn router(state: &AppState) -> Router<AppState> {
    Router::new()
        .route(
            "/authors",
            rate_limited(post(create_author), state, LimitedRoute::AuthorCreation),
        )
        .route("/me", get(me))
        .route("/tasks", get(list_tasks))
        .route("/tasks/{slug}/manifest", get(manifest))
        .route("/tasks/{slug}/inputs.jsonl", get(inputs))
        .route("/tasks/{slug}/media.tar", get(media_archive))
        .route("/tasks/{slug}/SHA256SUMS", get(checksums))
        .route(
            "/tasks/{slug}/template.jsonl",
            get(|State(state), Path(slug)| template(state, slug, FileFormat::JsonLines)),
        )
        .route(
            "/tasks/{slug}/template.csv",
            get(|State(state), Path(slug)| template(state, slug, FileFormat::Csv)),
        )
        .route("/tasks/{slug}/dev-gold.jsonl", get(dev_gold))
        .route(
            "/tasks/{slug}/submissions",
            // The handler reads the body itself, capped at the upload limit, after checking
            // the token and quota; the rate limit comes first.
            rate_limited(post(submit_predictions), state, LimitedRoute::Upload),
        )
        .route("/boards/{slug}", get(get_board))
        .route("/boards/{slug}/download.csv", get(download_board_csv))
        .route("/boards/{slug}/download.json", get(download_board_json))
        .route(
            "/submissions/{id}",
            get(get_submission).delete(withdraw_submission),
        )
        .route("/submissions/{id}/items", get(get_item_gaps))
        .route("/admin/tasks/{slug}/board", post(update_board))
}

/// The client address comes from `ConnectInfo` (the server is served with
/// `into_make_service_with_connect_info`), or from `[leaderboard] client_ip_header` behind a
/// trusted proxy. In-process calls without connection info (tests) share one fixed bucket.
async fn create_author(
    State(state): State<AppState>,
    peer: Option<Extension<ConnectInfo<SocketAddr>>>,
    headers: HeaderMap,
    ApiJson(request): ApiJson<CreateAuthorRequest>,
) -> ApiResult<(StatusCode, Json<CreateAuthorResponse>)> {
    let client = leaderboard::ClientAddress::of(
        &state.settings,
        &headers,
        peer.map(|Extension(ConnectInfo(addr))| addr),
    );
    let author =
        leaderboard::create_author(&state.storage, &state.settings, request, client, &headers)
            .await?;
    Ok((StatusCode::CREATED, Json(author)))
}

async fn me(State(state): State<AppState>, headers: HeaderMap) -> ApiResult<Json<MeResponse>> {
    Ok(Json(
        leaderboard::me(&state.storage, &state.settings, &headers).await?,
    ))
}

async fn list_tasks(State(state): State<AppState>) -> ApiResult<Json<Vec<TaskSummary>>> {
    Ok(Json(leaderboard::list_tasks(&state.storage).await?))
}

async fn manifest(
    State(state): State<AppState>,
    Path(slug): Path<String>,
    headers: HeaderMap,
) -> ApiResult<Json<TaskManifest>> {
    leaderboard::check_inputs_access(&state.storage, &headers, &slug, "manifest").await?;
    Ok(Json(leaderboard::manifest(&state.storage, &slug).await?))
}

/// `GET /api/tasks/{slug}/inputs.jsonl` (an author token while a clip task's quiz is open).
async fn inputs(
    State(state): State<AppState>,
    Path(slug): Path<String>,
    headers: HeaderMap,
) -> ApiResult<impl IntoResponse> {
    leaderboard::check_inputs_access(&state.storage, &headers, &slug, "inputs.jsonl").await?;
    let body = leaderboard::inputs_jsonl(&state.storage, &slug).await?;
    Ok(super::format_download(
        body,
        &format!("{slug}-inputs"),
        FileFormat::JsonLines,
    ))
}

/// `GET /api/tasks/{slug}/media.tar`: inputs and every media file, for offline runs (an
/// author token while a clip task's quiz is open). Served from the archive built once per
/// content (see `media::archive`), with `Range` support.
async fn media_archive(
    State(state): State<AppState>,
    Path(slug): Path<String>,
    headers: HeaderMap,
    request: axum::extract::Request,
) -> ApiResult<Response> {
    leaderboard::check_inputs_access(&state.storage, &headers, &slug, "media.tar").await?;
    let inputs = leaderboard::inputs_jsonl(&state.storage, &slug).await?;
    let built = crate::media::archive::task_archive(&state, &slug, &inputs).await?;
    let file = tower_http::services::ServeFile::new(built.path);
    let served = match tower::ServiceExt::oneshot(file, request).await {
        Ok(served) => served,
        Err(never) => match never {},
    };
    let mut response = served.into_response();
    let h = response.headers_mut();
    h.insert(
        CONTENT_TYPE,
        axum::http::HeaderValue::from_static("application/x-tar"),
    );
    if let Ok(v) = format!("attachment; filename=\"{slug}-media.tar\"").parse() {
        h.insert(CONTENT_DISPOSITION, v);
    }
    Ok(response)
}

/// `GET /api/tasks/{slug}/SHA256SUMS`: checksums of `inputs.jsonl` and `media.tar`
/// (`sha256sum -c` format, file names as downloaded); the archive's is kept with it.
async fn checksums(
    State(state): State<AppState>,
    Path(slug): Path<String>,
) -> ApiResult<impl IntoResponse> {
    let inputs = leaderboard::inputs_jsonl(&state.storage, &slug).await?;
    let built = crate::media::archive::task_archive(&state, &slug, &inputs).await?;
    let body = format!(
        "{}  {slug}-inputs.jsonl\n{}  {slug}-media.tar\n",
        crate::media::sha256_hex(inputs.as_bytes()),
        built.sha256,
    );
    Ok(download(
        "text/plain; charset=utf-8",
        format!("{slug}-SHA256SUMS"),
        body,
    ))
}

/// `GET /api/tasks/{slug}/template.jsonl` or `template.csv`: one blank prediction per item.
async fn template(
    state: AppState,
    slug: String,
    format: FileFormat,
) -> ApiResult<impl IntoResponse> {
    let body = leaderboard::template(&state.storage, &slug, format).await?;
    Ok(super::format_download(
        body,
        &format!("{slug}-template"),
        format,
    ))
}

async fn dev_gold(
    State(state): State<AppState>,
    Path(slug): Path<String>,
) -> ApiResult<impl IntoResponse> {
    let gold = leaderboard::dev_gold(&state.storage, &slug).await?;
    let mut body = String::new();
    for g in gold {
        body.push_str(&serde_json::to_string(&g).map_err(anyhow::Error::from)?);
        body.push('\n');
    }
    Ok(super::format_download(
        body,
        &format!("{slug}-dev-gold"),
        FileFormat::JsonLines,
    ))
}

async fn submit_predictions(
    State(state): State<AppState>,
    Path(slug): Path<String>,
    headers: HeaderMap,
    query: Result<Query<SubmitQuery>, QueryRejection>,
    body: Body,
) -> ApiResult<(StatusCode, Json<SubmitPredictionsResponse>)> {
    let Query(query) = query
        .map_err(|e| ApiError::BadRequest(msg!("request.invalid_query", reason = e.body_text())))?;
    let limit = state.settings.leaderboard.max_upload_bytes;
    let too_large = || ApiError::PayloadTooLarge(msg!("upload.too_large", limit = limit));
    // Token, task, metadata and quota first: a request that would be refused anyway never
    // makes the server read (and hold) its body.
    let upload =
        leaderboard::admit_upload(&state.storage, &state.settings, &headers, &slug, &query).await?;
    let declared = headers
        .get(axum::http::header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<usize>().ok());
    if declared.is_some_and(|n| n > limit) {
        return Err(too_large());
    }
    // Streamed with a cap: at most `limit + 1` bytes are ever held.
    let body = axum::body::to_bytes(body, limit + 1).await.map_err(|e| {
        if std::error::Error::source(&e).is_some_and(|s| s.is::<http_body_util::LengthLimitError>())
        {
            too_large()
        } else {
            ApiError::BadRequest(msg!("upload.unreadable", reason = e))
        }
    })?;
    if body.len() > limit {
        return Err(too_large());
    }
    let response = leaderboard::submit(
        &state.storage,
        &state.settings,
        &state.embeddings,
        upload,
        &body,
    )
    .await?;
    Ok((StatusCode::CREATED, Json(response)))
}

/// `?split=public|private|whole|all` (default public; the others once the private half is
/// revealed, `all` for the benchmark's owners).
#[derive(Debug, Deserialize)]
struct BoardQuery {
    split: Option<BoardSplit>,
    subset: Option<String>,
    /// `all`: every upload of every model (default: one row per model).
    attempts: Option<String>,
}

/// The board a query asks for; the owners' view over every item (`?split=all`) only with an
/// owner token of the task's benchmark or the admin token.
async fn board_of(
    state: &AppState,
    headers: &HeaderMap,
    slug: &str,
    query: Result<Query<BoardQuery>, QueryRejection>,
) -> ApiResult<BoardResponse> {
    let Query(query) = query
        .map_err(|e| ApiError::BadRequest(msg!("request.invalid_split", reason = e.body_text())))?;
    let all_attempts = match query.attempts.as_deref() {
        None | Some("default") => false,
        Some("all") => true,
        Some(other) => {
            return Err(ApiError::BadRequest(msg!(
                "request.invalid_attempts",
                found = other
            )))
        }
    };
    let subset = query.subset.as_deref();
    match query.split.unwrap_or(BoardSplit::Public) {
        BoardSplit::All => {
            crate::owners::authorize(state, headers, slug).await?;
            leaderboard::owners_board(state, slug, subset, all_attempts).await
        }
        split => leaderboard::board(state, slug, split, subset, all_attempts).await,
    }
}

async fn get_board(
    State(state): State<AppState>,
    Path(slug): Path<String>,
    headers: HeaderMap,
    query: Result<Query<BoardQuery>, QueryRejection>,
) -> ApiResult<impl IntoResponse> {
    let board = board_of(&state, &headers, &slug, query).await?;
    Ok((cache_rule(board.split), Json(board)))
}

fn split_name(b: &BoardResponse) -> &'static str {
    b.split.as_str()
}

async fn download_board_csv(
    State(state): State<AppState>,
    Path(slug): Path<String>,
    headers: HeaderMap,
    query: Result<Query<BoardQuery>, QueryRejection>,
) -> ApiResult<impl IntoResponse> {
    let board = board_of(&state, &headers, &slug, query).await?;
    let stem = format!("{slug}-{}-board", split_name(&board));
    Ok((
        cache_rule(board.split),
        super::format_download(leaderboard::board_csv(&board), &stem, FileFormat::Csv),
    ))
}

async fn download_board_json(
    State(state): State<AppState>,
    Path(slug): Path<String>,
    headers: HeaderMap,
    query: Result<Query<BoardQuery>, QueryRejection>,
) -> ApiResult<impl IntoResponse> {
    let board = board_of(&state, &headers, &slug, query).await?;
    let name = format!("{slug}-{}-board.json", split_name(&board));
    let body = serde_json::to_string_pretty(&board).map_err(anyhow::Error::from)?;
    Ok((
        cache_rule(board.split),
        download("application/json", name, body),
    ))
}

/// `DELETE /api/submissions/{id}`: the author takes their own row off every board.
async fn withdraw_submission(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> ApiResult<Json<WithdrawResponse>> {
    Ok(Json(
        leaderboard::withdraw(&state.storage, &headers, &id).await?,
    ))
}

async fn get_submission(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<Json<SubmissionDetail>> {
    Ok(Json(
        leaderboard::submission(&state.storage, &state.settings, &id).await?,
    ))
}

async fn get_item_gaps(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> ApiResult<Json<Vec<ItemGap>>> {
    Ok(Json(
        leaderboard::item_gaps(
            &state.storage,
            &state.settings,
            &state.item_crowd,
            &headers,
            &id,
        )
        .await?,
    ))
}

async fn update_board(
    State(state): State<AppState>,
    Path(slug): Path<String>,
    headers: HeaderMap,
    ApiJson(request): ApiJson<BoardSettingsRequest>,
) -> ApiResult<Json<BoardSettingsRequest>> {
    Ok(Json(
        crate::owners::update_board(&state, &headers, &slug, request).await?,
    ))
}
