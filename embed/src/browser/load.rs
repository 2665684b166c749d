//! Downloading the model ([`load_model`]): the manifest, the tokenizer and the weights
//! (streamed, with progress), the weights' SHA-256 checked with WebCrypto, and the Cache API.

use super::cache::{cache_delete, cache_get, cache_key, cache_put, open_cache};
use super::{load_err, now_ms, resolve, Global};
use crate::{EmbedError, ModelManifest};
use js_sys::Uint8Array;
use serde::Serialize;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

/// How [`load_model`] got the model, for diagnostics and benchmarks.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LoadStats {
    /// The weights came from the Cache API (no download).
    pub from_cache: bool,
    /// Size of the weights file.
    pub bytes: u64,
    /// Manifest + tokenizer + weights download (or cache read), in ms.
    pub fetch_ms: f64,
    /// SHA-256 of the weights (WebCrypto), in ms.
    pub verify_ms: f64,
    /// The whole of [`load_model`], in ms.
    pub total_ms: f64,
    /// Anything unusual about the cache (unavailable, a corrupt entry replaced, …).
    pub cache_note: Option<String>,
}

/// The model files, downloaded and verified; turn them into a [`BrowserEncoder`].
#[derive(Debug, Clone)]
pub struct LoadedModel {
    /// `browser.json`.
    pub manifest: ModelManifest,
    /// Absolute URL of the weights.
    pub weights_url: String,
    /// Contents of `tokenizer.json`.
    pub tokenizer_json: String,
    /// The safetensors weights file (F16), whose SHA-256 matched the manifest.
    pub weights: Vec<u8>,
    /// How the files were obtained.
    pub stats: LoadStats,
}

async fn fetch_ok(global: &Global, url: &str) -> Result<web_sys::Response, EmbedError> {
    let response: web_sys::Response = JsFuture::from(global.fetch(url))
        .await
        .map_err(load_err(format!("GET {url}")))?
        .unchecked_into();
    if !response.ok() {
        return Err(EmbedError::Load(format!(
            "GET {url}: HTTP {} {}",
            response.status(),
            response.status_text()
        )));
    }
    Ok(response)
}

async fn fetch_text(global: &Global, url: &str) -> Result<String, EmbedError> {
    let response = fetch_ok(global, url).await?;
    let text = response.text().map_err(load_err(format!("GET {url}")))?;
    JsFuture::from(text)
        .await
        .map_err(load_err(format!("GET {url}")))?
        .as_string()
        .ok_or_else(|| EmbedError::Load(format!("GET {url}: the body is not text")))
}

/// Streams `url` into one `Uint8Array`, reporting `(loaded, total)` after every chunk;
/// `total` is the manifest's size (the `Content-Length` may be that of a compressed body).
async fn download(
    global: &Global,
    url: &str,
    expected: u64,
    progress: &impl Fn(u64, u64),
) -> Result<Uint8Array, EmbedError> {
    let response = fetch_ok(global, url).await?;
    let Some(body) = response.body() else {
        let buffer = response
            .array_buffer()
            .map_err(load_err(format!("GET {url}")))?;
        let buffer = JsFuture::from(buffer)
            .await
            .map_err(load_err(format!("GET {url}")))?;
        let bytes = Uint8Array::new(&buffer);
        progress(bytes.length().into(), bytes.length().into());
        return Ok(bytes);
    };
    let reader: web_sys::ReadableStreamDefaultReader = body.get_reader().unchecked_into();
    let capacity = u32::try_from(expected)
        .map_err(|_| EmbedError::Load(format!("{url}: {expected} bytes is too large")))?;
    let mut buffer = Uint8Array::new_with_length(capacity);
    let mut loaded: u32 = 0;
    progress(0, expected);
    loop {
        let chunk: web_sys::ReadableStreamReadResult = JsFuture::from(reader.read())
            .await
            .map_err(load_err(format!("GET {url} (reading the body)")))?
            .unchecked_into();
        if chunk.get_done().unwrap_or(false) {
            break;
        }
        let chunk: Uint8Array = chunk.get_value().unchecked_into();
        let end = loaded
            .checked_add(chunk.length())
            .ok_or_else(|| EmbedError::Load(format!("{url}: the body exceeds 4 GB")))?;
        if end > buffer.length() {
            // More than the manifest says (a wrong file): grow, and let the hash reject it.
            let grown = Uint8Array::new_with_length(end.max(buffer.length().saturating_mul(2)));
            grown.set(&buffer, 0);
            buffer = grown;
        }
        buffer.set(&chunk, loaded);
        loaded = end;
        progress(loaded.into(), expected.max(loaded.into()));
    }
    Ok(buffer.subarray(0, loaded))
}

