//! The BERT forward pass on the GPU ([`GpuBert`]): the same model as
//! [`CpuBert`](crate::CpuBert), in f32 throughout, run by our own WGSL compute kernels
//! (`src/kernels/*.wgsl`, assembled by the `kernels` module) through `wgpu` (feature `gpu`):
//! the browser's WebGPU on wasm32, Vulkan natively (lavapipe in the native tests, any
//! Vulkan GPU in the benchmark). Hidden states equal the CPU path's to float rounding:
//! cosines differ by ≤ 2e-7 on the 251 test pairs.
//!
//! Layout of the work, for a batch of sentences of `T₁ … T_B` tokens packed into
//! `M = ΣTᵢ` rows (no padding), hidden size `H`, intermediate size `I`:
//! - **embeddings on the CPU**: `(word[id] + token_type[0]) + position[t]` is a gather of
//!   `M` rows, trivial on the CPU; doing it here keeps the largest tensor (m3e-small's
//!   21128×512 word embedding, 43 MB in f32) off the GPU, so no binding comes near the
//!   adapter's `maxStorageBufferBindingSize` and 43 MB less are uploaded. The `M×H` sums are
//!   written to the GPU with the per-call parameters and, for every row, the span
//!   (first row, length) of its sentence;
//! - **on the GPU**, one command buffer per batch (1 + 7 × layers dispatches, whatever the
//!   batch size): embedding LayerNorm, then per layer: fused Q/K/V projection
//!   (`matmul.wgsl`, weights concatenated to one `3H×H` matrix at upload) → attention, all
//!   heads, each row attending only to its own sentence's span (`attention.wgsl`: scores,
//!   softmax with workgroup max/sum reductions, weighted sum) → output projection + bias +
//!   residual add (matmul epilogue 2) → LayerNorm (`layernorm.wgsl`, workgroup reductions)
//!   → feed-forward dense + bias + exact GELU (matmul epilogue 1, erf from `erf.wgsl`) →
//!   dense + bias + residual add → LayerNorm. Softmax, GELU and the residual adds are fused
//!   into the kernels that produce their inputs rather than being separate dispatches: each
//!   would otherwise cost a dispatch and a round trip of its tensor through memory. Packing
//!   instead of padding means no work on padding rows and no attention mask: the span is
//!   the mask;
//! - **two matmul kernels** on the same bindings ([`MatmulKernel`]): `matmul.wgsl`
//!   (registers only, 4×4 per invocation, 16×64 per workgroup) for small `M` and software
//!   adapters (SwiftShader, lavapipe), where workgroup memory is no faster than global; and
//!   `matmul_tiled.wgsl` (64×64 per workgroup staged through workgroup memory in 16-wide
//!   k slices, 4×4 register blocks per invocation, 16× fewer global loads) for batches on
//!   hardware GPUs, where it is what lets throughput grow with the batch;
//! - the last hidden states are copied to a mappable buffer and read back
//!   ([`GpuBert::hidden_states_batch`], async).
//!
//! Weights are uploaded once, as f32 in their PyTorch layout (`[out, in]`), one storage
//! buffer per tensor; activations live in buffers sized for [`GpuOptions::max_batch_tokens`]
//! rows (at least the model's positions; longer batches are split into several passes), so
//! every bind group is built once at load. Kernel parameters (which depend on `M`) sit in
//! one uniform buffer, a 256-byte-aligned slot per dispatch, rewritten per pass. Calls may
//! overlap: each pass writes its inputs and submits its dispatches and copy synchronously,
//! so the queue orders them, and every pass reads back through its own staging buffer.
//!
//! Limits are checked before the device is requested ([`GpuBert::new`] fails with an error
//! naming the WebGPU limit, so callers can fall back to the CPU); uploads, pipeline
//! compilation, a warm-up pass and every later pass run inside error scopes, so a driver or
//! shader-compiler failure becomes an [`EmbedError::Gpu`] rather than garbage output.
//!
//! Speed on SwiftShader (Chromium's software WebGPU adapter, 2 shared x86 cores, the CI
//! set-up): m3e-small ≈ 1.2 sentences/s one at a time (≈ 20 ms per token), tiny-bert ≈
//! 20–30 sentences/s (dispatch-bound); set-up (upload + compile + warm-up) ≈ 1.3 s for
//! m3e-small. The wasm CPU path is ≈ 25 sentences/s there, so on a machine without a
//! hardware GPU the CPU path is the faster one. Native figures (lavapipe, and how to run the
//! benchmark on a GPU): `docs/embeddings.md`.

