//! Leaderboard API: uploads validated all-or-nothing and scored at once, quotas, tokens,
//! boards with human/baseline rows, hidden gold, private and blind boards.

use crate::helpers::{demo_questions, detail, jsonl_item_ids, test_settings, Db, TestApp};
use crate::on_both_databases;
use axum::http::{Method, StatusCode};
use memeboard_core::kinds::text_mcq;
use memeboard_core::tasks::ItemGold;
use serde_json::{json, Value};

pub(crate) const TASK: &str = "demo-mcq";
pub(crate) const ADMIN: &str = "admin-secret-for-tests";

pub(crate) async fn app_with(db: Db, quota: usize) -> TestApp {
    let (mut settings, dir) = test_settings(db, true).await;
    settings.leaderboard.daily_quota = quota;
    settings.admin.token = ADMIN.into();
    TestApp::with_settings(settings, dir).await
}

/// Sends a request with optional bearer token and raw body; returns status, headers' content
/// type, and body text.
pub(crate) async fn send(
    app: &TestApp,
    method: Method,
    path: &str,
    token: Option<&str>,
    body: &str,
    content_type: &str,
) -> (StatusCode, String) {
    let reply = app
        .send_as(method, path, token, Some(content_type), body.to_owned())
        .await;
    (reply.status, reply.text())
}

pub(crate) async fn new_token(app: &TestApp, name: &str) -> String {
    let (status, body) = app
        .post("/api/authors", json!({"name": name, "organisation": "Lab"}))
        .await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    assert_eq!(
        body["quota"]["remaining"],
        5.min(body["quota"]["daily_limit"].as_u64().unwrap())
    );
    body["token"].as_str().unwrap().to_owned()
}

/// (item id, correct option number in order 0, split, board half) for every item.
async fn gold(app: &TestApp) -> Vec<(String, usize, String, String)> {
    app.mcq_answers(TASK)
        .await
        .into_iter()
        .map(|(r, answer)| {
            (
                r.id,
                answer,
                r.split.as_str().to_owned(),
                r.board_half.as_str().to_owned(),
            )
        })
        .collect()
}

