//! AVMeme Exam's device requirements (issue 30 §5): a clip quiz's own summary names the MIME
//! types of its sound and video; a page whose browser cannot play one of them (or cannot play
//! sound at all) says so with `device=` and gets the refusal before consent, with the owner's
//! screen-out code and return link for a Prolific participant. A `device` that is neither
//! `audio` nor one of the quiz's types is a 400 naming the types.

use crate::clips::{app_with_clips, tools, ADMIN};
use crate::helpers::Db;
use crate::on_both_databases;
use crate::owners::call;
use axum::http::{Method, StatusCode};
use serde_json::{json, Value};

const QUIZ: &str = "/api/quizzes/av-clips";

fn error(body: &Value) -> &Value {
    &body["errors"][0]
}

async fn a_browser_that_cannot_play_the_clips_is_told_before_consent(db: Db) {
    if !tools() {
        return;
    }
    let (app, _media) = app_with_clips(db).await;
    let (status, quiz) = app.get(&format!("{QUIZ}?admission")).await;
    assert_eq!(status, StatusCode::OK, "{quiz}");
    let types: Vec<&str> = quiz["media_types"]
        .as_array()
        .expect("the clip quiz names its media types")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert!(
        types.contains(&"audio/ogg") && types.contains(&"audio/wav"),
        "{types:?}"
    );
    assert!(
        types
            .iter()
            .all(|t| t.starts_with("audio/") || t.starts_with("video/")),
        "{types:?}"
    );
    // Lists carry no media types (the quiz's own page checks them).
    let (_, list) = app.get("/api/quizzes").await;
    assert!(
        list.as_array()
            .unwrap()
            .iter()
            .all(|q| q.get("media_types").is_none()),
        "{list}"
    );

    // A browser that cannot play WAV, one that plays no sound: what it lacks, in words.
    let (status, body) = app.get(&format!("{QUIZ}?admission&device=audio/wav")).await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert_eq!(error(&body)["code"], "quiz.format_unplayable", "{body}");
    assert_eq!(error(&body)["params"]["format"], "audio/wav");
    let (status, body) = app.get(&format!("{QUIZ}?admission&device=audio")).await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert_eq!(error(&body)["code"], "quiz.no_sound", "{body}");
    // Not a type of this quiz: a clear 400, naming the types.
    let (status, body) = app.get(&format!("{QUIZ}?admission&device=text/html")).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    assert_eq!(error(&body)["code"], "quiz.device_param", "{body}");
    assert!(
        error(&body)["params"]["expected"]
            .as_str()
            .unwrap()
            .contains("audio/ogg"),
        "{body}"
    );
    // Without `admission` the summary is anyone's, whatever the device.
    let (status, _) = app.get(&format!("{QUIZ}?device=audio")).await;
    assert_eq!(status, StatusCode::OK);

    // With the owner's screen-out code, a Prolific participant gets it and the return link.
    let path = "/api/owner/tasks/av-clips/console";
    let (status, console) = call(&app, Method::GET, path, Some(ADMIN), None).await;
    assert_eq!(status, StatusCode::OK, "{console}");
    let mut settings = console["settings"].clone();
    settings["study"]["handoff"]["prolific_screenout_code"] = json!("DEVICE9");
    let path = "/api/owner/tasks/av-clips/settings";
    let (status, body) = call(&app, Method::PUT, path, Some(ADMIN), Some(settings)).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let (status, body) = app
        .get(&format!(
            "{QUIZ}?admission&PROLIFIC_PID=P1&device=audio/wav"
        ))
        .await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert_eq!(
        error(&body)["code"],
        "quiz.format_unplayable_handoff",
        "{body}"
    );
    assert_eq!(error(&body)["params"]["code"], "DEVICE9");
    assert_eq!(
        error(&body)["params"]["url"],
        "https://app.prolific.com/submissions/complete?cc=DEVICE9"
    );
    let (status, body) = app
        .get(&format!("{QUIZ}?admission&PROLIFIC_PID=P1&device=audio"))
        .await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert_eq!(error(&body)["code"], "quiz.no_sound_handoff", "{body}");
    // A browser that plays everything is let in.
    let (status, body) = app.get(&format!("{QUIZ}?admission&PROLIFIC_PID=P1")).await;
    assert_eq!(status, StatusCode::OK, "{body}");
}

on_both_databases!(a_browser_that_cannot_play_the_clips_is_told_before_consent);
