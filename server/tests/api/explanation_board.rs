//! Explanation prediction files on the leaderboard: validated like every upload, scored by
//! embeddings on the server (meaning identification against the open dev meanings), ranked
//! beside the chance row, never revealing test gold; one number on every surface.

use crate::helpers::{demo_memes, detail, models_installed, test_settings, Db, TestApp};
use crate::on_both_databases;
use axum::body::Body;
use axum::http::{Method, Request, StatusCode};
use serde_json::{json, Value};
use tower::ServiceExt;

const TASK: &str = "demo-explain";

async fn upload(app: &TestApp, token: &str, body: &str) -> (StatusCode, Value) {
    app.post_file(
        &format!("/api/tasks/{TASK}/submissions?model=Explainer"),
        token,
        body.to_owned(),
    )
    .await
}

/// (item id, reference meaning) of every item of the task.
async fn meanings(app: &TestApp) -> Vec<(String, String)> {
    app.items_with_gold(TASK)
        .await
        .into_iter()
        .map(|(id, _, g)| (id, g["meaning"].as_str().unwrap().to_owned()))
        .collect()
}

async fn token(app: &TestApp) -> String {
    let (_, body) = app.post("/api/authors", json!({"name": "T"})).await;
    body["token"].as_str().unwrap().to_owned()
}

