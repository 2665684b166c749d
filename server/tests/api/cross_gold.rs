//! No cross-task gold: on a scratch benchmark of 120 comics, no test comic of the shuffled
//! order tasks is reachable through any task that shows the panels in reading order (its
//! `inputs.jsonl`, archive, template, manifest, quiz batches, or its media matched by bytes,
//! by size or by a name computed from the order task's bytes) until the owner reveals the
//! order tasks' test gold; then everything is served again. The start-up upgrade records the
//! relation for benchmarks imported before it existed.

use crate::helpers::{files_reader, start_body, test_settings, Db, TestApp};
use crate::on_both_databases;
use axum::body::Body;
use axum::http::{Request, StatusCode};
use http_body_util::BodyExt;
use memeboard_core::media::opaque_media_name;
use memeboard_core::predictions::Split;
use memeboard_server::import_panels::{import_panels, PanelsSpec};
use serde_json::{json, Value};
use std::collections::{HashMap, HashSet};
use tower::ServiceExt;

const ADMIN: &str = "admin-secret-for-tests";
const COMICS: u32 = 120;
/// The tasks whose gold is hidden: the shuffled display.
const HIDING: [&str; 2] = ["x-order", "x-order-context"];
/// The tasks showing the same comics in reading order.
const REVEALING: [&str; 5] = [
    "x-order-canonical",
    "x-order-canonical-context",
    "x-type",
    "x-type-context",
    "x-explain",
];

/// A blank PNG of a size no other panel has (so a size match is a real match).
fn png(comic: u32, panel: u32) -> Vec<u8> {
    crate::helpers::blank_png(100 + comic, 100 + panel)
}

/// 120 comics of 2 or 3 panels, all in the order task; with the database's URL.
async fn app_with_comics(db: Db) -> (TestApp, String) {
    let (mut settings, dir) = test_settings(db, false).await;
    settings.admin.token = ADMIN.into();
    let url = settings.database_url();
    let app = TestApp::with_settings(settings, dir).await;
    let mut files = HashMap::new();
    let mut lines = String::new();
    for k in 0..COMICS {
        let n = 2 + k % 2;
        let panels: Vec<String> = (0..n).map(|p| format!("c{k}-{p}.png")).collect();
        for (p, name) in panels.iter().enumerate() {
            files.insert(name.clone(), png(k, p as u32));
        }
        let groups: Vec<Vec<u32>> = (1..=n).map(|p| vec![p]).collect();
        lines.push_str(
            &json!({"id": format!("c{k}"), "panels": panels, "type": "narrative",
                "ordering_dependency": "strong", "order_groups": groups,
                "context": {"title": format!("Title {k}"), "comments": ["lol"]}})
            .to_string(),
        );
        lines.push('\n');
    }
    let spec = PanelsSpec {
        slug: "x".into(),
        title: "Scratch comics".into(),
        description: "scratch".into(),
        batch_size: 10,
        dev_percent: 30,
        quiz_open: true,
    };
    let read = files_reader(&files);
    let summary = import_panels(app.storage(), &spec, "m.jsonl", &lines, &read)
        .await
        .expect("import");
    assert_eq!(summary.order_items, COMICS as usize);
    (app, url)
}

async fn get_raw(app: &TestApp, path: &str) -> (StatusCode, Vec<u8>) {
    let req = Request::get(path).body(Body::empty()).unwrap();
    let res = app.app.router().oneshot(req).await.unwrap();
    let status = res.status();
    let bytes = res.into_body().collect().await.unwrap().to_bytes().to_vec();
    (status, bytes)
}

/// The lines of a task's `inputs.jsonl`.
async fn inputs(app: &TestApp, slug: &str) -> Vec<Value> {
    let (status, bytes) = get_raw(app, &format!("/api/tasks/{slug}/inputs.jsonl")).await;
    assert_eq!(status, StatusCode::OK);
    String::from_utf8(bytes)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn panel_urls(line: &Value) -> Vec<String> {
    line["panels"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["url"].as_str().unwrap().to_owned())
        .collect()
}

/// The files of a ustar archive under `media/`.
fn archived_media(tar: &[u8]) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    let mut at = 0;
    while at + 512 <= tar.len() && tar[at] != 0 {
        let header = &tar[at..at + 512];
        let name: String = header[..100]
            .iter()
            .take_while(|&&b| b != 0)
            .map(|&b| b as char)
            .collect();
        let size =
            usize::from_str_radix(std::str::from_utf8(&header[124..135]).unwrap(), 8).unwrap();
        if name.contains("/media/") {
            out.push(tar[at + 512..at + 512 + size].to_vec());
        }
        at += 512 + size.div_ceil(512) * 512;
    }
    out
}

