//! Published figures over hidden items carry bounded information: crowd figures (`/stats`,
//! the crowd table in results, the board's human rows) are a rounded snapshot that one
//! participant's answers do not move, and repeated uploads are answered with the Ladder.

use crate::helpers::{demo_questions, item_ids, test_settings, Db, TestApp};
use crate::on_both_databases;
use axum::http::{Method, StatusCode};
use memeboard_core::disclosure::{item_grid, on_grid, round_to};
use serde_json::Value;

const TASK: &str = "demo-mcq";

/// Finishes a session answering display position `n % 5` for the n-th item (any answers do:
/// the figures must not move whatever they are).
async fn finish(app: &TestApp, shift: usize) -> String {
    let session = app.start_demo_session().await;
    let id = session["session_id"].as_str().unwrap().to_owned();
    for (n, item) in item_ids(&session).iter().enumerate() {
        let (status, body) = app
            .answer(&id, item, (n + shift) % 5, &format!("k-{item}"))
            .await;
        assert_eq!(status, StatusCode::CREATED, "{body}");
    }
    id
}

/// Every number under `key` fields named like estimates lies on the grid.
fn assert_on_grid(v: &Value, step: f64, path: &str) {
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                if ["value", "ci_low", "ci_high"].contains(&k.as_str()) {
                    if let Some(f) = x.as_f64() {
                        assert!(on_grid(f, step), "{path}.{k} = {f} is finer than {step}");
                    }
                }
                assert_on_grid(x, step, &format!("{path}.{k}"));
            }
        }
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                assert_on_grid(x, step, &format!("{path}[{i}]"));
            }
        }
        _ => {}
    }
}

/// The board's human rows: their figures and the snapshot's participant count.
fn human_rows(board: &Value) -> Vec<Value> {
    board["rows"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["kind"] == "human_average" || r["kind"] == "human_best")
        .map(|r| serde_json::json!([r["scores"], r["participants"]]))
        .collect()
}

async fn crowd_figures_move_only_at_the_snapshot_step(db: Db) {
    let (mut settings, dir) = test_settings(db, true).await;
    settings.quiz.min_crowd_participants = 3;
    settings.quiz.min_crowd_items = 1;
    settings.quiz.crowd_snapshot_step = 3;
    let grid = settings.quiz.crowd_grid;
    let app = TestApp::with_settings(settings, dir).await;
    // Below the minimum: no figure over hidden items at all.
    finish(&app, 0).await;
    let (_, stats) = app.get("/api/quizzes/demo-mcq/stats").await;
    assert_eq!(stats["completed_participants"], 1);
    assert!(stats["rows"][0]["human_average"].is_null(), "{stats}");
    finish(&app, 1).await;
    finish(&app, 2).await;
    let (status, before) = app.get("/api/quizzes/demo-mcq/stats").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(before["rows"][0]["participants"], 3);
    assert!(
        before["rows"][0]["human_average"]["value"].is_f64(),
        "{before}"
    );
    assert_on_grid(&before, grid, "stats");
    let (_, board_before) = app.get(&format!("/api/boards/{TASK}")).await;
    assert_eq!(human_rows(&board_before)[0][1], 3);
    assert_on_grid(
        &Value::Array(human_rows(&board_before)),
        grid,
        "board humans",
    );

    // One more participant, answering differently: nothing published moves.
    let mine = finish(&app, 3).await;
    let (_, after) = app.get("/api/quizzes/demo-mcq/stats").await;
    assert_eq!(after["completed_participants"], 4);
    assert_eq!(after["rows"], before["rows"], "a participant moved /stats");
    assert_eq!(after["agreement"], before["agreement"]);
    let (status, results) = app.get(&format!("/api/sessions/{mine}/results")).await;
    assert_eq!(status, StatusCode::OK, "{results}");
    assert_eq!(
        results["crowd"]["rows"], before["rows"],
        "results' crowd moved"
    );
    let (_, board_after) = app.get(&format!("/api/boards/{TASK}")).await;
    assert_eq!(
        human_rows(&board_after),
        human_rows(&board_before),
        "the board's human rows moved"
    );

    // The next step brings the next participants in at once.
    finish(&app, 4).await;
    finish(&app, 0).await;
    let (_, stepped) = app.get("/api/quizzes/demo-mcq/stats").await;
    assert_eq!(stepped["rows"][0]["participants"], 6);
    assert_on_grid(&stepped, grid, "stats");
}

