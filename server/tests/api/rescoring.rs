//! Scoring every upload of a task again (`POST /api/owner/tasks/{slug}/rescore`, the import's
//! rescoring of tasks whose gold changed): each stored file goes through the upload's scoring
//! against the gold as it is now, the board's history says when and why, and only the task's
//! owners (or the admin) may start it.

use crate::helpers::{test_settings, Db, TestApp};
use crate::leaderboard::{file, new_token, send, upload_with, ADMIN, TASK};
use crate::on_both_databases;
use axum::http::{Method, StatusCode};
use memeboard_core::leaderboard::ItemScore;
use memeboard_server::config::Settings;
use memeboard_server::explain::inference::EmbeddingService;
use memeboard_server::owners::rescore::{gold_digests, rescore_reimported};
use memeboard_server::storage::RescoringRecord;
use serde_json::{json, Value};
use std::collections::BTreeMap;

/// Items of the uploaded file scored right (all its scores are 0 or 1).
async fn right_answers(app: &TestApp, submission: &str) -> usize {
    let s = app
        .storage()
        .find_submission(submission)
        .await
        .unwrap()
        .unwrap();
    let scores: Vec<ItemScore> = serde_json::from_str(&s.item_scores_json).unwrap();
    scores.iter().filter(|s| s.score > 0.5).count()
}

/// Moves the correct option of the task's first `n` items (a corrected gold, as a re-import
/// would store it).
async fn correct_the_gold(url: &str, app: &TestApp, n: usize) {
    let items = app.storage().task_items(TASK).await.unwrap();
    sqlx::any::install_default_drivers();
    let pool = sqlx::AnyPool::connect(url).await.unwrap();
    for item in items.iter().take(n) {
        let mut gold: Value = serde_json::from_str(&item.gold_json).unwrap();
        let correct = gold["correct"].as_u64().unwrap_or_else(|| panic!("{gold}"));
        gold["correct"] = json!((correct + 1) % 5);
        sqlx::query("UPDATE items SET gold_json = $1 WHERE id = $2")
            .bind(gold.to_string())
            .bind(&item.id)
            .execute(&pool)
            .await
            .unwrap();
    }
    pool.close().await;
}

/// What the import command does after importing the demo benchmark again (`before`: the
/// digests taken before).
async fn reimported(
    app: &TestApp,
    config: &Settings,
    before: &BTreeMap<String, u64>,
) -> Vec<(String, RescoringRecord)> {
    rescore_reimported(
        app.storage(),
        config,
        || EmbeddingService::load(&config.model, &config.data.dir),
        "demo",
        before,
        "gold re-imported from demo.json",
    )
    .await
    .unwrap()
}

async fn rescore(app: &TestApp, token: Option<&str>, reason: &str) -> (StatusCode, Value) {
    let (status, text) = send(
        app,
        Method::POST,
        &format!("/api/owner/tasks/{TASK}/rescore"),
        token,
        &json!({ "reason": reason }).to_string(),
        "application/json",
    )
    .await;
    (status, serde_json::from_str(&text).unwrap_or(Value::Null))
}

async fn a_corrected_gold_scores_every_upload_again(db: Db) {
    let (mut settings, dir) = test_settings(db, true).await;
    settings.leaderboard.daily_quota = 5;
    settings.admin.token = ADMIN.into();
    let url = settings.database_url();
    let config = settings.clone();
    let app = TestApp::with_settings(settings, dir).await;
    let token = new_token(&app, "Team Rescore").await;
    let right = crate::helpers::demo_questions() / 2;
    let (status, up) = upload_with(&app, &token, "model=Fix-7B", &file(&app, right).await).await;
    assert_eq!(status, StatusCode::CREATED, "{up}");
    let id = up["submission_id"].as_str().unwrap().to_owned();
    assert_eq!(right_answers(&app, &id).await, right);

    // Only the owners, and with a reason.
    let (status, body) = rescore(&app, None, "x").await;
    assert_eq!(status, StatusCode::UNAUTHORIZED, "{body}");
    let (status, body) = rescore(&app, Some(&token), "x").await;
    assert_eq!(status, StatusCode::UNAUTHORIZED, "an author token: {body}");
    let (status, body) = rescore(&app, Some(ADMIN), "  ").await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    assert_eq!(
        body["errors"][0]["code"], "rescore.reason_required",
        "{body}"
    );

    // The gold of three answered items is corrected; the button scores the file again.
    correct_the_gold(&url, &app, 3).await;
    let (status, body) = rescore(&app, Some(ADMIN), "gold of 3 items\ncorrected").await;
    assert_eq!(status, StatusCode::ACCEPTED, "{body}");
    assert_eq!(body["reason"], "gold of 3 items corrected");
    let mut board = Value::Null;
    for _ in 0..200 {
        board = app.get(&format!("/api/boards/{TASK}")).await.1;
        if board["rescorings"]
            .as_array()
            .is_some_and(|r| !r.is_empty())
        {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    let history = &board["rescorings"][0];
    assert_eq!(history["reason"], "gold of 3 items corrected", "{board}");
    let uploads = app
        .storage()
        .task_submission_history(TASK)
        .await
        .unwrap()
        .len() as u64;
    assert_eq!(history["rescored"].as_u64(), Some(uploads), "{history}");
    assert_eq!(history["skipped"], 0, "{history}");
    assert_eq!(right_answers(&app, &id).await, right - 3);

    // A re-import that changes the gold rescores the task by itself; one that changes
    // nothing rescores nothing.
    let before = gold_digests(app.storage(), "demo").await.unwrap();
    let unchanged = reimported(&app, &config, &before).await;
    assert!(unchanged.is_empty(), "{unchanged:?}");
    correct_the_gold(&url, &app, 5).await;
    let done = reimported(&app, &config, &before).await;
    let tasks: Vec<&str> = done.iter().map(|(t, _)| t.as_str()).collect();
    assert_eq!(tasks, [TASK]);
    // Items 1–3 moved back one more step (wrong again), items 4–5 now wrong too.
    assert_eq!(right_answers(&app, &id).await, right - 5);
    let (_, board) = app.get(&format!("/api/boards/{TASK}")).await;
    assert_eq!(
        board["rescorings"][0]["reason"], "gold re-imported from demo.json",
        "newest first: {board}"
    );
    assert_eq!(board["rescorings"].as_array().map(Vec::len), Some(2));
}

on_both_databases!(a_corrected_gold_scores_every_upload_again);
