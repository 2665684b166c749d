//! Owners and studies: owner tokens scoped to one benchmark, the console and its action log,
//! the participant target, the Prolific hand-off and screen-out, one participation per
//! Prolific id, attention checks and the exclusions they cause in the human rows, and the
//! live progress view.

use crate::helpers::{
    demo_questions, detail, item_ids, start_body, sum_of, test_settings, Db, TestApp,
};
use crate::on_both_databases;
use axum::body::Body;
use axum::http::{Method, StatusCode};
use serde_json::{json, Value};

pub(crate) const ADMIN: &str = "admin-secret-for-owner-tests";
pub(crate) const TASK: &str = "demo-mcq";

pub(crate) async fn owner_app(db: Db) -> TestApp {
    let (mut settings, dir) = test_settings(db, true).await;
    settings.admin.token = ADMIN.into();
    // Exclusions are checked on the public human rows with one or two people: counted at
    // once (the public bounds are tested in `disclosure`).
    crate::export::exact_crowd(&mut settings);
    TestApp::with_settings(settings, dir).await
}

/// A request with an optional bearer token.
pub(crate) async fn call(
    app: &TestApp,
    method: Method,
    path: &str,
    token: Option<&str>,
    body: Option<Value>,
) -> (StatusCode, Value) {
    app.call(method, path, token, body).await
}

/// The task's owner console as `token` sees it.
async fn owner_console(app: &TestApp, token: &str) -> (StatusCode, Value) {
    call(
        app,
        Method::GET,
        &format!("/api/owner/tasks/{TASK}/console"),
        Some(token),
        None,
    )
    .await
}

