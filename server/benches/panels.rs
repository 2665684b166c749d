//! Multi-panel board benchmark (not a timed test): 10,000 predicted reading orders validated
//! and scored by the order-recovery scorer, with the item-bootstrap figures, and the full
//! upload-to-board round trip through the HTTP router; beside it, in the same run, the MCQ
//! scorer on a file of the same number of lines as the reference. Prints figures and ratios.
//!
//! Run: `cargo bench -p memeboard-server --bench panels` (or `scripts/bench.sh`).

use axum::body::Body;
use axum::http::Request;
use memeboard_core::kinds::panels::{fixed_display, panel_bucket, StructureType, PANEL_BUCKETS};
use memeboard_core::kinds::{panel_order, ItemGold, ItemPrompt};
use memeboard_core::leaderboard::{score_mcq, summarize, McqGold, BOOTSTRAP_SEED};
use memeboard_core::metrics::{estimate, Metric};
use memeboard_core::predictions::panels::{order_outcomes, validate_orders, OrderGold};
use memeboard_core::predictions::{
    validate_predictions, FileFormat, Limits, ManifestItem, Split, TaskManifest,
};
use memeboard_core::tasks::{CategoryInfo, MediaRef};
use memeboard_server::config::Settings;
use memeboard_server::startup::Application;
use memeboard_server::storage::ItemRecord;
use std::time::{Duration, Instant};

mod support;
use support::median;

const ITEMS: usize = 10_000;
const RUNS: usize = 11;

