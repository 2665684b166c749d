//! The BERT encoder: its configuration ([`BertConfig`], from `config.json`) and a CPU forward
//! pass ([`CpuBert`]) for one sentence, equal (to float rounding) to the ONNX graph the server
//! runs (`scripts/model/bert_to_onnx.py`).
//!
//! Forward pass, for `T` token ids and hidden size `H`:
//! 1. embeddings: `word[id] + token_type[0] + position[t]`, then LayerNorm;
//! 2. per layer: fused Q/K/V projection; per head, scores `q·k / √d` (no padding, so the
//!    additive mask is all zeros), softmax, weighted sum of `v`; output projection + residual
//!    + LayerNorm; feed-forward `W₂·GELU(W₁·x)` + residual + LayerNorm (exact erf GELU).

use crate::math::{dot, gelu, layer_norm, softmax, Linear};
use crate::weights::Weights;
use crate::{EmbedError, SentenceEncoder};
use serde::{Deserialize, Serialize};

/// The architecture fields of a Hugging Face BERT `config.json` that the forward pass needs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BertConfig {
    /// Width `H` of the hidden states.
    pub hidden_size: usize,
    /// Number of encoder layers.
    pub num_hidden_layers: usize,
    /// Attention heads per layer (`H` must be a multiple).
    pub num_attention_heads: usize,
    /// Width of the feed-forward layer.
    pub intermediate_size: usize,
    /// LayerNorm epsilon.
    #[serde(default = "default_eps")]
    pub layer_norm_eps: f64,
    /// Longest input, in tokens (rows of the position embedding).
    pub max_position_embeddings: usize,
    /// Vocabulary size (rows of the word embedding).
    pub vocab_size: usize,
    /// Token types (rows of the token-type embedding; type 0 is used).
    #[serde(default = "default_type_vocab")]
    pub type_vocab_size: usize,
    /// Activation; only `"gelu"` (exact, erf-based) is supported.
    #[serde(default = "default_act")]
    pub hidden_act: String,
    /// Position embeddings; only `"absolute"` is supported.
    #[serde(default = "default_position_type")]
    pub position_embedding_type: String,
}

fn default_eps() -> f64 {
    1e-12
}

fn default_type_vocab() -> usize {
    2
}

fn default_act() -> String {
    "gelu".into()
}

fn default_position_type() -> String {
    "absolute".into()
}

impl BertConfig {
    /// Reads `config.json` (other fields are ignored) and checks that the forward pass
    /// supports it.
    ///
    /// ```
    /// use memeboard_embed::BertConfig;
    /// let c = BertConfig::from_json(r#"{"hidden_size": 512, "num_hidden_layers": 4,
    ///     "num_attention_heads": 8, "intermediate_size": 2048, "layer_norm_eps": 1e-12,
    ///     "max_position_embeddings": 512, "vocab_size": 21128, "model_type": "bert"}"#)?;
    /// assert_eq!(c.head_dim(), 64); // 512 / 8
    /// assert!(BertConfig::from_json(r#"{"hidden_size": 10, "num_hidden_layers": 1,
    ///     "num_attention_heads": 3, "intermediate_size": 8, "max_position_embeddings": 8,
    ///     "vocab_size": 5}"#).is_err()); // 10 is not a multiple of 3
    /// # Ok::<(), memeboard_embed::EmbedError>(())
    /// ```
    pub fn from_json(json: &str) -> Result<Self, EmbedError> {
        let config: Self =
            serde_json::from_str(json).map_err(|e| EmbedError::Config(e.to_string()))?;
        config.validate()?;
        Ok(config)
    }

    /// Checks the configuration is one the forward pass implements.
    pub fn validate(&self) -> Result<(), EmbedError> {
        let bad = |m: String| Err(EmbedError::Config(m));
        if self.hidden_size == 0 || self.num_attention_heads == 0 {
            return bad("hidden_size and num_attention_heads must be positive".into());
        }
        if self.hidden_size % self.num_attention_heads != 0 {
            return bad(format!(
                "hidden_size {} is not a multiple of num_attention_heads {}",
                self.hidden_size, self.num_attention_heads
            ));
        }
        if self.hidden_act != "gelu" {
            return bad(format!(
                "hidden_act {:?} is not supported (only \"gelu\")",
                self.hidden_act
            ));
        }
        if self.position_embedding_type != "absolute" {
            return bad(format!(
                "position_embedding_type {:?} is not supported (only \"absolute\")",
                self.position_embedding_type
            ));
        }
        if self.type_vocab_size == 0 {
            return bad("type_vocab_size must be positive".into());
        }
        Ok(())
    }

