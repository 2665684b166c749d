//! Quiz answers over real HTTP (not a timed test): the release server binary runs in its own
//! process on a loopback port, and this process drives it over keep-alive TCP connections,
//! one per participant, each starting a session of the demo MCQ quiz and answering its batch
//! one item after the other (a closed loop), for 10 and 200 participants at once, then 200
//! offering 5,000 answers/s together on a schedule (latency from each answer's due time). Printed:
//! answers/s, latency p50/p99, and the server process's CPU per answer (from /proc) — beside
//! the same workload sent in process through the router (no sockets) in the same run, the
//! reference: the difference is what the connection, HTTP parsing and middleware cost. Last,
//! the raw SQLite commit rate (one answer-sized row per synced transaction, no server) of the
//! same run, for scale.
//!
//! With `MEMEBOARD_BENCH_POSTGRES_URL` (a PostgreSQL server, e.g. the one `scripts/postgres.sh
//! start` runs), two server processes on one fresh database are driven the same way.
//!
//! Run: `cargo bench -p memeboard-server --bench http` (part of `scripts/bench.sh`);
//! `MEMEBOARD_BENCH_SECONDS` sets each run's length (default 10 s).

use std::time::{Duration, Instant};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpStream;

/// The server's allocator (see `src/main.rs`).
mod support;
use support::Pace;

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// CPU seconds (user + system) the processes `pids` have used so far, together.
fn cpu_of(pids: &[String]) -> anyhow::Result<f64> {
    pids.iter().map(|pid| cpu_seconds(pid)).sum()
}

/// CPU seconds (user + system) a process has used so far, from `/proc/<pid>/stat`.
fn cpu_seconds(pid: &str) -> anyhow::Result<f64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat"))?;
    // Fields after the command name (which may hold spaces) start at state, field 3.
    let rest = stat.rsplit_once(')').map(|(_, r)| r).unwrap_or_default();
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks: f64 = fields[11].parse::<f64>()? + fields[12].parse::<f64>()?;
    Ok(ticks / 100.0)
}

/// One keep-alive HTTP/1.1 connection.
struct Conn {
    stream: BufReader<TcpStream>,
}

impl Conn {
    async fn open(port: u16) -> anyhow::Result<Self> {
        let stream = TcpStream::connect(("127.0.0.1", port)).await?;
        stream.set_nodelay(true)?;
        Ok(Self {
            stream: BufReader::new(stream),
        })
    }

    /// Sends a request and reads its response: `(status, body)`.
    async fn send(
        &mut self,
        method: &str,
        path: &str,
        body: &str,
    ) -> anyhow::Result<(u16, Vec<u8>)> {
        let head = format!(
            "{method} {path} HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\n\
             content-length: {}\r\n\r\n",
            body.len()
        );
        let stream = self.stream.get_mut();
        stream.write_all(head.as_bytes()).await?;
        stream.write_all(body.as_bytes()).await?;
        let mut line = String::new();
        self.stream.read_line(&mut line).await?;
        let status: u16 = line.split(' ').nth(1).unwrap_or("0").parse()?;
        let mut length = 0usize;
        loop {
            line.clear();
            self.stream.read_line(&mut line).await?;
            let header = line.trim_end();
            if header.is_empty() {
                break;
            }
            if let Some((name, value)) = header.split_once(':') {
                if name.eq_ignore_ascii_case("content-length") {
                    length = value.trim().parse()?;
                }
            }
        }
        let mut body = vec![0u8; length];
        self.stream.read_exact(&mut body).await?;
        Ok((status, body))
    }
}

/// How one request is sent: over a connection, or in process through the router.
enum Client {
    Http(Conn),
    InProcess(axum::Router),
}

impl Client {
    async fn send(&mut self, path: &str, body: &str) -> anyhow::Result<serde_json::Value> {
        let (status, bytes) = match self {
            Client::Http(conn) => conn.send("POST", path, body).await?,
            Client::InProcess(router) => {
                use http_body_util::BodyExt;
                use tower::ServiceExt;
                let request = axum::http::Request::post(path)
                    .header("content-type", "application/json")
                    .body(axum::body::Body::from(body.to_owned()))?;
                let response = router.clone().oneshot(request).await?;
                let status = response.status().as_u16();
                (
                    status,
                    response.into_body().collect().await?.to_bytes().to_vec(),
                )
            }
        };
        anyhow::ensure!(
            (200..300).contains(&status),
            "{path}: {status} {}",
            String::from_utf8_lossy(&bytes)
        );
        Ok(serde_json::from_slice(&bytes)?)
    }
}

/// Answers per second the paced runs' 200 participants offer together (issue 28's rate).
const PACED_RATE: f64 = 5_000.0;

