//! Audio-visual clips end to end through the API: the clip importer (good and broken
//! manifests, nothing stored on error, audio-only clips without a video track), the protocol
//! (headphone check on start, familiarity before the question enforced by the server,
//! native-language assignment), media with range requests, and boards with subsets and human
//! rows by familiarity. The clips are made here with ffmpeg: without ffmpeg the tests skip,
//! unless `MEMEBOARD_REQUIRE_MEDIA_TOOLS=1` (the test command sets it).

use crate::draws::test_key;
use crate::helpers::{detail, test_settings, Db, Reply, TestApp};
use crate::on_both_databases;
use axum::body::Body;
use axum::http::{Method, StatusCode};
use memeboard_core::kinds::clip_mcq;
use memeboard_core::tasks::ItemGold;
use memeboard_server::import::ImportError;
use memeboard_server::import_clips::{import_clips, parse_clips, probe, ClipsSpec};
use serde_json::{json, Value};
use std::collections::HashMap;
use std::path::Path;
use std::process::Command;

pub(crate) const ADMIN: &str = "admin-secret-for-tests";

/// Whether ffmpeg is here; panics when it is required but missing.
pub(crate) fn tools() -> bool {
    let ok = Command::new("ffmpeg")
        .arg("-version")
        .output()
        .is_ok_and(|o| o.status.success())
        && Command::new("ffprobe")
            .arg("-version")
            .output()
            .is_ok_and(|o| o.status.success());
    if !ok {
        assert!(
            std::env::var("MEMEBOARD_REQUIRE_MEDIA_TOOLS").map_or(true, |v| v != "1"),
            "MEMEBOARD_REQUIRE_MEDIA_TOOLS=1 but ffmpeg/ffprobe are missing (scripts/setup.sh installs them)"
        );
        eprintln!("skipped: ffmpeg/ffprobe not installed");
    }
    ok
}

