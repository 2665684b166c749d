//! The GPU forward pass natively (feature `gpu`: wgpu on Vulkan; in CI the lavapipe software
//! adapter of Debian's `mesa-vulkan-drivers`): the same WGSL kernels the browser runs, checked
//! against the CPU path for one sentence and for a batch of mixed lengths, with both matmul
//! kernels (registers; workgroup-memory tiles), and against onnxruntime's cosines.
//!
//! Skipped, with the reason, when there is no Vulkan adapter, unless
//! `MEMEBOARD_REQUIRE_GPU_ADAPTER=1` (scripts/test.sh sets it), which turns that into a
//! failure; the models come from `MEMEBOARD_TEST_MODELS` as in `tests/models.rs`. lavapipe on
//! two cores is slow: the m3e-small checks use a handful of sentences.
//!
//! `cargo test -p memeboard-embed --features gpu --test gpu -- --nocapture`

use memeboard_core::embed::cosine;
use memeboard_embed::gpu::{block_on, request_adapter, GpuBert, GpuOptions, MatmulKernel};
use memeboard_embed::{sentence_vector, BertConfig, CpuBert, Tokenizer, Weights};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

fn env_is(name: &str) -> bool {
    std::env::var(name).is_ok_and(|v| v == "1")
}

/// The model directory, or `None` (with a message) when the models are not set up.
fn model_dir(model: &str) -> Option<PathBuf> {
    let required = env_is("MEMEBOARD_REQUIRE_MODELS");
    let Ok(dir) = std::env::var("MEMEBOARD_TEST_MODELS") else {
        assert!(
            !required,
            "MEMEBOARD_REQUIRE_MODELS=1 but MEMEBOARD_TEST_MODELS is not set"
        );
        eprintln!("skipping: MEMEBOARD_TEST_MODELS is not set (run scripts/model/setup-model.sh)");
        return None;
    };
    let dir = PathBuf::from(dir).join(model);
    if dir.join("model.safetensors").exists() {
        return Some(dir);
    }
    assert!(
        !required,
        "MEMEBOARD_REQUIRE_MODELS=1 but {} is missing",
        dir.display()
    );
    eprintln!("skipping: {}/model.safetensors is missing", dir.display());
    None
}

