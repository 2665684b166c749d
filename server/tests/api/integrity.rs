//! Benchmark integrity: ids minted from public data only, the start-up upgrade of databases
//! made by earlier versions, and no test gold of any task on any endpoint.

use crate::helpers::{demo_questions, expand_route, jsonl_item_ids, test_settings, Db, TestApp};
use crate::on_both_databases;
use axum::http::{Method, StatusCode};
use memeboard_core::ids::stable_id;
use memeboard_core::kinds::{explanation, text_mcq};
use memeboard_core::leaderboard::ItemScore;
use memeboard_core::predictions::Split;
use memeboard_core::tasks::{ItemGold, ItemPrompt};
use memeboard_server::demo::{demo_spec, DEMO_MCQ, DEMO_MEMES};
use memeboard_server::import::{parse_chime, split_of};
use serde_json::{json, Value};
use std::collections::HashMap;

/// The id formula of earlier versions: it hashed the correct option.
fn old_mcq_id(slug: &str, sentence: &str, answer: &str) -> String {
    stable_id("mcq", &[slug, sentence, answer])
}

#[test]
fn mcq_ids_do_not_depend_on_the_gold() {
    let spec = demo_spec(24, 6);
    let parsed = parse_chime(&spec, DEMO_MEMES, DEMO_MCQ).unwrap();
    // Change only the gold of every question (the answer moves to the next option).
    let mut mcq: Vec<Value> = serde_json::from_str(DEMO_MCQ).unwrap();
    for q in &mut mcq {
        let n = q["options"].as_object().unwrap().len() as u64;
        let c = q["correct_answer"].as_u64().unwrap();
        q["correct_answer"] = json!(c % n + 1);
    }
    let regolded = parse_chime(&spec, DEMO_MEMES, &serde_json::to_string(&mcq).unwrap()).unwrap();
    for (a, b) in parsed.items.iter().zip(&regolded.items) {
        assert_ne!(a.gold_json, b.gold_json);
        assert_eq!(a.id, b.id, "an id changed when only the gold changed");
        assert_eq!(
            (&a.split, &a.board_half),
            (&b.split, &b.board_half),
            "a split changed when only the gold changed"
        );
    }
}

/// An attacker hashes each option of every published item with the old formula.
async fn hashing_options_does_not_reproduce_item_ids(db: Db) {
    let app = TestApp::spawn(db).await;
    let (status, text) = app.get("/api/tasks/demo-mcq/inputs.jsonl").await;
    assert_eq!(status, StatusCode::OK);
    let _ = text;
    let inputs = app_text(&app, "/api/tasks/demo-mcq/inputs.jsonl").await;
    let mut checked = 0;
    for line in inputs.lines() {
        let v: Value = serde_json::from_str(line).unwrap();
        let id = v["item_id"].as_str().unwrap();
        let sentence = v["sentence"].as_str().unwrap();
        for o in v["options"].as_array().unwrap() {
            assert_ne!(
                old_mcq_id("demo", sentence, o.as_str().unwrap()),
                id,
                "hashing an option reproduces the id of {id}"
            );
            checked += 1;
        }
    }
    assert!(checked >= demo_questions() * 5);
    // The same for the items a quiz session hands out.
    let session = app.start_demo_session().await;
    for item in session["items"].as_array().unwrap() {
        let id = item["item_id"].as_str().unwrap();
        let sentence = item["prompt"]["sentence"].as_str().unwrap_or_default();
        for o in item["prompt"]["options"].as_array().into_iter().flatten() {
            assert_ne!(old_mcq_id("demo", sentence, o.as_str().unwrap()), id);
        }
    }
}

async fn app_text(app: &TestApp, path: &str) -> String {
    app.get_reply(path).await.text()
}

/// The first four migrations (the schema of the previous version), in a folder of their own.
fn previous_migrations() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("migrations");
    for name in [
        "20261129000001_create_quiz_tables.sql",
        "20261129000002_add_leaderboard.sql",
        "20261129000003_add_explanation_scoring.sql",
        "20261129000004_add_submission_extras.sql",
    ] {
        std::fs::copy(src.join(name), dir.path().join(name)).unwrap();
    }
    dir
}

