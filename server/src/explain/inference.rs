//! Sentence embeddings for scoring free-text explanations: a small [`Embedder`] trait, the
//! ONNX Runtime backend ([`OrtEmbedder`], `ort` with the library loaded at run time), and an
//! async front ([`EmbeddingService`]) that runs inference off the async executor with a
//! bounded queue. Pooling and normalisation come from `memeboard_core::embed`, shared with
//! the browser backends.

use memeboard_core::embed::{l2_normalize, mean_pool};
use ort::session::builder::GraphOptimizationLevel;
use ort::session::Session;
use ort::value::Tensor;
use serde::Deserialize;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};
use tokenizers::{PaddingParams, Tokenizer, TruncationParams};

/// Why embeddings could not be computed.
#[derive(Debug, Clone, thiserror::Error)]
pub enum InferenceError {
    /// The model files are not there; the message says how to install them.
    #[error(
        "embedding model not installed: {missing} is missing; run `scripts/model/setup-model.sh`"
    )]
    NotInstalled {
        /// The missing file.
        missing: String,
    },
    /// ONNX Runtime could not be loaded or failed.
    #[error("ONNX Runtime: {0}")]
    Runtime(String),
    /// The tokenizer failed.
    #[error("tokenizer: {0}")]
    Tokenizer(String),
    /// Too many requests are waiting for the model.
    #[error("the embedding model is busy ({0} requests waiting); try again shortly")]
    Busy(usize),
}

/// How token vectors become one sentence vector.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Pooling {
    /// Mean over non-padding tokens (m3e, sentence-transformers default).
    Mean,
    /// The `[CLS]` token (bge models).
    Cls,
}

/// Settings of the embedding model (section `[model]`).
#[derive(Debug, Clone, Deserialize)]
pub struct ModelSettings {
    /// Name shown next to scores computed with it.
    pub name: String,
    /// Directory with `model.onnx` and `tokenizer.json` (relative: under the data dir).
    pub dir: PathBuf,
    /// Pooling.
    pub pooling: Pooling,
    /// `libonnxruntime.so` (relative: under the data dir).
    pub onnxruntime: PathBuf,
    /// Intra-op threads.
    pub threads: usize,
    /// Texts per inference call.
    pub max_batch: usize,
    /// Requests allowed to wait for the model before new ones are refused.
    pub max_queue: usize,
    /// Explanations of one client scored at once while its answer waits; more are stored
    /// and scored by the background queue within seconds (0: all of them are).
    #[serde(default = "default_inline_scoring_per_client")]
    pub inline_scoring_per_client: usize,
}

fn default_inline_scoring_per_client() -> usize {
    2
}

/// Computes embeddings. Implementations are blocking: call them through
/// [`EmbeddingService`] (or `spawn_blocking`) from async code.
pub trait Embedder: Send + Sync {
    /// The model's name, recorded with every score.
    fn model_name(&self) -> &str;
    /// L2-normalised sentence vectors, one per text.
    fn embed(&self, texts: &[String]) -> Result<Vec<Vec<f32>>, InferenceError>;
    /// Per text: L2-normalised token vectors without `[CLS]`/`[SEP]` (`tokens × dim`,
    /// flattened) and the dimension, for BERTScore.
    fn token_vectors(&self, texts: &[String]) -> Result<(Vec<Vec<f32>>, usize), InferenceError>;
}

/// ONNX Runtime, loaded once per process from the first library path given.
static ORT_ENVIRONMENT: OnceLock<Result<ort::environment::Environment, String>> = OnceLock::new();

fn environment(library: &Path) -> Result<&'static ort::environment::Environment, InferenceError> {
    ORT_ENVIRONMENT
        .get_or_init(|| {
            let builder = ort::init_from(library)
                .map_err(|e| format!("loading {}: {e}", library.display()))?;
            builder
                .with_name("memeboard")
                .build()
                .map_err(|e| e.to_string())
        })
        .as_ref()
        .map_err(|e| InferenceError::Runtime(e.clone()))
}

fn build_session(
    env: &ort::environment::Environment,
    model: &Path,
    threads: usize,
) -> ort::Result<Session> {
    let builder = Session::builder(env)?.with_optimization_level(GraphOptimizationLevel::Level3)?;
    let mut builder = builder.with_intra_threads(threads)?;
    builder.commit_from_file(model)
}

