//! Crowd figures at scale (not a timed test): with 10,000 participants' completed sessions on
//! the demo MCQ quiz (100,000 with `MEMEBOARD_BENCH_PARTICIPANTS=100000`), the latency of
//! `/stats`, the board, a participant's results and a model's item gaps, warm, and while other
//! participants keep completing sessions — with the crowd fingerprint read on every request
//! (refresh 0, as before) and reused for 5 s (`[quiz] crowd_refresh_secs`, the default) —
//! beside two references measured in the same run: the count of the crowd data over its
//! answers (what the fingerprint cost every request before it was kept as counters) and one
//! read of the crowd's answers (what the item gaps cost every request before they took the
//! per-item table, and every recomputation before the server kept a copy of the crowd), beside
//! the kept copy brought up to date after one new completion.
//!
//! Run: `cargo bench -p memeboard-server --bench crowd` (part of `scripts/bench.sh`).

use axum::body::Body;
use axum::http::Request;
use memeboard_server::startup::Application;
use std::time::{Duration, Instant};

/// The server's allocator (see `src/main.rs`).
mod support;
use support::call;

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// One participant's whole batch; returns the session id.
async fn one_session(router: &axum::Router, seed: usize) -> anyhow::Result<String> {
    let (id, items) = support::start_demo_session(router).await?;
    for (n, item) in items.iter().enumerate() {
        let body = serde_json::json!({"item_id": item, "idempotency_key": format!("k{n}"),
            "answer": {"kind": "choice", "position": (n * 7 + seed) % 5}, "response_ms": 1500});
        call(
            router,
            Request::post(format!("/api/sessions/{id}/answers"))
                .header("content-type", "application/json")
                .body(Body::from(body.to_string()))?,
        )
        .await?;
    }
    Ok(id)
}

/// `participants` sessions, 32 at a time.
async fn fill(router: &axum::Router, participants: usize) -> anyhow::Result<Vec<String>> {
    let mut ids = Vec::with_capacity(participants);
    for chunk in (0..participants).collect::<Vec<_>>().chunks(32) {
        let runs = chunk.iter().map(|&p| one_session(router, p));
        for id in futures_util::future::join_all(runs).await {
            ids.push(id?);
        }
    }
    Ok(ids)
}

/// The process's resident memory now and its peak since the last [`reset_peak_memory`], in
/// MiB (`/proc/self/status`; zeros where it cannot be read).
fn memory_mib() -> (f64, f64) {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let field = |name: &str| {
        status
            .lines()
            .find_map(|l| l.strip_prefix(name))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<f64>().ok())
            .map_or(0.0, |kb| kb / 1024.0)
    };
    (field("VmRSS:"), field("VmHWM:"))
}

/// Starts a new peak for [`memory_mib`] (Linux: writing 5 to `clear_refs`).
fn reset_peak_memory() {
    let _ = std::fs::write("/proc/self/clear_refs", "5");
}

/// A GET of `path`, with `token` as its bearer token if any.
fn get(path: &str, token: Option<&str>) -> anyhow::Result<Request<Body>> {
    let mut request = Request::get(path);
    if let Some(token) = token {
        request = request.header("authorization", format!("Bearer {token}"));
    }
    Ok(request.body(Body::empty())?)
}

/// Median and worst of `n` sequential GETs of `path`, in milliseconds.
async fn gets(
    router: &axum::Router,
    path: &str,
    token: Option<&str>,
    n: usize,
) -> anyhow::Result<(f64, f64)> {
    let mut times = Vec::with_capacity(n);
    for _ in 0..n {
        let t = Instant::now();
        support::send(router, get(path, token)?).await?;
        times.push(t.elapsed());
    }
    times.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    Ok((ms(times[n / 2]), ms(times[n - 1])))
}

/// A new author's upload to the demo MCQ answering option 1 everywhere: the submission's id
/// and the author's token (the item gaps are the author's to read).
async fn upload_model(router: &axum::Router) -> anyhow::Result<(String, String)> {
    let token = support::author_token(router).await?;
    let inputs = support::send(router, get("/api/tasks/demo-mcq/inputs.jsonl", None)?).await?;
    let mut file = String::new();
    for line in String::from_utf8_lossy(&inputs).lines() {
        let item: serde_json::Value = serde_json::from_str(line)?;
        file.push_str(&format!(
            "{{\"item_id\":{},\"answer\":1}}\n",
            item["item_id"]
        ));
    }
    let uploaded = call(
        router,
        Request::post("/api/tasks/demo-mcq/submissions?model=bench")
            .header("authorization", format!("Bearer {token}"))
            .header("content-type", "application/x-ndjson")
            .body(Body::from(file))?,
    )
    .await?;
    let id = uploaded["submission_id"].as_str().unwrap_or_default();
    Ok((id.to_owned(), token))
}

