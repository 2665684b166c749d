//! Judging tasks (kinds `rating` and `ranking`), created with hand-built specs through
//! `judging::create_judging_task`: whole fixed batches that fill evenly, one participation per
//! rater (resume, then refuse) or as many batches as the owner allows, never the same twice, exactly-once answers, invitation-only starts, no submission id
//! or model name in anything a rater gets, hidden from the public lists and from prediction
//! files, and the planted-output quality rule.

use crate::helpers::{detail, item_ids, start_body, test_settings, Db, TestApp};
use crate::on_both_databases;
use axum::http::{Method, StatusCode};
use memeboard_server::judging::{create_judging_task, invite_hash, JudgingTaskSpec};
use serde_json::{json, Value};
use std::collections::{BTreeMap, BTreeSet};

const ADMIN: &str = "admin-secret-for-judging-tests";
/// Every submission id and model name in the specs contains this; nothing a rater gets may.
const SECRET_MARK: &str = "SUBSECRET";

async fn judging_app(db: Db) -> TestApp {
    let (mut settings, dir) = test_settings(db, true).await;
    settings.admin.token = ADMIN.into();
    TestApp::with_settings(settings, dir).await
}

pub(crate) async fn benchmark(app: &TestApp) -> String {
    app.storage().benchmark_id("demo").await.unwrap().unwrap()
}

fn output(meaning: &str, origin: bool, example: bool) -> Value {
    let mut o = json!({ "meaning": meaning });
    if origin {
        o["origin"] = json!(format!("origin of {meaning}"));
    }
    if example {
        o["example"] = json!(format!("example of {meaning}"));
    }
    o
}

/// A rating item of the accuracy protocol (meme, reference read first).
pub(crate) fn accuracy_item(id: &str, batch: u32, planted: Option<&str>, origin: bool) -> Value {
    let mut gold = json!({
        "kind": "rating",
        "submission_id": planted.is_none().then(|| format!("{SECRET_MARK}-{id}")),
        "source_item": format!("explain-{id}"),
        "batch": batch
    });
    if let Some(p) = planted {
        gold["planted"] = json!(p);
    }
    json!({
        "id": id,
        "category": if batch.is_multiple_of(2) { "slang" } else { "abbreviation" },
        "split": "dev",
        "batch": batch,
        "prompt": {
            "kind": "rating",
            "protocol": "accuracy",
            "subject": {"kind": "meme", "phrase": format!("phrase {id}")},
            "reference": {"meaning": format!("reference {id}"), "examples": ["ex 1"]},
            "output": output(&format!("output {id}"), origin, true),
        },
        "gold": gold
    })
}

/// A rating item of the dimensions protocol (comic, context or not).
fn dimensions_item(id: &str, batch: u32, has_context: bool) -> Value {
    json!({
        "id": id,
        "category": "narrative",
        "split": "test",
        "batch": batch,
        "prompt": {
            "kind": "rating",
            "protocol": "dimensions",
            "subject": {"kind": "comic", "panels": ["/media/p1.png", "/media/p2.png"], "title": "Cat"},
            "output": output(&format!("comic output {id}"), false, false),
            "has_context": has_context,
        },
        "gold": {"kind": "rating", "submission_id": format!("{SECRET_MARK}-{id}"), "source_item": "comic-1", "batch": batch}
    })
}

/// A ranking item of `n` candidates.
fn ranking_item(id: &str, batch: u32, n: usize) -> Value {
    json!({
        "id": id,
        "category": "slang",
        "split": "dev",
        "batch": batch,
        "prompt": {
            "kind": "ranking",
            "subject": {"kind": "meme", "phrase": format!("phrase {id}")},
            "candidates": (0..n).map(|c| output(&format!("candidate {c} of {id}"), false, false)).collect::<Vec<_>>(),
        },
        "gold": {
            "kind": "ranking",
            "submissions": (0..n).map(|c| format!("{SECRET_MARK}-model-{c}")).collect::<Vec<_>>(),
            "source_item": format!("explain-{id}"),
            "batch": batch
        }
    })
}

pub(crate) fn spec(benchmark: &str, slug: &str, kind: &str, items: Vec<Value>) -> JudgingTaskSpec {
    serde_json::from_value(json!({
        "benchmark_id": benchmark,
        "slug": slug,
        "title": format!("Judge {slug}"),
        "description": "Rate model explanations.",
        "kind": kind,
        "batch_size": 2,
        "items": items,
    }))
    .unwrap()
}

