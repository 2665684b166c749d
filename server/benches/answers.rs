//! Quiz answers under load on SQLite (WAL): answers per second and latency percentiles with
//! 10 and 200 concurrent participants, each answering their 24-item batch one item after the
//! other, through the real router (routing, JSON, validation, the exactly-once write), beside
//! the raw SQLite commit rate of the same row measured in the same run; then two sustained runs
//! of 200 participants (each starting a new session when done) printing the rate and latency
//! per interval as the database grows, so that a slowdown with size shows: one answering as
//! fast as the server acknowledges (the most it takes; a closed loop, so the latency there is
//! participants / rate), one offering a fixed 5,000 answers/s on a schedule (the latency at
//! that rate, counted from when each answer was due).
//!
//! Run with `cargo bench -p memeboard-server --bench answers` (part of `scripts/bench.sh`).
//! `MEMEBOARD_BENCH_SECONDS` sets each sustained run's length (default 20 s; 600 for the
//! 10-minute runs, printed per minute). Requests are sent in process (no sockets), so the
//! figures are the server's own cost.

use axum::body::Body;
use axum::http::Request;
use memeboard_server::startup::Application;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The server's allocator (see `src/main.rs`).
mod support;
use support::{call, Pace};

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Concurrent participants of the sustained runs.
const SUSTAINED_PARTICIPANTS: usize = 200;

/// Answers per second the paced run's participants offer together (issue 12's target rate).
const PACED_RATE: f64 = 5_000.0;

/// Latencies of answers acknowledged so far (drained by whoever reports them).
type Sink = Arc<Mutex<Vec<Duration>>>;

fn push(sink: &Sink, latency: Duration) {
    if let Ok(mut s) = sink.lock() {
        s.push(latency);
    }
}

fn drain(sink: &Sink) -> Vec<Duration> {
    sink.lock()
        .map(|mut s| std::mem::take(&mut *s))
        .unwrap_or_default()
}

/// One session: start it, answer every item in order, each answer's latency into `sink`;
/// checks that the last answer brought the completion code.
///
/// Without `pace` each answer is sent as soon as the previous one is acknowledged (a closed
/// loop: the latency then follows from the rate, participants / answers per second). With
/// `pace` each answer is sent at its due time (or at once when the participant is behind) and
/// its latency counts from the due time, so time spent queued behind a slow answer counts too
/// (no "coordinated omission").
async fn one_session(
    router: &axum::Router,
    sink: &Sink,
    mut pace: Option<&mut Pace>,
) -> anyhow::Result<()> {
    let (id, items) = support::start_demo_session(router).await?;
    let mut last = serde_json::Value::Null;
    for (n, item) in items.iter().enumerate() {
        let body = serde_json::json!({"item_id": item, "idempotency_key": format!("k{n}"),
            "answer": {"kind": "choice", "position": n % 5}, "response_ms": 1500});
        let t = match pace.as_deref_mut() {
            Some(pace) => pace.next().await,
            None => Instant::now(),
        };
        last = call(
            router,
            Request::post(format!("/api/sessions/{id}/answers"))
                .header("content-type", "application/json")
                .body(Body::from(body.to_string()))?,
        )
        .await?;
        push(sink, t.elapsed());
    }
    anyhow::ensure!(
        last["completion_code"].is_string(),
        "the last answer brought no completion code: {last}"
    );
    Ok(())
}

/// Percentile `p` (0..1) of sorted latencies, in milliseconds.
fn pct_ms(sorted: &[Duration], p: f64) -> f64 {
    sorted
        .get(((sorted.len().max(1) - 1) as f64 * p) as usize)
        .map_or(0.0, |d| d.as_secs_f64() * 1e3)
}