/// A database as the previous version left it: the demo imported with gold-derived MCQ ids
/// and per-item-id splits, one answered session and one scored submission.
async fn upgrade_rekeys_items_and_keeps_answers_and_submissions(db: Db) {
    let (settings, dir) = test_settings(db, false).await;
    let url = settings.database_url();
    sqlx::any::install_default_drivers();
    let pool = sqlx::AnyPool::connect(&url).await.unwrap();
    let migrations = previous_migrations();
    sqlx::migrate::Migrator::new(migrations.path())
        .await
        .unwrap()
        .run(&pool)
        .await
        .unwrap();

    let spec = demo_spec(24, 6);
    let parsed = parse_chime(&spec, DEMO_MEMES, DEMO_MCQ).unwrap();
    sqlx::query("INSERT INTO benchmarks (id, slug, title, description, family, created_at) VALUES ($1, $1, 'Demo', 'd', 'text_memes', 1)")
        .bind("demo").execute(&pool).await.unwrap();
    for m in &parsed.memes {
        sqlx::query("INSERT INTO memes (id, benchmark_id, phrase, meaning, origin, examples_json, category, profanity, offense) VALUES ($1, 'demo', $2, $3, $4, '[]', $5, 0, 0)")
            .bind(&m.id).bind(&m.phrase).bind(&m.meaning).bind(&m.origin).bind(&m.category)
            .execute(&pool).await.unwrap();
    }
    // old id -> (new id, gold)
    let mut old_items: Vec<(String, String, usize)> = Vec::new();
    for (task, items) in [
        (&parsed.task, &parsed.items),
        (&parsed.explain_task, &parsed.explain_items),
    ] {
        sqlx::query("INSERT INTO tasks (id, benchmark_id, slug, kind, title, description, categories_json, batch_size, quiz_open, created_at) VALUES ($1, 'demo', $1, $2, 't', 'd', $3, $4, 1, 1)")
            .bind(&task.id).bind(&task.kind).bind(&task.categories_json).bind(task.batch_size)
            .execute(&pool).await.unwrap();
        for it in items {
            let old_id = match serde_json::from_str::<ItemPrompt>(&it.prompt_json).unwrap() {
                ItemPrompt::TextMcq(text_mcq::Prompt { sentence, options }) => {
                    let ItemGold::TextMcq(text_mcq::Gold { correct }) =
                        serde_json::from_str(&it.gold_json).unwrap()
                    else {
                        panic!()
                    };
                    old_items.push((String::new(), it.id.clone(), correct));
                    let old = old_mcq_id("demo", &sentence, &options[correct]);
                    old_items.last_mut().unwrap().0.clone_from(&old);
                    old
                }
                _ => it.id.clone(),
            };
            let (split, half) = split_of(&old_id, 34);
            sqlx::query("INSERT INTO items (id, task_id, ordinal, category, prompt_json, gold_json, flagged, meme_id, split, board_half) VALUES ($1, $2, $3, $4, $5, $6, 0, $7, $8, $9)")
                .bind(&old_id).bind(&it.task_id).bind(it.ordinal).bind(&it.category)
                .bind(&it.prompt_json).bind(&it.gold_json).bind(&it.meme_id).bind(split).bind(half)
                .execute(&pool).await.unwrap();
        }
    }
    // One session answering the first two questions (the first right, the second wrong).
    sqlx::query("INSERT INTO participants (id, created_at) VALUES ('P-OLD', 1)")
        .execute(&pool)
        .await
        .unwrap();
    sqlx::query("INSERT INTO sessions (id, participant_id, task_id, seed, survey_json, batch_size, created_at) VALUES ('sess-old', 'P-OLD', 'demo-mcq', 7, '{}', 2, 1)")
        .execute(&pool).await.unwrap();
    for (pos, (old, _, correct)) in old_items.iter().take(2).enumerate() {
        let choice = if pos == 0 {
            *correct
        } else {
            (*correct + 1) % 5
        };
        sqlx::query(
            "INSERT INTO session_items (session_id, position, item_id) VALUES ('sess-old', $1, $2)",
        )
        .bind(pos as i64)
        .bind(old)
        .execute(&pool)
        .await
        .unwrap();
        sqlx::query("INSERT INTO answers (id, session_id, item_id, idempotency_key, answer_json, option_order_json, choice, score, response_ms, created_at) VALUES ($1, 'sess-old', $2, $1, '{\"kind\":\"choice\",\"option\":0}', '[0,1,2,3,4]', $3, $4, 100, 1)")
            .bind(format!("ans-{pos}")).bind(old).bind(choice as i64)
            .bind(if pos == 0 { 1.0 } else { 0.0 })
            .execute(&pool).await.unwrap();
    }
    // A submission right on every other item.
    let old_scores: Vec<ItemScore> = parsed
        .items
        .iter()
        .zip(&old_items)
        .enumerate()
        .map(|(n, (it, (old, _, _)))| ItemScore {
            item_id: old.clone(),
            category: it.category.clone(),
            score: if n % 2 == 0 { 1.0 } else { 0.0 },
        })
        .collect();
    sqlx::query("INSERT INTO authors (id, name, organisation, token_hash, daily_quota, created_at) VALUES ('A-OLD', 'n', 'o', 'hash', 5, 1)")
        .execute(&pool).await.unwrap();
    sqlx::query("INSERT INTO submissions (id, task_id, author_id, model_name, organisation, weights, description, file_format, num_lines, num_missing, orders_json, item_scores_json, public_summary_json, private_summary_json, created_at) VALUES ('S-OLD', 'demo-mcq', 'A-OLD', 'OldModel', 'o', 'open', '', 'json_lines', $2, 0, '[0]', $1, '[]', '[]', 1)")
        .bind(serde_json::to_string(&old_scores).unwrap())
        .bind(demo_questions() as i64)
        .execute(&pool).await.unwrap();
    pool.close().await;

    // Start the new version on it (twice: the upgrade is idempotent).
    let app = TestApp::with_settings(settings.clone(), dir).await;
    let report = memeboard_server::upgrade::run(app.storage(), 200)
        .await
        .unwrap();
    assert_eq!(report, Default::default(), "a second run changes nothing");

    let rows = app.storage().task_items("demo-mcq").await.unwrap();
    let new_ids: Vec<&str> = old_items.iter().map(|(_, n, _)| n.as_str()).collect();
    assert_eq!(rows.len(), old_items.len());
    for r in &rows {
        assert!(new_ids.contains(&r.id.as_str()), "not re-keyed: {}", r.id);
        assert!(old_items.iter().all(|(o, _, _)| o != &r.id));
    }
    // Splits follow the source (the question itself) now, with the inferred dev share.
    let reproduced = |rows: &[memeboard_server::storage::TaskItemRow],
                      key: &dyn Fn(&str) -> String| {
        (0..=100u8).any(|p| {
            rows.iter().all(|r| {
                let (split, half) = split_of(&key(&r.id), p);
                r.split.as_str() == split && (split == "dev" || r.board_half.as_str() == half)
            })
        })
    };
    assert!(reproduced(&rows, &|id| id.to_owned()));
    // Explanation items: split from their meme.
    let explain_rows = app.storage().task_items("demo-explain").await.unwrap();
    let meme_of: HashMap<String, String> = parsed
        .explain_items
        .iter()
        .map(|i| (i.id.clone(), i.source_id.clone()))
        .collect();
    assert!(reproduced(&explain_rows, &|id| meme_of[id].clone()));
    // The session still holds its two answers, on the new ids.
    let items = app.storage().session_items("sess-old").await.unwrap();
    assert_eq!(items.len(), 2);
    assert!(items.iter().all(|i| i.answered));
    assert_eq!(items[0].item_id, old_items[0].1);
    assert_eq!(items[1].item_id, old_items[1].1);
    let crowd = app.storage().crowd_responses("demo-mcq").await.unwrap();
    let _ = crowd;
    // The submission: same per-item scores under the new ids, summaries from the new halves.
    let s = app
        .storage()
        .find_submission("S-OLD")
        .await
        .unwrap()
        .unwrap();
    let scores: Vec<ItemScore> = serde_json::from_str(&s.item_scores_json).unwrap();
    let by_old: HashMap<&str, &str> = old_items
        .iter()
        .map(|(o, n, _)| (o.as_str(), n.as_str()))
        .collect();
    for (before, after) in old_scores.iter().zip(&scores) {
        assert_eq!(after.item_id, by_old[before.item_id.as_str()]);
        assert_eq!(after.score, before.score);
    }
    let public: Vec<&ItemScore> = scores
        .iter()
        .filter(|sc| {
            rows.iter().any(|r| {
                r.id == sc.item_id
                    && r.split.as_str() == "test"
                    && r.board_half.as_str() == "public"
            })
        })
        .collect();
    // The exact public-half mean, published rounded to the grid its items support.
    let exact = public.iter().map(|s| s.score).sum::<f64>() / public.len() as f64;
    let step =
        memeboard_core::disclosure::item_grid(public.len(), settings.leaderboard.score_grid_scale)
            .unwrap();
    let expected = memeboard_core::disclosure::round_to(exact, step);
    let (status, detail) = app.get("/api/submissions/S-OLD").await;
    assert_eq!(status, StatusCode::OK, "{detail}");
    let shown = detail["public_scores"][0]["estimate"]["value"]
        .as_f64()
        .unwrap();
    assert!((shown - expected).abs() < 1e-9, "{shown} vs {expected}");
    assert_eq!(detail["public_scores"][0]["items"], public.len());
    let board = app.get("/api/boards/demo-mcq").await.1;
    assert!(board.to_string().contains("OldModel"));

    // Old ids are unknown now: an upload naming one is refused.
    let token = app
        .post("/api/authors", json!({"name": "x", "organisation": "o"}))
        .await
        .1["token"]
        .as_str()
        .unwrap()
        .to_owned();
    let body = format!("{{\"item_id\":\"{}\",\"answer\":1}}\n", old_items[0].0);
    let response = upload_raw(&app, &token, &body).await;
    assert_eq!(
        response.0,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        response.1
    );
    assert!(response.1.contains(&old_items[0].0), "{}", response.1);
}

