//! Run conditions (issue 30 §1): a submission states its conditions, checked against the
//! task's with errors naming what is allowed; the board keeps one row per model and
//! condition and shows the paired difference, with an interval only on a revealed half.

use crate::helpers::{demo_questions, detail, Db};
use crate::leaderboard::{app_with, file, new_token, send, upload_with, TASK};
use crate::on_both_databases;
use axum::http::{Method, StatusCode};
use serde_json::{json, Value};

/// Uploads `body` for `model` with the raw `conditions` query value (if any).
async fn upload_under(
    app: &crate::helpers::TestApp,
    token: &str,
    model: &str,
    conditions: Option<&str>,
    body: &str,
) -> (StatusCode, Value) {
    let mut query = format!("model={model}&weights=open");
    if let Some(c) = conditions {
        query.push_str(&format!("&conditions={c}"));
    }
    upload_with(app, token, &query, body).await
}

/// The model rows of a board labelled `model`, by their `options` condition.
fn rows_of<'a>(board: &'a Value, model: &str) -> Vec<(&'a str, &'a Value)> {
    board["rows"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["kind"] == "model" && r["label"] == model)
        .map(|r| (r["model"]["conditions"]["options"].as_str().unwrap(), r))
        .collect()
}

fn overall(row: &Value) -> f64 {
    row["scores"][0]["estimate"]["value"].as_f64().unwrap()
}

