//! Test harness: a fresh database per test, the real router driven with `oneshot`.

use axum::body::Body;
use axum::http::{HeaderMap, Method, Request, StatusCode};
use http_body_util::BodyExt;
use memeboard_core::kinds::text_mcq;
use memeboard_core::tasks::ItemGold;
use memeboard_server::config::Settings;
use memeboard_server::import::{import_chime, BenchmarkSpec};
use memeboard_server::startup::Application;
use memeboard_server::storage::{BoardTaskRow, Storage, TaskItemRow};
use serde_json::{json, Value};
use sqlx::Connection;
use std::collections::HashMap;
use tower::ServiceExt;

/// Which database a test runs on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Db {
    Sqlite,
    Postgres,
}

/// Generates `mod NAME { sqlite, postgres }` tests from `async fn NAME(db: Db)`.
#[macro_export]
macro_rules! on_both_databases {
    ($($name:ident),* $(,)?) => {$(
        mod $name {
            #[tokio::test]
            async fn sqlite() {
                super::$name($crate::helpers::Db::Sqlite).await;
            }
            #[tokio::test]
            async fn postgres() {
                if $crate::helpers::postgres_available() {
                    super::$name($crate::helpers::Db::Postgres).await;
                }
            }
        }
    )*};
}

/// Whether PostgreSQL tests can run; panics if they are required but not configured.
pub fn postgres_available() -> bool {
    let configured = std::env::var("MEMEBOARD_TEST_POSTGRES_URL").is_ok();
    if !configured && std::env::var("MEMEBOARD_REQUIRE_POSTGRES").is_ok_and(|v| v == "1") {
        panic!("MEMEBOARD_REQUIRE_POSTGRES=1 but MEMEBOARD_TEST_POSTGRES_URL is not set");
    }
    if !configured {
        eprintln!("skipping PostgreSQL variant: MEMEBOARD_TEST_POSTGRES_URL is not set");
    }
    configured
}