async fn upload_raw(app: &TestApp, token: &str, body: &str) -> (StatusCode, String) {
    let reply = app
        .send_as(
            Method::POST,
            "/api/tasks/demo-mcq/submissions?model=M",
            Some(token),
            Some("application/x-ndjson"),
            body.to_owned(),
        )
        .await;
    (reply.status, reply.text())
}

on_both_databases!(
    hashing_options_does_not_reproduce_item_ids,
    upgrade_rekeys_items_and_keeps_answers_and_submissions,
);

const ADMIN: &str = "admin-secret-for-integrity";

async fn admin_app(db: Db) -> TestApp {
    let (mut settings, dir) = test_settings(db, true).await;
    settings.admin.token = ADMIN.into();
    TestApp::with_settings(settings, dir).await
}

/// Sends a JSON request with an optional bearer token; returns status and body text.
async fn send(
    app: &TestApp,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: &str,
) -> (StatusCode, String) {
    let method = Method::from_bytes(method.as_bytes()).unwrap();
    let reply = app
        .send_as(
            method,
            path,
            token,
            Some("application/json"),
            body.to_owned(),
        )
        .await;
    (reply.status, reply.lossy_text())
}

/// Completes a session of either quiz: MCQ items answered at display position `position`
/// (or correctly when None), explanation items with a fixed text. Returns the answer bodies.
async fn finish(app: &TestApp, session: &Value, position: Option<usize>) -> Vec<String> {
    let id = session["session_id"].as_str().unwrap();
    let stored = app.storage().find_session(id).await.unwrap().unwrap();
    let rows = app.storage().session_items(id).await.unwrap();
    let mut bodies = Vec::new();
    for (n, r) in rows.iter().enumerate() {
        let answer = match serde_json::from_str::<ItemGold>(&r.gold_json).unwrap() {
            ItemGold::TextMcq(text_mcq::Gold { correct }) => {
                let ItemPrompt::TextMcq(text_mcq::Prompt { options, .. }) =
                    serde_json::from_str(&r.prompt_json).unwrap()
                else {
                    panic!()
                };
                let order = memeboard_core::assign::option_order(
                    stored.seed as u64,
                    &r.item_id,
                    options.len(),
                );
                let p =
                    position.unwrap_or_else(|| order.iter().position(|&o| o == correct).unwrap());
                json!({"kind": "choice", "position": p})
            }
            _ => json!({"kind": "text", "text": "一种网络流行说法"}),
        };
        let (status, body) = send(
            app,
            "POST",
            &format!("/api/sessions/{id}/answers"),
            None,
            &json!({"item_id": r.item_id, "idempotency_key": format!("k{n}"), "answer": answer, "response_ms": 900}).to_string(),
        )
        .await;
        assert!(status.is_success(), "{status} {body}");
        bodies.push(body);
    }
    bodies
}

