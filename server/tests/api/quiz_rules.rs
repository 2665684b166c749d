//! Refusals: every bad request gets a specific error and changes nothing.

use crate::helpers::{demo_questions, detail, item_ids, start_body, Db, TestApp};
use crate::on_both_databases;
use axum::http::StatusCode;
use serde_json::json;

async fn an_answer_is_recorded_once(db: Db) {
    let app = TestApp::spawn(db).await;
    let session = app.start_demo_session().await;
    let id = session["session_id"].as_str().unwrap();
    let item = &item_ids(&session)[0];

    let (status, first) = app.answer(id, item, 1, "key-1").await;
    assert_eq!(status, StatusCode::CREATED);
    assert_eq!(first["replayed"], false);
    // Same key again (a network retry): acknowledged, nothing new stored.
    let (status, again) = app.answer(id, item, 1, "key-1").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(again["replayed"], true);
    assert_eq!(again["answered"], 1);
    // Another key for the same item: refused, first answer stands.
    let (status, body) = app.answer(id, item, 3, "key-2").await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert_eq!(
        detail(&body),
        format!("item `{item}` is already answered in this session; the first answer stands and nothing new was recorded")
    );
    assert_eq!(body["errors"][0]["code"], "answer.duplicate");
    assert_eq!(body["errors"][0]["params"], json!({"item": item}));
    // The same key for another item: refused.
    let other = &item_ids(&session)[1];
    let (status, body) = app.answer(id, other, 0, "key-1").await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert_eq!(
        detail(&body),
        "idempotency key `key-1` was already used for another item; nothing was recorded"
    );
    assert_eq!(app.count("answers").await, 1);
}

async fn concurrent_duplicate_answers_store_one(db: Db) {
    let app = TestApp::spawn(db).await;
    let session = app.start_demo_session().await;
    let id = session["session_id"].as_str().unwrap();
    let item = item_ids(&session)[0].clone();
    let attempts =
        (0..6).map(|n| app.answer(id, &item, n % 5, if n % 2 == 0 { "same" } else { "other" }));
    let results = crate::helpers::join_all(attempts).await;
    let created = results
        .iter()
        .filter(|(s, _)| *s == StatusCode::CREATED)
        .count();
    assert_eq!(created, 1, "{results:?}");
    assert!(
        results
            .iter()
            .all(|(s, _)| [StatusCode::CREATED, StatusCode::OK, StatusCode::CONFLICT].contains(s)),
        "{results:?}"
    );
    assert_eq!(app.count("answers").await, 1);
}

async fn tampered_ids_are_refused_and_change_nothing(db: Db) {
    let app = TestApp::spawn(db).await;
    let session = app.start_demo_session().await;
    let id = session["session_id"].as_str().unwrap();
    let other = app.start_demo_session().await;
    let before = app.counts().await;

    let (status, body) = app
        .get("/api/sessions/0000000000000000deadbeefdeadbeef")
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(
        body.to_string(),
        r#"{"errors":[{"code":"session.not_found","detail":"no session with id `0000000000000000deadbeefdeadbeef`","params":{"id":"0000000000000000deadbeefdeadbeef"}}]}"#
    );

    let mut tampered = id.to_owned();
    tampered.replace_range(0..1, if id.starts_with('a') { "b" } else { "a" });
    let (status, _) = app.answer(&tampered, &item_ids(&session)[0], 0, "t1").await;
    assert_eq!(status, StatusCode::NOT_FOUND);

    // An item from someone else's batch that is not in this one.
    let foreign = item_ids(&other)
        .into_iter()
        .find(|i| !item_ids(&session).contains(i));
    if let Some(foreign) = foreign {
        let (status, body) = app.answer(id, &foreign, 0, "t2").await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(
            detail(&body),
            format!("item `{foreign}` is not in this session's batch; nothing was recorded")
        );
    }
    let (status, body) = app.answer(id, "mcq-does-not-exist", 0, "t3").await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");

    let (status, body) = app.answer(id, &item_ids(&session)[0], 5, "t4").await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(
        detail(&body),
        "`answer.position`: expected a displayed option position from 0 to 4, found 5"
    );

    assert_eq!(app.counts().await, before);
}