/// The demo MCQ quiz's batch size (answers per session).
const DEMO_BATCH: u32 = 24;

/// One participant until `until`: sessions one after the other, each answer's latency kept.
/// Without `pace` each answer goes as soon as the previous one is acknowledged (a closed loop);
/// with it, each answer goes at its due time (at once when behind) and its latency counts from
/// that time, so time queued behind a slow answer counts too (no coordinated omission).
async fn participant(
    mut client: Client,
    until: Instant,
    mut pace: Option<Pace>,
) -> anyhow::Result<Vec<Duration>> {
    let mut latencies = Vec::new();
    while Instant::now() < until {
        if let Some(pace) = &pace {
            // A paced participant arrives when their next answer is due.
            tokio::time::sleep_until(pace.next_due.into()).await;
        }
        let session = client
            .send("/api/quizzes/demo-mcq/sessions", support::START_BODY)
            .await?;
        let id = session["session_id"]
            .as_str()
            .unwrap_or_default()
            .to_owned();
        let items = session["items"].as_array().cloned().unwrap_or_default();
        for (n, item) in items.iter().enumerate() {
            let body = serde_json::json!({"item_id": item["item_id"], "idempotency_key":
                format!("k{n}"), "answer": {"kind": "choice", "position": n % 5},
                "response_ms": 1500});
            let t = match pace.as_mut() {
                Some(pace) => pace.next().await,
                None => Instant::now(),
            };
            client
                .send(&format!("/api/sessions/{id}/answers"), &body.to_string())
                .await?;
            latencies.push(t.elapsed());
        }
    }
    Ok(latencies)
}

/// Runs `participants` for `seconds`, measuring the CPU of the processes `pids`; prints a line.
/// With `rate`, the participants together offer that many answers per second, each on their
/// own schedule.
async fn run(
    label: &str,
    clients: Vec<Client>,
    seconds: u64,
    pids: &[String],
    rate: Option<f64>,
) -> anyhow::Result<f64> {
    let participants = clients.len();
    let cpu_before = cpu_of(pids)?;
    let t = Instant::now();
    let until = t + Duration::from_secs(seconds);
    let every = rate.map(|r| Duration::from_secs_f64(participants as f64 / r));
    let tasks: Vec<_> = clients
        .into_iter()
        .enumerate()
        .map(|(n, c)| {
            // Arrivals spread over one session's length, so that session starts (heavier
            // writes) do not come in step, as they would not from real people.
            let pace = every.map(|every| Pace {
                next_due: t + (every * DEMO_BATCH).mul_f64(n as f64 / participants as f64),
                every,
            });
            tokio::spawn(participant(c, until, pace))
        })
        .collect();
    let mut latencies = Vec::new();
    for task in tasks {
        latencies.extend(task.await??);
    }
    let elapsed = t.elapsed().as_secs_f64();
    let cpu = cpu_of(pids)? - cpu_before;
    latencies.sort();
    let n = latencies.len().max(1);
    let ms = |p: f64| latencies[((n - 1) as f64 * p) as usize].as_secs_f64() * 1e3;
    let cpu_per_answer_us = cpu / n as f64 * 1e6;
    let offered = rate.map_or(String::new(), |r| format!(" offered {r:.0}/s,"));
    println!(
        "  {label:<11} {participants:>3} participants:{offered} {:>6.0} answers/s, p50 {:>6.1} ms, \
         p99 {:>6.1} ms, {cpu_per_answer_us:>5.0} µs CPU per answer",
        n as f64 / elapsed,
        ms(0.5),
        ms(0.99),
    );
    Ok(cpu_per_answer_us)
}

