//! The answer write under load (SQLite: the group-commit writer; PostgreSQL: one statement per
//! answer): many answers at once across sessions and to one session, each sent twice, are all
//! stored exactly once with one completion code per session; duplicates written in one group
//! are classified against the answer that won; a start resent at once with its key stores
//! one session, beside answers of the same group; one failing answer of a group fails only
//! itself; a failing COMMIT acknowledges nothing of its group, and the writer recovers.

use crate::helpers::{detail, item_ids, join_all, start_body, test_settings, Db, TestApp};
use crate::on_both_databases;
use axum::http::StatusCode;
use memeboard_server::storage::{NewAnswer, NewSession, RecordOutcome, StorageError};
use sqlx::Connection;
use std::collections::BTreeMap;
use std::sync::Arc;

/// An app with room for many session starts and connections.
async fn busy_app(db: Db) -> TestApp {
    let (mut settings, dir) = test_settings(db, true).await;
    settings.database.max_connections = 16;
    settings.rate_limits.session_starts_per_minute = 0;
    TestApp::with_settings(settings, dir).await
}

/// `(session id, item ids)` of `n` fresh demo sessions.
async fn sessions(app: &TestApp, n: usize) -> Vec<(String, Vec<String>)> {
    let mut out = Vec::new();
    for _ in 0..n {
        let session = app.start_demo_session().await;
        let id = session["session_id"].as_str().unwrap().to_owned();
        out.push((id, item_ids(&session)));
    }
    out
}

/// Every answer of 10 sessions, each sent twice, all at the same moment from parallel tasks:
/// each (session, item) is stored once (one 201, one replay), each session completes once,
/// and every response that carries a completion code carries the stored one.
async fn concurrent_answers_and_resends(db: Db) {
    let app = Arc::new(busy_app(db).await);
    let participants_before = completed_participants(&app).await;
    let batch = sessions(&app, 10).await;
    let mut tasks = Vec::new();
    for (id, items) in &batch {
        for (n, item) in items.iter().enumerate() {
            for _copy in 0..2 {
                let (app, id, item) = (app.clone(), id.clone(), item.clone());
                tasks.push(tokio::spawn(async move {
                    let (status, body) = app.answer(&id, &item, n % 5, &format!("k{n}")).await;
                    (id, item, status, body)
                }));
            }
        }
    }
    let mut created: BTreeMap<(String, String), usize> = BTreeMap::new();
    let mut codes: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut completing: BTreeMap<String, usize> = BTreeMap::new();
    for task in tasks {
        let (id, item, status, body) = task.await.expect("task");
        match status {
            StatusCode::CREATED => {
                assert_eq!(body["replayed"], false, "{body}");
                *created.entry((id.clone(), item)).or_default() += 1;
                if body["answered"] == body["total"] {
                    *completing.entry(id.clone()).or_default() += 1;
                }
            }
            StatusCode::OK => assert_eq!(body["replayed"], true, "{body}"),
            other => panic!("{other}: {body}"),
        }
        if let Some(code) = body["completion_code"].as_str() {
            codes.entry(id).or_default().push(code.to_owned());
        }
    }
    let answers: usize = batch.iter().map(|(_, items)| items.len()).sum();
    assert_eq!(created.len(), answers, "every answer stored");
    assert!(created.values().all(|&n| n == 1), "one 201 per answer");
    assert_eq!(app.count("answers").await, answers as i64);
    for (id, items) in &batch {
        let (_, stored) = app.get(&format!("/api/sessions/{id}")).await;
        assert_eq!(stored["status"], "completed", "{stored}");
        assert_eq!(stored["answered"], items.len(), "{stored}");
        let code = stored["completion_code"].as_str().unwrap();
        assert_eq!(completing.get(id), Some(&1), "one answer completes {id}");
        assert!(codes[id].iter().all(|c| c == code), "{id}: {:?}", codes[id]);
    }
    // The task's completion counter, raised by each completing answer, counts each once.
    assert_eq!(completed_participants(&app).await, participants_before + 10);
}

