//! Stored model outputs and comic explanations: explanation files keep each answered item's
//! output and automatic scores (written with the submission, nothing for a rejected file);
//! comic explanation files are validated line by line and stored unscored, their board lists
//! rows "judged by people only"; no public GET ever shows an output; the demo models'
//! submissions appear on both demo boards after start.

use crate::helpers::{demo_memes, models_installed, test_settings, Db, TestApp};
use crate::on_both_databases;
use axum::http::{Method, StatusCode};
use memeboard_server::demo::submissions::{demo_submission_id, DEMO_MODELS};
use serde_json::{json, Value};

const EXPLAIN: &str = "demo-explain";
const COMICS: &str = "demo-panel-explain";

async fn upload(app: &TestApp, task: &str, token: &str, body: &str) -> (StatusCode, Value) {
    app.post_file(
        &format!("/api/tasks/{task}/submissions?model=Outputs"),
        token,
        body.to_owned(),
    )
    .await
}

/// A GET's raw body as text (for CSV and JSON Lines routes too).
async fn get_text(app: &TestApp, path: &str) -> (StatusCode, String) {
    let reply = app.get_reply(path).await;
    (reply.status, reply.lossy_text())
}

async fn token(app: &TestApp) -> String {
    let (_, body) = app.post("/api/authors", json!({"name": "T"})).await;
    body["token"].as_str().unwrap().to_owned()
}