async fn malformed_requests_get_specific_errors(db: Db) {
    let app = TestApp::spawn(db).await;
    let before = app.counts().await;

    let mut no_consent = start_body(false);
    no_consent["consent"] = json!(false);
    let (status, body) = app.post("/api/quizzes/demo-mcq/sessions", no_consent).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(
        detail(&body),
        "`consent`: the instructions and consent must be accepted (true) before starting"
    );

    let mut bad_familiarity = start_body(false);
    bad_familiarity["survey"]["meme_familiarity"] = json!(9);
    let (status, body) = app
        .post("/api/quizzes/demo-mcq/sessions", bad_familiarity)
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(
        detail(&body),
        "survey field `meme_familiarity`: expected an integer from 1 to 5, found 9"
    );

    let mut bad_age = start_body(false);
    bad_age["survey"]["age_range"] = json!("12");
    let (status, body) = app.post("/api/quizzes/demo-mcq/sessions", bad_age).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(
        detail(&body).contains("survey.age_range: unknown variant `12`"),
        "{body}"
    );

    let (status, body) = app
        .post("/api/quizzes/no-such-quiz/sessions", start_body(false))
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(detail(&body), "no open quiz named `no-such-quiz`");

    let (status, body) = app.get("/api/nothing-here").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(detail(&body), "no API endpoint at `/api/nothing-here`");

    assert_eq!(app.counts().await, before);

    let session = app.start_demo_session().await;
    let id = session["session_id"].as_str().unwrap();
    let (status, body) = app
        .post(
            &format!("/api/sessions/{id}/answers"),
            json!({"item_id": "x", "answer": {"kind": "choice", "position": 0}, "response_ms": 5}),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(
        detail(&body).contains("missing field `idempotency_key`"),
        "{body}"
    );
    assert_eq!(app.count("answers").await, 0);
}

async fn opting_out_of_flagged_items_removes_them_from_the_batch(db: Db) {
    let app = TestApp::spawn(db).await;
    let (status, session) = app
        .post("/api/quizzes/demo-mcq/sessions", start_body(true))
        .await;
    assert_eq!(status, StatusCode::CREATED);
    let items = session["items"].as_array().unwrap();
    assert_eq!(items.len(), 24);
    assert!(items.iter().all(|i| i["content_warning"] == false));
    // Without the opt-out, flagged items appear and carry a warning: balanced assignment shows
    // every item once over the first sessions that cover the pool.
    let mut warned = 0;
    for _ in 0..demo_questions().div_ceil(24) {
        let s = app.start_demo_session().await;
        warned += s["items"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|i| i["content_warning"] == true)
            .count();
    }
    assert!(warned > 0);
}

async fn balanced_assignment_spreads_exposure(db: Db) {
    let app = TestApp::spawn(db).await;
    // Batches of 24 covering the demo's items twice: every item is shown exactly twice.
    let sessions = 2 * demo_questions() / 24;
    assert_eq!(sessions * 24, 2 * demo_questions(), "whole batches");
    for _ in 0..sessions {
        app.start_demo_session().await;
    }
    let candidates = app
        .storage()
        .assignment_candidates("demo-mcq", false)
        .await
        .unwrap();
    assert!(
        candidates.iter().all(|c| c.exposures == 2),
        "{:?}",
        candidates.iter().map(|c| c.exposures).collect::<Vec<_>>()
    );
}

async fn health_reports_the_backend(db: Db) {
    let app = TestApp::spawn(db).await;
    let (status, body) = app.get("/healthz").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body["status"], "ok");
    assert_eq!(
        body["database"],
        if db == Db::Sqlite {
            "sqlite"
        } else {
            "postgres"
        }
    );
}