/// `participants` people at once, `rounds` times over: (answers/s, p50 ms, p99 ms).
async fn load(
    router: &axum::Router,
    participants: usize,
    rounds: usize,
) -> anyhow::Result<(f64, f64, f64)> {
    let sink: Sink = Arc::default();
    let t = Instant::now();
    for _ in 0..rounds {
        let tasks: Vec<_> = (0..participants)
            .map(|_| {
                let (router, sink) = (router.clone(), sink.clone());
                tokio::spawn(async move { one_session(&router, &sink, None).await })
            })
            .collect();
        for task in tasks {
            task.await??;
        }
    }
    let elapsed = t.elapsed().as_secs_f64();
    let mut latencies = drain(&sink);
    latencies.sort();
    Ok((
        latencies.len() as f64 / elapsed,
        pct_ms(&latencies, 0.5),
        pct_ms(&latencies, 0.99),
    ))
}

/// CPU seconds this process has used so far (user and system, all threads: the simulated
/// participants' side as well as the server's), from `/proc/self/stat`; 0 where there is none.
fn process_cpu_seconds() -> f64 {
    let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else {
        return 0.0;
    };
    // Fields after the command name (which is in parentheses): utime and stime are the 12th
    // and 13th, in clock ticks (100 per second on Linux).
    let fields: Vec<&str> = stat
        .rsplit_once(')')
        .map_or("", |(_, rest)| rest)
        .split_whitespace()
        .collect();
    let ticks = |i: usize| {
        fields
            .get(i)
            .and_then(|f| f.parse::<f64>().ok())
            .unwrap_or(0.0)
    };
    (ticks(11) + ticks(12)) / 100.0
}

/// Bytes of the SQLite database with its write-ahead log.
fn database_bytes(dir: &std::path::Path) -> u64 {
    ["memeboard.db", "memeboard.db-wal"]
        .iter()
        .filter_map(|f| std::fs::metadata(dir.join(f)).ok())
        .map(|m| m.len())
        .sum()
}

