//! Quiz answers under load on SQLite (WAL): answers per second and latency percentiles with
//! 10 and 200 concurrent participants, each answering their 24-item batch one item after the
//! other, through the real router (routing, JSON, validation, the exactly-once transaction),
//! beside the raw SQLite commit rate of the same row measured in the same run.
//!
//! Run with `cargo bench -p memeboard-server --bench answers` (part of `scripts/bench.sh`).
//! Requests are sent in process (no sockets), so the figures are the server's own cost.

use axum::body::Body;
use axum::http::Request;
use http_body_util::BodyExt;
use memeboard_server::config::Settings;
use memeboard_server::startup::Application;
use sqlx::{Connection, Executor};
use std::time::{Duration, Instant};
use tower::ServiceExt;

async fn call(router: &axum::Router, request: Request<Body>) -> anyhow::Result<serde_json::Value> {
    let response = router.clone().oneshot(request).await?;
    let status = response.status();
    let bytes = response.into_body().collect().await?.to_bytes();
    anyhow::ensure!(
        status.is_success(),
        "{status}: {}",
        String::from_utf8_lossy(&bytes)
    );
    Ok(serde_json::from_slice(&bytes)?)
}

fn start_body() -> Body {
    Body::from(
        serde_json::json!({"consent": true, "survey": {"age_range": "25-34",
        "native_language": "chinese", "online_time": "one_to_three_hours", "meme_familiarity": 3,
        "skip_flagged": false}})
        .to_string(),
    )
}

/// One participant: start a session, answer every item in order; returns each answer's
/// latency.
async fn participant(router: axum::Router) -> anyhow::Result<Vec<Duration>> {
    let session = call(
        &router,
        Request::post("/api/quizzes/demo-mcq/sessions")
            .header("content-type", "application/json")
            .body(start_body())?,
    )
    .await?;
    let id = session["session_id"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    let items: Vec<String> = session["items"]
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|i| i["item_id"].as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default();
    let mut latencies = Vec::with_capacity(items.len());
    for (n, item) in items.iter().enumerate() {
        let body = serde_json::json!({"item_id": item, "idempotency_key": format!("k{n}"),
            "answer": {"kind": "choice", "position": n % 5}, "response_ms": 1500});
        let t = Instant::now();
        call(
            &router,
            Request::post(format!("/api/sessions/{id}/answers"))
                .header("content-type", "application/json")
                .body(Body::from(body.to_string()))?,
        )
        .await?;
        latencies.push(t.elapsed());
    }
    Ok(latencies)
}

/// `participants` people at once, `rounds` times over: (answers/s, p50, p99).
async fn load(
    router: &axum::Router,
    participants: usize,
    rounds: usize,
) -> anyhow::Result<(f64, Duration, Duration)> {
    let t = Instant::now();
    let mut latencies = Vec::new();
    for _ in 0..rounds {
        let tasks: Vec<_> = (0..participants)
            .map(|_| tokio::spawn(participant(router.clone())))
            .collect();
        for task in tasks {
            latencies.extend(task.await??);
        }
    }
    let elapsed = t.elapsed().as_secs_f64();
    latencies.sort();
    let pct = |p: f64| latencies[((latencies.len() as f64 - 1.0) * p) as usize];
    Ok((latencies.len() as f64 / elapsed, pct(0.5), pct(0.99)))
}

/// Raw SQLite: one INSERT of an answer-sized row per transaction, same pragmas as the server.
async fn raw_commit_rate(dir: &std::path::Path, rows: usize) -> anyhow::Result<f64> {
    sqlx::any::install_default_drivers();
    let url = format!("sqlite://{}?mode=rwc", dir.join("raw.db").display());
    let mut conn = sqlx::AnyConnection::connect(&url).await?;
    for pragma in [
        "PRAGMA journal_mode = WAL",
        "PRAGMA synchronous = NORMAL",
        "CREATE TABLE answers (id TEXT PRIMARY KEY, session_id TEXT, item_id TEXT, \
         idempotency_key TEXT, answer_json TEXT, option_order_json TEXT, choice BIGINT, \
         score DOUBLE PRECISION, response_ms BIGINT, created_at BIGINT)",
    ] {
        conn.execute(pragma).await?;
    }
    let t = Instant::now();
    for n in 0..rows {
        let mut tx = conn.begin().await?;
        sqlx::query("INSERT INTO answers VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)")
            .bind(format!("a{n}"))
            .bind("session-0123456789abcdef")
            .bind("mcq-0123456789abcdef")
            .bind(format!("k{n}"))
            .bind(r#"{"kind":"choice","option":2}"#)
            .bind("[3,0,4,1,2]")
            .bind(2i64)
            .bind(1.0f64)
            .bind(1500i64)
            .bind(n as i64)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
    }
    Ok(rows as f64 / t.elapsed().as_secs_f64())
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() -> anyhow::Result<()> {
    let dir = tempfile::tempdir()?;
    let mut settings = Settings::defaults()?;
    settings.server.port = 0;
    settings.data.dir = dir.path().to_owned();
    settings.server.static_dir = dir.path().join("no-dist");
    settings.model.dir = dir.path().join("no-model");
    settings.rate_limits.session_starts_per_minute = 0; // one in-process "client"
    let app = Application::build(settings).await?;
    let router = app.router();

    let raw = raw_commit_rate(dir.path(), 5_000).await?;
    println!("quiz answers on SQLite (WAL), in process, 2 worker threads:");
    for (participants, rounds) in [(10, 10), (200, 2)] {
        let (rate, p50, p99) = load(&router, participants, rounds).await?;
        println!(
            "  {participants:>3} participants at once: {rate:>7.0} answers/s, p50 {:>5.1} ms, p99 {:>5.1} ms, {:.0}% of the raw commit rate",
            p50.as_secs_f64() * 1e3,
            p99.as_secs_f64() * 1e3,
            100.0 * rate / raw
        );
    }
    println!("  raw SQLite commit rate (same row, one per transaction): {raw:.0} commits/s");
    Ok(())
}
