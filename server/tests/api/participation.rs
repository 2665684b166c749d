//! Participation integrity (issue 27): a Prolific id alone never takes over a session, ids
//! compared after normalising (and stored ids of earlier versions migrated), an id required
//! when the owner says so, the headphone check scored by the server from an answer key the
//! page never gets, and clip questions withheld from public files while the quiz is open.

use crate::clips::{app_with_clips, checked_start_body, headphone_key, start_body, tools};
use crate::helpers::{detail, test_settings, Db, TestApp};
use crate::on_both_databases;
use crate::owners::{call, finish, owner_app, set, ADMIN};
use axum::body::Body;
use axum::http::{Method, StatusCode};
use serde_json::{json, Value};
use sqlx::Connection;

const TASK: &str = "demo-mcq";
/// The admin token of [`app_with_clips`].
const CLIPS_ADMIN: &str = "admin-secret-for-tests";

fn start_with_pid(pid: &str, key: &str) -> Value {
    let mut body = crate::helpers::start_body(false);
    body["recruitment"]["prolific_pid"] = json!(pid);
    body["start_key"] = json!(key);
    body
}

/// Runs SQL on the app's database directly (as an earlier version would have written it).
async fn raw_sql(url: &str, sql: &str) {
    let mut conn = sqlx::AnyConnection::connect(url).await.unwrap();
    sqlx::raw_sql(sql).execute(&mut conn).await.unwrap();
    conn.close().await.ok();
}

