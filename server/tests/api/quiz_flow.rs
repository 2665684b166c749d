//! The whole quiz protocol through the API: start, answer, resume, results, crowd rows, and
//! the guarantee that no gold reaches a client before its batch is finished.

use crate::helpers::{demo_questions, detail, item_ids, Db, TestApp};
use crate::on_both_databases;
use axum::http::StatusCode;
use memeboard_core::assign::option_order;
use memeboard_core::kinds::text_mcq;
use memeboard_core::tasks::ItemGold;
use serde_json::Value;
use std::collections::HashMap;

/// Display position of the correct option for each item of a session (read from storage, as
/// only the server can).
async fn correct_positions(app: &TestApp, session_id: &str) -> HashMap<String, usize> {
    let session = app
        .storage()
        .find_session(session_id)
        .await
        .unwrap()
        .unwrap();
    let rows = app.storage().session_items(session_id).await.unwrap();
    rows.iter()
        .map(|r| {
            let ItemGold::TextMcq(text_mcq::Gold { correct }) =
                serde_json::from_str(&r.gold_json).unwrap()
            else {
                panic!("choice gold expected")
            };
            let order = option_order(session.seed as u64, &r.item_id, 5);
            (
                r.item_id.clone(),
                order.iter().position(|&o| o == correct).unwrap(),
            )
        })
        .collect()
}

async fn complete_session(app: &TestApp, session: &Value, right: usize) -> Value {
    let id = session["session_id"].as_str().unwrap();
    let correct = correct_positions(app, id).await;
    let mut last = Value::Null;
    for (n, item) in item_ids(session).iter().enumerate() {
        let position = if n < right {
            correct[item]
        } else {
            (correct[item] + 1) % 5
        };
        let (status, body) = app.answer(id, item, position, &format!("key-{item}")).await;
        assert_eq!(status, StatusCode::CREATED, "{body}");
        last = body;
    }
    last
}

