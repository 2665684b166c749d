//! No acknowledged answer is lost and no answer is acknowledged twice: concurrent answers to
//! one session complete it exactly once, a reused idempotency key must repeat its answer, and
//! a full disk makes the server refuse (503, retryable) instead of acknowledging what it did
//! not store — with every acknowledged answer still there after a restart.

use crate::helpers::{detail, item_ids, join_all, start_body, test_settings, Db, TestApp};
use crate::on_both_databases;
use axum::http::StatusCode;
use serde_json::json;
use std::path::Path;
use std::process::Command;
use std::str::FromStr;

/// Answers every item of several fresh demo sessions at the same moment, from parallel tasks
/// on a multi-threaded runtime (in-process requests on one thread rarely overlap inside the
/// database): every session must end complete, with one completion code.
async fn concurrent_answers_complete_every_session(db: Db) {
    let (mut settings, dir) = test_settings(db, true).await;
    settings.database.max_connections = 16;
    let app = std::sync::Arc::new(TestApp::with_settings(settings, dir).await);
    let mut sessions = Vec::new();
    for _ in 0..8 {
        let session = app.start_demo_session().await;
        sessions.push((
            session["session_id"].as_str().unwrap().to_owned(),
            item_ids(&session),
        ));
    }
    let mut tasks = Vec::new();
    for (id, items) in &sessions {
        for (n, item) in items.iter().enumerate() {
            let (app, id, item) = (app.clone(), id.clone(), item.clone());
            tasks.push(tokio::spawn(async move {
                app.answer(&id, &item, 0, &format!("k{n}")).await
            }));
        }
    }
    for task in tasks {
        let (status, body) = task.await.expect("task");
        assert_eq!(status, StatusCode::CREATED, "{body}");
    }
    for (id, _) in &sessions {
        let (_, stored) = app.get(&format!("/api/sessions/{id}")).await;
        assert_eq!(stored["status"], "completed", "{stored}");
        assert!(stored["completion_code"].as_str().is_some(), "{stored}");
        let (status, _) = app.get(&format!("/api/sessions/{id}/results")).await;
        assert_eq!(status, StatusCode::OK);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn concurrent_answers_complete_every_session_sqlite() {
    concurrent_answers_complete_every_session(Db::Sqlite).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn concurrent_answers_complete_every_session_postgres() {
    if crate::helpers::postgres_available() {
        concurrent_answers_complete_every_session(Db::Postgres).await;
    }
}

async fn an_idempotency_key_must_repeat_its_answer(db: Db) {
    let app = TestApp::spawn(db).await;
    let session = app.start_demo_session().await;
    let id = session["session_id"].as_str().unwrap();
    let item = item_ids(&session)[0].clone();
    let (status, _) = app.answer(id, &item, 1, "key-1").await;
    assert_eq!(status, StatusCode::CREATED);
    // The same answer again: a replay.
    let (status, body) = app.answer(id, &item, 1, "key-1").await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["replayed"], true);
    // The same key with another answer: refused, not reported as a replay.
    let (status, body) = app.answer(id, &item, 3, "key-1").await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert!(detail(&body).contains("different answer"), "{body}");
    assert_eq!(app.count("answers").await, 1);
}

/// A start resent after a lost response (same `start_key`) gets the session it created, not an
/// orphan second one; concurrent resends too. The participant secret that went out with the
/// lost response is replaced, and only the new one works.
async fn a_resent_start_returns_the_session_it_created(db: Db) {
    let app = TestApp::spawn(db).await;
    let mut body = start_body(false);
    body["start_key"] = json!("start-key-1");
    let (status, first) = app
        .post("/api/quizzes/demo-mcq/sessions", body.clone())
        .await;
    assert_eq!(status, StatusCode::CREATED, "{first}");
    let (status, again) = app
        .post("/api/quizzes/demo-mcq/sessions", body.clone())
        .await;
    assert_eq!(status, StatusCode::OK, "{again}");
    assert_eq!(again["session_id"], first["session_id"]);
    assert_eq!(again["items"], first["items"]);
    assert_eq!(app.count("sessions").await, 1);
    let participant = again["participant_id"].as_str().unwrap();
    let old = first["participant_secret"].as_str().unwrap();
    let new = again["participant_secret"].as_str().unwrap();
    assert_ne!(old, new, "the possibly lost secret is replaced");
    let later = |secret: &str, key: &str| {
        let mut b = start_body(false);
        b["participant_id"] = json!(participant);
        b["participant_secret"] = json!(secret);
        b["start_key"] = json!(key);
        b
    };
    let (status, _) = app
        .post("/api/quizzes/demo-mcq/sessions", later(old, "start-key-2"))
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (status, second) = app
        .post("/api/quizzes/demo-mcq/sessions", later(new, "start-key-3"))
        .await;
    assert_eq!(status, StatusCode::CREATED, "{second}");
    assert_eq!(second["participant_id"], participant);
    // A resend by the owner (who has the secret) keeps the secret.
    let (status, resent) = app
        .post("/api/quizzes/demo-mcq/sessions", later(new, "start-key-3"))
        .await;
    assert_eq!(status, StatusCode::OK);
    assert!(resent["participant_secret"].is_null(), "{resent}");
    // Concurrent resends of one start: one session.
    let mut racing = start_body(false);
    racing["start_key"] = json!("start-key-4");
    let results =
        join_all((0..5).map(|_| app.post("/api/quizzes/demo-mcq/sessions", racing.clone()))).await;
    let ids: std::collections::BTreeSet<&str> = results
        .iter()
        .map(|(s, b)| {
            assert!(s.is_success(), "{s} {b}");
            b["session_id"].as_str().unwrap()
        })
        .collect();
    assert_eq!(ids.len(), 1, "{results:?}");
    assert_eq!(app.count("sessions").await, 3);
}

on_both_databases!(
    an_idempotency_key_must_repeat_its_answer,
    a_resent_start_returns_the_session_it_created,
);

/// A small tmpfs for the SQLite file, unmounted on drop. `None` where mounting is not allowed
/// (not root); required in the test command (`MEMEBOARD_REQUIRE_TMPFS=1`).
pub(crate) struct SmallDisk {
    pub(crate) path: std::path::PathBuf,
}

impl SmallDisk {
    pub(crate) fn mount(path: &Path, size: &str) -> Option<Self> {
        std::fs::create_dir_all(path).ok()?;
        let ok = Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={size}"), "tmpfs"])
            .arg(path)
            .status()
            .is_ok_and(|s| s.success());
        if !ok {
            assert!(
                std::env::var("MEMEBOARD_REQUIRE_TMPFS").map_or(true, |v| v != "1"),
                "MEMEBOARD_REQUIRE_TMPFS=1 but a tmpfs could not be mounted (run as root)"
            );
            eprintln!("skipped: cannot mount a tmpfs here (needs root)");
            return None;
        }
        Some(Self {
            path: path.to_owned(),
        })
    }

    /// Writes zeros until the file system is full.
    pub(crate) fn fill(&self) {
        use std::io::Write;
        let mut f = std::fs::File::create(self.path.join("fill")).expect("fill file");
        let block = vec![0u8; 64 * 1024];
        while f.write_all(&block).is_ok() {}
        let small = [0u8; 512];
        while f.write_all(&small).is_ok() {}
        let _ = f.sync_all();
    }

    pub(crate) fn free(&self) {
        std::fs::remove_file(self.path.join("fill")).expect("remove fill file");
    }
}

/// A 48 MiB tmpfs for the demo database, its URL set in `settings`: (the folder the mount
/// lives in, the mount, the URL); `None` where mounting is not allowed. The mount lives
/// outside the app's data dir, and is unmounted (dropped) before its parent directory is
/// removed. 48 MiB: the demo database with its write-ahead log (the study tables, the demo
/// uploads with their stored prediction files, the panel demo's images: about 20 MB) fits
/// with room for a restart; `fill` takes whatever is left.
pub(crate) fn demo_database_on_a_small_disk(
    settings: &mut memeboard_server::config::Settings,
) -> Option<(tempfile::TempDir, SmallDisk, String)> {
    let disk_root = tempfile::tempdir().expect("temp dir");
    let disk = SmallDisk::mount(&disk_root.path().join("disk"), "48M")?;
    let url = format!("sqlite://{}?mode=rwc", disk.path.join("m.db").display());
    settings.database.url = url.clone();
    Some((disk_root, disk, url))
}

/// What start-up says when it refuses the database of `settings` (every cause, `{:#}`).
pub(crate) async fn start_up_refusal(
    settings: memeboard_server::config::Settings,
    why: &str,
) -> String {
    let err = memeboard_server::startup::Application::build(settings)
        .await
        .err()
        .expect(why);
    format!("{err:#}")
}

impl Drop for SmallDisk {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg("-l").arg(&self.path).status();
    }
}

#[tokio::test]
async fn a_full_disk_acknowledges_only_what_it_stored() {
    let (mut settings, dir) = test_settings(Db::Sqlite, true).await;
    let Some((_disk_root, disk, url)) = demo_database_on_a_small_disk(&mut settings) else {
        return;
    };
    let keep = tempfile::tempdir().expect("temp dir");
    let app = TestApp::with_settings(settings.clone(), dir).await;
    let (status, session) = app
        .post("/api/quizzes/demo-mcq/sessions", start_body(false))
        .await;
    assert_eq!(status, StatusCode::CREATED, "{session}");
    let id = session["session_id"].as_str().unwrap().to_owned();
    let items = item_ids(&session);
    let (status, _) = app.answer(&id, &items[0], 0, "k0").await;
    assert_eq!(status, StatusCode::CREATED);
    let mut acknowledged = vec![items[0].clone()];

    // The group writer restarts the write-ahead log once a second, after which writes reuse
    // the log's space and need no new disk; empty the log so that the next writes must grow
    // the files, as they do once the log's space is used up.
    empty_write_ahead_log(&url).await;
    disk.fill();
    let mut refused = Vec::new();
    for (n, item) in items.iter().enumerate().skip(1) {
        let (status, body) = app.answer(&id, item, 0, &format!("k{n}")).await;
        match status {
            StatusCode::CREATED => acknowledged.push(item.clone()),
            StatusCode::SERVICE_UNAVAILABLE => {
                assert!(detail(&body).contains("not recorded"), "{body}");
                refused.push((n, item.clone()));
            }
            other => panic!("answer {n}: {other} {body}"),
        }
    }
    assert!(!refused.is_empty(), "a full disk refused nothing");
    let (status, _) = app.get("/healthz").await;
    assert_eq!(
        status,
        StatusCode::SERVICE_UNAVAILABLE,
        "/healthz says ok on a full disk"
    );

    // Space returns: the server recovers without a restart and takes the refused answers.
    disk.free();
    for (n, item) in &refused {
        let (status, body) = app.answer(&id, item, 0, &format!("k{n}")).await;
        assert_eq!(status, StatusCode::CREATED, "after space returned: {body}");
        acknowledged.push(item.clone());
    }
    let (status, _) = app.get("/healthz").await;
    assert_eq!(status, StatusCode::OK);

    // Restart on the same file: every acknowledged answer is there, once.
    drop(app);
    settings.data.dir = keep.path().to_owned();
    settings.data.load_demo = false;
    let again = TestApp::with_settings(settings, keep).await;
    let (_, stored) = again.get(&format!("/api/sessions/{id}")).await;
    assert_eq!(stored["status"], "completed", "{stored}");
    for item in &acknowledged {
        let row = stored["items"]
            .as_array()
            .unwrap()
            .iter()
            .find(|i| i["item_id"] == item.as_str())
            .unwrap();
        assert_eq!(row["answered"], true, "acknowledged answer lost: {item}");
    }
    assert_eq!(again.count("answers").await, items.len() as i64);
}

/// Checkpoints the database's write-ahead log and truncates it to zero bytes.
pub(crate) async fn empty_write_ahead_log(url: &str) {
    use sqlx::{ConnectOptions, Connection};
    let mut conn = sqlx::sqlite::SqliteConnectOptions::from_str(url)
        .expect("database url")
        .busy_timeout(std::time::Duration::from_secs(5))
        .connect()
        .await
        .expect("open the database");
    let row = sqlx::query("PRAGMA wal_checkpoint(TRUNCATE)")
        .fetch_one(&mut conn)
        .await
        .expect("checkpoint");
    let busy: i64 = sqlx::Row::get(&row, 0);
    assert_eq!(busy, 0, "the write-ahead log could not be truncated");
    conn.close().await.expect("close");
}

/// A database that cannot be opened or written stops start-up at once with what and where,
/// not a bare "timed out".
#[tokio::test]
async fn start_up_names_a_database_it_cannot_use() {
    let (mut settings, dir) = test_settings(Db::Sqlite, false).await;
    let missing = dir.path().join("no-such-dir/m.db");
    settings.database.url = format!("sqlite://{}?mode=rwc", missing.display());
    let text = start_up_refusal(settings.clone(), "a missing directory is refused").await;
    assert!(
        text.contains("no-such-dir") && text.contains("does not exist"),
        "{text}"
    );

    // A database that opens read-only (as a read-only file or mount would).
    let file = dir.path().join("m.db");
    settings.database.url = format!("sqlite://{}?mode=rwc", file.display());
    drop(
        memeboard_server::startup::Application::build(settings.clone())
            .await
            .expect("create the database"),
    );
    settings.database.url = format!("sqlite://{}?mode=ro", file.display());
    let text = start_up_refusal(settings, "a read-only database is refused").await;
    assert!(
        text.contains("m.db") && text.contains("cannot store data"),
        "{text}"
    );
}

/// An upload body the server must not read: polling it fails the test.
fn untouchable_body() -> axum::body::Body {
    axum::body::Body::from_stream(futures_util::stream::poll_fn(
        |_| -> std::task::Poll<Option<Result<axum::body::Bytes, std::io::Error>>> {
            panic!("the upload body was read before the request was admitted")
        },
    ))
}

async fn send_upload(app: &TestApp, token: Option<&str>, length: usize) -> StatusCode {
    use tower::ServiceExt;
    let mut request =
        axum::http::Request::post("/api/tasks/demo-mcq/submissions?model=Probe&weights=open")
            .header("content-type", "application/x-ndjson")
            .header("content-length", length.to_string());
    if let Some(t) = token {
        request = request.header("authorization", format!("Bearer {t}"));
    }
    app.app
        .router()
        .oneshot(request.body(untouchable_body()).expect("request"))
        .await
        .expect("response")
        .status()
}

/// Uploads are authenticated, quota-checked and size-checked from their headers before a
/// byte of the body is read: a flood of large unauthenticated uploads costs no memory.
async fn uploads_are_admitted_before_their_body_is_read(db: Db) {
    let (mut settings, dir) = test_settings(db, true).await;
    settings.leaderboard.daily_quota = 0;
    let app = TestApp::with_settings(settings, dir).await;
    let twenty_mb = 20 * 1024 * 1024;
    assert_eq!(
        send_upload(&app, None, twenty_mb).await,
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(
        send_upload(&app, Some("not-a-token"), twenty_mb).await,
        StatusCode::UNAUTHORIZED
    );
    let (status, author) = app
        .post(
            "/api/authors",
            json!({"name": "Probe", "organisation": "Lab"}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{author}");
    let token = author["token"].as_str().unwrap();
    // No quota left: refused from the headers.
    assert_eq!(
        send_upload(&app, Some(token), 100).await,
        StatusCode::TOO_MANY_REQUESTS
    );
}

/// A declared length over the limit is refused before reading, whatever the quota.
async fn oversized_uploads_are_refused_from_their_length(db: Db) {
    let app = TestApp::spawn(db).await;
    let (_, author) = app
        .post(
            "/api/authors",
            json!({"name": "Big", "organisation": "Lab"}),
        )
        .await;
    let token = author["token"].as_str().unwrap();
    assert_eq!(
        send_upload(&app, Some(token), 64 * 1024 * 1024).await,
        StatusCode::PAYLOAD_TOO_LARGE
    );
}

on_both_databases!(
    uploads_are_admitted_before_their_body_is_read,
    oversized_uploads_are_refused_from_their_length,
);

/// The real listener: a client that never finishes its headers is cut off after the
/// header-read timeout, and connections beyond the cap are closed at once, so half-open
/// sockets cannot exhaust the server; afterwards it serves again.
#[tokio::test]
async fn half_open_connections_are_timed_out_and_capped() {
    use tokio::io::AsyncWriteExt;
    use tokio::net::TcpStream;
    let (mut settings, dir) = test_settings(Db::Sqlite, false).await;
    settings.server.header_read_timeout_secs = 2;
    settings.server.max_connections = 2;
    let (port, stop, server) = listening(settings).await;
    let connect = || TcpStream::connect(("127.0.0.1", port));
    // Two slow clients hold both slots; a third connection is closed at once.
    let mut first = connect().await.unwrap();
    first
        .write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")
        .await
        .unwrap();
    let second = connect().await.unwrap();
    tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    let third = connect().await.unwrap();
    assert!(
        closed_within(third, 1).await,
        "a connection over the cap stayed open"
    );
    // The slow ones are cut off by the header-read timeout…
    assert!(
        closed_within(first, 10).await,
        "a half-open connection was kept"
    );
    assert!(
        closed_within(second, 10).await,
        "an idle connection was kept"
    );
    // …and the server serves new clients again.
    let client = connect().await.unwrap();
    assert_healthy(client).await;
    let _ = stop.send(());
    server.await.unwrap().unwrap();
    drop(dir);
}

/// The real listener: one client address holding its share of idle connections is refused
/// more, while another address is still served (Linux routes all of 127/8 to loopback, so a
/// socket bound to 127.0.0.2 is a second client).
#[tokio::test]
async fn one_address_cannot_take_every_connection() {
    use tokio::net::TcpSocket;
    let (mut settings, dir) = test_settings(Db::Sqlite, false).await;
    settings.server.max_connections = 10;
    settings.server.max_connections_per_address = 3;
    let (port, stop, server) = listening(settings).await;
    let from = |ip: &'static str| async move {
        let socket = TcpSocket::new_v4().unwrap();
        socket.bind(format!("{ip}:0").parse().unwrap()).unwrap();
        socket
            .connect(format!("127.0.0.1:{port}").parse().unwrap())
            .await
            .unwrap()
    };
    let mut held = Vec::new();
    for _ in 0..3 {
        held.push(from("127.0.0.1").await);
    }
    tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    assert!(
        closed_within(from("127.0.0.1").await, 2).await,
        "a fourth connection from one address stayed open"
    );
    let other = from("127.0.0.2").await;
    assert_healthy(other).await;
    // The held ones still work, and closing one frees its place.
    drop(held.pop());
    tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    let again = from("127.0.0.1").await;
    assert_healthy(again).await;
    drop(held);
    let _ = stop.send(());
    server.await.unwrap().unwrap();
    drop(dir);
}

/// The real listener: a client that sends its headers and then stalls its body is answered
/// 408 with the error envelope once the body deadline passes, and its connection is closed;
/// a body that arrives in time is served as usual.
#[tokio::test]
async fn a_stalled_body_is_answered_408_and_closed() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    use tokio::net::TcpStream;
    let (mut settings, dir) = test_settings(Db::Sqlite, false).await;
    settings.server.body_read_timeout_secs = 1;
    let (port, stop, server) = listening(settings).await;
    let mut slow = TcpStream::connect(("127.0.0.1", port)).await.unwrap();
    slow.write_all(
        b"POST /api/authors HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"na",
    )
    .await
    .unwrap();
    let started = std::time::Instant::now();
    let mut response = String::new();
    tokio::time::timeout(
        std::time::Duration::from_secs(10),
        slow.read_to_string(&mut response),
    )
    .await
    .expect("the stalled request was answered and its connection closed")
    .unwrap();
    assert!(response.starts_with("HTTP/1.1 408"), "{response}");
    assert!(response.contains("request.body_timeout"), "{response}");
    assert!(started.elapsed() < std::time::Duration::from_secs(8));
    // A body sent at once is served.
    let body = r#"{"name":"On time"}"#;
    let mut client = TcpStream::connect(("127.0.0.1", port)).await.unwrap();
    client
        .write_all(
            format!(
                "POST /api/authors HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                body.len()
            )
            .as_bytes(),
        )
        .await
        .unwrap();
    let mut ok = String::new();
    client.read_to_string(&mut ok).await.unwrap();
    assert!(ok.starts_with("HTTP/1.1 201"), "{ok}");
    let _ = stop.send(());
    server.await.unwrap().unwrap();
    drop(dir);
}

/// Whether the server closes `stream` within `secs` seconds (read to its end).
async fn closed_within(mut stream: tokio::net::TcpStream, secs: u64) -> bool {
    use tokio::io::AsyncReadExt;
    let mut buf = Vec::new();
    tokio::time::timeout(
        std::time::Duration::from_secs(secs),
        stream.read_to_end(&mut buf),
    )
    .await
    .is_ok()
}

/// Asks for `/healthz` on `stream` (closing after) and checks the answer is a 200.
async fn assert_healthy(mut stream: tokio::net::TcpStream) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    stream
        .write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        .await
        .unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).await.unwrap();
    assert!(response.starts_with("HTTP/1.1 200"), "{response}");
}

/// The server on a real listener: its port, the switch that stops it, and its task.
async fn listening(
    settings: memeboard_server::config::Settings,
) -> (
    u16,
    tokio::sync::oneshot::Sender<()>,
    tokio::task::JoinHandle<anyhow::Result<()>>,
) {
    let app = memeboard_server::startup::Application::build(settings)
        .await
        .expect("build");
    let port = app.port();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let server = tokio::spawn(app.run_until(async {
        let _ = stopped.await;
    }));
    (port, stop, server)
}
