//! Write faults beyond single answers: uploads on a full disk while `/healthz` is polled (no
//! wedged writer, no upload acknowledged but not stored), 200 concurrent session starts over
//! two instances on one PostgreSQL database (no deadlock on the exposure counters), and a
//! read-only database named at start-up.

use crate::helpers::{item_ids, start_body, test_settings, Db, TestApp};
use crate::reliability::{
    demo_database_on_a_small_disk, empty_write_ahead_log, start_up_refusal, SmallDisk,
};
use axum::body::Body;
use axum::http::{HeaderMap, Method, Request, StatusCode};
use serde_json::{json, Value};
use std::str::FromStr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tower::ServiceExt;

/// Uploads a predictions file for `demo-mcq` (every item answered 1) as model `model`.
async fn upload(app: &TestApp, token: &str, model: &str) -> (StatusCode, HeaderMap, Value) {
    let items = app.storage().task_items("demo-mcq").await.expect("items");
    let body: String = items
        .iter()
        .map(|r| format!("{{\"item_id\":\"{}\",\"answer\":1}}\n", r.id))
        .collect();
    let reply = app
        .send_as(
            Method::POST,
            &format!("/api/tasks/demo-mcq/submissions?model={model}&weights=open"),
            Some(token),
            Some("application/x-ndjson"),
            body,
        )
        .await;
    let value = reply.json();
    (reply.status, reply.headers, value)
}

/// Submissions committed to the file, counted on a connection of its own (not the app's
/// pool, where a connection stuck in a transaction would see its own uncommitted rows).
async fn committed_submissions(url: &str) -> Vec<String> {
    use sqlx::{ConnectOptions, Connection, Row};
    let mut conn = sqlx::sqlite::SqliteConnectOptions::from_str(url)
        .expect("url")
        .busy_timeout(Duration::from_secs(5))
        .connect()
        .await
        .expect("open");
    let rows = sqlx::query("SELECT id FROM submissions")
        .fetch_all(&mut conn)
        .await
        .expect("read submissions");
    conn.close().await.ok();
    rows.iter().map(|r| r.get::<String, _>("id")).collect()
}

