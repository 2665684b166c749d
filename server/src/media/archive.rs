//! A task's `media.tar`, built once per content on disk and served from there: the archive
//! is written entry by entry (one media file in memory at a time), its SHA-256 is kept beside
//! it, and one build runs at a time site-wide. So neither `media.tar` nor `SHA256SUMS` holds
//! an archive in memory per request, and eight requests for a new archive wait for one build
//! instead of making eight.

use super::{hex, sha256_hex, tar_header, withheld_media};
use crate::error::{ApiError, ApiResult};
use crate::state::AppState;
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};
use tokio::io::AsyncWriteExt;
use tokio::sync::Semaphore;

/// Archive builds at once, site-wide.
static BUILDS: Semaphore = Semaphore::const_new(1);

/// A built archive on disk and its SHA-256 (hex).
#[derive(Debug, Clone)]
pub struct BuiltArchive {
    /// The archive file (under the media cache folder).
    pub path: PathBuf,
    /// SHA-256 of the whole archive, as `SHA256SUMS` lists it.
    pub sha256: String,
}

/// The archive of task `slug` whose `inputs.jsonl` is `inputs`: `<task>/inputs.jsonl`,
/// `<task>/media/<name>` for every file of the task but those shown only by items it
/// withholds, and `<task>/SHA256SUMS` over all of them (`sha256sum -c` format). Built on the
/// first request for this content (media names are content hashes, so inputs and names say
/// everything), reused until the content changes; older archives of the task are removed.
pub async fn task_archive(state: &AppState, slug: &str, inputs: &str) -> ApiResult<BuiltArchive> {
    let storage = &state.storage;
    let task = storage.find_board_task(slug).await?.ok_or_else(|| {
        ApiError::NotFound(memeboard_core::msg!("media.task_not_found", slug = slug))
    })?;
    let withheld = withheld_media(storage, &task.task.id).await?;
    let names: Vec<String> = storage
        .task_media(&task.task.id)
        .await?
        .into_iter()
        .map(|m| m.name)
        .filter(|n| !withheld.contains(n))
        .collect();
    let key = {
        let mut h = Sha256::new();
        for part in std::iter::once(inputs).chain(names.iter().map(String::as_str)) {
            h.update((part.len() as u64).to_le_bytes());
            h.update(part.as_bytes());
        }
        hex(&h.finalize()[..16])
    };
    let dir = super::cache_dir(state).join("archives");
    let path = dir.join(format!("{slug}-{key}.tar"));
    if let Some(built) = read_built(&path).await {
        return Ok(built);
    }
    let _permit = BUILDS
        .acquire()
        .await
        .map_err(|e| ApiError::Unexpected(anyhow::anyhow!("archive builds closed: {e}")))?;
    // Whoever held the permit may just have built this one.
    if let Some(built) = read_built(&path).await {
        return Ok(built);
    }
    let built = build(state, slug, inputs, &names, &dir, &path).await?;
    remove_older(&dir, slug, &path).await;
    Ok(built)
}

/// The archive at `path` and its digest file, when both are there.
async fn read_built(path: &Path) -> Option<BuiltArchive> {
    let sha256 = tokio::fs::read_to_string(path.with_extension("sha256"))
        .await
        .ok()?;
    tokio::fs::try_exists(path)
        .await
        .ok()
        .filter(|e| *e)
        .map(|_| BuiltArchive {
            path: path.to_owned(),
            sha256: sha256.trim().to_owned(),
        })
}