async fn create_owner(app: &TestApp, benchmark: &str, name: &str) -> String {
    let (status, body) = call(
        app,
        Method::POST,
        "/api/admin/owners",
        Some(ADMIN),
        Some(json!({"benchmark": benchmark, "name": name})),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    body["token"].as_str().unwrap().to_owned()
}

/// The console's current settings with `edit` applied, written back.
pub(crate) async fn set(
    app: &TestApp,
    token: &str,
    edit: impl FnOnce(&mut Value),
) -> (StatusCode, Value) {
    let (status, console) = owner_console(app, token).await;
    assert_eq!(status, StatusCode::OK, "{console}");
    let mut settings = console["settings"].clone();
    edit(&mut settings);
    call(
        app,
        Method::PUT,
        &format!("/api/owner/tasks/{TASK}/settings"),
        Some(token),
        Some(settings),
    )
    .await
}

/// A start body with its own Prolific id.
fn start_with_pid(pid: &str, key: &str) -> Value {
    let mut body = start_body(false);
    body["recruitment"]["prolific_pid"] = json!(pid);
    body["start_key"] = json!(key);
    body
}

/// Answers every check (right, or wrong when `fail_checks`) and every item (at display
/// position `position`); returns the last answer's response.
pub(crate) async fn finish(
    app: &TestApp,
    session: &Value,
    fail_checks: bool,
    position: usize,
) -> Value {
    let id = session["session_id"].as_str().unwrap();
    for check in session["checks"].as_array().cloned().unwrap_or_default() {
        let target = check["target"].as_u64().unwrap();
        let choice = if fail_checks {
            (target + 1) % 5
        } else {
            target
        };
        let (status, body) = app
            .post(
                &format!("/api/sessions/{id}/checks"),
                json!({"index": check["index"], "choice": choice, "response_ms": 2000}),
            )
            .await;
        assert_eq!(status, StatusCode::CREATED, "{body}");
    }
    let mut last = Value::Null;
    for (n, item) in item_ids(session).iter().enumerate() {
        let (status, body) = app.answer(id, item, position, &format!("k{n}")).await;
        assert_eq!(status, StatusCode::CREATED, "{body}");
        last = body;
    }
    last
}

async fn owners_are_scoped_to_their_benchmark(db: Db) {
    let app = owner_app(db).await;
    let owner = create_owner(&app, "demo", "Lab A").await;
    let other = create_owner(&app, "demo-panel", "Lab B").await;
    let console = format!("/api/owner/tasks/{TASK}/console");

    assert_eq!(
        call(&app, Method::GET, &console, None, None).await.0,
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(
        call(&app, Method::GET, &console, Some("mbo_wrong"), None)
            .await
            .0,
        StatusCode::UNAUTHORIZED
    );
    let (status, body) = call(&app, Method::GET, &console, Some(&other), None).await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{body}");
    assert_eq!(
        detail(&body),
        "this owner token manages benchmark `demo-panel`; task `demo-mcq` belongs to benchmark `demo`"
    );
    // Another benchmark's owner cannot change settings, progress or board switches either.
    let (status, _) = set(&app, &owner, |s| s["study"]["attention_checks"] = json!(1)).await;
    assert_eq!(status, StatusCode::OK);
    let (status, _) = call(
        &app,
        Method::PUT,
        &format!("/api/owner/tasks/{TASK}/settings"),
        Some(&other),
        Some(json!({"quiz_open": false, "batch_size": 6, "allow_retake": false, "exclude_failed_checks": false, "study": {}})),
    )
    .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    for path in [format!("/api/owner/tasks/{TASK}/progress")] {
        assert_eq!(
            call(&app, Method::GET, &path, Some(&other), None).await.0,
            StatusCode::FORBIDDEN
        );
    }
    let board = format!("/api/admin/tasks/{TASK}/board");
    let (status, _) = call(
        &app,
        Method::POST,
        &board,
        Some(&other),
        Some(json!({"allow_retake": true})),
    )
    .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    // The quiz is still open: nothing changed.
    assert_eq!(
        app.get(&format!("/api/quizzes/{TASK}")).await.0,
        StatusCode::OK
    );
    // The task's own owner may flip the board switches; the admin may do everything.
    let (status, body) = call(
        &app,
        Method::POST,
        &board,
        Some(&owner),
        Some(json!({"allow_retake": true})),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let (status, _) = call(
        &app,
        Method::GET,
        "/api/owner/tasks/demo-panel-order/console",
        Some(ADMIN),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    // Each token lists only its own tasks.
    let (_, tasks) = call(&app, Method::GET, "/api/owner/tasks", Some(&owner), None).await;
    let slugs: Vec<&str> = tasks
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["slug"].as_str().unwrap())
        .collect();
    assert!(
        slugs.contains(&TASK) && slugs.iter().all(|s| !s.starts_with("demo-panel")),
        "{slugs:?}"
    );
    // Only the admin creates owners.
    let (status, _) = call(
        &app,
        Method::POST,
        "/api/admin/owners",
        Some(&owner),
        Some(json!({"benchmark": "demo", "name": "x"})),
    )
    .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    let (status, body) = call(
        &app,
        Method::POST,
        "/api/admin/owners",
        Some(ADMIN),
        Some(json!({"benchmark": "nope", "name": "x"})),
    )
    .await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{body}");

    // Every action is logged: who, what, when.
    let (_, console) = call(&app, Method::GET, &console, Some(&owner), None).await;
    let actions = console["actions"].as_array().unwrap();
    let what: Vec<(&str, &str)> = actions
        .iter()
        .map(|a| (a["actor"].as_str().unwrap(), a["action"].as_str().unwrap()))
        .collect();
    assert_eq!(
        what,
        vec![
            ("Lab A", "update_board"),
            ("Lab A", "update_settings"),
            ("admin", "create_owner")
        ],
        "{console}"
    );
    assert!(actions[0]["at"].as_i64().unwrap() > 0);
    assert_eq!(actions[0]["detail"]["allow_retake"], true);
}

async fn settings_are_checked_field_by_field(db: Db) {
    let app = owner_app(db).await;
    let (status, body) = set(&app, ADMIN, |s| s["batch_size"] = json!(0)).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(
        detail(&body),
        format!(
            "`batch_size`: expected 1 to {} (the items of the pool), found 0",
            demo_questions()
        )
    );
    let (status, body) = set(&app, ADMIN, |s| s["study"]["categories"] = json!(["nope"])).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(
        detail(&body).starts_with("`study.categories`: unknown category `nope`"),
        "{body}"
    );
    let (status, body) = set(&app, ADMIN, |s| {
        s["study"]["handoff"]["completion_url_template"] = json!("javascript:alert(1)");
    })
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(
        detail(&body).starts_with("`handoff.completion_url_template`"),
        "{body}"
    );
    // A valid change is logged with what changed.
    let (status, _) = set(&app, ADMIN, |s| {
        s["batch_size"] = json!(6);
        s["study"]["categories"] = json!(["slang"]);
    })
    .await;
    assert_eq!(status, StatusCode::OK);
    let (_, console) = owner_console(&app, ADMIN).await;
    let changed = &console["actions"][0]["detail"]["changed"];
    assert_eq!(changed["batch_size"]["to"], 6);
    assert_eq!(changed["study.categories"]["to"], json!(["slang"]));
    // Saving the same settings again logs nothing.
    let logged = console["actions"].as_array().unwrap().len();
    let (status, _) = set(&app, ADMIN, |_| {}).await;
    assert_eq!(status, StatusCode::OK);
    let (_, again) = owner_console(&app, ADMIN).await;
    assert_eq!(again["actions"].as_array().unwrap().len(), logged);
    // A text quiz's console: options and categories apply, headphones and planted outputs
    // do not; the Prolific link carries Prolific's placeholders.
    assert_eq!(
        again["uses"],
        json!({"headphones": false, "planted_checks": false, "choices": true,
               "content_flags": again["uses"]["content_flags"], "categories": true,
               "rater_batches": false})
    );
    assert_eq!(
        again["prolific_link"],
        "/quiz/demo-mcq?PROLIFIC_PID={{%PROLIFIC_PID%}}&STUDY_ID={{%STUDY_ID%}}&SESSION_ID={{%SESSION_ID%}}"
    );
    // Only slang items are assigned now.
    let session = app.start_demo_session().await;
    assert!(session["items"]
        .as_array()
        .unwrap()
        .iter()
        .all(|i| i["category"] == "slang"));
}

async fn the_participant_target_stops_new_participants(db: Db) {
    let app = owner_app(db).await;
    let (status, _) = set(&app, ADMIN, |s| {
        s["batch_size"] = json!(3);
        s["study"]["participant_target"] = json!(1);
    })
    .await;
    assert_eq!(status, StatusCode::OK);
    let first = app.start_demo_session().await;
    // A second participant may start while the first has not finished.
    let second = app.start_demo_session().await;
    finish(&app, &first, false, 0).await;
    let (status, body) = app
        .post(&format!("/api/quizzes/{TASK}/sessions"), start_body(false))
        .await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert_eq!(
        detail(&body),
        "quiz `demo-mcq` has reached its participant target (1 completed sessions) and takes no new participants; thank you for your interest"
    );
    let listed = app.listed_quiz(TASK).await;
    assert_eq!(listed["full"], true);
    // Sessions already started may still finish.
    finish(&app, &second, false, 1).await;
}

async fn prolific_completion_redirect_follows_the_last_answer(db: Db) {
    let app = owner_app(db).await;
    let (status, _) = set(&app, ADMIN, |s| {
        s["batch_size"] = json!(3);
        s["study"]["handoff"]["prolific_completion_code"] = json!("C1A2B3C4");
    })
    .await;
    assert_eq!(status, StatusCode::OK);
    let (_, session) = app
        .post(
            &format!("/api/quizzes/{TASK}/sessions"),
            start_with_pid("5f1e0c", "s1"),
        )
        .await;
    let id = session["session_id"].as_str().unwrap().to_owned();
    let items = item_ids(&session);
    let (_, first) = app.answer(&id, &items[0], 0, "a0").await;
    assert!(first.get("redirect_url").is_none(), "{first}");
    app.answer(&id, &items[1], 0, "a1").await;
    let (_, last) = app.answer(&id, &items[2], 0, "a2").await;
    assert_eq!(
        last["redirect_url"],
        "https://app.prolific.com/submissions/complete?cc=C1A2B3C4"
    );
    assert_eq!(last["redirect_code"], "C1A2B3C4");
    // A resend of the last answer, the session and the results say the same.
    let (_, again) = app.answer(&id, &items[2], 0, "a2").await;
    assert_eq!(again["redirect_url"], last["redirect_url"]);
    let (_, results) = app.get(&format!("/api/sessions/{id}/results")).await;
    assert_eq!(results["redirect_url"], last["redirect_url"]);

    // Another panel: a URL template with the participant and the session's own code.
    let (status, _) = set(&app, ADMIN, |s| {
        s["study"]["handoff"] = json!({"completion_url_template": "https://panel.example/done?p={participant}&c={code}"});
    })
    .await;
    assert_eq!(status, StatusCode::OK);
    let (_, session) = app
        .post(
            &format!("/api/quizzes/{TASK}/sessions"),
            start_with_pid("PANEL 7", "s2"),
        )
        .await;
    let last = finish(&app, &session, false, 0).await;
    let code = last["completion_code"].as_str().unwrap();
    assert_eq!(
        last["redirect_url"],
        // The id as stored: in its canonical form (no spaces, lower case).
        format!("https://panel.example/done?p=panel7&c={code}")
    );
}

async fn failed_attention_checks_screen_out_with_the_redirect(db: Db) {
    let app = owner_app(db).await;
    let (status, body) = set(&app, ADMIN, |s| {
        s["batch_size"] = json!(6);
        s["study"]["attention_checks"] = json!(2);
        s["study"]["quality"]["fail_checks_at_least"] = json!(1);
        s["study"]["handoff"]["prolific_screenout_code"] = json!("SCREEN9");
    })
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let session = app.start_demo_session().await;
    let id = session["session_id"].as_str().unwrap();
    let checks = session["checks"].as_array().unwrap();
    assert_eq!(checks.len(), 2);
    let check = &checks[0];
    assert!(check["before_position"].as_u64().unwrap() >= 1);
    let wrong = (check["target"].as_u64().unwrap() + 1) % 5;
    let (status, body) = app
        .post(
            &format!("/api/sessions/{id}/checks"),
            json!({"index": 0, "choice": wrong, "response_ms": 1500}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    assert_eq!(
        body["screen_out"]["redirect_url"],
        "https://app.prolific.com/submissions/complete?cc=SCREEN9"
    );
    assert_eq!(
        body["screen_out"]["reason"]["code"],
        "failed_attention_checks"
    );
    // The session is over: answers are refused, the session says where to go.
    let (status, _) = app.answer(id, &item_ids(&session)[0], 0, "late").await;
    assert_eq!(status, StatusCode::CONFLICT);
    let (_, again) = app.get(&format!("/api/sessions/{id}")).await;
    assert_eq!(again["screen_out"]["code"], "SCREEN9");
    // The owner sees the exclusion with its reason.
    let (_, console) = owner_console(&app, ADMIN).await;
    // The console names sessions and participants by the export's pseudonyms.
    let benchmark = app.storage().benchmark_id("demo").await.unwrap().unwrap();
    assert_eq!(
        console["exclusions"][0]["session"],
        memeboard_server::export::pseudonym(&benchmark, "session", id)
    );
    assert_eq!(console["exclusions"][0]["reason"]["code"], "screened_out");
}

async fn a_check_answer_is_stored_once(db: Db) {
    let app = owner_app(db).await;
    set(&app, ADMIN, |s| s["study"]["attention_checks"] = json!(1)).await;
    let session = app.start_demo_session().await;
    let id = session["session_id"].as_str().unwrap();
    let path = format!("/api/sessions/{id}/checks");
    let (status, _) = app
        .post(&path, json!({"index": 0, "choice": 1, "response_ms": 900}))
        .await;
    assert_eq!(status, StatusCode::CREATED);
    let (status, body) = app
        .post(&path, json!({"index": 0, "choice": 1, "response_ms": 900}))
        .await;
    assert_eq!(
        (status, body["replayed"].clone()),
        (StatusCode::OK, json!(true))
    );
    let (status, body) = app
        .post(&path, json!({"index": 0, "choice": 2, "response_ms": 900}))
        .await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert_eq!(detail(&body), "attention check 0 is already answered; the first answer stands and nothing new was recorded");
    let (status, _) = app
        .post(&path, json!({"index": 3, "choice": 0, "response_ms": 900}))
        .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    let (status, _) = app
        .post(&path, json!({"index": 0, "choice": 9, "response_ms": 900}))
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let (_, again) = app.get(&format!("/api/sessions/{id}")).await;
    assert_eq!(again["checks"][0]["answered"], true);
}

async fn one_participation_per_prolific_id(db: Db) {
    let app = owner_app(db).await;
    set(&app, ADMIN, |s| s["batch_size"] = json!(3)).await;
    let path = format!("/api/quizzes/{TASK}/sessions");
    let (status, first) = app.post(&path, start_with_pid("PID-ONCE", "k1")).await;
    assert_eq!(status, StatusCode::CREATED);
    // The same Prolific id alone (another browser, or someone who read the id) does not get
    // the unfinished session: refused, nothing handed out.
    let (status, body) = app.post(&path, start_with_pid("PID-ONCE", "k2")).await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert_eq!(
        body["errors"][0]["code"], "session.prolific_id_in_use",
        "{body}"
    );
    assert!(body.get("session_id").is_none() && body.get("items").is_none());
    // The browser that started it (its participant id and secret) resumes it.
    let mut own = start_with_pid("PID-ONCE", "k2b");
    own["participant_id"] = first["participant_id"].clone();
    own["participant_secret"] = first["participant_secret"].clone();
    let (status, resumed) = app.post(&path, own).await;
    assert_eq!(status, StatusCode::OK, "{resumed}");
    assert_eq!(resumed["session_id"], first["session_id"]);
    assert!(resumed.get("participant_secret").is_none());
    finish(&app, &first, false, 0).await;
    let (status, body) = app.post(&path, start_with_pid("PID-ONCE", "k3")).await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert_eq!(
        detail(&body),
        "Prolific participant `pid-once` has already taken part in quiz `demo-mcq`; each Prolific id may take part once (return to Prolific to see your submission)"
    );
    // Unless the owner allows more.
    set(&app, ADMIN, |s| {
        s["study"]["handoff"]["allow_repeat_participation"] = json!(true)
    })
    .await;
    let (status, again) = app.post(&path, start_with_pid("PID-ONCE", "k4")).await;
    assert_eq!(status, StatusCode::CREATED, "{again}");
    assert_ne!(again["session_id"], first["session_id"]);
}

async fn attention_check_exclusions_show_in_the_human_rows(db: Db) {
    let app = owner_app(db).await;
    let (status, _) = set(&app, ADMIN, |s| {
        s["study"]["attention_checks"] = json!(1);
        s["study"]["quality"]["fail_checks_at_least"] = json!(1);
    })
    .await;
    assert_eq!(status, StatusCode::OK);
    let careful = app.start_demo_session().await;
    finish(&app, &careful, false, 0).await;
    let careless = app.start_demo_session().await;
    finish(&app, &careless, true, 1).await;

    let (_, board) = app.get(&format!("/api/boards/{TASK}")).await;
    let human: Vec<&Value> = board["rows"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["kind"] == "human_average" || r["kind"] == "human_best")
        .collect();
    assert_eq!(human.len(), 2, "{board}");
    for row in human {
        assert_eq!(row["participants"], 1, "{row}");
        assert_eq!(row["participants_before_exclusions"], 2, "{row}");
    }
    let (_, stats) = app.get(&format!("/api/quizzes/{TASK}/stats")).await;
    assert_eq!(stats["completed_participants"], 1);
    let (_, console) = owner_console(&app, ADMIN).await;
    assert_eq!(console["completed_before_exclusions"], 2);
    assert_eq!(console["completed_after_exclusions"], 1);
    let excluded = &console["exclusions"][0];
    let benchmark = app.storage().benchmark_id("demo").await.unwrap().unwrap();
    let careless_id = careless["session_id"].as_str().unwrap();
    assert_eq!(
        excluded["session"],
        memeboard_server::export::pseudonym(&benchmark, "session", careless_id)
    );
    assert_eq!(excluded["reason"]["code"], "failed_attention_checks");
    assert_eq!(
        excluded["reason"]["en"],
        "failed 1 of 1 attention checks (limit 1)"
    );
    assert!(excluded["reason"]["zh"]
        .as_str()
        .unwrap()
        .contains("注意力"));

    // Turning the rule off brings the participant back (no stale cache).
    set(&app, ADMIN, |s| {
        s["study"]["quality"]["fail_checks_at_least"] = Value::Null
    })
    .await;
    let (_, board) = app.get(&format!("/api/boards/{TASK}")).await;
    let avg = board["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["kind"] == "human_average")
        .unwrap()
        .clone();
    assert_eq!(avg["participants"], 2);
}

async fn straight_lining_and_speed_rules_exclude(db: Db) {
    let app = owner_app(db).await;
    set(&app, ADMIN, |s| {
        s["batch_size"] = json!(6);
        s["study"]["quality"]["straightline_percent"] = json!(100);
    })
    .await;
    let session = app.start_demo_session().await;
    finish(&app, &session, false, 2).await;
    let (_, console) = owner_console(&app, ADMIN).await;
    assert_eq!(
        console["exclusions"][0]["reason"]["code"],
        "straight_lining"
    );
    // The helper answers in 1.234 s: a 2 s minimum median excludes too (first rule wins).
    set(&app, ADMIN, |s| {
        s["study"]["quality"] = json!({"min_median_ms": 2000});
    })
    .await;
    let (_, console) = owner_console(&app, ADMIN).await;
    assert_eq!(
        console["exclusions"][0]["reason"]["code"],
        "too_fast_median"
    );
}

async fn progress_counts_sessions_items_and_times(db: Db) {
    let app = owner_app(db).await;
    set(&app, ADMIN, |s| s["batch_size"] = json!(4)).await;
    let path = format!("/api/owner/tasks/{TASK}/progress");
    let (status, empty) = call(&app, Method::GET, &path, Some(ADMIN), None).await;
    assert_eq!(status, StatusCode::OK, "{empty}");
    assert_eq!(
        (empty["started"].clone(), empty["completed"].clone()),
        (json!(0), json!(0))
    );
    let done = app.start_demo_session().await;
    finish(&app, &done, false, 0).await;
    let other = app.start_demo_session().await;
    finish(&app, &other, false, 0).await;
    let half = app.start_demo_session().await;
    app.answer(
        half["session_id"].as_str().unwrap(),
        &item_ids(&half)[0],
        0,
        "h",
    )
    .await;
    let (_, p) = call(&app, Method::GET, &path, Some(ADMIN), None).await;
    assert_eq!(p["started"], 3);
    assert_eq!(p["completed"], 2);
    assert_eq!(p["in_progress"], 1);
    assert_eq!(sum_of(&p["items"], "answers"), 9);
    assert_eq!(sum_of(&p["categories"], "answers"), 9);
    let answered = p["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["answers"].as_u64().unwrap() > 0)
        .unwrap()
        .clone();
    assert_eq!(answered["median_ms"], 1234.0);
    assert_eq!(sum_of(&p["completion_histogram"], "sessions"), 2);
    assert_eq!(p["agreement"][0]["dimension"], "choice");
}

async fn the_cli_creates_owner_tokens(db: Db) {
    let app = owner_app(db).await;
    let owner = memeboard_server::owners::create_owner(
        app.storage(),
        &memeboard_core::fieldwork::CreateOwnerRequest {
            benchmark: "demo".into(),
            name: "CLI lab".into(),
        },
        "cli",
    )
    .await
    .unwrap();
    assert!(owner.token.starts_with("mbo_"));
    let (status, console) = call(
        &app,
        Method::GET,
        &format!("/api/owner/tasks/{TASK}/console"),
        Some(&owner.token),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(console["actor"], "CLI lab");
    assert_eq!(console["actions"][0]["actor"], "cli");
}

/// The raw export body an owner token gets (status, text).
async fn export_as(app: &TestApp, token: &str, ext: &str) -> (StatusCode, String) {
    let reply = app
        .send_as(
            Method::GET,
            &format!("/api/owner/tasks/{TASK}/export.{ext}"),
            Some(token),
            None,
            Body::empty(),
        )
        .await;
    (reply.status, reply.text())
}

/// The raw-data routes take an owner token of the task's benchmark (not another's); the
/// export flags the owner's rule exclusions exactly as the human rows apply them, so the stats
/// CLI reproduces the rows; deleting the excluded participant removes their attention-check
/// answers too (a foreign key on PostgreSQL would refuse otherwise); both actions are logged.
async fn owner_exports_flag_rule_exclusions_and_deletion_removes_checks(db: Db) {
    let (mut settings, dir) = test_settings(db, true).await;
    settings.admin.token = ADMIN.into();
    settings.leaderboard.min_category_items = crate::export::OPTIONS.min_category_items;
    crate::export::exact_crowd(&mut settings);
    let app = TestApp::with_settings(settings, dir).await;
    let owner = create_owner(&app, "demo", "Lab A").await;
    let other = create_owner(&app, "demo-panel", "Lab B").await;
    let (status, body) = set(&app, &owner, |s| {
        s["study"]["attention_checks"] = json!(1);
        s["study"]["quality"]["fail_checks_at_least"] = json!(1);
    })
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    for (fail, position) in [(false, 0), (false, 2), (true, 1)] {
        let session = app.start_demo_session().await;
        finish(&app, &session, fail, position).await;
    }

    let (status, body) = export_as(&app, &other, "csv").await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{body}");
    let (status, jsonl) = export_as(&app, &owner, "jsonl").await;
    assert_eq!(status, StatusCode::OK, "{jsonl}");
    let rows: Vec<Value> = jsonl
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let excluded: Vec<&Value> = rows.iter().filter(|r| r["excluded"] == 1).collect();
    assert!(!excluded.is_empty() && excluded.len() < rows.len());
    for row in &excluded {
        assert_eq!(row["exclusion_reason"], "failed_attention_checks", "{row}");
    }
    let careless = excluded[0]["participant"].as_str().unwrap().to_owned();
    assert!(excluded
        .iter()
        .all(|r| r["participant"] == careless.as_str()));
    let report =
        memeboard_server::export::stats::stats_from_export(&jsonl, crate::export::OPTIONS).unwrap();
    assert_eq!(report.quiz.completed_participants, 2);
    let (status, body) = call(
        &app,
        Method::POST,
        &format!("/api/admin/tasks/{TASK}/board"),
        Some(&owner),
        Some(json!({"private_revealed": true})),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert!(crate::export::assert_same_as_site(&app, TASK, &report).await > 0);

    let path = format!("/api/owner/tasks/{TASK}/participants/{careless}");
    let (status, body) = call(&app, Method::DELETE, &path, Some(&other), None).await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{body}");
    let (status, body) = call(&app, Method::DELETE, &path, Some(&owner), None).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["participants"], 1, "{body}");
    let (_, csv) = export_as(&app, &owner, "csv").await;
    assert!(!csv.contains(&careless));
    assert!(!csv.contains("failed_attention_checks"));

    let (_, console) = call(
        &app,
        Method::GET,
        &format!("/api/owner/tasks/{TASK}/console"),
        Some(&owner),
        None,
    )
    .await;
    let actions: Vec<&str> = console["actions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["action"].as_str().unwrap())
        .collect();
    assert!(actions.contains(&"export"), "{actions:?}");
    assert!(actions.contains(&"delete_participant"), "{actions:?}");
    assert_eq!(console["completed_before_exclusions"], 2, "{console}");
}

on_both_databases!(
    owner_exports_flag_rule_exclusions_and_deletion_removes_checks,
    owners_are_scoped_to_their_benchmark,
    settings_are_checked_field_by_field,
    the_participant_target_stops_new_participants,
    prolific_completion_redirect_follows_the_last_answer,
    failed_attention_checks_screen_out_with_the_redirect,
    a_check_answer_is_stored_once,
    one_participation_per_prolific_id,
    attention_check_exclusions_show_in_the_human_rows,
    straight_lining_and_speed_rules_exclude,
    progress_counts_sessions_items_and_times,
    the_cli_creates_owner_tokens,
);