fn unique_name() -> String {
    let mut b = [0u8; 6];
    getrandom::fill(&mut b).expect("randomness");
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// A running application on a fresh database.
pub struct TestApp {
    pub app: Application,
    /// The data folder (the database, the media cache).
    pub data: tempfile::TempDir,
}

/// Settings for a fresh database of the given kind (demo loaded unless told otherwise).
pub async fn test_settings(db: Db, load_demo: bool) -> (Settings, tempfile::TempDir) {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut settings = Settings::defaults().expect("default settings");
    settings.server.port = 0;
    settings.server.static_dir = dir.path().join("no-dist");
    settings.data.dir = dir.path().to_owned();
    settings.data.load_demo = load_demo;
    // The clip demo (made with ffmpeg, a few seconds) only where a test asks for it.
    settings.data.load_clip_demo = false;
    // The demo models' submissions only where a test asks for them (they change boards).
    settings.data.load_demo_submissions = false;
    settings.quiz.bootstrap_resamples = 200;
    // Crowd figures follow every completion at once (the interval has its own test).
    settings.quiz.crowd_refresh_secs = 0;
    settings.database.max_connections = 4;
    // The generated tiny model stands in for the real one (fast); without it, explanation
    // scoring reports "model not installed" and everything else works.
    if let Ok(models) = std::env::var("MEMEBOARD_TEST_MODELS") {
        let models = std::path::PathBuf::from(models);
        settings.model.name = "tiny-bert".into();
        settings.model.dir = models.join("tiny-bert");
        settings.model.onnxruntime = models.join("onnxruntime/libonnxruntime.so");
        settings.model.threads = 1;
    }
    if db == Db::Postgres {
        let admin_url = std::env::var("MEMEBOARD_TEST_POSTGRES_URL").expect("postgres url");
        let name = format!("memeboard_test_{}", unique_name());
        let mut conn = sqlx::PgConnection::connect(&admin_url)
            .await
            .expect("connect to postgres");
        sqlx::query(&format!("CREATE DATABASE {name}"))
            .execute(&mut conn)
            .await
            .expect("create test database");
        conn.close().await.ok();
        let base = admin_url
            .rsplit_once('/')
            .map_or(admin_url.as_str(), |(b, _)| b);
        settings.database.url = format!("{base}/{name}");
    }
    (settings, dir)
}

/// A fresh database of an earlier version, upgraded: every migration before `first_new` (a
/// migration's file name) run, `rows` (SQL statements) inserted as that version stored
/// them, then every migration run. The pool on it, and the folder that holds it.
pub async fn upgraded_from_before(
    db: Db,
    first_new: &str,
    rows: &[&str],
) -> (sqlx::AnyPool, tempfile::TempDir) {
    let (settings, dir) = test_settings(db, false).await;
    sqlx::any::install_default_drivers();
    let pool = sqlx::AnyPool::connect(&settings.database_url())
        .await
        .expect("connect");
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("migrations");
    let earlier = tempfile::tempdir().expect("temp dir");
    for entry in std::fs::read_dir(&src).expect("migrations") {
        let name = entry.expect("a migration").file_name();
        if name.to_string_lossy().as_ref() < first_new {
            std::fs::copy(src.join(&name), earlier.path().join(&name)).expect("copy");
        }
    }
    migrate(&pool, earlier.path()).await;
    for sql in rows {
        sqlx::query(sql).execute(&pool).await.expect("insert a row");
    }
    migrate(&pool, &src).await;
    (pool, dir)
}

/// Runs the migrations in the folder `migrations` on `pool`.
async fn migrate(pool: &sqlx::AnyPool, migrations: &std::path::Path) {
    sqlx::migrate::Migrator::new(migrations)
        .await
        .expect("migrations")
        .run(pool)
        .await
        .expect("migrate");
}

/// A raw storage handle on a fresh database with no demo.
pub async fn fresh_storage(db: Db) -> (Storage, tempfile::TempDir) {
    let (settings, dir) = test_settings(db, false).await;
    let storage = Storage::connect(&settings.database_url(), 4)
        .await
        .expect("storage");
    (storage, dir)
}

impl TestApp {
    /// Every item of a task as (id, prompt, gold), read from the database (what a test may
    /// know and the site never tells).
    pub async fn items_with_gold(&self, task: &str) -> Vec<(String, Value, Value)> {
        self.items_of(task)
            .await
            .into_iter()
            .map(|r| {
                let prompt = serde_json::from_str(&r.prompt_json).expect("prompt json");
                let gold = serde_json::from_str(&r.gold_json).expect("gold json");
                (r.id, prompt, gold)
            })
            .collect()
    }

    /// The app with the demo benchmark loaded.
    pub async fn spawn(db: Db) -> Self {
        let (settings, dir) = test_settings(db, true).await;
        Self::with_settings(settings, dir).await
    }

    pub async fn with_settings(settings: Settings, dir: tempfile::TempDir) -> Self {
        memeboard_server::telemetry::init();
        let app = Application::build(settings).await.expect("build app");
        Self { app, data: dir }
    }

    pub fn storage(&self) -> &Storage {
        self.app.storage()
    }

    /// Sends a request; returns status and the parsed JSON body (Null when empty/not JSON).
    pub async fn request(
        &self,
        method: Method,
        path: &str,
        body: Option<Value>,
    ) -> (StatusCode, Value) {
        self.call(method, path, None, body).await
    }

    /// A JSON request with an optional bearer token (an author's, an owner's, the admin's):
    /// status and the parsed JSON body (Null when empty/not JSON).
    pub async fn call(
        &self,
        method: Method,
        path: &str,
        token: Option<&str>,
        body: Option<Value>,
    ) -> (StatusCode, Value) {
        let reply = match body {
            Some(v) => {
                self.send_as(method, path, token, Some("application/json"), v.to_string())
                    .await
            }
            None => self.send_as(method, path, token, None, Body::empty()).await,
        };
        (reply.status, reply.json())
    }

    /// Sends a request the test built itself through the real router; the whole response.
    pub async fn send(&self, request: Request<Body>) -> Reply {
        let response = self.app.router().oneshot(request).await.expect("response");
        let (status, headers) = (response.status(), response.headers().clone());
        let bytes = response
            .into_body()
            .collect()
            .await
            .expect("body")
            .to_bytes()
            .to_vec();
        Reply {
            status,
            headers,
            bytes,
        }
    }

    /// A request with an optional bearer token and a body of an optional content type (none
    /// sent without one); the whole response, for routes that answer text, files or bytes.
    pub async fn send_as(
        &self,
        method: Method,
        path: &str,
        token: Option<&str>,
        content_type: Option<&str>,
        body: impl Into<Body>,
    ) -> Reply {
        let mut builder = Request::builder().method(method).uri(path);
        if let Some(t) = token {
            builder = builder.header("authorization", format!("Bearer {t}"));
        }
        if let Some(c) = content_type {
            builder = builder.header("content-type", c);
        }
        self.send(builder.body(body.into()).expect("request")).await
    }

    /// A GET answered whole (a file, a text export, a page), with no token.
    pub async fn get_reply(&self, path: &str) -> Reply {
        self.send_as(Method::GET, path, None, None, Body::empty())
            .await
    }

    /// A GET with an optional `Range` header (media and archive downloads).
    pub async fn get_range(&self, path: &str, range: Option<&str>) -> Reply {
        let mut request = Request::get(path);
        if let Some(r) = range {
            request = request.header("range", r);
        }
        self.send(request.body(Body::empty()).expect("request"))
            .await
    }

    /// A prediction file POSTed with an author token as it is (no content type), as the
    /// upload page and `curl --data-binary` send it: status and the parsed JSON reply.
    pub async fn post_file(
        &self,
        path: &str,
        token: &str,
        file: impl Into<Body>,
    ) -> (StatusCode, Value) {
        let reply = self
            .send_as(Method::POST, path, Some(token), None, file)
            .await;
        (reply.status, reply.json())
    }

    /// A new author's token (`POST /api/authors` under `name` and `organisation`).
    pub async fn author_token(&self, name: &str, organisation: &str) -> String {
        let (status, body) = self
            .post(
                "/api/authors",
                json!({"name": name, "organisation": organisation}),
            )
            .await;
        assert_eq!(status, StatusCode::CREATED, "{body}");
        body["token"].as_str().expect("a token").to_owned()
    }

    /// The author's own page (`GET /api/me`) as `token` sees it: status and parsed body.
    pub async fn me(&self, token: &str) -> (StatusCode, Value) {
        let reply = self
            .send_as(
                Method::GET,
                "/api/me",
                Some(token),
                Some("application/json"),
                "",
            )
            .await;
        (reply.status, reply.json())
    }

    /// The item ids a task's manifest lists, in its order.
    pub async fn manifest_ids(&self, task: &str) -> Vec<String> {
        let (_, manifest) = self.get(&format!("/api/tasks/{task}/manifest")).await;
        manifest["items"]
            .as_array()
            .expect("manifest items")
            .iter()
            .map(|i| i["id"].as_str().expect("an item id").to_owned())
            .collect()
    }

    /// Imports a CHIME-format benchmark the test made (its memes and questions as JSON).
    pub async fn import_chime_values(
        &self,
        spec: &BenchmarkSpec,
        memes: Vec<Value>,
        mcqs: Vec<Value>,
    ) {
        import_chime(
            self.storage(),
            spec,
            &Value::Array(memes).to_string(),
            &Value::Array(mcqs).to_string(),
        )
        .await
        .expect("import the CHIME benchmark");
    }

    /// A quiz's entry in `GET /api/quizzes`.
    pub async fn listed_quiz(&self, slug: &str) -> Value {
        let (_, quizzes) = self.get("/api/quizzes").await;
        quizzes
            .as_array()
            .expect("the quiz list")
            .iter()
            .find(|q| q["slug"] == slug)
            .expect("the quiz is listed")
            .clone()
    }

    /// Every item of a text MCQ task with its right answer as prediction files number it
    /// (1 = the first option), read from the database.
    pub async fn mcq_answers(&self, task: &str) -> Vec<(TaskItemRow, usize)> {
        self.items_of(task)
            .await
            .into_iter()
            .map(|r| {
                let ItemGold::TextMcq(text_mcq::Gold { correct }) =
                    serde_json::from_str(&r.gold_json).expect("gold json")
                else {
                    panic!("text MCQ gold expected")
                };
                (r, correct + 1)
            })
            .collect()
    }

    /// The stored task behind a board's slug (a test's view of the database).
    pub async fn board_task(&self, slug: &str) -> BoardTaskRow {
        self.storage()
            .find_board_task(slug)
            .await
            .expect("find the board task")
            .unwrap_or_else(|| panic!("no task {slug}"))
    }

    /// The stored items of a board's task, gold and all.
    pub async fn task_rows(&self, slug: &str) -> Vec<TaskItemRow> {
        let task = self.board_task(slug).await;
        self.items_of(&task.task.id).await
    }

    /// The stored items of the task with id `task`.
    pub async fn items_of(&self, task: &str) -> Vec<TaskItemRow> {
        self.storage().task_items(task).await.expect("task items")
    }

    pub async fn get(&self, path: &str) -> (StatusCode, Value) {
        self.request(Method::GET, path, None).await
    }

    pub async fn post(&self, path: &str, body: Value) -> (StatusCode, Value) {
        self.request(Method::POST, path, Some(body)).await
    }

    /// Starts a demo quiz session with a valid survey.
    pub async fn start_demo_session(&self) -> Value {
        let (status, body) = self
            .post("/api/quizzes/demo-mcq/sessions", start_body(false))
            .await;
        assert_eq!(status, StatusCode::CREATED, "{body}");
        body
    }

    /// Answers one item by display position with the given idempotency key.
    pub async fn answer(
        &self,
        session: &str,
        item: &str,
        position: usize,
        key: &str,
    ) -> (StatusCode, Value) {
        self.post(
            &format!("/api/sessions/{session}/answers"),
            json!({"item_id": item, "idempotency_key": key, "answer": {"kind": "choice", "position": position}, "response_ms": 1234}),
        )
        .await
    }

    /// Row counts per table.
    pub async fn counts(&self) -> Vec<(String, i64)> {
        self.storage().table_counts().await.expect("counts")
    }

    pub async fn count(&self, table: &str) -> i64 {
        self.counts()
            .await
            .into_iter()
            .find(|(t, _)| t == table)
            .map(|(_, n)| n)
            .expect("table")
    }
}

/// A response read whole: status, headers and body bytes.
pub struct Reply {
    /// The response's status.
    pub status: StatusCode,
    /// Its headers (content type, caching, ranges).
    pub headers: HeaderMap,
    /// Its whole body.
    pub bytes: Vec<u8>,
}

impl Reply {
    /// The body as UTF-8 text (anything else fails the test).
    pub fn text(&self) -> String {
        String::from_utf8(self.bytes.clone()).expect("a UTF-8 body")
    }

    /// The body as text, bytes that are not UTF-8 replaced.
    pub fn lossy_text(&self) -> String {
        String::from_utf8_lossy(&self.bytes).into_owned()
    }

    /// The body as JSON (Null when empty or not JSON).
    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.bytes).unwrap_or(Value::Null)
    }

    /// A header's value ("" when absent or not text).
    pub fn header(&self, name: &str) -> String {
        self.headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
            .to_owned()
    }
}

