//! Abuse limits of the leaderboard: author tokens are limited per client address and per UTC
//! day, and the daily upload quota is counted per token, per author name and per model name
//! (per task), race-free (counted and inserted in one transaction).

use crate::helpers::{detail, test_settings, Db, TestApp};
use crate::on_both_databases;
use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::{HeaderMap, Method, Request, StatusCode};
use http_body_util::BodyExt;
use memeboard_core::kinds::text_mcq;
use memeboard_core::tasks::ItemGold;
use memeboard_server::config::Settings;
use serde_json::{json, Value};
use sqlx::{Connection, Row};
use std::net::SocketAddr;
use tower::ServiceExt;

const TASK: &str = "demo-mcq";

async fn app_with(db: Db, change: impl FnOnce(&mut Settings)) -> (TestApp, String) {
    let (mut settings, dir) = test_settings(db, true).await;
    change(&mut settings);
    let url = settings.database_url();
    (TestApp::with_settings(settings, dir).await, url)
}

/// Sends a request, optionally as if from the client address `from`.
async fn send(
    app: &TestApp,
    method: Method,
    path: &str,
    token: Option<&str>,
    from: Option<&str>,
    body: String,
) -> (StatusCode, HeaderMap, Value) {
    let mut req = Request::builder()
        .method(method)
        .uri(path)
        .header("content-type", "application/json");
    if let Some(t) = token {
        req = req.header("authorization", format!("Bearer {t}"));
    }
    let mut req = req.body(Body::from(body)).unwrap();
    if let Some(addr) = from {
        req.extensions_mut()
            .insert(ConnectInfo(addr.parse::<SocketAddr>().unwrap()));
    }
    let reply = app.send(req).await;
    let body = reply.json();
    (reply.status, reply.headers, body)
}

async fn create_author(app: &TestApp, name: &str, from: &str) -> (StatusCode, HeaderMap, Value) {
    send(
        app,
        Method::POST,
        "/api/authors",
        None,
        Some(from),
        json!({"name": name, "organisation": "Lab"}).to_string(),
    )
    .await
}

async fn token(app: &TestApp, name: &str, from: &str) -> String {
    let (status, _, body) = create_author(app, name, from).await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    body["token"].as_str().unwrap().to_owned()
}

/// A valid prediction file answering every item with option 1.
async fn file(app: &TestApp) -> String {
    app.storage()
        .task_items(TASK)
        .await
        .unwrap()
        .into_iter()
        .map(|r| {
            let ItemGold::TextMcq(text_mcq::Gold { .. }) =
                serde_json::from_str(&r.gold_json).unwrap()
            else {
                panic!()
            };
            format!("{{\"item_id\":\"{}\",\"answer\":1}}\n", r.id)
        })
        .collect()
}

async fn upload(app: &TestApp, token: &str, model: &str, body: &str) -> (StatusCode, Value) {
    let (status, _, body) = send(
        app,
        Method::POST,
        &format!("/api/tasks/{TASK}/submissions?model={model}"),
        Some(token),
        None,
        body.to_owned(),
    )
    .await;
    (status, body)
}

fn retry_after(headers: &HeaderMap) -> u64 {
    headers
        .get("retry-after")
        .expect("Retry-After header")
        .to_str()
        .unwrap()
        .parse()
        .unwrap()
}