/// A BERT-style ONNX model (`input_ids`, `attention_mask`, `token_type_ids` →
/// `last_hidden_state`) with its `tokenizer.json`.
pub struct OrtEmbedder {
    name: String,
    tokenizer: Tokenizer,
    session: Mutex<Session>,
    pooling: Pooling,
    max_batch: usize,
}

/// The encoder's output for one batch.
struct Forward {
    /// `batch × tokens × dim` hidden states, flattened.
    hidden: Vec<f32>,
    /// Attention mask per text (1 = real token).
    masks: Vec<Vec<u32>>,
    /// Padded sequence length.
    tokens: usize,
    /// Hidden size.
    dim: usize,
}

fn resolve(data_dir: &Path, p: &Path) -> PathBuf {
    if p.is_absolute() {
        p.to_owned()
    } else {
        data_dir.join(p)
    }
}

impl OrtEmbedder {
    /// Loads the model described by `settings`; relative paths are under `data_dir`.
    pub fn load(settings: &ModelSettings, data_dir: &Path) -> Result<Self, InferenceError> {
        let dir = resolve(data_dir, &settings.dir);
        let library = resolve(data_dir, &settings.onnxruntime);
        for needed in [
            dir.join("model.onnx"),
            dir.join("tokenizer.json"),
            library.clone(),
        ] {
            if !needed.exists() {
                return Err(InferenceError::NotInstalled {
                    missing: needed.display().to_string(),
                });
            }
        }
        let mut tokenizer = Tokenizer::from_file(dir.join("tokenizer.json"))
            .map_err(|e| InferenceError::Tokenizer(e.to_string()))?;
        tokenizer.with_padding(Some(PaddingParams::default()));
        tokenizer
            .with_truncation(Some(TruncationParams {
                max_length: 512,
                ..Default::default()
            }))
            .map_err(|e| InferenceError::Tokenizer(e.to_string()))?;
        let env = environment(&library)?;
        let session = build_session(env, &dir.join("model.onnx"), settings.threads.max(1))
            .map_err(|e| InferenceError::Runtime(e.to_string()))?;
        Ok(Self {
            name: settings.name.clone(),
            tokenizer,
            session: Mutex::new(session),
            pooling: settings.pooling,
            max_batch: settings.max_batch.max(1),
        })
    }

    /// Runs one batch: hidden states (`batch × tokens × dim`, flattened), masks, dims.
    fn forward(&self, texts: &[String]) -> Result<Forward, InferenceError> {
        let encodings = self
            .tokenizer
            .encode_batch(texts.to_vec(), true)
            .map_err(|e| InferenceError::Tokenizer(e.to_string()))?;
        let batch = encodings.len();
        let tokens = encodings.first().map_or(0, |e| e.get_ids().len());
        let ids: Vec<i64> = encodings
            .iter()
            .flat_map(|e| e.get_ids().iter().map(|&i| i64::from(i)))
            .collect();
        let masks: Vec<Vec<u32>> = encodings
            .iter()
            .map(|e| e.get_attention_mask().to_vec())
            .collect();
        let mask: Vec<i64> = masks.iter().flatten().map(|&m| i64::from(m)).collect();
        let types = vec![0i64; ids.len()];
        let run =
            |ids: Vec<i64>, mask: Vec<i64>, types: Vec<i64>| -> ort::Result<(Vec<f32>, usize)> {
                let shape = [batch, tokens];
                let mut session = self
                    .session
                    .lock()
                    .map_err(|_| ort::Error::new("embedding session lock poisoned"))?;
                let outputs = session.run(ort::inputs![
                    "input_ids" => Tensor::from_array((shape, ids))?,
                    "attention_mask" => Tensor::from_array((shape, mask))?,
                    "token_type_ids" => Tensor::from_array((shape, types))?,
                ])?;
                let (out_shape, data) = outputs["last_hidden_state"].try_extract_tensor::<f32>()?;
                let dim = out_shape.last().copied().unwrap_or(0).max(0) as usize;
                Ok((data.to_vec(), dim))
            };
        let (hidden, dim) =
            run(ids, mask, types).map_err(|e| InferenceError::Runtime(e.to_string()))?;
        Ok(Forward {
            hidden,
            masks,
            tokens,
            dim,
        })
    }
}

impl Embedder for OrtEmbedder {
    fn model_name(&self) -> &str {
        &self.name
    }

