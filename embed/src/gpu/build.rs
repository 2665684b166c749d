//! Setting a [`GpuBert`] up on its device ([`GpuBert::build`]): the weights uploaded, the
//! activation buffers allocated, the pipelines compiled, and the dispatch list recorded with
//! one bind group and one parameter slot per step.

use super::{GpuBert, GpuOptions, Step, StepKind, PARAM_SLOT};
use crate::bert::BertConfig;
use crate::kernels::{
    attention_source, layernorm_source, matmul_source, matmul_tiled_source, Epilogue,
};
use crate::weights::Weights;
use crate::EmbedError;
use wgpu::util::DeviceExt;

/// What [`GpuBert::build`] needs besides the model.
pub(super) struct Setup {
    pub(super) adapter_info: String,
    pub(super) software: bool,
    pub(super) tiled: bool,
    pub(super) options: GpuOptions,
    pub(super) capacity: usize,
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

/// One layer's `(weight, bias)` (or `(gain, bias)`) pairs, as indices into the weight buffers.
struct LayerBuffers {
    qkv: (usize, usize),
    attention_output: (usize, usize),
    attention_norm: (usize, usize),
    intermediate: (usize, usize),
    output: (usize, usize),
    output_norm: (usize, usize),
}

/// The uploaded weights: their buffers, and which of them each step binds.
struct Uploaded {
    buffers: Vec<wgpu::Buffer>,
    embedding_norm: (usize, usize),
    layers: Vec<LayerBuffers>,
}

/// Uploads every weight the GPU needs (all but the embeddings gathered on the CPU), checking
/// each shape as it is taken.
fn upload_weights(
    c: &BertConfig,
    w: &mut Weights,
    device: &wgpu::Device,
) -> Result<Uploaded, EmbedError> {
    let (h, inter) = (c.hidden_size, c.intermediate_size);
    let mut up = Upload {
        device,
        buffers: Vec::new(),
    };
    let norm = |up: &mut Upload<'_>, w: &mut Weights, prefix: &str| {
        let g = w.take(&format!("{prefix}.weight"), &[h])?;
        let b = w.take(&format!("{prefix}.bias"), &[h])?;
        Ok::<_, EmbedError>((up.tensor(prefix, &g.data), up.tensor(prefix, &b.data)))
    };
    let embedding_norm = norm(&mut up, w, "embeddings.LayerNorm")?;
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
    Ok(Uploaded {
        buffers: up.buffers,
        embedding_norm,
        layers,
    })
}

/// The activation buffers, sized for the largest batch (`rows` rows).
struct Activations {
    hidden: wgpu::Buffer,
    qkv: wgpu::Buffer,
    context: wgpu::Buffer,
    attended: wgpu::Buffer,
    intermediate: wgpu::Buffer,
    spans: wgpu::Buffer,
}

impl Activations {
    fn new(device: &wgpu::Device, rows: usize, h: usize, inter: usize) -> Self {
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
        Self {
            hidden,
            qkv,
            context,
            attended,
            intermediate,
            spans,
        }
    }
}

/// The compiled kernels: the matmuls share one explicit layout (`matmul_group`) so that a
/// step's bind group serves both kernels.
struct Pipelines {
    matmul_group: wgpu::BindGroupLayout,
    /// `[registers, tiled][epilogue]`.
    matmul: [[wgpu::ComputePipeline; 3]; 2],
    attention: wgpu::ComputePipeline,
    layernorm: wgpu::ComputePipeline,
}

impl Pipelines {
    fn new(device: &wgpu::Device, positions: u32, with_tiled: bool) -> Self {
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
            let m = if with_tiled {
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
            &module("attention.wgsl", attention_source(positions)),
        );
        let layernorm = pipeline(
            "layernorm",
            None,
            &module("layernorm.wgsl", layernorm_source()),
        );
        Self {
            matmul_group,
            matmul,
            attention,
            layernorm,
        }
    }
}