async fn token_creation_is_limited_per_address_and_per_day(db: Db) {
    let (app, url) = app_with(db, |s| {
        s.leaderboard.tokens_per_address_per_day = 2;
        s.leaderboard.tokens_per_day = 5;
    })
    .await;
    let a = "203.0.113.7:5000";
    for n in 0..2 {
        token(&app, &format!("A{n}"), a).await;
    }
    // The same address on another port counts together; a refusal counts nothing.
    let (status, headers, body) = create_author(&app, "A2", "203.0.113.7:6000").await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{body}");
    assert_eq!(
        detail(&body),
        "too many new tokens from your network today (limit 2 per day); try again after 00:00 UTC"
    );
    let wait = retry_after(&headers);
    assert!((1..=86_400).contains(&wait), "{wait}");
    // IPv6 addresses of one /64 count together.
    token(&app, "B0", "[2001:db8:1:2::10]:443").await;
    token(&app, "B1", "[2001:db8:1:2::99]:443").await;
    let (status, _, body) = create_author(&app, "B2", "[2001:db8:1:2:ffff::1]:443").await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{body}");
    token(&app, "C0", "198.51.100.1:80").await;
    // The day's total (5) is used up: a fresh address is refused too.
    let (status, headers, body) = create_author(&app, "D0", "192.0.2.200:80").await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{body}");
    assert_eq!(
        detail(&body),
        "the site's limit of 5 new tokens per day is reached; try again after 00:00 UTC (an \
         invitation code from the site's owner, or the token of an author with an accepted \
         upload, sent as the bearer token, still gets one)"
    );
    assert!(retry_after(&headers) >= 1);
    assert_eq!(app.count("authors").await, 5);

    // Only hashes of addresses are stored.
    let mut conn = sqlx::AnyConnection::connect(&url).await.unwrap();
    let keys: Vec<String> = sqlx::query("SELECT scope_key FROM quota_counters")
        .fetch_all(&mut conn)
        .await
        .unwrap()
        .iter()
        .map(|r| r.get::<String, _>("scope_key"))
        .collect();
    assert!(!keys.is_empty());
    for key in &keys {
        assert!(
            !key.contains("203.0") && !key.contains("2001:") && !key.contains("198.51"),
            "{key}"
        );
    }
    conn.close().await.unwrap();
}

async fn concurrent_uploads_accept_exactly_the_daily_quota(db: Db) {
    let (app, _) = app_with(db, |s| {
        s.leaderboard.daily_quota = 5;
        s.leaderboard.daily_quota_per_author = 100;
        s.leaderboard.daily_quota_per_model = 100;
    })
    .await;
    let token = token(&app, "Racer", "192.0.2.1:1").await;
    let body = file(&app).await;
    let mut uploads = tokio::task::JoinSet::new();
    for n in 0..12 {
        let router = app.app.router();
        let req = Request::builder()
            .method(Method::POST)
            .uri(format!("/api/tasks/{TASK}/submissions?model=Racer-{n}"))
            .header("authorization", format!("Bearer {token}"))
            .header("content-type", "application/x-ndjson")
            .body(Body::from(body.clone()))
            .unwrap();
        uploads.spawn(async move { router.oneshot(req).await.unwrap().status() });
    }
    let statuses = uploads.join_all().await;
    let accepted = statuses
        .iter()
        .filter(|s| **s == StatusCode::CREATED)
        .count();
    let refused = statuses
        .iter()
        .filter(|s| **s == StatusCode::TOO_MANY_REQUESTS)
        .count();
    assert_eq!((accepted, refused), (5, 7), "{statuses:?}");
    assert_eq!(app.count("submissions").await, 5);
    let (status, me) = app.me(&token).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        me["quota"],
        json!({"used_today": 5, "daily_limit": 5, "remaining": 0})
    );
}