/// Lower-case hex SHA-256 of `bytes` (WebCrypto).
async fn sha256_hex(global: &Global, bytes: &Uint8Array) -> Result<String, EmbedError> {
    let promise = global
        .subtle()?
        .digest_with_str_and_buffer_source("SHA-256", bytes)
        .map_err(load_err("crypto.subtle.digest"))?;
    let digest = JsFuture::from(promise)
        .await
        .map_err(load_err("crypto.subtle.digest"))?;
    Ok(Uint8Array::new(&digest)
        .to_vec()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect())
}

/// Downloads the model described by the manifest at `manifest_url` (absolute, or relative to
/// the page): `browser.json`, then the tokenizer and the weights, whose URLs are relative to
/// the manifest (`/model-files/browser.json` → `/model-files/model.f16.safetensors`).
///
/// The weights come from the Cache API when present (no network), otherwise from the
/// network with `progress(loaded, total)` after every chunk. Either way their SHA-256
/// (WebCrypto) must equal the manifest's: a corrupt cached copy is deleted and downloaded
/// again; downloaded bytes that do not match are never cached and fail with
/// [`EmbedError::Integrity`] ("model weights failed the integrity check (expected …, got …)").
pub async fn load_model(
    manifest_url: &str,
    progress: impl Fn(u64, u64),
) -> Result<LoadedModel, EmbedError> {
    let global = Global::get()?;
    let start = now_ms();
    let manifest_url = resolve(manifest_url, &global.href()?)?;
    let manifest_text = fetch_text(&global, &manifest_url).await?;
    let manifest: ModelManifest = serde_json::from_str(&manifest_text)
        .map_err(|e| EmbedError::Load(format!("{manifest_url}: not a model manifest: {e}")))?;
    manifest.config.validate()?;
    let expected = manifest.sha256.to_ascii_lowercase();
    let weights_url = resolve(&manifest.weights, &manifest_url)?;
    let tokenizer_json = fetch_text(&global, &resolve(&manifest.tokenizer, &manifest_url)?).await?;

    let mut stats = LoadStats {
        bytes: manifest.bytes,
        ..LoadStats::default()
    };
    let key = cache_key(&weights_url, &expected);
    let cache = open_cache(&global).await;
    let mut verified: Option<Uint8Array> = None;
    match &cache {
        Ok(cache) => match cache_get(cache, &key).await {
            Ok(Some(bytes)) => {
                progress(bytes.length().into(), bytes.length().into());
                let t = now_ms();
                let got = sha256_hex(&global, &bytes).await?;
                stats.verify_ms = now_ms() - t;
                if got == expected {
                    stats.from_cache = true;
                    verified = Some(bytes);
                } else {
                    cache_delete(cache, &key).await;
                    stats.cache_note = Some(format!(
                        "the cached weights failed the integrity check (got {got}); \
                         deleted and downloaded again"
                    ));
                }
            }
            Ok(None) => {}
            Err(note) => stats.cache_note = Some(note),
        },
        Err(note) => stats.cache_note = Some(note.clone()),
    }
    let bytes = match verified {
        Some(bytes) => bytes,
        None => {
            let bytes = download(&global, &weights_url, manifest.bytes, &progress).await?;
            let t = now_ms();
            let got = sha256_hex(&global, &bytes).await?;
            stats.verify_ms = now_ms() - t;
            if got != expected {
                if let Ok(cache) = &cache {
                    cache_delete(cache, &key).await;
                }
                return Err(EmbedError::Integrity { expected, got });
            }
            if let Ok(cache) = &cache {
                if let Err(note) = cache_put(cache, &key, &bytes).await {
                    stats.cache_note = Some(note);
                }
            }
            bytes
        }
    };
    stats.total_ms = now_ms() - start;
    stats.fetch_ms = stats.total_ms - stats.verify_ms;
    Ok(LoadedModel {
        manifest,
        weights_url,
        tokenizer_json,
        weights: bytes.to_vec(),
        stats,
    })
}
