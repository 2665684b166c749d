//! The demos are large enough to show every figure under the default settings: each meme type
//! has at least `leaderboard.min_category_items` items on each board half of both of its
//! tasks, and each strip length as many on both halves of the panel order and typing boards
//! (whose confusion matrix shows once the private half is revealed), so the demos' boards
//! publish every category column (issue 32 §7; the panel counts: `server/src/demo/tests.rs`).

use crate::helpers::{demo_memes, demo_questions, models_installed, Db, TestApp};
use crate::leaderboard::{app_with, file, new_token, reveal, send, upload_with, TASK};
use crate::on_both_databases;
use axum::http::{Method, StatusCode};
use memeboard_server::config::Settings;
use memeboard_server::demo::{demo_spec, DEMO_MCQ, DEMO_MEMES};
use memeboard_server::import::parse_chime;
use memeboard_server::storage::ItemRecord;
use serde_json::{json, Value};
use std::collections::BTreeMap;

/// Items per (category, board half) among the test items.
fn per_half(items: &[ItemRecord]) -> BTreeMap<(String, String), usize> {
    let mut counts = BTreeMap::new();
    for it in items.iter().filter(|it| it.split == "test") {
        *counts
            .entry((it.category.clone(), it.board_half.clone()))
            .or_default() += 1;
    }
    counts
}

#[test]
fn every_meme_type_fills_both_board_halves_of_both_tasks() {
    let min = Settings::defaults().unwrap().leaderboard.min_category_items;
    let parsed = parse_chime(&demo_spec(24, 6), DEMO_MEMES, DEMO_MCQ).unwrap();
    assert_eq!(parsed.items.len(), demo_questions());
    assert_eq!(parsed.explain_items.len(), demo_memes());
    let categories: Vec<String> = parsed
        .memes
        .iter()
        .map(|m| m.category.clone())
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect();
    assert_eq!(categories.len(), 6, "{categories:?}");
    for (task, items) in [("mcq", &parsed.items), ("explain", &parsed.explain_items)] {
        let counts = per_half(items);
        for c in &categories {
            for half in ["public", "private"] {
                let n = counts.get(&(c.clone(), half.into())).copied().unwrap_or(0);
                assert!(
                    n >= min,
                    "{task}: {c} has {n} test items on the {half} half"
                );
            }
            let dev = items
                .iter()
                .filter(|it| it.split == "dev" && &it.category == c)
                .count();
            assert!(dev > 0, "{task}: {c} has no dev item to preview");
        }
    }
}

/// Every category entry of a board row carries a figure (`columns`: overall and the
/// categories).
pub(crate) fn assert_columns_shown(scores: &Value, what: &str, columns: usize) {
    let scores = scores.as_array().unwrap();
    assert_eq!(scores.len(), columns, "overall and the categories: {what}");
    for c in scores {
        assert!(c["estimate"]["value"].is_number(), "{what}: {c}");
        assert!(c.get("suppressed").is_none(), "{what}: {c}");
    }
}

/// Overall and the six meme types.
fn assert_categories_shown(scores: &Value, what: &str) {
    assert_columns_shown(scores, what, 7);
}

/// The board row of model `label`.
pub(crate) fn model_row<'a>(board: &'a Value, label: &str) -> &'a Value {
    board["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["kind"] == "model" && r["label"] == label)
        .unwrap_or_else(|| panic!("no row {label}: {board}"))
}