fn details(body: &Value) -> Vec<String> {
    body["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["detail"].as_str().unwrap().to_owned())
        .collect()
}

async fn item_ids(app: &TestApp, task: &str) -> Vec<String> {
    app.manifest_ids(task).await
}

/// Every public GET that could carry a submission's content: none may contain `marker`.
async fn assert_not_public(app: &TestApp, task: &str, submission: &str, marker: &str) {
    for path in [
        format!("/api/boards/{task}"),
        format!("/api/boards/{task}/download.csv"),
        format!("/api/boards/{task}/download.json"),
        format!("/api/submissions/{submission}"),
        format!("/api/submissions/{submission}/items"),
        format!("/api/tasks/{task}/manifest"),
        format!("/api/tasks/{task}/inputs.jsonl"),
        format!("/api/tasks/{task}/dev-gold.jsonl"),
        format!("/api/tasks/{task}/template.jsonl"),
        "/api/tasks".to_owned(),
        "/api/quizzes".to_owned(),
        format!("/api/quizzes/{task}"),
    ] {
        let (_, text) = get_text(app, &path).await;
        assert!(!text.contains(marker), "{path} shows a stored output");
    }
}

async fn explanation_outputs_are_stored_with_their_scores(db: Db) {
    if !models_installed() {
        return;
    }
    let app = TestApp::spawn(db).await;
    let token = token(&app).await;
    let ids = item_ids(&app, EXPLAIN).await;

    // A rejected file stores nothing: no submission, no output.
    let bad = format!(
        "{}\n{{\"item_id\":\"{}\",\"meaning\":\"\"}}\n",
        json!({"item_id": ids[0], "meaning": "MARKER-rejected"}),
        ids[1]
    );
    let (status, body) = upload(&app, EXPLAIN, &token, &bad).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    assert_eq!(app.count("submissions").await, 0);
    assert_eq!(app.count("submission_outputs").await, 0);

    // Three answered items, one with origin and example: three outputs with scores.
    let file = [
        json!({"item_id": ids[0], "meaning": "MARKER-one 很累不想动", "origin": "网络", "example": "我今天躺平了"}),
        json!({"item_id": ids[1], "meaning": "MARKER-two 过度竞争"}),
        json!({"item_id": ids[2], "meaning": "不知道"}),
    ]
    .iter()
    .map(|l| l.to_string() + "\n")
    .collect::<String>();
    let (status, body) = upload(&app, EXPLAIN, &token, &file).await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    let id = body["submission_id"].as_str().unwrap().to_owned();
    let outputs = app.storage().submission_outputs(&id).await.unwrap();
    assert_eq!(outputs.len(), 3);
    let first = outputs.iter().find(|o| o.item_id == ids[0]).unwrap();
    assert_eq!(first.output.meaning, "MARKER-one 很累不想动");
    assert_eq!(first.output.origin.as_deref(), Some("网络"));
    assert_eq!(first.output.example.as_deref(), Some("我今天躺平了"));
    let second = outputs.iter().find(|o| o.item_id == ids[1]).unwrap();
    assert_eq!(
        (second.output.origin.clone(), second.output.example.clone()),
        (None, None)
    );
    // The scores are the ones the board's per-item scores were made from.
    let stored = app.storage().find_submission(&id).await.unwrap().unwrap();
    let per_item: Vec<Value> = serde_json::from_str(&stored.item_scores_json).unwrap();
    for o in &outputs {
        let scores = o.scores.expect("explanation outputs are scored");
        assert!((-1.0..=1.0).contains(&scores.cosine) && (0.0..=1.0).contains(&scores.bert_f1));
        let board_score = per_item
            .iter()
            .find(|s| s["item_id"] == o.item_id.as_str())
            .unwrap()["score"]
            .as_f64()
            .unwrap();
        assert_eq!(Some(board_score), scores.identification);
    }
    // A non-answer is scored at the floor: chance, rescaled 0, BERTScore 0.
    let floor = outputs.iter().find(|o| o.item_id == ids[2]).unwrap();
    let s = floor.scores.unwrap();
    assert_eq!(
        (s.identification, s.rescaled, s.bert_f1),
        (Some(0.5), 0.0, 0.0)
    );
    assert_not_public(&app, EXPLAIN, &id, "MARKER").await;
}

async fn comic_explanations_are_validated_stored_unscored_and_never_public(db: Db) {
    let (mut settings, dir) = test_settings(db, true).await;
    settings.leaderboard.min_category_items = 1;
    settings.admin.token = "admin-secret".into();
    let app = TestApp::with_settings(settings, dir).await;
    let token = token(&app).await;
    let ids = item_ids(&app, COMICS).await;
    // One item per demo comic, but the 60 whose order is hidden test gold of the order tasks
    // (the reading-order panels would reveal it: tests/api/cross_gold.rs).
    assert_eq!(ids.len(), 126 - 60, "one item per offered demo comic");

    // The task is closed as a quiz and has no gold to download.
    let (status, _) = app.get(&format!("/api/quizzes/{COMICS}")).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "closed by default");
    let (_, gold) = get_text(&app, &format!("/api/tasks/{COMICS}/dev-gold.jsonl")).await;
    assert!(gold.lines().all(|l| {
        let v: Value = serde_json::from_str(l).unwrap();
        v.as_object()
            .unwrap()
            .keys()
            .all(|k| k == "item_id" || k == "category")
    }));
    // Model inputs: panels in reading order with title and caption, no comments.
    let (_, inputs) = get_text(&app, &format!("/api/tasks/{COMICS}/inputs.jsonl")).await;
    let first: Value = serde_json::from_str(inputs.lines().next().unwrap()).unwrap();
    assert!(first["panels"].as_array().unwrap().len() >= 2);
    assert!(first["context"]["title"].is_string() && first["context"]["comments"].is_null());

    // Problems are named by line and field, and nothing is stored.
    let bad = [
        json!({"item_id": ids[0]}).to_string(),
        json!({"item_id": ids[1], "explanation": "a", "meaning": "b"}).to_string(),
        json!({"item_id": "nope", "explanation": "a"}).to_string(),
        json!({"item_id": ids[2], "explanation": "  "}).to_string(),
        json!({"item_id": ids[3], "explanation": "a", "score": 3}).to_string(),
    ]
    .join("\n");
    let (status, body) = upload(&app, COMICS, &token, &bad).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    assert_eq!(
        details(&body),
        vec![
            "line 1, field `explanation`: missing",
            "line 2, field `meaning`: give the explanation in `explanation` or in `meaning`, not both",
            "line 3, field `item_id`: unknown item id `nope`",
            "line 4, field `explanation`: expected 1 to 2000 characters of text, found an empty string",
            "line 5, field `score`: unknown field (expected item_id, explanation, meaning)",
        ]
    );
    let (status, body) = upload(&app, COMICS, &token, "item_id,answer\nx,y\n").await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    assert_eq!(app.count("submissions").await, 0);
    assert_eq!(app.count("submission_outputs").await, 0);

    // A CSV with the `meaning` alias: stored, unscored, with a note on the comics left out.
    let csv = format!(
        "item_id,meaning\n{},\"MARKER-comic, the cake wins\"\n{},MARKER-comic two\n",
        ids[0], ids[1]
    );
    let (status, body) = upload(&app, COMICS, &token, &csv).await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    assert_eq!(body["status"], "unscored");
    assert!(body["public_scores"].is_null(), "{body}");
    assert!(body["warnings"].as_array().unwrap().iter().any(|w| w
        .as_str()
        .unwrap()
        .starts_with(&format!("{} comic(s) have no explanation", ids.len() - 2))));
    let id = body["submission_id"].as_str().unwrap().to_owned();
    let outputs = app.storage().submission_outputs(&id).await.unwrap();
    assert_eq!(outputs.len(), 2);
    assert!(outputs.iter().all(|o| o.scores.is_none()));
    let first = outputs.iter().find(|o| o.item_id == ids[0]).unwrap();
    assert_eq!(first.output.meaning, "MARKER-comic, the cake wins");

    // The board lists the submission without any score: judged by people only.
    let (status, board) = app.get(&format!("/api/boards/{COMICS}")).await;
    assert_eq!(status, StatusCode::OK, "{board}");
    assert_eq!(board["automatic_metric"], false);
    assert_eq!(
        board["metric"],
        "judged by people only (no automatic metric)"
    );
    let rows = board["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 1, "no baseline or crowd score rows: {board}");
    assert_eq!(rows[0]["kind"], "model");
    assert_eq!(rows[0]["status"], "unscored");
    assert_eq!(rows[0]["scores"], json!([]));
    let (_, detail) = app.get(&format!("/api/submissions/{id}")).await;
    assert_eq!(detail["status"], "unscored");
    // Other boards still rank by their metric.
    let (_, typing) = app.get("/api/boards/demo-panel-type").await;
    assert_eq!(typing["automatic_metric"], true);
    assert_not_public(&app, COMICS, &id, "MARKER").await;

    // People may write an explanation once the owner opens the quiz; it is stored unscored.
    let (status, _) = app
        .call(
            Method::POST,
            &format!("/api/admin/tasks/{COMICS}/board"),
            Some("admin-secret"),
            Some(json!({"quiz_open": true})),
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    {
        let (status, session) = app
            .post(
                &format!("/api/quizzes/{COMICS}/sessions"),
                crate::helpers::start_body(false),
            )
            .await;
        assert_eq!(status, StatusCode::CREATED, "{session}");
        let sid = session["session_id"].as_str().unwrap();
        let item = &session["items"][0];
        assert_eq!(item["prompt"]["kind"], "panel_explanation");
        let (status, ack) = app
            .post(
                &format!("/api/sessions/{sid}/answers"),
                json!({"item_id": item["item_id"], "idempotency_key": "k1",
                       "answer": {"kind": "comic_text", "text": " the plan fails "}, "response_ms": 4000}),
            )
            .await;
        assert_eq!(status, StatusCode::CREATED, "{ack}");
        let answer = app
            .storage()
            .find_answer(sid, item["item_id"].as_str().unwrap())
            .await
            .unwrap()
            .unwrap();
        assert_eq!(answer.1, None, "never scored");
    }
}

async fn demo_submissions_appear_on_both_boards_after_start(db: Db) {
    if !models_installed() {
        return;
    }
    let (mut settings, dir) = test_settings(db, true).await;
    settings.data.load_demo_submissions = true;
    settings.leaderboard.min_category_items = 1;
    let app = TestApp::with_settings(settings.clone(), dir).await;
    // Loaded in the background after start-up: wait for all eight.
    let mut waited = 0;
    loop {
        if app.count("submissions").await == DEMO_MODELS.len() as i64 {
            break;
        }
        waited += 1;
        assert!(waited < 1800, "demo submissions not loaded in time");
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    let models = |board: &Value| -> Vec<String> {
        let mut names: Vec<String> = board["rows"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|r| r["kind"] == "model")
            .map(|r| r["label"].as_str().unwrap().to_owned())
            .collect();
        names.sort();
        names
    };
    let (_, explain) = app.get(&format!("/api/boards/{EXPLAIN}")).await;
    assert_eq!(
        models(&explain),
        vec!["demo-echo", "demo-faithful", "demo-shifted", "demo-vague"]
    );
    // Graded quality: the faithful paraphrase ranks first.
    let first_model = explain["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["kind"] == "model")
        .unwrap();
    assert_eq!(first_model["label"], "demo-faithful", "{explain}");
    let (_, comics) = app.get(&format!("/api/boards/{COMICS}")).await;
    assert_eq!(
        models(&comics),
        vec!["demo-insight", "demo-literal", "demo-mixup", "demo-vague"]
    );
    // Every demo submission kept its outputs: every demo meme, the comics the task offers (those
    // whose order is hidden test gold are withheld).
    let offered_comics = item_ids(&app, COMICS).await.len();
    for m in &DEMO_MODELS {
        let n = app
            .storage()
            .submission_outputs(&demo_submission_id(m))
            .await
            .unwrap()
            .len();
        assert_eq!(
            n,
            if m.task == EXPLAIN {
                demo_memes()
            } else {
                offered_comics
            },
            "{}",
            m.model
        );
    }
    // Idempotent: loading again submits nothing.
    let again = memeboard_server::demo::submissions::load(
        app.storage(),
        &settings,
        &memeboard_server::explain::inference::EmbeddingService::load(
            &settings.model,
            &settings.data.dir,
        ),
    )
    .await
    .unwrap();
    assert!(again.submitted.is_empty(), "{again:?}");
    assert_eq!(app.count("submissions").await, DEMO_MODELS.len() as i64);
}

async fn without_a_model_only_the_comic_demo_submissions_load(db: Db) {
    let (mut settings, dir) = test_settings(db, true).await;
    settings.model.dir = dir.path().join("no-model-here");
    let app = TestApp::with_settings(settings.clone(), dir).await;
    let embeddings = memeboard_server::explain::inference::EmbeddingService::load(
        &settings.model,
        &settings.data.dir,
    );
    let report = memeboard_server::demo::submissions::load(app.storage(), &settings, &embeddings)
        .await
        .unwrap();
    assert_eq!(report.waiting_for_model.len(), 4, "{report:?}");
    assert_eq!(report.submitted.len(), 4, "{report:?}");
    assert!(report.submitted.iter().all(|s| s.starts_with(COMICS)));
    let (_, comics) = app.get(&format!("/api/boards/{COMICS}")).await;
    assert_eq!(
        comics["rows"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|r| r["kind"] == "model")
            .count(),
        4
    );
}

/// A database from before comic explanations: the demo without `demo-panel-explain`. The
/// start-up upgrade adds the task with exactly the items and panels a fresh import makes.
async fn the_upgrade_adds_the_comic_explanation_task_to_older_databases(db: Db) {
    let (settings, dir) = test_settings(db, true).await;
    let url = settings.database_url();
    let app = TestApp::with_settings(settings, dir).await;
    let task_id = memeboard_server::import_panels::explanation_task_id("demo-panel");
    let fresh = app.storage().task_items(&task_id).await.unwrap();
    assert_eq!(fresh.len(), 126);
    let fresh_media = app.storage().task_media(&task_id).await.unwrap();
    assert!(!fresh_media.is_empty());
    // Remove it as if it had never been imported.
    sqlx::any::install_default_drivers();
    let pool = sqlx::AnyPool::connect(&url).await.unwrap();
    for sql in [
        "DELETE FROM media WHERE task_id = $1",
        "DELETE FROM items WHERE task_id = $1",
        "DELETE FROM tasks WHERE id = $1",
    ] {
        sqlx::query(sql)
            .bind(&task_id)
            .execute(&pool)
            .await
            .unwrap();
    }
    pool.close().await;
    let (status, _) = app.get(&format!("/api/boards/{COMICS}")).await;
    assert_eq!(status, StatusCode::NOT_FOUND);

    let report = memeboard_server::upgrade::run(app.storage(), 200)
        .await
        .unwrap();
    assert_eq!(report.tasks_added, 1);
    let upgraded = app.storage().task_items(&task_id).await.unwrap();
    let key = |rows: &[memeboard_server::storage::TaskItemRow]| {
        let mut v: Vec<(String, String, String, String, String)> = rows
            .iter()
            .map(|r| {
                (
                    r.id.clone(),
                    r.category.clone(),
                    r.prompt_json.clone(),
                    r.gold_json.clone(),
                    format!("{:?}/{:?}", r.split, r.board_half),
                )
            })
            .collect();
        v.sort();
        v
    };
    assert_eq!(
        key(&upgraded),
        key(&fresh),
        "the same items as a fresh import"
    );
    let names = |m: &[memeboard_server::storage::TaskMedia]| {
        m.iter().map(|m| m.name.clone()).collect::<Vec<_>>()
    };
    assert_eq!(
        names(&app.storage().task_media(&task_id).await.unwrap()),
        names(&fresh_media)
    );
    let (status, board) = app.get(&format!("/api/boards/{COMICS}")).await;
    assert_eq!(status, StatusCode::OK, "{board}");
    // Idempotent.
    let again = memeboard_server::upgrade::run(app.storage(), 200)
        .await
        .unwrap();
    assert_eq!(again, Default::default());
}

on_both_databases!(
    the_upgrade_adds_the_comic_explanation_task_to_older_databases,
    explanation_outputs_are_stored_with_their_scores,
    comic_explanations_are_validated_stored_unscored_and_never_public,
    demo_submissions_appear_on_both_boards_after_start,
    without_a_model_only_the_comic_demo_submissions_load,
);