/// (item id, correct answer 1-based, on the public half) for every item.
async fn gold(app: &TestApp) -> Vec<(String, usize, bool)> {
    app.mcq_answers(TASK)
        .await
        .into_iter()
        .map(|(r, answer)| {
            let public = r.split.as_str() == "test" && r.board_half.as_str() == "public";
            (r.id, answer, public)
        })
        .collect()
}

async fn upload(app: &TestApp, token: &str, body: String) -> Value {
    let reply = app
        .send_as(
            Method::POST,
            &format!("/api/tasks/{TASK}/submissions?model=Climber"),
            Some(token),
            Some("application/x-ndjson"),
            body,
        )
        .await;
    let text = reply.text();
    assert_eq!(reply.status, StatusCode::CREATED, "{text}");
    serde_json::from_str(&text).unwrap()
}

async fn repeated_uploads_climb_only_by_the_ladder_margin(db: Db) {
    let (mut settings, dir) = test_settings(db, true).await;
    // One upload per number of right answers, 0 to every demo question.
    let uploads = demo_questions() + 1;
    settings.leaderboard.daily_quota = uploads;
    settings.leaderboard.daily_quota_per_author = uploads;
    settings.leaderboard.daily_quota_per_model = uploads;
    settings.rate_limits.uploads_per_minute = 0;
    let app = TestApp::with_settings(settings, dir).await;
    let (status, author) = app
        .post(
            "/api/authors",
            serde_json::json!({"name": "Climber", "organisation": "Lab"}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{author}");
    let token = author["token"].as_str().unwrap().to_owned();
    let gold = gold(&app).await;
    let n_public = gold.iter().filter(|g| g.2).count();
    let step = item_grid(n_public, 1.0).unwrap();
    // Files that differ from the one before in one item: the first `right` items answered
    // correctly, the rest wrongly.
    let file = |right: usize| -> String {
        gold.iter()
            .enumerate()
            .map(|(n, (id, correct, _))| {
                let answer = if n < right { *correct } else { correct % 5 + 1 };
                format!("{{\"item_id\":\"{id}\",\"answer\":{answer}}}\n")
            })
            .collect()
    };
    let exact =
        |right: usize| gold.iter().take(right).filter(|g| g.2).count() as f64 / n_public as f64;
    let mut shown: Option<f64> = None;
    let mut previous: Option<Value> = None;
    for right in 0..=gold.len() {
        let body = upload(&app, &token, file(right)).await;
        let scores = body["public_scores"].clone();
        // Each figure on the grid of its own items (the overall one: the half's).
        for (k, s) in scores.as_array().unwrap().iter().enumerate() {
            let items = s["items"].as_u64().unwrap() as usize;
            if let Some(own) = item_grid(items, 1.0) {
                assert_on_grid(s, own, &format!("public_scores[{k}]"));
            }
        }
        let value = scores[0]["estimate"]["value"].as_f64().unwrap();
        let climbs = shown.is_none_or(|s| exact(right) > s + step + 1e-9);
        if climbs {
            assert_eq!(value, round_to(exact(right), step), "right = {right}");
            shown = Some(value);
        } else {
            assert_eq!(
                Some(&scores),
                previous.as_ref(),
                "an upload below the margin changed the feedback (right = {right})"
            );
        }
        previous = Some(scores);
        // The board and the model page show the same.
        let id = body["submission_id"].as_str().unwrap();
        let (_, page) = app.get(&format!("/api/submissions/{id}")).await;
        assert_eq!(page["public_scores"], body["public_scores"]);
    }
    let (_, board) = app.get(&format!("/api/boards/{TASK}")).await;
    let row = board["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["kind"] == "model")
        .unwrap()
        .clone();
    assert_eq!(row["scores"][0]["estimate"]["value"].as_f64(), shown);
    assert_on_grid(&row["scores"][0], step, "board");
}

on_both_databases!(
    crowd_figures_move_only_at_the_snapshot_step,
    repeated_uploads_climb_only_by_the_ladder_margin,
);
