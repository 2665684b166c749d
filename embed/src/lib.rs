//! Sentence embeddings in pure Rust for the browser (the CPU path; it also builds natively):
//! the same BERT model the server runs with ONNX Runtime, giving the same vectors to float
//! rounding, with no dependency beyond serde and `memeboard-core`.
//!
//! The pieces are separate so that other backends (WebGPU) can reuse them:
//! - [`Tokenizer`]: BERT WordPiece configured by the model's `tokenizer.json`;
//! - [`Weights`]: named `f32` tensors read from safetensors (F32 or F16 files);
//! - [`BertConfig`]: the architecture from `config.json`;
//! - [`CpuBert`]: the forward pass, one of the [`SentenceEncoder`]s;
//! - `gpu::GpuBert` (feature `gpu`): the same forward pass on the GPU with our own WGSL
//!   kernels (`src/kernels/`), batching sentences into one pass; the browser's WebGPU on
//!   wasm32, Vulkan natively (tested on lavapipe). `browser` (wasm32) downloads, caches and
//!   verifies the model and exposes both backends to the app and to JavaScript
//!   (`MemeboardEmbedder`);
//! - [`Encoder`]: tokenizer + encoder → sentence vectors ([`Encoder::embed`], mean pooling
//!   and L2 norm) and token vectors for BERTScore ([`Encoder::token_vectors`]); the pooling
//!   steps are also free functions ([`sentence_vector`], [`token_rows`]) for backends whose
//!   hidden states arrive asynchronously.
//!
//! Speed (m3e-small, ~50-character sentences, one thread): about 19 sentences/s natively
//! (x86-64 baseline SSE2, `cargo run --release -p memeboard-embed --example speed -- DIR`);
//! the matmul is written for auto-vectorisation, so build the wasm with
//! `-C target-feature=+simd128` to get the same 4-wide SIMD in the browser (without it the
//! kernel runs scalar, several times slower). In headless Chromium (wasm + SIMD128, 2 shared
//! cores) the CPU path embeds ≈ 25 m3e-small sentences/s of the test set; the WebGPU path on
//! SwiftShader (software) ≈ 1.2/s, on hardware GPUs far more (`tests/e2e/embed.test.mjs`
//! prints both; `scripts/build-embed-harness.sh` builds the wasm it loads). The native GPU
//! test and benchmark: `docs/embeddings.md`.
//!
//! Tests against the reference implementations (HF `tokenizers`, onnxruntime) run when
//! `MEMEBOARD_TEST_MODELS` names the models directory; fixtures come from
//! `embed/scripts/make_fixtures.py`, the f16 weights from `scripts/model/export_f16.py`.
//!
//! ```no_run
//! # fn main() -> Result<(), memeboard_embed::EmbedError> {
//! # let (config_json, tokenizer_json, safetensors) = (String::new(), String::new(), Vec::new());
//! use memeboard_embed::Encoder;
//! let encoder = Encoder::from_files(&config_json, &tokenizer_json, &safetensors)?;
//! let a = encoder.embed("这个梗用来形容事情彻底搞砸了，无法挽回。")?;
//! let b = encoder.embed("这句流行语表示事情已经完全失败、没救了。")?;
//! let similarity = memeboard_core::embed::cosine(&a, &b); // 0.8031 with m3e-small
//! # let _ = similarity; Ok(()) }
//! ```

pub mod bert;
#[cfg(all(target_arch = "wasm32", feature = "browser"))]
pub mod browser;
#[cfg(feature = "gpu")]
pub mod gpu;
mod kernels;
pub mod math;
mod tables;
pub mod tokenizer;
pub mod weights;

pub use bert::{BertConfig, CpuBert};
pub use tokenizer::Tokenizer;
pub use weights::{Tensor, Weights};

use memeboard_core::embed::{l2_normalize, mean_pool};
use serde::{Deserialize, Serialize};

