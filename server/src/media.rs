//! Serving media files (panel images; later audio and video) and the per-task media archive.
//!
//! Files live in the database (so every instance of a PostgreSQL deployment has them); the
//! first request for a name copies it to a local cache folder, and from there
//! `tower_http`'s `ServeFile` answers with the right content type, `Range` requests (206),
//! conditional requests and an immutable cache lifetime: names are content hashes, so a
//! changed file is a new URL.

use crate::error::{ApiError, ApiResult};
use crate::state::AppState;
use crate::storage::Storage;
use axum::extract::{Path, Request, State};
use axum::http::header::{CACHE_CONTROL, X_CONTENT_TYPE_OPTIONS};
use axum::http::HeaderValue;
use axum::response::{IntoResponse, Response};
use sha2::{Digest, Sha256};
use std::path::PathBuf;
use tower_http::services::ServeFile;

pub mod archive;

/// Whether `name` is an opaque media name (`<32 hex>.<ext>`): anything else is refused
/// before the database or the file system is touched.
///
/// ```
/// use memeboard_server::media::is_media_name;
/// assert!(is_media_name("0123456789abcdef0123456789abcdef.png"));
/// assert!(!is_media_name("../0123456789abcdef0123456789abcdef.png"));
/// assert!(!is_media_name("panel-1.png"));
/// ```
pub fn is_media_name(name: &str) -> bool {
    let Some((stem, ext)) = name.split_once('.') else {
        return false;
    };
    stem.len() == 32
        && stem
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
        && (1..=5).contains(&ext.len())
        && ext
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
}

/// The local cache folder of served media.
fn cache_dir(state: &AppState) -> PathBuf {
    state.settings.data.dir.join("media-cache")
}

/// Copies a stored file to the cache (atomically: write, then rename) unless it is there.
async fn cached_path(state: &AppState, name: &str) -> ApiResult<PathBuf> {
    let dir = cache_dir(state);
    let path = dir.join(name);
    if tokio::fs::try_exists(&path).await.unwrap_or(false) {
        return Ok(path);
    }
    let media =
        state.storage.media(name).await?.ok_or_else(|| {
            ApiError::NotFound(memeboard_core::msg!("media.not_found", name = name))
        })?;
    let unexpected = |e: std::io::Error| {
        ApiError::Unexpected(anyhow::anyhow!("caching media in {}: {e}", dir.display()))
    };
    tokio::fs::create_dir_all(&dir).await.map_err(unexpected)?;
    let tmp = dir.join(format!(".{name}.{}", std::process::id()));
    tokio::fs::write(&tmp, &media.bytes)
        .await
        .map_err(unexpected)?;
    tokio::fs::rename(&tmp, &path).await.map_err(unexpected)?;
    Ok(path)
}

/// `GET /media/{name}`: a media file with range support and immutable caching.
pub async fn serve(
    State(state): State<AppState>,
    Path(name): Path<String>,
    request: Request,
) -> Response {
    if !is_media_name(&name) {
        return ApiError::NotFound(memeboard_core::msg!("media.not_found", name = name))
            .into_response();
    }
    // A panel of an item its task withholds (the task's inputs would reveal another task's
    // hidden test gold) is not served, before the cache is looked at, and is answered exactly
    // like an unknown name.
    match state.storage.media_withheld(&name).await {
        Ok(false) => {}
        Ok(true) => {
            return ApiError::NotFound(memeboard_core::msg!("media.not_found", name = name))
                .into_response()
        }
        Err(e) => return ApiError::from(e).into_response(),
    }
    let path = match cached_path(&state, &name).await {
        Ok(p) => p,
        Err(e) => return e.into_response(),
    };
    match tower::ServiceExt::oneshot(ServeFile::new(path), request).await {
        Ok(response) => {
            let mut response = response.into_response();
            let headers = response.headers_mut();
            headers.insert(
                CACHE_CONTROL,
                HeaderValue::from_static("public, max-age=31536000, immutable"),
            );
            headers.insert(X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
            response
        }
        Err(never) => match never {},
    }
}

/// The media names of a task shown only by items it withholds (empty for a task that
/// withholds nothing).
pub(crate) async fn withheld_media(
    storage: &Storage,
    task_id: &str,
) -> ApiResult<std::collections::HashSet<String>> {
    let offered = storage.offered_task_items(task_id).await?;
    let all = storage.task_items(task_id).await?;
    if offered.len() == all.len() {
        return Ok(Default::default());
    }
    let shown: std::collections::HashSet<String> = offered
        .iter()
        .flat_map(|i| media_names_in(&i.prompt_json))
        .collect();
    let offered_ids: std::collections::HashSet<&str> =
        offered.iter().map(|i| i.id.as_str()).collect();
    Ok(all
        .iter()
        .filter(|i| !offered_ids.contains(i.id.as_str()))
        .flat_map(|i| media_names_in(&i.prompt_json))
        .filter(|n| !shown.contains(n))
        .collect())
}

/// Every opaque media name a text shows as `/media/<name>`.
///
/// ```
/// use memeboard_server::media::media_names_in;
/// let prompt = r#"{"panels":[{"url":"/media/0123456789abcdef0123456789abcdef.png"}]}"#;
/// assert_eq!(media_names_in(prompt), vec!["0123456789abcdef0123456789abcdef.png"]);
/// ```
pub fn media_names_in(text: &str) -> Vec<String> {
    text.split("/media/")
        .skip(1)
        .filter_map(|rest| {
            let end = rest
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '.'))
                .unwrap_or(rest.len());
            let name = &rest[..end];
            is_media_name(name).then(|| name.to_owned())
        })
        .collect()
}