/// 200 participants for `seconds`, each taking session after session, as fast as they are
/// answered or, with `offered`, together offering that many answers per second on a fixed
/// schedule (first answers spread evenly over one session of `batch_size` answers); prints the
/// rate and latency of each `interval` and returns (overall answers/s, worst interval p99 ms,
/// last interval's rate / first interval's rate, CPU microseconds per answer).
async fn sustained(
    router: &axum::Router,
    dir: &std::path::Path,
    raw: f64,
    seconds: u64,
    interval: u64,
    offered: Option<f64>,
    batch_size: u32,
) -> anyhow::Result<(f64, f64, f64, f64)> {
    let sink: Sink = Arc::default();
    let start = Instant::now();
    let cpu_at_start = process_cpu_seconds();
    let deadline = start + Duration::from_secs(seconds);
    let participants = SUSTAINED_PARTICIPANTS;
    let tasks: Vec<_> = (0..participants)
        .map(|n| {
            let (router, sink) = (router.clone(), sink.clone());
            // Arrivals spread evenly over one session's length, so that session starts (and
            // their heavier writes) do not come in step, as they would not from real people.
            let mut pace = offered.map(|rate| {
                let every = Duration::from_secs_f64(participants as f64 / rate);
                Pace {
                    next_due: start + (every * batch_size).mul_f64(n as f64 / participants as f64),
                    every,
                }
            });
            tokio::spawn(async move {
                while Instant::now() < deadline {
                    one_session(&router, &sink, pace.as_mut()).await?;
                }
                anyhow::Ok(())
            })
        })
        .collect();
    let (mut total, mut worst_p99, mut rates) = (0usize, 0.0f64, Vec::new());
    let mut tick = start;
    while tick < deadline {
        let next = (tick + Duration::from_secs(interval)).min(deadline);
        tokio::time::sleep_until(next.into()).await;
        let mut latencies = drain(&sink);
        let span = next.duration_since(tick).as_secs_f64();
        tick = next;
        latencies.sort();
        total += latencies.len();
        let rate = latencies.len() as f64 / span;
        let p99 = pct_ms(&latencies, 0.99);
        worst_p99 = worst_p99.max(p99);
        rates.push(rate);
        let at = next.duration_since(start).as_secs();
        println!(
            "  {:>2}:{:02}  {rate:>7.0} answers/s, p50 {:>5.1} ms, p99 {p99:>5.1} ms, {:>3.0}% of raw; {total:>9} answers, database {:>6.0} MB (log {:>4.0} MB)",
            at / 60,
            at % 60,
            pct_ms(&latencies, 0.5),
            100.0 * rate / raw,
            database_bytes(dir) as f64 / 1e6,
            std::fs::metadata(dir.join("memeboard.db-wal")).map_or(0, |m| m.len()) as f64 / 1e6,
        );
    }
    let cpu = process_cpu_seconds() - cpu_at_start;
    // Sessions under way at the deadline finish; their answers are not counted.
    for task in tasks {
        task.await??;
    }
    let first = rates.first().copied().unwrap_or(0.0);
    let last = rates.last().copied().unwrap_or(0.0);
    Ok((
        total as f64 / seconds as f64,
        worst_p99,
        last / first.max(1.0),
        cpu * 1e6 / total.max(1) as f64,
    ))
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() -> anyhow::Result<()> {
    let seconds: u64 = match std::env::var("MEMEBOARD_BENCH_SECONDS") {
        Ok(v) => v.parse()?,
        Err(_) => 20,
    };
    let dir = tempfile::tempdir()?;
    let settings = support::in_process_settings(dir.path())?;
    let batch_size = u32::try_from(settings.quiz.batch_size)?;
    let app = Application::build(settings).await?;
    let router = app.router();

    let raw = support::raw_commit_rate(dir.path(), 5_000, "NORMAL").await?;
    let raw_synced = support::raw_commit_rate(dir.path(), 2_000, "FULL").await?;
    println!("quiz answers on SQLite (WAL), in process, 2 worker threads:");
    for (participants, rounds) in [(10, 10), (200, 3)] {
        let (rate, p50, p99) = load(&router, participants, rounds).await?;
        println!(
            "  {participants:>3} participants at once: {rate:>7.0} answers/s, p50 {p50:>5.1} ms, p99 {p99:>5.1} ms, {:.0}% of the raw commit rate",
            100.0 * rate / raw
        );
    }
    println!(
        "  raw SQLite commit rate (same row, one per transaction): {raw:.0} commits/s \
         (synchronous NORMAL, the reference above); {raw_synced:.0} commits/s synced (FULL)"
    );
    let interval = if seconds >= 300 {
        60
    } else {
        (seconds / 4).max(1)
    };
    for offered in [None, Some(PACED_RATE)] {
        match offered {
            None => println!(
                "sustained: {SUSTAINED_PARTICIPANTS} participants answering as fast as they are answered, for {seconds} s (MEMEBOARD_BENCH_SECONDS), per {interval} s:"
            ),
            Some(rate) => println!(
                "paced: {SUSTAINED_PARTICIPANTS} participants offering {rate:.0} answers/s on a fixed schedule, latency from each answer's due time, for {seconds} s, per {interval} s:"
            ),
        }
        let (rate, worst_p99, drift, cpu_per_answer) = sustained(
            &router,
            dir.path(),
            raw,
            seconds,
            interval,
            offered,
            batch_size,
        )
        .await?;
        println!(
            "  overall {rate:.0} answers/s ({:.0}% of raw), worst p99 {worst_p99:.1} ms, last/first interval rate {drift:.2}",
            100.0 * rate / raw
        );
        // Less sensitive to other load on a shared machine than the rate: what one answer
        // costs (its share of session starts included), both sides of the in-process requests.
        println!(
            "  CPU per answer: {cpu_per_answer:.0} µs (process user + system time, all threads)"
        );
    }
    Ok(())
}