/// Starts the server binary on a free port with a fresh data dir — on `database` when given
/// (PostgreSQL; the demo loaded only with `load_demo`), else its own SQLite file; waits until
/// it answers.
async fn start_server(
    dir: &std::path::Path,
    database: Option<&str>,
    load_demo: bool,
) -> anyhow::Result<(std::process::Child, u16)> {
    let port = std::net::TcpListener::bind("127.0.0.1:0")?
        .local_addr()?
        .port();
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_memeboard"));
    if let Some(url) = database {
        command.env("DATABASE_URL", url);
    }
    let child = command
        .arg("serve")
        .env("MEMEBOARD__DATA__LOAD_DEMO", load_demo.to_string())
        .env("MEMEBOARD__SERVER__PORT", port.to_string())
        .env("MEMEBOARD__DATA__DIR", dir)
        .env("MEMEBOARD__SERVER__STATIC_DIR", dir.join("no-dist"))
        .env("MEMEBOARD__MODEL__DIR", dir.join("no-model"))
        .env("MEMEBOARD__DATA__LOAD_DEMO_SUBMISSIONS", "false")
        .env("MEMEBOARD__RATE_LIMITS__SESSION_STARTS_PER_MINUTE", "0")
        .env("MEMEBOARD__SERVER__MAX_CONNECTIONS_PER_ADDRESS", "0")
        .env("RUST_LOG", "warn")
        .spawn()?;
    for _ in 0..600 {
        if let Ok(mut conn) = Conn::open(port).await {
            if let Ok((200, _)) = conn.send("GET", "/healthz", "").await {
                return Ok((child, port));
            }
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    anyhow::bail!("the server did not start on port {port}")
}

/// Two server processes on one fresh PostgreSQL database (a multi-instance deployment), 200
/// participants' connections alternating between them, closed loop and paced; the servers'
/// CPU summed. Run when `MEMEBOARD_BENCH_POSTGRES_URL` names a server (`scripts/postgres.sh`).
async fn two_instances_on_postgres(admin_url: &str, seconds: u64) -> anyhow::Result<()> {
    use sqlx::Connection;
    let name = format!("memeboard_bench_{}", std::process::id());
    let mut admin = sqlx::PgConnection::connect(admin_url).await?;
    sqlx::query(&format!("DROP DATABASE IF EXISTS {name}"))
        .execute(&mut admin)
        .await?;
    sqlx::query(&format!("CREATE DATABASE {name}"))
        .execute(&mut admin)
        .await?;
    let base = admin_url.rsplit_once('/').map_or(admin_url, |(b, _)| b);
    let url = format!("{base}/{name}");
    let dirs = [tempfile::tempdir()?, tempfile::tempdir()?];
    let first = start_server(dirs[0].path(), Some(&url), true).await?;
    let second = start_server(dirs[1].path(), Some(&url), false).await?;
    let pids = [first.0.id().to_string(), second.0.id().to_string()];
    println!("two server processes on one PostgreSQL database, 200 participants alternating:");
    for rate in [None, Some(PACED_RATE)] {
        let mut conns = Vec::new();
        for n in 0..200 {
            let port = if n % 2 == 0 { first.1 } else { second.1 };
            conns.push(Client::Http(Conn::open(port).await?));
        }
        run("PostgreSQL", conns, seconds, &pids, rate).await?;
    }
    for (mut child, _) in [first, second] {
        child.kill()?;
        child.wait()?;
    }
    sqlx::query(&format!("DROP DATABASE IF EXISTS {name}"))
        .execute(&mut admin)
        .await?;
    Ok(())
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() -> anyhow::Result<()> {
    let seconds: u64 = std::env::var("MEMEBOARD_BENCH_SECONDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(10);
    println!(
        "quiz answers over HTTP against in process ({seconds} s each; closed loop, then paced):"
    );
    let http_dir = tempfile::tempdir()?;
    let (mut child, port) = start_server(http_dir.path(), None, true).await?;
    let server_pid = [child.id().to_string()];
    let own_pid = [std::process::id().to_string()];
    let in_dir = tempfile::tempdir()?;
    let mut settings = support::in_process_settings(in_dir.path())?;
    settings.data.load_demo_submissions = false;
    let app = memeboard_server::startup::Application::build(settings).await?;
    for (participants, rate) in [(10usize, None), (200, None), (200, Some(PACED_RATE))] {
        let mut conns = Vec::new();
        for _ in 0..participants {
            conns.push(Client::Http(Conn::open(port).await?));
        }
        let http = run("over HTTP", conns, seconds, &server_pid, rate).await;
        let local = (0..participants)
            .map(|_| Client::InProcess(app.router()))
            .collect();
        let reference = run("in process", local, seconds, &own_pid, rate).await?;
        let http = http?;
        println!(
            "  {participants} participants{}: HTTP/in-process CPU per answer {:.2}",
            if rate.is_some() { " paced" } else { "" },
            http / reference
        );
    }
    child.kill()?;
    child.wait()?;
    let raw_dir = tempfile::tempdir()?;
    let raw_synced = support::raw_commit_rate(raw_dir.path(), 2_000, "FULL").await?;
    let raw = support::raw_commit_rate(raw_dir.path(), 5_000, "NORMAL").await?;
    println!(
        "  raw SQLite commit rate (one row per transaction, no server): {raw_synced:.0}/s \
         synced (FULL), {raw:.0}/s unsynced (NORMAL)"
    );
    if let Ok(admin_url) = std::env::var("MEMEBOARD_BENCH_POSTGRES_URL") {
        two_instances_on_postgres(&admin_url, seconds).await?;
    }
    Ok(())
}
