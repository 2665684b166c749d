//! Human-evaluation studies made from explanation boards: an owner creates one (owner API and
//! errors), raters judge blind (no submission id or model name in anything a rater's browser
//! gets), invitation-only studies refuse strangers and mark exposed test items, exclusions
//! change the tables, the board gains human columns (and, for meme explanations, the
//! metric-validity panel), and every judgement exports.

use crate::helpers::{detail, models_installed, start_body, test_settings, Db, TestApp};
use crate::on_both_databases;
use axum::body::Body;
use axum::http::{Method, Request, StatusCode};
use http_body_util::BodyExt;
use serde_json::{json, Value};
use std::collections::BTreeMap;
use tower::ServiceExt;

pub(crate) const ADMIN: &str = "admin-secret-for-study-tests";
pub(crate) const COMICS: &str = "demo-panel-explain";
pub(crate) const MEMES: &str = "demo-explain";
/// In every model name, so that a leak is easy to find.
const MODEL_MARK: &str = "Zyxmodel";

pub(crate) async fn study_app(db: Db) -> TestApp {
    let (mut settings, dir) = test_settings(db, true).await;
    settings.admin.token = ADMIN.into();
    TestApp::with_settings(settings, dir).await
}

/// A raw request with an optional bearer token; returns status, headers' content type and
/// the body text.
pub(crate) async fn raw(
    app: &TestApp,
    method: Method,
    path: &str,
    token: Option<&str>,
    body: Option<String>,
) -> (StatusCode, String, String) {
    let mut req = Request::builder().method(method).uri(path);
    if let Some(t) = token {
        req = req.header("authorization", format!("Bearer {t}"));
    }
    if body.is_some() {
        req = req.header("content-type", "application/json");
    }
    let req = req.body(Body::from(body.unwrap_or_default())).unwrap();
    let res = app.app.router().oneshot(req).await.unwrap();
    let status = res.status();
    let ctype = res
        .headers()
        .get("content-type")
        .map(|v| v.to_str().unwrap().to_owned())
        .unwrap_or_default();
    let bytes = res.into_body().collect().await.unwrap().to_bytes();
    (status, ctype, String::from_utf8(bytes.to_vec()).unwrap())
}

pub(crate) async fn as_admin(
    app: &TestApp,
    method: Method,
    path: &str,
    body: Option<Value>,
) -> (StatusCode, Value) {
    let (status, _, text) = raw(app, method, path, Some(ADMIN), body.map(|b| b.to_string())).await;
    (status, serde_json::from_str(&text).unwrap_or(Value::Null))
}

/// Uploads one prediction file per model; returns submission id → model name.
pub(crate) async fn upload_models(
    app: &TestApp,
    task: &str,
    models: &[&str],
    line: impl Fn(&str, &str) -> Value,
) -> BTreeMap<String, String> {
    let (_, author) = app.post("/api/authors", json!({"name": "Lab"})).await;
    let token = author["token"].as_str().unwrap().to_owned();
    let ids = app.manifest_ids(task).await;
    let mut out = BTreeMap::new();
    for model in models {
        let name = format!("{model} {MODEL_MARK}");
        let file: String = ids
            .iter()
            .map(|id| format!("{}\n", line(model, id)))
            .collect();
        let (status, _, text) = raw(
            app,
            Method::POST,
            &format!(
                "/api/tasks/{task}/submissions?model={}",
                name.replace(' ', "%20")
            ),
            Some(&token),
            Some(file),
        )
        .await;
        assert_eq!(status, StatusCode::CREATED, "{text}");
        let body: Value = serde_json::from_str(&text).unwrap();
        out.insert(body["submission_id"].as_str().unwrap().to_owned(), name);
    }
    out
}

/// Fails when a rater-facing body names a submission or a model.
fn assert_blind(what: &str, body: &Value, subs: &BTreeMap<String, String>) {
    let text = body.to_string();
    assert!(!text.contains(MODEL_MARK), "{what} names a model: {text}");
    for id in subs.keys() {
        assert!(
            !text.contains(id.as_str()),
            "{what} names submission {id}: {text}"
        );
    }
    assert!(!text.contains("submission"), "{what}: {text}");
}

/// The model (first word of its name) an output was written by, from its text.
fn writer(output: &Value) -> String {
    output["meaning"]
        .as_str()
        .unwrap()
        .split(' ')
        .next()
        .unwrap()
        .to_owned()
}