async fn new_tokens_of_the_same_author_or_model_share_the_quota(db: Db) {
    let (app, _) = app_with(db, |s| {
        s.leaderboard.daily_quota = 10;
        s.leaderboard.daily_quota_per_author = 3;
        s.leaderboard.daily_quota_per_model = 4;
        s.leaderboard.tokens_per_address_per_day = 10;
    })
    .await;
    let body = file(&app).await;
    let first = token(&app, "Team Q", "192.0.2.1:1").await;
    for n in 0..3 {
        let (status, up) = upload(&app, &first, "Shared", &body).await;
        assert_eq!(status, StatusCode::CREATED, "upload {n}: {up}");
    }
    let (status, up) = upload(&app, &first, "Other", &body).await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{up}");
    assert_eq!(
        detail(&up),
        "daily quota of author `Team Q` used up: 3 of 3 submissions today; it resets at 00:00 UTC"
    );
    // A second token under the same author name (case and spacing aside) gets no fresh quota.
    let second = token(&app, "  team   q ", "192.0.2.2:1").await;
    let (status, up) = upload(&app, &second, "Other", &body).await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{up}");
    // Another author may upload, but not a fourth... fifth file of the same model name.
    let third = token(&app, "Team R", "192.0.2.3:1").await;
    let (status, up) = upload(&app, &third, "shared", &body).await;
    assert_eq!(status, StatusCode::CREATED, "{up}");
    let fourth = token(&app, "Team S", "192.0.2.4:1").await;
    let (status, up) = upload(&app, &fourth, "SHARED", &body).await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{up}");
    assert_eq!(
        detail(&up),
        "daily quota of model `SHARED` on this task used up: 4 of 4 submissions today; it resets at 00:00 UTC"
    );
    let (status, up) = upload(&app, &fourth, "Fresh", &body).await;
    assert_eq!(status, StatusCode::CREATED, "{up}");
    assert_eq!(app.count("submissions").await, 5);
}

/// Every per-category entry is left out (and flagged), the overall one is kept.
fn assert_categories_hidden(scores: &Value, what: &str) {
    let scores = scores
        .as_array()
        .unwrap_or_else(|| panic!("{what}: {scores}"));
    assert!(scores.len() > 1, "{what}");
    assert!(scores[0]["category"].is_null());
    assert!(
        scores[0]["estimate"]["value"].is_number(),
        "{what}: overall shown"
    );
    for c in &scores[1..] {
        assert!(c["estimate"].is_null(), "{what}: {c}");
        assert_eq!(c["suppressed"], true, "{what}: {c}");
    }
}

async fn small_categories_show_no_figure_anywhere(db: Db) {
    // The demo's public half has at least the default 10 items per meme type (its categories
    // are shown, below); a minimum above every type's count makes each of them small.
    let (app, _) = app_with(db, |_| {}).await;
    let mut per_category: std::collections::BTreeMap<String, usize> = Default::default();
    for item in app.storage().task_items(TASK).await.unwrap() {
        if item.split.as_str() == "test" && item.board_half.as_str() == "public" {
            *per_category.entry(item.category).or_default() += 1;
        }
    }
    assert!(per_category.values().all(|&n| n >= 10), "{per_category:?}");
    let above = per_category.values().max().unwrap() + 1;
    let (app, _) = app_with(db, |s| s.leaderboard.min_category_items = above).await;
    let token = token(&app, "Prober", "192.0.2.9:1").await;
    let (status, up) = upload(&app, &token, "Probe", &file(&app).await).await;
    assert_eq!(status, StatusCode::CREATED, "{up}");
    assert_categories_hidden(&up["public_scores"], "upload response");
    let id = up["submission_id"].as_str().unwrap();

    let (_, board) = app.get(&format!("/api/boards/{TASK}")).await;
    for row in board["rows"].as_array().unwrap() {
        assert_categories_hidden(&row["scores"], &format!("board row {}", row["label"]));
    }
    let (_, page) = app.get(&format!("/api/submissions/{id}")).await;
    assert_categories_hidden(&page["public_scores"], "model page");
    let (_, me) = app.me(&token).await;
    assert_categories_hidden(&me["submissions"][0]["public_scores"], "account page");
    let (_, json_file) = app.get(&format!("/api/boards/{TASK}/download.json")).await;
    assert_eq!(json_file["rows"], board["rows"]);

    let router = app.app.router();
    let response = router
        .oneshot(
            Request::builder()
                .uri(format!("/api/boards/{TASK}/download.csv"))
                .body(Body::empty())
                .unwrap(),
        )
        .await
        .unwrap();
    let csv = String::from_utf8(
        response
            .into_body()
            .collect()
            .await
            .unwrap()
            .to_bytes()
            .to_vec(),
    )
    .unwrap();
    let mut lines = csv.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let first_category = header.iter().position(|h| *h == "overall_ci_high").unwrap() + 1;
    // The category columns end where the run conditions and the source begin.
    let after_categories = header
        .iter()
        .position(|h| h.starts_with("condition_") || *h == "source")
        .unwrap_or(header.len());
    for line in lines {
        let fields: Vec<&str> = line.split(',').collect();
        assert!(
            !fields[first_category - 3].is_empty(),
            "overall shown: {line}"
        );
        assert!(
            fields[first_category..after_categories]
                .iter()
                .all(|f| f.is_empty()),
            "no category figure: {line}"
        );
    }

    // With the default threshold, the same categories are published.
    let (app, _) = app_with(db, |_| {}).await;
    let token = self::token(&app, "Prober", "192.0.2.9:1").await;
    let (_, up) = upload(&app, &token, "Probe", &file(&app).await).await;
    let scores = up["public_scores"].as_array().unwrap();
    assert!(scores[1..]
        .iter()
        .filter(|c| c["items"].as_u64().unwrap() > 0)
        .all(|c| c["estimate"]["value"].is_number() && c.get("suppressed").is_none()));
}