/// The `item_id` of every line of a JSON-lines text (inputs, templates, dev gold), in order.
pub fn jsonl_item_ids(text: &str) -> Vec<String> {
    text.lines()
        .map(|l| {
            serde_json::from_str::<Value>(l).expect("a JSON line")["item_id"]
                .as_str()
                .expect("an item id")
                .to_owned()
        })
        .collect()
}

/// A media reader over files the test made (what an importer reads from a folder): a name
/// it does not hold is `NotFound`.
pub fn files_reader(
    files: &HashMap<String, Vec<u8>>,
) -> impl Fn(&str) -> std::io::Result<Vec<u8>> + Sync + '_ {
    move |name| {
        files
            .get(name)
            .cloned()
            .ok_or_else(|| std::io::Error::new(std::io::ErrorKind::NotFound, "no such file"))
    }
}

/// Every path a route template stands for: each `{param}` in it replaced by each of its
/// values in turn (a template without the parameter passes as it is).
pub fn expand_route(template: &str, params: &[(&str, Vec<String>)]) -> Vec<String> {
    let mut paths = vec![template.to_owned()];
    for (param, values) in params {
        paths = paths
            .into_iter()
            .flat_map(|p| {
                if p.contains(param) {
                    values.iter().map(|v| p.replace(param, v)).collect()
                } else {
                    vec![p]
                }
            })
            .collect();
    }
    paths
}

