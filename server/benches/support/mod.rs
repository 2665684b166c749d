//! What the in-process benchmarks share (not a benchmark itself): a request sent through the
//! router with its success checked, a synthetic benchmark of one task imported at once, an
//! author token, the upload-then-board round trip the leaderboard benchmarks time, the raw
//! SQLite commit rate the answer benchmarks print as their reference, and a paced
//! participant's schedule.
// Each benchmark includes this module and uses part of it.
#![allow(dead_code)]

use axum::body::{Body, Bytes};
use axum::http::Request;
use http_body_util::BodyExt;
use memeboard_core::tasks::CategoryInfo;
use memeboard_server::config::Settings;
use memeboard_server::storage::{BenchmarkRecord, ItemRecord, Storage, TaskRecord};
use sqlx::{Connection, Executor};
use std::path::Path;
use std::time::{Duration, Instant};
use tower::ServiceExt;

/// The body of a session start of the demo quizzes: consent and a complete survey.
pub const START_BODY: &str = r#"{"consent":true,"survey":{"age_range":"25-34","native_language":"chinese","online_time":"one_to_three_hours","meme_familiarity":3,"skip_flagged":false}}"#;

/// Sends `request` through `router`; the body of a successful response, else an error with
/// the status and body.
pub async fn send(router: &axum::Router, request: Request<Body>) -> anyhow::Result<Bytes> {
    let response = router.clone().oneshot(request).await?;
    let status = response.status();
    let bytes = response.into_body().collect().await?.to_bytes();
    anyhow::ensure!(
        status.is_success(),
        "{status}: {}",
        String::from_utf8_lossy(&bytes)
    );
    Ok(bytes)
}

/// [`send`], the body read as JSON.
pub async fn call(
    router: &axum::Router,
    request: Request<Body>,
) -> anyhow::Result<serde_json::Value> {
    Ok(serde_json::from_slice(&send(router, request).await?)?)
}

/// Settings of an in-process server on the fresh data folder `dir`: the demo, no front end,
/// no model, and no limit on session starts (one in-process "client" makes them all).
pub fn in_process_settings(dir: &Path) -> anyhow::Result<Settings> {
    let mut settings = Settings::defaults()?;
    settings.server.port = 0;
    settings.data.dir = dir.to_owned();
    settings.server.static_dir = dir.join("no-dist");
    settings.model.dir = dir.join("no-model");
    settings.rate_limits.session_starts_per_minute = 0;
    Ok(settings)
}

/// Starts a session of the demo MCQ quiz: its id and its items' ids in order.
pub async fn start_demo_session(router: &axum::Router) -> anyhow::Result<(String, Vec<String>)> {
    let session = call(
        router,
        Request::post("/api/quizzes/demo-mcq/sessions")
            .header("content-type", "application/json")
            .body(Body::from(START_BODY))?,
    )
    .await?;
    let id = session["session_id"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    let items = session["items"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|i| i["item_id"].as_str().map(str::to_owned))
        .collect();
    Ok((id, items))
}

/// A paced participant's schedule: when their next answer is due, and the time between them.
pub struct Pace {
    pub next_due: Instant,
    pub every: Duration,
}

impl Pace {
    /// Waits until the next answer is due (not at all when behind) and moves the schedule on;
    /// the due time, which the answer's latency counts from, so that time queued behind a slow
    /// answer counts too (no coordinated omission).
    pub async fn next(&mut self) -> Instant {
        let due = self.next_due;
        self.next_due += self.every;
        tokio::time::sleep_until(due.into()).await;
        due
    }
}

/// The middle value (the upper one of an even count).
pub fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

/// Imports benchmark `bench` with its one task `bench` (closed to participants) of `kind`.
pub async fn import_bench_task(
    storage: &Storage,
    family: &str,
    kind: &str,
    categories: &[CategoryInfo],
    batch_size: i64,
    items: Vec<ItemRecord>,
) -> anyhow::Result<()> {
    let benchmark = BenchmarkRecord {
        id: "bench".into(),
        slug: "bench".into(),
        title: "bench".into(),
        description: String::new(),
        family: family.into(),
    };
    let task = TaskRecord {
        id: "bench".into(),
        benchmark_id: "bench".into(),
        slug: "bench".into(),
        kind: kind.into(),
        title: "bench".into(),
        description: String::new(),
        categories_json: serde_json::to_string(categories)?,
        batch_size,
        quiz_open: false,
    };
    storage
        .import_benchmark(&benchmark, &[], &[(task, items)], &[])
        .await?;
    Ok(())
}

/// A new author's token.
pub async fn author_token(router: &axum::Router) -> anyhow::Result<String> {
    let token = call(
        router,
        Request::post("/api/authors")
            .header("content-type", "application/json")
            .body(Body::from(r#"{"name":"bench"}"#))?,
    )
    .await?;
    Ok(token["token"].as_str().unwrap_or_default().to_owned())
}

/// `runs` round trips of an upload of `predictions` to task `bench` (as models `m0`, `m1`,
/// …) followed by its board; each one's time.
pub async fn upload_round_trips(
    router: &axum::Router,
    token: &str,
    predictions: &str,
    runs: usize,
) -> anyhow::Result<Vec<Duration>> {
    let mut times = Vec::with_capacity(runs);
    for n in 0..runs {
        let t = Instant::now();
        send(
            router,
            Request::post(format!("/api/tasks/bench/submissions?model=m{n}"))
                .header("authorization", format!("Bearer {token}"))
                .body(Body::from(predictions.to_owned()))?,
        )
        .await?;
        send(
            router,
            Request::get("/api/boards/bench").body(Body::empty())?,
        )
        .await?;
        times.push(t.elapsed());
    }
    Ok(times)
}

/// Raw SQLite: one INSERT of an answer-sized row per transaction in WAL mode, with
/// `synchronous` set to `sync` (`NORMAL`: the reference issue 12 measured, no sync per commit;
/// `FULL`: a sync per commit, as the server's COMMITs now do once per group).
pub async fn raw_commit_rate(
    dir: &std::path::Path,
    rows: usize,
    sync: &str,
) -> anyhow::Result<f64> {
    sqlx::any::install_default_drivers();
    let url = format!(
        "sqlite://{}?mode=rwc",
        dir.join(format!("raw-{sync}.db")).display()
    );
    let mut conn = sqlx::AnyConnection::connect(&url).await?;
    for pragma in [
        "PRAGMA journal_mode = WAL",
        format!("PRAGMA synchronous = {sync}").as_str(),
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
