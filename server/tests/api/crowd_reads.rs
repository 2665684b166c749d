//! Crowd-facing requests never read the crowd's answers on their path (issue 28): the crowd
//! statistics, a participant's results, the board and a model's item gaps are computed once
//! per state of the crowd's data, and a request at the same state reads no crowd answer
//! (`Storage::crowd_reads` counts the reads). Each server keeps a copy of the crowd's answers
//! and reads from the database only the sessions changed since its last read
//! (`Storage::crowd_rows_read` counts the rows), equal at every step to a whole read.

use crate::helpers::{test_settings, Db, TestApp};
use crate::leaderboard::{file, new_token, send, upload_with, ADMIN, TASK};
use crate::on_both_databases;
use axum::http::{Method, StatusCode};
use memeboard_core::kinds::text_mcq;
use memeboard_core::tasks::ItemGold;

/// Answers every item of a new demo session correctly; the session's id.
async fn complete_correctly(app: &TestApp) -> String {
    let session = app.start_demo_session().await;
    let id = session["session_id"].as_str().unwrap().to_owned();
    let s = app.storage().find_session(&id).await.unwrap().unwrap();
    for row in app.storage().session_items(&id).await.unwrap() {
        let ItemGold::TextMcq(text_mcq::Gold { correct }) =
            serde_json::from_str(&row.gold_json).unwrap()
        else {
            panic!("a demo MCQ item")
        };
        let order = memeboard_core::assign::option_order(s.seed as u64, &row.item_id, 5);
        let pos = order.iter().position(|&o| o == correct).unwrap();
        let (status, body) = app.answer(&id, &row.item_id, pos, &row.item_id).await;
        assert_eq!(status, StatusCode::CREATED, "{body}");
    }
    id
}

/// Asks every crowd-facing view once: statistics, results, board, the model's item gaps.
async fn ask_everything(app: &TestApp, session: &str, submission: &str) {
    for path in [
        format!("/api/quizzes/{TASK}/stats"),
        format!("/api/sessions/{session}/results"),
        format!("/api/boards/{TASK}"),
    ] {
        let (status, body) = app.get(&path).await;
        assert_eq!(status, StatusCode::OK, "{path}: {body}");
    }
    let path = format!("/api/submissions/{submission}/items");
    let (status, text) = send(app, Method::GET, &path, Some(ADMIN), "", "").await;
    assert_eq!(status, StatusCode::OK, "{path}: {text}");
}

async fn crowd_facing_requests_read_the_crowd_once_per_state_of_its_data(db: Db) {
    let (mut settings, dir) = test_settings(db, true).await;
    settings.quiz.min_crowd_participants = 1;
    settings.quiz.min_crowd_items = 1;
    settings.admin.token = ADMIN.into();
    let app = TestApp::with_settings(settings, dir).await;
    let session = complete_correctly(&app).await;
    complete_correctly(&app).await;
    let token = new_token(&app, "Team R").await;
    let query = "model=Zero&weights=open&parameters=7B&link=https://example.org/paper";
    let (status, body) = upload_with(&app, &token, query, &file(&app, 0).await).await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    let submission = body["submission_id"].as_str().unwrap().to_owned();
    let storage = app.storage();

    ask_everything(&app, &session, &submission).await;
    let computed = storage.crowd_reads();
    assert!(
        computed > 0,
        "the first requests compute from the crowd's answers"
    );
    for _ in 0..3 {
        ask_everything(&app, &session, &submission).await;
    }
    assert_eq!(
        storage.crowd_reads(),
        computed,
        "a crowd-facing request at an unchanged state read the crowd's answers"
    );

    // A new completion is a new state: the figures are computed again, once.
    complete_correctly(&app).await;
    ask_everything(&app, &session, &submission).await;
    let again = storage.crowd_reads();
    assert!(again > computed, "a new completion is computed");
    ask_everything(&app, &session, &submission).await;
    assert_eq!(storage.crowd_reads(), again);
}

on_both_databases!(crowd_facing_requests_read_the_crowd_once_per_state_of_its_data);