/// Reveals the private half of `task`'s board (the admin's switch).
pub(crate) async fn reveal(app: &TestApp, task: &str) {
    let (status, text) = send(
        app,
        Method::POST,
        &format!("/api/admin/tasks/{task}/board"),
        Some(ADMIN),
        &json!({"private_revealed": true}).to_string(),
        "application/json",
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{text}");
}

/// A JSONL file answering every item, right for the first `right` items.
pub(crate) async fn file(app: &TestApp, right: usize) -> String {
    gold(app)
        .await
        .iter()
        .enumerate()
        .map(|(n, (id, correct, _, _))| {
            let answer = if n < right { *correct } else { correct % 5 + 1 };
            format!("{{\"item_id\":\"{id}\",\"answer\":{answer}}}\n")
        })
        .collect()
}

async fn upload(app: &TestApp, token: &str, model: &str, body: &str) -> (StatusCode, Value) {
    let query = format!("model={model}&weights=open&parameters=7B&link=https://example.org/paper");
    upload_with(app, token, &query, body).await
}

/// Uploads a JSON Lines `body` to the demo MCQ with the query `query`: status and JSON body.
pub(crate) async fn upload_with(
    app: &TestApp,
    token: &str,
    query: &str,
    body: &str,
) -> (StatusCode, Value) {
    let path = format!("/api/tasks/{TASK}/submissions?{query}");
    let (status, text) = send(
        app,
        Method::POST,
        &path,
        Some(token),
        body,
        "application/x-ndjson",
    )
    .await;
    (status, serde_json::from_str(&text).unwrap_or(Value::Null))
}

async fn a_good_upload_is_scored_and_ranked_at_once(db: Db) {
    let app = app_with(db, 5).await;
    let token = new_token(&app, "Team A").await;
    let all_right = file(&app, demo_questions()).await;
    let (status, body) = upload(&app, &token, "Perfect-7B", &all_right).await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    assert_eq!(body["status"], "scored");
    assert_eq!(body["lines"], demo_questions());
    assert_eq!(body["public_scores"][0]["estimate"]["value"], 1.0);
    assert_eq!(
        body["quota"],
        json!({"used_today": 1, "daily_limit": 5, "remaining": 4})
    );
    assert_eq!(body["warnings"], json!([]));

    // A weaker model answering only part of the items: missing ones count as wrong.
    let partial: String = file(&app, demo_questions())
        .await
        .lines()
        .take(10)
        .map(|l| format!("{l}\n"))
        .collect();
    let (status, weak) = upload(&app, &token, "Partial", &partial).await;
    assert_eq!(status, StatusCode::CREATED, "{weak}");
    assert!(weak["warnings"][0].as_str().unwrap().starts_with(&format!(
        "{} item(s) have no prediction and are scored as wrong: ",
        demo_questions() - 10
    )));

    let (status, board) = app.get(&format!("/api/boards/{TASK}")).await;
    assert_eq!(status, StatusCode::OK);
    let rows = board["rows"].as_array().unwrap();
    assert_eq!(rows[0]["label"], "Perfect-7B");
    assert_eq!(rows[0]["kind"], "model");
    assert_eq!(rows[0]["model"]["parameters"], "7B");
    assert_eq!(
        rows[0]["scores"].as_array().unwrap().len(),
        7,
        "overall + 6 types"
    );
    let chance = rows.iter().find(|r| r["kind"] == "chance").unwrap();
    let chance = chance["scores"][0]["estimate"]["value"].as_f64().unwrap();
    assert!((chance - 0.2).abs() < 1e-9, "{chance}");
    assert!(rows.iter().any(|r| r["label"] == "Partial"));
    assert_eq!(
        board["missing_policy"],
        "Items without a prediction are scored as wrong."
    );

    // Model page and account page.
    let id = body["submission_id"].as_str().unwrap();
    let (_, page) = app.get(&format!("/api/submissions/{id}")).await;
    assert_eq!(page["model"]["model_name"], "Perfect-7B");
    assert_eq!(
        page["private_scores"],
        json!([]),
        "private board not revealed"
    );
    let (status, me) = app.me(&token).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(me["quota"]["remaining"], 3);
    assert_eq!(me["submissions"].as_array().unwrap().len(), 2);

    // CSV download.
    let (status, csv) = send(
        &app,
        Method::GET,
        &format!("/api/boards/{TASK}/download.csv"),
        None,
        "",
        "text/plain",
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert!(csv.starts_with("rank,kind,label,organisation,parameters,weights,submitted_at_ms,participants,overall,overall_ci_low,overall_ci_high,experience,"));
    assert!(csv
        .lines()
        .nth(1)
        .unwrap()
        .starts_with("1,model,Perfect-7B,Lab,7B,open,"));
}

async fn bad_files_get_exact_errors_store_nothing_and_use_no_quota(db: Db) {
    let app = app_with(db, 5).await;
    let token = new_token(&app, "Team B").await;
    let ids: Vec<String> = gold(&app).await.into_iter().map(|g| g.0).collect();
    let cases: Vec<(String, Vec<String>)> = vec![
        ("not json\n".into(), vec!["line 1: not valid JSON (column 2): expected ident at line 1 column 2".into()]),
        (format!("{{\"item_id\":\"{}\",\"answer\":6}}\n", ids[0]), vec![format!("line 1, field `answer`: expected an option number from 1 to 5 or an option's text, found `6`")]),
        ("{\"item_id\":\"nope\",\"answer\":1}\n".into(), vec!["line 1, field `item_id`: unknown item id `nope`".into()]),
        (
            format!("{{\"item_id\":\"{0}\",\"answer\":1}}\n{{\"item_id\":\"{0}\",\"answer\":2}}\n", ids[1]),
            vec![format!("line 2, field `item_id`: duplicate prediction for `{}` (order 0, sample 0); first on line 1", ids[1])],
        ),
        (format!("{{\"item_id\":\"{}\",\"answer\":[1]}}\n", ids[2]), vec!["line 1, field `answer`: expected an option number or option text, found [1]".into()]),
        ("".into(), vec!["file contains no predictions".into()]),
    ];
    for (body, expected) in cases {
        let (status, err) = upload(&app, &token, "Broken", &body).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}: {err}");
        let details: Vec<String> = err["errors"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e["detail"].as_str().unwrap().to_owned())
            .collect();
        assert_eq!(details, expected, "for file {body:?}");
        if body.contains("nope") {
            // Each problem also comes as a code with parameters: where, then what.
            assert_eq!(
                err["errors"][0],
                json!({
                    "detail": "line 1, field `item_id`: unknown item id `nope`",
                    "code": "file.at_line_field",
                    "params": {
                        "line": "1",
                        "field": "item_id",
                        "problem": "file.unknown_item",
                        "problem.id": "nope"
                    }
                })
            );
        }
    }
    // CSV with a bad header.
    let path = format!("/api/tasks/{TASK}/submissions?model=X&format=csv");
    let (status, text) = send(
        &app,
        Method::POST,
        &path,
        Some(&token),
        "id,prediction\nx,1\n",
        "text/csv",
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        text.contains("expected a header row with columns item_id,answer"),
        "{text}"
    );
    // Metadata problems.
    let (status, text) = send(
        &app,
        Method::POST,
        &format!("/api/tasks/{TASK}/submissions?model=X&link=javascript:alert(1)"),
        Some(&token),
        &file(&app, 1).await,
        "application/x-ndjson",
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(text.contains("`link`: expected an http(s) URL"), "{text}");
    let (status, text) = send(
        &app,
        Method::POST,
        &format!("/api/tasks/{TASK}/submissions?weights=open"),
        Some(&token),
        "",
        "application/x-ndjson",
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(text.contains("missing field `model`"), "{text}");

    assert_eq!(app.count("submissions").await, 0);
    let (_, me) = app.me(&token).await;
    assert_eq!(me["quota"]["used_today"], 0);
}

async fn quota_and_tokens_are_enforced(db: Db) {
    let app = app_with(db, 2).await;
    let good = file(&app, 20).await;
    let (status, body) = upload(&app, "mb_wrong", "X", &good).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    assert_eq!(
        detail(&body),
        "unknown token: check it, or create a new one on the account page (/account)"
    );
    let (status, text) = send(
        &app,
        Method::POST,
        &format!("/api/tasks/{TASK}/submissions?model=X"),
        None,
        &good,
        "application/x-ndjson",
    )
    .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    assert!(
        text.contains("missing token: send `Authorization: Bearer <token>`"),
        "{text}"
    );

    let token = new_token(&app, "Team C").await;
    for _ in 0..2 {
        assert_eq!(
            upload(&app, &token, "X", &good).await.0,
            StatusCode::CREATED
        );
    }
    let (status, body) = upload(&app, &token, "X", &good).await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(
        detail(&body),
        "daily quota used up: 2 of 2 submissions today; it resets at 00:00 UTC"
    );
    assert_eq!(app.count("submissions").await, 2);
    // Another author has their own quota.
    let other = new_token(&app, "Team D").await;
    assert_eq!(
        upload(&app, &other, "Y", &good).await.0,
        StatusCode::CREATED
    );
}

fn has_gold_key(v: &Value) -> bool {
    match v {
        Value::Object(m) => m
            .iter()
            .any(|(k, v)| k == "correct" || k == "gold" || has_gold_key(v)),
        Value::Array(a) => a.iter().any(has_gold_key),
        _ => false,
    }
}

async fn no_board_or_task_endpoint_reveals_test_gold(db: Db) {
    let app = app_with(db, 5).await;
    let token = new_token(&app, "Team E").await;
    upload(&app, &token, "Model", &file(&app, 30).await).await;
    let gold = gold(&app).await;
    for path in [
        format!("/api/boards/{TASK}"),
        format!("/api/boards/{TASK}/download.json"),
        format!("/api/tasks/{TASK}/manifest"),
        "/api/tasks".into(),
    ] {
        let (status, text) = send(&app, Method::GET, &path, None, "", "application/json").await;
        assert_eq!(status, StatusCode::OK, "{path}");
        assert!(
            !has_gold_key(&serde_json::from_str(&text).unwrap()),
            "{path} has a gold key: {text}"
        );
    }
    for path in [
        format!("/api/tasks/{TASK}/inputs.jsonl"),
        format!("/api/tasks/{TASK}/template.jsonl"),
    ] {
        let (_, text) = send(&app, Method::GET, &path, None, "", "").await;
        for line in text.lines() {
            assert!(
                !has_gold_key(&serde_json::from_str(line).unwrap()),
                "{path}: {line}"
            );
        }
    }
    // The dev gold file holds dev items only.
    let (_, text) = send(
        &app,
        Method::GET,
        &format!("/api/tasks/{TASK}/dev-gold.jsonl"),
        None,
        "",
        "",
    )
    .await;
    let dev_ids: Vec<&str> = gold
        .iter()
        .filter(|g| g.2 == "dev")
        .map(|g| g.0.as_str())
        .collect();
    assert!(!dev_ids.is_empty());
    let served = jsonl_item_ids(&text);
    assert_eq!(served.len(), dev_ids.len());
    // One numbering everywhere: dev gold's `answer` counts from 1 like prediction files.
    for line in text.lines() {
        let v: Value = serde_json::from_str(line).unwrap();
        let (_, correct, _, _) = gold.iter().find(|g| g.0 == v["item_id"]).unwrap();
        assert_eq!(v["answer"].as_u64(), Some(*correct as u64), "{line}");
        assert!(v.get("correct").is_none(), "{line}");
    }
    assert!(served.iter().all(|id| dev_ids.contains(&id.as_str())));
}

async fn private_and_blind_boards_stay_hidden_until_revealed(db: Db) {
    let app = app_with(db, 5).await;
    let token = new_token(&app, "Team F").await;
    upload(&app, &token, "Model", &file(&app, demo_questions()).await).await;
    let (status, body) = app.get(&format!("/api/boards/{TASK}?split=private")).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    assert_eq!(
        detail(&body),
        "the private board of `demo-mcq` is not revealed yet"
    );

    let admin = |body: Value, token: Option<&'static str>| {
        let app = &app;
        async move {
            let (s, t) = send(
                app,
                Method::POST,
                &format!("/api/admin/tasks/{TASK}/board"),
                token,
                &body.to_string(),
                "application/json",
            )
            .await;
            (s, t)
        }
    };
    assert_eq!(
        admin(json!({"private_revealed": true}), None).await.0,
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(
        admin(json!({"private_revealed": true}), Some("not-admin"))
            .await
            .0,
        StatusCode::UNAUTHORIZED
    );
    let (status, text) = admin(json!({"private_revealed": true}), Some(ADMIN)).await;
    assert_eq!(status, StatusCode::OK, "{text}");
    let (status, private) = app.get(&format!("/api/boards/{TASK}?split=private")).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(private["split"], "private");
    assert_eq!(private["rows"][0]["scores"][0]["estimate"]["value"], 1.0);

    // Blind: scores are hidden from everyone until the reveal.
    admin(json!({"blind": true}), Some(ADMIN)).await;
    let (status, body) = upload(&app, &token, "Blind", &file(&app, 10).await).await;
    assert_eq!(status, StatusCode::CREATED);
    assert_eq!(body["status"], "received");
    assert!(body["public_scores"].is_null());
    let (_, board) = app.get(&format!("/api/boards/{TASK}")).await;
    assert_eq!(board["blind"], true);
    for row in board["rows"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["kind"] == "model")
    {
        assert_eq!(row["status"], "received");
        assert_eq!(row["scores"], json!([]));
    }
    admin(json!({"blind_revealed": true}), Some(ADMIN)).await;
    let (_, board) = app.get(&format!("/api/boards/{TASK}")).await;
    assert!(board["rows"]
        .as_array()
        .unwrap()
        .iter()
        .all(|r| r["status"] == "scored"));
}

async fn human_rows_and_item_gaps_come_from_the_crowd(db: Db) {
    // Every participant counts at once here (the published snapshot's step and minimums are
    // tested in `disclosure`).
    let (mut settings, dir) = test_settings(db, true).await;
    settings.quiz.min_crowd_participants = 1;
    settings.quiz.min_crowd_items = 1;
    settings.quiz.crowd_snapshot_step = 1;
    settings.quiz.crowd_noise = 0.0;
    settings.leaderboard.daily_quota = 5;
    settings.admin.token = ADMIN.into();
    let app = TestApp::with_settings(settings, dir).await;
    // Two participants finish a batch, answering everything correctly.
    for _ in 0..2 {
        let session = app.start_demo_session().await;
        let id = session["session_id"].as_str().unwrap();
        let s = app.storage().find_session(id).await.unwrap().unwrap();
        for row in app.storage().session_items(id).await.unwrap() {
            let ItemGold::TextMcq(text_mcq::Gold { correct }) =
                serde_json::from_str(&row.gold_json).unwrap()
            else {
                panic!()
            };
            let order = memeboard_core::assign::option_order(s.seed as u64, &row.item_id, 5);
            let pos = order.iter().position(|&o| o == correct).unwrap();
            assert_eq!(
                app.answer(id, &row.item_id, pos, &row.item_id).await.0,
                StatusCode::CREATED
            );
        }
    }
    let token = new_token(&app, "Team G").await;
    let (_, body) = upload(&app, &token, "Zero", &file(&app, 0).await).await;
    let (_, board) = app.get(&format!("/api/boards/{TASK}")).await;
    let human = board["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["label"] == "Human average (crowd)")
        .expect("human row");
    assert_eq!(human["kind"], "human_average");
    assert_eq!(human["participants"], 2);
    assert_eq!(human["scores"][0]["estimate"]["value"], 1.0);
    assert_eq!(
        board["rows"][0]["kind"], "human_average",
        "humans outrank a model scoring 0"
    );

    let id = body["submission_id"].as_str().unwrap();
    let (status, text) = send(
        &app,
        Method::GET,
        &format!("/api/submissions/{id}/items"),
        Some(&token),
        "",
        "",
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{text}");
    let gaps: Value = serde_json::from_str(&text).unwrap();
    let gold = gold(&app).await;
    // Authors see dev items only: listing the public test items a file got wrong would reveal
    // their gold after a few constant-answer uploads.
    let visible = |id: &str| gold.iter().any(|g| g.0 == id && g.2 == "dev");
    assert!(!gaps.as_array().unwrap().is_empty());
    for g in gaps.as_array().unwrap() {
        assert!(
            visible(g["item_id"].as_str().unwrap()),
            "author sees a test item: {g}"
        );
        assert_eq!(g["gap"], 1.0);
    }
    let other = new_token(&app, "Team H").await;
    assert_eq!(
        send(
            &app,
            Method::GET,
            &format!("/api/submissions/{id}/items"),
            Some(&other),
            "",
            ""
        )
        .await
        .0,
        StatusCode::FORBIDDEN
    );
    let (status, all) = send(
        &app,
        Method::GET,
        &format!("/api/submissions/{id}/items"),
        Some(ADMIN),
        "",
        "",
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let all: Value = serde_json::from_str(&all).unwrap();
    assert!(all.as_array().unwrap().len() > gaps.as_array().unwrap().len());
    assert!(
        all.as_array()
            .unwrap()
            .iter()
            .any(|g| !visible(g["item_id"].as_str().unwrap())),
        "admins see test items too"
    );
}

async fn csv_files_and_several_option_orders_are_accepted(db: Db) {
    let app = app_with(db, 5).await;
    let token = new_token(&app, "Team I").await;
    let gold = gold(&app).await;
    // Every item answered right under orders 0 and 1, by option text in CSV.
    let (_, manifest) = app.get(&format!("/api/tasks/{TASK}/manifest")).await;
    let mut csv = String::from("item_id,answer,order\n");
    for item in manifest["items"].as_array().unwrap() {
        let id = item["id"].as_str().unwrap();
        let correct = gold.iter().find(|g| g.0 == id).unwrap().1;
        let text = item["options"][correct - 1].as_str().unwrap();
        csv.push_str(&format!("{id},\"{text}\",0\n{id},\"{text}\",1\n"));
    }
    let path = format!("/api/tasks/{TASK}/submissions?model=CsvModel&filename=preds.csv");
    let (status, text) = send(
        &app,
        Method::POST,
        &path,
        Some(&token),
        &csv,
        "application/octet-stream",
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{text}");
    let body: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(body["lines"], 2 * demo_questions(), "two orders per item");
    assert_eq!(body["public_scores"][0]["estimate"]["value"], 1.0);
}

/// A CSV file sent without `format=csv` or a CSV content type (e.g. `curl --data-binary`) is
/// read as CSV because its first line is a CSV header, and the response says so.
async fn an_undeclared_csv_file_is_recognised_by_its_header(db: Db) {
    let app = app_with(db, 5).await;
    let token = new_token(&app, "Team CSV").await;
    let csv: String = std::iter::once("item_id,answer\n".to_owned())
        .chain(
            gold(&app)
                .await
                .iter()
                .map(|(id, correct, _, _)| format!("{id},{correct}\n")),
        )
        .collect();
    let (status, text) = send(
        &app,
        Method::POST,
        &format!("/api/tasks/{TASK}/submissions?model=Curl"),
        Some(&token),
        &csv,
        "application/x-www-form-urlencoded",
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{text}");
    let body: Value = serde_json::from_str(&text).unwrap();
    assert!(
        body["warnings"][0]
            .as_str()
            .unwrap()
            .starts_with("read as CSV"),
        "{body}"
    );
}

/// One row per model by default (best, or latest by the owner's choice), every attempt behind
/// `attempts=all`; authors withdraw their own rows and nobody else's.
async fn boards_show_one_row_per_model_and_authors_withdraw_their_rows(db: Db) {
    let app = app_with(db, 5).await;
    let ann = new_token(&app, "Ann").await;
    let bob = new_token(&app, "Bob").await;
    // Right on 5, 30 and 10 of every 36 items.
    let share = |k: usize| file(&app, demo_questions() * k / 36);
    let (_, weak) = upload(&app, &ann, "Same-Model", &share(5).await).await;
    let (_, strong) = upload(&app, &ann, "Same-Model", &share(30).await).await;
    let (_, latest) = upload(&app, &ann, "Same-Model", &share(10).await).await;
    let id = |v: &Value| v["submission_id"].as_str().unwrap().to_owned();
    let models = |b: &Value| -> Vec<String> {
        b["rows"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|r| r["kind"] == "model")
            .map(|r| r["submission_id"].as_str().unwrap().to_owned())
            .collect()
    };
    let (_, board) = app.get(&format!("/api/boards/{TASK}")).await;
    assert_eq!(board["attempts"], "best");
    assert_eq!(board["hidden_attempts"], 2);
    assert_eq!(models(&board), [id(&strong)], "the best attempt");
    let (_, all) = app.get(&format!("/api/boards/{TASK}?attempts=all")).await;
    assert_eq!(
        (all["attempts"].as_str(), all["hidden_attempts"].as_u64()),
        (Some("all"), Some(0))
    );
    assert_eq!(models(&all).len(), 3);
    let (status, body) = app.get(&format!("/api/boards/{TASK}?attempts=some")).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    // The owner prefers the latest attempt.
    let (status, _) = send(
        &app,
        Method::POST,
        &format!("/api/admin/tasks/{TASK}/board"),
        Some(ADMIN),
        r#"{"attempts": "latest"}"#,
        "application/json",
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let (_, board) = app.get(&format!("/api/boards/{TASK}")).await;
    assert_eq!(
        (board["attempts"].as_str(), models(&board)),
        (Some("latest"), vec![id(&latest)])
    );
    // Bob cannot withdraw Ann's row; Ann can, twice without harm.
    let path = format!("/api/submissions/{}", id(&latest));
    let (status, text) = send(
        &app,
        Method::DELETE,
        &path,
        Some(&bob),
        "",
        "application/json",
    )
    .await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{text}");
    let (status, _) = send(&app, Method::DELETE, &path, None, "", "application/json").await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    for _ in 0..2 {
        let (status, text) = send(
            &app,
            Method::DELETE,
            &path,
            Some(&ann),
            "",
            "application/json",
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{text}");
        assert!(text.contains("\"withdrawn\":true"), "{text}");
    }
    let (_, board) = app.get(&format!("/api/boards/{TASK}")).await;
    assert_eq!(
        models(&board),
        [id(&strong)],
        "the latest remaining attempt"
    );
    let (_, all) = app.get(&format!("/api/boards/{TASK}?attempts=all")).await;
    assert!(!models(&all).contains(&id(&latest)));
    // The author still sees it, marked withdrawn; the quota is not given back.
    let (_, me) = app.me(&ann).await;
    let mine = me["submissions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["submission_id"] == id(&latest).as_str())
        .unwrap();
    assert_eq!(mine["withdrawn"], true);
    assert_eq!(me["quota"]["remaining"], 2);
    let _ = weak;
}

on_both_databases!(
    boards_show_one_row_per_model_and_authors_withdraw_their_rows,
    an_undeclared_csv_file_is_recognised_by_its_header,
    a_good_upload_is_scored_and_ranked_at_once,
    bad_files_get_exact_errors_store_nothing_and_use_no_quota,
    quota_and_tokens_are_enforced,
    no_board_or_task_endpoint_reveals_test_gold,
    private_and_blind_boards_stay_hidden_until_revealed,
    human_rows_and_item_gaps_come_from_the_crowd,
    csv_files_and_several_option_orders_are_accepted,
);