/// One rater takes a judging task to the end, blind-checking every response; `judge` answers
/// each item (its rater-facing JSON); returns the session id.
pub(crate) async fn rate_all(
    app: &TestApp,
    slug: &str,
    invite: Option<&str>,
    subs: &BTreeMap<String, String>,
    judge: impl Fn(&Value) -> Value,
) -> Option<String> {
    let mut body = start_body(false);
    if let Some(i) = invite {
        body["invite"] = json!(i);
    }
    let (status, s) = app
        .post(&format!("/api/quizzes/{slug}/sessions"), body)
        .await;
    if status == StatusCode::CONFLICT {
        return None; // every batch is full
    }
    assert_eq!(status, StatusCode::CREATED, "{s}");
    assert_blind("session start", &s, subs);
    let id = s["session_id"].as_str().unwrap().to_owned();
    let (_, again) = app.get(&format!("/api/sessions/{id}")).await;
    assert_blind("session", &again, subs);
    for item in s["items"].as_array().unwrap() {
        let item_id = item["item_id"].as_str().unwrap();
        let body = judge_item(app, &id, item_id, judge(item)).await;
        assert_blind("answer", &body, subs);
    }
    let (status, results) = app.get(&format!("/api/sessions/{id}/results")).await;
    assert_eq!(status, StatusCode::OK, "{results}");
    assert_blind("results", &results, subs);
    Some(id)
}