/// The demo quiz's completed participants as listed.
async fn completed_participants(app: &TestApp) -> u64 {
    let (status, quiz) = app.get("/api/quizzes/demo-mcq").await;
    assert_eq!(status, StatusCode::OK, "{quiz}");
    quiz["completed_participants"].as_u64().expect("a count")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn concurrent_answers_and_resends_sqlite() {
    concurrent_answers_and_resends(Db::Sqlite).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn concurrent_answers_and_resends_postgres() {
    if crate::helpers::postgres_available() {
        concurrent_answers_and_resends(Db::Postgres).await;
    }
}

fn answer(session: &str, item: &str, key: &str, choice: i64) -> NewAnswer {
    let id: String = format!("{session}-{item}-{key}-{choice}-{}", unique_suffix());
    NewAnswer {
        id,
        session_id: session.to_owned(),
        item_id: item.to_owned(),
        idempotency_key: key.to_owned(),
        answer_json: format!(r#"{{"kind":"choice","option":{choice}}}"#),
        option_order_json: "[0,1,2,3,4]".into(),
        choice: Some(choice),
        score: Some(0.0),
        response_ms: 1000,
    }
}

/// A unique suffix for answer ids (several copies of one answer in a group).
fn unique_suffix() -> String {
    let mut b = [0u8; 6];
    getrandom::fill(&mut b).expect("randomness");
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// Runs `all` with writes held until its first poll is done: on SQLite every write it queues
/// in that poll lands in one group, in queue order (PostgreSQL holds nothing).
async fn with_writes_held<F: std::future::Future>(app: &TestApp, all: F) -> F::Output {
    let mut held = Some(app.storage().hold_writes().await);
    let mut all = std::pin::pin!(all);
    // The first poll queues every write; the writer goes on once they all are.
    std::future::poll_fn(|cx| {
        let polled = all.as_mut().poll(cx);
        held.take();
        polled
    })
    .await
}

/// Writes answers at the same moment (storage level: on SQLite they are all queued while
/// writes are held, so they land in one group, in this order).
async fn write_together(
    app: &TestApp,
    answers: Vec<NewAnswer>,
) -> Vec<Result<RecordOutcome, StorageError>> {
    let storage = app.storage();
    let all = join_all(
        answers
            .into_iter()
            .map(|a| storage.record_answer(a, "CODE-1".into())),
    );
    with_writes_held(app, all).await
}

/// Two starts with one start key (a resend racing the original) and an answer, at the same
/// moment (on SQLite in one group): one session is stored with its participant and batch, the
/// other start stores nothing (not even its new participant) and gets the stored session's
/// id, and the answer is recorded beside them.
async fn starts_with_one_key_at_once(db: Db) {
    let app = busy_app(db).await;
    let batch = sessions(&app, 1).await;
    let (id, items) = &batch[0];
    let storage = app.storage();
    let task_id = storage.find_session(id).await.unwrap().unwrap().task_id;
    let start = |n: usize| NewSession {
        id: format!("session-{n}-{}", unique_suffix()),
        participant_id: format!("participant-{n}-{}", unique_suffix()),
        task_id: task_id.clone(),
        seed: 7,
        survey_json: "{}".into(),
        prolific_pid: None,
        study_id: None,
        recruitment_session_id: None,
        items: items[..3].to_vec(),
        start_key: Some(format!("one-key-{}", unique_suffix())),
        headphone_json: None,
        attention_checks: 0,
        screen_reason: None,
        pilot: false,
    };
    let first = start(1);
    let resend = NewSession {
        start_key: first.start_key.clone(),
        ..start(2)
    };
    let before = app.counts().await;
    let (a, b, answered) = with_writes_held(&app, async {
        tokio::join!(
            storage.create_session(&first, Some("hash-1")),
            storage.create_session(&resend, Some("hash-2")),
            storage.record_answer(answer(id, &items[0], "k0", 1), "CODE-1".into()),
        )
    })
    .await;
    let (a, b) = (a.unwrap(), b.unwrap());
    let stored = match (&a, &b) {
        (None, Some(winner)) => {
            assert_eq!(*winner, first.id);
            &first
        }
        (Some(winner), None) => {
            assert_eq!(*winner, resend.id);
            &resend
        }
        other => panic!("exactly one start stores its session: {other:?}"),
    };
    if db == Db::Sqlite {
        assert!(a.is_none(), "the first queued start wins on SQLite: {b:?}");
    }
    assert!(
        matches!(answered, Ok(RecordOutcome::Recorded { answered: 1, .. })),
        "{answered:?}"
    );
    let after = app.counts().await;
    let grew = |table: &str| {
        let n = |c: &[(String, i64)]| c.iter().find(|(t, _)| t == table).map(|(_, n)| *n);
        n(&after).unwrap() - n(&before).unwrap()
    };
    assert_eq!(grew("sessions"), 1);
    assert_eq!(grew("participants"), 1);
    assert_eq!(grew("session_items"), 3);
    assert_eq!(grew("answers"), 1);
    let found = storage.find_session(&stored.id).await.unwrap().unwrap();
    assert_eq!(found.participant_id, stored.participant_id);
}

/// In one group: an answer, its resend, its key with another answer, its item under another
/// key, and its key for another item. What is stored is consistent and the others are
/// classified against it (on SQLite the first wins, in queue order).
async fn duplicates_in_one_group(db: Db) {
    let app = busy_app(db).await;
    let batch = sessions(&app, 1).await;
    let (id, items) = &batch[0];
    let (i0, i1) = (&items[0], &items[1]);
    let outcomes = write_together(
        &app,
        vec![
            answer(id, i0, "k0", 1),
            answer(id, i0, "k0", 1),
            answer(id, i0, "k0", 2),
            answer(id, i0, "k1", 1),
            answer(id, i1, "k0", 1),
        ],
    )
    .await;
    let outcomes: Vec<RecordOutcome> = outcomes.into_iter().map(|o| o.unwrap()).collect();
    let recorded: Vec<usize> = (0..outcomes.len())
        .filter(|&n| matches!(outcomes[n], RecordOutcome::Recorded { .. }))
        .collect();
    // Either one of the three `k0` answers to `i0` wins (and the others are refused against
    // it), or `(i0, k1)` and `(i1, k0)` both win: neither conflicts with the other, and
    // PostgreSQL may run them first (SQLite runs the group in queue order).
    assert!(
        [vec![0], vec![1], vec![2], vec![3, 4]].contains(&recorded),
        "{outcomes:?}"
    );
    if db == Db::Sqlite {
        assert_eq!(
            outcomes,
            vec![
                RecordOutcome::Recorded {
                    answered: 1,
                    completion_code: None
                },
                RecordOutcome::Replayed {
                    answered: 1,
                    completion_code: None
                },
                RecordOutcome::KeyReusedWithAnotherAnswer,
                RecordOutcome::AlreadyAnswered,
                RecordOutcome::KeyReused,
            ]
        );
    }
    assert_eq!(app.count("answers").await, recorded.len() as i64);
    let (_, stored) = app.get(&format!("/api/sessions/{id}")).await;
    assert_eq!(stored["answered"], recorded.len(), "{stored}");
}

/// Runs SQL on the app's database directly (test set-up the API has no way to do).
async fn run_sql(url: &str, statements: &[&str]) {
    let mut conn = sqlx::AnyConnection::connect(url).await.expect("connect");
    for sql in statements {
        sqlx::raw_sql(sql).execute(&mut conn).await.expect(sql);
    }
    conn.close().await.ok();
}

/// A trigger that makes the answer with key `poison` fail: `at_commit` defers the failure to
/// the COMMIT (a deferred foreign key to nothing), else its statement fails at once.
async fn poison(db: Db, url: &str, at_commit: bool) {
    match (db, at_commit) {
        (Db::Sqlite, true) => {
            run_sql(url, &[
                "CREATE TABLE gate_parent (id TEXT PRIMARY KEY)",
                "CREATE TABLE gate (answer_id TEXT REFERENCES gate_parent (id) DEFERRABLE INITIALLY DEFERRED)",
                "CREATE TRIGGER poison AFTER INSERT ON answers WHEN NEW.idempotency_key = 'poison' \
                 BEGIN INSERT INTO gate VALUES (NEW.id); END",
            ]).await;
        }
        (Db::Sqlite, false) => {
            run_sql(url, &[
                "CREATE TRIGGER poison BEFORE INSERT ON answers WHEN NEW.idempotency_key = 'poison' \
                 BEGIN SELECT RAISE(ABORT, 'poisoned answer'); END",
            ]).await;
        }
        (Db::Postgres, at_commit) => {
            let deferral = if at_commit {
                "DEFERRABLE INITIALLY DEFERRED"
            } else {
                ""
            };
            run_sql(
                url,
                &[
                    "CREATE FUNCTION poison() RETURNS trigger LANGUAGE plpgsql AS $$ \
                 BEGIN IF NEW.idempotency_key = 'poison' THEN RAISE EXCEPTION 'poisoned answer'; \
                 END IF; RETURN NEW; END $$",
                    &format!(
                        "CREATE CONSTRAINT TRIGGER poison AFTER INSERT ON answers {deferral} \
                 FOR EACH ROW EXECUTE FUNCTION poison()"
                    ),
                ],
            )
            .await;
        }
    }
}

async fn cure(db: Db, url: &str) {
    match db {
        Db::Sqlite => run_sql(url, &["DROP TRIGGER poison"]).await,
        Db::Postgres => run_sql(url, &["DROP TRIGGER poison ON answers"]).await,
    }
}

/// Answers recorded in a session, as the API reports them.
async fn answered(app: &TestApp, id: &str) -> i64 {
    let (_, stored) = app.get(&format!("/api/sessions/{id}")).await;
    stored["answered"].as_i64().unwrap()
}

/// An app with three fresh demo sessions, and its database URL (for [`poison`]).
async fn three_sessions(db: Db) -> (TestApp, String, Vec<(String, Vec<String>)>) {
    let (mut settings, dir) = test_settings(db, true).await;
    settings.rate_limits.session_starts_per_minute = 0;
    let url = settings.database_url();
    let app = TestApp::with_settings(settings, dir).await;
    let batch = sessions(&app, 3).await;
    (app, url, batch)
}

/// The group of the poison tests: the first item of each of the three sessions, the second
/// one under the key `poison`.
fn poisoned_group(batch: &[(String, Vec<String>)]) -> Vec<NewAnswer> {
    let key = |n| if n == 1 { "poison" } else { "k0" };
    (0..3)
        .map(|n| answer(&batch[n].0, &batch[n].1[0], key(n), 1))
        .collect()
}

/// One answer whose statement fails is refused (not recorded); the others of its group are
/// stored, and it is stored once resent after the cause is gone.
async fn a_failing_answer_fails_only_itself(db: Db) {
    let (app, url, batch) = three_sessions(db).await;
    poison(db, &url, false).await;
    let (s1, i1) = (&batch[1].0, &batch[1].1[0]);
    let outcomes = write_together(&app, poisoned_group(&batch)).await;
    assert!(
        matches!(outcomes[0], Ok(RecordOutcome::Recorded { .. })),
        "{outcomes:?}"
    );
    assert!(
        matches!(outcomes[1], Err(StorageError::NotRecorded(_))),
        "{outcomes:?}"
    );
    assert!(
        matches!(outcomes[2], Ok(RecordOutcome::Recorded { .. })),
        "{outcomes:?}"
    );
    assert_eq!(app.count("answers").await, 2);
    assert_eq!(answered(&app, s1).await, 0);
    cure(db, &url).await;
    let again = write_together(&app, vec![answer(s1, i1, "poison", 1)]).await;
    assert!(
        matches!(again[0], Ok(RecordOutcome::Recorded { answered: 1, .. })),
        "{again:?}"
    );
    assert_eq!(app.count("answers").await, 3);
}

/// A COMMIT that fails acknowledges nothing of what it would have stored: on SQLite the whole
/// group is refused (503 for each answer over HTTP), nothing of it is stored, and the writer
/// takes the resent answers on a new connection; on PostgreSQL each answer commits alone, so
/// only the poisoned one is refused.
async fn a_failing_commit_acknowledges_nothing(db: Db) {
    let (app, url, batch) = three_sessions(db).await;
    // One answer stored before: it must survive the failed group.
    let (status, _) = app.answer(&batch[0].0, &batch[0].1[1], 0, "before").await;
    assert_eq!(status, StatusCode::CREATED);
    poison(db, &url, true).await;
    let [(s0, _), (s1, i1)] = [0, 1].map(|n| (&batch[n].0, &batch[n].1[0]));
    let outcomes = write_together(&app, poisoned_group(&batch)).await;
    assert!(
        matches!(outcomes[1], Err(StorageError::NotRecorded(_))),
        "{outcomes:?}"
    );
    let stored_others = match db {
        Db::Sqlite => {
            assert!(
                outcomes
                    .iter()
                    .all(|o| matches!(o, Err(StorageError::NotRecorded(_)))),
                "{outcomes:?}"
            );
            0
        }
        Db::Postgres => {
            assert!(
                matches!(outcomes[0], Ok(RecordOutcome::Recorded { .. })),
                "{outcomes:?}"
            );
            assert!(
                matches!(outcomes[2], Ok(RecordOutcome::Recorded { .. })),
                "{outcomes:?}"
            );
            2
        }
    };
    assert_eq!(app.count("answers").await, 1 + stored_others);
    assert_eq!(answered(&app, s1).await, 0);
    // Over HTTP the refusal is a retryable 503.
    let (status, body) = app.answer(s1, i1, 0, "poison").await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{body}");
    cure(db, &url).await;
    // Resent: all stored now, once each (a resend of one stored on PostgreSQL is a replay).
    let again = write_together(&app, poisoned_group(&batch)).await;
    assert!(
        again.iter().all(|o| matches!(
            o,
            Ok(RecordOutcome::Recorded { .. } | RecordOutcome::Replayed { .. })
        )),
        "{again:?}"
    );
    assert_eq!(app.count("answers").await, 4);
    assert_eq!(answered(&app, s0).await, 2);
}

/// A start whose group cannot be committed is refused in its own words (503, retryable),
/// stores nothing, and is stored when resent with its key once the cause is gone.
#[tokio::test]
async fn a_start_that_cannot_be_stored_is_refused_then_resent() {
    let (app, url, _) = three_sessions(Db::Sqlite).await;
    run_sql(&url, &[
        "CREATE TABLE gate_parent (id TEXT PRIMARY KEY)",
        "CREATE TABLE gate (session_id TEXT REFERENCES gate_parent (id) DEFERRABLE INITIALLY DEFERRED)",
        "CREATE TRIGGER poison_start AFTER INSERT ON sessions WHEN NEW.start_key = 'poisoned-start' \
         BEGIN INSERT INTO gate VALUES (NEW.id); END",
    ])
    .await;
    let before = app.counts().await;
    let mut body = start_body(false);
    body["start_key"] = "poisoned-start".into();
    let (status, refused) = app
        .post("/api/quizzes/demo-mcq/sessions", body.clone())
        .await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{refused}");
    assert!(
        detail(&refused).contains("session was not started"),
        "{refused}"
    );
    assert_eq!(
        app.counts().await,
        before,
        "a refused start stored something"
    );
    run_sql(&url, &["DROP TRIGGER poison_start"]).await;
    let (status, started) = app.post("/api/quizzes/demo-mcq/sessions", body).await;
    assert_eq!(status, StatusCode::CREATED, "{started}");
    assert_eq!(app.count("sessions").await, 4);
}

on_both_databases!(
    duplicates_in_one_group,
    starts_with_one_key_at_once,
    a_failing_answer_fails_only_itself,
    a_failing_commit_acknowledges_nothing,
);
