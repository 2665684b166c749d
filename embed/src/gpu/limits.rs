//! What the forward pass needs from the device ([`Needs`]), computed from the configuration
//! before any GPU object is created, and the device limits to request for it.

use super::{gpu_err, GpuOptions};
use crate::bert::BertConfig;
use crate::kernels::{
    INVOCATIONS, MATMUL_STORAGE_BUFFERS, MATMUL_TILE, TILED_INVOCATIONS, TILED_TILE,
    TILED_WORKGROUP_BYTES, VECTOR_WIDTH,
};
use crate::EmbedError;

/// Sizes the forward pass needs from the device, computed from the configuration before any
/// GPU object is created.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Needs {
    /// Rows of the activation buffers.
    pub(super) rows: usize,
    /// Largest buffer bound as storage (weights or activations), in bytes.
    binding: u64,
    /// What that largest buffer is, for the error message.
    binding_what: String,
    /// Workgroup memory of the largest kernel, in bytes.
    workgroup_storage: u32,
    /// Most workgroups along one dispatch dimension.
    workgroups: u32,
}

impl Needs {
    pub(super) fn of(c: &BertConfig, options: &GpuOptions) -> Result<Self, EmbedError> {
        let widths = [
            ("hidden_size", c.hidden_size),
            ("intermediate_size", c.intermediate_size),
            ("the head size", c.head_dim()),
        ];
        if let Some((name, width)) = widths.iter().find(|(_, w)| w % VECTOR_WIDTH != 0) {
            return Err(gpu_err(format!(
                "the kernels read vec4s, but {name} {width} is not a multiple of {VECTOR_WIDTH}"
            )));
        }
        let rows = options.max_batch_tokens.max(c.max_position_embeddings);
        let (h, i, t) = (
            c.hidden_size as u64,
            c.intermediate_size as u64,
            rows as u64,
        );
        let candidates = [
            (
                3 * h * h * 4,
                format!("the fused Q/K/V weight ({}×{h} f32)", 3 * h),
            ),
            (i * h * 4, format!("a feed-forward weight ({i}×{h} f32)")),
            (
                t * i * 4,
                format!("the feed-forward activations ({t} rows × {i} f32)"),
            ),
            (
                t * 3 * h * 4,
                format!("the Q/K/V activations ({t} rows × {} f32)", 3 * h),
            ),
        ];
        let (binding, binding_what) = candidates
            .into_iter()
            .max_by_key(|(bytes, _)| *bytes)
            .unwrap_or_default();
        let positions = u32::try_from(c.max_position_embeddings)
            .map_err(|_| gpu_err("max_position_embeddings does not fit in u32"))?;
        let rows32 = u32::try_from(rows).map_err(|_| gpu_err("max_batch_tokens is too large"))?;
        // The attention kernel keeps one score per position, plus 64 partial sums.
        let attention_shared = positions
            .checked_add(INVOCATIONS)
            .and_then(|n| n.checked_mul(4))
            .ok_or_else(|| gpu_err("max_position_embeddings is too large"))?;
        let widest = c.intermediate_size.max(3 * c.hidden_size) as u32;
        Ok(Self {
            rows,
            binding,
            binding_what,
            workgroup_storage: attention_shared,
            workgroups: rows32.max(widest.div_ceil(MATMUL_TILE.1)),
        })
    }

    /// The device limits to request: WebGPU's defaults, raised where the model needs more
    /// and the adapter allows it; an error naming the first limit the adapter cannot meet.
    pub(super) fn limits(&self, adapter: &wgpu::Limits) -> Result<wgpu::Limits, EmbedError> {
        let mut limits = wgpu::Limits::default();
        let too_small = |name: &str, have: u64, need: u64, what: &str| {
            Err(gpu_err(format!(
                "the adapter's {name} is {have} bytes, but {what} needs {need}"
            )))
        };
        if self.binding > adapter.max_storage_buffer_binding_size {
            return too_small(
                "maxStorageBufferBindingSize",
                adapter.max_storage_buffer_binding_size,
                self.binding,
                &self.binding_what,
            );
        }
        if self.binding > adapter.max_buffer_size {
            return too_small(
                "maxBufferSize",
                adapter.max_buffer_size,
                self.binding,
                &self.binding_what,
            );
        }
        if self.workgroup_storage > adapter.max_compute_workgroup_storage_size {
            return too_small(
                "maxComputeWorkgroupStorageSize",
                adapter.max_compute_workgroup_storage_size.into(),
                self.workgroup_storage.into(),
                "the attention kernel (one f32 score per position)",
            );
        }
        let counts = [
            (
                "maxStorageBuffersPerShaderStage",
                adapter.max_storage_buffers_per_shader_stage,
                MATMUL_STORAGE_BUFFERS,
            ),
            (
                "maxComputeInvocationsPerWorkgroup",
                adapter.max_compute_invocations_per_workgroup,
                INVOCATIONS,
            ),
            (
                "maxComputeWorkgroupSizeX",
                adapter.max_compute_workgroup_size_x,
                INVOCATIONS,
            ),
            (
                "maxComputeWorkgroupsPerDimension",
                adapter.max_compute_workgroups_per_dimension,
                self.workgroups,
            ),
        ];
        for (name, have, need) in counts {
            if have < need {
                return Err(gpu_err(format!(
                    "the adapter's {name} is {have}, the forward pass needs {need}"
                )));
            }
        }
        limits.max_storage_buffer_binding_size =
            limits.max_storage_buffer_binding_size.max(self.binding);
        limits.max_buffer_size = limits.max_buffer_size.max(self.binding);
        limits.max_compute_workgroup_storage_size = limits
            .max_compute_workgroup_storage_size
            .max(self.workgroup_storage);
        limits.max_compute_workgroups_per_dimension = limits
            .max_compute_workgroups_per_dimension
            .max(self.workgroups);
        Ok(limits)
    }
}

/// Whether the tiled matmul fits the limits the device was created with.
pub(super) fn tiled_fits(limits: &wgpu::Limits) -> bool {
    limits.max_compute_invocations_per_workgroup >= TILED_INVOCATIONS
        && limits.max_compute_workgroup_size_x >= TILED_TILE.1 / 4
        && limits.max_compute_workgroup_size_y >= TILED_TILE.0 / 4
        && limits.max_compute_workgroup_storage_size >= TILED_WORKGROUP_BYTES
}