async fn a_model_under_two_conditions_gets_two_rows_and_a_paired_difference(db: Db) {
    let app = app_with(db, 5).await;
    let token = new_token(&app, "Team C").await;
    let (status, plain) = upload_under(&app, &token, "M", None, &file(&app, 12).await).await;
    assert_eq!(status, StatusCode::CREATED, "{plain}");
    assert_eq!(plain["conditions"], json!({"options": "labels_only"}));
    let (status, meanings) = upload_under(
        &app,
        &token,
        "M",
        Some("options=with_meanings"),
        &file(&app, demo_questions()).await,
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{meanings}");
    assert_eq!(meanings["conditions"], json!({"options": "with_meanings"}));

    let (status, board) = app.get(&format!("/api/boards/{TASK}")).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(board["conditions"][0]["name"], "options");
    assert_eq!(board["conditions"][0]["default"], "labels_only");
    let rows = rows_of(&board, "M");
    assert_eq!(rows.len(), 2, "one row per model and condition: {board}");
    let value = |c: &str| overall(rows.iter().find(|(o, _)| *o == c).unwrap().1);
    let paired = board["paired"].as_array().unwrap();
    assert_eq!(paired.len(), 1, "{paired:?}");
    let p = &paired[0];
    assert_eq!(
        (&p["model"], &p["condition"], &p["from"], &p["to"]),
        (
            &json!("M"),
            &json!("options"),
            &json!("labels_only"),
            &json!("with_meanings")
        )
    );
    assert_eq!(p["from_submission"], plain["submission_id"]);
    assert_eq!(p["to_submission"], meanings["submission_id"]);
    // The public half's difference is that of the published figures, with no interval.
    let delta = p["delta"].as_f64().unwrap();
    assert!((delta - (value("with_meanings") - value("labels_only"))).abs() < 1e-9);
    assert!(delta > 0.0);
    assert!(
        p.get("ci_low").is_none() && p.get("ci_high").is_none(),
        "{p}"
    );

    // Revealed, the private half's difference comes from the item scores, with an interval.
    crate::leaderboard::reveal(&app, TASK).await;
    let (_, private) = app.get(&format!("/api/boards/{TASK}?split=private")).await;
    let p = &private["paired"][0];
    let (low, high) = (
        p["ci_low"].as_f64().unwrap(),
        p["ci_high"].as_f64().unwrap(),
    );
    let delta = p["delta"].as_f64().unwrap();
    assert!(low <= delta && delta <= high && delta > 0.0, "{p}");
    assert_eq!(p["items"], private["items"]);
}

async fn conditions_outside_the_declared_ones_are_refused_naming_what_is_allowed(db: Db) {
    let app = app_with(db, 5).await;
    let token = new_token(&app, "Team D").await;
    let body = file(&app, demo_questions()).await;
    let before = app.count("submissions").await;
    let (status, err) = upload_under(&app, &token, "M", Some("options=maybe"), &body).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{err}");
    assert!(
        detail(&err)
            .contains("`options` expected one of labels_only, with_meanings, found `maybe`"),
        "{err}"
    );
    let (status, err) = upload_under(&app, &token, "M", Some("shot=one_shot"), &body).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{err}");
    assert!(
        detail(&err).contains("unknown condition `shot`; this task's conditions are options"),
        "{err}"
    );
    let (status, err) = upload_under(&app, &token, "M", Some("with_meanings"), &body).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{err}");
    assert!(detail(&err).contains("`name=value`"), "{err}");
    assert_eq!(app.count("submissions").await, before, "nothing stored");
}

/// A prediction file may state its conditions in a header line (JSON Lines `{"conditions":
/// …}`, CSV `# conditions: …`): they join the upload's own (which must agree), the data
/// lines keep their numbers, and a bad or conflicting header stores nothing.
async fn a_file_header_states_the_run_conditions(db: Db) {
    let app = app_with(db, 5).await;
    let token = new_token(&app, "Team H").await;
    let body = file(&app, demo_questions()).await;
    let header = "{\"conditions\": {\"options\": \"with_meanings\"}}\n";
    let (status, sub) = upload_under(&app, &token, "H", None, &format!("{header}{body}")).await;
    assert_eq!(status, StatusCode::CREATED, "{sub}");
    assert_eq!(sub["conditions"], json!({"options": "with_meanings"}));
    assert_eq!(sub["lines"], demo_questions(), "the header is no data line");
    let (status, sub) = upload_under(
        &app,
        &token,
        "H2",
        Some("options=with_meanings"),
        &format!("{header}{body}"),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "the same value twice: {sub}");

    // CSV: a comment line before the column names.
    let rows: Vec<String> = body
        .lines()
        .map(|l| {
            let v: Value = serde_json::from_str(l).unwrap();
            format!("{},{}", v["item_id"].as_str().unwrap(), v["answer"])
        })
        .collect();
    let csv = format!(
        "# conditions: options=with_meanings\nitem_id,answer\n{}\n",
        rows.join("\n")
    );
    let (status, text) = send(
        &app,
        Method::POST,
        &format!("/api/tasks/{TASK}/submissions?model=H3&weights=open&format=csv"),
        Some(&token),
        &csv,
        "text/csv",
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{text}");
    let sub: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(sub["conditions"], json!({"options": "with_meanings"}));

    let before = app.count("submissions").await;
    let (status, err) = upload_under(
        &app,
        &token,
        "H4",
        Some("options=labels_only"),
        &format!("{header}{body}"),
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{err}");
    assert!(
        detail(&err).contains(
            "`options` is `with_meanings` in the file's header but `labels_only` in the upload's conditions"
        ),
        "{err}"
    );
    let bad_value = "{\"conditions\": \"options=maybe\"}\n";
    let (status, err) = upload_under(&app, &token, "H4", None, &format!("{bad_value}{body}")).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{err}");
    assert!(detail(&err).contains("found `maybe`"), "{err}");
    let bad_header = "{\"conditions\": {\"options\": 1}}\n";
    let (status, err) =
        upload_under(&app, &token, "H4", None, &format!("{bad_header}{body}")).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{err}");
    assert!(
        detail(&err).contains("line 1: the file's conditions header"),
        "{err}"
    );
    // A bad data line keeps its own number behind a header.
    let mut lines: Vec<&str> = body.lines().collect();
    lines[1] = "{\"item_id\": \"no-such-item\", \"answer\": 1}";
    let broken = format!("{header}{}\n", lines.join("\n"));
    let (status, err) = upload_under(&app, &token, "H4", None, &broken).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{err}");
    assert!(err.to_string().contains("line 3"), "{err}");
    assert_eq!(app.count("submissions").await, before, "nothing stored");
}

on_both_databases!(
    a_model_under_two_conditions_gets_two_rows_and_a_paired_difference,
    conditions_outside_the_declared_ones_are_refused_naming_what_is_allowed,
    a_file_header_states_the_run_conditions,
);