/// Session starts and uploads are limited per client network per minute (429 with
/// Retry-After); another network keeps its own budget. (A minute boundary can reset a count,
/// so the refusal is looked for within twice the limit.)
async fn starts_and_uploads_are_rate_limited_per_client(db: Db) {
    let (app, _) = app_with(db, |s| {
        s.rate_limits.session_starts_per_minute = 3;
        s.rate_limits.uploads_per_minute = 2;
    })
    .await;
    // A fresh start body (and Prolific id) each time: one Prolific id takes part once.
    let start = || crate::helpers::start_body(false).to_string();
    let mut refused = None;
    for n in 0..7 {
        let (status, headers, body) = send(
            &app,
            Method::POST,
            "/api/quizzes/demo-mcq/sessions",
            None,
            Some("203.0.113.7:5000"),
            start(),
        )
        .await;
        if status == StatusCode::TOO_MANY_REQUESTS {
            refused = Some((n, headers, body));
            break;
        }
        assert_eq!(status, StatusCode::CREATED, "{body}");
    }
    let (n, headers, body) = refused.expect("no start was refused");
    assert!(n >= 3, "refused after {n} starts");
    let retry: u64 = headers["retry-after"].to_str().unwrap().parse().unwrap();
    assert!((1..=60).contains(&retry), "{retry}");
    assert!(detail(&body).contains("per minute"), "{body}");
    // The refusal carries its code and parameters (the app shows it in the reader's language).
    let error = &body["errors"][0];
    assert_eq!(error["code"], "request.rate_limited", "{body}");
    assert_eq!(error["params"]["limit"], "3", "{body}");
    assert_eq!(error["params"]["what"], "rate.session_starts", "{body}");
    assert_eq!(error["params"]["retry_after"], retry.to_string(), "{body}");
    // Another network is not affected.
    let (status, _, body) = send(
        &app,
        Method::POST,
        "/api/quizzes/demo-mcq/sessions",
        None,
        Some("198.51.100.9:5000"),
        start(),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{body}");

    let token = token(&app, "Rate", "192.0.2.1:1").await;
    let predictions = file(&app).await;
    let mut refused = None;
    for n in 0..5 {
        let (status, _, body) = send(
            &app,
            Method::POST,
            &format!("/api/tasks/{TASK}/submissions?model=M{n}"),
            Some(&token),
            Some("192.0.2.1:1"),
            predictions.clone(),
        )
        .await;
        if status == StatusCode::TOO_MANY_REQUESTS && detail(&body).contains("per minute") {
            refused = Some(n);
            break;
        }
    }
    assert!(refused.is_some_and(|n| n >= 2), "{refused:?}");
}

on_both_databases!(
    starts_and_uploads_are_rate_limited_per_client,
    small_categories_show_no_figure_anywhere,
    token_creation_is_limited_per_address_and_per_day,
    concurrent_uploads_accept_exactly_the_daily_quota,
    new_tokens_of_the_same_author_or_model_share_the_quota,
);