/// The dispatch list and its bind groups (one parameter slot each), and the parameter buffer.
fn record_steps(
    device: &wgpu::Device,
    c: &BertConfig,
    pipelines: &Pipelines,
    a: &Activations,
    weights: &Uploaded,
) -> (wgpu::Buffer, Vec<Step>) {
    let (h, inter) = (c.hidden_size, c.intermediate_size);
    let Activations {
        hidden,
        qkv,
        context,
        attended,
        intermediate,
        spans,
    } = a;
    let steps_count = 1 + 7 * c.num_hidden_layers;
    let params = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("params"),
        size: steps_count as u64 * PARAM_SLOT,
        usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    let wb = |i: usize| &weights.buffers[i];
    let mut steps: Vec<Step> = Vec::with_capacity(steps_count);
    let mut add = |kind: StepKind, buffers: &[&wgpu::Buffer]| {
        let slot = steps.len() as u64;
        let layout = match kind {
            StepKind::Matmul { .. } => pipelines.matmul_group.clone(),
            StepKind::Attention => pipelines.attention.get_bind_group_layout(0),
            StepKind::LayerNorm => pipelines.layernorm.get_bind_group_layout(0),
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
    let embedding_norm = weights.embedding_norm;
    add(
        StepKind::LayerNorm,
        &[hidden, wb(embedding_norm.0), wb(embedding_norm.1)],
    );
    for l in &weights.layers {
        let mm = |epilogue, n, k| StepKind::Matmul { epilogue, n, k };
        // Bindings: x, w, bias, residual (the bias again when unused), y.
        let (w_, b_) = l.qkv;
        add(
            mm(Epilogue::Bias, 3 * hh, hh),
            &[hidden, wb(w_), wb(b_), wb(b_), qkv],
        );
        add(StepKind::Attention, &[qkv, spans, context]);
        let (w_, b_) = l.attention_output;
        add(
            mm(Epilogue::Residual, hh, hh),
            &[context, wb(w_), wb(b_), hidden, attended],
        );
        add(
            StepKind::LayerNorm,
            &[attended, wb(l.attention_norm.0), wb(l.attention_norm.1)],
        );
        let (w_, b_) = l.intermediate;
        add(
            mm(Epilogue::Gelu, ii, hh),
            &[attended, wb(w_), wb(b_), wb(b_), intermediate],
        );
        let (w_, b_) = l.output;
        add(
            mm(Epilogue::Residual, hh, ii),
            &[intermediate, wb(w_), wb(b_), attended, hidden],
        );
        add(
            StepKind::LayerNorm,
            &[hidden, wb(l.output_norm.0), wb(l.output_norm.1)],
        );
    }
    (params, steps)
}

impl GpuBert {
    /// Takes the model's tensors from `w` (checking every shape), uploads them and builds
    /// the pipelines, activations and dispatch list of the forward pass.
    pub(super) fn build(
        config: BertConfig,
        w: &mut Weights,
        device: wgpu::Device,
        queue: wgpu::Queue,
        setup: Setup,
    ) -> Result<Self, EmbedError> {
        let c = &config;
        let (h, positions) = (c.hidden_size, c.max_position_embeddings);
        let rows = setup.capacity;
        // Checks every shape first (as CpuBert does), then uploads.
        let word = w.take("embeddings.word_embeddings.weight", &[c.vocab_size, h])?;
        let position = w.take("embeddings.position_embeddings.weight", &[positions, h])?;
        let token_type = w.take(
            "embeddings.token_type_embeddings.weight",
            &[c.type_vocab_size, h],
        )?;
        let weights = upload_weights(c, w, &device)?;
        let activations = Activations::new(&device, rows, h, c.intermediate_size);
        let pipelines = Pipelines::new(&device, positions as u32, setup.tiled);
        let (params, steps) = record_steps(&device, c, &pipelines, &activations, &weights);
        let Activations {
            hidden,
            qkv,
            context,
            attended,
            intermediate,
            spans,
        } = activations;
        Ok(Self {
            token_type0: token_type.data[..h].to_vec(),
            word: word.data,
            position: position.data,
            adapter_info: setup.adapter_info,
            software: setup.software,
            tiled: setup.tiled,
            options: setup.options,
            capacity: rows,
            matmul: pipelines.matmul,
            attention: pipelines.attention,
            layernorm: pipelines.layernorm,
            steps,
            params,
            hidden,
            spans,
            _weights: weights.buffers,
            _activations: vec![qkv, context, attended, intermediate],
            device,
            queue,
            config,
        })
    }
}