/// Answers item `item_id` of session `id` with `answer` (the item id as the idempotency key);
/// checks it is stored and returns the reply.
pub(crate) async fn judge_item(app: &TestApp, id: &str, item_id: &str, answer: Value) -> Value {
    let (status, body) = app
        .post(
            &format!("/api/sessions/{id}/answers"),
            json!({"item_id": item_id, "idempotency_key": item_id, "answer": answer, "response_ms": 3000}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    body
}

pub(crate) fn dims(v: u8, context: bool) -> Value {
    json!({"kind": "rating", "protocol": "dimensions", "scores": {
        "visual_correctness": v, "panel_coherence": v, "humour_comprehension": v,
        "context_handling": context.then_some(v), "faithfulness": v}})
}

/// Scores by writer: Alpha 3, Bravo 2, Charlie 1; an output that does not fit its comic
/// (a planted other comic's output) 1 when `careful`, else as its writer.
pub(crate) fn comic_rater(careful: bool) -> impl Fn(&Value) -> Value {
    move |item: &Value| {
        let p = &item["prompt"];
        if p["kind"] == "ranking" {
            // Alpha best, Bravo and Charlie tied.
            let ranks: Vec<u8> = p["candidates"]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| if writer(c) == "Alpha" { 1 } else { 2 })
                .collect();
            return json!({"kind": "ranking", "ranks": ranks});
        }
        let context = p["has_context"].as_bool().unwrap();
        let out = &p["output"]["meaning"];
        // Outputs say which comic they explain ("… on <panel 0 url>").
        let first_panel = p["subject"]["panels"][0].as_str().unwrap();
        let fits = out.as_str().unwrap().ends_with(first_panel);
        let v = match writer(&p["output"]).as_str() {
            _ if careful && !fits => 1,
            "Alpha" => 3,
            "Bravo" => 2,
            _ => 1,
        };
        dims(v, context)
    }
}

pub(crate) async fn comic_outputs(app: &TestApp) -> BTreeMap<String, String> {
    // Each output names its comic by the comic's first panel URL, so the test rater can tell
    // a planted output of another comic (the panel URLs are what raters see).
    let rows = app
        .storage()
        .task_items(
            &app.storage()
                .find_board_task(COMICS)
                .await
                .unwrap()
                .unwrap()
                .task
                .id,
        )
        .await
        .unwrap();
    let first_panel: BTreeMap<String, String> = rows
        .iter()
        .map(|r| {
            let p: Value = serde_json::from_str(&r.prompt_json).unwrap();
            (
                r.id.clone(),
                p["panels"][0]["url"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    upload_models(app, COMICS, &["Alpha", "Bravo", "Charlie"], |model, id| {
        json!({"item_id": id, "explanation": format!("{model} reads the comic on {}", first_panel[id])})
    })
    .await
}

/// A CMPM study of the given submissions (the demo's own comic models, loaded in the
/// background, may be on the board too).
/// Creates a CMPM study `slug` of the comics with one comic per category in one batch of
/// up to 30 pages for three raters each.
pub(crate) async fn three_rater_study(
    app: &TestApp,
    slug: &str,
    planted: bool,
    subs: &BTreeMap<String, String>,
) {
    let mut request = cmpm_request(slug, planted, subs);
    request["items_per_category"] = json!(1);
    request["batch_size"] = json!(30);
    request["raters_per_batch"] = json!(3);
    let path = format!("/api/owner/tasks/{COMICS}/studies");
    let (status, created) = as_admin(app, Method::POST, &path, Some(request)).await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
}

pub(crate) fn cmpm_request(slug: &str, planted: bool, subs: &BTreeMap<String, String>) -> Value {
    json!({
        "slug": slug, "protocol": "cmpm", "submissions": {"pick": "ids", "ids": subs.keys().collect::<Vec<_>>()},
        "items_per_category": 2, "batch_size": 6, "raters_per_batch": 2,
        "planted_checks": planted, "seed": 7
    })
}

async fn a_cmpm_study_of_the_comic_board_is_judged_blind_and_fills_the_board(db: Db) {
    let app = study_app(db).await;
    let subs = comic_outputs(&app).await;
    let path = format!("/api/owner/tasks/{COMICS}/studies");

    // Who may, and what fits.
    let (status, _, _) = raw(
        &app,
        Method::POST,
        &path,
        None,
        Some(cmpm_request("s1", false, &subs).to_string()),
    )
    .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    let mut wrong = cmpm_request("s1", false, &subs);
    wrong["protocol"] = json!("accuracy");
    let (status, body) = as_admin(&app, Method::POST, &path, Some(wrong)).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    assert!(detail(&body).contains("use cmpm"), "{body}");
    let mut six = cmpm_request("s1", false, &subs);
    six["submissions"] = json!({"pick": "top", "k": 50});
    let (status, body) = as_admin(&app, Method::POST, &path, Some(six)).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    assert!(
        detail(&body).contains("top 50 asked for but the board has"),
        "{body}"
    );
    let mut unknown = cmpm_request("s1", false, &subs);
    unknown["submissions"]["ids"][0] = json!("S-NOPE");
    let (status, body) = as_admin(&app, Method::POST, &path, Some(unknown)).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    assert!(
        detail(&body).contains("S-NOPE` is not on this board"),
        "{body}"
    );
    let mut test = cmpm_request("s1", false, &subs);
    test["split"] = json!("test");
    let (status, body) = as_admin(&app, Method::POST, &path, Some(test)).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    assert!(detail(&body).contains("invitation-only"), "{body}");

    let (status, created) = as_admin(
        &app,
        Method::POST,
        &path,
        Some(cmpm_request("pilot", false, &subs)),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    assert_eq!(created["tasks"][0]["slug"], "pilot-rate");
    // Raters read their own protocol: the quiz names it, and the consent describes it alone.
    let (status, quiz) = app.get("/api/quizzes/pilot-rate").await;
    assert_eq!(status, StatusCode::OK, "{quiz}");
    assert_eq!(quiz["study_protocol"], "cmpm");
    assert_eq!(created["tasks"][1]["slug"], "pilot-rank");
    assert!(created.get("invite").is_none());
    assert_eq!(created["exposed_test_items"], 0);
    let (status, body) = as_admin(
        &app,
        Method::POST,
        &path,
        Some(cmpm_request("pilot", false, &subs)),
    )
    .await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    // The judging tasks are not on the public quiz list.
    let (_, quizzes) = app.get("/api/quizzes").await;
    assert!(!quizzes.to_string().contains("pilot-"), "{quizzes}");

    // Two raters per batch, everyone blind.
    for slug in ["pilot-rate", "pilot-rank"] {
        while rate_all(&app, slug, None, &subs, comic_rater(true))
            .await
            .is_some()
        {}
    }

    // The board: human columns, ranked by them; no validity panel without automatic scores.
    let (status, board) = app.get(&format!("/api/boards/{COMICS}")).await;
    assert_eq!(status, StatusCode::OK, "{board}");
    let human = &board["human_eval"];
    assert_eq!(human["columns"].as_array().unwrap().len(), 3, "{human}");
    assert!(human["validity"].as_array().unwrap().is_empty());
    let top = &board["rows"][0];
    assert!(
        top["label"].as_str().unwrap().starts_with("Alpha"),
        "{board}"
    );
    let col = |label: &str| {
        let id = subs.iter().find(|(_, n)| n.starts_with(label)).unwrap().0;
        human["columns"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["submission_id"] == json!(id))
            .unwrap()
            .clone()
    };
    assert_eq!(col("Alpha")["core4"]["value"], 3.0);
    assert_eq!(col("Charlie")["core4"]["value"], 1.0);
    assert_eq!(col("Alpha")["win_rate"]["value"], 1.0);
    assert_eq!(col("Bravo")["win_rate"]["value"], 0.25);
    assert!(col("Alpha")["bt_rating"]["value"].as_f64().unwrap() > 1000.0);
    let summary = &human["studies"][0];
    assert_eq!(summary["study"], "pilot");
    assert_eq!(summary["excluded_raters"], 0);
    assert_eq!(summary["alpha"].as_array().unwrap().len(), 5);

    // The study page.
    let (status, page) = as_admin(&app, Method::GET, "/api/owner/studies/pilot", None).await;
    assert_eq!(status, StatusCode::OK, "{page}");
    assert_eq!(page["protocol"], "cmpm");
    assert_eq!(page["submissions"].as_array().unwrap().len(), 3);
    for t in page["tasks"].as_array().unwrap() {
        for b in t["batches"].as_array().unwrap() {
            assert_eq!(b["completed"], 2, "{t}");
        }
    }
    let (status, _, _) = raw(&app, Method::GET, "/api/owner/studies/pilot", None, None).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    let (status, body) = as_admin(&app, Method::GET, "/api/owner/studies/nope", None).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{body}");

    // Export: every judgement, one row per dimension or ranked candidate.
    let (status, ctype, csv) = raw(
        &app,
        Method::GET,
        "/api/owner/studies/pilot/judgements.csv",
        Some(ADMIN),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{csv}");
    assert!(ctype.starts_with("text/csv"));
    let header = csv
        .trim_start_matches('\u{feff}')
        .lines()
        .next()
        .unwrap()
        .to_owned();
    let expected: Vec<&str> = memeboard_server::studies::JUDGEMENT_COLUMNS
        .iter()
        .map(|(c, _)| *c)
        .collect();
    assert_eq!(header, expected.join(","));
    assert!(header.contains("rater,session,batch,item,position"));
    let (status, _, jsonl) = raw(
        &app,
        Method::GET,
        "/api/owner/studies/pilot/judgements.jsonl",
        Some(ADMIN),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let lines: Vec<Value> = jsonl
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), csv.lines().count() - 1);
    // Times as in the answer export: ISO 8601 UTC with milliseconds, in both formats.
    let at = expected.iter().position(|c| *c == "answered_at").unwrap();
    let rows = crate::export::csv_cells(&csv);
    for (row, line) in rows.iter().zip(&lines) {
        assert_eq!(line["answered_at"], json!(row[at]));
        assert!(
            memeboard_server::export::cells::parse_iso_time(&row[at]).is_some(),
            "{row:?}"
        );
    }
    assert!(lines
        .iter()
        .any(|l| l["field"] == "rank" && l["shown_at"].is_u64()));
    assert!(lines
        .iter()
        .any(|l| l["field"] == "faithfulness" && l["value"] == 3));
    assert!(lines
        .iter()
        .all(|l| l["model"].as_str().is_none_or(|m| m.contains(MODEL_MARK))));
    let (status, tables) = as_admin(
        &app,
        Method::GET,
        "/api/owner/studies/pilot/tables.json",
        None,
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        tables["tables"]["bradley_terry"].as_array().unwrap().len(),
        3
    );
}

async fn exclusions_change_the_tables(db: Db) {
    let app = study_app(db).await;
    let subs = comic_outputs(&app).await;
    let path = format!("/api/owner/tasks/{COMICS}/studies");
    let mut request = cmpm_request("checked", true, &subs);
    request["items_per_category"] = json!(1);
    request["batch_size"] = json!(30);
    request["raters_per_batch"] = json!(3);
    let (status, created) = as_admin(&app, Method::POST, &path, Some(request)).await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    assert_eq!(created["tasks"][0]["batches"], 1);
    // One planted group of comics the sample left out, and the owner is told so.
    assert_eq!(created["planted_groups"], 1, "{created}");
    assert_eq!(created["unplanted_batches"], 0);
    // Two careful raters, then one who scores the planted other comic's output as its writer.
    for careful in [true, true] {
        rate_all(&app, "checked-rate", None, &subs, comic_rater(careful))
            .await
            .unwrap();
    }
    let (_, before) = as_admin(&app, Method::GET, "/api/owner/studies/checked", None).await;
    assert_eq!(before["summary"]["raters"], 2, "{before}");
    // Two raters who agree on everything: perfect α, which one rater alone cannot have.
    let rows = before["raters"].as_array().unwrap();
    assert_eq!(rows.len(), 2, "{before}");
    for r in rows {
        assert_eq!(r["scale"], "dimensions", "{r}");
        assert_eq!(
            (r["raters"].as_u64(), r["with_rater"].as_f64()),
            (Some(2), Some(1.0))
        );
        assert!(
            r["without_rater"].is_null() && r["competence"].is_null(),
            "{r}"
        );
        assert!(r["planted_judged"].as_u64().unwrap() > 0, "{r}");
        assert_eq!(r["planted_pass_rate"], 1.0);
        assert!(
            r["judgements"].as_u64() > r["planted_judged"].as_u64(),
            "{r}"
        );
    }
    rate_all(&app, "checked-rate", None, &subs, |item: &Value| {
        // Careless: everything from Alpha gets 3, whatever comic it is about; the rest 3 too.
        let context = item["prompt"]["has_context"].as_bool().unwrap();
        dims(3, context)
    })
    .await
    .unwrap();
    let (_, after) = as_admin(&app, Method::GET, "/api/owner/studies/checked", None).await;
    assert_eq!(after["summary"]["excluded_raters"], 1, "{after}");
    assert_eq!(after["summary"]["raters"], 2);
    assert_eq!(after["tables"]["columns"], before["tables"]["columns"]);
    // Without the rule the careless rater counts, and the tables change.
    let (_, console) = as_admin(
        &app,
        Method::GET,
        "/api/owner/tasks/checked-rate/console",
        None,
    )
    .await;
    let mut settings = console["settings"].clone();
    settings["study"]["quality"]["planted_checks"] = json!(false);
    let (status, body) = as_admin(
        &app,
        Method::PUT,
        "/api/owner/tasks/checked-rate/settings",
        Some(settings),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let (_, relaxed) = as_admin(&app, Method::GET, "/api/owner/studies/checked", None).await;
    assert_eq!(relaxed["summary"]["excluded_raters"], 0, "{relaxed}");
    assert_eq!(relaxed["summary"]["raters"], 3);
    assert_careless_rater_stands_out(&app, &relaxed).await;
    assert_ne!(relaxed["tables"]["columns"], before["tables"]["columns"]);
    let (_, board) = app.get(&format!("/api/boards/{COMICS}")).await;
    assert_eq!(board["human_eval"]["studies"][0]["raters"], 3, "{board}");
}

/// Per-rater reliability once the careless rater counts: they fail the planted checks and pull
/// agreement down (negative leave-one-out delta), the careful ones raise it; the tables export
/// carries the same rows.
async fn assert_careless_rater_stands_out(app: &TestApp, page: &Value) {
    let rows = page["raters"].as_array().unwrap();
    assert_eq!(rows.len(), 3, "{page}");
    let (careless, careful): (Vec<&Value>, Vec<&Value>) = rows
        .iter()
        .partition(|r| r["planted_pass_rate"].as_f64().unwrap() < 1.0);
    assert_eq!((careless.len(), careful.len()), (1, 2), "{page}");
    assert_eq!(careless[0]["planted_pass_rate"], 0.0);
    assert!(careless[0]["loo_delta"].as_f64().unwrap() < 0.0, "{page}");
    assert_eq!(careless[0]["without_rater"], 1.0);
    for r in careful {
        assert!(r["loo_delta"].as_f64().unwrap() > 0.0, "{r}");
        assert_eq!(r["raters"], 3);
    }
    let (status, tables) = as_admin(
        app,
        Method::GET,
        "/api/owner/studies/checked/tables.json",
        None,
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(tables["raters"], page["raters"]);
    let (status, ctype, csv) = raw(
        app,
        Method::GET,
        "/api/owner/studies/checked/raters.csv",
        Some(ADMIN),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert!(ctype.starts_with("text/csv"));
    let lines: Vec<&str> = csv.trim_start_matches('\u{feff}').lines().collect();
    let expected: Vec<&str> = memeboard_server::studies::RATER_COLUMNS
        .iter()
        .chain(memeboard_server::studies::RATER_THRESHOLD_COLUMNS)
        .map(|(c, _)| *c)
        .collect();
    assert_eq!(lines[0], expected.join(","));
    assert_eq!(lines.len(), 4, "{csv}");
    let careless_line = lines
        .iter()
        .find(|l| l.starts_with(careless[0]["rater"].as_str().unwrap()))
        .unwrap();
    // rater, scale, (no batch), pages, raters, with, without = 1, delta, planted, rate 0, no competence.
    let cells: Vec<&str> = careless_line.split(',').collect();
    assert_eq!((cells[1], cells[2], cells[4]), ("dimensions", "", "3"));
    assert_eq!((cells[6], cells[9], cells[10]), ("1.0", "0.0", ""));
    let (status, _, _) = raw(
        app,
        Method::GET,
        "/api/owner/studies/checked/raters.csv",
        None,
        None,
    )
    .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
}

async fn an_accuracy_study_of_test_items_is_invitation_only_and_marks_them_exposed(db: Db) {
    if !models_installed() {
        return;
    }
    let app = study_app(db).await;
    let subs = upload_models(&app, MEMES, &["Alpha", "Bravo"], |model, id| {
        let meaning = if model == "Alpha" { "a saying about working too hard" } else { "no idea" };
        json!({"item_id": id, "meaning": format!("{model} says {meaning}"), "origin": "the internet"})
    })
    .await;
    let path = format!("/api/owner/tasks/{MEMES}/studies");
    let request = json!({
        "slug": "chime", "protocol": "accuracy", "submissions": {"pick": "ids", "ids": subs.keys().collect::<Vec<_>>()},
        "items_per_category": 2, "split": "test", "invitation_only": true,
        // No plants: they are other items' real outputs, and these outputs say the same for
        // every item, so this rater could not tell a plant from a right answer (plants are
        // tested in judging.rs).
        "batch_size": 40, "raters_per_batch": 1, "planted_checks": false
    });
    let statements = check_statements(&app, &path, &request).await;
    let mut request = request;
    request["statements"] = statements.clone();
    let (status, created) = as_admin(&app, Method::POST, &path, Some(request)).await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    let secret = created["invite"].as_str().unwrap().to_owned();
    assert!(created["tasks"][0]["link"]
        .as_str()
        .unwrap()
        .ends_with(&format!("?invite={secret}")));
    assert!(created["tasks"][0]["prolific_link"]
        .as_str()
        .unwrap()
        .contains("PROLIFIC_PID={{%PROLIFIC_PID%}}"));
    let exposed = created["exposed_test_items"].as_u64().unwrap();
    assert!(exposed >= 2, "{created}");
    let rating = created["tasks"][0]["slug"].as_str().unwrap();
    let (status, quiz) = app.get(&format!("/api/quizzes/{rating}")).await;
    assert_eq!(status, StatusCode::OK, "{quiz}");
    assert_eq!(quiz["study_protocol"], "accuracy");
    // Raters read the board's categories in words, not their keys.
    let (_, source) = app.get(&format!("/api/quizzes/{MEMES}")).await;
    let (status, rate) = app.get("/api/quizzes/chime-rate").await;
    assert_eq!(status, StatusCode::OK, "{rate}");
    let categories = rate["categories"].as_array().unwrap();
    assert!(!categories.is_empty());
    for c in categories {
        let labelled = source["categories"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["key"] == c["key"])
            .unwrap_or_else(|| panic!("{c} is not a category of the board"));
        assert_eq!(c, labelled);
        // (Some English labels are the key itself, e.g. `slang`; the Chinese never is.)
        assert_ne!(c["label_zh"], c["key"], "{c}");
    }
    // Strangers are refused; the invitation is never shown again.
    let (status, body) = app
        .post("/api/quizzes/chime-rate/sessions", start_body(false))
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{body}");
    let mut wrong = start_body(false);
    wrong["invite"] = json!("guess");
    let (status, _) = app.post("/api/quizzes/chime-rate/sessions", wrong).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (_, page) = as_admin(&app, Method::GET, "/api/owner/studies/chime", None).await;
    assert!(!page.to_string().contains(&secret));
    assert_eq!(
        page["exposed_test_items"].as_array().unwrap().len() as u64,
        exposed
    );
    // An invited rater: Alpha's outputs agreed with, Bravo's not; the reference agreed with.
    rate_all(&app, "chime-rate", Some(&secret), &subs, |item: &Value| {
        let p = &item["prompt"];
        // Every page carries the study's own wording (trimmed as stored).
        assert_eq!(p["statements"]["origin"]["zh"], "出处对不对？", "{p}");
        assert_eq!(p["statements"]["meaning"], statements["meaning"]);
        let out = p["output"]["meaning"].as_str().unwrap();
        let reference = p["reference"]["meaning"].as_str().unwrap();
        let verdict = if out == reference || out.starts_with("Alpha") {
            "agree"
        } else {
            "disagree"
        };
        let mut a = json!({"kind": "rating", "protocol": "accuracy", "meaning": verdict});
        if p["output"].get("origin").is_some() {
            a["origin"] = json!("neutral");
        }
        if p["output"].get("example").is_some() {
            a["example"] = json!("neutral");
        }
        a
    })
    .await
    .unwrap();
    let (_, board) = app.get(&format!("/api/boards/{MEMES}")).await;
    let human = &board["human_eval"];
    assert_eq!(
        human["studies"][0]["exposed_test_items"].as_u64(),
        Some(exposed),
        "{human}"
    );
    let cols = human["columns"].as_array().unwrap();
    let alpha = subs.iter().find(|(_, n)| n.starts_with("Alpha")).unwrap().0;
    let a = cols
        .iter()
        .find(|c| c["submission_id"] == json!(alpha))
        .unwrap();
    assert!(a["agree"]["value"].as_f64().unwrap() > 0.0, "{a}");
    let panel = &human["validity"][0];
    assert_eq!(panel["human_score"], "meaning_verdict");
    let metrics: Vec<&str> = panel["metrics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["metric"].as_str().unwrap())
        .collect();
    assert_eq!(metrics, ["identification", "cosine", "rescaled", "bert_f1"]);
    assert_eq!(panel["metrics"][0]["validity"]["system"]["n"], 2);
}

/// The owner's statements are checked before anything is stored (which box is wrong, and a
/// CMPM study takes none); returns the wording the study is then created with (one of them
/// with spaces around, which are not stored).
async fn check_statements(app: &TestApp, path: &str, request: &Value) -> Value {
    let line = |en: &str, zh: &str| json!({"en": en, "zh": zh});
    let statements = json!({
        "meaning": line("The meaning is right.", "含义是对的。"),
        "origin": line("The origin is right.", "  出处对不对？  "),
        "example": line("The example shows how the meme is used.", "例句展示了这个梗的用法。"),
    });
    let mut bad = request.clone();
    bad["statements"] = statements.clone();
    bad["statements"]["example"]["zh"] = json!("第一行\n第二行");
    let (status, body) = as_admin(app, Method::POST, path, Some(bad.clone())).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    assert!(detail(&body).contains("`statements.example.zh`"), "{body}");
    bad["statements"]["example"]["zh"] = json!("");
    let (_, body) = as_admin(app, Method::POST, path, Some(bad.clone())).await;
    assert!(
        detail(&body).starts_with("`statements.example.zh`: expected a statement of 1 to 300"),
        "{body}"
    );
    bad["statements"] = statements.clone();
    bad["protocol"] = json!("cmpm");
    let (status, body) = as_admin(app, Method::POST, path, Some(bad)).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    assert_eq!(
        body["errors"][0]["code"], "study.statements_protocol",
        "{body}"
    );
    let (_, studies) = as_admin(app, Method::GET, path, None).await;
    assert!(
        !studies.to_string().contains("chime"),
        "nothing stored: {studies}"
    );
    statements
}

on_both_databases!(
    a_cmpm_study_of_the_comic_board_is_judged_blind_and_fills_the_board,
    exclusions_change_the_tables,
    an_accuracy_study_of_test_items_is_invitation_only_and_marks_them_exposed,
);
