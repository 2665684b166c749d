//! AVMeme Exam Figure 4 as a paper table: the crowd's accuracy by its familiarity with each
//! clip (as the board publishes it), and each model's default run scored over the same
//! (participant, item) answers of each group. A model figure puts hidden item scores together
//! with people's familiarity answers, so nothing of it appears before the private half is
//! revealed, nor on the public half after (JSON, CSV, LaTeX); on the revealed views it equals
//! a count by hand over the answers, and a group under the minimum items is withheld.

use crate::clips::{answer, checked_start_body, preface, tools};
use crate::helpers::{test_settings, tone_wav, Db, TestApp};
use crate::leaderboard::{new_token, reveal, send, ADMIN};
use crate::on_both_databases;
use axum::http::{Method, StatusCode};
use memeboard_core::api::BoardSplit;
use memeboard_core::leaderboard::ItemScore;
use memeboard_server::import_clips::{import_clips, ClipsSpec};
use serde_json::{json, Value};
use std::collections::{HashMap, HashSet};

const TASK: &str = "av-clips";
const TABLE: &str = "avmeme-figure-4";
const MODEL: &str = "Listener-7B";
const CLIPS: usize = 18;
const PEOPLE: usize = 4;
const MIN_ITEMS: usize = 3;
const GROUPS: [&str; 3] = ["familiar", "seen_not_familiar", "unseen"];

/// The choices of clip `k`; the answer is the middle one.
fn choices(k: usize) -> [String; 3] {
    ["low", "middle", "high"].map(|c| format!("{c} ({k})"))
}

/// An app with [`CLIPS`] clips without language, all on the hidden test split.
async fn app_with_clips(db: Db) -> (TestApp, tempfile::TempDir) {
    let (mut settings, dir) = test_settings(db, false).await;
    settings.admin.token = ADMIN.into();
    crate::export::exact_crowd(&mut settings);
    settings.quiz.min_crowd_participants = 2;
    settings.leaderboard.min_category_items = MIN_ITEMS;
    // Exact figures, so that the table's equal the count by hand.
    settings.leaderboard.score_grid_scale = 0.0;
    let app = TestApp::with_settings(settings, dir).await;
    let media = tempfile::tempdir().unwrap();
    let mut lines = String::new();
    for k in 0..CLIPS {
        let file = format!("{k}.wav");
        std::fs::write(media.path().join(&file), tone_wav(200.0 + 13.0 * k as f64)).unwrap();
        let c = choices(k);
        let line = json!({
            "id": format!("clip-{k:02}"), "file": file, "question": format!("Which pitch? #{k}"),
            "choices": c, "answer": c[1], "language": null, "sound_type": "sound_effect",
            "question_type": "audio_analysis", "year": 2020, "summary": "a tone",
            "emotions": ["neutral"], "sensitivity": [], "visual_hint": "no_text", "text_cheat": false,
        });
        lines.push_str(&(line.to_string() + "\n"));
    }
    let spec = ClipsSpec {
        slug: "av".into(),
        task_slug: TASK.into(),
        title: "Test clips".into(),
        description: "test".into(),
        batch_size: CLIPS,
        dev_percent: 0,
        quiz_open: true,
    };
    import_clips(app.storage(), &spec, "m.jsonl", &lines, media.path())
        .await
        .expect("import");
    (app, media)
}

/// The familiarity participant `p` gives on the item at position `k` (in id order): "seen
/// but not familiar" on two items only (under the minimum), else familiar or never seen.
fn familiarity(p: usize, k: usize) -> &'static str {
    if p == 0 && k < 2 {
        "seen_not_familiar"
    } else if (k + p).is_multiple_of(3) {
        "familiar"
    } else {
        "unseen"
    }
}

/// [`PEOPLE`] participants take the quiz: every clip's familiarity, then its answer. Returns
/// each answer's item and familiarity.
async fn crowd(app: &TestApp, ids: &[String]) -> Vec<(String, &'static str)> {
    let mut given = Vec::new();
    for p in 0..PEOPLE {
        let body = checked_start_body(app, TASK, "chinese", 6).await;
        let (status, s) = app
            .post(&format!("/api/quizzes/{TASK}/sessions"), body)
            .await;
        assert_eq!(status, StatusCode::CREATED, "{s}");
        let session = s["session_id"].as_str().unwrap().to_owned();
        let items: Vec<String> = s["items"]
            .as_array()
            .unwrap()
            .iter()
            .map(|i| i["item_id"].as_str().unwrap().to_owned())
            .collect();
        for (n, item) in items.iter().enumerate() {
            let k = ids.iter().position(|x| x == item).unwrap();
            let f = familiarity(p, k);
            let (status, body) = preface(app, &session, item, f).await;
            assert!(status.is_success(), "{body}");
            let (status, body) =
                answer(app, &session, item, (p + k) % 3, &format!("p{p}n{n}")).await;
            assert!(status.is_success(), "{body}");
            given.push((item.clone(), f));
        }
    }
    given
}