/// The sum of a whole-number field over the entries of a JSON array (counts per item, per
/// category, per bin).
pub fn sum_of(array: &Value, field: &str) -> u64 {
    array
        .as_array()
        .expect("an array")
        .iter()
        .map(|e| e[field].as_u64().expect("a whole number"))
        .sum()
}

/// A valid session start body.
pub fn start_body(skip_flagged: bool) -> Value {
    json!({
        "consent": true,
        "survey": {
            "age_range": "25-34",
            "native_language": "chinese",
            "online_time": "three_to_six_hours",
            "meme_familiarity": 4,
            "skip_flagged": skip_flagged
        },
        // A fresh Prolific id per start: one Prolific id takes part once per quiz.
        "recruitment": {"prolific_pid": format!("PID-{}", unique_name()), "study_id": "STUDY9", "session_id": "SESS7"}
    })
}

/// The single error detail of an error body.
pub fn detail(body: &Value) -> String {
    body["errors"][0]["detail"]
        .as_str()
        .unwrap_or_default()
        .to_owned()
}

/// Item ids of a session body, in batch order.
pub fn item_ids(session: &Value) -> Vec<String> {
    session["items"]
        .as_array()
        .expect("items")
        .iter()
        .map(|i| i["item_id"].as_str().expect("id").to_owned())
        .collect()
}

