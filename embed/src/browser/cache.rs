//! The weights in the Cache API ([`CACHE_NAME`](super::CACHE_NAME)), keyed by URL and
//! expected hash; every failure here is a note, never an error (the network remains).

use super::{js_text, Global, CACHE_NAME};
use js_sys::Uint8Array;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

/// The Cache API key of a weights file: its URL with the expected hash as a query parameter,
/// so a new model version never matches an old entry.
pub(super) fn cache_key(weights_url: &str, sha256: &str) -> String {
    let sep = if weights_url.contains('?') { '&' } else { '?' };
    format!("{weights_url}{sep}sha256={sha256}")
}

pub(super) async fn open_cache(global: &Global) -> Result<web_sys::Cache, String> {
    let caches = global
        .caches()
        .map_err(|e| format!("the Cache API is unavailable ({})", js_text(&e)))?;
    let cache = JsFuture::from(caches.open(CACHE_NAME))
        .await
        .map_err(|e| format!("caches.open failed ({})", js_text(&e)))?;
    Ok(cache.unchecked_into())
}

/// The cached bytes under `key`, if any.
pub(super) async fn cache_get(
    cache: &web_sys::Cache,
    key: &str,
) -> Result<Option<Uint8Array>, String> {
    let found = JsFuture::from(cache.match_with_str(key))
        .await
        .map_err(|e| format!("cache.match failed ({})", js_text(&e)))?;
    if found.is_undefined() || found.is_null() {
        return Ok(None);
    }
    let response: web_sys::Response = found.unchecked_into();
    let buffer = response
        .array_buffer()
        .map_err(|e| format!("reading the cached weights failed ({})", js_text(&e)))?;
    let buffer = JsFuture::from(buffer)
        .await
        .map_err(|e| format!("reading the cached weights failed ({})", js_text(&e)))?;
    Ok(Some(Uint8Array::new(&buffer)))
}

pub(super) async fn cache_put(
    cache: &web_sys::Cache,
    key: &str,
    bytes: &Uint8Array,
) -> Result<(), String> {
    let init = web_sys::ResponseInit::new();
    init.set_status(200);
    let headers = web_sys::Headers::new().map_err(|e| js_text(&e))?;
    headers
        .set("Content-Type", "application/octet-stream")
        .map_err(|e| js_text(&e))?;
    init.set_headers(&headers);
    let response = web_sys::Response::new_with_opt_buffer_source_and_init(Some(bytes), &init)
        .map_err(|e| js_text(&e))?;
    JsFuture::from(cache.put_with_str(key, &response))
        .await
        .map(|_| ())
        .map_err(|e| format!("cache.put failed ({})", js_text(&e)))
}

pub(super) async fn cache_delete(cache: &web_sys::Cache, key: &str) {
    // Best effort: a failed delete leaves an entry the next load verifies again.
    let _ = JsFuture::from(cache.delete_with_str(key)).await;
}