/// A run of [`MODEL`] under the default conditions, right on the clips with an even number.
async fn upload(app: &TestApp) -> String {
    let token = new_token(app, "Team Listen").await;
    let path = format!("/api/tasks/{TASK}/inputs.jsonl");
    let (status, inputs) = send(app, Method::GET, &path, Some(&token), "", "text/plain").await;
    assert_eq!(status, StatusCode::OK, "{inputs}");
    let file: String = inputs
        .lines()
        .map(|l| {
            let v: Value = serde_json::from_str(l).unwrap();
            let q = v["question"].as_str().unwrap();
            let k: usize = q.rsplit('#').next().unwrap().parse().unwrap();
            let want = &choices(k)[usize::from(k.is_multiple_of(2))];
            let letter = v["choices"]
                .as_array()
                .unwrap()
                .iter()
                .find(|c| c["text"] == *want)
                .unwrap()["letter"]
                .clone();
            json!({"item_id": v["item_id"], "answer": letter}).to_string() + "\n"
        })
        .collect();
    let path = format!("/api/tasks/{TASK}/submissions?model={MODEL}&weights=open");
    let (status, up) = send(
        app,
        Method::POST,
        &path,
        Some(&token),
        &file,
        "application/x-ndjson",
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{up}");
    let up: Value = serde_json::from_str(&up).unwrap();
    up["submission_id"].as_str().unwrap().to_owned()
}

/// The model's figure per group by hand over the answers on `view`: exact value, items and
/// answers.
fn by_hand(
    given: &[(String, &str)],
    scores: &HashMap<String, f64>,
    on_view: &HashSet<String>,
    group: &str,
) -> (f64, usize, usize) {
    let pairs: Vec<&String> = given
        .iter()
        .filter(|(item, f)| *f == group && on_view.contains(item))
        .map(|(item, _)| item)
        .collect();
    let items: HashSet<&String> = pairs.iter().copied().collect();
    let sum: f64 = pairs.iter().map(|i| scores[*i]).sum();
    (sum / pairs.len().max(1) as f64, items.len(), pairs.len())
}

fn table(tables: &Value) -> &Value {
    crate::paper_tables::table(tables, TABLE)
}

fn row<'a>(table: &'a Value, kind: &str) -> Option<&'a Value> {
    crate::paper_tables::find_row(table, |r| r["kind"] == kind)
}

/// The table's CSV and LaTeX on `split`: status and text of each.
async fn downloads(app: &TestApp, split: &str) -> [(StatusCode, String); 2] {
    let mut out = Vec::new();
    for ext in ["csv", "tex"] {
        let path = format!("/api/benchmarks/av/tables/{TABLE}.{ext}?split={split}");
        out.push(send(app, Method::GET, &path, None, "", "text/plain").await);
    }
    [out.remove(0), out.remove(0)]
}

/// Nothing of the model on the public half: no row, no line in the downloads; the crowd row
/// has the board's familiarity figures.
async fn public_half_has_the_crowd_only(app: &TestApp) {
    let (status, tables) = app.get("/api/benchmarks/av/tables").await;
    assert_eq!(status, StatusCode::OK, "{tables}");
    let t = table(&tables);
    assert!(
        row(t, "model").is_none(),
        "no model on the public half: {t}"
    );
    assert!(!t.to_string().contains(MODEL), "{t}");
    let crowd = row(t, "human_pooled").expect("the crowd row");
    let (_, board) = app.get(&format!("/api/boards/{TASK}")).await;
    for (k, group) in GROUPS.iter().enumerate() {
        let figure = board["familiarity"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["familiarity"] == *group)
            .unwrap();
        let cell = &crowd["cells"][k];
        match figure.get("estimate").filter(|e| !e.is_null()) {
            Some(e) => {
                assert_eq!(cell["value"], e["value"], "{group}");
                assert_eq!(cell["ci_low"], e["ci_low"], "{group}");
                assert_eq!(cell["pairs"], figure["answers"], "{group}");
            }
            None => assert!(cell.is_null(), "{group}: {cell}"),
        }
    }
    for (status, text) in downloads(app, "public").await {
        assert_eq!(status, StatusCode::OK, "{text}");
        assert!(!text.contains(MODEL), "{text}");
    }
}