async fn explanation_files_are_scored_by_embeddings(db: Db) {
    if !models_installed() {
        return;
    }
    let app = TestApp::spawn(db).await;
    let token = token(&app).await;
    let (_, manifest) = app.get(&format!("/api/tasks/{TASK}/manifest")).await;
    let items = manifest["items"].as_array().unwrap();
    assert_eq!(items.len(), demo_memes());
    assert!(
        !manifest.to_string().contains("meaning"),
        "the manifest carries no gold"
    );

    // Bad files: exact errors, nothing stored.
    let (status, body) = upload(
        &app,
        &token,
        "{\"item_id\":\"nope\",\"meaning\":\"x\"}\n{\"item_id\":\"nope\"}",
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    let details: Vec<&str> = body["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["detail"].as_str().unwrap())
        .collect();
    assert_eq!(
        details,
        vec![
            "line 1, field `item_id`: unknown item id `nope`",
            "line 2, field `item_id`: unknown item id `nope`"
        ]
    );
    assert_eq!(app.count("submissions").await, 0);

    // The reference meanings themselves (known to the test through the database) score 1.
    let gold = meanings(&app).await;
    let file: String = gold
        .iter()
        .take(30)
        .map(|(id, meaning)| {
            json!({"item_id": id, "meaning": meaning, "origin": "网络"}).to_string() + "\n"
        })
        .collect();
    let (status, body) = upload(&app, &token, &file).await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    assert_eq!(body["lines"], 30);
    // Only aggregates over hidden items, each rounded to what its items support: no per-item
    // test cosine can be read back from an upload.
    for s in body["public_scores"].as_array().unwrap() {
        let items = s["items"].as_u64().unwrap() as usize;
        let step = memeboard_core::disclosure::item_grid(items, 1.0).unwrap();
        if let Some(v) = s["estimate"]["value"].as_f64() {
            assert!(memeboard_core::disclosure::on_grid(v, step), "{s}");
        }
    }
    assert!(body["warnings"][0].as_str().unwrap().starts_with(&format!(
        "{} item(s) have no prediction and score at chance (0.5)",
        demo_memes() - 30
    )));

    let (_, board) = app.get(&format!("/api/boards/{TASK}")).await;
    assert_eq!(
        board["metric"],
        "meaning identification: the chance that an explanation is closer to its own meme's meaning than to another open reference meaning (0.5 = chance, 1 = always; tiny-bert embeddings)"
    );
    let model = board["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["kind"] == "model")
        .unwrap();
    let overall = model["scores"][0]["estimate"]["value"].as_f64().unwrap();
    assert!(overall > 0.5 && overall <= 1.0 + 1e-9, "{overall}");
    // One number everywhere: the upload response, the model page, the author's page and the
    // board show the same figures.
    let uploaded = &body["public_scores"];
    assert_eq!(uploaded, &model["scores"], "upload response vs board");
    let id = body["submission_id"].as_str().unwrap();
    let (_, page) = app.get(&format!("/api/submissions/{id}")).await;
    assert_eq!(
        &page["public_scores"], uploaded,
        "model page vs upload response"
    );
    let (_, me) = app.call(Method::GET, "/api/me", Some(&token), None).await;
    let mine = me["submissions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["submission_id"] == id)
        .unwrap();
    assert_eq!(
        &mine["public_scores"], uploaded,
        "the author's page vs upload response"
    );
    let extra_names: Vec<&str> = model["extra"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["name"].as_str().unwrap())
        .collect();
    for name in [
        "meaning cosine, raw",
        "answers flagged as filler",
        "answers no closer to their own meaning",
    ] {
        assert!(
            extra_names.iter().any(|n| n.starts_with(name)),
            "{name}: {extra_names:?}"
        );
    }
    assert!(
        extra_names
            .iter()
            .any(|n| n.starts_with("meaning BERTScore-F1")),
        "{extra_names:?}"
    );
    assert!(model["flags"].is_null(), "{model}");
    // The prompt copied as the answer is a baseline row (scored by the same model).
    let copy = board["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["kind"] == "prompt_copy")
        .expect("prompt-copy row");
    assert!(
        copy["scores"][0]["estimate"]["value"].as_f64().unwrap() < overall,
        "{copy}"
    );
    // A file that answers with the meme phrases is flagged.
    let phrases: String = app
        .storage()
        .task_items(TASK)
        .await
        .unwrap()
        .into_iter()
        .map(|r| {
            let p: Value = serde_json::from_str(&r.prompt_json).unwrap();
            json!({"item_id": r.id, "meaning": p["meme"]}).to_string() + "\n"
        })
        .collect();
    let (status, _) = app
        .post_file(
            &format!("/api/tasks/{TASK}/submissions?model=Copier"),
            &token,
            phrases,
        )
        .await;
    assert_eq!(status, StatusCode::CREATED);
    let (_, board2) = app.get(&format!("/api/boards/{TASK}")).await;
    let copier = board2["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["label"] == "Copier")
        .unwrap();
    assert_eq!(copier["flags"], json!(["copies_prompt"]), "{copier}");
    // Answers that say nothing score at the floor: exactly chance (0.5). Another
    // author: under the Ladder an author's worse upload shows that author's best.
    let (_, other) = app.post("/api/authors", json!({"name": "Other"})).await;
    let token = other["token"].as_str().unwrap().to_owned();
    let shrug: String = gold
        .iter()
        .map(|(id, _)| json!({"item_id": id, "meaning": "不知道"}).to_string() + "\n")
        .collect();
    let (status, _) = app
        .post_file(
            &format!("/api/tasks/{TASK}/submissions?model=Shrug"),
            &token,
            shrug,
        )
        .await;
    assert_eq!(status, StatusCode::CREATED);
    let (_, board3) = app.get(&format!("/api/boards/{TASK}")).await;
    let rows = board3["rows"].as_array().unwrap();
    let shrug = rows.iter().find(|r| r["label"] == "Shrug").unwrap();
    let value = |r: &Value| r["scores"][0]["estimate"]["value"].as_f64().unwrap();
    // 0.5 as published: rounded to the grid the public half's items support.
    let scale = memeboard_server::config::Settings::defaults()
        .unwrap()
        .leaderboard
        .score_grid_scale;
    let items = shrug["scores"][0]["items"].as_u64().unwrap() as usize;
    let step = memeboard_core::disclosure::item_grid(items, scale).unwrap();
    let chance = memeboard_core::disclosure::round_to(0.5, step);
    assert!((value(shrug) - chance).abs() < 1e-9, "{shrug}");
    let random = rows.iter().find(|r| r["kind"] == "random_pair").unwrap();
    assert!(
        (value(random) - 0.5).abs() < 1e-9,
        "the chance row is 0.5: {random}"
    );
    let baseline = board["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["kind"] == "random_pair")
        .unwrap();
    assert_eq!(
        baseline["label"],
        "Chance (a meaning that fits every meme alike)"
    );
    // No test-split meaning appears on the board or in the task files.
    let (_, dev) = app.get(&format!("/api/tasks/{TASK}/manifest")).await;
    let dev_ids: Vec<&str> = dev["items"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|i| i["split"] == "dev")
        .map(|i| i["id"].as_str().unwrap())
        .collect();
    let text = board.to_string();
    for (id, meaning) in &gold {
        if !dev_ids.contains(&id.as_str()) {
            assert!(!text.contains(meaning.as_str()));
        }
    }
}

async fn without_a_model_an_explanation_file_is_refused_whole(db: Db) {
    let (mut settings, dir) = test_settings(db, true).await;
    settings.model.dir = dir.path().join("no-model");
    let app = TestApp::with_settings(settings, dir).await;
    let token = token(&app).await;
    let (_, manifest) = app.get(&format!("/api/tasks/{TASK}/manifest")).await;
    let id = manifest["items"][0]["id"].as_str().unwrap();
    let (status, body) = upload(
        &app,
        &token,
        &json!({"item_id": id, "meaning": "累了"}).to_string(),
    )
    .await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);
    assert!(
        detail(&body)
            .starts_with("explanation scoring is unavailable: embedding model not installed"),
        "{body}"
    );
    assert_eq!(app.count("submissions").await, 0);
}

/// A database of an earlier version holds explanation files scored by cosine: at the next
/// start they are scored again from their stored outputs, by identification and with the
/// per-type figures, in the background (the same numbers a fresh upload gets).
#[tokio::test]
async fn files_scored_before_identification_are_scored_again_at_start() {
    if std::env::var("MEMEBOARD_TEST_MODELS").is_err() {
        return;
    }
    let (mut settings, dir) = test_settings(Db::Sqlite, true).await;
    let keep = tempfile::tempdir().unwrap();
    let db_file = keep.path().join("m.db");
    settings.database.url = format!("sqlite://{}?mode=rwc", db_file.display());
    let app = TestApp::with_settings(settings.clone(), dir).await;
    let token = token(&app).await;
    let gold = meanings(&app).await;
    let file: String = gold
        .iter()
        .take(20)
        .map(|(id, m)| json!({"item_id": id, "meaning": m}).to_string() + "\n")
        .collect();
    let (status, body) = upload(&app, &token, &file).await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    let id = body["submission_id"].as_str().unwrap().to_owned();
    let fresh = app.storage().find_submission(&id).await.unwrap().unwrap();
    // As an earlier version stored it: raw cosines, no marker.
    let old_scores: Vec<Value> = serde_json::from_str::<Vec<Value>>(&fresh.item_scores_json)
        .unwrap()
        .into_iter()
        .map(|mut s| {
            s["score"] = json!(0.97);
            s
        })
        .collect();
    app.storage()
        .rescore_submission(
            &memeboard_server::storage::SubmissionRewrite {
                id: id.clone(),
                item_scores_json: Value::from(old_scores).to_string(),
                public_summary_json: fresh.public_summary_json.clone(),
                private_summary_json: fresh.private_summary_json.clone(),
                extra_json: None,
            },
            &[],
        )
        .await
        .unwrap();
    drop(app);
    settings.data.load_demo = false;
    settings.data.dir = keep.path().to_owned();
    let app = TestApp::with_settings(settings, keep).await;
    let mut again = None;
    for _ in 0..100 {
        let s = app.storage().find_submission(&id).await.unwrap().unwrap();
        if s.extra_json
            .as_deref()
            .is_some_and(|e| e.contains("identification") && e.contains("scoring_version"))
        {
            again = Some(s);
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    let again = again.expect("the old file was not scored again");
    assert_eq!(again.item_scores_json, fresh.item_scores_json);
    assert_eq!(again.public_summary_json, fresh.public_summary_json);
    // Scored again, the file has the per-type figures of CHIME Table 10, each saying how
    // many items of its type the half holds (the board withholds types with too few).
    let extra: Value = serde_json::from_str(again.extra_json.as_deref().unwrap()).unwrap();
    assert_eq!(
        extra["scoring_version"],
        memeboard_server::kinds::explanation::scoring_version::VERSION
    );
    let keys: Vec<(&str, u64)> = ["public", "private"]
        .iter()
        .flat_map(|h| extra[h].as_array().unwrap())
        .filter_map(|f| Some((f["key"].as_str()?, f["items"].as_u64()?)))
        .collect();
    assert!(
        keys.iter().any(|(k, n)| k.starts_with("cosine:") && *n > 0)
            && keys.iter().any(|(k, _)| k.starts_with("bertscore:")),
        "{extra}"
    );
}

/// Origin cosine as CHIME scores it: over the memes with a reference origin on the half, a
/// file that gives no origin scoring 0 there (not "no figure", which would also say which
/// items have an origin), and one that gives every reference origin scoring 1.
async fn origins_are_scored_over_the_memes_with_a_reference_origin(db: Db) {
    if std::env::var("MEMEBOARD_TEST_MODELS").is_err() {
        return;
    }
    let app = TestApp::spawn(db).await;
    let token = token(&app).await;
    let rows = app.storage().task_items(TASK).await.unwrap();
    let with_origin_on_public = rows
        .iter()
        .filter(|r| r.split.as_str() == "test" && r.board_half.as_str() == "public")
        .filter(|r| serde_json::from_str::<Value>(&r.gold_json).unwrap()["origin"].is_string())
        .count();
    assert!(
        with_origin_on_public > 0,
        "the demo has origins on the public half"
    );
    let gold = app.items_with_gold(TASK).await;
    let send = |model: &'static str, with_origins: bool| {
        let file: String = gold
            .iter()
            .map(|(id, _, g)| {
                let mut line = json!({"item_id": id, "meaning": g["meaning"]});
                if with_origins && g["origin"].is_string() {
                    line["origin"] = g["origin"].clone();
                }
                line.to_string() + "\n"
            })
            .collect();
        let req = Request::post(format!("/api/tasks/{TASK}/submissions?model={model}"))
            .header("authorization", format!("Bearer {token}"))
            .body(Body::from(file))
            .unwrap();
        app.app.router().oneshot(req)
    };
    for (model, with_origins) in [("NoOrigins", false), ("AllOrigins", true)] {
        let res = send(model, with_origins).await.unwrap();
        assert_eq!(res.status(), StatusCode::CREATED, "{model}");
    }
    let (_, board) = app.get(&format!("/api/boards/{TASK}")).await;
    let origin_of = |model: &str, key: &str| {
        board["rows"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["label"] == model)
            .and_then(|r| {
                r["extra"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .find(|e| e["key"] == key)
                    .and_then(|e| e["value"].as_f64())
            })
    };
    for key in ["origin_cosine", "origin_bertscore"] {
        assert_eq!(origin_of("NoOrigins", key), Some(0.0), "{key}: {board}");
        let all = origin_of("AllOrigins", key).expect("a figure");
        assert!(all > 0.95, "{key}: {all}");
    }
}

on_both_databases!(
    explanation_files_are_scored_by_embeddings,
    without_a_model_an_explanation_file_is_refused_whole,
    origins_are_scored_over_the_memes_with_a_reference_origin,
);