/// Polls all futures together, so that requests really race on the database.
pub async fn join_all<F: std::future::Future>(futures: impl Iterator<Item = F>) -> Vec<F::Output> {
    let handles: Vec<_> = futures.collect();
    let mut out = Vec::new();
    // Poll all together so the requests really race on the database.
    let mut pinned: Vec<_> = handles.into_iter().map(Box::pin).collect();
    let mut done: Vec<Option<F::Output>> = pinned.iter().map(|_| None).collect();
    std::future::poll_fn(|cx| {
        let mut pending = false;
        for (slot, fut) in done.iter_mut().zip(pinned.iter_mut()) {
            if slot.is_none() {
                match fut.as_mut().poll(cx) {
                    std::task::Poll::Ready(v) => *slot = Some(v),
                    std::task::Poll::Pending => pending = true,
                }
            }
        }
        if pending {
            std::task::Poll::Pending
        } else {
            std::task::Poll::Ready(())
        }
    })
    .await;
    out.extend(done.into_iter().flatten());
    out
}

/// A blank PNG of the given size that decodes whole (the importer decodes every PNG), for
/// tests that import comics. Distinct sizes make distinct files.
pub fn blank_png(width: u32, height: u32) -> Vec<u8> {
    resvg::tiny_skia::Pixmap::new(width, height)
        .expect("a non-empty image size")
        .encode_png()
        .expect("encoding a blank PNG")
}

/// The text demo's questions (`server/demo/demo_mcq.json`): the items of `demo-mcq`.
pub fn demo_questions() -> usize {
    serde_json::from_str::<Vec<Value>>(memeboard_server::demo::DEMO_MCQ)
        .expect("the demo questions are a JSON array")
        .len()
}

/// The text demo's memes (`server/demo/demo_memes.json`): the items of `demo-explain`.
pub fn demo_memes() -> usize {
    serde_json::from_str::<Vec<Value>>(memeboard_server::demo::DEMO_MEMES)
        .expect("the demo memes are a JSON array")
        .len()
}

/// A mono 8-bit WAV tone of 1.5 s at 8 kHz, a distinct pitch per clip (media of the
/// clip tests' seeded benchmarks).
pub fn tone_wav(freq: f64) -> Vec<u8> {
    let rate = 8000u32;
    let samples: Vec<u8> = (0..rate * 3 / 2)
        .map(|i| {
            let t = f64::from(i) / f64::from(rate);
            (128.0 + 90.0 * (std::f64::consts::TAU * freq * t).sin()) as u8
        })
        .collect();
    let mut b = b"RIFF".to_vec();
    b.extend_from_slice(&(36 + samples.len() as u32).to_le_bytes());
    b.extend_from_slice(b"WAVEfmt ");
    b.extend_from_slice(&16u32.to_le_bytes());
    b.extend_from_slice(&1u16.to_le_bytes());
    b.extend_from_slice(&1u16.to_le_bytes());
    b.extend_from_slice(&rate.to_le_bytes());
    b.extend_from_slice(&rate.to_le_bytes());
    b.extend_from_slice(&1u16.to_le_bytes());
    b.extend_from_slice(&8u16.to_le_bytes());
    b.extend_from_slice(b"data");
    b.extend_from_slice(&(samples.len() as u32).to_le_bytes());
    b.extend_from_slice(&samples);
    b
}

/// Whether the test models are installed (`MEMEBOARD_TEST_MODELS`); a test that needs them
/// skips without them, unless `MEMEBOARD_REQUIRE_MODELS` is set (CI), where that fails.
pub fn models_installed() -> bool {
    if std::env::var("MEMEBOARD_TEST_MODELS").is_ok() {
        return true;
    }
    assert!(
        std::env::var("MEMEBOARD_REQUIRE_MODELS").is_err(),
        "models required"
    );
    eprintln!("skipping: MEMEBOARD_TEST_MODELS is not set");
    false
}
