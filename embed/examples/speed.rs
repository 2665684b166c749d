//! CPU throughput of the pure-Rust encoder on the demo meanings (~50 characters each): what
//! the browser's CPU path will see, give or take the wasm penalty.
//!
//! usage: cargo run --release -p memeboard-embed --example speed -- MODEL_DIR [WEIGHTS]
//!   MODEL_DIR holds config.json, tokenizer.json and WEIGHTS (default model.f16.safetensors)

use memeboard_embed::Encoder;
use std::time::Instant;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let dir = std::path::PathBuf::from(args.next().ok_or("usage: speed MODEL_DIR [WEIGHTS]")?);
    let weights = args
        .next()
        .unwrap_or_else(|| "model.f16.safetensors".into());
    let started = Instant::now();
    let encoder = Encoder::from_files(
        &std::fs::read_to_string(dir.join("config.json"))?,
        &std::fs::read_to_string(dir.join("tokenizer.json"))?,
        &std::fs::read(dir.join(&weights))?,
    )?;
    let load = started.elapsed();
    let demo = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../server/demo/demo_memes.json"
    );
    let memes: Vec<serde_json::Value> = serde_json::from_str(&std::fs::read_to_string(demo)?)?;
    let sentences: Vec<&str> = memes.iter().filter_map(|m| m["meaning"].as_str()).collect();
    let chars = sentences.iter().map(|s| s.chars().count()).sum::<usize>() as f64;
    let tokens: usize = sentences
        .iter()
        .map(|s| encoder.tokenizer().encode(s).len())
        .sum();
    encoder.embed(sentences[0])?; // warm-up
    let started = Instant::now();
    let rounds = 3;
    for _ in 0..rounds {
        for s in &sentences {
            std::hint::black_box(encoder.embed(s)?);
        }
    }
    let secs = started.elapsed().as_secs_f64();
    let n = (rounds * sentences.len()) as f64;
    println!(
        "{} ({weights}): loaded in {:.2} s; {} sentences of {:.0} chars / {:.0} tokens on average: \
         {:.1} sentences/s ({:.1} ms each, {:.0} tokens/s), one thread",
        dir.display(),
        load.as_secs_f64(),
        sentences.len(),
        chars / sentences.len() as f64,
        tokens as f64 / sentences.len() as f64,
        n / secs,
        1000.0 * secs / n,
        rounds as f64 * tokens as f64 / secs,
    );
    Ok(())
}