/// The attacker: every panel of a test comic of the shuffled order task (public responses
/// only), then every image a revealing task serves — through its inputs, its archive, and
/// names computed from the order task's bytes. Returns (test panels, test panels matched by
/// bytes or by size in some revealing task).
async fn matched_test_panels(app: &TestApp) -> (usize, usize) {
    let mut test_panels: Vec<Vec<u8>> = Vec::new();
    for line in inputs(app, "x-order").await {
        if line["split"] == "test" {
            for url in panel_urls(&line) {
                let (status, bytes) = get_raw(app, &url).await;
                assert_eq!(status, StatusCode::OK);
                test_panels.push(bytes);
            }
        }
    }
    let mut served: HashSet<Vec<u8>> = HashSet::new();
    for slug in REVEALING {
        // Every panel the inputs name is served (one per comic fetched: the archive has all).
        for line in inputs(app, slug).await {
            let url = &panel_urls(&line)[0];
            let (status, bytes) = get_raw(app, url).await;
            assert_eq!(status, StatusCode::OK, "{url} of {slug}");
            served.insert(bytes);
        }
        let (status, tar) = get_raw(app, &format!("/api/tasks/{slug}/media.tar")).await;
        assert_eq!(status, StatusCode::OK);
        served.extend(archived_media(&tar));
        for bytes in &test_panels {
            let mut salted = slug.as_bytes().to_vec();
            salted.push(0);
            salted.extend_from_slice(bytes);
            let (status, got) = get_raw(
                app,
                &format!("/media/{}", opaque_media_name(&salted, "png")),
            )
            .await;
            if status == StatusCode::OK {
                served.insert(got);
            }
        }
    }
    // A size match: the file's length and the image's dimensions (the PNG header's width and
    // height), which every panel here has to itself.
    let size_of = |png: &[u8]| (png.len(), png.get(16..24).map(<[u8]>::to_vec));
    let sizes: HashSet<_> = served.iter().map(|p| size_of(p)).collect();
    let matched = test_panels
        .iter()
        .filter(|p| served.contains(*p) || sizes.contains(&size_of(p)))
        .count();
    (test_panels.len(), matched)
}

/// The split of every item id (the test's own view of the database).
async fn splits(app: &TestApp) -> HashMap<String, Split> {
    let mut out = HashMap::new();
    for slug in HIDING.iter().chain(REVEALING.iter()) {
        let task = app.storage().find_board_task(slug).await.unwrap().unwrap();
        for r in app.storage().task_items(&task.task.id).await.unwrap() {
            out.insert(r.id, r.split);
        }
    }
    out
}

async fn admin_switch(app: &TestApp, slug: &str, body: Value) -> Value {
    let req = Request::post(format!("/api/admin/tasks/{slug}/board"))
        .header("authorization", format!("Bearer {ADMIN}"))
        .header("content-type", "application/json")
        .body(Body::from(body.to_string()))
        .unwrap();
    let res = app.app.router().oneshot(req).await.unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    let bytes = res.into_body().collect().await.unwrap().to_bytes();
    serde_json::from_slice(&bytes).unwrap()
}

/// Item ids of quiz batches started on `slug`.
async fn batch_items(app: &TestApp, slug: &str, sessions: usize) -> Vec<String> {
    let mut ids = Vec::new();
    for _ in 0..sessions {
        let (status, s) = app
            .post(&format!("/api/quizzes/{slug}/sessions"), start_body(false))
            .await;
        assert_eq!(status, StatusCode::CREATED, "{s}");
        ids.extend(crate::helpers::item_ids(&s));
    }
    ids
}