/// Starts a session as a new participant (`Some` id + secret to come back as one).
pub(crate) async fn start(
    app: &TestApp,
    slug: &str,
    who: Option<(&str, &str)>,
) -> (StatusCode, Value) {
    let mut body = start_body(false);
    if let Some((id, secret)) = who {
        body["participant_id"] = json!(id);
        body["participant_secret"] = json!(secret);
    }
    app.post(&format!("/api/quizzes/{slug}/sessions"), body)
        .await
}

async fn answer(
    app: &TestApp,
    session: &str,
    item: &str,
    key: &str,
    answer: Value,
) -> (StatusCode, Value) {
    app.post(
        &format!("/api/sessions/{session}/answers"),
        json!({"item_id": item, "idempotency_key": key, "answer": answer, "response_ms": 4000}),
    )
    .await
}

/// An accuracy answer to the item as shown (verdicts only for the fields it has).
fn verdicts(item: &Value, meaning: &str) -> Value {
    let out = &item["prompt"]["output"];
    let mut a = json!({"kind": "rating", "protocol": "accuracy", "meaning": meaning});
    if out.get("origin").is_some() {
        a["origin"] = json!("neutral");
    }
    if out.get("example").is_some() {
        a["example"] = json!("agree");
    }
    a
}

/// Fails when any string in the JSON mentions a submission id or a source item id.
fn assert_blind(what: &str, body: &Value) {
    let text = body.to_string();
    assert!(
        !text.contains(SECRET_MARK),
        "{what} names a submission: {text}"
    );
    assert!(
        !text.contains("explain-"),
        "{what} names a source item: {text}"
    );
    assert!(!text.contains("submission"), "{what}: {text}");
}

/// The batch of each item id.
fn batches_of(items: &[Value]) -> BTreeMap<String, u64> {
    items
        .iter()
        .map(|i| {
            (
                i["id"].as_str().unwrap().to_owned(),
                i["batch"].as_u64().unwrap(),
            )
        })
        .collect()
}

/// The one batch a session holds (every item of it, nothing else).
fn batch_of_session(session: &Value, batches: &BTreeMap<String, u64>) -> u64 {
    let ids = item_ids(session);
    let held: BTreeSet<u64> = ids.iter().map(|i| batches[i]).collect();
    assert_eq!(held.len(), 1, "one batch per session: {ids:?}");
    let b = *held.iter().next().unwrap();
    let whole: BTreeSet<&String> = batches
        .iter()
        .filter(|(_, &x)| x == b)
        .map(|(i, _)| i)
        .collect();
    assert_eq!(
        ids.iter().collect::<BTreeSet<_>>(),
        whole,
        "the whole batch"
    );
    b
}

