//! Leaderboard benchmark (not a timed test): a 10,000-row prediction file scored by the Rust
//! pipeline and, in the same run, by a straightforward Python scorer of the same metric; and
//! the full upload-to-board round trip through the HTTP router. Prints figures and ratios.
//!
//! Run: `cargo bench -p memeboard-server --bench leaderboard` (or `scripts/bench.sh`).

use memeboard_core::kinds::text_mcq;
use memeboard_core::leaderboard::{score_mcq, summarize, McqGold};
use memeboard_core::predictions::{
    validate_predictions, FileFormat, Limits, ManifestItem, Split, TaskManifest,
};
use memeboard_core::tasks::{CategoryInfo, ItemGold, ItemPrompt, MemeType};
use memeboard_server::config::Settings;
use memeboard_server::startup::Application;
use memeboard_server::storage::ItemRecord;
use std::time::{Duration, Instant};

mod support;
use support::median;

const ITEMS: usize = 10_000;
const RUNS: usize = 21;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let dir = tempfile::tempdir()?;
    // Synthetic task: 10,000 five-option items over the six meme types, ~70% answered right.
    let mut rng = memeboard_core::rng::SplitMix64::new(2026);
    let items: Vec<(String, String, usize)> = (0..ITEMS)
        .map(|i| {
            (
                format!("item-{i:05}"),
                MemeType::ALL[i % 6].key().to_owned(),
                rng.below(5),
            )
        })
        .collect();
    let predictions: String = items
        .iter()
        .map(|(id, _, correct)| {
            let answer = if rng.below(10) < 7 {
                *correct
            } else {
                (correct + 1) % 5
            };
            format!("{{\"item_id\":\"{id}\",\"answer\":{}}}\n", answer + 1)
        })
        .collect();
    let gold_jsonl: String = items
        .iter()
        .map(|(id, c, correct)| {
            format!("{{\"item_id\":\"{id}\",\"category\":\"{c}\",\"correct\":{correct}}}\n")
        })
        .collect();
    std::fs::write(dir.path().join("preds.jsonl"), &predictions)?;
    std::fs::write(dir.path().join("gold.jsonl"), &gold_jsonl)?;

    // 1. Pure scoring: validate + score + summaries with bootstrap intervals.
    let manifest = TaskManifest {
        task: "bench".into(),
        items: items
            .iter()
            .map(|(id, c, _)| ManifestItem {
                id: id.clone(),
                category: c.clone(),
                split: Split::Test,
                options: (0..5).map(|o| format!("option {o}")).collect(),
            })
            .collect(),
    };
    let gold: Vec<McqGold> = items
        .iter()
        .map(|(id, c, correct)| McqGold {
            item_id: id.clone(),
            category: c.clone(),
            correct: *correct,
        })
        .collect();
    let categories: Vec<String> = MemeType::ALL.iter().map(|t| t.key().to_owned()).collect();
    let mut validate_score = Vec::new();
    let mut with_intervals = Vec::new();
    let mut accuracy = 0.0;
    for _ in 0..RUNS {
        let t = Instant::now();
        let v = validate_predictions(
            &predictions,
            FileFormat::JsonLines,
            &manifest,
            Limits::default(),
        )
        .map_err(|e| anyhow::anyhow!("{e}"))?;
        let scores = score_mcq(&manifest, &v, &gold);
        accuracy = scores.iter().map(|s| s.score).sum::<f64>() / scores.len() as f64;
        validate_score.push(t.elapsed());
        summarize(&scores, &categories, 1000, 1);
        with_intervals.push(t.elapsed());
    }
    let rust = median(validate_score);
    let rust_ci = median(with_intervals);

    // 2. The Python scorer, same file, same metric (its own parse+score time, no start-up).
    let script =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../scripts/bench/score_mcq.py");
    let mut python_runs = Vec::new();
    let mut python_accuracy = 0.0;
    for _ in 0..5 {
        let out = std::process::Command::new("python3")
            .arg(&script)
            .arg(dir.path().join("gold.jsonl"))
            .arg(dir.path().join("preds.jsonl"))
            .output()?;
        anyhow::ensure!(
            out.status.success(),
            "python scorer failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let v: serde_json::Value = serde_json::from_slice(&out.stdout)?;
        python_accuracy = v["accuracy"].as_f64().unwrap_or(f64::NAN);
        python_runs.push(Duration::from_secs_f64(
            v["seconds"].as_f64().unwrap_or(f64::NAN),
        ));
    }
    let python = median(python_runs);
    anyhow::ensure!(
        (python_accuracy - accuracy).abs() < 1e-12,
        "scorers disagree: rust {accuracy} python {python_accuracy}"
    );

    // 3. Upload to board through the real router, on SQLite.
    let mut settings = Settings::defaults()?;
    settings.server.port = 0;
    settings.data.dir = dir.path().to_owned();
    settings.data.load_demo = false;
    settings.server.static_dir = dir.path().join("none");
    settings.leaderboard.daily_quota = 100;
    let app = Application::build(settings).await?;
    let cats: Vec<CategoryInfo> = MemeType::ALL.into_iter().map(CategoryInfo::from).collect();
    let records: Vec<ItemRecord> = items
        .iter()
        .enumerate()
        .map(|(n, (id, c, correct))| ItemRecord {
            id: id.clone(),
            task_id: "bench".into(),
            ordinal: n as i64,
            category: c.clone(),
            prompt_json: serde_json::to_string(&ItemPrompt::TextMcq(text_mcq::Prompt {
                sentence: format!("句子 {n} _____。"),
                options: (0..5).map(|o| format!("option {o}")).collect(),
            }))
            .unwrap_or_default(),
            gold_json: serde_json::to_string(&ItemGold::TextMcq(text_mcq::Gold {
                correct: *correct,
            }))
            .unwrap_or_default(),
            flagged: false,
            meme_id: None,
            source_id: id.clone(),
            split: "test".into(),
            board_half: if n % 2 == 0 { "public" } else { "private" }.into(),
        })
        .collect();
    support::import_bench_task(app.storage(), "text_memes", "text_mcq", &cats, 24, records).await?;
    let router = app.router();
    let token = support::author_token(&router).await?;
    let round_trip = median(support::upload_round_trips(&router, &token, &predictions, 5).await?);

    println!("leaderboard benchmark: {ITEMS} items, {} bytes JSONL, accuracy {accuracy:.4} (both scorers agree)", predictions.len());
    println!(
        "  rust validate + score          {:>9.2} ms (median of {RUNS})",
        rust.as_secs_f64() * 1e3
    );
    println!(
        "  rust + 95% bootstrap intervals {:>9.2} ms",
        rust_ci.as_secs_f64() * 1e3
    );
    println!(
        "  python parse + score           {:>9.2} ms (median of 5)",
        python.as_secs_f64() * 1e3
    );
    println!(
        "  ratio python / rust            {:>9.1}x  (target >= 20x)",
        python.as_secs_f64() / rust.as_secs_f64()
    );
    println!(
        "  upload -> board (HTTP, SQLite) {:>9.2} ms (median of 5; target <= 1000 ms)",
        round_trip.as_secs_f64() * 1e3
    );
    Ok(())
}
