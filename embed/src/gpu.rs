//! The BERT forward pass on WebGPU ([`GpuBert`]): the same model as
//! [`CpuBert`](crate::CpuBert), in f32 throughout, run by our own WGSL compute kernels
//! (`src/kernels/*.wgsl`, assembled by the `kernels` module) through `wgpu` (browser WebGPU
//! backend; wasm32 with the `browser` feature only). Hidden states equal the CPU path's to
//! float rounding: cosines differ by ≤ 2e-7 on the 251 test pairs.
//!
//! Layout of the work, for `T` tokens, hidden size `H`, intermediate size `I`:
//! - **embeddings on the CPU**: `(word[id] + token_type[0]) + position[t]` is a gather of
//!   `T` rows, trivial on the CPU; doing it here keeps the largest tensor (m3e-small's
//!   21128×512 word embedding, 43 MB in f32) off the GPU, so no binding comes near the
//!   adapter's `maxStorageBufferBindingSize` and 43 MB less are uploaded. The `T×H` sums are
//!   written to the GPU with the per-call parameters;
//! - **on the GPU**, one command buffer per sentence (1 + 7 × layers dispatches):
//!   embedding LayerNorm, then per layer: fused Q/K/V projection (`matmul.wgsl`, weights
//!   concatenated to one `3H×H` matrix at upload) → attention, all heads (`attention.wgsl`:
//!   scores, softmax with workgroup max/sum reductions, weighted sum) → output projection +
//!   bias + residual add (`matmul.wgsl` epilogue 2) → LayerNorm (`layernorm.wgsl`, workgroup
//!   reductions) → feed-forward dense + bias + exact GELU (`matmul.wgsl` epilogue 1, erf from
//!   `erf.wgsl`) → dense + bias + residual add → LayerNorm. Softmax, GELU and the residual
//!   adds are fused into the kernels that produce their inputs rather than being separate
//!   dispatches: each would otherwise cost a dispatch and a round trip of its tensor through
//!   memory;
//! - the last hidden states are copied to a mappable buffer and read back
//!   ([`GpuBert::hidden_states`], async).
//!
//! Weights are uploaded once, as f32 in their PyTorch layout (`[out, in]`), one storage
//! buffer per tensor; activations live in buffers sized for the model's
//! `max_position_embeddings`, so every bind group is built once at load. Kernel parameters
//! (which depend on `T`) sit in one uniform buffer, a 256-byte-aligned slot per dispatch,
//! rewritten per call. Calls may overlap: the queue orders each call's parameter write,
//! dispatches and copy, and every call reads back through its own staging buffer.
//!
//! Limits are checked before the device is requested ([`GpuBert::new`] fails with an error
//! naming the WebGPU limit, so callers can fall back to the CPU); uploads, pipeline
//! compilation, a warm-up pass and every later pass run inside error scopes, so a driver or
//! shader-compiler failure becomes an [`EmbedError::Gpu`] rather than garbage output.
//!
//! Speed on SwiftShader (Chromium's software WebGPU adapter, 2 shared x86 cores, the CI
//! set-up): m3e-small ≈ 1.2 sentences/s (≈ 20 ms per token), tiny-bert ≈ 20–30 sentences/s
//! (dispatch-bound); set-up (upload + compile + warm-up) ≈ 1.3 s for m3e-small. The
//! wasm CPU path is ≈ 25 sentences/s there, so on a machine without a hardware GPU the
//! CPU path is the faster one; a hardware adapter runs these kernels in milliseconds.

use crate::bert::BertConfig;
use crate::kernels::{
    attention_source, layernorm_source, matmul_source, Epilogue, INVOCATIONS,
    MATMUL_STORAGE_BUFFERS, MATMUL_TILE, VECTOR_WIDTH,
};
use crate::weights::Weights;
use crate::EmbedError;
use wasm_bindgen::JsCast;
use wgpu::util::DeviceExt;

/// Bytes of one kernel-parameter slot (≥ `minUniformBufferOffsetAlignment`, 256 by default).
const PARAM_SLOT: u64 = 256;

