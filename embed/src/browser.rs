//! The embedding model in the browser (wasm32, feature `browser`): what the app calls.
//!
//! - [`detect_backend`]: WebGPU if `navigator.gpu`, an adapter and a device are all there,
//!   otherwise the CPU, with the reason;
//! - [`load_model`]: fetches `browser.json` ([`ModelManifest`](crate::ModelManifest)), the
//!   tokenizer and the f16 weights (streamed, with progress), keeps the weights in the Cache
//!   API ([`CACHE_NAME`], keyed by URL + SHA-256, so a second load does not touch the
//!   network) and checks them with WebCrypto SHA-256 against the manifest before use;
//! - [`BrowserEncoder`]: tokenizer + [`CpuBert`](crate::CpuBert) or [`GpuBert`](gpu::GpuBert)
//!   (falling back to the CPU, with the reason, when the GPU cannot be set up), with the
//!   server's pooling ([`sentence_vector`](crate::sentence_vector),
//!   [`token_rows`](crate::token_rows), `memeboard_core::embed`);
//! - [`MemeboardEmbedder`]: the same as a JavaScript class (wasm-bindgen), e.g.
//!
//! ```js
//! import init, { MemeboardEmbedder, detectBackend } from './memeboard_embed.js';
//! await init();
//! const e = await MemeboardEmbedder.load('/model-files/browser.json', 'auto',
//!                                        (loaded, total) => console.log(loaded / total));
//! e.backend();                       // "webgpu" | "cpu"
//! await e.cosine('这个梗…', '这句流行语…'); // 0.8031 with m3e-small
//! ```
//!
//! Works in a window or a worker (fetch, caches, crypto and performance are taken from the
//! global scope).

mod cache;
mod encoder;
mod js;
mod load;

use crate::gpu;
use crate::{Backend, EmbedError};
pub use encoder::BrowserEncoder;
pub use js::{detect_backend_js, MemeboardEmbedder};
pub use load::{load_model, LoadStats, LoadedModel};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// Sentences per batched pass of [`MemeboardEmbedder::cosines`]: large enough to fill a
/// hardware GPU, small enough that one pass of a software adapter stays well under a second
/// per sentence of latency.
pub const COSINES_BATCH: usize = 32;

/// Name of the Cache API cache that holds model weights.
pub const CACHE_NAME: &str = "memeboard-models";

/// Text of a JS exception or rejection value.
fn js_text(e: &JsValue) -> String {
    if let Some(err) = e.dyn_ref::<js_sys::Error>() {
        return String::from(err.message());
    }
    e.as_string().unwrap_or_else(|| format!("{e:?}"))
}

fn load_err(context: impl std::fmt::Display) -> impl FnOnce(JsValue) -> EmbedError {
    move |e| EmbedError::Load(format!("{context}: {}", js_text(&e)))
}

/// The global scope: a window or a worker.
enum Global {
    Window(web_sys::Window),
    Worker(web_sys::WorkerGlobalScope),
}

impl Global {
    fn get() -> Result<Self, EmbedError> {
        let global = js_sys::global();
        if let Some(w) = global.dyn_ref::<web_sys::Window>() {
            return Ok(Self::Window(w.clone()));
        }
        if let Some(w) = global.dyn_ref::<web_sys::WorkerGlobalScope>() {
            return Ok(Self::Worker(w.clone()));
        }
        Err(EmbedError::Load(
            "neither a window nor a worker global scope".into(),
        ))
    }

    fn fetch(&self, url: &str) -> js_sys::Promise {
        match self {
            Self::Window(w) => w.fetch_with_str(url),
            Self::Worker(w) => w.fetch_with_str(url),
        }
    }

    fn caches(&self) -> Result<web_sys::CacheStorage, JsValue> {
        match self {
            Self::Window(w) => w.caches(),
            Self::Worker(w) => w.caches(),
        }
    }

    fn subtle(&self) -> Result<web_sys::SubtleCrypto, EmbedError> {
        let crypto = match self {
            Self::Window(w) => w.crypto(),
            Self::Worker(w) => w.crypto(),
        }
        .map_err(load_err("WebCrypto is unavailable"))?;
        // `crypto.subtle` is undefined outside secure contexts (https or localhost).
        let subtle = js_sys::Reflect::get(&crypto, &"subtle".into()).unwrap_or_default();
        if subtle.is_undefined() || subtle.is_null() {
            return Err(EmbedError::Load(
                "crypto.subtle is unavailable (the page is not a secure context: serve it over \
                 https or from localhost)"
                    .into(),
            ));
        }
        Ok(subtle.unchecked_into())
    }

    fn href(&self) -> Result<String, EmbedError> {
        match self {
            Self::Window(w) => w.location().href().map_err(load_err("location.href")),
            Self::Worker(w) => Ok(w.location().href()),
        }
    }
}

/// Milliseconds from `performance.now()` (or `Date.now()` where there is no `performance`).
pub fn now_ms() -> f64 {
    let performance = match Global::get() {
        Ok(Global::Window(w)) => w.performance(),
        Ok(Global::Worker(w)) => w.performance(),
        Err(_) => None,
    };
    performance.map_or_else(js_sys::Date::now, |p| p.now())
}

/// `url` resolved against `base` (absolute URLs are kept).
fn resolve(url: &str, base: &str) -> Result<String, EmbedError> {
    web_sys::Url::new_with_base(url, base)
        .map(|u| u.href())
        .map_err(load_err(format!("bad URL {url:?} (base {base})")))
}

/// Checks `navigator.gpu`, `requestAdapter()` and `requestDevice()`, and says which backend
/// [`BrowserEncoder`] would use: WebGPU with the adapter's description, or the CPU with the
/// reason (e.g. `WebGPU: navigator.gpu.requestAdapter() found no adapter …`).
pub async fn detect_backend() -> Backend {
    let (adapter, adapter_info) = match gpu::request_adapter().await {
        Ok(found) => found,
        Err(e) => {
            return Backend::Cpu {
                reason: e.to_string(),
            }
        }
    };
    match gpu::request_device(&adapter, wgpu::Limits::default()).await {
        Ok((device, _queue)) => {
            device.destroy();
            Backend::WebGpu { adapter_info }
        }
        Err(e) => Backend::Cpu {
            reason: e.to_string(),
        },
    }
}