    /// Width of one attention head (`hidden_size / num_attention_heads`).
    pub fn head_dim(&self) -> usize {
        self.hidden_size / self.num_attention_heads
    }
}

#[derive(Debug, Clone)]
struct LayerNorm {
    gamma: Vec<f32>,
    beta: Vec<f32>,
}

#[derive(Debug, Clone)]
struct Layer {
    /// Q, K and V projections fused: outputs `[q | k | v]`, each `H` wide.
    qkv: Linear,
    attention_output: Linear,
    attention_norm: LayerNorm,
    intermediate: Linear,
    output: Linear,
    output_norm: LayerNorm,
}

/// A BERT encoder evaluated on the CPU, in f32 (weights converted from f16 if the file has
/// them). Built once from [`Weights`] (which it consumes: the matrices are re-packed for the
/// matmul kernel); then [`CpuBert::forward`] is a pure function of the token ids.
#[derive(Debug, Clone)]
pub struct CpuBert {
    config: BertConfig,
    word: Vec<f32>,
    position: Vec<f32>,
    token_type0: Vec<f32>,
    embedding_norm: LayerNorm,
    layers: Vec<Layer>,
}

fn norm(w: &mut Weights, prefix: &str, h: usize) -> Result<LayerNorm, EmbedError> {
    Ok(LayerNorm {
        gamma: w.take(&format!("{prefix}.weight"), &[h])?.data,
        beta: w.take(&format!("{prefix}.bias"), &[h])?.data,
    })
}

fn linear(w: &mut Weights, prefix: &str, out: usize, inp: usize) -> Result<Linear, EmbedError> {
    let weight = w.take(&format!("{prefix}.weight"), &[out, inp])?;
    let bias = w.take(&format!("{prefix}.bias"), &[out])?;
    Ok(Linear::new(&weight.data, bias.data, inp))
}

impl CpuBert {
    /// Builds the encoder from a checkpoint's tensors (names as in Hugging Face
    /// `BertModel`; unused ones such as the pooler are ignored).
    pub fn new(config: BertConfig, mut weights: Weights) -> Result<Self, EmbedError> {
        config.validate()?;
        let h = config.hidden_size;
        let w = &mut weights;
        let word = w.take("embeddings.word_embeddings.weight", &[config.vocab_size, h])?;
        let position = w.take(
            "embeddings.position_embeddings.weight",
            &[config.max_position_embeddings, h],
        )?;
        let token_type = w.take(
            "embeddings.token_type_embeddings.weight",
            &[config.type_vocab_size, h],
        )?;
        let embedding_norm = norm(w, "embeddings.LayerNorm", h)?;
        let mut layers = Vec::with_capacity(config.num_hidden_layers);
        for i in 0..config.num_hidden_layers {
            let p = format!("encoder.layer.{i}");
            let mut qkv_weight = Vec::with_capacity(3 * h * h);
            let mut qkv_bias = Vec::with_capacity(3 * h);
            for part in ["query", "key", "value"] {
                let prefix = format!("{p}.attention.self.{part}");
                qkv_weight.extend(w.take(&format!("{prefix}.weight"), &[h, h])?.data);
                qkv_bias.extend(w.take(&format!("{prefix}.bias"), &[h])?.data);
            }
            layers.push(Layer {
                qkv: Linear::new(&qkv_weight, qkv_bias, h),
                attention_output: linear(w, &format!("{p}.attention.output.dense"), h, h)?,
                attention_norm: norm(w, &format!("{p}.attention.output.LayerNorm"), h)?,
                intermediate: linear(
                    w,
                    &format!("{p}.intermediate.dense"),
                    config.intermediate_size,
                    h,
                )?,
                output: linear(w, &format!("{p}.output.dense"), h, config.intermediate_size)?,
                output_norm: norm(w, &format!("{p}.output.LayerNorm"), h)?,
            });
        }
        Ok(Self {
            token_type0: token_type.data[..h].to_vec(),
            word: word.data,
            position: position.data,
            embedding_norm,
            layers,
            config,
        })
    }

