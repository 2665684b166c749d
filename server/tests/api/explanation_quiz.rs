//! The explanation quiz: a free-text answer is stored first, then scored on the server
//! (authoritative) and sent back with the crowd's scores — and the reference meaning only for
//! open dev items.

use crate::helpers::{detail, models_installed, start_body, Db, TestApp};
use crate::on_both_databases;
use axum::http::StatusCode;
use serde_json::{json, Value};

async fn explain(
    app: &TestApp,
    session: &str,
    item: &str,
    text: &str,
    key: &str,
) -> (StatusCode, Value) {
    app.post(
        &format!("/api/sessions/{session}/answers"),
        json!({"item_id": item, "idempotency_key": key, "answer": {"kind": "text", "text": text}, "response_ms": 9000}),
    )
    .await
}

async fn explanations_are_stored_then_scored_and_reveal_only_dev_gold(db: Db) {
    if !models_installed() {
        return;
    }
    let app = TestApp::spawn(db).await;
    let (status, quizzes) = app.get("/api/quizzes").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(quizzes[1]["slug"], "demo-explain");
    assert_eq!(quizzes[1]["task_kind"], "explanation");
    // Its title and description in each language (the pages show one at a time), not the
    // multiple-choice quiz's with an English suffix.
    assert_eq!(
        quizzes[1]["title"],
        "Chinese text memes (demo) — explain the meme · 中文网络梗（演示） — 解释网络梗"
    );
    assert!(quizzes[1]["description"]
        .as_str()
        .unwrap()
        .contains(" · 用自己的话"));

    let (status, session) = app
        .post("/api/quizzes/demo-explain/sessions", start_body(false))
        .await;
    assert_eq!(status, StatusCode::CREATED, "{session}");
    let items = session["items"].as_array().unwrap().clone();
    assert_eq!(items.len(), 6);
    assert_eq!(items[0]["prompt"]["kind"], "explanation");
    let id = session["session_id"].as_str().unwrap();
    let item = items[0]["item_id"].as_str().unwrap();

    // Wrong shape and empty text are refused; nothing is stored.
    let (status, body) = app.answer(id, item, 0, "k0").await;
    assert_eq!(
        (status, detail(&body).as_str()),
        (
            StatusCode::BAD_REQUEST,
            "`answer.kind`: this item expects `text`"
        )
    );
    let (status, body) = explain(&app, id, item, "   ", "k0").await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(
        detail(&body),
        "`answer.text`: expected 1 to 1000 characters, found 0"
    );
    assert_eq!(app.count("answers").await, 0);

    let memes: Vec<Value> = serde_json::from_str(memeboard_server::demo::DEMO_MEMES).unwrap();
    let mut secrets_seen = Vec::new();
    for (n, it) in items.iter().enumerate() {
        let item = it["item_id"].as_str().unwrap();
        let meme = it["prompt"]["meme"].as_str().unwrap();
        let gold = memes.iter().find(|m| m["meme"] == meme).unwrap();
        let (status, ack) = explain(
            &app,
            id,
            item,
            &format!("{meme}是说事情很糟糕"),
            &format!("key{n}"),
        )
        .await;
        assert_eq!(status, StatusCode::CREATED, "{ack}");
        let feedback = &ack["feedback"];
        if feedback["gold_withheld"] == true {
            // Hidden test item: stored, but nothing derived from the reference comes back.
            assert!(feedback["reference"].is_null());
            assert!(feedback["server_score"].is_null(), "{feedback}");
            assert_eq!(feedback["crowd_scores"], json!([]));
            assert_eq!(feedback["scores_with_results"], true);
            secrets_seen.push(gold["meaning"].as_str().unwrap().to_owned());
            continue;
        }
        assert_eq!(feedback["scores_with_results"], false);
        let score = &feedback["server_score"];
        assert_eq!(score["model"], "tiny-bert");
        let cos = score["cosine"].as_f64().unwrap();
        assert!((-1.0..=1.0).contains(&cos));
        let baseline = score["baseline"].as_f64().unwrap();
        assert!(
            (score["rescaled"].as_f64().unwrap() - (cos - baseline) / (1.0 - baseline)).abs()
                < 1e-9
        );
        // The primary score (identification) is what the crowd's scores are made of.
        let identification = score["identification"].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&identification), "{score}");
        assert!(feedback["crowd_scores"]
            .as_array()
            .unwrap()
            .iter()
            .any(|c| (c.as_f64().unwrap() - identification).abs() < 1e-12));
        assert_eq!(feedback["reference"]["meaning"], gold["meaning"]);
        // A resend (the same answer, the same key) returns the stored score, records nothing
        // new; the same key with another text is refused.
        let text = format!("{meme}是说事情很糟糕");
        let (status, again) = explain(&app, id, item, &text, &format!("key{n}")).await;
        assert_eq!(status, StatusCode::OK);
        let (status, _) = explain(&app, id, item, "something else", &format!("key{n}")).await;
        assert_eq!(status, StatusCode::CONFLICT);
        assert_eq!(
            again["feedback"]["server_score"],
            ack["feedback"]["server_score"]
        );
    }
    assert_eq!(app.count("answers").await, 6);

    let (status, results) = app.get(&format!("/api/sessions/{id}/results")).await;
    assert_eq!(status, StatusCode::OK, "{results}");
    let review = results["review"].as_array().unwrap();
    for r in review {
        if r["gold_withheld"] == true {
            assert!(r["detail"]["score"].is_null(), "{r}");
            assert!(r["crowd_accuracy"].is_null(), "{r}");
        } else {
            assert_eq!(r["detail"]["score"]["model"], "tiny-bert");
        }
    }
    if review.iter().any(|r| r["gold_withheld"] == false) {
        assert!(results["you"][0]["mean"].as_f64().is_some());
        assert!(
            results["you"][0]["correct"].is_null(),
            "similarities have no 'correct'"
        );
    }
    let (_, stats) = app.get("/api/quizzes/demo-explain/stats").await;
    assert_eq!(stats["completed_participants"], 1);
    assert_eq!(stats["baseline"]["kind"], "random_pair");
    assert!(
        stats["baseline"]["value"].as_f64().unwrap() > 0.0,
        "the random-pair baseline"
    );
    // Hidden test meanings never appear in any response.
    let text = format!(
        "{results}{stats}{}",
        app.get(&format!("/api/sessions/{id}")).await.1
    );
    for secret in &secrets_seen {
        assert!(!text.contains(secret.as_str()), "leaked: {secret}");
    }
}

