//! The in-browser sentence embedder: `memeboard-embed` (CPU, or WebGPU on a hardware GPU)
//! built as its own module under `/embed/` and imported on demand by explanation pages, so
//! the main bundle stays small. Scores computed here are the instant ones; the server's are
//! authoritative, and the two agree (tested).

use wasm_bindgen::prelude::*;

#[wasm_bindgen(inline_js = r#"
let loading = null;
export function mb_load_embedder(manifestUrl, onProgress) {
  if (!loading) {
    loading = (async () => {
      const m = await import('/embed/memeboard_embed.js');
      await m.default();
      const e = await m.MemeboardEmbedder.load(manifestUrl, 'auto', onProgress);
      window.memeboardEmbedder = e;
      return e;
    })();
    loading.catch(() => { loading = null; });
  }
  return loading;
}
export async function mb_cosine(a, b) {
  const e = await loading;
  return await e.cosine(a, b);
}
export async function mb_cosines(pairsJson) {
  const e = await loading;
  return Array.from(await e.cosines(pairsJson));
}
export async function mb_backend() {
  const e = await loading;
  const info = typeof e.backendInfo === 'function' ? e.backendInfo() : '';
  return info ? `${e.backend()}: ${info}` : e.backend();
}
"#)]
extern "C" {
    #[wasm_bindgen(catch)]
    async fn mb_load_embedder(
        manifest_url: &str,
        on_progress: &js_sys::Function,
    ) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(catch)]
    async fn mb_cosine(a: &str, b: &str) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(catch)]
    async fn mb_cosines(pairs_json: &str) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(catch)]
    async fn mb_backend() -> Result<JsValue, JsValue>;
}

fn message(e: JsValue) -> String {
    e.as_string()
        .or_else(|| {
            js_sys::Reflect::get(&e, &"message".into())
                .ok()
                .and_then(|m| m.as_string())
        })
        .unwrap_or_else(|| "the embedder failed to load".into())
}

/// A score computed in the browser.
#[derive(Debug, Clone, PartialEq)]
pub struct BrowserScore {
    /// Cosine of the two sentence embeddings.
    pub cosine: f64,
    /// Which backend computed it (and why, for the CPU fallback).
    pub backend: String,
}

/// Loads the model (once per page; the weights come from the Cache API after the first
/// time) and returns the cosine of `a` and `b`. `progress(loaded, total)` reports the
/// download.
pub async fn cosine(
    manifest_url: &str,
    a: &str,
    b: &str,
    progress: impl Fn(f64, f64) + 'static,
) -> Result<BrowserScore, String> {
    let callback = Closure::<dyn Fn(f64, f64)>::new(progress);
    let loaded = mb_load_embedder(manifest_url, callback.as_ref().unchecked_ref()).await;
    drop(callback);
    loaded.map_err(message)?;
    let cosine = mb_cosine(a, b)
        .await
        .map_err(message)?
        .as_f64()
        .ok_or("no score")?;
    let backend = mb_backend()
        .await
        .map_err(message)?
        .as_string()
        .unwrap_or_default();
    Ok(BrowserScore { cosine, backend })
}

/// Cosines of many `[a, b]` pairs in one call (the submit page's dev preview), with the
/// backend that computed them.
pub async fn cosines(
    manifest_url: &str,
    pairs: &[[String; 2]],
    progress: impl Fn(f64, f64) + 'static,
) -> Result<(Vec<f64>, String), String> {
    let callback = Closure::<dyn Fn(f64, f64)>::new(progress);
    let loaded = mb_load_embedder(manifest_url, callback.as_ref().unchecked_ref()).await;
    drop(callback);
    loaded.map_err(message)?;
    let json = serde_json::to_string(pairs).map_err(|e| e.to_string())?;
    let values = js_sys::Array::from(&mb_cosines(&json).await.map_err(message)?);
    let backend = mb_backend()
        .await
        .map_err(message)?
        .as_string()
        .unwrap_or_default();
    Ok((values.iter().filter_map(|v| v.as_f64()).collect(), backend))
}