async fn rating_accuracy_sessions_get_whole_batches_that_fill_evenly(db: Db) {
    let app = judging_app(db).await;
    let bench = benchmark(&app).await;
    let items: Vec<Value> = (0..3)
        .flat_map(|b| (0..2).map(move |k| accuracy_item(&format!("r{b}{k}"), b, None, k == 0)))
        .collect();
    let batches = batches_of(&items);
    create_judging_task(app.storage(), &spec(&bench, "judge-acc", "rating", items))
        .await
        .unwrap();

    // Not on the public list, not a board, no prediction files.
    let (_, quizzes) = app.get("/api/quizzes").await;
    assert!(!quizzes.to_string().contains("judge-acc"), "{quizzes}");
    let (_, tasks) = app.get("/api/tasks").await;
    assert!(!tasks.to_string().contains("judge-acc"), "{tasks}");
    for path in [
        "/api/tasks/judge-acc/inputs.jsonl",
        "/api/tasks/judge-acc/dev-gold.jsonl",
        "/api/tasks/judge-acc/template.jsonl",
        "/api/tasks/judge-acc/manifest",
        "/api/boards/judge-acc",
    ] {
        let (status, body) = app.get(path).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{path}: {body}");
        assert!(
            detail(&body).contains("human-judging task"),
            "{path}: {body}"
        );
    }
    let (status, quiz) = app.get("/api/quizzes/judge-acc").await;
    assert_eq!(status, StatusCode::OK, "{quiz}");
    assert_eq!(quiz["task_kind"], "rating");
    assert_eq!(quiz["invitation_only"], false);

    // Three raters get the three batches, whole; the fourth gets the first batch again.
    let mut sessions = Vec::new();
    for _ in 0..4 {
        let (status, s) = start(&app, "judge-acc", None).await;
        assert_eq!(status, StatusCode::CREATED, "{s}");
        assert_blind("session start", &s);
        sessions.push(s);
    }
    let held: Vec<u64> = sessions
        .iter()
        .map(|s| batch_of_session(s, &batches))
        .collect();
    assert_eq!(held, [0, 1, 2, 0]);

    // The reference comes first on the page, then the output; no model identity anywhere.
    let first = &sessions[0];
    let id = first["session_id"].as_str().unwrap();
    let item = &first["items"][0];
    assert!(item["prompt"]["reference"]["meaning"].is_string(), "{item}");
    let (_, resumed) = app.get(&format!("/api/sessions/{id}")).await;
    assert_blind("session", &resumed);

    // Exactly once per item: a second answer to a judged item is refused.
    let items0 = first["items"].as_array().unwrap().clone();
    let i0 = items0[0]["item_id"].as_str().unwrap();
    let (status, body) = answer(&app, id, i0, "k0", verdicts(&items0[0], "agree")).await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    assert_blind("answer", &body);
    let (status, body) = answer(&app, id, i0, "k0-again", verdicts(&items0[0], "disagree")).await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    // A verdict on a field the output lacks (or none on one it has) is refused.
    let mut wrong = verdicts(&items0[1], "agree");
    if wrong.get("origin").is_some() {
        wrong.as_object_mut().unwrap().remove("origin");
    } else {
        wrong["origin"] = json!("agree");
    }
    let i1 = items0[1]["item_id"].as_str().unwrap();
    let (status, body) = answer(&app, id, i1, "k1-bad", wrong).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    assert!(detail(&body).contains("answer.origin"), "{body}");
    let (status, body) = answer(&app, id, i1, "k1", verdicts(&items0[1], "neutral")).await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    assert!(body["completion_code"].is_string(), "{body}");
    let (status, results) = app.get(&format!("/api/sessions/{id}/results")).await;
    assert_eq!(status, StatusCode::OK, "{results}");
    assert_blind("results", &results);
    assert_eq!(results["review"].as_array().unwrap().len(), 2);

    // The crowd counts the unscored answers of the finished rater.
    let (_, stats) = app.get("/api/quizzes/judge-acc/stats").await;
    assert_eq!(stats["completed_participants"], 1, "{stats}");

    // No double judging: the finished rater is refused, an unfinished one resumes.
    let who = |s: &Value| {
        (
            s["participant_id"].as_str().unwrap().to_owned(),
            s["participant_secret"].as_str().unwrap().to_owned(),
        )
    };
    let (pid, secret) = who(first);
    let (status, body) = start(&app, "judge-acc", Some((&pid, &secret))).await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert!(detail(&body).contains("already finished judging"), "{body}");
    let (pid, secret) = who(&sessions[3]);
    let (status, body) = start(&app, "judge-acc", Some((&pid, &secret))).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["session_id"], sessions[3]["session_id"]);
}

async fn rating_dimensions_ask_context_only_where_it_applies(db: Db) {
    let app = judging_app(db).await;
    let bench = benchmark(&app).await;
    let items = vec![
        dimensions_item("d-ctx", 0, true),
        dimensions_item("d-none", 0, false),
    ];
    create_judging_task(app.storage(), &spec(&bench, "judge-dims", "rating", items))
        .await
        .unwrap();
    let (status, s) = start(&app, "judge-dims", None).await;
    assert_eq!(status, StatusCode::CREATED, "{s}");
    assert_blind("session", &s);
    let id = s["session_id"].as_str().unwrap();
    let scores = |context: Option<u8>| {
        json!({"kind": "rating", "protocol": "dimensions", "scores": {
            "visual_correctness": 3, "panel_coherence": 2, "humour_comprehension": 2,
            "context_handling": context, "faithfulness": 3}})
    };
    for item in s["items"].as_array().unwrap() {
        let item_id = item["item_id"].as_str().unwrap();
        let has = item["prompt"]["has_context"].as_bool().unwrap();
        assert_eq!(item["prompt"]["subject"]["kind"], "comic");
        // Context handling exactly when the comic has context.
        let (status, body) = answer(
            &app,
            id,
            item_id,
            &format!("{item_id}-x"),
            scores((!has).then_some(2)),
        )
        .await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
        assert!(detail(&body).contains("context_handling"), "{body}");
        // An accuracy answer on a dimensions page is refused.
        let (status, body) = answer(
            &app,
            id,
            item_id,
            &format!("{item_id}-y"),
            json!({"kind": "rating", "protocol": "accuracy", "meaning": "agree"}),
        )
        .await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
        let mut bad = scores(has.then_some(2));
        bad["scores"]["faithfulness"] = json!(4);
        let (status, _) = answer(&app, id, item_id, &format!("{item_id}-z"), bad).await;
        assert_eq!(status, StatusCode::BAD_REQUEST);
        let (status, body) = answer(&app, id, item_id, item_id, scores(has.then_some(2))).await;
        assert_eq!(status, StatusCode::CREATED, "{body}");
    }
    let (status, results) = app.get(&format!("/api/sessions/{id}/results")).await;
    assert_eq!(status, StatusCode::OK, "{results}");
    assert_blind("results", &results);
}