async fn without_a_model_explanations_are_still_recorded(db: Db) {
    let (mut settings, dir) = crate::helpers::test_settings(db, true).await;
    settings.model.dir = dir.path().join("no-model");
    let app = TestApp::with_settings(settings, dir).await;
    let (_, session) = app
        .post("/api/quizzes/demo-explain/sessions", start_body(false))
        .await;
    let id = session["session_id"].as_str().unwrap();
    let item = session["items"][0]["item_id"].as_str().unwrap();
    let (status, ack) = explain(&app, id, item, "一个解释", "k").await;
    assert_eq!(status, StatusCode::CREATED);
    assert!(ack["feedback"]["server_score"].is_null());
    let error = ack["feedback"]["scoring_error"].as_str().unwrap();
    assert!(
        error.starts_with("not scored on the server: embedding model not installed"),
        "{error}"
    );
    assert_eq!(app.count("answers").await, 1);
}

/// An attacker who answers hidden test items with their exact reference meaning, or with
/// nonsense, sees the same acknowledgement; the results show no per-item figure for hidden
/// items, only one mean over them rounded to one decimal.
async fn hidden_items_are_no_similarity_oracle(db: Db) {
    if !models_installed() {
        return;
    }
    let app = TestApp::spawn(db).await;
    let items = app.storage().task_items("demo-explain").await.unwrap();
    let hidden_meaning = |id: &str| -> Option<String> {
        let item = items.iter().find(|i| i.id == id).unwrap();
        let gold: Value = serde_json::from_str(&item.gold_json).unwrap();
        (item.split.as_str() != "dev").then(|| gold["meaning"].as_str().unwrap().to_owned())
    };
    let expected = json!({
        "reference": null, "gold_withheld": true, "server_score": null,
        "scoring_error": null, "crowd_scores": [], "scores_with_results": true
    });
    let mut hidden_answered = 0;
    for round in 0..6 {
        let (_, session) = app
            .post("/api/quizzes/demo-explain/sessions", start_body(false))
            .await;
        let id = session["session_id"].as_str().unwrap();
        let mut hidden_here = 0;
        for (n, it) in session["items"].as_array().unwrap().iter().enumerate() {
            let item = it["item_id"].as_str().unwrap();
            let text = match hidden_meaning(item) {
                // The best possible guess for one half, nonsense for the other.
                Some(meaning) if n % 2 == 0 => meaning,
                _ => "完全无关的句子".to_owned(),
            };
            let (status, ack) = explain(&app, id, item, &text, &format!("k{round}-{n}")).await;
            assert_eq!(status, StatusCode::CREATED, "{ack}");
            if hidden_meaning(item).is_some() {
                assert_eq!(ack["feedback"], expected, "hidden item {item}");
                hidden_here += 1;
            }
        }
        let (status, results) = app.get(&format!("/api/sessions/{id}/results")).await;
        assert_eq!(status, StatusCode::OK, "{results}");
        for r in results["review"].as_array().unwrap() {
            if hidden_meaning(r["item_id"].as_str().unwrap()).is_some() {
                assert!(r["detail"]["score"].is_null(), "{r}");
                assert!(r["crowd_accuracy"].is_null(), "{r}");
            }
        }
        // `you` counts open items only; hidden ones come as one rounded mean.
        let open_items = session["items"].as_array().unwrap().len() - hidden_here;
        if open_items > 0 {
            assert_eq!(results["you"][0]["answered"], open_items);
        }
        if hidden_here > 0 {
            let hidden = &results["hidden_items"];
            assert_eq!(hidden["answered"], hidden_here);
            let mean = hidden["mean"].as_f64().unwrap();
            assert!(
                ((mean * 10.0).round() / 10.0 - mean).abs() < 1e-12,
                "{mean}"
            );
        }
        hidden_answered += hidden_here;
        if hidden_answered >= 4 {
            break;
        }
    }
    assert!(
        hidden_answered >= 4,
        "the demo has hidden explanation items"
    );
}