async fn full_quiz_flow_scores_and_reports_the_crowd(db: Db) {
    // The crowd arithmetic, exact: every participant counts at once, unrounded (the published
    // bounds on hidden items are tested in `disclosure`).
    let (mut settings, dir) = crate::helpers::test_settings(db, true).await;
    settings.quiz.min_crowd_participants = 1;
    settings.quiz.min_crowd_items = 1;
    settings.quiz.crowd_snapshot_step = 1;
    settings.quiz.crowd_noise = 0.0;
    settings.quiz.crowd_grid = 0.0;
    let app = TestApp::with_settings(settings, dir).await;
    let (status, quizzes) = app.get("/api/quizzes").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(quizzes[0]["slug"], "demo-mcq");
    assert_eq!(quizzes[0]["item_count"], demo_questions());
    assert_eq!(quizzes[0]["batch_size"], 24);
    assert_eq!(quizzes[0]["categories"].as_array().unwrap().len(), 6);

    let session = app.start_demo_session().await;
    assert_eq!(session["items"].as_array().unwrap().len(), 24);
    assert_eq!(session["next_position"], 0);
    // Balanced: 4 per meme type.
    let mut per_type: HashMap<String, usize> = HashMap::new();
    for item in session["items"].as_array().unwrap() {
        *per_type
            .entry(item["category"].as_str().unwrap().to_owned())
            .or_default() += 1;
    }
    assert!(per_type.values().all(|&n| n == 4), "{per_type:?}");

    let last = complete_session(&app, &session, 18).await;
    assert_eq!(last["answered"], 24);
    let code = last["completion_code"]
        .as_str()
        .expect("completion code after the last answer");
    assert_eq!(code.len(), 8);

    let id = session["session_id"].as_str().unwrap();
    let (status, results) = app.get(&format!("/api/sessions/{id}/results")).await;
    assert_eq!(status, StatusCode::OK, "{results}");
    assert_eq!(results["completion_code"], code);
    assert_eq!(results["task_kind"], "text_mcq");
    assert_eq!(results["scale"], "correctness");
    assert_eq!(results["review"].as_array().unwrap().len(), 24);
    // Gold is shown for open dev items only; hidden test items keep theirs on the server.
    let review = results["review"].as_array().unwrap();
    let dev: Vec<&Value> = review
        .iter()
        .filter(|r| r["gold_withheld"] == false)
        .collect();
    assert!(
        !dev.is_empty() && dev.len() < 24,
        "the demo has both splits"
    );
    // Own scores count the open items only (a score over hidden items would let retakes
    // probe their answers); the rest are reported as held out.
    let right = dev
        .iter()
        .filter(|r| r["detail"]["chosen_position"] == r["detail"]["correct_position"])
        .count();
    assert_eq!(results["you"][0]["answered"], dev.len());
    assert_eq!(results["you"][0]["correct"], right);
    let mean = results["you"][0]["mean"].as_f64().unwrap();
    assert!(
        (mean - right as f64 / dev.len() as f64).abs() < 1e-12,
        "{mean}"
    );
    assert_eq!(results["held_out"], 24 - dev.len());
    for r in &dev {
        assert_eq!(r["detail"]["kind"], "text_mcq");
        assert!(r["detail"]["correct_position"].as_u64().is_some());
        assert_eq!(
            r["detail"]["correct"],
            r["detail"]["chosen_position"] == r["detail"]["correct_position"]
        );
        // The meaning is the explanation task's gold: shown only where that item is dev too
        // (checked in integrity.rs).
        let meaning = &r["detail"]["meaning"];
        assert!(meaning.is_null() || meaning.as_str().is_some_and(|m| !m.is_empty()));
    }
    for r in review.iter().filter(|r| r["gold_withheld"] == true) {
        let d = &r["detail"];
        assert!(
            d["correct_position"].is_null() && d["meaning"].is_null() && d["correct"].is_null(),
            "{r}"
        );
    }
    let first_right = review.iter().find(|r| r["position"] == 0).unwrap();
    if first_right["gold_withheld"] == false {
        assert_eq!(
            first_right["detail"]["chosen_position"],
            first_right["detail"]["correct_position"]
        );
    }

    // A second participant, all right: human average 0.875, best 1.0, pooled 0.875.
    let other = app.start_demo_session().await;
    complete_session(&app, &other, 24).await;
    let (_, stats) = app.get("/api/quizzes/demo-mcq/stats").await;
    assert_eq!(stats["completed_participants"], 2);
    let overall = &stats["rows"][0];
    assert_eq!(overall["participants"], 2);
    assert_eq!(overall["human_average"]["value"], 0.875);
    assert_eq!(overall["human_best"]["value"], 1.0);
    assert_eq!(overall["pooled"]["value"], 0.875);
    let avg = &overall["human_average"];
    assert!(avg["ci_low"].as_f64().unwrap() <= 0.875 && avg["ci_high"].as_f64().unwrap() >= 0.875);
    assert_eq!(stats["rows"].as_array().unwrap().len(), 7);
    assert_eq!(stats["baseline"]["kind"], "chance");
    assert_eq!(stats["baseline"]["value"], 0.2);
    let agreement = stats["agreement"].as_array().unwrap();
    assert_eq!(agreement[0]["dimension"], "choice");
    assert_eq!(agreement[0]["level"], "nominal");

    // Recruitment ids were recorded with the session.
    let (_, quiz) = app.get("/api/quizzes/demo-mcq").await;
    assert_eq!(quiz["completed_participants"], 2);
}

async fn reload_resumes_at_the_next_unanswered_item(db: Db) {
    let app = TestApp::spawn(db).await;
    let session = app.start_demo_session().await;
    let id = session["session_id"].as_str().unwrap();
    let items = item_ids(&session);
    for item in &items[..5] {
        let (status, _) = app.answer(id, item, 2, &format!("k-{item}")).await;
        assert_eq!(status, StatusCode::CREATED);
    }
    let (status, resumed) = app.get(&format!("/api/sessions/{id}")).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(resumed["answered"], 5);
    assert_eq!(resumed["next_position"], 5);
    assert_eq!(resumed["status"], "in_progress");
    assert!(resumed["completion_code"].is_null());
    // Same batch, same option order as first shown.
    assert_eq!(resumed["items"], {
        let mut expected = session["items"].clone();
        for item in expected.as_array_mut().unwrap().iter_mut().take(5) {
            item["answered"] = Value::Bool(true);
        }
        expected
    });
    // Results stay closed until the batch is done.
    let (status, body) = app.get(&format!("/api/sessions/{id}/results")).await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert_eq!(
        detail(&body),
        "results are shown once the whole batch is answered: 19 of 24 item(s) still unanswered"
    );
}

/// Keys that would carry gold or correctness.
const GOLD_KEYS: &[&str] = &[
    "correct",
    "correct_position",
    "correct_answer",
    "gold",
    "meaning",
    "origin",
    "score",
    "review",
    "crowd_accuracy",
    "chosen_position",
];

