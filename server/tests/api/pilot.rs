//! Pilot mode: sessions started while the owner's console switch is on are stored apart and
//! never counted (crowd statistics, board human rows, the participant target, the live
//! progress, assignment counters), not even after the switch is turned off; the export marks
//! them; databases of earlier versions gain the column with their sessions counted as real.

use crate::helpers::{start_body, test_settings, upgraded_from_before, Db, TestApp};
use crate::on_both_databases;
use crate::owners::{call, finish, set, ADMIN};
use axum::http::{Method, StatusCode};
use serde_json::{json, Value};

const TASK: &str = "demo-mcq";

/// The board's human-average row, if any.
async fn human_average(app: &TestApp) -> Option<Value> {
    let (status, board) = app.get(&format!("/api/boards/{TASK}")).await;
    assert_eq!(status, StatusCode::OK, "{board}");
    board["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["kind"] == "human_average")
        .cloned()
}

/// The owner's view of the task: `(progress, console)`.
async fn owner_views(app: &TestApp) -> (Value, Value) {
    let (status, progress) = call(
        app,
        Method::GET,
        &format!("/api/owner/tasks/{TASK}/progress"),
        Some(ADMIN),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{progress}");
    let (status, console) = call(
        app,
        Method::GET,
        &format!("/api/owner/tasks/{TASK}/console"),
        Some(ADMIN),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{console}");
    (progress, console)
}

/// The answer-level export as JSON Lines rows, with its text.
async fn export(app: &TestApp) -> (Vec<Value>, String) {
    use http_body_util::BodyExt;
    use tower::ServiceExt;
    let request = axum::http::Request::get(format!("/api/owner/tasks/{TASK}/export.jsonl"))
        .header("authorization", format!("Bearer {ADMIN}"))
        .body(axum::body::Body::empty())
        .unwrap();
    let response = app.app.router().oneshot(request).await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    let text = String::from_utf8(bytes.to_vec()).unwrap();
    let rows = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    (rows, text)
}

/// Items of the task given out to some counted batch (the balanced assignment's counters).
async fn exposed_items(url: &str) -> i64 {
    use sqlx::Row;
    sqlx::any::install_default_drivers();
    let pool = sqlx::AnyPool::connect(url).await.unwrap();
    let row = sqlx::query(
        "SELECT COUNT(*) AS n FROM items i JOIN tasks t ON t.id = i.task_id \
         WHERE t.slug = $1 AND i.exposures > 0",
    )
    .bind(TASK)
    .fetch_one(&pool)
    .await
    .unwrap();
    row.try_get("n").unwrap()
}

async fn pilot_sessions_never_count(db: Db) {
    let (mut settings, dir) = test_settings(db, true).await;
    settings.admin.token = ADMIN.into();
    crate::export::exact_crowd(&mut settings);
    let url = settings.database_url();
    let app = TestApp::with_settings(settings, dir).await;
    let (status, body) = set(&app, ADMIN, |s| {
        s["study"]["participant_target"] = json!(1);
        s["study"]["pilot"] = json!(true);
    })
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["study"]["pilot"], true, "{body}");

    // The owner's test run: an ordinary session to the participant, finished.
    let tester = app.start_demo_session().await;
    assert!(tester.get("pilot").is_none(), "{tester}");
    let last = finish(&app, &tester, false, 0).await;
    assert!(last["completion_code"].is_string(), "{last}");
    // Nothing counts it: the crowd, the board, the participant target, the counters.
    let (_, stats) = app.get(&format!("/api/quizzes/{TASK}/stats")).await;
    assert_eq!(stats["completed_participants"], 0, "{stats}");
    assert_eq!(human_average(&app).await, None);
    let listed = app.listed_quiz(TASK).await;
    assert_eq!(listed["completed_participants"], 0, "{listed}");
    assert_ne!(listed["full"], true, "{listed}");
    assert_eq!(exposed_items(&url).await, 0);
    // A second pilot start: the target (1) is not reached by the finished test run.
    let (status, body) = app
        .post(&format!("/api/quizzes/{TASK}/sessions"), start_body(false))
        .await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    let (progress, console) = owner_views(&app).await;
    assert_eq!(
        (&progress["started"], &progress["completed"]),
        (&json!(0), &json!(0)),
        "{progress}"
    );
    assert_eq!(
        (&progress["pilot_sessions"], &progress["pilot_completed"]),
        (&json!(2), &json!(1)),
        "{progress}"
    );
    let answers: u64 = progress["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["answers"].as_u64().unwrap())
        .sum();
    assert_eq!(answers, 0, "{progress}");
    assert_eq!(console["completed_before_exclusions"], 0, "{console}");
    assert_eq!(console["exclusions"], json!([]), "{console}");

    // Pilot mode off: a real participant counts, the test run still does not.
    let (status, body) = set(&app, ADMIN, |s| s["study"]["pilot"] = json!(false)).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let real = app.start_demo_session().await;
    finish(&app, &real, false, 1).await;
    let (_, stats) = app.get(&format!("/api/quizzes/{TASK}/stats")).await;
    assert_eq!(stats["completed_participants"], 1, "{stats}");
    let avg = human_average(&app).await.unwrap();
    assert_eq!(avg["participants"], 1, "{avg}");
    assert_eq!(avg["participants_before_exclusions"], 1, "{avg}");
    let batch = crate::helpers::item_ids(&real).len();
    assert_eq!(exposed_items(&url).await, batch as i64);
    // Now the target is reached, by the real participant alone.
    let (status, body) = app
        .post(&format!("/api/quizzes/{TASK}/sessions"), start_body(false))
        .await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    let (progress, console) = owner_views(&app).await;
    assert_eq!(
        (&progress["started"], &progress["completed"]),
        (&json!(1), &json!(1)),
        "{progress}"
    );
    assert_eq!(progress["completed_after_exclusions"], 1, "{progress}");
    assert_eq!(progress["pilot_sessions"], 2, "{progress}");
    assert_eq!(console["completed_before_exclusions"], 1, "{console}");
    assert_eq!(console["completed_after_exclusions"], 1, "{console}");

    // The export keeps the test run's answers, marked and excluded; the stats CLI agrees.
    let (rows, text) = export(&app).await;
    assert_eq!(rows.len(), 2 * batch, "{text}");
    let benchmark = app.storage().benchmark_id("demo").await.unwrap().unwrap();
    let pseudonym = |s: &Value| {
        memeboard_server::export::pseudonym(
            &benchmark,
            "session",
            s["session_id"].as_str().unwrap(),
        )
    };
    for row in &rows {
        if row["session"] == pseudonym(&tester).as_str() {
            assert_eq!(
                (&row["pilot"], &row["excluded"], &row["exclusion_reason"]),
                (&json!(1), &json!(1), &json!("pilot")),
                "{row}"
            );
        } else {
            assert_eq!(row["session"], pseudonym(&real).as_str(), "{row}");
            assert_eq!((&row["pilot"], &row["excluded"]), (&json!(0), &json!(0)));
        }
    }
    let report =
        memeboard_server::export::stats::stats_from_export(&text, crate::export::OPTIONS).unwrap();
    assert_eq!(report.quiz.completed_participants, 1);

    // Deleting the tester's data gives back no assignment counters (the batch raised none).
    let tester_pseudonym = rows.iter().find(|r| r["pilot"] == 1).unwrap()["participant"]
        .as_str()
        .unwrap()
        .to_owned();
    let (status, body) = call(
        &app,
        Method::DELETE,
        &format!("/api/owner/tasks/{TASK}/participants/{tester_pseudonym}"),
        Some(ADMIN),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(exposed_items(&url).await, batch as i64);
    let (progress, _) = owner_views(&app).await;
    assert_eq!(progress["pilot_sessions"], 1, "{progress}");
    assert_eq!(progress["completed"], 1, "{progress}");
    let (_, stats) = app.get(&format!("/api/quizzes/{TASK}/stats")).await;
    assert_eq!(stats["completed_participants"], 1, "{stats}");
}

/// A database of the previous version (every migration before pilot mode) with a completed
/// session: the upgrade adds the column, and the session is a real one.
async fn earlier_databases_upgrade_with_real_sessions(db: Db) {
    use sqlx::Row;
    let (pool, _dir) = upgraded_from_before(
        db,
        "20261210000031_add_pilot_sessions.sql",
        &[
        "INSERT INTO benchmarks (id, slug, title, description, family, created_at) \
         VALUES ('b', 'b', 'B', 'd', 'text_memes', 1)",
        "INSERT INTO tasks (id, benchmark_id, slug, kind, title, description, categories_json, \
         batch_size, quiz_open, created_at) VALUES ('t', 'b', 't', 'text_mcq', 't', 'd', '[]', 1, 1, 1)",
        "INSERT INTO participants (id, created_at) VALUES ('P-OLD', 1)",
        "INSERT INTO sessions (id, participant_id, task_id, seed, survey_json, batch_size, \
         created_at, completed_at) VALUES ('s-old', 'P-OLD', 't', 7, '{}', 1, 1, 2)",
        ],
    )
    .await;
    let row = sqlx::query("SELECT pilot FROM sessions WHERE id = 's-old'")
        .fetch_one(&pool)
        .await
        .unwrap();
    assert_eq!(row.try_get::<i64, _>("pilot").unwrap(), 0);
}

on_both_databases!(
    pilot_sessions_never_count,
    earlier_databases_upgrade_with_real_sessions,
);
