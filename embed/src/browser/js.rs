//! The JavaScript API (wasm-bindgen): [`detect_backend_js`] and the [`MemeboardEmbedder`]
//! class.

use super::encoder::BrowserEncoder;
use super::load::{load_model, LoadStats};
use super::{detect_backend, now_ms, COSINES_BATCH};
use crate::Backend;
use js_sys::{Float32Array, Float64Array};
use std::collections::HashMap;
use wasm_bindgen::prelude::*;

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