async fn ranking_stores_canonical_ranks_with_ties(db: Db) {
    let app = judging_app(db).await;
    let bench = benchmark(&app).await;
    let items = vec![ranking_item("k1", 0, 5), ranking_item("k2", 0, 3)];
    create_judging_task(app.storage(), &spec(&bench, "judge-rank", "ranking", items))
        .await
        .unwrap();
    let (status, s) = start(&app, "judge-rank", None).await;
    assert_eq!(status, StatusCode::CREATED, "{s}");
    assert_blind("session", &s);
    let id = s["session_id"].as_str().unwrap();
    for item in s["items"].as_array().unwrap() {
        let item_id = item["item_id"].as_str().unwrap();
        let shown: Vec<String> = item["prompt"]["candidates"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["meaning"].as_str().unwrap().to_owned())
            .collect();
        let n = shown.len();
        // Gaps, out-of-range ranks and wrong counts are refused.
        for bad in [vec![1, 1, 3], vec![0; n], vec![1; n + 1]] {
            let (status, body) = answer(
                &app,
                id,
                item_id,
                &format!("{item_id}-bad-{bad:?}"),
                json!({"kind": "ranking", "ranks": bad}),
            )
            .await;
            assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
        }
        // The first two displayed candidates tie for best.
        let display: Vec<u8> = (0..n).map(|p| if p < 2 { 1 } else { p as u8 }).collect();
        let (status, body) = answer(
            &app,
            id,
            item_id,
            item_id,
            json!({"kind": "ranking", "ranks": display}),
        )
        .await;
        assert_eq!(status, StatusCode::CREATED, "{body}");
        // Stored per canonical candidate ("candidate c of …" is canonical candidate c).
        let (stored, _) = app
            .storage()
            .find_answer(id, item_id)
            .await
            .unwrap()
            .unwrap();
        let stored: Value = serde_json::from_str(&stored).unwrap();
        for (p, meaning) in shown.iter().enumerate() {
            let c: usize = meaning
                .strip_prefix("candidate ")
                .and_then(|r| r.split(' ').next())
                .unwrap()
                .parse()
                .unwrap();
            assert_eq!(stored["ranks"][c], display[p], "{stored}");
        }
    }
    let (status, results) = app.get(&format!("/api/sessions/{id}/results")).await;
    assert_eq!(status, StatusCode::OK, "{results}");
    assert_blind("results", &results);
}

async fn invitation_only_tasks_refuse_strangers(db: Db) {
    let app = judging_app(db).await;
    let bench = benchmark(&app).await;
    let mut s = spec(
        &bench,
        "judge-invite",
        "rating",
        vec![accuracy_item("v1", 0, None, true)],
    );
    s.invite_hash = Some(invite_hash("let-me-in"));
    create_judging_task(app.storage(), &s).await.unwrap();
    let (_, quiz) = app.get("/api/quizzes/judge-invite").await;
    assert_eq!(quiz["invitation_only"], true);
    let path = "/api/quizzes/judge-invite/sessions";
    let (status, body) = app.post(path, start_body(false)).await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{body}");
    assert!(detail(&body).contains("by invitation only"), "{body}");
    let mut wrong = start_body(false);
    wrong["invite"] = json!("let-me-IN");
    let (status, _) = app.post(path, wrong).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (status, _) = app
        .post(&format!("{path}?invite=guess"), start_body(false))
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let mut invited = start_body(false);
    invited["invite"] = json!("let-me-in");
    let (status, body) = app.post(path, invited).await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    let (status, body) = app
        .post(&format!("{path}?invite=let-me-in"), start_body(false))
        .await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
}