mod build;
mod device;
mod limits;
mod pass;

use crate::bert::BertConfig;
use crate::kernels::{Epilogue, TILED_INVOCATIONS, TILED_WORKGROUP_BYTES};
use crate::weights::Weights;
use crate::EmbedError;
use build::Setup;
#[cfg(target_arch = "wasm32")]
pub(crate) use device::request_adapter;
pub(crate) use device::request_device;
use device::Scopes;
#[cfg(not(target_arch = "wasm32"))]
pub use device::{block_on, request_adapter};
use limits::{tiled_fits, Needs};

/// Bytes of one kernel-parameter slot (≥ `minUniformBufferOffsetAlignment`, 256 by default).
const PARAM_SLOT: u64 = 256;

/// Rows (tokens, all sentences of a batch together) one pass takes by default: 32
/// sentences of up to 128 tokens. m3e-small's activations for that are 4096 × 2048 f32
/// (32 MB, the feed-forward's), far below WebGPU's default 128 MiB binding limit.
pub const DEFAULT_MAX_BATCH_TOKENS: usize = 4096;

/// Fewest rows for which [`MatmulKernel::Auto`] takes the tiled kernel on a hardware
/// adapter: below this, a 64-row tile is mostly clamped rows and the register kernel's
/// 16-row tiles keep more of the GPU busy.
const TILED_MIN_ROWS: u32 = 128;

fn gpu_err(msg: impl Into<String>) -> EmbedError {
    EmbedError::Gpu(msg.into())
}

/// Which matmul kernel a pass uses (both are built; see the [module docs](self)).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum MatmulKernel {
    /// The tiled kernel on hardware adapters when the batch has at least 128 rows, the
    /// register kernel otherwise (and always on software adapters).
    #[default]
    Auto,
    /// Always `matmul.wgsl` (registers only).
    Registers,
    /// Always `matmul_tiled.wgsl` (workgroup-memory tiles; needs 256 invocations per
    /// workgroup and 8 KB of workgroup memory).
    Tiled,
}

/// How [`GpuBert::with_options`] sets the model up.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GpuOptions {
    /// The matmul kernel (tests force each one to check both against the CPU).
    pub matmul: MatmulKernel,
    /// Rows one pass takes (raised to the model's positions if smaller); bigger batches are
    /// split into several passes.
    pub max_batch_tokens: usize,
}

impl Default for GpuOptions {
    fn default() -> Self {
        Self {
            matmul: MatmulKernel::Auto,
            max_batch_tokens: DEFAULT_MAX_BATCH_TOKENS,
        }
    }
}

/// One dispatch of the forward pass.
#[derive(Debug)]
struct Step {
    kind: StepKind,
    bind_group: wgpu::BindGroup,
}

#[derive(Debug, Clone, Copy)]
enum StepKind {
    /// `y = epilogue(x·Wᵀ + b)`, `n` outputs from `k` inputs.
    Matmul {
        epilogue: Epilogue,
        n: u32,
        k: u32,
    },
    Attention,
    LayerNorm,
}

/// A BERT encoder evaluated with WebGPU compute shaders; see the [module docs](self).
///
/// ```ignore
/// let model = GpuBert::new(config, weights).await?;   // upload + compile + warm-up
/// let hidden = model.hidden_states(&ids).await?;      // ids.len() × hidden_size
/// let v = memeboard_embed::sentence_vector(&hidden, model.config().hidden_size);
/// let many = model.hidden_states_batch(&[&ids_a, &ids_b]).await?; // one pass
/// ```
pub struct GpuBert {
    config: BertConfig,
    adapter_info: String,
    /// A software adapter (SwiftShader, lavapipe, WARP): the register matmul is faster.
    software: bool,
    /// Whether the tiled matmul was built (the device allows it, and it may be used).
    tiled: bool,
    options: GpuOptions,
    /// Rows the activation buffers hold.
    capacity: usize,
    device: wgpu::Device,
    queue: wgpu::Queue,
    /// Word embedding (`vocab × H`), position embedding (`positions × H`) and token type 0
    /// (`H`), kept on the CPU for the gather.
    word: Vec<f32>,
    position: Vec<f32>,
    token_type0: Vec<f32>,
    /// Matmul pipelines, `[registers, tiled][epilogue]`, sharing one bind group layout.
    matmul: [[wgpu::ComputePipeline; 3]; 2],
    attention: wgpu::ComputePipeline,
    layernorm: wgpu::ComputePipeline,
    steps: Vec<Step>,
    params: wgpu::Buffer,
    /// Hidden states in and out (`capacity × H`).
    hidden: wgpu::Buffer,
    /// `(first row, length)` of each row's sentence (`capacity` pairs of u32).
    spans: wgpu::Buffer,
    /// Weight buffers, kept with the bind groups that use them.
    _weights: Vec<wgpu::Buffer>,
    _activations: Vec<wgpu::Buffer>,
}