    fn embed(&self, texts: &[String]) -> Result<Vec<Vec<f32>>, InferenceError> {
        let mut out = Vec::with_capacity(texts.len());
        for chunk in texts.chunks(self.max_batch) {
            let Forward {
                hidden,
                masks,
                tokens,
                dim,
            } = self.forward(chunk)?;
            for (i, mask) in masks.iter().enumerate() {
                let rows = &hidden[i * tokens * dim..(i + 1) * tokens * dim];
                let mut v = match self.pooling {
                    Pooling::Mean => mean_pool(rows, mask, dim),
                    Pooling::Cls => rows[..dim].to_vec(),
                };
                l2_normalize(&mut v);
                out.push(v);
            }
        }
        Ok(out)
    }

    fn token_vectors(&self, texts: &[String]) -> Result<(Vec<Vec<f32>>, usize), InferenceError> {
        let mut out = Vec::with_capacity(texts.len());
        let mut dim_seen = 0;
        for chunk in texts.chunks(self.max_batch) {
            let Forward {
                hidden,
                masks,
                tokens,
                dim,
            } = self.forward(chunk)?;
            dim_seen = dim;
            for (i, mask) in masks.iter().enumerate() {
                let real = mask.iter().filter(|&&m| m != 0).count();
                let mut v = Vec::with_capacity(real.saturating_sub(2) * dim);
                // Drop [CLS] (first) and [SEP] (last real token).
                for t in 1..real.saturating_sub(1) {
                    let start = (i * tokens + t) * dim;
                    let mut row = hidden[start..start + dim].to_vec();
                    l2_normalize(&mut row);
                    v.extend(row);
                }
                out.push(v);
            }
        }
        Ok((out, dim_seen))
    }
}

/// The async front of an [`Embedder`]: inference runs on the blocking pool, at most
/// `max_queue` requests wait, and the model may be absent (every call then says how to
/// install it) so the rest of the site never depends on it.
#[derive(Clone)]
pub struct EmbeddingService {
    embedder: Result<Arc<dyn Embedder>, InferenceError>,
    permits: Arc<tokio::sync::Semaphore>,
    max_queue: usize,
}

impl EmbeddingService {
    /// Wraps a loaded embedder, or the reason it is missing.
    pub fn new(embedder: Result<Arc<dyn Embedder>, InferenceError>, max_queue: usize) -> Self {
        Self {
            embedder,
            permits: Arc::new(tokio::sync::Semaphore::new(max_queue.max(1))),
            max_queue: max_queue.max(1),
        }
    }

    /// Loads the configured model; a missing model is logged once, not fatal.
    pub fn load(settings: &ModelSettings, data_dir: &Path) -> Self {
        let embedder =
            OrtEmbedder::load(settings, data_dir).map(|e| Arc::new(e) as Arc<dyn Embedder>);
        match &embedder {
            Ok(_) => tracing::info!(model = %settings.name, "embedding model loaded"),
            Err(e) => tracing::warn!("{e}; explanation scoring is unavailable"),
        }
        Self::new(embedder, settings.max_queue)
    }

    /// The model's name, or why there is none.
    pub fn model_name(&self) -> Result<String, InferenceError> {
        self.embedder
            .as_ref()
            .map(|e| e.model_name().to_owned())
            .map_err(Clone::clone)
    }

    async fn run<T: Send + 'static>(
        &self,
        job: impl FnOnce(&dyn Embedder) -> Result<T, InferenceError> + Send + 'static,
    ) -> Result<T, InferenceError> {
        let embedder = self.embedder.clone()?;
        let _permit = self
            .permits
            .clone()
            .try_acquire_owned()
            .map_err(|_| InferenceError::Busy(self.max_queue))?;
        tokio::task::spawn_blocking(move || job(embedder.as_ref()))
            .await
            .map_err(|e| InferenceError::Runtime(format!("inference task failed: {e}")))?
    }

    /// Sentence vectors, computed off the async executor.
    pub async fn embed(&self, texts: Vec<String>) -> Result<Vec<Vec<f32>>, InferenceError> {
        self.run(move |e| e.embed(&texts)).await
    }

    /// Token vectors for BERTScore, computed off the async executor.
    pub async fn token_vectors(
        &self,
        texts: Vec<String>,
    ) -> Result<(Vec<Vec<f32>>, usize), InferenceError> {
        self.run(move |e| e.token_vectors(&texts)).await
    }
}
