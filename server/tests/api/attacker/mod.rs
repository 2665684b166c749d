//! The attacker (issue 27): for every registered task kind, a seeded benchmark of at least 100
//! items, and every channel of issue 27's table played with public responses only; the test
//! fails when an attack recovers hidden test gold better than chance plus a small margin.
//!
//! The attacks see nothing but HTTP responses (and public facts about the dataset, such as its
//! comic ids); the hidden gold is read from the test database only to judge what they
//! recovered. A new kind fails to compile here until it has a seeded benchmark
//! ([`seed::benchmark_of`]) and fails at run time until an attack reports on it.

mod draws;
mod figures;
mod judging;
mod media;
mod oracle;
mod preface;
mod seed;

use crate::helpers::{start_body, test_settings, Db, TestApp};
use crate::on_both_databases;
use axum::http::{Method, StatusCode};
use memeboard_core::kinds::TaskKind;
use serde_json::{json, Value};
use std::collections::BTreeMap;

/// The admin token of the attacker's test app (the owner creates the judging study with it;
/// the attacks never use it).
pub(crate) const ADMIN: &str = "admin-secret-for-the-attacker";

/// What one attack recovered on one kind.
#[derive(Debug, Clone)]
pub(crate) struct Finding {
    /// The channel of issue 27's table the attack plays.
    pub channel: &'static str,
    /// The kind whose hidden gold was attacked.
    pub kind: TaskKind,
    /// The attacker's success measure (share of trials recovered, or a detector's
    /// true-positive minus false-positive rate).
    pub rate: f64,
    /// What the same measure gives without the channel (a constant guess, random answers).
    pub chance: f64,
    /// Allowed excess over chance.
    pub margin: f64,
    /// Trials the rate is over (items, answers or pages judged).
    pub trials: usize,
}

impl Finding {
    /// Whether the attack did better than chance plus its margin.
    pub fn leaks(&self) -> bool {
        self.trials > 0 && self.rate > self.chance + self.margin + 1e-9
    }
}

impl std::fmt::Display for Finding {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{:<34} {:<18} rate {:.3} over {:>4} trials (chance {:.3} + margin {:.2}){}",
            self.channel,
            self.kind.as_str(),
            self.rate,
            self.trials,
            self.chance,
            self.margin,
            if self.leaks() { "  LEAK" } else { "" }
        )
    }
}

/// The attacker's view of the app: anonymous HTTP, or with an author token it made itself.
pub(crate) struct Attacker<'a> {
    pub app: &'a TestApp,
    /// An author token (anyone gets one at `POST /api/authors`).
    pub token: String,
}

impl<'a> Attacker<'a> {
    /// An attacker with a fresh author token.
    pub async fn new(app: &'a TestApp, name: &str) -> Self {
        let token = author_token(app, name).await;
        Self { app, token }
    }

    /// GET as raw bytes, with the attacker's token when `authed`.
    pub async fn get_bytes(&self, path: &str, authed: bool) -> (StatusCode, Vec<u8>) {
        let token = authed.then_some(self.token.as_str());
        raw(self.app, Method::GET, path, token, Vec::new()).await
    }

    /// GET as text (empty when not UTF-8).
    pub async fn get_text(&self, path: &str, authed: bool) -> (StatusCode, String) {
        let (status, bytes) = self.get_bytes(path, authed).await;
        (status, String::from_utf8(bytes).unwrap_or_default())
    }

    /// GET as JSON (Null when not JSON).
    pub async fn get_json(&self, path: &str) -> (StatusCode, Value) {
        let (status, text) = self.get_text(path, false).await;
        (status, serde_json::from_str(&text).unwrap_or(Value::Null))
    }

    /// A task's `inputs.jsonl`, fetched with the token (models get inputs with one), as
    /// parsed lines; empty when refused.
    pub async fn inputs(&self, slug: &str) -> Vec<Value> {
        let (status, text) = self
            .get_text(&format!("/api/tasks/{slug}/inputs.jsonl"), true)
            .await;
        if !status.is_success() {
            return Vec::new();
        }
        text.lines()
            .filter_map(|l| serde_json::from_str(l).ok())
            .collect()
    }

    /// Uploads a prediction file; returns the status and the response body.
    pub async fn upload(
        &self,
        token: &str,
        slug: &str,
        model: &str,
        file: &str,
    ) -> (StatusCode, Value) {
        let path = format!("/api/tasks/{slug}/submissions?model={model}");
        let (status, bytes) = raw(
            self.app,
            Method::POST,
            &path,
            Some(token),
            file.as_bytes().to_vec(),
        )
        .await;
        (
            status,
            serde_json::from_slice(&bytes).unwrap_or(Value::Null),
        )
    }

    /// Starts a quiz session as a new participant (a fresh Prolific id each time); `extra`
    /// fields are added to the start body (a headphone check, an invitation).
    pub async fn start(&self, slug: &str, extra: Value) -> (StatusCode, Value) {
        let mut body = start_body(false);
        if let (Some(b), Value::Object(more)) = (body.as_object_mut(), extra) {
            b.extend(more);
        }
        self.app
            .post(&format!("/api/quizzes/{slug}/sessions"), body)
            .await
    }
}

/// A raw request; returns status and body bytes.
pub(crate) async fn raw(
    app: &TestApp,
    method: Method,
    path: &str,
    token: Option<&str>,
    body: Vec<u8>,
) -> (StatusCode, Vec<u8>) {
    let content_type = (body.first() == Some(&b'{')).then_some("application/json");
    let reply = app.send_as(method, path, token, content_type, body).await;
    (reply.status, reply.bytes)
}

