//! The whole test split's board (`?split=whole`, both halves together, as the papers report
//! their figures): refused with every download and pre-rendered page until the private half
//! is revealed (before that it would move with the hidden half's gold), then the pooled
//! figures of both halves; the owners' board over every item, dev too (`?split=all`), for an
//! owner or the admin only, with the paper tables over the same items; earlier submissions get
//! their summaries from the start-up upgrade.

use crate::helpers::{test_settings, Db, TestApp};
use crate::leaderboard::{file, new_token, reveal, send, upload_with, ADMIN, TASK};
use crate::on_both_databases;
use axum::http::{Method, StatusCode};
use serde_json::Value;

const MODEL: &str = "Whole-7B";

fn model_row(board: &Value) -> &Value {
    board["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["kind"] == "model" && r["label"] == MODEL)
        .unwrap_or_else(|| panic!("no row {MODEL}: {board}"))
}

/// `(items, value)` of a row's overall entry.
fn overall(row: &Value) -> (u64, f64) {
    let s = &row["scores"][0];
    assert!(s["category"].is_null(), "{row}");
    (
        s["items"].as_u64().unwrap(),
        s["estimate"]["value"].as_f64().unwrap(),
    )
}

/// Test items on the whole split and how many of them the uploaded file answers right.
async fn expected(app: &TestApp, right: usize) -> (u64, u64) {
    let items = app.storage().task_items(TASK).await.unwrap();
    let mut test = 0;
    let mut correct = 0;
    for (n, item) in items.iter().enumerate() {
        if item.split.as_str() == "test" {
            test += 1;
            correct += u64::from(n < right);
        }
    }
    (test, correct)
}

/// Every item and how many of them the uploaded file answers right.
async fn expected_all(app: &TestApp, right: usize) -> (u64, u64) {
    let items = app.storage().task_items(TASK).await.unwrap();
    (items.len() as u64, items.len().min(right) as u64)
}

/// A GET with the admin token: status and body text.
async fn admin_get(app: &TestApp, path: &str) -> (StatusCode, String) {
    send(app, Method::GET, path, Some(ADMIN), "", "text/plain").await
}

/// The `Cache-Control` of a GET with the admin token.
async fn admin_cache_rule(app: &TestApp, path: &str) -> String {
    let reply = app
        .send_as(
            Method::GET,
            path,
            Some(ADMIN),
            None,
            axum::body::Body::empty(),
        )
        .await;
    reply.headers["cache-control"].to_str().unwrap().to_owned()
}

async fn the_whole_split_waits_for_the_reveal_then_pools_both_halves(db: Db) {
    let (mut settings, dir) = test_settings(db, true).await;
    settings.leaderboard.daily_quota = 5;
    settings.admin.token = ADMIN.into();
    let url = settings.database_url();
    let scale = settings.leaderboard.score_grid_scale;
    let app = TestApp::with_settings(settings, dir).await;
    let token = new_token(&app, "Team Whole").await;
    let right = crate::helpers::demo_questions() * 3 / 5;
    let query = format!("model={MODEL}&weights=open&parameters=7B");
    let (status, up) = upload_with(&app, &token, &query, &file(&app, right).await).await;
    assert_eq!(status, StatusCode::CREATED, "{up}");

    // Before the reveal: no whole-split figure by any route.
    let (status, body) = app.get(&format!("/api/boards/{TASK}?split=whole")).await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{body}");
    assert_eq!(body["errors"][0]["code"], "board.whole_hidden", "{body}");
    for path in [
        format!("/api/boards/{TASK}/download.csv?split=whole"),
        format!("/api/boards/{TASK}/download.json?split=whole"),
    ] {
        let (status, text) = send(&app, Method::GET, &path, None, "", "text/plain").await;
        assert_eq!(status, StatusCode::FORBIDDEN, "{path}: {text}");
        assert!(!text.contains(MODEL), "{path}: {text}");
    }
    let (_, tables) = app.get("/api/benchmarks/demo/tables?split=whole").await;
    assert!(!tables.to_string().contains(MODEL), "{tables}");
    for path in [
        format!("/api/boards/{TASK}?split=all"),
        "/api/benchmarks/demo/tables?split=all".to_owned(),
        "/api/benchmarks/demo/tables/chime-table-4.csv?split=all".to_owned(),
    ] {
        let (status, body) = admin_get(&app, &path).await;
        assert_eq!(status, StatusCode::FORBIDDEN, "{path}: {body}");
        assert!(!body.contains(MODEL), "{path}: {body}");
    }

    reveal(&app, TASK).await;
    let (status, whole) = app.get(&format!("/api/boards/{TASK}?split=whole")).await;
    assert_eq!(status, StatusCode::OK, "{whole}");
    assert_eq!(whole["split"], "whole");
    let (_, public) = app.get(&format!("/api/boards/{TASK}")).await;
    let (_, private) = app.get(&format!("/api/boards/{TASK}?split=private")).await;
    let (test, correct) = expected(&app, right).await;
    let (n, value) = overall(model_row(&whole));
    let (np, _) = overall(model_row(&public));
    let (nq, _) = overall(model_row(&private));
    assert_eq!((n, np + nq), (test, test), "every test item, both halves");
    assert_eq!(whole["items"].as_u64(), Some(test), "{whole}");
    // Published on the grid the whole split supports (finer than either half's).
    let step = memeboard_core::disclosure::item_grid(test as usize, scale).unwrap();
    let exact = correct as f64 / test as f64;
    let on_grid = memeboard_core::disclosure::round_to(exact, step);
    assert!(
        (value - on_grid).abs() < 1e-9,
        "{value} vs {exact} on a {step} grid"
    );
    // Each category over both halves.
    for (c, entry) in model_row(&whole)["scores"]
        .as_array()
        .unwrap()
        .iter()
        .enumerate()
        .skip(1)
    {
        let items = |b: &Value| model_row(b)["scores"][c]["items"].as_u64().unwrap();
        assert_eq!(items(&whole), items(&public) + items(&private), "{entry}");
    }
    // The crowd and the chance rows are there too, over the same items.
    let kinds: Vec<&str> = whole["rows"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|r| r["kind"].as_str())
        .collect();
    assert!(kinds.contains(&"chance"), "{kinds:?}");
    let (status, csv) = send(
        &app,
        Method::GET,
        &format!("/api/boards/{TASK}/download.csv?split=whole"),
        None,
        "",
        "text/plain",
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{csv}");
    assert!(csv.contains(MODEL), "{csv}");

    // Every item, dev too: the owners' view (an owner or the admin), never anyone else's.
    for path in [
        format!("/api/boards/{TASK}?split=all"),
        format!("/api/boards/{TASK}/download.csv?split=all"),
        "/api/benchmarks/demo/tables?split=all".to_owned(),
    ] {
        let (status, text) = send(&app, Method::GET, &path, None, "", "text/plain").await;
        assert!(
            matches!(status, StatusCode::UNAUTHORIZED | StatusCode::FORBIDDEN),
            "{path}: {status} {text}"
        );
        assert!(!text.contains(MODEL), "{path}: {text}");
    }
    let (status, all) = admin_get(&app, &format!("/api/boards/{TASK}?split=all")).await;
    assert_eq!(status, StatusCode::OK, "{all}");
    let all: Value = serde_json::from_str(&all).unwrap();
    let (every, every_correct) = expected_all(&app, right).await;
    let (n, value) = overall(model_row(&all));
    assert_eq!(n, every, "dev and test items");
    assert!(every > test, "the demo has dev items");
    let step = memeboard_core::disclosure::item_grid(every as usize, scale).unwrap();
    let on_all_grid =
        memeboard_core::disclosure::round_to(every_correct as f64 / every as f64, step);
    assert!(
        (value - on_all_grid).abs() < 1e-9,
        "{value} vs {on_all_grid}"
    );
    // The owners' paper tables over every item: Table 4's model row is the all-items board's.
    let (status, tables) = admin_get(&app, "/api/benchmarks/demo/tables?split=all").await;
    assert_eq!(status, StatusCode::OK, "{tables}");
    let tables: Value = serde_json::from_str(&tables).unwrap();
    assert_eq!(tables["split"], "all");
    let table_4 = tables["tables"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["id"] == "chime-table-4")
        .expect("Table 4");
    let row = table_4["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["label"] == MODEL)
        .expect("the model's row");
    assert_eq!(row["cells"][0]["items"].as_u64(), Some(every), "{row}");
    assert!((row["cells"][0]["value"].as_f64().unwrap() - value).abs() < 1e-9);
    let path = "/api/benchmarks/demo/tables/chime-table-4.csv?split=all";
    let (status, csv) = admin_get(&app, path).await;
    assert_eq!(status, StatusCode::OK, "{csv}");
    assert!(csv.contains(MODEL), "{csv}");
    assert_eq!(admin_cache_rule(&app, path).await, "private, no-store");

    // A submission stored before this view (no whole summary) gets it from the upgrade.
    sqlx::any::install_default_drivers();
    let pool = sqlx::AnyPool::connect(&url).await.unwrap();
    sqlx::query("UPDATE submissions SET extra_json = NULL")
        .execute(&pool)
        .await
        .unwrap();
    pool.close().await;
    let (_, stale) = app.get(&format!("/api/boards/{TASK}?split=whole")).await;
    assert!(
        model_row(&stale)["scores"].as_array().unwrap().is_empty(),
        "{stale}"
    );
    let report = memeboard_server::upgrade::run(app.storage(), 200)
        .await
        .unwrap();
    assert!(report.whole_summaries >= 1, "{report:?}");
    let (_, upgraded) = app.get(&format!("/api/boards/{TASK}?split=whole")).await;
    let (n, value) = overall(model_row(&upgraded));
    assert_eq!(n, test);
    assert!((value - on_grid).abs() < 1e-9, "{value} vs {on_grid}");
    let (_, all) = admin_get(&app, &format!("/api/boards/{TASK}?split=all")).await;
    let all: Value = serde_json::from_str(&all).unwrap();
    assert_eq!(overall(model_row(&all)).0, every);
    let again = memeboard_server::upgrade::run(app.storage(), 200)
        .await
        .unwrap();
    assert_eq!(again.whole_summaries, 0, "{again:?}");
}

on_both_databases!(the_whole_split_waits_for_the_reveal_then_pools_both_halves);
