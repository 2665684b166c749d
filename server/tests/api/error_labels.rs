//! Error labels (issue 31) on a real server: a CMPM study made with the paper's labels carries
//! them on every rating page; raters tag the outputs they judge wrong; the study page's table
//! of error types per model and agreement per label are checked against a hand count; the
//! judgement export writes one `error:<key>` field per tag; and a tag on an output not judged
//! wrong, an unknown key, or a malformed label at creation is refused with its message.

use crate::helpers::{detail, start_body, Db};
use crate::on_both_databases;
use crate::studies::{
    as_admin, cmpm_request, comic_outputs, rate_all, raw, study_app, ADMIN, COMICS,
};
use axum::http::{Method, StatusCode};
use serde_json::{json, Value};
use std::collections::BTreeMap;

/// The model (first word of its name) that wrote an output, from its text.
fn writer(output: &Value) -> String {
    let text = output["meaning"].as_str().unwrap();
    text.split(' ').next().unwrap().to_owned()
}

/// A dimension rating: every dimension `v`, visual correctness `visual`, with `errors`.
fn rating(v: u8, visual: u8, context: bool, errors: &[&str]) -> Value {
    json!({"kind": "rating", "protocol": "dimensions", "scores": {
        "visual_correctness": visual, "panel_coherence": v, "humour_comprehension": v,
        "context_handling": context.then_some(v), "faithfulness": v}, "errors": errors})
}

/// Rater `first`: Alpha 3, Bravo 2, Charlie 1 tagged contrast swap and punchline first.
/// The second: Alpha 3, Bravo 2 but visual 1 tagged reply misorder, Charlie 1 tagged
/// contrast swap.
fn judge(first: bool) -> impl Fn(&Value) -> Value {
    move |item: &Value| {
        let p = &item["prompt"];
        assert_eq!(p["error_labels"].as_array().unwrap().len(), 3, "{p}");
        let context = p["has_context"].as_bool().unwrap();
        match (writer(&p["output"]).as_str(), first) {
            ("Alpha", _) => rating(3, 3, context, &[]),
            ("Bravo", true) => rating(2, 2, context, &[]),
            ("Bravo", false) => rating(2, 1, context, &["reply_misorder"]),
            (_, true) => rating(1, 1, context, &["contrast_swap", "punchline_first"]),
            (_, false) => rating(1, 1, context, &["contrast_swap"]),
        }
    }
}

/// One cell of the error-type table: outputs, tagged by anyone, by a majority, ratings, tags
/// and their share.
type Cell = (u64, u64, u64, u64, u64, f64);

/// The paper's CMPM labels, as the API takes them.
fn cmpm_labels() -> Value {
    serde_json::to_value(memeboard_core::human_eval::error_labels::cmpm_error_labels()).unwrap()
}