/// Participant ids are shown to participants, so reusing one needs the secret minted with it.
async fn only_the_owner_can_add_sessions_to_a_participant(db: Db) {
    let app = TestApp::spawn(db).await;
    let first = app.start_demo_session().await;
    let pid = first["participant_id"].as_str().unwrap().to_owned();
    let secret = first["participant_secret"].as_str().unwrap().to_owned();
    assert_eq!(secret.len(), 32, "128 random bits, hex");
    let with = |id: Option<&str>, secret: Option<&str>| {
        let mut body = start_body(false);
        if let Some(id) = id {
            body["participant_id"] = json!(id);
        }
        if let Some(s) = secret {
            body["participant_secret"] = json!(s);
        }
        body
    };
    let participants = app.count("participants").await;
    let sessions = app.count("sessions").await;

    // A stranger who knows the id (without or with a wrong secret) is refused; nothing stored.
    for body in [
        with(Some(&pid), None),
        with(Some(&pid), Some("00000000000000000000000000000000")),
    ] {
        let (status, err) = app.post("/api/quizzes/demo-mcq/sessions", body).await;
        assert_eq!(status, StatusCode::FORBIDDEN, "{err}");
        assert_eq!(
            detail(&err),
            "`participant_secret`: missing or wrong for this participant id; start without `participant_id` to take part under a new id"
        );
    }
    assert_eq!(app.count("sessions").await, sessions);

    // The owner attaches a second session; the secret is not sent again.
    let (status, second) = app
        .post(
            "/api/quizzes/demo-explain/sessions",
            with(Some(&pid), Some(&secret)),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{second}");
    assert_eq!(second["participant_id"], pid.as_str());
    assert!(second.get("participant_secret").is_none(), "{second}");
    assert_eq!(app.count("participants").await, participants);

    // Only a hash of the secret is stored.
    let stored = app
        .storage()
        .participant_secret_hash(&pid)
        .await
        .unwrap()
        .unwrap()
        .unwrap();
    assert_ne!(stored, secret);
    assert_eq!(stored.len(), 64);

    // An unknown id gets a fresh participant with its own secret.
    let (status, fresh) = app
        .post(
            "/api/quizzes/demo-mcq/sessions",
            with(Some("P-NOSUCH"), None),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{fresh}");
    assert_ne!(fresh["participant_id"], "P-NOSUCH");
    assert!(fresh["participant_secret"].is_string());
}

/// A participant who finished sees their results instead of a second batch, unless the owner
/// allows retakes; the quiz says which (and how many items are open practice items).
async fn finished_participants_cannot_retake_unless_the_owner_allows(db: Db) {
    let (mut settings, dir) = crate::helpers::test_settings(db, true).await;
    settings.admin.token = "admin-secret".into();
    let app = TestApp::with_settings(settings, dir).await;
    let (_, quiz) = app.get("/api/quizzes/demo-mcq").await;
    assert_eq!(quiz["allow_retake"], false);
    let open = quiz["open_percent"].as_u64().unwrap();
    assert!(open > 0 && open < 100, "{quiz}");
    let first = app.start_demo_session().await;
    let id = first["session_id"].as_str().unwrap();
    for (n, item) in item_ids(&first).iter().enumerate() {
        let (status, _) = app.answer(id, item, 0, &format!("k{n}")).await;
        assert!(status.is_success());
    }
    let again = || {
        let mut body = start_body(false);
        body["participant_id"] = first["participant_id"].clone();
        body["participant_secret"] = first["participant_secret"].clone();
        body
    };
    let (status, body) = app.post("/api/quizzes/demo-mcq/sessions", again()).await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert!(
        detail(&body).contains("has already completed quiz `demo-mcq`"),
        "{body}"
    );
    // Their results stay available.
    let (status, _) = app.get(&format!("/api/sessions/{id}/results")).await;
    assert_eq!(status, StatusCode::OK);
    // The owner allows retakes.
    let req = axum::http::Request::post("/api/admin/tasks/demo-mcq/board")
        .header("authorization", "Bearer admin-secret")
        .header("content-type", "application/json")
        .body(axum::body::Body::from(r#"{"allow_retake": true}"#))
        .unwrap();
    let res = tower::ServiceExt::oneshot(app.app.router(), req)
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    let (_, quiz) = app.get("/api/quizzes/demo-mcq").await;
    assert_eq!(quiz["allow_retake"], true);
    let (status, body) = app.post("/api/quizzes/demo-mcq/sessions", again()).await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    // A finished retake is one more completed session, not one more participant.
    let participants = quiz["completed_participants"].as_u64().unwrap();
    assert!(participants >= 1, "{quiz}");
    let retake = body["session_id"].as_str().unwrap();
    for (n, item) in item_ids(&body).iter().enumerate() {
        let (status, _) = app.answer(retake, item, 0, &format!("k{n}")).await;
        assert!(status.is_success());
    }
    let (_, quiz) = app.get("/api/quizzes/demo-mcq").await;
    assert_eq!(quiz["completed_participants"], participants, "{quiz}");
}

on_both_databases!(
    finished_participants_cannot_retake_unless_the_owner_allows,
    only_the_owner_can_add_sessions_to_a_participant,
    an_answer_is_recorded_once,
    concurrent_duplicate_answers_store_one,
    tampered_ids_are_refused_and_change_nothing,
    malformed_requests_get_specific_errors,
    opting_out_of_flagged_items_removes_them_from_the_batch,
    balanced_assignment_spreads_exposure,
    health_reports_the_backend,
);
