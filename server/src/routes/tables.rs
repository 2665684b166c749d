//! Paper-tables routes: a benchmark's tables as JSON, and each table as CSV or LaTeX.

use super::download;
use crate::error::{ApiError, ApiResult};
use crate::leaderboard;
use crate::state::AppState;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
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

/// `?split=public|private|whole&lang=en|zh`.
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

/// `GET /api/benchmarks/{slug}/tables`.
async fn get_tables(
    State(state): State<AppState>,
    Path(slug): Path<String>,
    query: Result<Query<TablesQuery>, QueryRejection>,
) -> ApiResult<Json<PaperTablesResponse>> {
    let query = read_query(query)?;
    let split = query.split.unwrap_or(BoardSplit::Public);
    Ok(Json(leaderboard::paper_tables(&state, &slug, split).await?))
}

/// `GET /api/benchmarks/{slug}/tables/{id}.csv` or `.tex`: one table as a download.
async fn download_table(
    State(state): State<AppState>,
    Path((slug, file)): Path<(String, String)>,
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
    let tables = leaderboard::paper_tables(&state, &slug, split).await?;
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
    Ok(if extension == "csv" {
        download("text/csv; charset=utf-8", name, to_csv(table))
    } else {
        let lang = Lang::parse(query.lang.as_deref());
        download(
            "application/x-tex; charset=utf-8",
            name,
            to_latex(table, lang, split),
        )
    })
}