async fn raters_tag_wrong_outputs_and_the_study_counts_them(db: Db) {
    let app = study_app(db).await;
    let subs = comic_outputs(&app).await;
    let path = format!("/api/owner/tasks/{COMICS}/studies");
    let mut request = cmpm_request("errs", false, &subs);
    request["items_per_category"] = json!(1);
    request["batch_size"] = json!(60);
    // Three wanted: the session the refusals below are sent in never finishes.
    request["raters_per_batch"] = json!(3);
    request["error_labels"] = cmpm_labels();

    // A malformed label is refused before anything is stored.
    let mut wrong = request.clone();
    wrong["error_labels"][1]["key"] = json!("Reply-Misorder");
    let (status, body) = as_admin(&app, Method::POST, &path, Some(wrong)).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    assert!(
        detail(&body).contains("`error_labels[1].key`: expected a key of 1 to 40 characters"),
        "{body}"
    );

    let (status, created) = as_admin(&app, Method::POST, &path, Some(request)).await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    assert_eq!(created["tasks"][0]["batches"], 1, "{created}");
    let n = created["source_items"].as_u64().unwrap() as usize;
    assert!(n >= 2, "{created}");

    // Refusals name the problem; the page stays open.
    let (status, s) = app
        .post("/api/quizzes/errs-rate/sessions", start_body(false))
        .await;
    assert_eq!(status, StatusCode::CREATED, "{s}");
    let id = s["session_id"].as_str().unwrap();
    let alpha = s["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| writer(&i["prompt"]["output"]) == "Alpha")
        .unwrap();
    let context = alpha["prompt"]["has_context"].as_bool().unwrap();
    let item_id = alpha["item_id"].as_str().unwrap();
    for (i, answer_says) in [
        (
            rating(3, 3, context, &["contrast_swap"]),
            "error labels are for an explanation judged wrong: score at least one dimension 1 first",
        ),
        (
            rating(1, 1, context, &["origin_confusion"]),
            "`origin_confusion` is not one of this page's error labels (contrast_swap, reply_misorder, punchline_first)",
        ),
        (
            rating(1, 1, context, &["contrast_swap", "contrast_swap"]),
            "`contrast_swap` is tagged twice",
        ),
    ]
    .into_iter()
    .enumerate()
    {
        let (answer, says) = answer_says;
        let (status, body) = app
            .post(
                &format!("/api/sessions/{id}/answers"),
                json!({"item_id": item_id, "idempotency_key": format!("{item_id}-{i}"), "answer": answer, "response_ms": 3000}),
            )
            .await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
        assert!(detail(&body).contains("`answer.errors`"), "{body}");
        assert!(detail(&body).contains(says), "{body}");
    }

    // Two raters judge the whole batch.
    for first in [true, false] {
        let done = rate_all(&app, "errs-rate", None, &subs, judge(first)).await;
        assert!(done.is_some(), "rater got the batch");
    }
    let (status, page) = as_admin(&app, Method::GET, "/api/owner/studies/errs", None).await;
    assert_eq!(status, StatusCode::OK, "{page}");
    let tables = &page["error_tables"];
    assert_eq!(tables["labels"], cmpm_labels());
    let name = |id: &Value| {
        subs[id.as_str().unwrap()]
            .split(' ')
            .next()
            .unwrap()
            .to_owned()
    };
    // (model, label) → (outputs, any, majority, ratings, tags, share).
    let mut cells: BTreeMap<(String, String), Cell> = BTreeMap::new();
    for r in tables["per_model"].as_array().unwrap() {
        let u = |k: &str| r[k].as_u64().unwrap();
        cells.insert(
            (
                name(&r["submission_id"]),
                r["label"].as_str().unwrap().to_owned(),
            ),
            (
                u("outputs"),
                u("tagged_any"),
                u("tagged_majority"),
                u("ratings"),
                u("tags"),
                r["share"].as_f64().unwrap(),
            ),
        );
    }
    let n64 = n as u64;
    let cell =
        |tagged_any, majority, tags, share| (n64, tagged_any, majority, 2 * n64, tags, share);
    let expected: BTreeMap<(String, String), Cell> = [
        ("Alpha", "contrast_swap", cell(0, 0, 0, 0.0)),
        ("Alpha", "reply_misorder", cell(0, 0, 0, 0.0)),
        ("Alpha", "punchline_first", cell(0, 0, 0, 0.0)),
        ("Bravo", "contrast_swap", cell(0, 0, 0, 0.0)),
        ("Bravo", "reply_misorder", cell(n64, 0, n64, 0.5)),
        ("Bravo", "punchline_first", cell(0, 0, 0, 0.0)),
        ("Charlie", "contrast_swap", cell(n64, n64, 2 * n64, 1.0)),
        ("Charlie", "reply_misorder", cell(0, 0, 0, 0.0)),
        ("Charlie", "punchline_first", cell(n64, 0, n64, 0.5)),
    ]
    .into_iter()
    .map(|(m, l, c)| ((m.to_owned(), l.to_owned()), c))
    .collect();
    assert_eq!(cells, expected);
    // Agreement over the 3n outputs rated by both raters: contrast swap perfect; the labels one
    // rater alone tags on n outputs: P̄ = 2/3, P̄ₑ = (1/6)² + (5/6)² = 13/18, κ = −1/5.
    let agreement: BTreeMap<String, (u64, u64, u64, f64)> = tables["agreement"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            let u = |k: &str| r[k].as_u64().unwrap();
            (
                r["label"].as_str().unwrap().to_owned(),
                (
                    u("outputs"),
                    u("raters"),
                    u("tags"),
                    r["fleiss_kappa"].as_f64().unwrap(),
                ),
            )
        })
        .collect();
    let outputs = 3 * n64;
    assert_eq!(agreement["contrast_swap"].0, outputs);
    assert_eq!(agreement["contrast_swap"].1, 2);
    assert_eq!(agreement["contrast_swap"].2, 2 * n64);
    assert!(
        (agreement["contrast_swap"].3 - 1.0).abs() < 1e-12,
        "{agreement:?}"
    );
    for label in ["reply_misorder", "punchline_first"] {
        let (o, r, t, k) = agreement[label];
        assert_eq!((o, r, t), (outputs, 2, n64), "{label}");
        assert!((k + 0.2).abs() < 1e-12, "{label}: {k}");
    }

    // The export: one `error:<key>` row (value 1) per tag, 4n in all; tables.json has them.
    let (status, _, csv) = raw(
        &app,
        Method::GET,
        "/api/owner/studies/errs/judgements.csv",
        Some(ADMIN),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{csv}");
    let header: Vec<&str> = csv
        .trim_start_matches('\u{feff}')
        .lines()
        .next()
        .unwrap()
        .split(',')
        .collect();
    let (field, value) = (
        header.iter().position(|c| *c == "field").unwrap(),
        header.iter().position(|c| *c == "value").unwrap(),
    );
    let mut tags: BTreeMap<String, usize> = BTreeMap::new();
    for line in csv.lines().skip(1) {
        let cells: Vec<&str> = line.split(',').collect();
        if let Some(key) = cells[field].strip_prefix("error:") {
            assert_eq!(cells[value], "1", "{line}");
            *tags.entry(key.to_owned()).or_default() += 1;
        }
    }
    let expected: BTreeMap<String, usize> = [
        ("contrast_swap", 2 * n),
        ("punchline_first", n),
        ("reply_misorder", n),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_owned(), v))
    .collect();
    assert_eq!(tags, expected);
    let (status, _, jsonl) = raw(
        &app,
        Method::GET,
        "/api/owner/studies/errs/judgements.jsonl",
        Some(ADMIN),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let error_rows = jsonl
        .lines()
        .filter(|l| {
            let v: Value = serde_json::from_str(l).unwrap();
            v["field"].as_str().is_some_and(|f| f.starts_with("error:"))
        })
        .count();
    assert_eq!(error_rows, 4 * n);
    let (status, exported) = as_admin(
        &app,
        Method::GET,
        "/api/owner/studies/errs/tables.json",
        None,
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(exported["error_tables"], page["error_tables"]);

    // Planted pages carry the labels too (they must look like the others).
    let mut planted = cmpm_request("errs-planted", true, &subs);
    planted["error_labels"] = cmpm_labels();
    planted["items_per_category"] = json!(1); // spare comics to plant
    let (status, created) = as_admin(&app, Method::POST, &path, Some(planted)).await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    assert!(created["planted_groups"].as_u64().unwrap() > 0, "{created}");
    let task = app
        .storage()
        .find_board_task("errs-planted-rate")
        .await
        .unwrap()
        .unwrap();
    for row in app.storage().task_items(&task.task.id).await.unwrap() {
        let prompt: Value = serde_json::from_str(&row.prompt_json).unwrap();
        assert_eq!(prompt["error_labels"], cmpm_labels(), "{prompt}");
    }

    // A study without labels has neither the tables nor the labels on its pages.
    let plain = cmpm_request("plain", false, &subs);
    let (status, _) = as_admin(&app, Method::POST, &path, Some(plain)).await;
    assert_eq!(status, StatusCode::CREATED);
    let (_, page) = as_admin(&app, Method::GET, "/api/owner/studies/plain", None).await;
    assert!(page.get("error_tables").is_none(), "{page}");
    let (_, s) = app
        .post("/api/quizzes/plain-rate/sessions", start_body(false))
        .await;
    assert!(s["items"][0]["prompt"].get("error_labels").is_none(), "{s}");
}

on_both_databases!(raters_tag_wrong_outputs_and_the_study_counts_them);