/// Polls `/healthz` until told to stop: every answer within the health bound plus a margin,
/// and only 200 or 503 (with Retry-After); returns the statuses seen.
fn poll_health(app: Arc<TestApp>, stop: Arc<AtomicBool>) -> tokio::task::JoinHandle<Vec<u16>> {
    tokio::spawn(async move {
        let mut seen = Vec::new();
        while !stop.load(Ordering::Relaxed) {
            let request = Request::get("/healthz")
                .body(Body::empty())
                .expect("request");
            let response =
                tokio::time::timeout(Duration::from_secs(8), app.app.router().oneshot(request))
                    .await
                    .expect("/healthz hung")
                    .expect("response");
            let status = response.status();
            assert!(
                status == StatusCode::OK
                    || (status == StatusCode::SERVICE_UNAVAILABLE
                        && response.headers().contains_key("retry-after")),
                "/healthz answered {status}"
            );
            seen.push(status.as_u16());
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        seen
    })
}

/// Uploads on a full disk while `/healthz` is polled: every upload answered 201 is committed,
/// none answers 500, uploads are refused with 503 + Retry-After while the disk is full, and
/// once space returns uploads, starts, answers and `/healthz` work again without a restart.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn uploads_on_a_full_disk_never_wedge_the_writer() {
    let (mut settings, dir) = test_settings(Db::Sqlite, true).await;
    // Room for the demo database (the panel demo's images are about 20 MB).
    let Some((_disk_root, disk, url)) = demo_database_on_a_small_disk(&mut settings) else {
        return;
    };
    settings.database.max_connections = 4;
    settings.leaderboard.daily_quota = 1000;
    settings.leaderboard.daily_quota_per_author = 1000;
    settings.leaderboard.daily_quota_per_model = 1000;
    settings.rate_limits.uploads_per_minute = 0;
    settings.rate_limits.session_starts_per_minute = 0;
    let app = Arc::new(TestApp::with_settings(settings, dir).await);
    let (status, author) = app
        .post(
            "/api/authors",
            json!({"name": "Filler", "organisation": "Lab"}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{author}");
    let token = author["token"].as_str().unwrap().to_owned();
    let mut acknowledged = Vec::new();
    let (status, _, body) = upload(&app, &token, "Before").await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    acknowledged.push(body["submission_id"].as_str().unwrap().to_owned());

    empty_write_ahead_log(&url).await;
    disk.fill();
    let stop = Arc::new(AtomicBool::new(false));
    let poller = poll_health(app.clone(), stop.clone());
    let mut refused = 0;
    for n in 0..30 {
        let (status, headers, body) = upload(&app, &token, &format!("Full-{n}")).await;
        match status {
            StatusCode::CREATED => {
                acknowledged.push(body["submission_id"].as_str().unwrap().to_owned())
            }
            StatusCode::SERVICE_UNAVAILABLE => {
                assert!(
                    headers.contains_key("retry-after"),
                    "no Retry-After: {body}"
                );
                refused += 1;
            }
            other => panic!("upload {n} on a full disk: {other} {body}"),
        }
    }
    assert!(refused > 0, "a full disk refused no upload");
    let (status, _) = app.get("/healthz").await;
    assert_eq!(
        status,
        StatusCode::SERVICE_UNAVAILABLE,
        "/healthz ok on a full disk"
    );

    // Space returns: everything works again, without a restart.
    disk.free();
    let recovered = Instant::now();
    loop {
        let (status, _) = app.get("/healthz").await;
        if status == StatusCode::OK {
            break;
        }
        assert!(
            recovered.elapsed() < Duration::from_secs(10),
            "/healthz stays {status}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    for n in 0..5 {
        let (status, _, body) = upload(&app, &token, &format!("After-{n}")).await;
        assert_eq!(
            status,
            StatusCode::CREATED,
            "upload after space returned: {body}"
        );
        acknowledged.push(body["submission_id"].as_str().unwrap().to_owned());
    }
    let (status, session) = app
        .post("/api/quizzes/demo-mcq/sessions", start_body(false))
        .await;
    assert_eq!(
        status,
        StatusCode::CREATED,
        "start after space returned: {session}"
    );
    let id = session["session_id"].as_str().unwrap();
    let (status, body) = app.answer(id, &item_ids(&session)[0], 0, "k0").await;
    assert_eq!(
        status,
        StatusCode::CREATED,
        "answer after space returned: {body}"
    );
    stop.store(true, Ordering::Relaxed);
    let seen = poller.await.expect("poller");
    assert!(!seen.is_empty());

    let committed = committed_submissions(&url).await;
    for id in &acknowledged {
        assert!(
            committed.contains(id),
            "upload {id} answered 201 but is not stored"
        );
    }
    eprintln!(
        "full disk: {refused} uploads refused, {} acknowledged and stored, /healthz polled {} times",
        acknowledged.len(),
        seen.len()
    );
}

/// 200 session starts at once, spread over two instances on one database: every one is
/// stored (201), none refused by a deadlock on the items' exposure counters, and each item's
/// counter equals the number of batches it was assigned to.
async fn concurrent_starts_on_two_instances_are_all_stored(db: Db) {
    const STARTS: usize = 200;
    let (mut settings, dir) = test_settings(db, true).await;
    settings.database.max_connections = 16;
    settings.rate_limits.session_starts_per_minute = 0;
    let first = Arc::new(TestApp::with_settings(settings.clone(), dir).await);
    let second_dir = tempfile::tempdir().expect("temp dir");
    settings.database.url = settings.database_url();
    settings.data.dir = second_dir.path().to_owned();
    settings.data.load_demo = false;
    let second = Arc::new(TestApp::with_settings(settings, second_dir).await);
    let began = Instant::now();
    let tasks: Vec<_> = (0..STARTS)
        .map(|n| {
            let app = if n % 2 == 0 { &first } else { &second }.clone();
            tokio::spawn(async move {
                app.post("/api/quizzes/demo-mcq/sessions", start_body(false))
                    .await
            })
        })
        .collect();
    let mut refused = Vec::new();
    for task in tasks {
        let (status, body) = task.await.expect("task");
        if status != StatusCode::CREATED {
            refused.push(format!("{status} {body}"));
        }
    }
    eprintln!(
        "{STARTS} concurrent starts on two instances ({db:?}): {} refused, {:.2} s",
        refused.len(),
        began.elapsed().as_secs_f64()
    );
    assert!(
        refused.is_empty(),
        "refused starts, e.g. {:?}",
        refused.first()
    );
    assert_eq!(first.count("sessions").await, STARTS as i64);
    let counters = first
        .storage()
        .exposure_mismatches()
        .await
        .expect("exposure counters");
    assert!(counters.is_empty(), "counter ≠ assignments: {counters:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn concurrent_starts_on_two_instances_are_all_stored_sqlite() {
    concurrent_starts_on_two_instances_are_all_stored(Db::Sqlite).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn concurrent_starts_on_two_instances_are_all_stored_postgres() {
    if crate::helpers::postgres_available() {
        concurrent_starts_on_two_instances_are_all_stored(Db::Postgres).await;
    }
}

/// A database on a read-only file system stops start-up at once (not after the pool's 10 s
/// timeout) with a last line that says what and where. Needs root for the mount (permission
/// bits do not stop root); without it, a read-only directory made with `chmod` stands in.
#[tokio::test]
async fn a_read_only_database_is_named_at_start_up() {
    let (mut settings, dir) = test_settings(Db::Sqlite, false).await;
    let disk_root = tempfile::tempdir().expect("temp dir");
    let place = disk_root.path().join("disk");
    let disk = SmallDisk::mount(&place, "4M");
    let file = place.join("m.db");
    settings.database.url = format!("sqlite://{}?mode=rwc", file.display());
    drop(
        memeboard_server::startup::Application::build(settings.clone())
            .await
            .expect("create the database"),
    );
    // A read-only bind mount of the place (works while the closed app's files linger).
    let view = disk_root.path().join("read-only-view");
    let made_read_only = match &disk {
        Some(_) => {
            std::fs::create_dir_all(&view).expect("view dir");
            let run = |args: &[&str]| {
                std::process::Command::new("mount")
                    .args(args)
                    .status()
                    .is_ok_and(|s| s.success())
            };
            let (place_s, view_s) = (place.display().to_string(), view.display().to_string());
            let ok =
                run(&["--bind", &place_s, &view_s]) && run(&["-o", "remount,bind,ro", &view_s]);
            settings.database.url = format!("sqlite://{}?mode=rwc", view.join("m.db").display());
            ok
        }
        None => {
            use std::os::unix::fs::PermissionsExt;
            for f in ["m.db", "m.db-wal", "m.db-shm"] {
                let _ =
                    std::fs::set_permissions(place.join(f), std::fs::Permissions::from_mode(0o444));
            }
            std::fs::set_permissions(&place, std::fs::Permissions::from_mode(0o555))
                .expect("chmod");
            std::fs::OpenOptions::new().write(true).open(&file).is_err()
        }
    };
    if !made_read_only {
        eprintln!("skipped: cannot make a read-only place here (root without mount)");
        return;
    }
    let began = Instant::now();
    let text = start_up_refusal(settings, "a read-only database is refused").await;
    assert!(
        began.elapsed() < Duration::from_secs(5),
        "took {:?}: {text}",
        began.elapsed()
    );
    let shown = if disk.is_some() {
        view.join("m.db")
    } else {
        file
    };
    assert!(
        text.contains(&shown.display().to_string()) && text.contains("read-only"),
        "{text}"
    );
    eprintln!("read-only database, last line: {text}");
    if disk.is_some() {
        let _ = std::process::Command::new("umount")
            .arg("-l")
            .arg(&view)
            .status();
    }
    drop(dir);
}
