//! The embedding model in the browser (wasm32, feature `browser`): what the app calls.
//!
//! - [`detect_backend`]: WebGPU if `navigator.gpu`, an adapter and a device are all there,
//!   otherwise the CPU, with the reason;
//! - [`load_model`]: fetches `browser.json` ([`ModelManifest`]), the tokenizer and the f16
//!   weights (streamed, with progress), keeps the weights in the Cache API
//!   ([`CACHE_NAME`], keyed by URL + SHA-256, so a second load does not touch the network)
//!   and checks them with WebCrypto SHA-256 against the manifest before use;
//! - [`BrowserEncoder`]: tokenizer + [`CpuBert`] or [`GpuBert`] (falling back to the CPU,
//!   with the reason, when the GPU cannot be set up), with the server's pooling
//!   ([`sentence_vector`], [`token_rows`], `memeboard_core::embed`);
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

use crate::gpu::{self, GpuBert};
use crate::{
    sentence_vector, token_rows, Backend, BertConfig, CpuBert, EmbedError, ModelManifest,
    Tokenizer, Weights,
};
use js_sys::{Float32Array, Float64Array, Uint8Array};
use serde::Serialize;
use std::collections::HashMap;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

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

/// The Cache API key of a weights file: its URL with the expected hash as a query parameter,
/// so a new model version never matches an old entry.
fn cache_key(weights_url: &str, sha256: &str) -> String {
    let sep = if weights_url.contains('?') { '&' } else { '?' };
    format!("{weights_url}{sep}sha256={sha256}")
}

async fn open_cache(global: &Global) -> Result<web_sys::Cache, String> {
    let caches = global
        .caches()
        .map_err(|e| format!("the Cache API is unavailable ({})", js_text(&e)))?;
    let cache = JsFuture::from(caches.open(CACHE_NAME))
        .await
        .map_err(|e| format!("caches.open failed ({})", js_text(&e)))?;
    Ok(cache.unchecked_into())
}

