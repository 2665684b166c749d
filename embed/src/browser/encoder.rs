//! [`BrowserEncoder`]: the tokenizer and the CPU or WebGPU forward pass, with the server's
//! pooling.

use super::load::LoadedModel;
use crate::gpu::GpuBert;
use crate::{
    sentence_vector, token_rows, Backend, BertConfig, CpuBert, EmbedError, Tokenizer, Weights,
};

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