/// The crowd's rows as comparable text (session, participant, item, choice, score, familiarity).
async fn rows_of(storage: &memeboard_server::storage::Storage, whole: bool) -> Vec<String> {
    let rows = if whole {
        storage.crowd_responses_read_whole(TASK).await.unwrap()
    } else {
        storage.crowd_responses(TASK).await.unwrap()
    };
    rows.iter()
        .map(|r| {
            format!(
                "{} {} {} {:?} {:?} {:?} {}",
                r.session_id,
                r.participant_id,
                r.item_id,
                r.choice,
                r.score,
                r.familiarity,
                r.hidden
            )
        })
        .collect()
}

/// Brings `app`'s copy of the crowd up to date: the rows it read from the database for it, and
/// the copy checked against a whole read.
async fn rows_read_to_update(app: &TestApp) -> u64 {
    let storage = app.storage();
    let before = storage.crowd_rows_read();
    let kept = rows_of(storage, false).await;
    let read = storage.crowd_rows_read() - before;
    assert_eq!(
        kept,
        rows_of(storage, true).await,
        "the kept copy differs from a whole read"
    );
    read
}

/// Two servers on one database, as a multi-instance deployment runs them.
async fn two_servers(db: Db) -> (TestApp, TestApp) {
    let (mut settings, dir) = test_settings(db, true).await;
    settings.database.max_connections = 16;
    settings.rate_limits.session_starts_per_minute = 0;
    let first = TestApp::with_settings(settings.clone(), dir).await;
    let second_dir = tempfile::tempdir().expect("temp dir");
    settings.database.url = settings.database_url();
    settings.data.dir = second_dir.path().to_owned();
    settings.data.load_demo = false;
    (first, TestApp::with_settings(settings, second_dir).await)
}

/// Two servers on one database, each with its own copy: completions, a score and a deletion
/// made through either are read by both, the completions and the score by reading only the
/// sessions they changed, the deletion by reading the crowd again whole.
async fn each_server_reads_only_the_sessions_changed_since_its_last_read(db: Db) {
    let (first, second) = two_servers(db).await;
    let kept = complete_correctly(&first).await;
    complete_correctly(&second).await;
    let batch = first
        .storage()
        .find_session(&kept)
        .await
        .unwrap()
        .unwrap()
        .batch_size as u64;
    for app in [&first, &second] {
        assert_eq!(
            rows_read_to_update(app).await,
            2 * batch,
            "the first read is whole"
        );
        assert_eq!(
            rows_read_to_update(app).await,
            0,
            "nothing changed, nothing read"
        );
    }

    // A completion on the second server: each copy reads that session's rows only.
    let newest = complete_correctly(&second).await;
    for app in [&first, &second] {
        assert_eq!(rows_read_to_update(app).await, batch);
    }

    // A score stored for a completed session: that session is read again, its new score kept.
    let item = &first.storage().session_items(&newest).await.unwrap()[0].item_id;
    let storage = first.storage();
    storage
        .set_answer_scores(&newest, item, 0.25, "{}")
        .await
        .unwrap();
    for app in [&first, &second] {
        assert_eq!(rows_read_to_update(app).await, batch);
        let rows = app.storage().crowd_responses(TASK).await.unwrap();
        let scored = rows
            .iter()
            .find(|r| *r.session_id == *newest && *r.item_id == **item);
        assert_eq!(scored.and_then(|r| r.score), Some(0.25));
    }

    // A deletion: each copy is read again whole, without the deleted participant's rows; the
    // deleted session's change mark goes with it.
    assert_eq!(first.count("crowd_marks").await, 3);
    let session = serde_json::json!({ "session_id": kept });
    crate::quiz_flow::delete_participant_of(&first, TASK, &session).await;
    assert_eq!(first.count("crowd_marks").await, 2);
    for app in [&first, &second] {
        assert_eq!(
            rows_read_to_update(app).await,
            2 * batch,
            "read whole after a deletion"
        );
        let rows = app.storage().crowd_responses(TASK).await.unwrap();
        assert!(rows.iter().all(|r| *r.session_id != *kept));
    }
}

on_both_databases!(each_server_reads_only_the_sessions_changed_since_its_last_read);