/// Beyond a client's share of scoring on the request path (here none), an explanation is
/// stored and acknowledged in the "scoring…" state, without a score, and the background
/// queue — woken at once, not after its pause — scores it within seconds.
async fn beyond_a_clients_share_explanations_are_scored_in_the_background(db: Db) {
    if !models_installed() {
        return;
    }
    let (mut settings, dir) = crate::helpers::test_settings(db, true).await;
    settings.model.inline_scoring_per_client = 0;
    let app = TestApp::with_settings(settings, dir).await;
    let (_, session) = app
        .post("/api/quizzes/demo-explain/sessions", start_body(false))
        .await;
    let id = session["session_id"].as_str().unwrap();
    let items = session["items"].as_array().unwrap();
    let dev = items
        .iter()
        .map(|i| i["item_id"].as_str().unwrap())
        .collect::<Vec<_>>();
    // The backlog's first pass (at start-up) is over before the answers come.
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    for (n, item) in dev.iter().enumerate() {
        let (status, ack) = explain(&app, id, item, "一个认真的解释", &format!("k{n}")).await;
        assert_eq!(status, StatusCode::CREATED, "{ack}");
        let feedback = &ack["feedback"];
        assert!(feedback["server_score"].is_null(), "{feedback}");
        if feedback["gold_withheld"] == false {
            let why = feedback["scoring_error"].as_str().unwrap_or_default();
            assert!(why.starts_with("Scoring…"), "{feedback}");
        }
    }
    let started = std::time::Instant::now();
    let mut scored = 0;
    while started.elapsed() < std::time::Duration::from_secs(15) {
        scored = 0;
        for item in &dev {
            let (_, scores) = app.storage().find_answer(id, item).await.unwrap().unwrap();
            scored += usize::from(scores.is_some());
        }
        if scored == dev.len() {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    // Within 15 s: a woken pass, not the one after the 20 s pause.
    assert_eq!(scored, dev.len(), "the queue did not score them");
}

on_both_databases!(
    beyond_a_clients_share_explanations_are_scored_in_the_background,
    hidden_items_are_no_similarity_oracle,
    explanations_are_stored_then_scored_and_reveal_only_dev_gold,
    without_a_model_explanations_are_still_recorded,
);

/// Explanations stored while the model was missing are scored in the background once the
/// server starts with one (the answers table is the durable queue), and the drain goes on
/// while it runs.
#[tokio::test]
async fn unscored_explanations_are_scored_after_a_restart_with_the_model() {
    if std::env::var("MEMEBOARD_TEST_MODELS").is_err() {
        return;
    }
    let (mut settings, dir) = crate::helpers::test_settings(Db::Sqlite, true).await;
    // The database outlives the first app's data dir.
    let keep = tempfile::tempdir().unwrap();
    let db_file = keep.path().join("m.db");
    settings.database.url = format!("sqlite://{}?mode=rwc", db_file.display());
    let mut without = settings.clone();
    without.model.dir = dir.path().join("no-model");
    let app = TestApp::with_settings(without, dir).await;
    let (_, session) = app
        .post("/api/quizzes/demo-explain/sessions", start_body(false))
        .await;
    let id = session["session_id"].as_str().unwrap().to_owned();
    let items: Vec<String> = session["items"]
        .as_array()
        .unwrap()
        .iter()
        .take(2)
        .map(|i| i["item_id"].as_str().unwrap().to_owned())
        .collect();
    for (n, item) in items.iter().enumerate() {
        let (status, _) = explain(&app, &id, item, "一个解释", &format!("k{n}")).await;
        assert_eq!(status, StatusCode::CREATED);
    }
    drop(app);
    let mut with = settings;
    with.data.load_demo = false;
    with.data.dir = keep.path().to_owned();
    let app = TestApp::with_settings(with, keep).await;
    let mut scored = 0;
    for _ in 0..100 {
        scored = 0;
        for item in &items {
            let (_, scores) = app.storage().find_answer(&id, item).await.unwrap().unwrap();
            scored += usize::from(scores.is_some());
        }
        if scored == items.len() {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert_eq!(scored, items.len(), "the backlog was not scored");

    // The drain goes on while the server runs: an answer left unscored later (as when the
    // model's queue was full) is scored in a later pass, without a restart.
    let url = format!("sqlite://{}", db_file.display());
    let pool = sqlx::SqlitePool::connect(&url).await.unwrap();
    sqlx::query("UPDATE answers SET score = NULL, scores_json = NULL WHERE session_id = $1 AND item_id = $2")
        .bind(&id)
        .bind(&items[0])
        .execute(&pool)
        .await
        .unwrap();
    pool.close().await;
    let mut again = false;
    for _ in 0..60 {
        tokio::time::sleep(std::time::Duration::from_millis(500)).await;
        let (_, scores) = app
            .storage()
            .find_answer(&id, &items[0])
            .await
            .unwrap()
            .unwrap();
        if scores.is_some() {
            again = true;
            break;
        }
    }
    assert!(again, "an answer unscored after start-up was never scored");
}
