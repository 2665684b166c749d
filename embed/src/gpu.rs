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

use crate::bert::BertConfig;
use crate::kernels::{
    attention_source, layernorm_source, matmul_source, matmul_tiled_source, Epilogue, INVOCATIONS,
    MATMUL_STORAGE_BUFFERS, MATMUL_TILE, TILED_INVOCATIONS, TILED_TILE, TILED_WORKGROUP_BYTES,
    VECTOR_WIDTH,
};
use crate::weights::Weights;
use crate::EmbedError;
#[cfg(target_arch = "wasm32")]
use wasm_bindgen::JsCast;
use wgpu::util::DeviceExt;

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

/// Sizes the forward pass needs from the device, computed from the configuration before any
/// GPU object is created.
#[derive(Debug, Clone, PartialEq)]
struct Needs {
    /// Rows of the activation buffers.
    rows: usize,
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
    fn of(c: &BertConfig, options: &GpuOptions) -> Result<Self, EmbedError> {
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
    fn limits(&self, adapter: &wgpu::Limits) -> Result<wgpu::Limits, EmbedError> {
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
fn tiled_fits(limits: &wgpu::Limits) -> bool {
    limits.max_compute_invocations_per_workgroup >= TILED_INVOCATIONS
        && limits.max_compute_workgroup_size_x >= TILED_TILE.1 / 4
        && limits.max_compute_workgroup_size_y >= TILED_TILE.0 / 4
        && limits.max_compute_workgroup_storage_size >= TILED_WORKGROUP_BYTES
}

/// Describes an adapter for people: the browser's `GPUAdapterInfo` fields that are set
/// (`extra`; natively the driver), the name, and whether it is a software adapter.
fn describe(info: &wgpu::AdapterInfo, extra: &str) -> String {
    let mut parts: Vec<String> = Vec::new();
    if !extra.is_empty() {
        parts.push(extra.to_owned());
    }
    if !info.name.is_empty() && !extra.contains(&info.name) {
        parts.push(info.name.clone());
    }
    if parts.is_empty() {
        parts.push("unnamed adapter".into());
    }
    if info.device_type == wgpu::DeviceType::Cpu {
        parts.push("software fallback adapter".into());
    }
    parts.join(", ")
}

/// `vendor architecture device description` of `navigator.gpu.requestAdapter()`'s `info`
/// (wgpu reports only the description); empty if unavailable.
#[cfg(target_arch = "wasm32")]
async fn js_adapter_info() -> String {
    use js_sys::Reflect;
    let get = |o: &wasm_bindgen::JsValue, k: &str| Reflect::get(o, &k.into()).ok();
    let Some(gpu) = get(&js_sys::global(), "navigator").and_then(|n| get(&n, "gpu")) else {
        return String::new();
    };
    let Some(request) = get(&gpu, "requestAdapter")
        .and_then(|f| f.dyn_into::<js_sys::Function>().ok())
        .and_then(|f| f.call0(&gpu).ok())
        .and_then(|p| p.dyn_into::<js_sys::Promise>().ok())
    else {
        return String::new();
    };
    let Ok(adapter) = wasm_bindgen_futures::JsFuture::from(request).await else {
        return String::new();
    };
    let Some(info) = get(&adapter, "info").filter(|i| i.is_object()) else {
        return String::new();
    };
    ["vendor", "architecture", "device", "description"]
        .iter()
        .filter_map(|k| get(&info, k).and_then(|v| v.as_string()))
        .filter(|s| !s.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

/// A WebGPU adapter from the browser, and its description; the error says why there is none.
#[cfg(target_arch = "wasm32")]
pub(crate) async fn request_adapter() -> Result<(wgpu::Adapter, String), EmbedError> {
    let has_gpu = js_sys::Reflect::get(&js_sys::global(), &"navigator".into())
        .ok()
        .and_then(|n| js_sys::Reflect::get(&n, &"gpu".into()).ok())
        .is_some_and(|g| !g.is_undefined() && !g.is_null());
    if !has_gpu {
        return Err(gpu_err(
            "navigator.gpu is missing: this browser has no WebGPU (or it is disabled)",
        ));
    }
    let instance = wgpu::Instance::new(wgpu::InstanceDescriptor {
        backends: wgpu::Backends::BROWSER_WEBGPU,
        ..wgpu::InstanceDescriptor::new_without_display_handle()
    });
    let adapter = instance
        .request_adapter(&wgpu::RequestAdapterOptions {
            power_preference: wgpu::PowerPreference::HighPerformance,
            ..Default::default()
        })
        .await
        .map_err(|_| {
            gpu_err(
                "navigator.gpu.requestAdapter() returned no adapter (the GPU may be disabled \
                 or blocklisted)",
            )
        })?;
    let info = describe(&adapter.get_info(), &js_adapter_info().await);
    Ok((adapter, info))
}

/// A Vulkan adapter (natively), preferring a hardware GPU, and its description (name,
/// driver, `software fallback adapter` for lavapipe); the error says why there is none.
#[cfg(not(target_arch = "wasm32"))]
pub async fn request_adapter() -> Result<(wgpu::Adapter, String), EmbedError> {
    let instance = wgpu::Instance::new(wgpu::InstanceDescriptor {
        backends: wgpu::Backends::VULKAN,
        ..wgpu::InstanceDescriptor::new_without_display_handle()
    });
    let adapter = instance
        .request_adapter(&wgpu::RequestAdapterOptions {
            power_preference: wgpu::PowerPreference::HighPerformance,
            ..Default::default()
        })
        .await
        .map_err(|e| {
            gpu_err(format!(
                "no Vulkan adapter ({e}): install a Vulkan driver (Debian: libvulkan1 and \
                 mesa-vulkan-drivers for the lavapipe software adapter)"
            ))
        })?;
    let info = adapter.get_info();
    let driver = [info.driver.as_str(), info.driver_info.as_str()]
        .iter()
        .filter(|s| !s.is_empty())
        .copied()
        .collect::<Vec<_>>()
        .join(" ");
    let mut described = describe(&info, "");
    described.push_str("; Vulkan");
    if !driver.is_empty() {
        described.push_str(&format!(", driver {driver}"));
    }
    Ok((adapter, described))
}

/// A device with `limits` (`requestDevice`), with uncaptured errors logged (browser console,
/// or stderr natively) rather than lost.
pub(crate) async fn request_device(
    adapter: &wgpu::Adapter,
    limits: wgpu::Limits,
) -> Result<(wgpu::Device, wgpu::Queue), EmbedError> {
    let (device, queue) = adapter
        .request_device(&wgpu::DeviceDescriptor {
            label: Some("memeboard-embed"),
            required_limits: limits,
            ..Default::default()
        })
        .await
        .map_err(|e| gpu_err(format!("requestDevice failed: {e}")))?;
    device.on_uncaptured_error(std::sync::Arc::new(|e: wgpu::Error| {
        #[cfg(target_arch = "wasm32")]
        web_sys::console::error_1(&format!("memeboard-embed WebGPU error: {e}").into());
        #[cfg(not(target_arch = "wasm32"))]
        eprintln!("memeboard-embed GPU error: {e}");
    }));
    Ok((device, queue))
}

/// Runs a future of this module to completion on the current thread (native only: the
/// futures of `wgpu`'s native backends are ready once [`read_back`] has polled the device,
/// so a park/unpark waker is all a test, benchmark or server thread needs).
///
/// ```ignore
/// let model = memeboard_embed::gpu::block_on(GpuBert::new(config, weights))?;
/// ```
#[cfg(not(target_arch = "wasm32"))]
pub fn block_on<F: std::future::Future>(future: F) -> F::Output {
    use std::task::{Context, Poll, Wake, Waker};
    struct Unpark(std::thread::Thread);
    impl Wake for Unpark {
        fn wake(self: std::sync::Arc<Self>) {
            self.0.unpark();
        }
    }
    let waker = Waker::from(std::sync::Arc::new(Unpark(std::thread::current())));
    let mut context = Context::from_waker(&waker);
    let mut future = std::pin::pin!(future);
    loop {
        match future.as_mut().poll(&mut context) {
            Poll::Ready(out) => return out,
            Poll::Pending => std::thread::park(),
        }
    }
}

/// Reads `bytes` of `buffer` back to the CPU (copy to a staging buffer, map, await).
async fn read_back(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    mut encoder: wgpu::CommandEncoder,
    buffer: &wgpu::Buffer,
    bytes: u64,
) -> Result<Vec<f32>, EmbedError> {
    let staging = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("read-back"),
        size: bytes,
        usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    encoder.copy_buffer_to_buffer(buffer, 0, &staging, 0, bytes);
    queue.submit([encoder.finish()]);
    let (tx, rx) = futures_channel::oneshot::channel();
    staging.slice(..).map_async(wgpu::MapMode::Read, move |r| {
        let _ = tx.send(r);
    });
    // Natively nothing runs the callbacks but a poll: wait for the submission here.
    #[cfg(not(target_arch = "wasm32"))]
    device
        .poll(wgpu::PollType::wait_indefinitely())
        .map_err(|e| gpu_err(format!("waiting for the GPU failed: {e}")))?;
    rx.await
        .map_err(|_| gpu_err("the read-back was cancelled (device lost?)"))?
        .map_err(|e| gpu_err(format!("mapping the result failed: {e}")))?;
    let out = {
        let view = staging
            .slice(..)
            .get_mapped_range()
            .map_err(|e| gpu_err(format!("reading the mapped result failed: {e}")))?;
        view.chunks_exact(4)
            .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .collect()
    };
    staging.unmap();
    staging.destroy();
    Ok(out)
}

/// Errors caught by the device's error scopes (validation, out-of-memory, internal), pushed
/// by [`Scopes::push`] and popped, synchronously and in reverse order, by [`Scopes::pop`];
/// the returned future only awaits the browser's answer, so overlapping calls cannot
/// interleave pushes and pops.
struct Scopes(Vec<wgpu::ErrorScopeGuard>);

impl Scopes {
    fn push(device: &wgpu::Device) -> Self {
        Self(vec![
            device.push_error_scope(wgpu::ErrorFilter::Validation),
            device.push_error_scope(wgpu::ErrorFilter::OutOfMemory),
            device.push_error_scope(wgpu::ErrorFilter::Internal),
        ])
    }

    fn pop(mut self) -> impl std::future::Future<Output = Result<(), EmbedError>> {
        let mut futures = Vec::new();
        while let Some(guard) = self.0.pop() {
            futures.push(guard.pop());
        }
        async move {
            for f in futures {
                if let Some(e) = f.await {
                    return Err(gpu_err(e.to_string()));
                }
            }
            Ok(())
        }
    }
}

impl Drop for Scopes {
    /// Scopes not popped (an early return) are dropped innermost first, as wgpu requires.
    fn drop(&mut self) {
        while let Some(guard) = self.0.pop() {
            drop(guard);
        }
    }
}

/// Builder state of [`GpuBert::new`].
struct Upload<'a> {
    device: &'a wgpu::Device,
    buffers: Vec<wgpu::Buffer>,
}

impl Upload<'_> {
    fn tensor(&mut self, label: &str, data: &[f32]) -> usize {
        let buffer = self
            .device
            .create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some(label),
                contents: bytemuck::cast_slice(data),
                usage: wgpu::BufferUsages::STORAGE,
            });
        self.buffers.push(buffer);
        self.buffers.len() - 1
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

    fn build(
        config: BertConfig,
        w: &mut Weights,
        device: wgpu::Device,
        queue: wgpu::Queue,
        setup: Setup,
    ) -> Result<Self, EmbedError> {
        let c = &config;
        let (h, inter, positions) = (
            c.hidden_size,
            c.intermediate_size,
            c.max_position_embeddings,
        );
        let rows = setup.capacity;
        // Checks every shape first (as CpuBert does), then uploads.
        let word = w.take("embeddings.word_embeddings.weight", &[c.vocab_size, h])?;
        let position = w.take("embeddings.position_embeddings.weight", &[positions, h])?;
        let token_type = w.take(
            "embeddings.token_type_embeddings.weight",
            &[c.type_vocab_size, h],
        )?;
        let mut up = Upload {
            device: &device,
            buffers: Vec::new(),
        };
        let norm = |up: &mut Upload<'_>, w: &mut Weights, prefix: &str| {
            let g = w.take(&format!("{prefix}.weight"), &[h])?;
            let b = w.take(&format!("{prefix}.bias"), &[h])?;
            Ok::<_, EmbedError>((up.tensor(prefix, &g.data), up.tensor(prefix, &b.data)))
        };
        let embedding_norm = norm(&mut up, w, "embeddings.LayerNorm")?;
        struct LayerBuffers {
            qkv: (usize, usize),
            attention_output: (usize, usize),
            attention_norm: (usize, usize),
            intermediate: (usize, usize),
            output: (usize, usize),
            output_norm: (usize, usize),
        }
        let linear = |up: &mut Upload<'_>, w: &mut Weights, prefix: &str, out, inp| {
            let weight = w.take(&format!("{prefix}.weight"), &[out, inp])?;
            let bias = w.take(&format!("{prefix}.bias"), &[out])?;
            Ok::<_, EmbedError>((
                up.tensor(prefix, &weight.data),
                up.tensor(prefix, &bias.data),
            ))
        };
        let mut layers = Vec::with_capacity(c.num_hidden_layers);
        for i in 0..c.num_hidden_layers {
            let p = format!("encoder.layer.{i}");
            // Q, K and V stacked into one [3H, H] weight: one matmul gives [q | k | v].
            let mut qkv_weight = Vec::with_capacity(3 * h * h);
            let mut qkv_bias = Vec::with_capacity(3 * h);
            for part in ["query", "key", "value"] {
                let prefix = format!("{p}.attention.self.{part}");
                qkv_weight.extend(w.take(&format!("{prefix}.weight"), &[h, h])?.data);
                qkv_bias.extend(w.take(&format!("{prefix}.bias"), &[h])?.data);
            }
            let qkv = (up.tensor("qkv", &qkv_weight), up.tensor("qkv", &qkv_bias));
            drop((qkv_weight, qkv_bias));
            layers.push(LayerBuffers {
                qkv,
                attention_output: linear(&mut up, w, &format!("{p}.attention.output.dense"), h, h)?,
                attention_norm: norm(&mut up, w, &format!("{p}.attention.output.LayerNorm"))?,
                intermediate: linear(&mut up, w, &format!("{p}.intermediate.dense"), inter, h)?,
                output: linear(&mut up, w, &format!("{p}.output.dense"), h, inter)?,
                output_norm: norm(&mut up, w, &format!("{p}.output.LayerNorm"))?,
            });
        }
        let weight_buffers = up.buffers;

        // Activations, sized for the largest batch.
        let activation = |label: &str, width: usize, copy_dst: bool| {
            let mut usage = wgpu::BufferUsages::STORAGE;
            if copy_dst {
                usage |= wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::COPY_SRC;
            }
            device.create_buffer(&wgpu::BufferDescriptor {
                label: Some(label),
                size: (rows * width * 4) as u64,
                usage,
                mapped_at_creation: false,
            })
        };
        let hidden = activation("hidden", h, true);
        let qkv = activation("qkv", 3 * h, false);
        let context = activation("context", h, false);
        let attended = activation("attended", h, false);
        let intermediate = activation("intermediate", inter, false);
        let spans = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("spans"),
            size: (rows * 8) as u64,
            usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });

        // Pipelines. The matmuls share one explicit layout so that a step's bind group
        // serves both kernels.
        let module = |label: &str, source: String| {
            device.create_shader_module(wgpu::ShaderModuleDescriptor {
                label: Some(label),
                source: wgpu::ShaderSource::Wgsl(source.into()),
            })
        };
        let storage = |binding: u32, read_only: bool| wgpu::BindGroupLayoutEntry {
            binding,
            visibility: wgpu::ShaderStages::COMPUTE,
            ty: wgpu::BindingType::Buffer {
                ty: wgpu::BufferBindingType::Storage { read_only },
                has_dynamic_offset: false,
                min_binding_size: None,
            },
            count: None,
        };
        let mut matmul_entries = vec![wgpu::BindGroupLayoutEntry {
            binding: 0,
            visibility: wgpu::ShaderStages::COMPUTE,
            ty: wgpu::BindingType::Buffer {
                ty: wgpu::BufferBindingType::Uniform,
                has_dynamic_offset: false,
                min_binding_size: None,
            },
            count: None,
        }];
        matmul_entries.extend((1..=4).map(|b| storage(b, true)));
        matmul_entries.push(storage(5, false));
        let matmul_group = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("matmul"),
            entries: &matmul_entries,
        });
        let matmul_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("matmul"),
            bind_group_layouts: &[Some(&matmul_group)],
            immediate_size: 0,
        });
        let pipeline =
            |label: &str, layout: Option<&wgpu::PipelineLayout>, module: &wgpu::ShaderModule| {
                device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
                    label: Some(label),
                    layout,
                    module,
                    entry_point: Some("main"),
                    compilation_options: Default::default(),
                    cache: None,
                })
            };
        let registers = Epilogue::ALL.map(|e| {
            let m = module("matmul.wgsl", matmul_source(e));
            pipeline("matmul", Some(&matmul_layout), &m)
        });
        // Without the tiled kernel (limits, or a software adapter), its slots hold the
        // register kernel, and `uses_tiled_matmul` is always false.
        let tiled = Epilogue::ALL.map(|e| {
            let m = if setup.tiled {
                module("matmul_tiled.wgsl", matmul_tiled_source(e))
            } else {
                module("matmul.wgsl", matmul_source(e))
            };
            pipeline("matmul-tiled", Some(&matmul_layout), &m)
        });
        let matmul = [registers, tiled];
        let attention = pipeline(
            "attention",
            None,
            &module("attention.wgsl", attention_source(positions as u32)),
        );
        let layernorm = pipeline(
            "layernorm",
            None,
            &module("layernorm.wgsl", layernorm_source()),
        );

        // The dispatch list and its bind groups (one parameter slot each).
        let steps_count = 1 + 7 * c.num_hidden_layers;
        let params = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("params"),
            size: steps_count as u64 * PARAM_SLOT,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let wb = |i: usize| &weight_buffers[i];
        let mut steps: Vec<Step> = Vec::with_capacity(steps_count);
        let mut add = |kind: StepKind, buffers: &[&wgpu::Buffer]| {
            let slot = steps.len() as u64;
            let layout = match kind {
                StepKind::Matmul { .. } => matmul_group.clone(),
                StepKind::Attention => attention.get_bind_group_layout(0),
                StepKind::LayerNorm => layernorm.get_bind_group_layout(0),
            };
            let mut entries = vec![wgpu::BindGroupEntry {
                binding: 0,
                resource: wgpu::BindingResource::Buffer(wgpu::BufferBinding {
                    buffer: &params,
                    offset: slot * PARAM_SLOT,
                    size: wgpu::BufferSize::new(16),
                }),
            }];
            for (i, b) in buffers.iter().enumerate() {
                entries.push(wgpu::BindGroupEntry {
                    binding: i as u32 + 1,
                    resource: b.as_entire_binding(),
                });
            }
            let bind_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
                label: None,
                layout: &layout,
                entries: &entries,
            });
            steps.push(Step { kind, bind_group });
        };
        let (hh, ii) = (h as u32, inter as u32);
        add(
            StepKind::LayerNorm,
            &[&hidden, wb(embedding_norm.0), wb(embedding_norm.1)],
        );
        for l in &layers {
            let mm = |epilogue, n, k| StepKind::Matmul { epilogue, n, k };
            // Bindings: x, w, bias, residual (the bias again when unused), y.
            let (w_, b_) = l.qkv;
            add(
                mm(Epilogue::Bias, 3 * hh, hh),
                &[&hidden, wb(w_), wb(b_), wb(b_), &qkv],
            );
            add(StepKind::Attention, &[&qkv, &spans, &context]);
            let (w_, b_) = l.attention_output;
            add(
                mm(Epilogue::Residual, hh, hh),
                &[&context, wb(w_), wb(b_), &hidden, &attended],
            );
            add(
                StepKind::LayerNorm,
                &[&attended, wb(l.attention_norm.0), wb(l.attention_norm.1)],
            );
            let (w_, b_) = l.intermediate;
            add(
                mm(Epilogue::Gelu, ii, hh),
                &[&attended, wb(w_), wb(b_), wb(b_), &intermediate],
            );
            let (w_, b_) = l.output;
            add(
                mm(Epilogue::Residual, hh, ii),
                &[&intermediate, wb(w_), wb(b_), &attended, &hidden],
            );
            add(
                StepKind::LayerNorm,
                &[&hidden, wb(l.output_norm.0), wb(l.output_norm.1)],
            );
        }

        Ok(Self {
            token_type0: token_type.data[..h].to_vec(),
            word: word.data,
            position: position.data,
            adapter_info: setup.adapter_info,
            software: setup.software,
            tiled: setup.tiled,
            options: setup.options,
            capacity: rows,
            matmul,
            attention,
            layernorm,
            steps,
            params,
            hidden,
            spans,
            _weights: weight_buffers,
            _activations: vec![qkv, context, attended, intermediate],
            device,
            queue,
            config,
        })
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

/// What [`GpuBert::build`] needs besides the model.
struct Setup {
    adapter_info: String,
    software: bool,
    tiled: bool,
    options: GpuOptions,
    capacity: usize,
}