/// Completions committed concurrently on two servers while both bring their copies up to date
/// over and over: a copy never misses a session whose change number is below one it has seen
/// (the changes commit in the order of their numbers), so at the end each equals a whole read.
async fn copies_miss_nothing_while_sessions_complete_concurrently(db: Db) {
    const SESSIONS: usize = 24;
    let (first, second) = two_servers(db).await;
    let apps = [std::sync::Arc::new(first), std::sync::Arc::new(second)];
    let done = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let readers: Vec<_> = apps
        .iter()
        .map(|app| {
            let (app, done) = (app.clone(), done.clone());
            tokio::spawn(async move {
                let mut reads = 0;
                while !done.load(std::sync::atomic::Ordering::Relaxed) {
                    app.storage().crowd_responses(TASK).await.unwrap();
                    reads += 1;
                    tokio::task::yield_now().await;
                }
                reads
            })
        })
        .collect();
    let writers: Vec<_> = (0..SESSIONS)
        .map(|n| {
            let app = apps[n % 2].clone();
            tokio::spawn(async move { complete_correctly(&app).await })
        })
        .collect();
    for writer in writers {
        writer.await.unwrap();
    }
    done.store(true, std::sync::atomic::Ordering::Relaxed);
    for reader in readers {
        assert!(reader.await.unwrap() > 0);
    }
    for app in &apps {
        let kept = rows_of(app.storage(), false).await;
        assert_eq!(kept, rows_of(app.storage(), true).await);
        let sessions: std::collections::HashSet<&str> =
            kept.iter().filter_map(|r| r.split(' ').next()).collect();
        assert_eq!(sessions.len(), SESSIONS);
    }
}

on_both_databases!(copies_miss_nothing_while_sessions_complete_concurrently);

/// Answers every item of a new demo session at display position 0 (straight-lining); its id.
async fn complete_straight(app: &TestApp) -> String {
    let session = app.start_demo_session().await;
    let id = session["session_id"].as_str().unwrap().to_owned();
    for row in app.storage().session_items(&id).await.unwrap() {
        let (status, body) = app.answer(&id, &row.item_id, 0, &row.item_id).await;
        assert_eq!(status, StatusCode::CREATED, "{body}");
    }
    id
}

/// The sessions the kept copy of the sessions' facts excludes, checked against the exclusions
/// computed from a whole read of the fieldwork data; with how many sessions the copy read.
async fn kept_exclusions(app: &TestApp) -> (Vec<String>, u64) {
    use memeboard_server::crowd::quality;
    let storage = app.storage();
    let rules: memeboard_core::fieldwork::QualityRules =
        serde_json::from_value(serde_json::json!({ "straightline_percent": 90 })).unwrap();
    let fieldwork = memeboard_core::fieldwork::FieldworkSettings {
        quality: rules,
        ..Default::default()
    };
    let before = storage.kept_sessions_read();
    let mut kept: Vec<String> = storage
        .with_crowd_session_values(TASK, quality::session_facts, |facts| {
            facts
                .iter()
                .filter(|(_, f)| quality::exclusion(&fieldwork, false, f).is_some())
                .map(|(id, _)| id.clone())
                .collect()
        })
        .await
        .unwrap();
    kept.sort();
    let read = storage.kept_sessions_read() - before;
    let data = storage.fieldwork_data(TASK).await.unwrap();
    let whole: Vec<String> = quality::exclusions_of(&data, &fieldwork, false)
        .into_keys()
        .collect();
    assert_eq!(
        kept, whole,
        "the kept facts exclude other sessions than a whole read"
    );
    (kept, read)
}

/// With exclusion rules on, the sessions' facts behind the crowd's exclusions are kept too:
/// after a new completion only that session's rows are read, and the exclusions equal those
/// of a whole read, on both databases.
async fn the_crowds_exclusions_read_only_the_sessions_changed(db: Db) {
    let (settings, dir) = test_settings(db, true).await;
    let app = TestApp::with_settings(settings, dir).await;
    complete_correctly(&app).await;
    let straight = complete_straight(&app).await;
    assert_eq!(kept_exclusions(&app).await, (vec![straight.clone()], 2));
    assert_eq!(
        kept_exclusions(&app).await.1,
        0,
        "nothing changed, nothing read"
    );
    let another = complete_straight(&app).await;
    complete_correctly(&app).await;
    let (excluded, read) = kept_exclusions(&app).await;
    assert_eq!(read, 2, "only the two new sessions are read");
    let mut expected = vec![straight, another];
    expected.sort();
    assert_eq!(excluded, expected);
}

on_both_databases!(the_crowds_exclusions_read_only_the_sessions_changed);