fn ffmpeg(args: &[&str]) {
    let out = Command::new("ffmpeg")
        .args(["-v", "error", "-y"])
        .args(args)
        .output()
        .expect("ffmpeg runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Test clips: tones of different pitch (audio), two videos with sound, and broken files.
pub(crate) fn make_media(dir: &Path) {
    for (name, freq, secs) in [
        ("a.ogg", 440, 2),
        ("b.wav", 550, 2),
        ("c.ogg", 660, 3),
        ("d.ogg", 770, 2),
        ("long.ogg", 300, 35),
    ] {
        let src = format!("sine=frequency={freq}:duration={secs}");
        let path = dir.join(name);
        let path = path.to_str().unwrap();
        if name.ends_with(".wav") {
            ffmpeg(&["-f", "lavfi", "-i", &src, path]);
        } else {
            ffmpeg(&["-f", "lavfi", "-i", &src, "-c:a", "libopus", path]);
        }
    }
    for (name, pattern) in [("v.webm", "testsrc2"), ("s.webm", "smptebars")] {
        let path = dir.join(name);
        ffmpeg(&[
            "-f",
            "lavfi",
            "-i",
            &format!("{pattern}=size=160x120:rate=10:duration=2"),
            "-f",
            "lavfi",
            "-i",
            "sine=frequency=500:duration=2",
            "-c:v",
            "libvpx",
            "-b:v",
            "100k",
            "-c:a",
            "libopus",
            "-shortest",
            path.to_str().unwrap(),
        ]);
    }
    let mute = dir.join("mute.webm");
    ffmpeg(&[
        "-f",
        "lavfi",
        "-i",
        "testsrc2=size=160x120:rate=10:duration=2",
        "-c:v",
        "libvpx",
        mute.to_str().unwrap(),
    ]);
    std::fs::write(dir.join("broken.ogg"), b"OggS but not really").unwrap();
}

/// A manifest line.
fn clip(
    id: &str,
    file: &str,
    language: Option<&str>,
    question_type: &str,
    text_cheat: bool,
) -> Value {
    json!({
        "id": id, "file": file, "question": format!("Which pitch? ({id})"),
        "choices": ["low", "middle", "high"], "answer": "middle", "language": language,
        "sound_type": "sound_effect", "question_type": question_type, "year": 2020,
        "summary": "a tone", "emotions": ["neutral"], "sensitivity": [],
        "visual_hint": "no_text", "text_cheat": text_cheat,
    })
}

/// Six clips: zh, en, two without language, a video, and a video whose picture gives the
/// answer away (served audio-only); two are answerable from text alone.
fn good_manifest() -> Vec<Value> {
    let mut lines = vec![
        clip("k1", "a.ogg", Some("zh"), "audio_analysis", false),
        clip("k2", "b.wav", Some("en"), "language_analysis", false),
        clip("k3", "c.ogg", None, "emotion", true),
        clip("k4", "d.ogg", None, "world_knowledge", false),
        clip("k5", "v.webm", None, "humor_popularity", true),
        clip("k6", "s.webm", Some("zh"), "contextual_inference", false),
    ];
    lines[5]["visual_hint"] = json!("visual_contains_solution");
    lines[3]["sensitivity"] = json!(["violence_gore"]);
    lines
}

pub(crate) fn spec() -> ClipsSpec {
    ClipsSpec {
        slug: "av".into(),
        task_slug: "av-clips".into(),
        title: "Test clips".into(),
        description: "test".into(),
        batch_size: 10,
        dev_percent: 50,
        quiz_open: true,
    }
}

pub(crate) fn text(lines: &[Value]) -> String {
    lines.iter().map(|l| l.to_string() + "\n").collect()
}

#[test]
fn broken_clip_manifests_report_every_problem() {
    if !tools() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    make_media(dir.path());
    let mut lines = good_manifest();
    lines[0]["file"] = json!("missing.ogg");
    lines[1]["file"] = json!("broken.ogg");
    lines[2]["file"] = json!("long.ogg");
    lines[3]["answer"] = json!("loud");
    lines[4]["sound_type"] = json!("noise");
    lines[5]["id"] = json!("k1");
    let mut mute = clip("k7", "mute.webm", None, "emotion", false);
    mute["visual_hint"] = json!("sparkles");
    lines.push(mute);
    lines.push(clip("k8", "mute.webm", None, "emotion", false));
    lines.push(clip("k9", "notes.txt", None, "emotion", false));
    let Err(ImportError { problems }) =
        parse_clips(&spec(), &test_key(), "m.jsonl", &text(&lines), dir.path())
    else {
        panic!("a broken manifest was accepted");
    };
    let expect = [
        "m.jsonl line 4, field `answer`: \"loud\" is not among the choices (\"low\", \"middle\", \"high\")",
        "m.jsonl line 5, field `sound_type`: unknown label \"noise\", expected one of \"speech\", \"song\", \"music\", \"sound_effect\"",
        "m.jsonl line 6, field `id`: duplicate id \"k1\" (first on line 1)",
        "m.jsonl line 7, field `visual_hint`: unknown label \"sparkles\"",
        "m.jsonl line 9, field `file`: \"notes.txt\" has an unsupported type .txt",
        "m.jsonl line 1, field `file`: \"missing.ogg\" does not exist",
        "m.jsonl line 2, field `file`: \"broken.ogg\": not decodable media",
        "m.jsonl line 3, field `file`: \"long.ogg\" lasts 35.0 s, expected 1 to 30 s",
        "m.jsonl line 8, field `file`: \"mute.webm\" has no sound track, expected audio",
    ];
    for e in expect {
        assert!(p_contains(&problems, e), "missing «{e}» in {problems:#?}");
    }
    assert_eq!(problems.len(), expect.len(), "{problems:#?}");
}

pub(crate) fn p_contains(problems: &[String], e: &str) -> bool {
    problems.iter().any(|p| p.starts_with(e))
}

pub(crate) async fn app_with_clips(db: Db) -> (TestApp, tempfile::TempDir) {
    let (mut settings, dir) = test_settings(db, false).await;
    settings.admin.token = ADMIN.into();
    settings.leaderboard.min_category_items = 1;
    // A six-clip benchmark answered by two people: the crowd figures count everyone at once,
    // exact (their published bounds are tested in `disclosure`).
    crate::export::exact_crowd(&mut settings);
    let (app, media, n) = app_importing(settings, dir, &good_manifest()).await;
    assert_eq!(n, 6);
    (app, media)
}

/// An app with `settings` and the clip manifest `lines` imported (the test media made):
/// the app, the media folder and the clips imported.
pub(crate) async fn app_importing(
    settings: memeboard_server::config::Settings,
    dir: tempfile::TempDir,
    lines: &[Value],
) -> (TestApp, tempfile::TempDir, usize) {
    let app = TestApp::with_settings(settings, dir).await;
    let media = tempfile::tempdir().unwrap();
    make_media(media.path());
    let n = import_clips(
        app.storage(),
        &spec(),
        "m.jsonl",
        &text(lines),
        media.path(),
    )
    .await
    .expect("import");
    (app, media, n)
}

pub(crate) fn start_body(native: &str) -> Value {
    json!({
        "consent": true,
        "survey": {"age_range": "25-34", "native_language": native, "online_time": "three_to_six_hours", "meme_familiarity": 3, "skip_flagged": false},
    })
}

/// The answer key of headphone check `id` (the quiet tone's position per trial), read through
/// the debug-build route the browser tests use; a release build has no such route.
pub(crate) async fn headphone_key(app: &TestApp, id: &str) -> Vec<u8> {
    let (status, key) = app.get(&format!("/api/headphone-checks/{id}/key")).await;
    assert_eq!(status, StatusCode::OK, "{key}");
    key.as_array()
        .unwrap()
        .iter()
        .map(|q| q.as_u64().unwrap() as u8)
        .collect()
}

/// A start body with a headphone check drawn for quiz `slug` and answered with the first
/// `correct` of its six trials right (the server scores it).
pub(crate) async fn checked_start_body(
    app: &TestApp,
    slug: &str,
    native: &str,
    correct: u8,
) -> Value {
    let (status, check) = app
        .post(&format!("/api/quizzes/{slug}/headphone-checks"), json!({}))
        .await;
    assert_eq!(status, StatusCode::CREATED, "{check}");
    let id = check["id"].as_str().unwrap().to_owned();
    let answers: Vec<u8> = headphone_key(app, &id)
        .await
        .into_iter()
        .enumerate()
        .map(|(k, q)| {
            if k < usize::from(correct) {
                q
            } else {
                (q + 1) % 3
            }
        })
        .collect();
    let mut body = start_body(native);
    body["headphone_check"] = json!({"id": id, "answers": answers});
    body
}

pub(crate) async fn preface(
    app: &TestApp,
    session: &str,
    item: &str,
    familiarity: &str,
) -> (StatusCode, Value) {
    app.post(
        &format!("/api/sessions/{session}/prefaces"),
        json!({"item_id": item, "familiarity": familiarity}),
    )
    .await
}

pub(crate) async fn answer(
    app: &TestApp,
    session: &str,
    item: &str,
    position: usize,
    key: &str,
) -> (StatusCode, Value) {
    app.post(
        &format!("/api/sessions/{session}/answers"),
        json!({"item_id": item, "idempotency_key": key, "answer": {"kind": "clip_choice", "position": position, "plays": 2}, "response_ms": 800}),
    )
    .await
}

async fn the_question_comes_only_after_the_familiarity_answer(db: Db) {
    if !tools() {
        return;
    }
    let (app, _media) = app_with_clips(db).await;
    // The headphone check is required to start.
    let (status, body) = app
        .post("/api/quizzes/av-clips/sessions", start_body("chinese"))
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    assert!(detail(&body).contains("headphone_check"), "{body}");
    let (status, s) = app
        .post(
            "/api/quizzes/av-clips/sessions",
            checked_start_body(&app, "av-clips", "chinese", 6).await,
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{s}");
    let id = s["session_id"].as_str().unwrap();
    let items = s["items"].as_array().unwrap();
    for item in items {
        let v = &item["prompt"];
        assert_eq!(v["kind"], "clip_mcq");
        assert!(
            v["question"].is_null() && v["options"].as_array().unwrap().is_empty(),
            "{item}"
        );
        assert!(item.get("preface").is_none());
    }
    let item = items[0]["item_id"].as_str().unwrap();
    // Answering first is refused, nothing recorded.
    let (status, body) = answer(&app, id, item, 0, "k0").await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert!(
        detail(&body).contains("familiarity question first"),
        "{body}"
    );
    assert_eq!(app.count("answers").await, 0);
    // Refetching the session does not reveal it either.
    let (_, again) = app.get(&format!("/api/sessions/{id}")).await;
    assert!(again["items"][0]["prompt"]["question"].is_null());
    // The preface releases the question (shuffled options).
    let (status, body) = preface(&app, id, item, "seen_not_familiar").await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    assert_eq!(body["item"]["preface"], "seen_not_familiar");
    assert!(body["item"]["prompt"]["question"].is_string(), "{body}");
    assert_eq!(
        body["item"]["prompt"]["options"].as_array().unwrap().len(),
        3
    );
    // Exactly once: the same answer again is a replay, another is refused.
    let (status, body) = preface(&app, id, item, "seen_not_familiar").await;
    assert_eq!(
        (status, body["replayed"].as_bool()),
        (StatusCode::OK, Some(true))
    );
    let (status, _) = preface(&app, id, item, "familiar").await;
    assert_eq!(status, StatusCode::CONFLICT);
    let (_, resumed) = app.get(&format!("/api/sessions/{id}")).await;
    assert_eq!(resumed["items"][0]["preface"], "seen_not_familiar");
    assert!(resumed["items"][0]["prompt"]["question"].is_string());
    let (status, body) = answer(&app, id, item, 1, "k1").await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    assert!(!body.to_string().contains("correct\":"), "{body}");
}

async fn assignment_follows_the_native_language(db: Db) {
    if !tools() {
        return;
    }
    let (app, _media) = app_with_clips(db).await;
    let languages = |s: &Value| -> Vec<String> {
        s["items"]
            .as_array()
            .unwrap()
            .iter()
            .map(|i| i["item_id"].as_str().unwrap().to_owned())
            .collect()
    };
    let lang_of = clip_languages(&app, "av-clips").await;
    for (native, allowed) in [
        ("chinese", Some("zh")),
        ("english", Some("en")),
        ("other", None),
    ] {
        let (status, s) = app
            .post(
                "/api/quizzes/av-clips/sessions",
                checked_start_body(&app, "av-clips", native, 3).await,
            )
            .await;
        assert_eq!(status, StatusCode::CREATED, "{s}");
        let got = languages(&s);
        assert!(!got.is_empty());
        for id in &got {
            let lang = lang_of[id].as_deref();
            assert!(
                lang.is_none() || lang == allowed,
                "{native} got a {lang:?} clip"
            );
        }
        // Every eligible clip is assigned (batch 10 > 6 clips).
        let eligible = lang_of
            .values()
            .filter(|l| l.is_none() || l.as_deref() == allowed)
            .count();
        assert_eq!(got.len(), eligible, "{native}");
    }
}

/// Each clip's language (`None`: a clip without speech), by item id, as stored.
async fn clip_languages(app: &TestApp, slug: &str) -> HashMap<String, Option<String>> {
    app.task_rows(slug)
        .await
        .into_iter()
        .map(|r| {
            let memeboard_core::kinds::ItemPrompt::ClipMcq(p) =
                serde_json::from_str(&r.prompt_json).unwrap()
            else {
                panic!()
            };
            (r.id, p.language)
        })
        .collect()
}

/// The task's `inputs.jsonl` as an author gets it (while the quiz is open the clip task's
/// inputs need a token).
async fn author_inputs(app: &TestApp, token: &str) -> String {
    let reply = app
        .send_as(
            Method::GET,
            "/api/tasks/av-clips/inputs.jsonl",
            Some(token),
            None,
            Body::empty(),
        )
        .await;
    assert_eq!(reply.status, StatusCode::OK);
    reply.text()
}

async fn clips_are_served_with_ranges_and_audio_only_where_the_picture_gives_it_away(db: Db) {
    if !tools() {
        return;
    }
    let (app, _media) = app_with_clips(db).await;
    let (_, author) = app
        .post(
            "/api/authors",
            json!({"name": "Ann", "organisation": "Lab"}),
        )
        .await;
    let inputs = author_inputs(&app, author["token"].as_str().unwrap()).await;
    let lines: Vec<Value> = inputs
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 6);
    let dir = tempfile::tempdir().unwrap();
    let mut media_kinds = Vec::new();
    for l in &lines {
        assert_eq!(l["choices"][0]["letter"], "A");
        assert!(l["subsets"].as_array().unwrap().contains(&json!("full")));
        let url = l["clip"]["url"].as_str().unwrap();
        let Reply {
            status,
            headers,
            bytes,
        } = app.get_range(url, None).await;
        assert_eq!(status, StatusCode::OK);
        let ct = headers["content-type"].to_str().unwrap().to_owned();
        assert!(ct.starts_with("audio/") || ct.starts_with("video/"), "{ct}");
        let file = dir.path().join(url.rsplit('/').next().unwrap());
        std::fs::write(&file, &bytes).unwrap();
        let probed = probe(&file).unwrap();
        assert_eq!(probed.video, l["clip"]["media"] == "video", "{l}");
        media_kinds.push((l["question"].as_str().unwrap().to_owned(), probed.video));
        // Seeking works: byte ranges.
        let Reply {
            status,
            headers,
            bytes: part,
        } = app.get_range(url, Some("bytes=10-19")).await;
        assert_eq!(status, StatusCode::PARTIAL_CONTENT);
        assert_eq!(part, &bytes[10..20]);
        assert!(headers["content-range"]
            .to_str()
            .unwrap()
            .starts_with("bytes 10-19/"));
    }
    // k5 is a video; k6 was a video whose picture gives the answer away: sound only.
    let video = |id: &str| media_kinds.iter().find(|(q, _)| q.contains(id)).unwrap().1;
    assert!(video("(k5)"));
    assert!(!video("(k6)"));
    // No gold in the inputs; no directory listing.
    assert!(
        !inputs.contains("\"answer\"")
            && !inputs.contains("summary")
            && !inputs.contains("emotions")
    );
    let status = app.get_range("/media/", None).await.status;
    assert_ne!(status, StatusCode::OK);
}

async fn boards_switch_subsets_and_show_humans_by_familiarity(db: Db) {
    if !tools() {
        return;
    }
    let (app, _media) = app_with_clips(db).await;
    // Two people: one who passed the headphone check, one who did not.
    let gold: HashMap<String, usize> = app
        .task_rows("av-clips")
        .await
        .into_iter()
        .map(|r| {
            let ItemGold::ClipMcq(clip_mcq::Gold { correct, .. }) =
                serde_json::from_str(&r.gold_json).unwrap()
            else {
                panic!()
            };
            (r.id, correct)
        })
        .collect();
    for (n, (check, familiarity)) in [((6, 6), "familiar"), ((6, 2), "unseen")]
        .into_iter()
        .enumerate()
    {
        let (_, s) = app
            .post(
                "/api/quizzes/av-clips/sessions",
                checked_start_body(&app, "av-clips", "chinese", check.1).await,
            )
            .await;
        let id = s["session_id"].as_str().unwrap();
        for (k, item) in s["items"].as_array().unwrap().iter().enumerate() {
            let item_id = item["item_id"].as_str().unwrap();
            let (_, p) = preface(&app, id, item_id, familiarity).await;
            // Find the right display position from the shown options.
            let options: Vec<String> = p["item"]["prompt"]["options"]
                .as_array()
                .unwrap()
                .iter()
                .map(|o| o.as_str().unwrap().to_owned())
                .collect();
            let _ = &gold[item_id];
            let position = options.iter().position(|o| o == "middle").unwrap();
            let (status, body) = answer(&app, id, item_id, position, &format!("p{n}k{k}")).await;
            assert!(status.is_success(), "{body}");
        }
    }
    let (status, board) = app.get("/api/boards/av-clips").await;
    assert_eq!(status, StatusCode::OK, "{board}");
    assert_eq!(board["subsets"], json!(["full", "main"]));
    assert_eq!(board["subset"], "full");
    if board["items"].as_u64().unwrap() > 0 {
        let fam = board["familiarity"].as_array().unwrap();
        assert_eq!(fam.len(), 3, "{board}");
        assert_eq!(fam[0]["familiarity"], "familiar");
        assert!(fam[0]["participants"].as_u64().unwrap() <= 1);
    }
    let (status, main) = app.get("/api/boards/av-clips?subset=main").await;
    assert_eq!(status, StatusCode::OK, "{main}");
    assert_eq!(main["subset"], "main");
    assert!(main["items"].as_u64() <= board["items"].as_u64());
    let (status, body) = app.get("/api/boards/av-clips?subset=tiny").await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(detail(&body).contains("expected full or main"), "{body}");

    // A model file with letters: scored, with main-subset summaries.
    let (_, token) = app
        .post(
            "/api/authors",
            json!({"name": "Ann", "organisation": "Lab"}),
        )
        .await;
    let token = token["token"].as_str().unwrap();
    let file: String = author_inputs(&app, token)
        .await
        .lines()
        .map(|l| {
            let v: Value = serde_json::from_str(l).unwrap();
            let letter = v["choices"]
                .as_array()
                .unwrap()
                .iter()
                .find(|c| c["text"] == "middle")
                .unwrap()["letter"]
                .clone();
            json!({"item_id": v["item_id"], "answer": letter}).to_string() + "\n"
        })
        .collect();
    let (status, _) = app
        .post_file(
            "/api/tasks/av-clips/submissions?model=Listener",
            token,
            file,
        )
        .await;
    assert_eq!(status, StatusCode::CREATED);
    for subset in ["full", "main"] {
        let (_, b) = app
            .get(&format!("/api/boards/av-clips?subset={subset}"))
            .await;
        let model = b["rows"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["kind"] == "model")
            .unwrap();
        if b["items"].as_u64().unwrap() > 0 {
            assert_eq!(
                model["scores"][0]["estimate"]["value"], 1.0,
                "{subset}: {model}"
            );
        }
        assert!(b["rows"]
            .as_array()
            .unwrap()
            .iter()
            .any(|r| r["kind"] == "chance"));
    }

    // The owner leaves out the participant who failed the headphone check.
    let before = app.get("/api/boards/av-clips").await.1;
    let (status, _) = app
        .call(
            Method::POST,
            "/api/admin/tasks/av-clips/board",
            Some(ADMIN),
            Some(json!({"exclude_failed_checks": true})),
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    let after = app.get("/api/boards/av-clips").await.1;
    let participants = |b: &Value| {
        b["rows"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["kind"] == "human_average")
            .map(|r| r["participants"].as_u64().unwrap())
    };
    if let Some(n) = participants(&before) {
        assert_eq!(n, 2);
        assert_eq!(participants(&after), Some(1));
    }
    let (_, stats) = app.get("/api/quizzes/av-clips/stats").await;
    assert!(stats["completed_participants"].as_u64().unwrap() > 0);
}

on_both_databases!(
    the_question_comes_only_after_the_familiarity_answer,
    assignment_follows_the_native_language,
    clips_are_served_with_ranges_and_audio_only_where_the_picture_gives_it_away,
    boards_switch_subsets_and_show_humans_by_familiarity,
);

/// The demo clips are made on first start (espeak-ng, sox, ffmpeg) and pass the importer's
/// checks: the demo quiz is listed and a Chinese speaker gets Chinese clips and clips without
/// language only.
#[tokio::test]
async fn the_demo_clips_are_made_and_imported_on_first_start() {
    if !tools() || !memeboard_server::demo::clips::tools_missing().is_empty() {
        assert!(std::env::var("MEMEBOARD_REQUIRE_MEDIA_TOOLS").map_or(true, |v| v != "1"));
        return;
    }
    let (mut settings, dir) = test_settings(Db::Sqlite, true).await;
    settings.data.load_clip_demo = true;
    let app = TestApp::with_settings(settings, dir).await;
    let (_, quizzes) = app.get("/api/quizzes").await;
    let clips = quizzes
        .as_array()
        .unwrap()
        .iter()
        .find(|q| q["slug"] == "demo-clips")
        .expect("demo clip quiz listed");
    assert_eq!(clips["task_kind"], "clip_mcq");
    let made = memeboard_server::demo::clips::demo_clips().unwrap().len();
    assert_eq!(clips["item_count"].as_u64(), Some(made as u64));
    assert_eq!(clips["categories"].as_array().unwrap().len(), 7);
    let (status, s) = app
        .post(
            "/api/quizzes/demo-clips/sessions",
            checked_start_body(&app, "demo-clips", "chinese", 5).await,
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{s}");
    let langs = clip_languages(&app, "demo-clips").await;
    for item in s["items"].as_array().unwrap() {
        let lang = langs[item["item_id"].as_str().unwrap()].as_deref();
        assert!(matches!(lang, None | Some("zh")), "{lang:?}");
    }
}
