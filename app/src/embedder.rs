//! The in-browser sentence embedder: `memeboard-embed` (CPU, or WebGPU on a hardware GPU)
//! built as its own module under `/embed/` and imported on demand, so the main bundle stays
//! small. It is optional: the server scores every explanation, and the browser model is only
//! downloaded after the participant asks for it ([`load`]); the choice is remembered in
//! localStorage ([`remembered`]) so later pages load it from the Cache API without asking
//! again. Scores computed here are instant estimates; the server's are authoritative, and the
//! two agree (tested).

use crate::{api, storage};
use leptos::prelude::*;
use leptos::task::spawn_local;
use std::cell::RefCell;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(inline_js = r#"
let loading = null;
let embedder = null;
let last = null;
const listeners = new Set();
function text(e) {
  if (e === null || e === undefined) return '';
  if (typeof e === 'string') return e;
  if (e instanceof Error) return e.message || String(e);
  try { return JSON.stringify(e); } catch (_) { return String(e); }
}
export function mb_load_embedder(manifestUrl, onProgress) {
  listeners.add(onProgress);
  if (last) { try { onProgress(last[0], last[1]); } catch (_) {} }
  if (!loading) {
    last = null;
    loading = (async () => {
      const m = await import('/embed/memeboard_embed.js');
      await m.default();
      const e = await m.MemeboardEmbedder.load(manifestUrl, 'auto', (loaded, total) => {
        last = [loaded, total];
        for (const f of listeners) { try { f(loaded, total); } catch (_) {} }
      });
      embedder = e;
      window.memeboardEmbedder = e;
      const info = e.backendInfo() || {};
      return { backend: text(e.backend()), detail: text(info.adapterInfo ?? info.reason ?? '') };
    })().catch((err) => { loading = null; throw new Error(text(err)); });
  }
  return loading.finally(() => listeners.delete(onProgress));
}
export async function mb_cosines(pairsJson) {
  if (!embedder) throw new Error('the browser model is not loaded');
  try {
    return Array.from(await embedder.cosines(pairsJson));
  } catch (err) {
    throw new Error(text(err));
  }
}
"#)]
extern "C" {
    #[wasm_bindgen(catch)]
    async fn mb_load_embedder(
        manifest_url: &str,
        on_progress: &js_sys::Function,
    ) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(catch)]
    async fn mb_cosines(pairs_json: &str) -> Result<JsValue, JsValue>;
}

/// The text of a JS error (the inline JS only throws `Error`s with a string message).
fn message(e: JsValue) -> String {
    e.as_string()
        .or_else(|| {
            js_sys::Reflect::get(&e, &"message".into())
                .ok()
                .and_then(|m| m.as_string())
        })
        .unwrap_or_else(|| "the browser model failed to load".into())
}

/// A string property of a plain JS object.
fn string_field(object: &JsValue, key: &str) -> String {
    js_sys::Reflect::get(object, &key.into())
        .ok()
        .and_then(|v| v.as_string())
        .unwrap_or_default()
}

/// The backend that computes browser scores.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Backend {
    /// WebGPU (a graphics card); otherwise the CPU (WebAssembly).
    pub webgpu: bool,
    /// The adapter's description (WebGPU), or why WebGPU is not used (CPU).
    pub detail: String,
}

/// Where the browser model stands on this page.
#[derive(Debug, Clone, PartialEq)]
pub enum ModelState {
    /// Not requested (nothing downloaded).
    Off,
    /// Loading: `(loaded, total)` bytes of the weights; `total` is 0 until it is known.
    Loading(f64, f64),
    /// Loaded: `total` bytes of weights (downloaded or from the cache) and the backend.
    Ready(f64, Backend),
    /// The download or set-up failed (the text says why); [`load`] tries again.
    Failed(String),
}

/// What the server offers: its browser manifest and the size of the weights.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Offer {
    /// URL of `browser.json`.
    pub manifest: String,
    /// Size of the weights in bytes (the manifest's `bytes`).
    pub bytes: u64,
}