/// SHA-256 of `bytes`, lower-case hex.
pub fn sha256_hex(bytes: &[u8]) -> String {
    hex(&Sha256::digest(bytes))
}

/// Bytes as lowercase hex digits (digests in `SHA256SUMS` and archive names).
pub(crate) fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// A POSIX ustar archive of `(path, bytes)` in memory (tests; the served archive is written
/// entry by entry, see `archive`).
#[cfg(test)]
pub fn tar(files: &[(String, Vec<u8>)]) -> Vec<u8> {
    let mut out = Vec::new();
    for (path, bytes) in files {
        out.extend_from_slice(&tar_header(path, bytes.len()));
        out.extend_from_slice(bytes);
        out.resize(out.len().div_ceil(512) * 512, 0);
    }
    out.resize(out.len() + 1024, 0);
    out
}

/// The ustar header of one file entry (paths under 100 bytes; ours are ~60).
pub(crate) fn tar_header(path: &str, len: usize) -> [u8; 512] {
    let mut header = [0u8; 512];
    let name = path.as_bytes();
    header[..name.len().min(100)].copy_from_slice(&name[..name.len().min(100)]);
    octal(&mut header[100..108], 0o644);
    octal(&mut header[108..116], 0);
    octal(&mut header[116..124], 0);
    octal(&mut header[124..136], len as u64);
    octal(&mut header[136..148], 0);
    header[148..156].fill(b' ');
    header[156] = b'0';
    header[257..263].copy_from_slice(b"ustar\0");
    header[263..265].copy_from_slice(b"00");
    let sum: u32 = header.iter().map(|&b| u32::from(b)).sum();
    octal(&mut header[148..155], u64::from(sum));
    header[155] = 0;
    header
}

/// Writes `value` as zero-padded octal digits followed by a NUL in `field`.
fn octal(field: &mut [u8], value: u64) {
    let digits = field.len() - 1;
    let text = format!("{value:0digits$o}");
    field[..digits].copy_from_slice(&text.as_bytes()[text.len() - digits..]);
    field[digits] = 0;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tar_headers_have_valid_checksums_and_padding() {
        let archive = tar(&[("t/a.txt".into(), b"hello".to_vec())]);
        assert_eq!(archive.len(), 512 + 512 + 1024);
        let header = &archive[..512];
        assert_eq!(&header[..7], b"t/a.txt");
        assert_eq!(&header[124..135], b"00000000005");
        let stored =
            u32::from_str_radix(std::str::from_utf8(&header[148..154]).unwrap().trim(), 8).unwrap();
        let mut copy = header.to_vec();
        copy[148..156].fill(b' ');
        assert_eq!(stored, copy.iter().map(|&b| u32::from(b)).sum::<u32>());
        assert_eq!(&archive[512..517], b"hello");
    }
}