/// The cached bytes under `key`, if any.
async fn cache_get(cache: &web_sys::Cache, key: &str) -> Result<Option<Uint8Array>, String> {
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

async fn cache_put(cache: &web_sys::Cache, key: &str, bytes: &Uint8Array) -> Result<(), String> {
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

async fn cache_delete(cache: &web_sys::Cache, key: &str) {
    // Best effort: a failed delete leaves an entry the next load verifies again.
    let _ = JsFuture::from(cache.delete_with_str(key)).await;
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

/// The forward pass in use.
#[derive(Debug)]
enum Model {
    Cpu(CpuBert),
    Gpu(Box<GpuBert>),
}

/// Text → vectors in the browser: the tokenizer and either backend, with the server's
/// pooling. Built by [`BrowserEncoder::new`].
#[derive(Debug)]
pub struct BrowserEncoder {
    tokenizer: Tokenizer,
    model: Model,
    backend: Backend,
}

impl BrowserEncoder {
    /// Builds the encoder for `backend` (usually from [`detect_backend`]). For WebGPU this
    /// uploads the weights and compiles the kernels; if that fails, the CPU is used and
    /// [`BrowserEncoder::backend`] says why. Fails only if the model files are malformed.
    pub async fn new(model: &LoadedModel, backend: &Backend) -> Result<Self, EmbedError> {
        let config = model.manifest.config.clone();
        let tokenizer = Tokenizer::from_json(&model.tokenizer_json)?;
        let max_len = tokenizer.max_len().min(config.max_position_embeddings);
        let tokenizer = tokenizer.with_max_len(max_len);
        let weights = Weights::from_safetensors(&model.weights)?;
        let (model, backend) = match backend {
            Backend::WebGpu { adapter_info } => match GpuBert::new(config.clone(), weights).await {
                Ok(gpu) => {
                    let adapter_info = if gpu.adapter_info().is_empty() {
                        adapter_info.clone()
                    } else {
                        gpu.adapter_info().to_owned()
                    };
                    (Model::Gpu(Box::new(gpu)), Backend::WebGpu { adapter_info })
                }
                Err(e) => {
                    let weights = Weights::from_safetensors(&model.weights)?;
                    (
                        Model::Cpu(CpuBert::new(config, weights)?),
                        Backend::Cpu {
                            reason: format!("WebGPU set-up failed, using the CPU: {e}"),
                        },
                    )
                }
            },
            Backend::Cpu { reason } => (
                Model::Cpu(CpuBert::new(config, weights)?),
                Backend::Cpu {
                    reason: reason.clone(),
                },
            ),
        };
        Ok(Self {
            tokenizer,
            model,
            backend,
        })
    }

    /// The backend actually in use (after any fallback), with its adapter or reason.
    pub fn backend(&self) -> &Backend {
        &self.backend
    }

    /// `"webgpu"` or `"cpu"`.
    pub fn backend_name(&self) -> &'static str {
        self.backend.name()
    }

    /// The tokenizer (truncating to the model's positions).
    pub fn tokenizer(&self) -> &Tokenizer {
        &self.tokenizer
    }

    fn config(&self) -> &BertConfig {
        match &self.model {
            Model::Cpu(m) => m.config(),
            Model::Gpu(m) => m.config(),
        }
    }

    /// Hidden states of `text` (special tokens included) and their width.
    pub async fn hidden_states(&self, text: &str) -> Result<(Vec<f32>, usize), EmbedError> {
        let ids = self.tokenizer.encode(text);
        let hidden = match &self.model {
            Model::Cpu(m) => m.forward(&ids)?,
            Model::Gpu(m) => m.hidden_states(&ids).await?,
        };
        Ok((hidden, self.config().hidden_size))
    }

    /// The L2-normalised sentence vector of `text` (mean pooling), as the server computes.
    pub async fn embed(&self, text: &str) -> Result<Vec<f32>, EmbedError> {
        let (hidden, dim) = self.hidden_states(text).await?;
        Ok(sentence_vector(&hidden, dim))
    }

    /// Sentence vectors of several texts, in order: on WebGPU one batched pass (or a few,
    /// for very long batches) for all of them; on the CPU one forward pass each.
    pub async fn embed_many(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>, EmbedError> {
        let dim = self.config().hidden_size;
        let ids: Vec<Vec<u32>> = texts.iter().map(|t| self.tokenizer.encode(t)).collect();
        let hidden = match &self.model {
            Model::Cpu(m) => ids
                .iter()
                .map(|ids| m.forward(ids))
                .collect::<Result<Vec<_>, _>>()?,
            Model::Gpu(m) => {
                let batch: Vec<&[u32]> = ids.iter().map(Vec::as_slice).collect();
                m.hidden_states_batch(&batch).await?
            }
        };
        Ok(hidden.iter().map(|h| sentence_vector(h, dim)).collect())
    }

    /// L2-normalised token vectors of `text` without the special tokens (`tokens × dim`) and
    /// `dim`, for `memeboard_core::embed::bert_score`.
    pub async fn token_vectors(&self, text: &str) -> Result<(Vec<f32>, usize), EmbedError> {
        let (hidden, dim) = self.hidden_states(text).await?;
        let rows = token_rows(
            &hidden,
            dim,
            self.tokenizer.special_prefix_len(),
            self.tokenizer.special_suffix_len(),
        );
        Ok((rows, dim))
    }

    /// Cosine similarity of the sentence vectors of `a` and `b`.
    pub async fn cosine(&self, a: &str, b: &str) -> Result<f64, EmbedError> {
        let va = self.embed(a).await?;
        let vb = self.embed(b).await?;
        Ok(memeboard_core::embed::cosine(&va, &vb))
    }

    /// BERTScore F1 of candidate `a` against reference `b` (token vectors, greedy matching).
    pub async fn bert_f1(&self, a: &str, b: &str) -> Result<f64, EmbedError> {
        let (ta, dim) = self.token_vectors(a).await?;
        let (tb, _) = self.token_vectors(b).await?;
        Ok(memeboard_core::embed::bert_score(&ta, &tb, dim).f1)
    }
}

fn set(object: &js_sys::Object, key: &str, value: impl Into<JsValue>) {
    // Setting a property of a plain object cannot fail.
    let _ = js_sys::Reflect::set(object, &key.into(), &value.into());
}

fn backend_object(backend: &Backend) -> js_sys::Object {
    let o = js_sys::Object::new();
    set(&o, "backend", backend.name());
    match backend {
        Backend::WebGpu { adapter_info } => set(&o, "adapterInfo", adapter_info.as_str()),
        Backend::Cpu { reason } => set(&o, "reason", reason.as_str()),
    }
    o
}

/// JavaScript: `await detectBackend()` → `{backend: "webgpu", adapterInfo}` or
/// `{backend: "cpu", reason}` (see [`detect_backend`]).
#[wasm_bindgen(js_name = detectBackend)]
pub async fn detect_backend_js() -> js_sys::Object {
    backend_object(&detect_backend().await)
}

/// The embedding model for JavaScript; see the [module docs](self) for an example. Errors
/// are thrown as `Error`s whose message is the [`EmbedError`] text.
#[wasm_bindgen]
#[derive(Debug)]
pub struct MemeboardEmbedder {
    encoder: BrowserEncoder,
    stats: LoadStats,
    init_ms: f64,
}

#[wasm_bindgen]
impl MemeboardEmbedder {
    /// `await MemeboardEmbedder.load(manifestUrl, backend, onProgress)`: downloads (or reads
    /// from the cache) and verifies the model, then sets up the backend: `"auto"` (default:
    /// WebGPU when [`detect_backend`] finds it, else the CPU; a failed GPU set-up also falls
    /// back), `"cpu"`, or `"webgpu"` (throws instead of falling back). `onProgress(loaded,
    /// total)` is called during the download.
    pub async fn load(
        manifest_url: String,
        backend: Option<String>,
        on_progress: Option<js_sys::Function>,
    ) -> Result<MemeboardEmbedder, JsError> {
        let requested = backend.unwrap_or_else(|| "auto".into());
        let backend = match requested.as_str() {
            "auto" | "webgpu" => detect_backend().await,
            "cpu" => Backend::Cpu {
                reason: "the CPU backend was requested".into(),
            },
            other => {
                return Err(JsError::new(&format!(
                    "unknown backend {other:?} (expected \"auto\", \"cpu\" or \"webgpu\")"
                )))
            }
        };
        if requested == "webgpu" {
            if let Backend::Cpu { reason } = &backend {
                return Err(JsError::new(reason));
            }
        }
        // A software-emulated adapter (e.g. SwiftShader) is much slower than the wasm CPU
        // path, so "auto" only takes WebGPU on real hardware.
        let backend = match backend {
            Backend::WebGpu { adapter_info } if requested == "auto" && adapter_info.contains("fallback adapter") => Backend::Cpu {
                reason: format!("WebGPU adapter is a software fallback ({adapter_info}); the CPU path is faster"),
            },
            other => other,
        };
        let progress = |loaded: u64, total: u64| {
            if let Some(f) = &on_progress {
                let _ = f.call2(
                    &JsValue::NULL,
                    &JsValue::from_f64(loaded as f64),
                    &JsValue::from_f64(total as f64),
                );
            }
        };
        let model = load_model(&manifest_url, progress).await?;
        let start = now_ms();
        let encoder = BrowserEncoder::new(&model, &backend).await?;
        let init_ms = now_ms() - start;
        if requested == "webgpu" {
            if let Backend::Cpu { reason } = encoder.backend() {
                return Err(JsError::new(reason));
            }
        }
        Ok(Self {
            encoder,
            stats: model.stats,
            init_ms,
        })
    }

    /// `"webgpu"` or `"cpu"`: the backend in use.
    pub fn backend(&self) -> String {
        self.encoder.backend_name().into()
    }

    /// `{backend, adapterInfo}` or `{backend, reason}` for the backend in use.
    #[wasm_bindgen(js_name = backendInfo)]
    pub fn backend_info(&self) -> js_sys::Object {
        backend_object(self.encoder.backend())
    }

    /// `{fromCache, bytes, fetchMs, verifyMs, totalMs, cacheNote, initMs}`: how the model was
    /// loaded; `initMs` is the backend set-up (parsing the weights, and for WebGPU the upload,
    /// kernel compilation and a warm-up pass).
    #[wasm_bindgen(js_name = loadStats)]
    pub fn load_stats(&self) -> js_sys::Object {
        let s = &self.stats;
        let o = js_sys::Object::new();
        set(&o, "fromCache", s.from_cache);
        set(&o, "bytes", s.bytes as f64);
        set(&o, "fetchMs", s.fetch_ms);
        set(&o, "verifyMs", s.verify_ms);
        set(&o, "totalMs", s.total_ms);
        set(
            &o,
            "cacheNote",
            s.cache_note.as_deref().map_or(JsValue::NULL, JsValue::from),
        );
        set(&o, "initMs", self.init_ms);
        o
    }

    /// The sentence vector of `text` (L2-normalised).
    pub async fn embed(&self, text: String) -> Result<Float32Array, JsError> {
        let v = self.encoder.embed(&text).await?;
        Ok(Float32Array::from(v.as_slice()))
    }

    /// Cosine similarity of the sentence vectors of `a` and `b`.
    pub async fn cosine(&self, a: String, b: String) -> Result<f64, JsError> {
        Ok(self.encoder.cosine(&a, &b).await?)
    }

    /// Sentence vectors of many texts, given as a JSON array of strings, concatenated
    /// (`texts.length × dim`); on WebGPU they are embedded in batched passes.
    #[wasm_bindgen(js_name = embedMany)]
    pub async fn embed_many(&self, texts_json: String) -> Result<Float32Array, JsError> {
        let texts: Vec<String> = serde_json::from_str(&texts_json)
            .map_err(|e| JsError::new(&format!("texts must be a JSON array of strings: {e}")))?;
        let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
        let vectors = self.encoder.embed_many(&refs).await?;
        Ok(Float32Array::from(vectors.concat().as_slice()))
    }

    /// Cosines of many pairs, given as a JSON array of `[a, b]` string pairs; each distinct
    /// sentence is embedded once, all of them in batches of [`COSINES_BATCH`] sentences (one
    /// pass each on WebGPU).
    pub async fn cosines(&self, pairs_json: String) -> Result<Float64Array, JsError> {
        let pairs: Vec<[String; 2]> = serde_json::from_str(&pairs_json)
            .map_err(|e| JsError::new(&format!("pairs must be a JSON array of [a, b]: {e}")))?;
        let mut distinct: Vec<&str> = Vec::new();
        let mut vectors: HashMap<&str, Vec<f32>> = HashMap::new();
        for s in pairs.iter().flatten() {
            if !vectors.contains_key(s.as_str()) {
                vectors.insert(s, Vec::new());
                distinct.push(s);
            }
        }
        for chunk in distinct.chunks(COSINES_BATCH) {
            for (s, v) in chunk.iter().zip(self.encoder.embed_many(chunk).await?) {
                vectors.insert(s, v);
            }
        }
        let out: Vec<f64> = pairs
            .iter()
            .map(|[a, b]| memeboard_core::embed::cosine(&vectors[a.as_str()], &vectors[b.as_str()]))
            .collect();
        Ok(Float64Array::from(out.as_slice()))
    }

    /// BERTScore F1 of candidate `a` against reference `b`.
    #[wasm_bindgen(js_name = bertF1)]
    pub async fn bert_f1(&self, a: String, b: String) -> Result<f64, JsError> {
        Ok(self.encoder.bert_f1(&a, &b).await?)
    }
}