    /// The model's configuration.
    pub fn config(&self) -> &BertConfig {
        &self.config
    }

    /// Last hidden states for one unpadded sequence of token ids (`ids.len() × H`,
    /// row-major). Fails if an id is outside the vocabulary or the sequence is longer than
    /// `max_position_embeddings`.
    pub fn forward(&self, ids: &[u32]) -> Result<Vec<f32>, EmbedError> {
        let c = &self.config;
        let (h, t) = (c.hidden_size, ids.len());
        if t > c.max_position_embeddings {
            return Err(EmbedError::TooLong {
                len: t,
                max: c.max_position_embeddings,
            });
        }
        let mut x = vec![0.0f32; t * h];
        for (pos, (row, &id)) in x.chunks_exact_mut(h).zip(ids).enumerate() {
            let id = id as usize;
            if id >= c.vocab_size {
                return Err(EmbedError::BadToken {
                    id: id as u32,
                    vocab: c.vocab_size,
                });
            }
            let word = &self.word[id * h..(id + 1) * h];
            let position = &self.position[pos * h..(pos + 1) * h];
            for (((v, &w), &ty), &p) in row
                .iter_mut()
                .zip(word)
                .zip(&self.token_type0)
                .zip(position)
            {
                // Same association as the ONNX graph: (word + type) + position.
                *v = (w + ty) + p;
            }
        }
        let n = &self.embedding_norm;
        layer_norm(&mut x, &n.gamma, &n.beta, c.layer_norm_eps);
        for layer in &self.layers {
            x = self.layer(layer, &x, t);
        }
        Ok(x)
    }

    fn layer(&self, layer: &Layer, x: &[f32], t: usize) -> Vec<f32> {
        let c = &self.config;
        let (h, heads, d) = (c.hidden_size, c.num_attention_heads, c.head_dim());
        let eps = c.layer_norm_eps;
        let qkv = layer.qkv.forward(x, t);
        let scale = 1.0 / (d as f32).sqrt();
        let mut context = vec![0.0f32; t * h];
        let mut scores = vec![0.0f32; t];
        for head in 0..heads {
            let off = head * d;
            for i in 0..t {
                let q = &qkv[i * 3 * h + off..i * 3 * h + off + d];
                for (j, s) in scores.iter_mut().enumerate() {
                    let k = &qkv[j * 3 * h + h + off..j * 3 * h + h + off + d];
                    *s = dot(q, k) * scale;
                }
                softmax(&mut scores);
                let ctx = &mut context[i * h + off..i * h + off + d];
                for (j, &p) in scores.iter().enumerate() {
                    let v = &qkv[j * 3 * h + 2 * h + off..j * 3 * h + 2 * h + off + d];
                    for (o, &vv) in ctx.iter_mut().zip(v) {
                        *o += p * vv;
                    }
                }
            }
        }
        let mut x1 = layer.attention_output.forward(&context, t);
        for (a, &r) in x1.iter_mut().zip(x) {
            *a += r;
        }
        layer_norm(
            &mut x1,
            &layer.attention_norm.gamma,
            &layer.attention_norm.beta,
            eps,
        );
        let mut inner = layer.intermediate.forward(&x1, t);
        inner.iter_mut().for_each(|v| *v = gelu(*v));
        let mut out = layer.output.forward(&inner, t);
        for (a, &r) in out.iter_mut().zip(&x1) {
            *a += r;
        }
        layer_norm(
            &mut out,
            &layer.output_norm.gamma,
            &layer.output_norm.beta,
            eps,
        );
        out
    }
}

impl SentenceEncoder for CpuBert {
    fn hidden_size(&self) -> usize {
        self.config.hidden_size
    }

    fn max_positions(&self) -> usize {
        self.config.max_position_embeddings
    }

