//! Crowd-facing requests never read the crowd's answers on their path (issue 28): the crowd
//! statistics, a participant's results, the board and a model's item gaps are computed once
//! per state of the crowd's data, and a request at the same state reads no crowd answer
//! (`Storage::crowd_reads` counts the reads).

use crate::helpers::{test_settings, Db, TestApp};
use crate::leaderboard::{file, new_token, send, upload_with, ADMIN, TASK};
use crate::on_both_databases;
use axum::http::{Method, StatusCode};
use memeboard_core::kinds::text_mcq;
use memeboard_core::tasks::ItemGold;

/// Answers every item of a new demo session correctly; the session's id.
async fn complete_correctly(app: &TestApp) -> String {
    let session = app.start_demo_session().await;
    let id = session["session_id"].as_str().unwrap().to_owned();
    let s = app.storage().find_session(&id).await.unwrap().unwrap();
    for row in app.storage().session_items(&id).await.unwrap() {
        let ItemGold::TextMcq(text_mcq::Gold { correct }) =
            serde_json::from_str(&row.gold_json).unwrap()
        else {
            panic!("a demo MCQ item")
        };
        let order = memeboard_core::assign::option_order(s.seed as u64, &row.item_id, 5);
        let pos = order.iter().position(|&o| o == correct).unwrap();
        let (status, body) = app.answer(&id, &row.item_id, pos, &row.item_id).await;
        assert_eq!(status, StatusCode::CREATED, "{body}");
    }
    id
}

/// Asks every crowd-facing view once: statistics, results, board, the model's item gaps.
async fn ask_everything(app: &TestApp, session: &str, submission: &str) {
    for path in [
        format!("/api/quizzes/{TASK}/stats"),
        format!("/api/sessions/{session}/results"),
        format!("/api/boards/{TASK}"),
    ] {
        let (status, body) = app.get(&path).await;
        assert_eq!(status, StatusCode::OK, "{path}: {body}");
    }
    let path = format!("/api/submissions/{submission}/items");
    let (status, text) = send(app, Method::GET, &path, Some(ADMIN), "", "").await;
    assert_eq!(status, StatusCode::OK, "{path}: {text}");
}

async fn crowd_facing_requests_read_the_crowd_once_per_state_of_its_data(db: Db) {
    let (mut settings, dir) = test_settings(db, true).await;
    settings.quiz.min_crowd_participants = 1;
    settings.quiz.min_crowd_items = 1;
    settings.admin.token = ADMIN.into();
    let app = TestApp::with_settings(settings, dir).await;
    let session = complete_correctly(&app).await;
    complete_correctly(&app).await;
    let token = new_token(&app, "Team R").await;
    let query = "model=Zero&weights=open&parameters=7B&link=https://example.org/paper";
    let (status, body) = upload_with(&app, &token, query, &file(&app, 0).await).await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    let submission = body["submission_id"].as_str().unwrap().to_owned();
    let storage = app.storage();

    ask_everything(&app, &session, &submission).await;
    let computed = storage.crowd_reads();
    assert!(
        computed > 0,
        "the first requests compute from the crowd's answers"
    );
    for _ in 0..3 {
        ask_everything(&app, &session, &submission).await;
    }
    assert_eq!(
        storage.crowd_reads(),
        computed,
        "a crowd-facing request at an unchanged state read the crowd's answers"
    );

    // A new completion is a new state: the figures are computed again, once.
    complete_correctly(&app).await;
    ask_everything(&app, &session, &submission).await;
    let again = storage.crowd_reads();
    assert!(again > computed, "a new completion is computed");
    ask_everything(&app, &session, &submission).await;
    assert_eq!(storage.crowd_reads(), again);
}

on_both_databases!(crowd_facing_requests_read_the_crowd_once_per_state_of_its_data);