fn gpu_err(msg: impl Into<String>) -> EmbedError {
    EmbedError::Gpu(msg.into())
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
/// ```
pub struct GpuBert {
    config: BertConfig,
    adapter_info: String,
    device: wgpu::Device,
    queue: wgpu::Queue,
    /// Word embedding (`vocab × H`), position embedding (`positions × H`) and token type 0
    /// (`H`), kept on the CPU for the gather.
    word: Vec<f32>,
    position: Vec<f32>,
    token_type0: Vec<f32>,
    matmul: [wgpu::ComputePipeline; 3],
    attention: wgpu::ComputePipeline,
    layernorm: wgpu::ComputePipeline,
    steps: Vec<Step>,
    params: wgpu::Buffer,
    /// Hidden states in and out (`positions × H`).
    hidden: wgpu::Buffer,
    /// Weight buffers, kept with the bind groups that use them.
    _weights: Vec<wgpu::Buffer>,
    _activations: Vec<wgpu::Buffer>,
}

impl std::fmt::Debug for GpuBert {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GpuBert")
            .field("config", &self.config)
            .field("adapter_info", &self.adapter_info)
            .field("steps", &self.steps.len())
            .finish_non_exhaustive()
    }
}

/// Sizes the forward pass needs from the device, computed from the configuration before any
/// GPU object is created.
#[derive(Debug, Clone, PartialEq)]
struct Needs {
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
    fn of(c: &BertConfig) -> Result<Self, EmbedError> {
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
        let (h, i, t) = (
            c.hidden_size as u64,
            c.intermediate_size as u64,
            c.max_position_embeddings as u64,
        );
        let candidates = [
            (
                3 * h * h * 4,
                format!("the fused Q/K/V weight ({}×{h} f32)", 3 * h),
            ),
            (i * h * 4, format!("a feed-forward weight ({i}×{h} f32)")),
            (
                t * i * 4,
                format!("the feed-forward activations ({t} positions × {i} f32)"),
            ),
            (
                t * 3 * h * 4,
                format!("the Q/K/V activations ({t} positions × {} f32)", 3 * h),
            ),
        ];
        let (binding, binding_what) = candidates
            .into_iter()
            .max_by_key(|(bytes, _)| *bytes)
            .unwrap_or_default();
        let positions = u32::try_from(c.max_position_embeddings)
            .map_err(|_| gpu_err("max_position_embeddings does not fit in u32"))?;
        // The attention kernel keeps one score per position, plus 64 partial sums.
        let attention_shared = positions
            .checked_add(INVOCATIONS)
            .and_then(|n| n.checked_mul(4))
            .ok_or_else(|| gpu_err("max_position_embeddings is too large"))?;
        let widest = c.intermediate_size.max(3 * c.hidden_size) as u32;
        Ok(Self {
            binding,
            binding_what,
            workgroup_storage: attention_shared,
            workgroups: positions.max(widest.div_ceil(MATMUL_TILE.1)),
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
        Ok(limits)
    }
}

/// Describes an adapter for people: the browser's `GPUAdapterInfo` fields that are set.
fn describe(info: &wgpu::AdapterInfo, js_info: &str) -> String {
    let mut parts: Vec<String> = Vec::new();
    if !js_info.is_empty() {
        parts.push(js_info.to_owned());
    }
    if !info.name.is_empty() && !js_info.contains(&info.name) {
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

/// A device with `limits` (`requestDevice`), with uncaptured errors logged to the console
/// rather than lost.
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
        web_sys::console::error_1(&format!("memeboard-embed WebGPU error: {e}").into());
    }));
    Ok((device, queue))
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
    /// no more than the next ones. Fails, with the reason, when there is no WebGPU adapter,
    /// when a device limit is too small for this model (the error names the limit), or when
    /// the device reports an error.
    pub async fn new(config: BertConfig, mut weights: Weights) -> Result<Self, EmbedError> {
        config.validate()?;
        let needs = Needs::of(&config)?;
        let (adapter, adapter_info) = request_adapter().await?;
        let limits = needs.limits(&adapter.limits())?;
        let (device, queue) = request_device(&adapter, limits).await?;
        let scopes = Scopes::push(&device);
        let built = Self::build(config, &mut weights, device, queue, adapter_info);
        // Pop the scopes (synchronously, whatever happened) before awaiting anything.
        let errors = scopes.pop();
        let model = built?;
        errors.await?;
        // The first dispatches compile the pipelines in some browsers: do it now.
        model.hidden_states(&[0, 0]).await?;
        Ok(model)
    }