/// The adapter's description, or `None` (with the reason) when there is none and
/// `MEMEBOARD_REQUIRE_GPU_ADAPTER` is not `1`.
fn adapter() -> Option<String> {
    match block_on(request_adapter()) {
        Ok((_, info)) => Some(info),
        Err(e) if env_is("MEMEBOARD_REQUIRE_GPU_ADAPTER") => {
            panic!("MEMEBOARD_REQUIRE_GPU_ADAPTER=1 but there is no GPU adapter: {e}")
        }
        Err(e) => {
            eprintln!(
                "skipping the GPU checks: {e} (set MEMEBOARD_REQUIRE_GPU_ADAPTER=1 to fail instead)"
            );
            None
        }
    }
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn data(name: &str) -> String {
    read(
        &Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/data")
            .join(name),
    )
}

struct Setup {
    tokenizer: Tokenizer,
    cpu: CpuBert,
    config: BertConfig,
    weights: Vec<u8>,
}

fn setup(model: &str) -> Option<(Setup, String)> {
    let dir = model_dir(model)?;
    let info = adapter()?;
    let config = BertConfig::from_json(&read(&dir.join("config.json"))).expect("config.json");
    let weights = std::fs::read(dir.join("model.safetensors")).expect("model.safetensors");
    let cpu = CpuBert::new(
        config.clone(),
        Weights::from_safetensors(&weights).expect("weights"),
    )
    .expect("CPU model");
    let tokenizer =
        Tokenizer::from_json(&read(&dir.join("tokenizer.json"))).expect("tokenizer.json");
    let tokenizer = tokenizer.with_max_len(config.max_position_embeddings);
    Some((
        Setup {
            tokenizer,
            cpu,
            config,
            weights,
        },
        info,
    ))
}

fn gpu(s: &Setup, options: GpuOptions) -> GpuBert {
    let weights = Weights::from_safetensors(&s.weights).expect("weights");
    block_on(GpuBert::with_options(s.config.clone(), weights, options)).expect("GPU set-up")
}

fn max_abs_diff(a: &[f32], b: &[f32]) -> f32 {
    assert_eq!(a.len(), b.len());
    a.iter()
        .zip(b)
        .map(|(x, y)| (x - y).abs())
        .fold(0.0, f32::max)
}

/// Hidden states of `texts` on the GPU (batch 1 for the first, then all in one batch) equal
/// the CPU's to `tolerance`, and each sentence of the batch equals its own single pass
/// exactly (rows of other sentences never leak in). Returns the worst difference and the
/// batch's hidden states.
fn compare(s: &Setup, model: &GpuBert, texts: &[&str], tolerance: f32) -> (f32, Vec<Vec<f32>>) {
    let ids: Vec<Vec<u32>> = texts.iter().map(|t| s.tokenizer.encode(t)).collect();
    let cpu: Vec<Vec<f32>> = ids
        .iter()
        .map(|i| s.cpu.forward(i).expect("CPU forward"))
        .collect();
    let single = block_on(model.hidden_states(&ids[0])).expect("GPU pass");
    let mut worst = max_abs_diff(&single, &cpu[0]);
    let batch: Vec<&[u32]> = ids.iter().map(Vec::as_slice).collect();
    let batched = block_on(model.hidden_states_batch(&batch)).expect("GPU batch");
    assert_eq!(batched.len(), texts.len());
    assert_eq!(
        batched[0], single,
        "batched sentence 0 differs from its single pass"
    );
    for (i, (got, want)) in batched.iter().zip(&cpu).enumerate() {
        let d = max_abs_diff(got, want);
        assert!(
            d <= tolerance,
            "sentence {i} ({:?}): max |gpu - cpu| = {d:e}",
            texts[i]
        );
        worst = worst.max(d);
    }
    (worst, batched)
}

/// The first `n` distinct sentences of the test pairs, and their onnxruntime cosines where
/// both sentences of a pair are among them.
fn sentences(n: usize, model: &str) -> (Vec<String>, Vec<(usize, usize, f64)>) {
    let pairs: Vec<[String; 2]> = serde_json::from_str(&data("pairs.json")).expect("pairs.json");
    let reference: HashMap<String, Vec<f64>> =
        serde_json::from_str(&data("cosines.json")).expect("cosines.json");
    let mut texts: Vec<String> = Vec::new();
    let mut checks = Vec::new();
    for ([a, b], &want) in pairs.iter().zip(&reference[model]) {
        for t in [a, b] {
            if texts.len() < n && !texts.contains(t) {
                texts.push(t.clone());
            }
        }
        let (Some(i), Some(j)) = (
            texts.iter().position(|t| t == a),
            texts.iter().position(|t| t == b),
        ) else {
            break;
        };
        checks.push((i, j, want));
    }
    (texts, checks)
}

fn check_model(model: &str, n: usize, kernels: &[MatmulKernel], max_batch_tokens: usize) {
    let Some((s, info)) = setup(model) else {
        return;
    };
    eprintln!("{model}: adapter {info}");
    let (texts, checks) = sentences(n, model);
    let mut texts: Vec<&str> = texts.iter().map(String::as_str).collect();
    texts.push(""); // [CLS] [SEP] only: the shortest span
    let lengths: Vec<usize> = texts.iter().map(|t| s.tokenizer.encode(t).len()).collect();
    for &kernel in kernels {
        let options = GpuOptions {
            matmul: kernel,
            max_batch_tokens,
        };
        let started = std::time::Instant::now();
        let model_gpu = gpu(&s, options);
        let (worst, batched) = compare(&s, &model_gpu, &texts, 2e-4);
        eprintln!(
            "{model} {kernel:?}: {} sentences of {lengths:?} tokens (capacity {} rows): \
             max |hidden_gpu - hidden_cpu| = {worst:.2e} ({:.1} s with set-up)",
            texts.len(),
            model_gpu.batch_capacity(),
            started.elapsed().as_secs_f64()
        );
        // Agreement with onnxruntime, as the CPU path's (tests/models.rs, f32 weights).
        let vectors: Vec<Vec<f32>> = batched
            .iter()
            .map(|h| sentence_vector(h, s.config.hidden_size))
            .collect();
        assert!(!checks.is_empty());
        for &(i, j, want) in &checks {
            let got = cosine(&vectors[i], &vectors[j]);
            assert!(
                (got - want).abs() < 1e-5,
                "{model} {kernel:?}: cos({i}, {j}) = {got}, onnxruntime {want}"
            );
        }
    }
}

#[test]
fn tiny_bert_on_the_gpu_equals_the_cpu_single_and_batched() {
    // 40 sentences (≈ 1,300 rows) through 512-row passes: the batch is split in three.
    check_model(
        "tiny-bert",
        40,
        &[MatmulKernel::Registers, MatmulKernel::Tiled],
        512,
    );
}

#[test]
fn m3e_small_on_the_gpu_equals_the_cpu_single_and_batched() {
    // lavapipe runs m3e-small at about a sentence per second: three sentences and [CLS][SEP].
    check_model(
        "m3e-small",
        3,
        &[MatmulKernel::Registers, MatmulKernel::Tiled],
        512,
    );
}