impl std::fmt::Debug for GpuBert {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GpuBert")
            .field("config", &self.config)
            .field("adapter_info", &self.adapter_info)
            .field("options", &self.options)
            .field("capacity", &self.capacity)
            .field("steps", &self.steps.len())
            .finish_non_exhaustive()
    }
}
impl GpuBert {
    /// Uploads the weights (f32, as read from the checkpoint; the word embedding stays on the
    /// CPU), compiles the kernels and runs a warm-up pass, so that the first real call costs
    /// no more than the next ones. Fails, with the reason, when there is no adapter, when a
    /// device limit is too small for this model (the error names the limit), or when the
    /// device reports an error.
    pub async fn new(config: BertConfig, weights: Weights) -> Result<Self, EmbedError> {
        Self::with_options(config, weights, GpuOptions::default()).await
    }

    /// [`GpuBert::new`] with a chosen matmul kernel and batch capacity.
    pub async fn with_options(
        config: BertConfig,
        mut weights: Weights,
        options: GpuOptions,
    ) -> Result<Self, EmbedError> {
        config.validate()?;
        let needs = Needs::of(&config, &options)?;
        let (adapter, adapter_info) = request_adapter().await?;
        let software = adapter.get_info().device_type == wgpu::DeviceType::Cpu;
        let adapter_limits = adapter.limits();
        let mut limits = needs.limits(&adapter_limits)?;
        if tiled_fits(&adapter_limits) {
            limits.max_compute_invocations_per_workgroup = limits
                .max_compute_invocations_per_workgroup
                .max(TILED_INVOCATIONS);
            limits.max_compute_workgroup_storage_size = limits
                .max_compute_workgroup_storage_size
                .max(TILED_WORKGROUP_BYTES);
        } else if options.matmul == MatmulKernel::Tiled {
            return Err(gpu_err(format!(
                "the tiled matmul needs {TILED_INVOCATIONS} invocations per workgroup and \
                 {TILED_WORKGROUP_BYTES} bytes of workgroup memory; the adapter allows {} and {}",
                adapter_limits.max_compute_invocations_per_workgroup,
                adapter_limits.max_compute_workgroup_storage_size
            )));
        }
        // Software adapters never take the tiled kernel unless forced: skip compiling it.
        let tiled = tiled_fits(&limits) && (!software || options.matmul == MatmulKernel::Tiled);
        let (device, queue) = request_device(&adapter, limits).await?;
        let scopes = Scopes::push(&device);
        let setup = Setup {
            adapter_info,
            software,
            tiled,
            options,
            capacity: needs.rows,
        };
        let built = Self::build(config, &mut weights, device, queue, setup);
        // Pop the scopes (synchronously, whatever happened) before awaiting anything.
        let errors = scopes.pop();
        let model = built?;
        errors.await?;
        // The first dispatches compile the pipelines in some browsers: do it now.
        model.hidden_states_batch(&[&[0, 0], &[0]]).await?;
        Ok(model)
    }

    /// The model's configuration.
    pub fn config(&self) -> &BertConfig {
        &self.config
    }

    /// The adapter in use, as the browser (or the Vulkan driver) describes it, e.g. `google
    /// swiftshader, software fallback adapter` or `llvmpipe (LLVM 15.0.6, 256 bits), Vulkan,
    /// llvmpipe Mesa 22.3.6, software fallback adapter`.
    pub fn adapter_info(&self) -> &str {
        &self.adapter_info
    }

    /// Rows (tokens of all sentences together) one pass takes.
    pub fn batch_capacity(&self) -> usize {
        self.capacity
    }

    /// Whether a pass of `rows` rows uses the tiled matmul.
    pub fn uses_tiled_matmul(&self, rows: usize) -> bool {
        if !self.tiled {
            return false;
        }
        match self.options.matmul {
            MatmulKernel::Registers => false,
            MatmulKernel::Tiled => true,
            MatmulKernel::Auto => !self.software && rows >= TILED_MIN_ROWS as usize,
        }
    }
}
