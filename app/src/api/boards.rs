//! Leaderboards: fetching a board and the URLs of its fetch and downloads.

use super::{encode_component, get_json, ApiError};
use memeboard_core::api::{BoardResponse, BoardSplit};

/// The wire name of a board split.
pub fn split_name(split: BoardSplit) -> &'static str {
    split.as_str()
}

/// `GET /api/boards/{slug}?split=…&subset=…`: one board (403 for a private board not yet
/// revealed). `subset` (e.g. `main`) is passed through when given; without it the server
/// shows its default subset.
pub async fn board(
    slug: &str,
    split: BoardSplit,
    subset: Option<&str>,
    all_attempts: bool,
) -> Result<BoardResponse, ApiError> {
    get_json(&board_query(slug, split, subset, all_attempts)).await
}

/// The URL of a board fetch (see [`board`]); `all_attempts` asks for every upload of every
/// model (`attempts=all`) instead of one row per model.
pub fn board_query(
    slug: &str,
    split: BoardSplit,
    subset: Option<&str>,
    all_attempts: bool,
) -> String {
    let mut url = format!(
        "/api/boards/{}?split={}",
        encode_component(slug),
        split_name(split)
    );
    if let Some(subset) = subset.map(str::trim).filter(|s| !s.is_empty()) {
        url.push_str("&subset=");
        url.push_str(&encode_component(subset));
    }
    if all_attempts {
        url.push_str("&attempts=all");
    }
    url
}

/// The URL of a board download (`ext` is `csv` or `json`).
pub fn board_download_url(slug: &str, split: BoardSplit, ext: &str) -> String {
    format!(
        "/api/boards/{}/download.{ext}?split={}",
        encode_component(slug),
        split_name(split)
    )
}

/// `GET /api/benchmarks/{slug}/tables?split=…`: a benchmark's paper tables (403 for the
/// private half before any of its boards is revealed).
pub async fn paper_tables(
    slug: &str,
    split: BoardSplit,
) -> Result<memeboard_core::paper_tables::PaperTablesResponse, ApiError> {
    get_json(&format!(
        "/api/benchmarks/{}/tables?split={}",
        encode_component(slug),
        split_name(split)
    ))
    .await
}

/// The URL of a paper table's download (`ext` is `csv` or `tex`; `lang` the headers'
/// language).
pub fn table_download_url(
    slug: &str,
    id: &str,
    ext: &str,
    split: BoardSplit,
    lang: &str,
) -> String {
    format!(
        "/api/benchmarks/{}/tables/{}.{ext}?split={}&lang={lang}",
        encode_component(slug),
        encode_component(id),
        split_name(split)
    )
}