/// A request with the admin token.
async fn admin(
    app: &TestApp,
    method: Method,
    path: &str,
    body: Option<Value>,
) -> (StatusCode, Value) {
    app.call(method, path, Some(ADMIN), body).await
}

async fn planted_outputs_exclude_a_rater_who_judges_them_the_wrong_way(db: Db) {
    let app = judging_app(db).await;
    let bench = benchmark(&app).await;
    let items = vec![
        accuracy_item("p-real", 0, None, false),
        accuracy_item("p-ref", 0, Some("reference"), false),
        accuracy_item("p-other", 0, Some("other_meaning"), false),
    ];
    create_judging_task(
        app.storage(),
        &spec(&bench, "judge-planted", "rating", items),
    )
    .await
    .unwrap();
    let (status, console) = admin(
        &app,
        Method::GET,
        "/api/owner/tasks/judge-planted/console",
        None,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{console}");
    let mut settings = console["settings"].clone();
    settings["study"]["quality"]["planted_checks"] = json!(true);
    let (status, body) = admin(
        &app,
        Method::PUT,
        "/api/owner/tasks/judge-planted/settings",
        Some(settings),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");

    // Rater 1 agrees with the reference and disagrees with the other meme's meaning (passes);
    // rater 2 does the opposite (fails).
    for careless in [false, true] {
        let (status, s) = start(&app, "judge-planted", None).await;
        assert_eq!(status, StatusCode::CREATED, "{s}");
        let id = s["session_id"].as_str().unwrap();
        for item in s["items"].as_array().unwrap() {
            let item_id = item["item_id"].as_str().unwrap();
            let meaning = match (item_id, careless) {
                ("p-ref", false) | ("p-other", true) => "agree",
                ("p-ref", true) | ("p-other", false) => "disagree",
                _ => "neutral",
            };
            let (status, body) = answer(&app, id, item_id, item_id, verdicts(item, meaning)).await;
            assert_eq!(status, StatusCode::CREATED, "{body}");
        }
    }
    let (_, console) = admin(
        &app,
        Method::GET,
        "/api/owner/tasks/judge-planted/console",
        None,
    )
    .await;
    assert_eq!(console["completed_before_exclusions"], 2, "{console}");
    assert_eq!(console["completed_after_exclusions"], 1, "{console}");
    let excluded = console["exclusions"].as_array().unwrap();
    assert_eq!(excluded.len(), 1, "{console}");
    assert_eq!(excluded[0]["reason"]["code"], "failed_planted_checks");
    assert_eq!(
        excluded[0]["reason"]["en"],
        "judged 2 of 2 planted outputs of known quality the wrong way round"
    );
    let (_, stats) = app.get("/api/quizzes/judge-planted/stats").await;
    assert_eq!(stats["completed_participants"], 1, "{stats}");
}

async fn specs_with_problems_store_nothing(db: Db) {
    let app = judging_app(db).await;
    let bench = benchmark(&app).await;
    let before = app.counts().await;
    let mut bad_item = accuracy_item("x1", 0, None, true);
    bad_item["prompt"]
        .as_object_mut()
        .unwrap()
        .remove("reference");
    let mut wrong_batch = accuracy_item("x2", 1, None, true);
    wrong_batch["batch"] = json!(3);
    let mut bad_labels = accuracy_item("x5", 0, None, true);
    bad_labels["prompt"]["error_labels"] = json!([{"key": "wrong", "en": "Wrong", "zh": "错"}, {"key": "wrong", "en": "Again", "zh": "又错"}]);
    let items = vec![
        bad_item,
        wrong_batch,
        bad_labels,
        ranking_item("x3", 0, 3),
        accuracy_item("x1", 0, None, true),
    ];
    let err = create_judging_task(app.storage(), &spec(&bench, "Bad Slug", "rating", items))
        .await
        .unwrap_err()
        .to_string();
    for part in [
        "`slug`",
        "item `x1`: the accuracy protocol shows the reference first",
        "item `x2`: `batch` is 3 but its gold says 1",
        "item `x3`: its prompt is a `ranking` one",
        "item `x1`: ids must be",
        "item `x5`: `error_labels[1].key`: `wrong` is used by another label",
    ] {
        assert!(err.contains(part), "{part}: {err}");
    }
    let err = create_judging_task(
        app.storage(),
        &spec(&bench, "judge-x", "ranking", vec![ranking_item("x4", 0, 6)]),
    )
    .await
    .unwrap_err()
    .to_string();
    assert!(err.contains("expected 2 to 5 candidates"), "{err}");
    assert_eq!(app.counts().await, before);
    create_judging_task(
        app.storage(),
        &spec(
            &bench,
            "demo-mcq",
            "rating",
            vec![accuracy_item("x5", 0, None, true)],
        ),
    )
    .await
    .map(|_| ())
    .expect_err("slug taken");
    assert_eq!(app.counts().await, before);
}

/// CHIME's design: a rater may judge up to `batches_per_rater` batches, one session each,
/// never the same batch twice; then they are refused like any finished rater.
async fn a_rater_judges_several_batches_never_the_same_twice(db: Db) {
    let app = judging_app(db).await;
    let bench = benchmark(&app).await;
    let items: Vec<Value> = (0..3)
        .flat_map(|b| (0..2).map(move |k| accuracy_item(&format!("m{b}{k}"), b, None, k == 0)))
        .collect();
    let batches = batches_of(&items);
    create_judging_task(app.storage(), &spec(&bench, "judge-many", "rating", items))
        .await
        .unwrap();
    let path = "/api/owner/tasks/judge-many";
    let (_, console) = admin(&app, Method::GET, &format!("{path}/console"), None).await;
    let mut settings = console["settings"].clone();
    settings["study"]["batches_per_rater"] = json!(0);
    let (status, body) = admin(
        &app,
        Method::PUT,
        &format!("{path}/settings"),
        Some(settings.clone()),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    assert!(detail(&body).contains("batches_per_rater"), "{body}");
    settings["study"]["batches_per_rater"] = json!(2);
    let (status, body) = admin(
        &app,
        Method::PUT,
        &format!("{path}/settings"),
        Some(settings),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let (_, quiz) = app.get("/api/quizzes/judge-many").await;
    assert_eq!(
        quiz["allow_retake"], true,
        "the page offers the next batch: {quiz}"
    );

    // Another rater holds batch 0, so the least-held batch alone would hand it out again.
    let (status, other) = start(&app, "judge-many", None).await;
    assert_eq!(status, StatusCode::CREATED, "{other}");
    assert_eq!(batch_of_session(&other, &batches), 0);
    let mut who: Option<(String, String)> = None;
    let mut held = Vec::new();
    for round in 0..2 {
        let me = who.as_ref().map(|(p, s)| (p.as_str(), s.as_str()));
        let (status, s) = start(&app, "judge-many", me).await;
        assert_eq!(status, StatusCode::CREATED, "round {round}: {s}");
        held.push(batch_of_session(&s, &batches));
        let id = s["session_id"].as_str().unwrap().to_owned();
        if who.is_none() {
            who = Some((
                s["participant_id"].as_str().unwrap().to_owned(),
                s["participant_secret"].as_str().unwrap().to_owned(),
            ));
        }
        // Unfinished: a start resumes it rather than handing out a second batch.
        let me = who.as_ref().map(|(p, s)| (p.as_str(), s.as_str()));
        let (status, again) = start(&app, "judge-many", me).await;
        assert_eq!(
            (status, &again["session_id"]),
            (StatusCode::OK, &s["session_id"])
        );
        for item in s["items"].as_array().unwrap() {
            let item_id = item["item_id"].as_str().unwrap();
            let (status, body) = answer(
                &app,
                &id,
                item_id,
                &format!("{round}-{item_id}"),
                verdicts(item, "agree"),
            )
            .await;
            assert_eq!(status, StatusCode::CREATED, "{body}");
        }
    }
    assert_eq!(held.len(), 2);
    assert_ne!(held[0], held[1], "never the same batch twice: {held:?}");
    // Two finished: the third start is refused.
    let me = who.as_ref().map(|(p, s)| (p.as_str(), s.as_str()));
    let (status, body) = start(&app, "judge-many", me).await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert!(detail(&body).contains("already finished judging"), "{body}");
}

on_both_databases!(
    rating_accuracy_sessions_get_whole_batches_that_fill_evenly,
    a_rater_judges_several_batches_never_the_same_twice,
    rating_dimensions_ask_context_only_where_it_applies,
    ranking_stores_canonical_ranks_with_ties,
    invitation_only_tasks_refuse_strangers,
    planted_outputs_exclude_a_rater_who_judges_them_the_wrong_way,
    specs_with_problems_store_nothing,
);