async fn prolific_ids_are_compared_normalised(db: Db) {
    let app = owner_app(db).await;
    let path = format!("/api/quizzes/{TASK}/sessions");
    let (status, first) = app.post(&path, start_with_pid(" ABC\u{200b}", "k1")).await;
    assert_eq!(status, StatusCode::CREATED, "{first}");
    // Another browser with the same id in another spelling: refused, no session handed out.
    for (n, variant) in ["abc", "A B C", "\u{feff}Abc\u{2060}"].iter().enumerate() {
        let (status, body) = app
            .post(&path, start_with_pid(variant, &format!("v{n}")))
            .await;
        assert_eq!(status, StatusCode::CONFLICT, "{variant:?}: {body}");
        assert_eq!(
            body["errors"][0]["code"], "session.prolific_id_in_use",
            "{body}"
        );
        assert!(body.get("session_id").is_none(), "{body}");
    }
    // Another id is another participant.
    let (status, other) = app.post(&path, start_with_pid("abd", "k2")).await;
    assert_eq!(status, StatusCode::CREATED, "{other}");
    // Finished: every spelling of the id is refused as a repeat.
    finish(&app, &first, false, 0).await;
    let (status, body) = app.post(&path, start_with_pid("ABC", "k3")).await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert_eq!(body["errors"][0]["code"], "quiz.prolific_repeat", "{body}");
    // Stored in the canonical form (the export shows it so).
    let (status, export) = get_with_token(
        &app,
        &format!("/api/owner/tasks/{TASK}/export.jsonl"),
        Some(ADMIN),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let export = String::from_utf8(export).unwrap();
    assert!(export.contains("\"prolific_pid\":\"abc\""), "{export}");
    assert!(!export.contains("ABC") && !export.contains('\u{200b}'));
}

async fn ids_stored_by_earlier_versions_are_migrated(db: Db) {
    let (mut settings, dir) = test_settings(db, true).await;
    settings.admin.token = ADMIN.into();
    let url = settings.database_url();
    let app = TestApp::with_settings(settings, dir).await;
    let path = format!("/api/quizzes/{TASK}/sessions");
    let (status, first) = app.post(&path, start_with_pid("old", "k1")).await;
    assert_eq!(status, StatusCode::CREATED, "{first}");
    // As an earlier version stored it: raw, with case, spaces and a zero-width space.
    let id = first["session_id"].as_str().unwrap();
    raw_sql(
        &url,
        &format!("UPDATE sessions SET prolific_pid = ' X\u{200b}Y Z' WHERE id = '{id}'"),
    )
    .await;
    let (status, body) = app.post(&path, start_with_pid("xyz", "k2")).await;
    assert_eq!(status, StatusCode::CREATED, "before the migration: {body}");
    // The migration brings stored ids to the canonical form: now the id is in use.
    raw_sql(
        &url,
        include_str!("../../migrations/20261207000040_normalize_prolific_ids.sql"),
    )
    .await;
    let (status, body) = app.post(&path, start_with_pid("xyz", "k3")).await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert_eq!(
        body["errors"][0]["code"], "session.prolific_id_in_use",
        "{body}"
    );
}

async fn the_owner_can_require_a_prolific_id(db: Db) {
    let app = owner_app(db).await;
    let path = format!("/api/quizzes/{TASK}/sessions");
    let (status, body) = app.post(&path, crate::helpers::start_body(false)).await;
    assert_eq!(
        status,
        StatusCode::CREATED,
        "not required by default: {body}"
    );
    let (status, _) = set(&app, ADMIN, |s| {
        s["study"]["handoff"]["require_prolific_id"] = json!(true)
    })
    .await;
    assert_eq!(status, StatusCode::OK);
    let mut without = crate::helpers::start_body(false);
    without["recruitment"] = json!({});
    let (status, body) = app.post(&path, without).await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{body}");
    assert_eq!(
        body["errors"][0]["code"], "quiz.prolific_id_required",
        "{body}"
    );
    // Only invisible characters are no id either.
    let (status, body) = app.post(&path, start_with_pid(" \u{200b} ", "e1")).await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{body}");
    let (status, body) = app.post(&path, start_with_pid("5f3a9b", "e2")).await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
}

/// The headphone result stored with a session (what the owner's quality rules read).
async fn stored_check(app: &TestApp, session: &str) -> Value {
    let task = app.board_task("av-clips").await;
    let data = app.storage().fieldwork_data(&task.task.id).await.unwrap();
    let row = data.sessions.iter().find(|s| s.id == session).unwrap();
    serde_json::from_str(row.headphone_json.as_deref().unwrap()).unwrap()
}

async fn get_bytes(app: &TestApp, path: &str) -> (StatusCode, String, Vec<u8>) {
    let reply = app.get_reply(path).await;
    let kind = reply.header("content-type");
    (reply.status, kind, reply.bytes)
}

async fn the_server_scores_the_headphone_check(db: Db) {
    if !tools() {
        return;
    }
    let (app, _media) = app_with_clips(db).await;
    let (status, check) = app
        .post("/api/quizzes/av-clips/headphone-checks", json!({}))
        .await;
    assert_eq!(status, StatusCode::CREATED, "{check}");
    // The page gets an opaque id and the number of trials: nothing else.
    let keys: Vec<&String> = check.as_object().unwrap().keys().collect();
    assert_eq!(keys, ["id", "trials"], "{check}");
    let id = check["id"].as_str().unwrap().to_owned();
    assert_eq!(id.len(), 32);
    // Sounds: the calibration tone and six trials as WAV files, nothing beyond.
    let mut trials = Vec::new();
    for k in 0..=6 {
        let (status, kind, bytes) =
            get_bytes(&app, &format!("/api/headphone-checks/{id}/sounds/{k}")).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(kind, "audio/wav");
        assert_eq!(&bytes[..4], b"RIFF");
        trials.push(bytes);
    }
    let (status, _, _) = get_bytes(&app, &format!("/api/headphone-checks/{id}/sounds/7")).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (status, _, _) = get_bytes(&app, "/api/headphone-checks/nope/sounds/1").await;
    assert_eq!(status, StatusCode::NOT_FOUND);

    // Scored by the server against its key: all right passes.
    let key = headphone_key(&app, &id).await;
    let mut body = start_body("chinese");
    body["headphone_check"] = json!({"id": id, "answers": key});
    let (status, s) = app
        .post("/api/quizzes/av-clips/sessions", body.clone())
        .await;
    assert_eq!(status, StatusCode::CREATED, "{s}");
    assert!(!s.to_string().contains("headphone"), "{s}");
    let session = s["session_id"].as_str().unwrap().to_owned();
    assert_eq!(
        stored_check(&app, &session).await,
        json!({"trials": 6, "correct": 6, "passed": true})
    );
    // The same check with other answers: refused (a check is scored once, never probed).
    let wrong: Vec<u8> = key.iter().map(|q| (q + 1) % 3).collect();
    body["headphone_check"]["answers"] = json!(wrong);
    let (status, b) = app
        .post("/api/quizzes/av-clips/sessions", body.clone())
        .await;
    assert_eq!(status, StatusCode::CONFLICT, "{b}");
    assert_eq!(b["errors"][0]["code"], "quiz.headphone_check_answered");
    // A fresh check answered wrongly fails.
    let failing = checked_start_body(&app, "av-clips", "chinese", 2).await;
    let (status, s) = app.post("/api/quizzes/av-clips/sessions", failing).await;
    assert_eq!(status, StatusCode::CREATED, "{s}");
    assert_eq!(
        stored_check(&app, s["session_id"].as_str().unwrap()).await,
        json!({"trials": 6, "correct": 2, "passed": false})
    );
    // Unknown ids and malformed answers are refused with their reason.
    body["headphone_check"] = json!({"id": "0".repeat(32), "answers": [0, 0, 0, 0, 0, 0]});
    let (status, b) = app
        .post("/api/quizzes/av-clips/sessions", body.clone())
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{b}");
    assert_eq!(b["errors"][0]["code"], "quiz.headphone_check_unknown");
    body["headphone_check"] = json!({"id": id, "answers": [0, 1, 2]});
    let (status, b) = app
        .post("/api/quizzes/av-clips/sessions", body.clone())
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{b}");
    assert_eq!(b["errors"][0]["code"], "quiz.headphone_check_invalid");
    // The old self-scored form is refused.
    body["headphone_check"] = json!({"trials": 6, "correct": 6});
    let (status, b) = app.post("/api/quizzes/av-clips/sessions", body).await;
    assert!(status.is_client_error(), "{b}");
    // Every trial's sound differs from the others only by order: no file names the answer.
    assert!(trials[1..].iter().all(|t| t.len() == trials[1].len()));
}

async fn get_with_token(app: &TestApp, path: &str, token: Option<&str>) -> (StatusCode, Vec<u8>) {
    let reply = app
        .send_as(Method::GET, path, token, None, Body::empty())
        .await;
    (reply.status, reply.bytes)
}

async fn clip_inputs_need_a_token_while_the_quiz_is_open(db: Db) {
    if !tools() {
        return;
    }
    let (app, _media) = app_with_clips(db).await;
    let withheld = [
        "/api/tasks/av-clips/inputs.jsonl",
        "/api/tasks/av-clips/media.tar",
        "/api/tasks/av-clips/manifest",
    ];
    for path in withheld {
        let (status, body) = get_with_token(&app, path, None).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED, "{path}");
        let body: Value = serde_json::from_slice(&body).unwrap();
        assert_eq!(
            body["errors"][0]["code"], "task.inputs_need_token",
            "{body}"
        );
        assert!(
            detail(&body).contains("while its human quiz is open"),
            "{body}"
        );
        let (status, _) = get_with_token(&app, path, Some("not-a-token")).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED, "{path}");
    }
    // Other files stay public (no question in them).
    let (status, _) = get_with_token(&app, "/api/tasks/av-clips/template.jsonl", None).await;
    assert_eq!(status, StatusCode::OK);
    // An author's token gets them, and each download is logged for the owners.
    let (status, author) = app
        .post(
            "/api/authors",
            json!({"name": "Ada", "organisation": "Lab"}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{author}");
    let token = author["token"].as_str().unwrap();
    let (status, inputs) = get_with_token(&app, withheld[0], Some(token)).await;
    assert_eq!(status, StatusCode::OK);
    assert!(String::from_utf8(inputs).unwrap().contains("\"question\""));
    let (status, _) = get_with_token(&app, withheld[2], Some(token)).await;
    assert_eq!(status, StatusCode::OK);
    let (status, console) = call(
        &app,
        Method::GET,
        "/api/owner/tasks/av-clips/console",
        Some(CLIPS_ADMIN),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{console}");
    let logged: Vec<&Value> = console["actions"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|a| a["action"] == "download_inputs")
        .collect();
    assert_eq!(logged.len(), 2, "{console}");
    assert_eq!(logged[0]["actor"], "author Ada");
    assert_eq!(logged[0]["task"], "av-clips");
    assert!(logged[0]["at"].as_i64().unwrap() > 0);
    assert_eq!(logged[1]["detail"]["file"], "inputs.jsonl");
    assert!(logged[0]["detail"]["author_id"].is_string());
    // Once the quiz is closed the inputs are public again.
    let (status, body) = call(
        &app,
        Method::POST,
        "/api/admin/tasks/av-clips/board",
        Some(CLIPS_ADMIN),
        Some(json!({"quiz_open": false})),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let (status, _) = get_with_token(&app, withheld[0], None).await;
    assert_eq!(status, StatusCode::OK);
}

on_both_databases!(
    prolific_ids_are_compared_normalised,
    ids_stored_by_earlier_versions_are_migrated,
    the_owner_can_require_a_prolific_id,
    the_server_scores_the_headphone_check,
    clip_inputs_need_a_token_while_the_quiz_is_open,
);