fn assert_no_gold(what: &str, body: &Value, secrets: &[String]) {
    fn walk(v: &Value, found: &mut Vec<String>) {
        match v {
            Value::Object(map) => {
                for (k, v) in map {
                    if GOLD_KEYS.contains(&k.as_str()) {
                        found.push(k.clone());
                    }
                    walk(v, found);
                }
            }
            Value::Array(a) => a.iter().for_each(|v| walk(v, found)),
            _ => {}
        }
    }
    let mut found = Vec::new();
    walk(body, &mut found);
    assert!(
        found.is_empty(),
        "{what} exposes gold-bearing keys {found:?}: {body}"
    );
    let text = body.to_string();
    for s in secrets {
        assert!(
            !text.contains(s.as_str()),
            "{what} exposes a gold meaning/origin: {s}"
        );
    }
}

async fn no_endpoint_reveals_gold_of_unanswered_items(db: Db) {
    let app = TestApp::spawn(db).await;
    let memes: Vec<Value> = serde_json::from_str(memeboard_server::demo::DEMO_MEMES).unwrap();
    let secrets: Vec<String> = memes
        .iter()
        .flat_map(|m| [m["meaning"].as_str(), m["origin"].as_str()])
        .flatten()
        .map(str::to_owned)
        .collect();

    // Someone else finished a batch, so crowd stats are non-empty.
    let done = app.start_demo_session().await;
    complete_session(&app, &done, 12).await;

    let session = app.start_demo_session().await;
    assert_no_gold("POST sessions", &session, &secrets);
    let id = session["session_id"].as_str().unwrap().to_owned();
    let items = item_ids(&session);
    let correct = correct_positions(&app, &id).await;

    let mut bodies = Vec::new();
    // A right and a wrong answer must be acknowledged identically (no side channel).
    let (_, right) = app.answer(&id, &items[0], correct[&items[0]], "a").await;
    let (_, wrong) = app
        .answer(&id, &items[1], (correct[&items[1]] + 1) % 5, "b")
        .await;
    assert_eq!(
        right.as_object().unwrap().keys().collect::<Vec<_>>(),
        wrong.as_object().unwrap().keys().collect::<Vec<_>>()
    );
    assert_eq!(
        (right["recorded"].clone(), right["total"].clone()),
        (wrong["recorded"].clone(), wrong["total"].clone())
    );
    bodies.push(("answer (right)", right));
    bodies.push(("answer (wrong)", wrong));
    bodies.push((
        "replayed answer",
        app.answer(&id, &items[0], correct[&items[0]], "a").await.1,
    ));
    bodies.push(("double answer", app.answer(&id, &items[0], 0, "c").await.1));
    for path in [
        "/api/quizzes".to_owned(),
        "/api/quizzes/demo-mcq".to_owned(),
        "/api/quizzes/demo-mcq/stats".to_owned(),
        format!("/api/sessions/{id}"),
        format!("/api/sessions/{id}/results"),
        "/healthz".to_owned(),
    ] {
        bodies.push(("GET", app.get(&path).await.1));
    }
    for (what, body) in &bodies {
        assert_no_gold(what, body, &secrets);
    }
    // Crowd stats name no items at all.
    let stats = app.get("/api/quizzes/demo-mcq/stats").await.1.to_string();
    assert!(items.iter().all(|i| !stats.contains(i.as_str())));
}

/// With a crowd refresh interval, the fingerprint that decides whether crowd figures are
/// recomputed is read at most once per interval: a completion
/// shows after the interval, not on the next request; an owner's deletion shows at once.
async fn crowd_figures_follow_completions_within_the_refresh_interval(db: Db) {
    let app = TestApp::spawn(db).await;
    let storage = app.storage();
    storage.set_crowd_refresh(std::time::Duration::from_millis(1500));
    let task = "demo-mcq";
    let before = storage.crowd_fingerprint(task).await.unwrap();
    let session = app.start_demo_session().await;
    complete_session(&app, &session, 3).await;
    assert_eq!(
        storage.crowd_fingerprint(task).await.unwrap(),
        before,
        "read again within the interval"
    );
    tokio::time::sleep(std::time::Duration::from_millis(1600)).await;
    let after = storage.crowd_fingerprint(task).await.unwrap();
    assert_ne!(after, before, "the completion shows after the interval");
    // A write the owner expects to see at once forgets the memo.
    delete_participant_of(&app, task, &session).await;
    assert_ne!(storage.crowd_fingerprint(task).await.unwrap(), after);
}