fn time<T>(runs: usize, mut f: impl FnMut() -> T) -> Duration {
    median(
        (0..runs)
            .map(|_| {
                let t = Instant::now();
                std::hint::black_box(f());
                t.elapsed()
            })
            .collect(),
    )
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let mut rng = memeboard_core::rng::SplitMix64::new(2026);
    // 10,000 comics of 2–15 panels (most 3–6), singleton groups with some pairs.
    struct Comic {
        id: String,
        groups: Vec<Vec<usize>>,
        display: Vec<usize>,
    }
    let comics: Vec<Comic> = (0..ITEMS)
        .map(|i| {
            let n = [2, 3, 3, 4, 4, 4, 5, 5, 6, 7, 8, 10, 15][rng.below(13)];
            let mut groups: Vec<Vec<usize>> = Vec::new();
            let mut p = 1;
            while p <= n {
                if p < n && rng.below(4) == 0 {
                    groups.push(vec![p, p + 1]);
                    p += 2;
                } else {
                    groups.push(vec![p]);
                    p += 1;
                }
            }
            let id = format!("comic-{i:05}");
            // Any seed serves a benchmark of the scorer (the server keys its seeds).
            let display = fixed_display(memeboard_core::ids::fnv1a64(id.as_bytes()), &groups);
            Comic {
                id,
                groups,
                display,
            }
        })
        .collect();
    // A model right on ~60%, otherwise a random order, 3% unparseable text.
    let predictions: String = comics
        .iter()
        .map(|c| {
            let order: Vec<usize> = if rng.below(10) < 6 {
                c.groups
                    .iter()
                    .flatten()
                    .map(|k| c.display.iter().position(|d| d == k).unwrap_or(0) + 1)
                    .collect()
            } else {
                let mut o: Vec<usize> = (1..=c.display.len()).collect();
                rng.shuffle(&mut o);
                o
            };
            let answer = if rng.below(100) < 3 {
                "\"no idea\"".to_owned()
            } else {
                format!(
                    "\"{}\"",
                    order
                        .iter()
                        .map(usize::to_string)
                        .collect::<Vec<_>>()
                        .join(",")
                )
            };
            format!("{{\"item_id\":\"{}\",\"order\":{answer}}}\n", c.id)
        })
        .collect();
    let bucket = |c: &Comic| panel_bucket(c.display.len()).key.to_owned();
    let manifest = TaskManifest {
        task: "bench".into(),
        items: comics
            .iter()
            .map(|c| ManifestItem {
                id: c.id.clone(),
                category: bucket(c),
                split: Split::Test,
                options: (1..=c.display.len()).map(|n| n.to_string()).collect(),
            })
            .collect(),
    };
    let gold: Vec<OrderGold> = comics
        .iter()
        .map(|c| OrderGold {
            item_id: c.id.clone(),
            category: bucket(c),
            display: c.display.clone(),
            order_groups: c.groups.clone(),
            subsets: vec![StructureType::ALL[c.id.len() % 4].key().to_owned()],
        })
        .collect();
    let keys: Vec<String> = PANEL_BUCKETS.iter().map(|b| b.key.to_owned()).collect();
    let resamples = Settings::defaults()?.quiz.bootstrap_resamples;

    // The file read and checked, and each item's outcome.
    let outcomes = || -> anyhow::Result<_> {
        let file = validate_orders(
            &predictions,
            FileFormat::JsonLines,
            &manifest,
            Limits::default(),
        )
        .map_err(|r| anyhow::anyhow!("{:?}", r.lines()))?;
        Ok(order_outcomes(&gold, &file))
    };
    let score = || -> anyhow::Result<f64> {
        Ok(Metric::AccuracyOnParseable
            .compute(&outcomes()?)
            .unwrap_or(0.0))
    };
    let accuracy = score()?;
    let rust = time(RUNS, &score);
    let with_figures = time(5, || -> anyhow::Result<()> {
        let outcomes = outcomes()?;
        for metric in [
            Metric::AccuracyOnParseable,
            Metric::ParseRate,
            Metric::Accuracy,
        ] {
            std::hint::black_box(estimate(metric, &outcomes, resamples, BOOTSTRAP_SEED));
        }
        Ok(())
    });

    // Reference in the same run: the MCQ scorer on a 10,000-line file.
    let mcq_manifest = TaskManifest {
        task: "mcq".into(),
        items: (0..ITEMS)
            .map(|i| ManifestItem {
                id: format!("item-{i:05}"),
                category: "c".into(),
                split: Split::Test,
                options: (0..5).map(|o| format!("o{o}")).collect(),
            })
            .collect(),
    };
    let mcq_file: String = (0..ITEMS)
        .map(|i| format!("{{\"item_id\":\"item-{i:05}\",\"answer\":{}}}\n", 1 + i % 5))
        .collect();
    let mcq_gold: Vec<McqGold> = (0..ITEMS)
        .map(|i| McqGold {
            item_id: format!("item-{i:05}"),
            category: "c".into(),
            correct: i % 3,
        })
        .collect();
    let mcq = time(RUNS, || -> anyhow::Result<usize> {
        let v = validate_predictions(
            &mcq_file,
            FileFormat::JsonLines,
            &mcq_manifest,
            Limits::default(),
        )
        .map_err(|r| anyhow::anyhow!("{:?}", r.lines()))?;
        Ok(score_mcq(&mcq_manifest, &v, &mcq_gold).len())
    });

    // The HTTP round trip: upload, then the board.
    let dir = tempfile::tempdir()?;
    let mut settings = Settings::defaults()?;
    settings.server.port = 0;
    settings.data.dir = dir.path().to_owned();
    settings.data.load_demo = false;
    settings.server.static_dir = dir.path().join("none");
    settings.leaderboard.max_rows = ITEMS * 2;
    let app = Application::build(settings).await?;
    let cats: Vec<CategoryInfo> = PANEL_BUCKETS.iter().map(|b| b.info()).collect();
    let records: Vec<ItemRecord> = comics
        .iter()
        .enumerate()
        .map(|(n, c)| ItemRecord {
            id: c.id.clone(),
            task_id: "bench".into(),
            ordinal: n as i64,
            category: bucket(c),
            prompt_json: serde_json::to_string(&ItemPrompt::PanelOrder(panel_order::Prompt {
                panels: (0..c.display.len())
                    .map(|p| MediaRef {
                        url: format!("/media/{n:016x}{p:016x}.png"),
                        alt: String::new(),
                    })
                    .collect(),
                context: None,
            }))
            .unwrap_or_default(),
            gold_json: serde_json::to_string(&ItemGold::PanelOrder(panel_order::Gold {
                display: c.display.clone(),
                order_groups: c.groups.clone(),
                structure: StructureType::Narrative,
                comments_available: false,
            }))
            .unwrap_or_default(),
            flagged: false,
            meme_id: None,
            source_id: c.id.clone(),
            split: "test".into(),
            board_half: if n % 2 == 0 { "public" } else { "private" }.into(),
        })
        .collect();
    support::import_bench_task(
        app.storage(),
        "multi_panel",
        "panel_order",
        &cats,
        8,
        records,
    )
    .await?;
    let router = app.router();
    let token = support::author_token(&router).await?;
    // The first board request also scores the baseline rows (cached afterwards).
    let t = Instant::now();
    let board = Request::get("/api/boards/bench").body(Body::empty())?;
    support::send(&router, board).await?;
    let first_board = t.elapsed();
    let round_trip = median(support::upload_round_trips(&router, &token, &predictions, 3).await?);
    // Keep `summarize` linked in the reference path (what boards call for the main column).
    std::hint::black_box(summarize(&[], &keys, 10, 1));

    println!(
        "panel order benchmark: {ITEMS} predicted orders, {} bytes JSONL, accuracy on parseable {accuracy:.4}",
        predictions.len()
    );
    println!(
        "  validate + score orders              {:>9.2} ms (median of {RUNS})",
        rust.as_secs_f64() * 1e3
    );
    println!(
        "  + parse rate, accuracies, 95% CIs    {:>9.2} ms ({resamples} resamples each)",
        with_figures.as_secs_f64() * 1e3
    );
    println!(
        "  reference: MCQ validate + score      {:>9.2} ms (same number of lines)",
        mcq.as_secs_f64() * 1e3
    );
    println!(
        "  ratio order / MCQ                    {:>9.2}x",
        rust.as_secs_f64() / mcq.as_secs_f64()
    );
    println!(
        "  first board (baselines scored)       {:>9.2} ms",
        first_board.as_secs_f64() * 1e3
    );
    println!(
        "  upload -> board (HTTP, SQLite)       {:>9.2} ms (median of 3)",
        round_trip.as_secs_f64() * 1e3
    );
    Ok(())
}
