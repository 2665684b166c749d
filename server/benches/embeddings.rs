//! Server embedding benchmark (not a timed test): sentences/s of the Rust `ort` backend on a
//! 1,458-sentence workload (the size of CHIME), and in the same run Python onnxruntime on the
//! same model file, sentences, batch size and threads. Prints both and the ratio.
//!
//! Needs the models from `scripts/model/setup-model.sh`: set `MEMEBOARD_BENCH_MODELS` (default
//! `data/models`). Run: `cargo bench -p memeboard-server --bench embeddings`.

use memeboard_server::explain::inference::{Embedder, ModelSettings, OrtEmbedder, Pooling};
use std::path::PathBuf;
use std::time::Instant;

const SENTENCES: usize = 1458;
const BATCH: usize = 32;
const THREADS: usize = 2;

fn main() -> anyhow::Result<()> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    let models = std::env::var("MEMEBOARD_BENCH_MODELS")
        .map(PathBuf::from)
        .unwrap_or_else(|_| root.join("data/models"));
    if !models.join("m3e-small/model.onnx").exists() {
        println!(
            "embedding benchmark skipped: no m3e-small under {} (run scripts/model/setup-model.sh)",
            models.display()
        );
        return Ok(());
    }
    // ~50-character sentences from the project's own demo memes (meanings and examples).
    let demo: Vec<serde_json::Value> = serde_json::from_str(memeboard_server::demo::DEMO_MEMES)?;
    let mut pool: Vec<String> = Vec::new();
    for m in &demo {
        pool.push(m["meaning"].as_str().unwrap_or_default().to_owned());
        for e in m["examples"].as_array().into_iter().flatten() {
            pool.push(e.as_str().unwrap_or_default().to_owned());
        }
    }
    let sentences: Vec<String> = (0..SENTENCES)
        .map(|i| {
            format!(
                "{}{}",
                pool[i % pool.len()],
                ["", "。", "！", "？"][i / pool.len() % 4]
            )
        })
        .collect();
    let mean_chars =
        sentences.iter().map(|s| s.chars().count()).sum::<usize>() as f64 / SENTENCES as f64;
    let dir = tempfile::tempdir()?;
    let sentences_path = dir.path().join("sentences.json");
    std::fs::write(&sentences_path, serde_json::to_string(&sentences)?)?;

    let settings = ModelSettings {
        name: "m3e-small".into(),
        dir: models.join("m3e-small"),
        pooling: Pooling::Mean,
        onnxruntime: models.join("onnxruntime/libonnxruntime.so"),
        threads: THREADS,
        max_batch: BATCH,
        max_queue: 1,
        inline_scoring_per_client: 2,
    };
    let embedder = OrtEmbedder::load(&settings, &models)?;
    embedder.embed(&sentences[..BATCH])?; // warm-up
    let start = Instant::now();
    let vectors = embedder.embed(&sentences)?;
    let rust = start.elapsed().as_secs_f64();

    let python_bin = std::env::var("MEMEBOARD_BENCH_PYTHON").unwrap_or_else(|_| {
        root.join("target/model-venv/bin/python")
            .display()
            .to_string()
    });
    let out = std::process::Command::new(&python_bin)
        .arg(root.join("scripts/bench/embed_ort.py"))
        .arg(models.join("m3e-small"))
        .arg(&sentences_path)
        .arg(BATCH.to_string())
        .arg(THREADS.to_string())
        .output()?;
    anyhow::ensure!(
        out.status.success(),
        "python failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let py: serde_json::Value = serde_json::from_slice(&out.stdout)?;
    let python = py["seconds"].as_f64().unwrap_or(f64::NAN);
    let first: Vec<f64> = py["first"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(serde_json::Value::as_f64)
        .collect();
    let diff = first
        .iter()
        .zip(&vectors[0])
        .map(|(a, b)| (a - f64::from(*b)).abs())
        .fold(0.0, f64::max);

    println!("embedding benchmark: m3e-small, {SENTENCES} sentences (mean {mean_chars:.0} chars), batch {BATCH}, {THREADS} threads");
    println!(
        "  rust ort            {:>8.1} sentences/s ({rust:.2} s)",
        SENTENCES as f64 / rust
    );
    println!(
        "  python onnxruntime  {:>8.1} sentences/s ({python:.2} s)",
        SENTENCES as f64 / python
    );
    println!(
        "  ratio rust / python {:>8.2}x  (target >= 1.0x); first dims agree to {diff:.1e}",
        python / rust
    );
    Ok(())
}