async fn the_demo_boards_show_every_category_under_the_defaults(db: Db) {
    let app = app_with(db, 5).await;
    let token = new_token(&app, "Team Demo").await;
    let query = "model=Demo-7B&weights=open&parameters=7B";
    let (status, up) = upload_with(
        &app,
        &token,
        query,
        &file(&app, demo_questions() * 2 / 3).await,
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{up}");
    assert_categories_shown(&up["public_scores"], "upload response");
    let (_, board) = app.get(&format!("/api/boards/{TASK}")).await;
    assert_categories_shown(&model_row(&board, "Demo-7B")["scores"], "public MCQ board");
    reveal(&app, TASK).await;
    let (status, private) = app.get(&format!("/api/boards/{TASK}?split=private")).await;
    assert_eq!(status, StatusCode::OK, "{private}");
    assert_categories_shown(
        &model_row(&private, "Demo-7B")["scores"],
        "private MCQ board",
    );

    if !models_installed() {
        return;
    }
    // The explanation task: the reference meanings of most memes (scored by embeddings).
    let explain = "demo-explain";
    let lines: String = app
        .items_with_gold(explain)
        .await
        .iter()
        .enumerate()
        .filter(|(n, _)| n % 4 != 0)
        .map(|(_, (id, _, gold))| {
            json!({"item_id": id, "meaning": gold["meaning"]}).to_string() + "\n"
        })
        .collect();
    let (status, text) = send(
        &app,
        Method::POST,
        &format!("/api/tasks/{explain}/submissions?{query}"),
        Some(&token),
        &lines,
        "application/x-ndjson",
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{text}");
    let (_, board) = app.get(&format!("/api/boards/{explain}")).await;
    assert_categories_shown(
        &model_row(&board, "Demo-7B")["scores"],
        "public explanation board",
    );
    reveal(&app, explain).await;
    let (_, private) = app
        .get(&format!("/api/boards/{explain}?split=private"))
        .await;
    assert_categories_shown(
        &model_row(&private, "Demo-7B")["scores"],
        "private explanation board",
    );
}

/// A prediction file for every item a panel task offers: the displayed order (parseable, and
/// wrong by construction) or one structure type.
async fn panel_file(app: &TestApp, slug: &str) -> String {
    file_for_inputs(app, slug, None, |line| {
        let id = &line["item_id"];
        if slug.ends_with("-order") {
            let n = line["num_panels"].as_u64().unwrap();
            json!({"item_id": id, "order": (1..=n).collect::<Vec<_>>()})
        } else {
            json!({"item_id": id, "structure": "narrative"})
        }
    })
    .await
}

/// A prediction file with one line per line of the task's `inputs.jsonl` (fetched with
/// `token` where given), made by `answer`.
pub(crate) async fn file_for_inputs(
    app: &TestApp,
    slug: &str,
    token: Option<&str>,
    answer: impl Fn(&Value) -> Value,
) -> String {
    let (status, inputs) = send(
        app,
        Method::GET,
        &format!("/api/tasks/{slug}/inputs.jsonl"),
        token,
        "",
        "text/plain",
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{inputs}");
    inputs
        .lines()
        .map(|l| answer(&serde_json::from_str(l).unwrap()).to_string() + "\n")
        .collect()
}

async fn the_panel_demo_boards_show_every_strip_length_under_the_defaults(db: Db) {
    let app = app_with(db, 5).await;
    let token = new_token(&app, "Team Panels").await;
    let query = "model=Demo-7B&weights=open&parameters=7B";
    for slug in ["demo-panel-order", "demo-panel-type"] {
        let (status, text) = send(
            &app,
            Method::POST,
            &format!("/api/tasks/{slug}/submissions?{query}"),
            Some(&token),
            &panel_file(&app, slug).await,
            "application/x-ndjson",
        )
        .await;
        assert_eq!(status, StatusCode::CREATED, "{slug}: {text}");
        let up: Value = serde_json::from_str(&text).unwrap();
        assert_columns_shown(&up["public_scores"], &format!("{slug} upload"), 4);
        let (_, board) = app.get(&format!("/api/boards/{slug}")).await;
        let row = model_row(&board, "Demo-7B");
        assert_columns_shown(&row["scores"], &format!("{slug} public board"), 4);
        // Counts per gold type over the hidden public half are never published.
        assert!(row["confusion"].is_null(), "{row}");
        reveal(&app, slug).await;
        let (status, private) = app.get(&format!("/api/boards/{slug}?split=private")).await;
        assert_eq!(status, StatusCode::OK, "{private}");
        let row = model_row(&private, "Demo-7B");
        assert_columns_shown(&row["scores"], &format!("{slug} private board"), 4);
        if slug == "demo-panel-type" {
            let matrix = &row["confusion"];
            assert!(matrix.is_object(), "no confusion matrix: {row}");
            let total: u64 = matrix["counts"]
                .as_array()
                .unwrap()
                .iter()
                .flat_map(|r| r.as_array().unwrap())
                .map(|n| n.as_u64().unwrap())
                .sum();
            assert_eq!(total, private["items"].as_u64().unwrap(), "{matrix}");
        }
    }
}

on_both_databases!(
    the_demo_boards_show_every_category_under_the_defaults,
    the_panel_demo_boards_show_every_strip_length_under_the_defaults
);
