//! GPU embedding benchmark (not a timed test): sentences/s of [`GpuBert`] (feature `gpu`,
//! native wgpu on Vulkan) at batch 1, 8 and 32, beside the pure-Rust CPU path
//! ([`CpuBert`], one thread, one sentence at a time: its only mode) on the same sentences in
//! the same run, and the ratio. Prints the adapter first: on a machine without a GPU that is
//! lavapipe (software, CPU-bound), so only the ratio's trend across batch sizes means much.
//!
//! The sentences are the demo memes' meanings (~50 characters, ~50 tokens), cycled. Each batch
//! size runs for `MEMEBOARD_BENCH_GPU_SECONDS` (default 3), at least one batch; set-up has
//! already compiled the pipelines and run a pass. `MEMEBOARD_BENCH_GPU_MATMUL` = `auto`
//! (default), `tiled` or `registers` forces a matmul kernel, to compare them on one GPU.
//!
//! Needs the models (`scripts/model/setup-model.sh`; `MEMEBOARD_BENCH_MODELS`, default
//! `data/models`) and a Vulkan driver. Run:
//! `cargo bench -p memeboard-embed --features gpu --bench gpu` (also in `scripts/bench.sh`).

use memeboard_embed::gpu::{block_on, GpuBert, GpuOptions, MatmulKernel};
use memeboard_embed::{sentence_vector, BertConfig, CpuBert, Tokenizer, Weights};
use std::path::PathBuf;
use std::time::{Duration, Instant};

const BATCHES: [usize; 3] = [1, 8, 32];
/// The demo memes, compiled in so the binary runs anywhere (e.g. carried to a GPU machine).
const DEMO_MEMES: &str = include_str!("../../server/demo/demo_memes.json");

/// Runs `step` (which embeds `per_step` sentences) until `budget` has passed, at least once
/// (a batch of 32 takes minutes on lavapipe); sentences/s.
fn rate(budget: Duration, per_step: usize, mut step: impl FnMut(usize)) -> f64 {
    let started = Instant::now();
    let mut done = 0;
    let mut i = 0;
    while i < 1 || started.elapsed() < budget {
        step(i);
        done += per_step;
        i += 1;
    }
    done as f64 / started.elapsed().as_secs_f64()
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    let models = std::env::var("MEMEBOARD_BENCH_MODELS")
        .map(PathBuf::from)
        .unwrap_or_else(|_| root.join("data/models"));
    let dir = models.join("m3e-small");
    // f32 weights, else the browser's f16 copy (half the bytes to carry to a GPU machine;
    // both paths widen it to the same f32 values).
    let weights_file = ["model.safetensors", "model.f16.safetensors"]
        .into_iter()
        .find(|f| dir.join(f).exists());
    let Some(weights_file) = weights_file else {
        println!(
            "GPU embedding benchmark skipped: no m3e-small under {} (run scripts/model/setup-model.sh)",
            models.display()
        );
        return Ok(());
    };
    let seconds: f64 = std::env::var("MEMEBOARD_BENCH_GPU_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(3.0);
    let budget = Duration::from_secs_f64(seconds);
    let matmul = match std::env::var("MEMEBOARD_BENCH_GPU_MATMUL").as_deref() {
        Ok("tiled") => MatmulKernel::Tiled,
        Ok("registers") => MatmulKernel::Registers,
        Ok("auto") | Err(_) => MatmulKernel::Auto,
        Ok(other) => {
            return Err(format!(
                "MEMEBOARD_BENCH_GPU_MATMUL={other:?}: expected auto, tiled or registers"
            )
            .into())
        }
    };

    let config = BertConfig::from_json(&std::fs::read_to_string(dir.join("config.json"))?)?;
    let tokenizer = Tokenizer::from_json(&std::fs::read_to_string(dir.join("tokenizer.json"))?)?
        .with_max_len(config.max_position_embeddings);
    let bytes = std::fs::read(dir.join(weights_file))?;
    let memes: Vec<serde_json::Value> = serde_json::from_str(DEMO_MEMES)?;
    let ids: Vec<Vec<u32>> = memes
        .iter()
        .filter_map(|m| m["meaning"].as_str())
        .map(|s| tokenizer.encode(s))
        .collect();
    let tokens = ids.iter().map(Vec::len).sum::<usize>() as f64 / ids.len() as f64;
    let h = config.hidden_size;

    let started = Instant::now();
    let gpu = match block_on(GpuBert::with_options(
        config.clone(),
        Weights::from_safetensors(&bytes)?,
        GpuOptions {
            matmul,
            ..GpuOptions::default()
        },
    )) {
        Ok(gpu) => gpu,
        Err(e) => {
            println!("GPU embedding benchmark skipped: {e}");
            return Ok(());
        }
    };
    println!(
        "[gpu-embed] adapter: {}; m3e-small ({weights_file}), {} distinct sentences of {tokens:.1} tokens on \
         average; set-up {:.2} s",
        gpu.adapter_info(),
        ids.len(),
        started.elapsed().as_secs_f64()
    );
    let cpu = CpuBert::new(config, Weights::from_safetensors(&bytes)?)?;
    let cpu_rate = rate(budget, 1, |i| {
        let hidden = cpu.forward(&ids[i % ids.len()]).expect("CPU forward");
        std::hint::black_box(sentence_vector(&hidden, h));
    });
    println!("[gpu-embed] CPU reference (CpuBert, one thread, batch 1): {cpu_rate:.1} sentences/s");
    for batch in BATCHES {
        let chunk = |i: usize| -> Vec<&[u32]> {
            (0..batch)
                .map(|j| ids[(i * batch + j) % ids.len()].as_slice())
                .collect()
        };
        let rows: usize = chunk(0).iter().map(|s| s.len()).sum();
        let gpu_rate = rate(budget, batch, |i| {
            let out = block_on(gpu.hidden_states_batch(&chunk(i))).expect("GPU pass");
            for hidden in &out {
                std::hint::black_box(sentence_vector(hidden, h));
            }
        });
        println!(
            "[gpu-embed] GPU batch {batch:>2} ({} matmul, ~{rows} rows/pass): {gpu_rate:.1} \
             sentences/s = {:.2}x the CPU reference",
            if gpu.uses_tiled_matmul(rows) {
                "tiled"
            } else {
                "register"
            },
            gpu_rate / cpu_rate
        );
    }
    Ok(())
}