    fn build(
        config: BertConfig,
        w: &mut Weights,
        device: wgpu::Device,
        queue: wgpu::Queue,
        adapter_info: String,
    ) -> Result<Self, EmbedError> {
        let c = &config;
        let (h, inter, positions) = (
            c.hidden_size,
            c.intermediate_size,
            c.max_position_embeddings,
        );
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

        // Activations, sized for the longest input.
        let activation = |label: &str, width: usize, copy_dst: bool| {
            let mut usage = wgpu::BufferUsages::STORAGE;
            if copy_dst {
                usage |= wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::COPY_SRC;
            }
            device.create_buffer(&wgpu::BufferDescriptor {
                label: Some(label),
                size: (positions * width * 4) as u64,
                usage,
                mapped_at_creation: false,
            })
        };
        let hidden = activation("hidden", h, true);
        let qkv = activation("qkv", 3 * h, false);
        let context = activation("context", h, false);
        let attended = activation("attended", h, false);
        let intermediate = activation("intermediate", inter, false);

        // Pipelines.
        let module = |label: &str, source: String| {
            device.create_shader_module(wgpu::ShaderModuleDescriptor {
                label: Some(label),
                source: wgpu::ShaderSource::Wgsl(source.into()),
            })
        };
        let pipeline = |label: &str, module: &wgpu::ShaderModule| {
            device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
                label: Some(label),
                layout: None,
                module,
                entry_point: Some("main"),
                compilation_options: Default::default(),
                cache: None,
            })
        };
        let matmul =
            Epilogue::ALL.map(|e| pipeline("matmul", &module("matmul.wgsl", matmul_source(e))));
        let attention = pipeline(
            "attention",
            &module("attention.wgsl", attention_source(positions as u32)),
        );
        let layernorm = pipeline("layernorm", &module("layernorm.wgsl", layernorm_source()));

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
            let pipeline = match kind {
                StepKind::Matmul { epilogue, .. } => &matmul[epilogue as usize],
                StepKind::Attention => &attention,
                StepKind::LayerNorm => &layernorm,
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
                layout: &pipeline.get_bind_group_layout(0),
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
            add(StepKind::Attention, &[&qkv, &context]);
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
            adapter_info,
            matmul,
            attention,
            layernorm,
            steps,
            params,
            hidden,
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

    /// The adapter in use, as the browser describes it (e.g. `google swiftshader, software
    /// fallback adapter`).
    pub fn adapter_info(&self) -> &str {
        &self.adapter_info
    }

    /// `(word + type 0) + position` for each token: the embedding sums, `ids.len() × H`.
    fn embed_tokens(&self, ids: &[u32]) -> Result<Vec<f32>, EmbedError> {
        let c = &self.config;
        let h = c.hidden_size;
        if ids.len() > c.max_position_embeddings {
            return Err(EmbedError::TooLong {
                len: ids.len(),
                max: c.max_position_embeddings,
            });
        }
        let mut x = vec![0.0f32; ids.len() * h];
        for (pos, (row, &id)) in x.chunks_exact_mut(h).zip(ids).enumerate() {
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
        Ok(x)
    }

    /// Kernel parameters of every step for `t` tokens, one 256-byte slot each.
    fn params_for(&self, t: u32) -> Vec<u8> {
        let c = &self.config;
        let (h, d) = (c.hidden_size as u32, c.head_dim() as u32);
        let scale = 1.0 / (d as f32).sqrt();
        let eps = c.layer_norm_eps as f32;
        let mut out = vec![0u8; self.steps.len() * PARAM_SLOT as usize];
        for (slot, step) in out.chunks_exact_mut(PARAM_SLOT as usize).zip(&self.steps) {
            let words: [u32; 4] = match step.kind {
                StepKind::Matmul { n, k, .. } => [t, n, k, 0],
                StepKind::Attention => [t, h, d, scale.to_bits()],
                StepKind::LayerNorm => [t, h, eps.to_bits(), 0],
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
        let x = self.embed_tokens(ids)?;
        if ids.is_empty() {
            return Ok(x);
        }
        let t = ids.len() as u32;
        let heads = self.config.num_attention_heads as u32;
        let scopes = Scopes::push(&self.device);
        self.queue
            .write_buffer(&self.params, 0, &self.params_for(t));
        self.queue
            .write_buffer(&self.hidden, 0, bytemuck::cast_slice(&x));
        let mut encoder = self
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor { label: None });
        {
            let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor::default());
            for step in &self.steps {
                let (pipeline, groups) = match step.kind {
                    StepKind::Matmul { epilogue, n, .. } => (
                        &self.matmul[epilogue as usize],
                        (n.div_ceil(MATMUL_TILE.1), t.div_ceil(MATMUL_TILE.0), 1),
                    ),
                    StepKind::Attention => (&self.attention, (t, heads, 1)),
                    StepKind::LayerNorm => (&self.layernorm, (t, 1, 1)),
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
