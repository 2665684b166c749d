//! The clip importer reads AVMeme Exam's published row shape: `solution`, `video_path`,
//! `emotion`, the paper's label spellings and abbreviations, visual hints as arrays, and the
//! hidden annotations (usage, transcript, url, onset, offset) kept in the gold — which no
//! route a participant or an author reaches ever returns. Broken published rows are refused
//! with the field as written, and nothing is stored.

use crate::clips::{
    answer, app_importing, checked_start_body, make_media, p_contains, preface, spec, text, tools,
};
use crate::draws::test_key;
use crate::helpers::{test_settings, Db, TestApp};
use crate::on_both_databases;
use axum::body::Body;
use axum::http::{Method, StatusCode};
use memeboard_core::kinds::clip_mcq::{
    Emotion, Gold, QuestionType, Sensitivity, SoundType, VisualHint,
};
use memeboard_core::kinds::{ItemGold, ItemPrompt};
use memeboard_server::import::ImportError;
use memeboard_server::import_clips::{import_clips, parse_clips};
use serde_json::{json, Value};

/// A line as the paper publishes its rows, with distinctive hidden annotations.
fn published(id: &str, file: &str) -> Value {
    json!({
        "id": id, "video_path": file, "question": format!("Which pitch? ({id})"),
        "choices": ["low", "middle", "high"], "solution": "middle", "language": "none",
        "sound_type": "Sfx", "question_type": "A", "year": 2020, "summary": "a tone",
        "emotion": "Angry/Annoyed", "sensitivity": ["race/gender/geography/identity"],
        "visual_hint": ["transcription", "title/name"], "text_cheat": 0,
        "usage": format!("USAGE-SECRET-{id}"), "transcript": format!("TRANSCRIPT-SECRET-{id}"),
        "url": format!("https://example.org/URL-SECRET-{id}"), "onset": 12.5, "offset": 14.5,
    })
}

/// Three published rows: an audio clip, a video with a title on screen (served as video) and
/// a video whose picture also gives the answer away (the strongest hint: served audio-only).
fn published_manifest() -> Vec<Value> {
    let mut lines = vec![
        published("p1", "a.ogg"),
        published("p2", "v.webm"),
        published("p3", "s.webm"),
    ];
    lines[2]["visual_hint"] = json!(["visual contains solution", "title/name", "Title/Name"]);
    lines[2]["transcript"] = json!(null);
    lines[2]["onset"] = json!(null);
    lines
}

/// The secrets of the published manifest: hidden annotations no public response may carry.
const SECRETS: &[&str] = &["USAGE-SECRET", "TRANSCRIPT-SECRET", "URL-SECRET"];

async fn app_with_published(db: Db) -> (TestApp, tempfile::TempDir) {
    let (settings, dir) = test_settings(db, false).await;
    let (app, media, n) = app_importing(settings, dir, &published_manifest()).await;
    assert_eq!(n, 3, "the published shape imports");
    (app, media)
}

/// Every item of the clip task as (question, prompt, gold), read through the storage layer.
async fn stored(app: &TestApp) -> Vec<(String, ItemPrompt, Gold)> {
    let mut items: Vec<_> = app
        .task_rows("av-clips")
        .await
        .into_iter()
        .map(|r| {
            let prompt: ItemPrompt = serde_json::from_str(&r.prompt_json).unwrap();
            let ItemGold::ClipMcq(gold) = serde_json::from_str(&r.gold_json).unwrap() else {
                panic!("a clip gold")
            };
            let ItemPrompt::ClipMcq(p) = &prompt else {
                panic!("a clip prompt")
            };
            (p.question.clone(), prompt, gold)
        })
        .collect();
    items.sort_by(|a, b| a.0.cmp(&b.0));
    items
}