/// Asserts what every revealing task offers: dev comics only (`revealed`: every comic).
async fn assert_offered(app: &TestApp, revealed: bool) {
    let splits = splits(app).await;
    let dev = splits.values().filter(|s| **s == Split::Dev).count() / 7;
    for slug in REVEALING {
        let lines = inputs(app, slug).await;
        if revealed {
            assert_eq!(lines.len(), COMICS as usize, "{slug}");
        } else {
            assert_eq!(lines.len(), dev, "{slug}");
            assert!(lines.iter().all(|l| l["split"] == "dev"), "{slug}");
            let (_, manifest) = app.get(&format!("/api/tasks/{slug}/manifest")).await;
            let items = manifest["items"].as_array().unwrap();
            assert_eq!(items.len(), dev, "{slug}");
            let (_, template) = get_raw(app, &format!("/api/tasks/{slug}/template.jsonl")).await;
            for line in String::from_utf8(template).unwrap().lines() {
                let id: Value = serde_json::from_str(line).unwrap();
                assert_eq!(splits[id["item_id"].as_str().unwrap()], Split::Dev);
            }
        }
    }
    // The hiding tasks always offer every comic.
    for slug in HIDING {
        assert_eq!(inputs(app, slug).await.len(), COMICS as usize);
    }
}

async fn no_test_comic_is_reachable_through_a_revealing_task_before_the_reveal(db: Db) {
    let (app, _) = app_with_comics(db).await;
    let splits = splits(&app).await;
    assert_offered(&app, false).await;
    let (test_panels, matched) = matched_test_panels(&app).await;
    assert!(test_panels >= 150, "{test_panels}");
    assert_eq!(matched, 0, "test panels matched by bytes or size");
    // Quiz batches of the open typing quiz and of an opened canonical variant: dev only.
    admin_switch(&app, "x-order-canonical", json!({"quiz_open": true})).await;
    for slug in ["x-type", "x-order-canonical"] {
        for id in batch_items(&app, slug, 3).await {
            assert_eq!(splits[&id], Split::Dev, "{slug} drew a hidden comic");
        }
    }

    // Revealing one of the two shuffled tasks is not enough: the other hides the same gold.
    let switched = admin_switch(&app, "x-order", json!({"test_gold_revealed": true})).await;
    assert_eq!(switched["test_gold_revealed"], true);
    assert_offered(&app, false).await;
    admin_switch(&app, "x-order-context", json!({"test_gold_revealed": true})).await;
    assert_offered(&app, true).await;
    let (test_panels, matched) = matched_test_panels(&app).await;
    assert_eq!(
        matched, test_panels,
        "everything is served after the reveal"
    );
    let drawn = batch_items(&app, "x-type", 3).await;
    assert!(drawn.iter().any(|id| splits[id] == Split::Test));

    // Hiding the gold again withholds the test comics again, cached media included.
    admin_switch(&app, "x-order", json!({"test_gold_revealed": false})).await;
    assert_offered(&app, false).await;
    let line = inputs(&app, "x-order")
        .await
        .into_iter()
        .find(|l| l["split"] == "test")
        .unwrap();
    let (_, bytes) = get_raw(&app, &panel_urls(&line)[0]).await;
    let mut salted = b"x-type\0".to_vec();
    salted.extend_from_slice(&bytes);
    let name = opaque_media_name(&salted, "png");
    let (status, _) = get_raw(&app, &format!("/media/{name}")).await;
    assert_eq!(
        status,
        StatusCode::NOT_FOUND,
        "a cached panel of a hidden comic"
    );
}

/// A database from before the relation: its rows removed, a revealing task publishes the
/// test comics (as earlier versions did); the start-up upgrade records it again.
async fn the_upgrade_records_the_relation_for_earlier_imports(db: Db) {
    let (app, url) = app_with_comics(db).await;
    sqlx::any::install_default_drivers();
    let pool = sqlx::AnyPool::connect(&url).await.unwrap();
    sqlx::query("DELETE FROM task_gold_reveals")
        .execute(&pool)
        .await
        .unwrap();
    pool.close().await;
    assert_eq!(inputs(&app, "x-type").await.len(), COMICS as usize);
    let report = memeboard_server::upgrade::run(app.storage(), 200)
        .await
        .unwrap();
    assert_eq!(report.gold_reveals, 10, "{report:?}");
    assert_offered(&app, false).await;
    assert_eq!(matched_test_panels(&app).await.1, 0);
    let again = memeboard_server::upgrade::run(app.storage(), 200)
        .await
        .unwrap();
    assert_eq!(again, Default::default());
}

on_both_databases!(
    no_test_comic_is_reachable_through_a_revealing_task_before_the_reveal,
    the_upgrade_records_the_relation_for_earlier_imports,
);
