//! Rater training and qualification on a real server (issue 31): a study's rubric and
//! practice pages come before the first rating page, each practice answer is stored once and
//! only then answered with the expected judgement, a rater below the pass mark is screened
//! out with the study's code, a rater practises once for all parts of a dense study, and no
//! expected answer or note reaches a browser before its page is answered.

use crate::helpers::{detail, Db, TestApp};
use crate::judging::start;
use crate::on_both_databases;
use crate::studies::{as_admin, cmpm_request, comic_outputs, dims, study_app, COMICS};
use axum::http::{Method, StatusCode};
use serde_json::{json, Value};

/// The owner's notes; none may reach a browser before its page is answered.
const NOTES: [&str; 2] = [
    "NOTE-ONE: the explanation is about another comic",
    "NOTE-TWO: this one reads every panel right",
];

/// Two dev comics of the board: (item id, whether it has text context), and one test comic.
async fn practice_sources(app: &TestApp) -> (Vec<(String, bool)>, String) {
    let task = app
        .storage()
        .find_board_task(COMICS)
        .await
        .unwrap()
        .unwrap();
    let rows = app.storage().task_items(&task.task.id).await.unwrap();
    let context = |json: &str| {
        let p: Value = serde_json::from_str(json).unwrap();
        let c = &p["context"];
        !c["title"].is_null() || !c["caption"].is_null()
    };
    let dev: Vec<(String, bool)> = rows
        .iter()
        .filter(|r| r.split == memeboard_core::predictions::Split::Dev)
        .take(2)
        .map(|r| (r.id.clone(), context(&r.prompt_json)))
        .collect();
    let test = rows
        .iter()
        .find(|r| r.split == memeboard_core::predictions::Split::Test)
        .unwrap()
        .id
        .clone();
    (dev, test)
}

/// The study's training: page 1 expects all 1s, page 2 all 3s; pass mark 60%.
fn training(sources: &[(String, bool)]) -> Value {
    let page = |(id, context): &(String, bool), v: u8, note: &str| {
        let mut expected = dims(v, *context);
        expected.as_object_mut().unwrap().remove("kind");
        json!({"source_item": id, "output": {"meaning": format!("practice output {v}")},
               "expected": expected, "note": note})
    };
    json!({
        "rubric": "Score each dimension 1 to 3.\n\nA 1 means the output misses it.",
        "practice": [page(&sources[0], 1, NOTES[0]), page(&sources[1], 3, NOTES[1])],
        "pass_percent": 60
    })
}

/// Answers item `item` of session `id`.
async fn answer(
    app: &TestApp,
    id: &str,
    item: &str,
    key: &str,
    value: Value,
) -> (StatusCode, Value) {
    app.post(
        &format!("/api/sessions/{id}/answers"),
        json!({"item_id": item, "idempotency_key": key, "answer": value, "response_ms": 3000}),
    )
    .await
}

/// The dimension answer `v` to a practice page of the session.
fn practice_answer(session: &Value, page: usize, v: u8) -> Value {
    let prompt = &session["training"]["pages"][page]["prompt"];
    dims(v, prompt["has_context"].as_bool().unwrap())
}

/// Sets the screen-out code of judging task `slug`.
async fn set_screenout(app: &TestApp, slug: &str, code: &str) {
    let path = format!("/api/owner/tasks/{slug}/console");
    let (status, console) = as_admin(app, Method::GET, &path, None).await;
    assert_eq!(status, StatusCode::OK, "{console}");
    let mut settings = console["settings"].clone();
    settings["study"]["handoff"]["prolific_screenout_code"] = json!(code);
    let path = format!("/api/owner/tasks/{slug}/settings");
    let (status, body) = as_admin(app, Method::PUT, &path, Some(settings)).await;
    assert_eq!(status, StatusCode::OK, "{body}");
}

/// An edit of a study request's training.
type TrainingEdit<'a> = Box<dyn Fn(&mut Value) + 'a>;