async fn the_published_shape_is_imported_with_its_hidden_annotations(db: Db) {
    if !tools() {
        return;
    }
    let (app, _media) = app_with_published(db).await;
    let items = stored(&app).await;
    assert_eq!(items.len(), 3);
    let (_, ItemPrompt::ClipMcq(p1), g1) = &items[0] else {
        panic!()
    };
    assert_eq!(p1.choices[g1.correct], "middle");
    assert_eq!(p1.language, None);
    assert_eq!(p1.sound_type, SoundType::SoundEffect);
    assert_eq!(p1.question_type, QuestionType::AudioAnalysis);
    assert_eq!(p1.sensitivity, [Sensitivity::Identity]);
    assert!(!p1.text_cheat);
    assert_eq!(g1.emotions, [Emotion::AngryAnnoyed]);
    assert_eq!(g1.visual_hint, VisualHint::TitleName);
    assert_eq!(
        g1.visual_hints,
        [VisualHint::Transcription, VisualHint::TitleName]
    );
    assert_eq!(g1.usage.as_deref(), Some("USAGE-SECRET-p1"));
    assert_eq!(g1.transcript.as_deref(), Some("TRANSCRIPT-SECRET-p1"));
    assert_eq!(g1.url.as_deref(), Some("https://example.org/URL-SECRET-p1"));
    assert_eq!((g1.onset_s, g1.offset_s), (Some(12.5), Some(14.5)));
    // A title on screen: still a video. A solution on screen: the strongest hint, audio only.
    let (_, ItemPrompt::ClipMcq(p2), _) = &items[1] else {
        panic!()
    };
    assert_eq!(p2.media, memeboard_core::kinds::clip_mcq::MediaKind::Video);
    let (_, ItemPrompt::ClipMcq(p3), g3) = &items[2] else {
        panic!()
    };
    assert_eq!(p3.media, memeboard_core::kinds::clip_mcq::MediaKind::Audio);
    assert_eq!(g3.visual_hint, VisualHint::VisualContainsSolution);
    assert_eq!(
        g3.visual_hints,
        [VisualHint::TitleName, VisualHint::VisualContainsSolution]
    );
    assert_eq!((g3.transcript.as_deref(), g3.onset_s), (None, None));
    assert_eq!(g3.offset_s, Some(14.5));
}

#[test]
fn broken_published_rows_name_their_fields() {
    if !tools() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    make_media(dir.path());
    let mut lines = published_manifest();
    lines[1]["answer"] = json!("middle");
    lines[2]["onset"] = json!(20);
    let mut missing = published("p4", "missing.ogg");
    missing["visual_hint"] = json!([]);
    lines.push(missing);
    let mut sparkles = published("p5", "c.ogg");
    sparkles["visual_hint"] = json!(["no text", "Sparkles"]);
    sparkles["sound_type"] = json!("Xx");
    lines.push(sparkles);
    let Err(ImportError { problems }) =
        parse_clips(&spec(), &test_key(), "m.jsonl", &text(&lines), dir.path())
    else {
        panic!("broken published rows were accepted");
    };
    let expect = [
        "m.jsonl line 2, field `solution`: `answer` and `solution` are both given",
        "m.jsonl line 3, field `offset`: the clip ends at 14.5 s, not after its onset at 20 s, expected 0 <= onset < offset",
        "m.jsonl line 4, field `visual_hint`: expected one label or an array of one or more, found an empty array",
        "m.jsonl line 5, field `sound_type`: unknown label \"Xx\", expected one of \"speech\", \"song\", \"music\", \"sound_effect\"",
        "m.jsonl line 5, field `visual_hint`: unknown label \"Sparkles\", expected one of \"no_text\"",
    ];
    for e in expect {
        assert!(p_contains(&problems, e), "missing «{e}» in {problems:#?}");
    }
    assert_eq!(problems.len(), expect.len(), "{problems:#?}");
    // With its other fields good, a missing file is named as the line wrote it.
    let mut lines = published_manifest();
    lines[0]["video_path"] = json!("missing.ogg");
    let Err(ImportError { problems }) =
        parse_clips(&spec(), &test_key(), "m.jsonl", &text(&lines), dir.path())
    else {
        panic!("a missing clip was accepted");
    };
    assert_eq!(problems.len(), 1, "{problems:#?}");
    assert!(
        problems[0]
            .starts_with("m.jsonl line 1, field `video_path`: \"missing.ogg\" does not exist"),
        "{problems:#?}"
    );
}

async fn nothing_is_stored_when_a_published_row_has_a_problem(db: Db) {
    if !tools() {
        return;
    }
    let (settings, dir) = test_settings(db, false).await;
    let app = TestApp::with_settings(settings, dir).await;
    let media = tempfile::tempdir().unwrap();
    make_media(media.path());
    let mut lines = published_manifest();
    lines[1]["onset"] = json!(30);
    lines[1]["offset"] = json!(3);
    let err = import_clips(
        app.storage(),
        &spec(),
        "m.jsonl",
        &text(&lines),
        media.path(),
    )
    .await
    .expect_err("a row with a problem");
    assert!(
        err.to_string().contains("m.jsonl line 2, field `offset`"),
        "{err:#}"
    );
    assert_eq!(app.count("items").await, 0);
    assert_eq!(app.count("media").await, 0);
    assert!(app
        .storage()
        .find_board_task("av-clips")
        .await
        .unwrap()
        .is_none());
}