async fn figure_4_scores_the_models_on_the_answers_of_each_familiarity_group(db: Db) {
    if !tools() {
        return;
    }
    let (app, _media) = app_with_clips(db).await;
    let storage = app.storage();
    let task = storage.find_board_task(TASK).await.unwrap().unwrap();
    let items = storage.task_items(&task.task.id).await.unwrap();
    let mut ids: Vec<String> = items.iter().map(|i| i.id.clone()).collect();
    ids.sort();
    let given = crowd(&app, &ids).await;
    let submission = upload(&app).await;

    // Before the reveal: the crowd only on the public half, the revealed views refused.
    public_half_has_the_crowd_only(&app).await;
    for split in ["private", "whole"] {
        let (status, body) = app
            .get(&format!("/api/benchmarks/av/tables?split={split}"))
            .await;
        assert_eq!(status, StatusCode::FORBIDDEN, "{split}: {body}");
        for (status, text) in downloads(&app, split).await {
            assert_eq!(status, StatusCode::FORBIDDEN, "{split}: {text}");
            assert!(!text.contains(MODEL), "{text}");
        }
    }

    reveal(&app, TASK).await;
    public_half_has_the_crowd_only(&app).await;
    let stored = storage.find_submission(&submission).await.unwrap().unwrap();
    let scores: HashMap<String, f64> =
        serde_json::from_str::<Vec<ItemScore>>(&stored.item_scores_json)
            .unwrap()
            .into_iter()
            .map(|s| (s.item_id, s.score))
            .collect();
    let mut withheld = 0;
    for (split, view) in [
        ("private", BoardSplit::Private),
        ("whole", BoardSplit::Whole),
    ] {
        let (status, tables) = app
            .get(&format!("/api/benchmarks/av/tables?split={split}"))
            .await;
        assert_eq!(status, StatusCode::OK, "{split}: {tables}");
        let t = table(&tables);
        let m = row(t, "model").unwrap_or_else(|| panic!("{split}: no model row: {t}"));
        assert_eq!(m["label"], MODEL);
        let on_view: HashSet<String> = items
            .iter()
            .filter(|i| i.on_board(view))
            .map(|i| i.id.clone())
            .collect();
        let mut shown = Vec::new();
        for (k, group) in GROUPS.iter().enumerate() {
            let (exact, n_items, pairs) = by_hand(&given, &scores, &on_view, group);
            let cell = &m["cells"][k];
            if n_items < MIN_ITEMS {
                assert!(cell.is_null(), "{split} {group}: {n_items} items: {cell}");
                withheld += 1;
                continue;
            }
            let value = cell["value"].as_f64().unwrap();
            assert!(
                (value - exact).abs() < 1e-9,
                "{split} {group}: {value} vs {exact}"
            );
            assert_eq!(
                cell["items"].as_u64(),
                Some(n_items as u64),
                "{split} {group}"
            );
            assert_eq!(
                cell["pairs"].as_u64(),
                Some(pairs as u64),
                "{split} {group}"
            );
            let (lo, hi) = (
                cell["ci_low"].as_f64().unwrap(),
                cell["ci_high"].as_f64().unwrap(),
            );
            assert!(lo <= value && value <= hi, "{split} {group}: {cell}");
            shown.push(value);
        }
        assert!(!shown.is_empty(), "{split}: every group withheld: {m}");
        let [(status, csv), (_, tex)] = downloads(&app, split).await;
        assert_eq!(status, StatusCode::OK, "{csv}");
        let line = csv
            .lines()
            .find(|l| l.starts_with(&format!("{MODEL},model,")))
            .unwrap_or_else(|| panic!("{split}: {csv}"));
        for v in shown {
            assert!(line.contains(&v.to_string()), "{split}: {v} in {line}");
        }
        assert!(
            csv.lines().next().unwrap().contains("familiar_pairs"),
            "{csv}"
        );
        assert!(tex.contains(MODEL), "{split}: {tex}");
    }
    assert!(
        withheld >= 2,
        "the group seen on two clips only is withheld on both views"
    );
    // The figures are kept per state of the crowd's data, of the view and of the runs'
    // scores: the page asked again at the same state reads no crowd answer.
    let reads = storage.crowd_reads();
    for split in ["private", "whole"] {
        let path = format!("/api/benchmarks/av/tables?split={split}");
        assert_eq!(app.get(&path).await.0, StatusCode::OK, "{split}");
    }
    assert_eq!(
        storage.crowd_reads(),
        reads,
        "the paper tables read the crowd's answers on the request's path"
    );
}

on_both_databases!(figure_4_scores_the_models_on_the_answers_of_each_familiarity_group);