/// Why a model could not be loaded or run.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum EmbedError {
    /// `tokenizer.json` is malformed or configures something not implemented.
    #[error("tokenizer: {0}")]
    Tokenizer(String),
    /// `config.json` is malformed or describes an unsupported architecture.
    #[error("model config: {0}")]
    Config(String),
    /// The weights file is malformed.
    #[error("weights: {0}")]
    Weights(String),
    /// A tensor the model needs is not in the weights file.
    #[error("weights: tensor {0} is missing")]
    MissingTensor(String),
    /// A tensor has the wrong shape for the configuration.
    #[error("weights: tensor {name} has shape {found:?}, expected {expected:?}")]
    Shape {
        /// Tensor name.
        name: String,
        /// Shape the configuration implies.
        expected: Vec<usize>,
        /// Shape in the file.
        found: Vec<usize>,
    },
    /// More tokens than the model has positions.
    #[error("input of {len} tokens is longer than the model's {max} positions")]
    TooLong {
        /// Tokens given.
        len: usize,
        /// Positions of the model.
        max: usize,
    },
    /// A token id outside the model's vocabulary (tokenizer and model do not match).
    #[error("token id {id} is outside the model's vocabulary of {vocab}")]
    BadToken {
        /// The id.
        id: u32,
        /// Vocabulary size of the model.
        vocab: usize,
    },
    /// The WebGPU backend is unavailable or failed (no adapter, a device limit too small for
    /// the model, a device error); callers fall back to the CPU.
    #[error("WebGPU: {0}")]
    Gpu(String),
    /// Fetching the model files (or using the browser's cache or crypto) failed.
    #[error("model download: {0}")]
    Load(String),
    /// The downloaded weights do not have the SHA-256 the manifest promises.
    #[error("model weights failed the integrity check (expected {expected}, got {got})")]
    Integrity {
        /// SHA-256 from the manifest (lower-case hex).
        expected: String,
        /// SHA-256 of the bytes received.
        got: String,
    },
}

/// Where the forward pass runs in the browser, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Backend {
    /// WebGPU compute shaders on the described adapter.
    WebGpu {
        /// The adapter as the browser describes it (vendor, architecture, …).
        adapter_info: String,
    },
    /// The pure-Rust CPU path.
    Cpu {
        /// Why the CPU is used (no WebGPU, a limit too small, requested, …).
        reason: String,
    },
}

impl Backend {
    /// `"webgpu"` or `"cpu"`.
    ///
    /// ```
    /// use memeboard_embed::Backend;
    /// assert_eq!(Backend::Cpu { reason: "requested".into() }.name(), "cpu");
    /// ```
    pub fn name(&self) -> &'static str {
        match self {
            Self::WebGpu { .. } => "webgpu",
            Self::Cpu { .. } => "cpu",
        }
    }

    /// The adapter description (WebGPU) or the reason for the CPU.
    pub fn detail(&self) -> &str {
        match self {
            Self::WebGpu { adapter_info } => adapter_info,
            Self::Cpu { reason } => reason,
        }
    }
}

impl std::fmt::Display for Backend {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::WebGpu { adapter_info } => write!(f, "WebGPU ({adapter_info})"),
            Self::Cpu { reason } => write!(f, "CPU ({reason})"),
        }
    }
}

/// A model that turns token ids (special tokens included) into last hidden states.
pub trait SentenceEncoder {
    /// Width of a hidden state.
    fn hidden_size(&self) -> usize;
    /// Longest input the model accepts, in tokens.
    fn max_positions(&self) -> usize;
    /// Hidden states of one unpadded sequence: `ids.len() × hidden_size`, row-major.
    fn hidden_states(&self, ids: &[u32]) -> Result<Vec<f32>, EmbedError>;
}

/// Sentence vector from hidden states: mean over all tokens (no padding in a single
/// sequence, so the mask is all ones), then L2-normalised — the server's pooling.
///
/// Worked example: tokens [1, 3] and [3, 5] → mean [2, 4] → /√20 → [0.447, 0.894].
///
/// ```
/// let v = memeboard_embed::sentence_vector(&[1.0, 3.0, 3.0, 5.0], 2);
/// assert!((v[0] - 0.447_213_6).abs() < 1e-6 && (v[1] - 0.894_427_2).abs() < 1e-6);
/// ```
pub fn sentence_vector(hidden: &[f32], dim: usize) -> Vec<f32> {
    let tokens = hidden.len() / dim.max(1);
    let mut v = mean_pool(hidden, &vec![1; tokens], dim);
    l2_normalize(&mut v);
    v
}