/// Requests with a bad training are refused with the field named, and store nothing.
async fn bad_trainings_are_refused(
    app: &TestApp,
    base: &Value,
    sources: &[(String, bool)],
    test_item: &str,
) {
    let path = format!("/api/owner/tasks/{COMICS}/studies");
    let cases: [(&str, TrainingEdit); 3] = [
        (
            "is not a dev item",
            Box::new(|t: &mut Value| t["practice"][0]["source_item"] = json!(test_item)),
        ),
        (
            "`training.practice[2].expected`",
            Box::new(|t: &mut Value| {
                // The context score exactly when the comic has context.
                let flipped = dims(3, !sources[1].1);
                t["practice"][1]["expected"]["scores"] = flipped["scores"].clone();
            }),
        ),
        (
            "`training.pass_percent`",
            Box::new(|t: &mut Value| t["pass_percent"] = json!(150)),
        ),
    ];
    for (expected, edit) in cases {
        let mut request = base.clone();
        edit(&mut request["training"]);
        let (status, body) = as_admin(app, Method::POST, &path, Some(request)).await;
        assert!(status.is_client_error(), "{expected}: {status} {body}");
        assert!(detail(&body).contains(expected), "{expected}: {body}");
    }
}

async fn raters_practise_first_and_a_failed_rater_is_screened_out(db: Db) {
    let app = study_app(db).await;
    let subs = comic_outputs(&app).await;
    let (sources, test_item) = practice_sources(&app).await;
    let mut request = cmpm_request("trained", false, &subs);
    request["dense"] = json!(true);
    request["training"] = training(&sources);
    bad_trainings_are_refused(&app, &request, &sources, &test_item).await;
    let path = format!("/api/owner/tasks/{COMICS}/studies");
    let (status, created) = as_admin(&app, Method::POST, &path, Some(request)).await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    set_screenout(&app, "trained-rate", "SCREEN7").await;

    // The careful rater: the rubric and two practice pages, nothing expected in sight.
    let (status, s) = start(&app, "trained-rate", None).await;
    assert_eq!(status, StatusCode::CREATED, "{s}");
    let text = s.to_string();
    for secret in NOTES.iter().chain(&["expected"]) {
        assert!(!text.contains(secret), "{secret} in the start: {text}");
    }
    assert!(s["training"]["rubric"].as_str().unwrap().contains("1 to 3"));
    assert_eq!(s["training"]["pass_percent"], 60);
    let pages = s["training"]["pages"].as_array().unwrap();
    assert_eq!(pages.len(), 2);
    assert_eq!(pages[0]["item_id"], "practice-1");
    assert!(s["training"]["outcome"].is_null());
    let id = s["session_id"].as_str().unwrap().to_owned();
    let items: Vec<Value> = s["items"].as_array().unwrap().clone();
    let real = items[0]["item_id"].as_str().unwrap();
    let rater = crate::studies::comic_rater(true);

    // Real pages wait for the practice.
    let (status, body) = answer(&app, &id, real, "r0", rater(&items[0])).await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert!(detail(&body).contains("0 of 2 answered"), "{body}");

    // Page 1 as expected: the feedback comes with the stored answer, once.
    let one = practice_answer(&s, 0, 1);
    let (status, ack) = answer(&app, &id, "practice-1", "p1", one.clone()).await;
    assert_eq!(status, StatusCode::CREATED, "{ack}");
    let feedback = &ack["practice"];
    assert_eq!(feedback["note"], NOTES[0]);
    assert!(feedback["fields"]
        .as_array()
        .unwrap()
        .iter()
        .all(|f| f["matched"] == true && f["expected"] == "1"));
    assert!(feedback["outcome"].is_null(), "{ack}");
    assert!(
        !ack.to_string().contains(NOTES[1]),
        "page 2's note before it is answered"
    );
    let (status, again) = answer(&app, &id, "practice-1", "p1", one).await;
    assert_eq!(status, StatusCode::OK, "{again}");
    assert_eq!(again["replayed"], true);
    let (status, body) = answer(
        &app,
        &id,
        "practice-1",
        "p1-other",
        practice_answer(&s, 0, 3),
    )
    .await;
    assert_eq!(
        status,
        StatusCode::CONFLICT,
        "a practice answer is never changed: {body}"
    );
    let (status, body) = answer(&app, &id, "practice-3", "p3", practice_answer(&s, 0, 3)).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");

    // Page 2 as expected: passed; the real pages open.
    let (status, ack) = answer(&app, &id, "practice-2", "p2", practice_answer(&s, 1, 3)).await;
    assert_eq!(status, StatusCode::CREATED, "{ack}");
    assert_eq!(ack["practice"]["outcome"]["passed"], true, "{ack}");
    assert_eq!(
        ack["practice"]["outcome"]["matched"],
        ack["practice"]["outcome"]["total"]
    );
    assert!(ack["screen_out"].is_null());
    for (k, item) in items.iter().enumerate() {
        let item_id = item["item_id"].as_str().unwrap();
        let (status, body) = answer(&app, &id, item_id, &format!("r{k}"), rater(item)).await;
        assert_eq!(status, StatusCode::CREATED, "{body}");
    }
    let (_, resumed) = app.get(&format!("/api/sessions/{id}")).await;
    assert_eq!(resumed["training"]["outcome"]["passed"], true, "{resumed}");
    assert_eq!(
        resumed["training"]["pages"][1]["feedback"]["note"],
        NOTES[1]
    );

    // The next part of the dense study: practised already, straight to the real pages.
    let who = (
        s["participant_id"].as_str().unwrap().to_owned(),
        s["participant_secret"].as_str().unwrap().to_owned(),
    );
    let (status, part) = start(&app, "trained-rate", Some((&who.0, &who.1))).await;
    assert_eq!(status, StatusCode::CREATED, "{part}");
    assert_eq!(part["training"]["outcome"]["passed"], true, "{part}");
    let next = &part["items"][0];
    let part_id = part["session_id"].as_str().unwrap();
    let (status, body) = answer(
        &app,
        part_id,
        next["item_id"].as_str().unwrap(),
        "n0",
        rater(next),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{body}");

    // A careless rater: all 3s matches page 2 only (50% < 60%): screened out with the code.
    let (status, b) = start(&app, "trained-rate", None).await;
    assert_eq!(status, StatusCode::CREATED, "{b}");
    let b_id = b["session_id"].as_str().unwrap().to_owned();
    let (status, ack) = answer(&app, &b_id, "practice-1", "b1", practice_answer(&b, 0, 3)).await;
    assert_eq!(status, StatusCode::CREATED, "{ack}");
    assert!(ack["practice"]["fields"]
        .as_array()
        .unwrap()
        .iter()
        .all(|f| f["matched"] == false));
    let (status, ack) = answer(&app, &b_id, "practice-2", "b2", practice_answer(&b, 1, 3)).await;
    assert_eq!(status, StatusCode::CREATED, "{ack}");
    assert_eq!(ack["practice"]["outcome"]["passed"], false, "{ack}");
    assert_eq!(ack["screen_out"]["code"], "SCREEN7", "{ack}");
    assert_eq!(ack["screen_out"]["reason"]["code"], "failed_qualification");
    let b_item = &b["items"][0];
    let (status, body) = answer(
        &app,
        &b_id,
        b_item["item_id"].as_str().unwrap(),
        "b-real",
        rater(b_item),
    )
    .await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    let (_, again) = app.get(&format!("/api/sessions/{b_id}")).await;
    assert_eq!(
        again["screen_out"]["reason"]["code"], "failed_qualification",
        "{again}"
    );

    // The ranking task has no training; no figure or export names a practice page.
    let (status, rank) = start(&app, "trained-rank", None).await;
    assert_eq!(status, StatusCode::CREATED, "{rank}");
    assert!(rank["training"].is_null(), "{rank}");
    let (status, page) = as_admin(&app, Method::GET, "/api/owner/studies/trained", None).await;
    assert_eq!(status, StatusCode::OK, "{page}");
    assert!(!page.to_string().contains("practice-"), "{page}");
}

on_both_databases!(raters_practise_first_and_a_failed_rater_is_screened_out);