/// The crowd table's bootstrap (1,000 resamples over `participants` × 12 answers, 80 %
/// correct): the three statistics from one pass per resample against one pass per statistic
/// (the reference, what every version before did), in the same run.
fn bootstrap_passes(participants: usize) {
    use memeboard_core::stats::{crowd_estimate, crowd_estimates, CrowdStatistic, Response};
    let responses: Vec<Response> = (0..participants)
        .flat_map(|p| {
            (0..12).map(move |i| Response {
                participant: p,
                item: (p * 7 + i * 5) % 60,
                score: f64::from(u8::from((p * 13 + i * 3) % 10 < 8)),
            })
        })
        .collect();
    let t = Instant::now();
    for stat in [
        CrowdStatistic::MeanOfParticipants,
        CrowdStatistic::BestParticipant,
        CrowdStatistic::Pooled,
    ] {
        std::hint::black_box(crowd_estimate(&responses, stat, 1000, 1));
    }
    let reference = t.elapsed().as_secs_f64() * 1e3;
    let t = Instant::now();
    std::hint::black_box(crowd_estimates(&responses, 1000, 1));
    let one_pass = t.elapsed().as_secs_f64() * 1e3;
    println!(
        "bootstrap of {} answers, 1,000 resamples: one pass {one_pass:.0} ms, one pass per \
         statistic (reference) {reference:.0} ms, ratio {:.2}",
        responses.len(),
        one_pass / reference
    );
}
/// The crowd's rows from the server's kept copy after each of 5 new completions: the
/// copy reads only the new session's rows (`Storage::crowd_rows_read`), against the whole
/// read measured in the same run.
async fn kept_copy_after_one_completion(
    router: &axum::Router,
    storage: &memeboard_server::storage::Storage,
    whole: f64,
) -> anyhow::Result<()> {
    std::hint::black_box(storage.crowd_responses("demo-mcq").await?);
    let (mut times, mut rows) = (Vec::new(), 0);
    for seed in 0..5 {
        one_session(router, 1_000_000_000 + seed).await?;
        let before = storage.crowd_rows_read();
        let t = Instant::now();
        std::hint::black_box(storage.crowd_responses("demo-mcq").await?);
        times.push(t.elapsed());
        rows = storage.crowd_rows_read() - before;
    }
    let kept = support::median(times).as_secs_f64() * 1e3;
    println!(
        "  the kept copy after one new completion: {kept:.1} ms (median of 5, {rows} rows read \
         from the database), ratio to the whole read {:.3}",
        kept / whole
    );
    Ok(())
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let participants: usize = std::env::var("MEMEBOARD_BENCH_PARTICIPANTS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(10_000);
    let dir = tempfile::tempdir()?;
    let mut settings = support::in_process_settings(dir.path())?;
    settings.quiz.bootstrap_resamples = 1000;
    bootstrap_passes(participants);
    let app = Application::build(settings).await?;
    let router = app.router();
    let storage = app.storage().clone();
    let t = Instant::now();
    let sessions = fill(&router, participants).await?;
    println!(
        "crowd figures with {participants} participants on demo-mcq ({:.0} s to fill):",
        t.elapsed().as_secs_f64()
    );
    let reference = {
        storage.set_crowd_refresh(Duration::ZERO);
        let mut times = Vec::new();
        for _ in 0..15 {
            let t = Instant::now();
            storage.count_crowd_data("demo-mcq").await?;
            times.push(t.elapsed());
        }
        times.sort();
        times[times.len() / 2].as_secs_f64() * 1e3
    };
    println!(
        "  reference: counting the crowd data over its answers (the fingerprint before its \
         counters), {reference:.1} ms (median of 15)"
    );
    let counters = {
        let mut times = Vec::new();
        for _ in 0..15 {
            let t = Instant::now();
            storage.crowd_fingerprint("demo-mcq").await?;
            times.push(t.elapsed());
        }
        times.sort();
        times[times.len() / 2].as_secs_f64() * 1e3
    };
    println!(
        "  the crowd fingerprint from its counters: {counters:.2} ms (median of 15), \
         ratio to the reference {:.4}",
        counters / reference
    );
    let read_answers = {
        let mut times = Vec::new();
        for _ in 0..5 {
            let t = Instant::now();
            std::hint::black_box(storage.crowd_responses_read_whole("demo-mcq").await?);
            times.push(t.elapsed());
        }
        support::median(times).as_secs_f64() * 1e3
    };
    println!(
        "  reference: reading the crowd's answers whole (what the item gaps did on every \
         request, and every recomputation before the kept copies), {read_answers:.1} ms \
         (median of 5)"
    );
    kept_copy_after_one_completion(&router, &storage, read_answers).await?;
    let (submission, author) = upload_model(&router).await?;
    let results = format!("/api/sessions/{}/results", sessions[0]);
    let gaps = format!("/api/submissions/{submission}/items");
    let paths = [
        ("/stats", "/api/quizzes/demo-mcq/stats".to_owned(), None),
        ("board", "/api/boards/demo-mcq".to_owned(), None),
        ("results", results, None),
        ("gaps", gaps, Some(author.as_str())),
    ];
    for refresh in [0u64, 5] {
        storage.set_crowd_refresh(Duration::from_secs(refresh));
        println!("  crowd_refresh_secs = {refresh}:");
        for (name, path, token) in &paths {
            let (before, _) = memory_mib();
            reset_peak_memory();
            let t = Instant::now();
            support::send(&router, get(path, *token)?).await?;
            let first = t.elapsed().as_secs_f64() * 1e3;
            let (_, peak) = memory_mib();
            println!(
                "    {name:<8} first request: memory {before:.0} MiB before, peak {peak:.0} MiB \
                 (+{:.0})",
                peak - before
            );
            let (median, worst) = gets(&router, path, *token, 15).await?;
            let reads = storage.crowd_reads();
            let reference = if *name == "gaps" {
                read_answers
            } else {
                reference
            };
            println!(
                "    {name:<8} first {first:>8.1} ms, then median {median:>7.2} ms (worst {worst:>7.1}), median/reference {:.4}; crowd reads so far {reads}",
                median / reference
            );
        }
        // Others completing sessions meanwhile: every completion changes the crowd data.
        let busy = {
            let router = router.clone();
            tokio::spawn(async move { fill(&router, 64).await })
        };
        let (median, worst) = gets(&router, &paths[0].1, None, 15).await?;
        busy.await??;
        println!(
            "    /stats while 64 others complete: median {median:>7.2} ms (worst {worst:>7.1})"
        );
    }
    Ok(())
}