/// Token vectors for BERTScore: the rows of `hidden` without the first `skip_front` and last
/// `skip_back` (the special tokens), each L2-normalised; `tokens × dim`, row-major.
///
/// Worked example: rows `[CLS]` = (9, 9), (3, 4), `[SEP]` = (9, 9) → one row (0.6, 0.8).
///
/// ```
/// let rows = memeboard_embed::token_rows(&[9.0, 9.0, 3.0, 4.0, 9.0, 9.0], 2, 1, 1);
/// assert_eq!(rows, vec![0.6, 0.8]);
/// ```
pub fn token_rows(hidden: &[f32], dim: usize, skip_front: usize, skip_back: usize) -> Vec<f32> {
    let tokens = hidden.len() / dim.max(1);
    let end = tokens.saturating_sub(skip_back);
    let mut out = Vec::with_capacity(end.saturating_sub(skip_front) * dim);
    for t in skip_front..end {
        let mut row = hidden[t * dim..(t + 1) * dim].to_vec();
        l2_normalize(&mut row);
        out.extend(row);
    }
    out
}

/// What the browser downloads to set up the model: `browser.json` next to the weights,
/// written by `scripts/model/export_f16.py`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ModelManifest {
    /// File name of the weights (safetensors, F16), relative to the manifest.
    pub weights: String,
    /// Lower-case hex SHA-256 of the weights file.
    pub sha256: String,
    /// Size of the weights file in bytes.
    pub bytes: u64,
    /// The model's `config.json`.
    pub config: BertConfig,
    /// File name of `tokenizer.json`, relative to the manifest.
    pub tokenizer: String,
}

/// A tokenizer and a model: text in, vectors out.
#[derive(Debug, Clone)]
pub struct Encoder<M = CpuBert> {
    tokenizer: Tokenizer,
    model: M,
}

impl Encoder<CpuBert> {
    /// Loads the CPU model from the contents of `config.json`, `tokenizer.json` and a
    /// safetensors weights file (F32 or F16).
    pub fn from_files(
        config_json: &str,
        tokenizer_json: &str,
        safetensors: &[u8],
    ) -> Result<Self, EmbedError> {
        Self::from_parts(
            BertConfig::from_json(config_json)?,
            tokenizer_json,
            safetensors,
        )
    }

    /// Loads the CPU model from a parsed configuration (e.g. [`ModelManifest::config`]),
    /// `tokenizer.json` and the weights.
    pub fn from_parts(
        config: BertConfig,
        tokenizer_json: &str,
        safetensors: &[u8],
    ) -> Result<Self, EmbedError> {
        let tokenizer = Tokenizer::from_json(tokenizer_json)?;
        let weights = Weights::from_safetensors(safetensors)?;
        Ok(Self::new(tokenizer, CpuBert::new(config, weights)?))
    }
}

impl<M: SentenceEncoder> Encoder<M> {
    /// Pairs a tokenizer with a model; encodings are truncated to the model's positions
    /// if those are fewer than the tokenizer's bound.
    pub fn new(tokenizer: Tokenizer, model: M) -> Self {
        let max_len = tokenizer.max_len().min(model.max_positions());
        Self {
            tokenizer: tokenizer.with_max_len(max_len),
            model,
        }
    }

    /// The tokenizer.
    pub fn tokenizer(&self) -> &Tokenizer {
        &self.tokenizer
    }

    /// The model.
    pub fn model(&self) -> &M {
        &self.model
    }

    /// Hidden states of `text` (special tokens included) and their width.
    pub fn hidden_states(&self, text: &str) -> Result<(Vec<f32>, usize), EmbedError> {
        let ids = self.tokenizer.encode(text);
        Ok((self.model.hidden_states(&ids)?, self.model.hidden_size()))
    }

    /// The L2-normalised sentence vector of `text` (mean pooling), as the server computes.
    pub fn embed(&self, text: &str) -> Result<Vec<f32>, EmbedError> {
        let (hidden, dim) = self.hidden_states(text)?;
        Ok(sentence_vector(&hidden, dim))
    }

    /// L2-normalised token vectors of `text` without the special tokens (`tokens × dim`,
    /// row-major) and `dim`, for `memeboard_core::embed::bert_score`.
    pub fn token_vectors(&self, text: &str) -> Result<(Vec<f32>, usize), EmbedError> {
        let (hidden, dim) = self.hidden_states(text)?;
        let rows = token_rows(
            &hidden,
            dim,
            self.tokenizer.special_prefix_len(),
            self.tokenizer.special_suffix_len(),
        );
        Ok((rows, dim))
    }
}