/// Deletes the participant of `session` from the benchmark of `task` (the owner's deletion).
pub(crate) async fn delete_participant_of(app: &TestApp, task: &str, session: &Value) {
    let storage = app.storage();
    let benchmark = storage
        .find_board_task(task)
        .await
        .unwrap()
        .unwrap()
        .task
        .benchmark_id;
    let participant = storage
        .find_session(session["session_id"].as_str().unwrap())
        .await
        .unwrap()
        .unwrap()
        .participant_id;
    storage
        .delete_participants(&benchmark, &[participant])
        .await
        .unwrap();
}

/// The crowd's completed participants as `/stats` gives them.
async fn stats_participants(app: &TestApp) -> u64 {
    let (status, stats) = app.get("/api/quizzes/demo-mcq/stats").await;
    assert_eq!(status, StatusCode::OK, "{stats}");
    stats["completed_participants"].as_u64().expect("a count")
}

/// With a refresh interval, a request after new completions gets the stored figures at once
/// (with the participant count they were computed from) while one background task computes
/// the new ones, which follow shortly. A deletion is never served stale: the request after
/// it waits for figures without the deleted participant.
async fn grown_crowd_figures_are_recomputed_in_the_background(db: Db) {
    let app = TestApp::spawn(db).await;
    let storage = app.storage();
    storage.set_crowd_refresh(std::time::Duration::from_millis(1));
    let first = app.start_demo_session().await;
    complete_session(&app, &first, 3).await;
    let before = stats_participants(&app).await;
    let second = app.start_demo_session().await;
    complete_session(&app, &second, 2).await;
    tokio::time::sleep(std::time::Duration::from_millis(5)).await;
    assert_eq!(
        stats_participants(&app).await,
        before,
        "the stored figures, at once"
    );
    let mut now = before;
    for _ in 0..200 {
        now = stats_participants(&app).await;
        if now != before {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    assert_eq!(now, before + 1, "the new figures follow");
    delete_participant_of(&app, "demo-mcq", &second).await;
    assert_eq!(
        stats_participants(&app).await,
        before,
        "a deletion shows at once"
    );
}

/// The crowd fingerprint is one row of counters that the writes keep, not a count over the
/// answers: it changes whenever the crowd data counted over the answers does, and not for an
/// unfinished session (its answers, its checks, its scores). A new score for an answer of a
/// completed session changes it too, although the count of scored answers stays the same.
async fn the_crowd_fingerprint_changes_exactly_when_the_crowd_data_does(db: Db) {
    let app = TestApp::spawn(db).await;
    let storage = app.storage();
    let task = "demo-mcq";
    let state = || async {
        (
            storage.crowd_fingerprint(task).await.unwrap(),
            storage.count_crowd_data(task).await.unwrap(),
        )
    };
    let mut last = state().await;
    // Whether the fingerprint and the counted data changed since the last call.
    let mut expect = |now: (_, [i64; 4]), changed: (bool, bool), what| {
        assert_eq!(now.0 != last.0, changed.0, "fingerprint after {what}");
        assert_eq!(now.1 != last.1, changed.1, "counted data after {what}");
        last = now;
    };
    let session = app.start_demo_session().await;
    let id = session["session_id"].as_str().unwrap();
    let items = item_ids(&session);
    let (status, body) = app.answer(id, &items[0], 0, "first").await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    let rescore = |n: usize, score| storage.set_answer_scores(id, &items[n], score, "{}");
    rescore(0, 0.25).await.unwrap();
    storage.record_check(id, 90, 1, true, 800).await.unwrap();
    let unfinished = "an unfinished session's answer, score and check";
    expect(state().await, (false, false), unfinished);
    for (n, item) in items.iter().enumerate().skip(1) {
        let (status, body) = app.answer(id, item, n % 5, &format!("k{n}")).await;
        assert_eq!(status, StatusCode::CREATED, "{body}");
    }
    expect(state().await, (true, true), "the completion");
    rescore(1, 0.5).await.unwrap();
    expect(
        state().await,
        (true, false),
        "a new score for a completed session",
    );
    storage.record_check(id, 91, 0, false, 700).await.unwrap();
    expect(
        state().await,
        (true, true),
        "a check answered for a completed session",
    );
    storage.record_check(id, 91, 0, false, 700).await.unwrap();
    expect(
        state().await,
        (false, false),
        "the same check again (stored once)",
    );
}

on_both_databases!(
    the_crowd_fingerprint_changes_exactly_when_the_crowd_data_does,
    grown_crowd_figures_are_recomputed_in_the_background,
    crowd_figures_follow_completions_within_the_refresh_interval,
    full_quiz_flow_scores_and_reports_the_crowd,
    reload_resumes_at_the_next_unanswered_item,
    no_endpoint_reveals_gold_of_unanswered_items,
);
