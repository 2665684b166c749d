//! Paper-tables routes: a benchmark's tables as JSON, and each table as CSV or LaTeX.

use super::{cache_rule, download};
use crate::error::{ApiError, ApiResult};
use crate::leaderboard;
use crate::state::AppState;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use axum::http::HeaderMap;
use axum::response::IntoResponse;
use axum::routing::get;
use axum::{Json, Router};
use memeboard_core::api::BoardSplit;
use memeboard_core::msg;
use memeboard_core::paper_tables::render::{to_csv, to_latex, Lang};
use memeboard_core::paper_tables::PaperTablesResponse;
use serde::Deserialize;

/// Paper-tables routes (mounted under `/api`).
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/benchmarks/{slug}/tables", get(get_tables))
        .route("/benchmarks/{slug}/tables/{file}", get(download_table))
}

/// `?split=public|private|whole|all&lang=en|zh` (`all`: owners and the admin, with their
/// bearer token).
#[derive(Deserialize)]
struct TablesQuery {
    split: Option<BoardSplit>,
    lang: Option<String>,
}

/// The query, or a 400 naming what is wrong.
fn read_query(query: Result<Query<TablesQuery>, QueryRejection>) -> ApiResult<TablesQuery> {
    query
        .map(|Query(q)| q)
        .map_err(|e| ApiError::BadRequest(msg!("request.invalid_split", reason = e.body_text())))
}

/// The tables of `slug` on `split`; the owners' view over every item (`all`) only for an
/// owner of the benchmark or the admin (bearer token), never kept by a cache.
async fn tables_for(
    state: &AppState,
    headers: &HeaderMap,
    slug: &str,
    split: BoardSplit,
) -> ApiResult<PaperTablesResponse> {
    if split != BoardSplit::All {
        return leaderboard::paper_tables(state, slug, split).await;
    }
    let task = state
        .storage
        .benchmark_tasks(slug)
        .await?
        .and_then(|(_, tasks)| tasks.into_iter().next())
        .ok_or_else(|| ApiError::NotFound(msg!("benchmark.not_found", slug = slug)))?;
    crate::owners::authorize(state, headers, &task.slug).await?;
    leaderboard::owners_paper_tables(state, slug).await
}

/// `GET /api/benchmarks/{slug}/tables`.
async fn get_tables(
    State(state): State<AppState>,
    Path(slug): Path<String>,
    headers: HeaderMap,
    query: Result<Query<TablesQuery>, QueryRejection>,
) -> ApiResult<impl IntoResponse> {
    let query = read_query(query)?;
    let split = query.split.unwrap_or(BoardSplit::Public);
    let tables: PaperTablesResponse = tables_for(&state, &headers, &slug, split).await?;
    Ok((cache_rule(split), Json(tables)))
}

/// `GET /api/benchmarks/{slug}/tables/{id}.csv` or `.tex`: one table as a download.
async fn download_table(
    State(state): State<AppState>,
    Path((slug, file)): Path<(String, String)>,
    headers: HeaderMap,
    query: Result<Query<TablesQuery>, QueryRejection>,
) -> ApiResult<impl IntoResponse> {
    let query = read_query(query)?;
    let split = query.split.unwrap_or(BoardSplit::Public);
    let Some((id, extension)) = file.rsplit_once('.') else {
        return Err(ApiError::BadRequest(msg!("tables.format", found = file)));
    };
    if extension != "csv" && extension != "tex" {
        return Err(ApiError::BadRequest(msg!("tables.format", found = file)));
    }
    let tables = tables_for(&state, &headers, &slug, split).await?;
    let Some(table) = tables.tables.iter().find(|t| t.id == id) else {
        let allowed: Vec<&str> = tables.tables.iter().map(|t| t.id.as_str()).collect();
        return Err(ApiError::NotFound(msg!(
            "tables.not_found",
            benchmark = slug,
            found = id,
            allowed = allowed.join(", ")
        )));
    };
    let name = format!("{slug}-{id}-{}.{extension}", split.as_str());
    Ok((
        cache_rule(split),
        if extension == "csv" {
            download("text/csv; charset=utf-8", name, to_csv(table))
        } else {
            let lang = Lang::parse(query.lang.as_deref());
            download(
                "application/x-tex; charset=utf-8",
                name,
                to_latex(table, lang, split),
            )
        },
    ))
}