async fn start(app: &TestApp, slug: &str) -> Value {
    let (status, body) = app
        .post(
            &format!("/api/quizzes/{slug}/sessions"),
            crate::helpers::start_body(false),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    body
}

/// Test gold of every task, as text that must never reach a client: explanation meanings and
/// origins, and each MCQ sentence with its blank filled by the correct option.
async fn test_secrets(app: &TestApp) -> Vec<String> {
    let mut secrets = Vec::new();
    for task in ["demo-mcq", "demo-explain"] {
        for r in app.storage().task_items(task).await.unwrap() {
            if r.split.as_str() == "dev" {
                continue;
            }
            match (
                serde_json::from_str::<ItemPrompt>(&r.prompt_json).unwrap(),
                serde_json::from_str::<ItemGold>(&r.gold_json).unwrap(),
            ) {
                (
                    ItemPrompt::TextMcq(text_mcq::Prompt { sentence, options }),
                    ItemGold::TextMcq(text_mcq::Gold { correct }),
                ) => {
                    secrets.push(sentence.replace("_____", &options[correct]));
                }
                (_, ItemGold::Explanation(explanation::Gold { meaning, origin })) => {
                    secrets.push(meaning);
                    secrets.extend(origin);
                }
                _ => panic!("unexpected item"),
            }
        }
    }
    secrets
}

/// Every endpoint, across both tasks of the demo benchmark, after quizzes were taken and files
/// uploaded: no test-split gold of any task appears in any response (the admin's own views
/// excepted).
async fn no_endpoint_reveals_test_gold_of_any_task(db: Db) {
    let app = admin_app(db).await;
    let secrets = test_secrets(&app).await;
    assert!(secrets.len() > 20);

    // The case that leaked before: a dev question whose meme is a test explanation item.
    let explain_split: HashMap<String, String> = app
        .storage()
        .task_items("demo-explain")
        .await
        .unwrap()
        .into_iter()
        .map(|r| (r.id, r.split.as_str().to_owned()))
        .collect();
    let _ = explain_split;

    let mut bodies: Vec<(String, String)> = Vec::new();
    let mut sessions = Vec::new();
    for slug in ["demo-mcq", "demo-explain"] {
        for round in 0..3 {
            let s = start(&app, slug).await;
            bodies.push((format!("start {slug}"), s.to_string()));
            let answers = finish(&app, &s, (round > 0).then_some(0)).await;
            bodies.extend(answers.into_iter().map(|b| (format!("answer {slug}"), b)));
            sessions.push(s["session_id"].as_str().unwrap().to_owned());
        }
    }
    // Both kinds of dev MCQ review items occur: the meme's explanation item dev and test.
    let mut cross = 0;
    for s in &sessions {
        for r in app.storage().session_items(s).await.unwrap() {
            if r.split.as_str() == "dev" && r.meaning_split == Some(Split::Test) {
                cross += 1;
            }
        }
    }
    assert!(
        cross > 0,
        "the sessions hold no dev question whose meme is a test explanation item"
    );

    // Uploads (explanations need the model; without it the upload is refused).
    let token = app
        .post(
            "/api/authors",
            json!({"name": "Leak tester", "organisation": "o"}),
        )
        .await
        .1["token"]
        .as_str()
        .unwrap()
        .to_owned();
    let mut submissions = Vec::new();
    for slug in ["demo-mcq", "demo-explain"] {
        let (_, template) = send(
            &app,
            "GET",
            &format!("/api/tasks/{slug}/template.jsonl"),
            None,
            "",
        )
        .await;
        let file: String = template
            .lines()
            .map(|l| {
                let mut v: Value = serde_json::from_str(l).unwrap();
                if slug == "demo-mcq" {
                    v["answer"] = json!(1);
                } else {
                    v["meaning"] = json!("一种说法");
                }
                v.to_string() + "\n"
            })
            .collect();
        let (status, body) = send(
            &app,
            "POST",
            &format!("/api/tasks/{slug}/submissions?model=Leaky"),
            Some(&token),
            &file,
        )
        .await;
        bodies.push((format!("upload {slug}"), body.clone()));
        if status == StatusCode::CREATED {
            let v: Value = serde_json::from_str(&body).unwrap();
            submissions.push(v["submission_id"].as_str().unwrap().to_owned());
        }
    }
    assert!(!submissions.is_empty());
    // Reveal the private boards too: still no gold.
    for slug in ["demo-mcq", "demo-explain"] {
        let (status, _) = send(
            &app,
            "POST",
            &format!("/api/admin/tasks/{slug}/board"),
            Some(ADMIN),
            r#"{"private_revealed": true}"#,
        )
        .await;
        assert_eq!(status, StatusCode::OK);
    }

    // Every GET of the OpenAPI document, for every task, session and submission.
    let (_, openapi) = send(&app, "GET", "/api/openapi.json", None, "").await;
    let openapi: Value = serde_json::from_str(&openapi).unwrap();
    let mut paths = Vec::new();
    for (path, ops) in openapi["paths"].as_object().unwrap() {
        if ops.get("get").is_none() {
            continue;
        }
        paths.extend(expand_route(
            path,
            &[
                (
                    "{slug}",
                    vec!["demo-mcq".to_owned(), "demo-explain".to_owned()],
                ),
                (
                    "{id}",
                    sessions.iter().chain(&submissions).cloned().collect(),
                ),
                ("{file}", vec!["browser.json".to_owned()]),
            ],
        ));
    }
    paths.push("/api/boards/demo-mcq?split=private".into());
    paths.push("/api/boards/demo-explain?split=private".into());
    assert!(paths.len() > 30);
    for path in &paths {
        for token in [None, Some(token.as_str())] {
            let (_, body) = send(&app, "GET", path, token, "").await;
            bodies.push((format!("GET {path}"), body));
        }
    }
    for (what, body) in &bodies {
        for s in &secrets {
            assert!(
                !body.contains(s.as_str()),
                "{what} reveals test gold «{s}»: {body}"
            );
        }
    }
    // Results: nothing per item on test items.
    for s in &sessions {
        let (_, body) = send(&app, "GET", &format!("/api/sessions/{s}/results"), None, "").await;
        let v: Value = serde_json::from_str(&body).unwrap();
        for r in v["review"].as_array().unwrap() {
            if r["gold_withheld"] == true {
                assert!(
                    r["correct_position"].is_null() && r["meaning"].is_null(),
                    "{r}"
                );
                assert!(r["crowd_accuracy"].is_null(), "{r}");
                assert!(r["detail"]["reference"].is_null(), "{r}");
            }
        }
    }
}

/// An attacker runs many sessions: no per-item crowd figure ever covers a test item, and a dev
/// item gets one only with enough other participants (never counting the viewer).
async fn per_item_crowd_figures_never_cover_test_items(db: Db) {
    // Every question in each batch, so that dev items reach five earlier participants.
    let (mut settings, dir) = test_settings(db, true).await;
    settings.quiz.batch_size = demo_questions();
    let app = TestApp::with_settings(settings, dir).await;
    let mut dev_figures = 0;
    for round in 0..8 {
        let s = start(&app, "demo-mcq").await;
        finish(&app, &s, Some(round % 5)).await;
        let id = s["session_id"].as_str().unwrap();
        let (status, body) = app.get(&format!("/api/sessions/{id}/results")).await;
        assert_eq!(status, StatusCode::OK);
        for r in body["review"].as_array().unwrap() {
            if r["gold_withheld"] == true {
                assert!(r["crowd_accuracy"].is_null(), "round {round}: {r}");
            } else if !r["crowd_accuracy"].is_null() {
                // Five earlier participants at least.
                assert!(round >= 5, "round {round}: {r}");
                dev_figures += 1;
            }
        }
    }
    assert!(
        dev_figures > 0,
        "dev items get crowd figures once enough people answered"
    );
}

on_both_databases!(
    no_endpoint_reveals_test_gold_of_any_task,
    per_item_crowd_figures_never_cover_test_items,
);

#[test]
fn demo_correct_positions_follow_no_pattern() {
    let mcq: Vec<Value> = serde_json::from_str(DEMO_MCQ).unwrap();
    let mut counts = [0usize; 5];
    for q in &mcq {
        counts[q["correct_answer"].as_u64().unwrap() as usize - 1] += 1;
    }
    // Near an even share at every position (5 to 10 of 36 when the demo had 36 questions).
    let n = mcq.len();
    let even = (n * 5 / 36)..=(n * 10 / 36);
    assert!(counts.iter().all(|c| even.contains(c)), "{counts:?}");
}

/// A file answering by the old line pattern ((line mod 5) + 1) or one constant option scores
/// near chance on every board half and on the dev gold.
async fn positional_pattern_files_score_near_chance(db: Db) {
    let app = TestApp::spawn(db).await;
    let token = app.author_token("Pattern", "o").await;
    let (_, template) = send(&app, "GET", "/api/tasks/demo-mcq/template.jsonl", None, "").await;
    let ids = jsonl_item_ids(&template);
    // Scored against the full gold (all splits), as only the server can.
    let gold: HashMap<String, usize> = app
        .mcq_answers("demo-mcq")
        .await
        .into_iter()
        .map(|(r, answer)| (r.id, answer))
        .collect();
    for strategy in 0..6 {
        let answers: Vec<usize> = (0..ids.len())
            .map(|n| {
                if strategy == 5 {
                    n % 5 + 1
                } else {
                    strategy + 1
                }
            })
            .collect();
        let right = ids
            .iter()
            .zip(&answers)
            .filter(|(id, a)| gold[*id] == **a)
            .count();
        let accuracy = right as f64 / ids.len() as f64;
        assert!(
            accuracy <= 0.3,
            "strategy {strategy}: {right}/{}",
            ids.len()
        );
        let file: String = ids
            .iter()
            .zip(&answers)
            .map(|(id, a)| json!({"item_id": id, "answer": a}).to_string() + "\n")
            .collect();
        if strategy == 5 {
            let (status, body) = send(
                &app,
                "POST",
                "/api/tasks/demo-mcq/submissions?model=Pattern",
                Some(&token),
                &file,
            )
            .await;
            assert_eq!(status, StatusCode::CREATED, "{body}");
            let v: Value = serde_json::from_str(&body).unwrap();
            let public = v["public_scores"][0]["estimate"]["value"].as_f64().unwrap();
            assert!(
                public <= 0.35,
                "the line pattern scores {public} on the public board"
            );
        }
    }
}

on_both_databases!(positional_pattern_files_score_near_chance);

/// A model name written as a spreadsheet formula is downloaded as text.
async fn board_csv_neutralises_formulas(db: Db) {
    let app = TestApp::spawn(db).await;
    let token = app.author_token("Formula", "@org").await;
    let (_, template) = send(&app, "GET", "/api/tasks/demo-mcq/template.jsonl", None, "").await;
    let file = template.replace("null", "1");
    let (status, body) = send(
        &app,
        "POST",
        "/api/tasks/demo-mcq/submissions?model=%3DHYPERLINK(%22x%22)&parameters=-7B",
        Some(&token),
        &file,
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    let csv = app_text(&app, "/api/boards/demo-mcq/download.csv").await;
    assert!(csv.contains(r#""'=HYPERLINK(""x"")",'@org,'-7B,"#), "{csv}");
    for line in csv.lines() {
        for field in line.split(',') {
            assert!(!field.starts_with(['=', '@', '+']), "{line}");
        }
    }
}

on_both_databases!(board_csv_neutralises_formulas);

/// Crowd agreement and chance use each item's real option count: a 6-option question's sixth
/// option counts, and chance is the mean of 1/n.
async fn crowd_statistics_use_real_option_counts(db: Db) {
    // The arithmetic on two hidden items and two people: exact, everyone counted (the public
    // bounds are tested in `disclosure`).
    let (mut settings, dir) = test_settings(db, false).await;
    crate::export::exact_crowd(&mut settings);
    let app = TestApp::with_settings(settings, dir).await;
    let phrases = ["躺平", "内卷", "摆烂", "破防", "社死", "打工人", "真香"];
    let memes: Vec<Value> = phrases
        .iter()
        .map(|p| json!({"meme": p, "meaning": format!("{p}的意思"), "origin": null,
            "examples": [], "profanity": false, "offense": false, "type_cn": "现象", "type_en": "experience"}))
        .collect();
    let six: serde_json::Map<String, Value> = phrases[..6]
        .iter()
        .enumerate()
        .map(|(k, p)| ((k + 1).to_string(), json!(p)))
        .collect();
    let five: serde_json::Map<String, Value> = phrases[1..6]
        .iter()
        .enumerate()
        .map(|(k, p)| ((k + 1).to_string(), json!(p)))
        .collect();
    let mcq = json!([
        {"sentence": "他下班就_____。", "correct_answer": 6, "options": six},
        {"sentence": "公司里大家都在_____。", "correct_answer": 1, "options": five},
    ]);
    let spec = memeboard_server::import::BenchmarkSpec {
        slug: "six".into(),
        title: "Six".into(),
        description: "d".into(),
        batch_size: 24,
        quiz_open: true,
        dev_percent: 0,
        explain_batch_size: 6,
    };
    memeboard_server::import::import_chime(
        app.storage(),
        &spec,
        &Value::Array(memes).to_string(),
        &mcq.to_string(),
    )
    .await
    .unwrap();
    // Two participants agree: the sixth option on the first item, the first on the second.
    for _ in 0..2 {
        let s = start(&app, "six-mcq").await;
        let id = s["session_id"].as_str().unwrap();
        let stored = app.storage().find_session(id).await.unwrap().unwrap();
        for (n, r) in app
            .storage()
            .session_items(id)
            .await
            .unwrap()
            .iter()
            .enumerate()
        {
            let ItemPrompt::TextMcq(text_mcq::Prompt { options, .. }) =
                serde_json::from_str(&r.prompt_json).unwrap()
            else {
                panic!()
            };
            let canonical = if options.len() == 6 { 5 } else { 0 };
            let order =
                memeboard_core::assign::option_order(stored.seed as u64, &r.item_id, options.len());
            let p = order.iter().position(|&o| o == canonical).unwrap();
            let (status, body) = app.answer(id, &r.item_id, p, &format!("k{n}")).await;
            assert_eq!(status, StatusCode::CREATED, "{body}");
        }
    }
    let (status, stats) = app.get("/api/quizzes/six-mcq/stats").await;
    assert_eq!(status, StatusCode::OK, "{stats}");
    assert_eq!(stats["baseline"]["kind"], "chance");
    let chance = stats["baseline"]["value"].as_f64().unwrap();
    assert!(
        (chance - (1.0 / 6.0 + 1.0 / 5.0) / 2.0).abs() < 1e-12,
        "{chance}"
    );
    // Everyone chose the 6th option of the 6-option item: it counts, not dropped.
    let choice = &stats["agreement"][0];
    assert_eq!(choice["dimension"], "choice", "{stats}");
    assert_eq!(choice["ratings"], 4, "{stats}");
    assert_eq!(choice["fleiss_kappa"].as_f64(), Some(1.0), "{stats}");
    assert_eq!(choice["krippendorff_alpha"].as_f64(), Some(1.0), "{stats}");
}

on_both_databases!(crowd_statistics_use_real_option_counts);