/// A GET (or POST with `body`) as text, with an optional bearer token.
async fn fetch(
    app: &TestApp,
    path: &str,
    token: Option<&str>,
    body: Option<&str>,
) -> (StatusCode, String) {
    let method = if body.is_some() {
        Method::POST
    } else {
        Method::GET
    };
    let body = body.map_or_else(Body::empty, |b| Body::from(b.to_owned()));
    let reply = app.send_as(method, path, token, None, body).await;
    (reply.status, reply.lossy_text())
}

/// A quiz taken to the end (familiarity, answers, results), a model file uploaded, then every
/// GET route of the OpenAPI document for the task, the session and the submission, with and
/// without the author's token: none carries usage, transcript or source address.
async fn no_route_returns_the_hidden_annotations(db: Db) {
    if !tools() {
        return;
    }
    let (app, _media) = app_with_published(db).await;
    let mut bodies: Vec<(String, String)> = Vec::new();
    let (status, s) = app
        .post(
            "/api/quizzes/av-clips/sessions",
            checked_start_body(&app, "av-clips", "other", 6).await,
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{s}");
    bodies.push(("start".into(), s.to_string()));
    let session = s["session_id"].as_str().unwrap().to_owned();
    let items = s["items"].as_array().unwrap();
    assert_eq!(items.len(), 3, "{s}");
    for (k, item) in items.iter().enumerate() {
        let id = item["item_id"].as_str().unwrap();
        let (_, p) = preface(&app, &session, id, "familiar").await;
        bodies.push(("preface".into(), p.to_string()));
        let (status, a) = answer(&app, &session, id, 0, &format!("k{k}")).await;
        assert!(status.is_success(), "{a}");
        bodies.push(("answer".into(), a.to_string()));
    }
    let (_, author) = app
        .post(
            "/api/authors",
            json!({"name": "Ann", "organisation": "Lab"}),
        )
        .await;
    let token = author["token"].as_str().unwrap().to_owned();
    let (status, inputs) =
        fetch(&app, "/api/tasks/av-clips/inputs.jsonl", Some(&token), None).await;
    assert_eq!(status, StatusCode::OK, "{inputs}");
    let file: String = inputs
        .lines()
        .map(|l| {
            let v: Value = serde_json::from_str(l).unwrap();
            json!({"item_id": v["item_id"], "answer": "A"}).to_string() + "\n"
        })
        .collect();
    let (status, sub) = fetch(
        &app,
        "/api/tasks/av-clips/submissions?model=Listener",
        Some(&token),
        Some(&file),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{sub}");
    let sub: Value = serde_json::from_str(&sub).unwrap();
    let submission = sub["submission_id"].as_str().unwrap().to_owned();
    bodies.push(("upload".into(), sub.to_string()));

    let (_, openapi) = app.get("/api/openapi.json").await;
    let mut paths = Vec::new();
    for (path, ops) in openapi["paths"].as_object().unwrap() {
        if ops.get("get").is_none() || path.contains("/owner/") || path.contains("{trial}") {
            continue;
        }
        let path = path.replace("{file}", "browser.json").replace(
            "{slug}",
            if path.starts_with("/api/benchmarks/") {
                "av"
            } else {
                "av-clips"
            },
        );
        if path.contains("{id}") {
            paths.push(path.replace("{id}", &session));
            paths.push(path.replace("{id}", &submission));
        } else {
            paths.push(path);
        }
    }
    for must in [
        "/manifest",
        "/inputs.jsonl",
        "/media.tar",
        "/results",
        "/api/boards/av-clips",
    ] {
        assert!(
            paths.iter().any(|p| p.contains(must)),
            "{must} not fetched: {paths:?}"
        );
    }
    for path in &paths {
        for t in [None, Some(token.as_str())] {
            let (_, body) = fetch(&app, path, t, None).await;
            bodies.push((format!("GET {path}"), body));
        }
    }
    // The author's manifest and inputs really were read (the quiz is open: token needed).
    assert!(bodies
        .iter()
        .any(|(w, b)| w.ends_with("/manifest") && b.contains("\"middle\"")));
    assert!(bodies
        .iter()
        .any(|(w, b)| w.ends_with("/inputs.jsonl") && b.contains("Which pitch?")));
    for (what, body) in &bodies {
        for secret in SECRETS {
            assert!(!body.contains(secret), "{what} returns «{secret}»: {body}");
        }
    }
}

on_both_databases!(
    the_published_shape_is_imported_with_its_hidden_annotations,
    nothing_is_stored_when_a_published_row_has_a_problem,
    no_route_returns_the_hidden_annotations,
);
