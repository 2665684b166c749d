//! One forward pass of a [`GpuBert`]: the embedding gather on the CPU, the kernel
//! parameters, and the batch split into passes of at most the batch capacity.

use super::device::{read_back, Scopes};
use super::{GpuBert, StepKind, PARAM_SLOT};
use crate::kernels::{MATMUL_TILE, TILED_TILE};
use crate::EmbedError;

impl GpuBert {
    /// `(word + type 0) + position` for each token of each sentence, packed: the embedding
    /// sums (`Σ len × H`), and for every row the span `(first row, length)` of its sentence.
    fn embed_tokens(&self, batch: &[&[u32]]) -> Result<(Vec<f32>, Vec<u32>), EmbedError> {
        let c = &self.config;
        let h = c.hidden_size;
        let rows: usize = batch.iter().map(|ids| ids.len()).sum();
        let mut x = vec![0.0f32; rows * h];
        let mut spans = Vec::with_capacity(rows * 2);
        let mut row0 = 0;
        for ids in batch {
            if ids.len() > c.max_position_embeddings {
                return Err(EmbedError::TooLong {
                    len: ids.len(),
                    max: c.max_position_embeddings,
                });
            }
            let sentence = &mut x[row0 * h..(row0 + ids.len()) * h];
            for (pos, (row, &id)) in sentence.chunks_exact_mut(h).zip(*ids).enumerate() {
                if id as usize >= c.vocab_size {
                    return Err(EmbedError::BadToken {
                        id,
                        vocab: c.vocab_size,
                    });
                }
                let word = &self.word[id as usize * h..(id as usize + 1) * h];
                let position = &self.position[pos * h..(pos + 1) * h];
                for (((v, &w), &ty), &p) in row
                    .iter_mut()
                    .zip(word)
                    .zip(&self.token_type0)
                    .zip(position)
                {
                    *v = (w + ty) + p;
                }
            }
            for _ in 0..ids.len() {
                spans.extend([row0 as u32, ids.len() as u32]);
            }
            row0 += ids.len();
        }
        Ok((x, spans))
    }

    /// Kernel parameters of every step for `m` rows, one 256-byte slot each.
    fn params_for(&self, m: u32) -> Vec<u8> {
        let c = &self.config;
        let (h, d) = (c.hidden_size as u32, c.head_dim() as u32);
        let scale = 1.0 / (d as f32).sqrt();
        let eps = c.layer_norm_eps as f32;
        let mut out = vec![0u8; self.steps.len() * PARAM_SLOT as usize];
        for (slot, step) in out.chunks_exact_mut(PARAM_SLOT as usize).zip(&self.steps) {
            let words: [u32; 4] = match step.kind {
                StepKind::Matmul { n, k, .. } => [m, n, k, 0],
                StepKind::Attention => [m, h, d, scale.to_bits()],
                StepKind::LayerNorm => [m, h, eps.to_bits(), 0],
            };
            for (dst, w) in slot.chunks_exact_mut(4).zip(words) {
                dst.copy_from_slice(&w.to_le_bytes());
            }
        }
        out
    }

    /// Last hidden states of one unpadded sequence of token ids (`ids.len() × H`, row-major),
    /// computed on the GPU; equal to [`CpuBert::forward`](crate::CpuBert::forward) to float
    /// rounding (≈1e-6).
    pub async fn hidden_states(&self, ids: &[u32]) -> Result<Vec<f32>, EmbedError> {
        let mut out = self.hidden_states_batch(&[ids]).await?;
        Ok(out.pop().unwrap_or_default())
    }

    /// Last hidden states of several sequences (`ids.len() × H` each, in order), in as few
    /// passes as the batch capacity allows: the sentences are packed into one set of rows,
    /// each attending only to itself, so every matmul runs once for the whole batch. Each
    /// sentence's states equal those of [`GpuBert::hidden_states`] on it alone.
    pub async fn hidden_states_batch(&self, batch: &[&[u32]]) -> Result<Vec<Vec<f32>>, EmbedError> {
        let mut out = Vec::with_capacity(batch.len());
        let mut start = 0;
        while start < batch.len() {
            // Greedy chunks of at most `capacity` rows (a sentence is ≤ positions ≤ capacity).
            let mut end = start;
            let mut rows = 0;
            while end < batch.len() && (end == start || rows + batch[end].len() <= self.capacity) {
                rows += batch[end].len();
                end += 1;
            }
            let chunk = &batch[start..end];
            let hidden = self.pass(chunk).await?;
            let h = self.config.hidden_size;
            let mut row0 = 0;
            for ids in chunk {
                out.push(hidden[row0 * h..(row0 + ids.len()) * h].to_vec());
                row0 += ids.len();
            }
            start = end;
        }
        Ok(out)
    }

    /// One forward pass over the packed rows of `batch` (at most `capacity` rows).
    async fn pass(&self, batch: &[&[u32]]) -> Result<Vec<f32>, EmbedError> {
        let (x, spans) = self.embed_tokens(batch)?;
        let rows = spans.len() / 2;
        if rows == 0 {
            return Ok(x);
        }
        let m = rows as u32;
        let heads = self.config.num_attention_heads as u32;
        let tiled = self.uses_tiled_matmul(rows);
        let scopes = Scopes::push(&self.device);
        // Inputs are written and the pass submitted without an await in between, so
        // overlapping calls cannot interleave their writes.
        self.queue
            .write_buffer(&self.params, 0, &self.params_for(m));
        self.queue
            .write_buffer(&self.hidden, 0, bytemuck::cast_slice(&x));
        self.queue
            .write_buffer(&self.spans, 0, bytemuck::cast_slice(&spans));
        let mut encoder = self
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor { label: None });
        {
            let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor::default());
            for step in &self.steps {
                let (pipeline, groups) = match step.kind {
                    StepKind::Matmul { epilogue, n, .. } => {
                        let tile = if tiled { TILED_TILE } else { MATMUL_TILE };
                        (
                            &self.matmul[usize::from(tiled)][epilogue as usize],
                            (n.div_ceil(tile.1), m.div_ceil(tile.0), 1),
                        )
                    }
                    StepKind::Attention => (&self.attention, (m, heads, 1)),
                    StepKind::LayerNorm => (&self.layernorm, (m, 1, 1)),
                };
                pass.set_pipeline(pipeline);
                pass.set_bind_group(0, &step.bind_group, &[]);
                pass.dispatch_workgroups(groups.0, groups.1, groups.2);
            }
        }
        let bytes = (x.len() * 4) as u64;
        let result = read_back(&self.device, &self.queue, encoder, &self.hidden, bytes);
        let errors = scopes.pop();
        let hidden = result.await;
        errors.await?;
        hidden
    }
}