/// Writes the archive to a temporary file, then renames it (and its digest) into place.
async fn build(
    state: &AppState,
    slug: &str,
    inputs: &str,
    names: &[String],
    dir: &Path,
    path: &Path,
) -> ApiResult<BuiltArchive> {
    let io = |e: std::io::Error| {
        ApiError::Unexpected(anyhow::anyhow!(
            "writing an archive in {}: {e}",
            dir.display()
        ))
    };
    tokio::fs::create_dir_all(dir).await.map_err(io)?;
    let tmp = path.with_extension(format!("tar.{}.tmp", std::process::id()));
    let mut out = Writer {
        file: tokio::fs::File::create(&tmp).await.map_err(io)?,
        whole: Sha256::new(),
        sums: String::new(),
    };
    out.entry(format!("{slug}/inputs.jsonl"), inputs.as_bytes().to_vec())
        .await
        .map_err(io)?;
    for name in names {
        let media = state
            .storage
            .media(name)
            .await?
            .ok_or_else(|| ApiError::Unexpected(anyhow::anyhow!("media `{name}` vanished")))?;
        out.entry(format!("{slug}/media/{name}"), media.bytes)
            .await
            .map_err(io)?;
    }
    let sums = std::mem::take(&mut out.sums).into_bytes();
    out.raw_entry(format!("{slug}/SHA256SUMS"), sums)
        .await
        .map_err(io)?;
    out.write(vec![0u8; 1024]).await.map_err(io)?;
    out.file.flush().await.map_err(io)?;
    let sha256 = hex(&out.whole.finalize());
    drop(out.file);
    tokio::fs::rename(&tmp, path).await.map_err(io)?;
    let sum_tmp = path.with_extension(format!("sha256.{}.tmp", std::process::id()));
    tokio::fs::write(&sum_tmp, &sha256).await.map_err(io)?;
    tokio::fs::rename(&sum_tmp, path.with_extension("sha256"))
        .await
        .map_err(io)?;
    Ok(BuiltArchive {
        path: path.to_owned(),
        sha256,
    })
}

/// Removes the task's other archives (an earlier content), best effort.
async fn remove_older(dir: &Path, slug: &str, keep: &Path) {
    let Ok(mut entries) = tokio::fs::read_dir(dir).await else {
        return;
    };
    let prefix = format!("{slug}-");
    while let Ok(Some(e)) = entries.next_entry().await {
        let p = e.path();
        let name = e.file_name().to_string_lossy().into_owned();
        // `{slug}-{32 hex}.tar` or `.sha256` (another slug may start with this one's).
        let ours = name.strip_prefix(&prefix).is_some_and(|rest| {
            rest.split_once('.').is_some_and(|(key, ext)| {
                key.len() == 32
                    && key.bytes().all(|b| b.is_ascii_hexdigit())
                    && (ext == "tar" || ext == "sha256")
            })
        });
        if ours && p.with_extension("tar") != keep {
            let _ = tokio::fs::remove_file(&p).await;
        }
    }
}

/// The archive being written: the file, the running digest of everything written, and the
/// `SHA256SUMS` lines so far.
struct Writer {
    file: tokio::fs::File,
    whole: Sha256,
    sums: String,
}

impl Writer {
    /// Writes `bytes` and feeds them to the whole archive's digest (off the executor).
    async fn write(&mut self, bytes: Vec<u8>) -> std::io::Result<()> {
        let mut whole = std::mem::take(&mut self.whole);
        let (whole, bytes) = tokio::task::spawn_blocking(move || {
            whole.update(&bytes);
            (whole, bytes)
        })
        .await
        .map_err(std::io::Error::other)?;
        self.whole = whole;
        self.file.write_all(&bytes).await
    }

    /// One file entry, listed in `SHA256SUMS` (its path without the task folder).
    async fn entry(&mut self, path: String, bytes: Vec<u8>) -> std::io::Result<()> {
        let (digest, bytes) = tokio::task::spawn_blocking(move || (sha256_hex(&bytes), bytes))
            .await
            .map_err(std::io::Error::other)?;
        let relative = path.split_once('/').map_or(path.as_str(), |(_, r)| r);
        self.sums.push_str(&format!("{digest}  {relative}\n"));
        self.raw_entry(path, bytes).await
    }

    /// One file entry: header, bytes, padding to the next 512-byte block.
    async fn raw_entry(&mut self, path: String, bytes: Vec<u8>) -> std::io::Result<()> {
        let padding = bytes.len().div_ceil(512) * 512 - bytes.len();
        self.write(tar_header(&path, bytes.len()).to_vec()).await?;
        self.write(bytes).await?;
        self.write(vec![0u8; padding]).await
    }
}