    fn hidden_states(&self, ids: &[u32]) -> Result<Vec<f32>, EmbedError> {
        self.forward(ids)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::weights::Tensor;

    /// A 1-layer model with hidden size 4, 2 heads, deterministic weights.
    fn toy() -> (BertConfig, Weights) {
        let config = BertConfig::from_json(
            r#"{"hidden_size": 4, "num_hidden_layers": 1, "num_attention_heads": 2,
                "intermediate_size": 6, "max_position_embeddings": 5, "vocab_size": 7}"#,
        )
        .unwrap();
        let mut w = Weights::default();
        let mut seed = 1u32;
        let mut t = |name: &str, shape: &[usize]| {
            let n: usize = shape.iter().product();
            let data = (0..n)
                .map(|_| {
                    seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12345);
                    ((seed >> 16) % 1000) as f32 / 1000.0 - 0.5
                })
                .collect();
            w.insert(name, Tensor::new(shape.to_vec(), data).unwrap());
        };
        t("embeddings.word_embeddings.weight", &[7, 4]);
        t("embeddings.position_embeddings.weight", &[5, 4]);
        t("embeddings.token_type_embeddings.weight", &[2, 4]);
        t("embeddings.LayerNorm.weight", &[4]);
        t("embeddings.LayerNorm.bias", &[4]);
        let p = "encoder.layer.0";
        for part in ["query", "key", "value"] {
            t(&format!("{p}.attention.self.{part}.weight"), &[4, 4]);
            t(&format!("{p}.attention.self.{part}.bias"), &[4]);
        }
        t(&format!("{p}.attention.output.dense.weight"), &[4, 4]);
        t(&format!("{p}.attention.output.dense.bias"), &[4]);
        t(&format!("{p}.attention.output.LayerNorm.weight"), &[4]);
        t(&format!("{p}.attention.output.LayerNorm.bias"), &[4]);
        t(&format!("{p}.intermediate.dense.weight"), &[6, 4]);
        t(&format!("{p}.intermediate.dense.bias"), &[6]);
        t(&format!("{p}.output.dense.weight"), &[4, 6]);
        t(&format!("{p}.output.dense.bias"), &[4]);
        t(&format!("{p}.output.LayerNorm.weight"), &[4]);
        t(&format!("{p}.output.LayerNorm.bias"), &[4]);
        (config, w)
    }

    #[test]
    fn forward_shapes_and_errors() {
        let (config, w) = toy();
        let model = CpuBert::new(config, w).unwrap();
        let out = model.forward(&[1, 2, 3]).unwrap();
        assert_eq!(out.len(), 3 * 4);
        assert!(out.iter().all(|v| v.is_finite()));
        assert_eq!(model.forward(&[]).unwrap(), Vec::<f32>::new());
        assert!(matches!(
            model.forward(&[7]),
            Err(EmbedError::BadToken { id: 7, vocab: 7 })
        ));
        assert!(matches!(
            model.forward(&[0; 6]),
            Err(EmbedError::TooLong { len: 6, max: 5 })
        ));
        // Deterministic, and BERT is bidirectional: a later token changes earlier rows.
        assert_eq!(model.forward(&[4]).unwrap(), model.forward(&[4]).unwrap());
        assert_ne!(
            model.forward(&[4, 5]).unwrap()[..4],
            model.forward(&[4, 6]).unwrap()[..4]
        );
    }

    #[test]
    fn missing_or_misshapen_tensors_are_reported() {
        let (config, mut w) = toy();
        w.insert(
            "encoder.layer.0.output.dense.bias",
            Tensor::new(vec![5], vec![0.0; 5]).unwrap(),
        );
        assert!(matches!(
            CpuBert::new(config.clone(), w),
            Err(EmbedError::Shape { .. })
        ));
        let (_, mut w) = toy();
        w.take("embeddings.LayerNorm.bias", &[4]).unwrap();
        assert!(matches!(
            CpuBert::new(config, w),
            Err(EmbedError::MissingTensor(_))
        ));
    }

    #[test]
    fn unsupported_configs_are_refused() {
        let json = r#"{"hidden_size": 4, "num_hidden_layers": 1, "num_attention_heads": 2,
            "intermediate_size": 6, "max_position_embeddings": 5, "vocab_size": 7,
            "hidden_act": "gelu_new"}"#;
        assert!(matches!(
            BertConfig::from_json(json),
            Err(EmbedError::Config(_))
        ));
    }
}
