//! The audio-visual demo is large enough to show every figure under the default settings: a
//! model's row shows every question type's column on the public board, in the upload's reply
//! and on the revealed private board (issue 32 §7). Needs the media tools (skipped without
//! them unless `MEMEBOARD_REQUIRE_MEDIA_TOOLS=1`).

use crate::architecture::workspace;
use crate::demo_content::{assert_columns_shown, file_for_inputs, model_row};
use crate::helpers::{test_settings, Db, TestApp};
use crate::leaderboard::{new_token, reveal, send, ADMIN};
use crate::on_both_databases;
use axum::http::{Method, StatusCode};
use memeboard_server::demo::clips::{generate, tools_missing, DEMO_CLIPS_MANIFEST, QUESTION_TYPES};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};

/// The clip demo's quiz and board task.
const TASK: &str = "demo-clips";

/// Whether the media tools are there; a failure without them when they are required.
fn media_tools() -> bool {
    let missing = tools_missing();
    if !missing.is_empty() {
        assert!(
            std::env::var("MEMEBOARD_REQUIRE_MEDIA_TOOLS").map_or(true, |v| v != "1"),
            "MEMEBOARD_REQUIRE_MEDIA_TOOLS=1 but {missing:?} are missing (scripts/setup.sh)"
        );
        eprintln!("skipping the clip demo board test: {missing:?} not on PATH");
    }
    missing.is_empty()
}

/// The demo clips, made once (seconds of espeak-ng, sox and ffmpeg) into the target folder
/// under a name keyed by the text of the manifest and the recipes, so that a change to either
/// makes them again. Made in a fresh folder and renamed into place, so that tests running at
/// the same time never see half a set.
pub(crate) fn made_demo_clips() -> PathBuf {
    let mut key = DEMO_CLIPS_MANIFEST.to_owned();
    for file in [
        "server/demo/clips/recipes.txt",
        "server/src/demo/clips.rs",
        "server/src/demo/clips/recipes.rs",
        "server/src/demo/clips/recipes/data.rs",
    ] {
        key.push_str(&std::fs::read_to_string(workspace().join(file)).unwrap());
    }
    let tmp = Path::new(env!("CARGO_TARGET_TMPDIR"));
    let hash = memeboard_core::ids::fnv1a64(key.as_bytes());
    let dir = tmp.join(format!("demo-clips-{hash:016x}"));
    if !dir.is_dir() {
        let fresh = tempfile::tempdir_in(tmp).unwrap();
        generate(fresh.path()).unwrap();
        let fresh = fresh.keep();
        if std::fs::rename(&fresh, &dir).is_err() {
            // Another test got there first.
            std::fs::remove_dir_all(&fresh).unwrap();
        }
    }
    dir
}

/// An app with every demo, the clip demo's files copied in from [`made_demo_clips`] (the
/// loader keeps files that are already there).
async fn app_with_clip_demo(db: Db) -> TestApp {
    let (mut settings, dir) = test_settings(db, true).await;
    settings.data.load_clip_demo = true;
    settings.leaderboard.daily_quota = 5;
    settings.admin.token = ADMIN.into();
    let clips = dir.path().join("demo-clips");
    std::fs::create_dir_all(&clips).unwrap();
    for entry in std::fs::read_dir(made_demo_clips()).unwrap() {
        let entry = entry.unwrap();
        std::fs::copy(entry.path(), clips.join(entry.file_name())).unwrap();
    }
    TestApp::with_settings(settings, dir).await
}

/// Every category entry of a board row carries a figure: overall and the seven types.
fn assert_categories_shown(scores: &Value, what: &str) {
    assert_columns_shown(scores, what, 1 + QUESTION_TYPES.len());
}

/// A model file answering every clip of the task's inputs with letter `A`.
async fn letter_a_file(app: &TestApp, token: &str) -> String {
    file_for_inputs(
        app,
        TASK,
        Some(token),
        |v| json!({"item_id": v["item_id"], "answer": "A"}),
    )
    .await
}

async fn the_clip_demo_board_shows_every_question_type_under_the_defaults(db: Db) {
    if !media_tools() {
        return;
    }
    let app = app_with_clip_demo(db).await;
    let token = new_token(&app, "Team Listen").await;
    let file = letter_a_file(&app, &token).await;
    let (status, text) = send(
        &app,
        Method::POST,
        &format!("/api/tasks/{TASK}/submissions?model=Omni-7B&weights=open&parameters=7B"),
        Some(&token),
        &file,
        "application/x-ndjson",
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{text}");
    let up: Value = serde_json::from_str(&text).unwrap();
    assert_categories_shown(&up["public_scores"], "upload response");
    let (_, board) = app.get(&format!("/api/boards/{TASK}")).await;
    assert_categories_shown(&model_row(&board, "Omni-7B")["scores"], "public board");
    reveal(&app, TASK).await;
    let (status, private) = app.get(&format!("/api/boards/{TASK}?split=private")).await;
    assert_eq!(status, StatusCode::OK, "{private}");
    assert_categories_shown(&model_row(&private, "Omni-7B")["scores"], "private board");
}

on_both_databases!(the_clip_demo_board_shows_every_question_type_under_the_defaults);
