//! Refusals before consent (issue 32 §1): `GET /api/quizzes/{slug}?admission&…` answers the
//! refusal a start by this visitor would get — a full study (with the owner's screen-out code
//! for a Prolific participant), a required Prolific id, a Prolific id that took part already —
//! so that the quiz page says it before consent; a Prolific participant with an unfinished
//! session resumes even a full study, and without `admission` the summary is anyone's.

use crate::helpers::{start_body, Db};
use crate::on_both_databases;
use crate::owners::{finish, owner_app, set, ADMIN};
use axum::http::StatusCode;
use serde_json::json;

const QUIZ: &str = "/api/quizzes/demo-mcq";

fn start_with_pid(pid: &str, key: &str) -> serde_json::Value {
    let mut body = start_body(false);
    body["recruitment"]["prolific_pid"] = json!(pid);
    body["start_key"] = json!(key);
    body
}

async fn a_full_study_is_refused_before_consent(db: Db) {
    let app = owner_app(db).await;
    let (status, _) = set(&app, ADMIN, |s| {
        s["batch_size"] = json!(3);
        s["study"]["participant_target"] = json!(1);
        s["study"]["handoff"]["prolific_screenout_code"] = json!("SCREEN9");
    })
    .await;
    assert_eq!(status, StatusCode::OK);
    let (status, body) = app.get(&format!("{QUIZ}?admission")).await;
    assert_eq!(status, StatusCode::OK, "open before the target: {body}");
    assert_eq!(body["slug"], "demo-mcq");

    // PID-1 finishes (the target is reached); PID-2 has started and not finished.
    let sessions = format!("{QUIZ}/sessions");
    let (status, first) = app.post(&sessions, start_with_pid("PID1", "k1")).await;
    assert_eq!(status, StatusCode::CREATED, "{first}");
    let (status, second) = app.post(&sessions, start_with_pid("PID2", "k2")).await;
    assert_eq!(status, StatusCode::CREATED, "{second}");
    finish(&app, &first, false, 0).await;

    // Anyone new: the start's own refusal, before consent.
    let (status, body) = app.get(&format!("{QUIZ}?admission")).await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert_eq!(body["errors"][0]["code"], "quiz.target_reached", "{body}");
    // A new Prolific participant: with the owner's screen-out code and return link.
    let (status, body) = app
        .get(&format!("{QUIZ}?STUDY_ID=S1&admission&PROLIFIC_PID=PID3"))
        .await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    let error = &body["errors"][0];
    assert_eq!(error["code"], "quiz.target_reached_handoff", "{body}");
    assert_eq!(error["params"]["code"], "SCREEN9");
    assert_eq!(
        error["params"]["url"],
        "https://app.prolific.com/submissions/complete?cc=SCREEN9"
    );
    // The participant who finished is told so, not that the study is full.
    let (status, body) = app
        .get(&format!("{QUIZ}?admission&PROLIFIC_PID=pid1"))
        .await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert_eq!(body["errors"][0]["code"], "quiz.prolific_repeat", "{body}");
    // The one who has not finished may go on (their browser resumes the session).
    let (status, body) = app
        .get(&format!("{QUIZ}?admission&PROLIFIC_PID=PID2"))
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    // Without `admission`, the summary is everyone's (and says the quiz is full).
    let (status, body) = app.get(QUIZ).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["full"], true);
    // What the early check says is what the start says.
    let (status, body) = app.post(&sessions, start_with_pid("PID3", "k3")).await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert_eq!(body["errors"][0]["code"], "quiz.target_reached", "{body}");
}

async fn a_required_prolific_id_is_asked_for_before_consent(db: Db) {
    let app = owner_app(db).await;
    let (status, _) = set(&app, ADMIN, |s| {
        s["study"]["handoff"]["require_prolific_id"] = json!(true);
        s["study"]["handoff"]["allow_repeat_participation"] = json!(true);
    })
    .await;
    assert_eq!(status, StatusCode::OK);
    for query in ["?admission", "?admission&PROLIFIC_PID=%E2%80%8B"] {
        let (status, body) = app.get(&format!("{QUIZ}{query}")).await;
        assert_eq!(status, StatusCode::FORBIDDEN, "{query}: {body}");
        assert_eq!(body["errors"][0]["code"], "quiz.prolific_id_required");
    }
    // With repeats allowed, a Prolific id that finished may come back.
    let sessions = format!("{QUIZ}/sessions");
    let (status, first) = app.post(&sessions, start_with_pid("PID1", "k1")).await;
    assert_eq!(status, StatusCode::CREATED, "{first}");
    finish(&app, &first, false, 0).await;
    let (status, body) = app
        .get(&format!("{QUIZ}?admission&PROLIFIC_PID=PID1"))
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
}

on_both_databases!(
    a_full_study_is_refused_before_consent,
    a_required_prolific_id_is_asked_for_before_consent,
);