/// A new author token under `name`.
pub(crate) async fn author_token(app: &TestApp, name: &str) -> String {
    let (status, body) = app
        .post(
            "/api/authors",
            json!({"name": name, "organisation": "Attack Lab"}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    body["token"].as_str().unwrap().to_owned()
}

/// The judge's side (storage access, never used by an attack): a task's items by id, with
/// prompt and gold as JSON, split and board half.
pub(crate) struct Hidden {
    pub items: BTreeMap<String, HiddenItem>,
}

/// One item as stored.
#[derive(Debug, Clone)]
pub(crate) struct HiddenItem {
    pub prompt: Value,
    pub gold: Value,
    pub test: bool,
    pub public_half: bool,
}

impl Hidden {
    /// The stored items of task `slug`.
    pub async fn of(app: &TestApp, slug: &str) -> Self {
        let items = app
            .task_rows(slug)
            .await
            .into_iter()
            .map(|r| {
                let item = HiddenItem {
                    prompt: serde_json::from_str(&r.prompt_json).unwrap(),
                    gold: serde_json::from_str(&r.gold_json).unwrap(),
                    test: r.split == memeboard_core::predictions::Split::Test,
                    public_half: r.on_board(memeboard_core::api::BoardSplit::Public),
                };
                (r.id, item)
            })
            .collect();
        Self { items }
    }

    /// A test item by id (`None` for dev items and unknown ids).
    pub fn test_item(&self, id: &str) -> Option<&HiddenItem> {
        self.items.get(id).filter(|i| i.test)
    }
}

/// The settings of the attacker's app: no demo, the admin token for the study owner, no
/// per-minute rate limits (the attacks stay within the daily upload quotas; the abuse limits
/// are tested in abuse_limits.rs), eight author tokens from its address, categories published
/// from one item.
async fn attacker_app(db: Db) -> TestApp {
    let (mut settings, dir) = test_settings(db, false).await;
    settings.admin.token = ADMIN.into();
    settings.rate_limits.session_starts_per_minute = 0;
    settings.rate_limits.uploads_per_minute = 0;
    settings.rate_limits.author_creations_per_minute = 0;
    settings.quiz.bootstrap_resamples = 50;
    // An attacker with a few addresses: eight author tokens (the per-address cap, 3 a day, is
    // tested in author_tokens.rs).
    settings.leaderboard.tokens_per_address_per_day = 8;
    // To see an attack catch its leak, turn a defence off by hand, e.g.
    // MEMEBOARD_ATTACKER_CROWD_NOISE=0 (the crowd-figure attack then reads J ≈ 0.3–0.4).
    if let Some(noise) = std::env::var("MEMEBOARD_ATTACKER_CROWD_NOISE")
        .ok()
        .and_then(|v| v.parse().ok())
    {
        settings.quiz.crowd_noise = noise;
    }
    TestApp::with_settings(settings, dir).await
}

/// Every attack on every kind, on one database: seeds a benchmark of each kind, runs the
/// attacks, prints every finding and fails on any that beats chance plus its margin, or on a
/// registered kind that has no seeded benchmark or no finding.
async fn the_attacker_recovers_no_hidden_gold(db: Db) {
    let app = attacker_app(db).await;
    let started = std::time::Instant::now();
    let Some(invite) = seed::seed_all(&app).await else {
        return; // media tools missing and not required (see clips.rs)
    };
    for kind in TaskKind::ALL {
        let slug = seed::benchmark_of(kind);
        let items = Hidden::of(&app, slug).await.items.len();
        assert!(
            items >= seed::MIN_ITEMS,
            "the attacker's {} benchmark `{slug}` has {items} items, expected at least {}",
            kind.as_str(),
            seed::MIN_ITEMS
        );
    }
    let attacker = Attacker::new(&app, "Eve").await;
    let mut findings = Vec::new();
    let mut times = vec![("seed", started.elapsed())];
    findings.extend(draws::all(&attacker).await);
    times.push(("draws", started.elapsed()));
    findings.extend(media::all(&attacker).await);
    times.push(("media", started.elapsed()));
    findings.extend(figures::all(&attacker).await);
    times.push(("figures", started.elapsed()));
    findings.extend(oracle::all(&attacker).await);
    times.push(("oracle", started.elapsed()));
    findings.extend(preface::all(&attacker).await);
    times.push(("preface", started.elapsed()));
    findings.extend(judging::all(&attacker, &invite).await);
    times.push(("judging", started.elapsed()));
    eprintln!("attacker phases, cumulative ({db:?}): {times:?}");
    let report: Vec<String> = findings.iter().map(ToString::to_string).collect();
    eprintln!("attacker findings ({db:?}):\n{}", report.join("\n"));
    for kind in TaskKind::ALL {
        assert!(
            findings.iter().any(|f| f.kind == kind),
            "no attack reports on kind `{}`: add one to server/tests/api/attacker/",
            kind.as_str()
        );
    }
    let leaks: Vec<&String> = findings
        .iter()
        .zip(&report)
        .filter(|(f, _)| f.leaks())
        .map(|(_, r)| r)
        .collect();
    assert!(
        leaks.is_empty(),
        "the attacker recovered hidden gold better than chance:\n{}",
        leaks
            .iter()
            .map(|s| s.as_str())
            .collect::<Vec<_>>()
            .join("\n")
    );
}

on_both_databases!(the_attacker_recovers_no_hidden_gold);