thread_local! {
    static STATE: ArcRwSignal<ModelState> = ArcRwSignal::new(ModelState::Off);
    static OFFER: RefCell<Option<Offer>> = const { RefCell::new(None) };
}

/// The page-wide model state (tracked where read reactively).
pub fn state() -> ArcRwSignal<ModelState> {
    STATE.with(Clone::clone)
}

/// Whether the participant chose the browser model before (on this device).
pub fn remembered() -> bool {
    storage::get(storage::BROWSER_MODEL_KEY).as_deref() == Some("on")
}

/// Forgets the choice: later pages no longer load the model by themselves. A model already
/// in memory is no longer used on this page either.
pub fn forget() {
    storage::remove(storage::BROWSER_MODEL_KEY);
    state().set(ModelState::Off);
}

/// The server's browser model, if it has one: `GET /api/embedding-model`, then its manifest
/// (about 1 KB) for the size. Remembered for the page's lifetime.
pub async fn offer() -> Result<Option<Offer>, String> {
    if let Some(offer) = OFFER.with(|o| o.borrow().clone()) {
        return Ok(Some(offer));
    }
    let info = api::embedding_model().await.map_err(|e| e.to_string())?;
    let Some(manifest) = info.browser_manifest else {
        return Ok(None);
    };
    let bytes = api::model_manifest_bytes(&manifest)
        .await
        .map_err(|e| e.to_string())?;
    let offer = Offer { manifest, bytes };
    OFFER.with(|o| *o.borrow_mut() = Some(offer.clone()));
    Ok(Some(offer))
}

/// Starts loading the model described by `offer` (unless it is loading or loaded already)
/// and remembers the choice. Returns at once; [`state`] follows the download. The weights
/// come from the Cache API after the first time.
pub fn load(offer: &Offer) {
    storage::set(storage::BROWSER_MODEL_KEY, "on");
    let state = state();
    if matches!(
        state.get_untracked(),
        ModelState::Loading(..) | ModelState::Ready(..)
    ) {
        return;
    }
    let expected = offer.bytes as f64;
    state.set(ModelState::Loading(0.0, expected));
    let manifest = offer.manifest.clone();
    spawn_local(async move {
        let progress_state = state.clone();
        let callback = Closure::<dyn Fn(f64, f64)>::new(move |loaded: f64, total: f64| {
            progress_state.set(ModelState::Loading(loaded, total));
        });
        let loaded = mb_load_embedder(&manifest, callback.as_ref().unchecked_ref()).await;
        drop(callback);
        // `forget` during the download: the model stays in memory, unused.
        if state.get_untracked() == ModelState::Off {
            return;
        }
        state.set(match loaded {
            Ok(info) => {
                let total = match state.get_untracked() {
                    ModelState::Loading(_, total) if total > 0.0 => total,
                    _ => expected,
                };
                ModelState::Ready(
                    total,
                    Backend {
                        webgpu: string_field(&info, "backend") == "webgpu",
                        detail: string_field(&info, "detail"),
                    },
                )
            }
            Err(e) => ModelState::Failed(message(e)),
        });
    });
}

/// Whether the model is loaded and in use.
pub fn ready_untracked() -> bool {
    matches!(state().get_untracked(), ModelState::Ready(..))
}

/// Cosines of many `[a, b]` pairs in one call; the model must be [`ModelState::Ready`].
pub async fn cosines(pairs: &[[String; 2]]) -> Result<Vec<f64>, String> {
    let json = serde_json::to_string(pairs).map_err(|e| e.to_string())?;
    let values = js_sys::Array::from(&mb_cosines(&json).await.map_err(message)?);
    Ok(values.iter().filter_map(|v| v.as_f64()).collect())
}

/// The cosine of `a` and `b`; the model must be [`ModelState::Ready`].
pub async fn cosine(a: &str, b: &str) -> Result<f64, String> {
    cosines(&[[a.to_owned(), b.to_owned()]])
        .await?
        .first()
        .copied()
        .ok_or_else(|| "no score".to_owned())
}
