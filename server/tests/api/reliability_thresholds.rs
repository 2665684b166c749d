//! The study owner's reliability thresholds: a careless rater whom the quality rules keep is
//! left out of every table by a threshold (planted-check pass rate, leave-one-out gain), with
//! the raters and judgements before and after on the study page and the board, the reason in
//! the judgement export and the change in the owner's action log; out-of-range values are
//! refused naming the field, range and value; and databases of the previous version upgrade.

use crate::helpers::{detail, upgraded_from_before, Db, TestApp};
use crate::on_both_databases;
use crate::studies::{
    as_admin, cmpm_request, comic_outputs, comic_rater, dims, rate_all, raw, study_app,
    three_rater_study, ADMIN, COMICS,
};
use axum::http::{Method, StatusCode};
use serde_json::{json, Value};

const PAGE: &str = "/api/owner/studies/judged";
const SET: &str = "/api/owner/studies/judged/reliability";

/// Three raters of one CMPM batch with planted checks: two careful, one who scores everything
/// 3 (failing every planted check). The quality rule on planted checks is turned off, so the
/// careless rater counts until a threshold leaves them out. Returns the page with the two
/// careful raters only.
async fn three_raters(app: &TestApp) -> Value {
    let subs = comic_outputs(app).await;
    three_rater_study(app, "judged", true, &subs).await;
    for _ in 0..2 {
        rate_all(app, "judged-rate", None, &subs, comic_rater(true))
            .await
            .unwrap();
    }
    let (_, careful) = as_admin(app, Method::GET, PAGE, None).await;
    rate_all(app, "judged-rate", None, &subs, |item: &Value| {
        dims(3, item["prompt"]["has_context"].as_bool().unwrap())
    })
    .await
    .unwrap();
    let console = "/api/owner/tasks/judged-rate/console";
    let (_, console) = as_admin(app, Method::GET, console, None).await;
    let mut settings = console["settings"].clone();
    settings["study"]["quality"]["planted_checks"] = json!(false);
    let put = "/api/owner/tasks/judged-rate/settings";
    let (status, body) = as_admin(app, Method::PUT, put, Some(settings)).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    careful
}

/// `(raters_before, raters_after, judgements_before, judgements_after)` of a summary.
fn counts(summary: &Value) -> (u64, u64, u64, u64) {
    let n = &summary["reliability"];
    let get = |k: &str| n[k].as_u64().unwrap_or_else(|| panic!("{k}: {summary}"));
    (
        get("raters_before"),
        get("raters_after"),
        get("judgements_before"),
        get("judgements_after"),
    )
}

async fn a_threshold_leaves_a_careless_rater_out_of_every_table(db: Db) {
    let app = study_app(db).await;
    let careful = three_raters(&app).await;
    let (_, all) = as_admin(&app, Method::GET, PAGE, None).await;
    assert_eq!(all["summary"]["raters"], 3, "{all}");
    let (_, _, before_j, after_j) = counts(&all["summary"]);
    assert_eq!(counts(&all["summary"]).0, 3);
    assert_eq!(before_j, after_j, "no threshold: nothing left out");
    assert!(all["threshold_excluded"].as_array().unwrap().is_empty());
    assert_ne!(all["tables"]["columns"], careful["tables"]["columns"]);
    let rows = all["raters"].as_array().unwrap();
    let careless = rows
        .iter()
        .find(|r| r["planted_pass_rate"] == 0.0)
        .unwrap_or_else(|| panic!("{all}"));
    let careless_rater = careless["rater"].as_str().unwrap().to_owned();

    // Only the owner may set thresholds.
    let (status, _, _) = raw(&app, Method::PUT, SET, None, Some("{}".into())).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);

    // A minimum planted-check pass rate leaves the careless rater out.
    let t = json!({"min_planted_pass_rate": 0.5});
    let (status, body) = as_admin(&app, Method::PUT, SET, Some(t.clone())).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body, t);
    let (_, page) = as_admin(&app, Method::GET, PAGE, None).await;
    assert_eq!(page["thresholds"], t);
    let summary = &page["summary"];
    assert_eq!(
        (&summary["raters"], &summary["excluded_raters"]),
        (&json!(2), &json!(1))
    );
    let (rb, ra, jb, ja) = counts(summary);
    assert_eq!((rb, ra, jb), (3, 2, before_j));
    assert_eq!(
        ja,
        careful["summary"]["judgements"].as_u64().unwrap(),
        "{page}"
    );
    assert_eq!(page["tables"]["columns"], careful["tables"]["columns"]);
    assert_eq!(page["summary"]["alpha"], careful["summary"]["alpha"]);
    // The reliability rows are those of the raters the quality rules keep: all three.
    assert_eq!(page["raters"], all["raters"]);
    let excluded = page["threshold_excluded"].as_array().unwrap();
    assert_eq!(excluded.len(), 1, "{page}");
    assert_eq!(excluded[0]["rater"], careless_rater.as_str());
    assert_eq!(
        excluded[0]["failures"],
        json!([{"rule": "planted_pass_rate", "value": 0.0, "threshold": 0.5}])
    );

    // The board follows, with the same counts.
    let (_, board) = app.get(&format!("/api/boards/{COMICS}")).await;
    let study = &board["human_eval"]["studies"][0];
    assert_eq!(study["raters"], 2, "{board}");
    assert_eq!(counts(study), (3, 2, jb, ja));
    assert!(
        !board.to_string().contains(&careless_rater),
        "no pseudonym on the board"
    );

    // The export marks the careless rater's judgements with the reason.
    let file = "/api/owner/studies/judged/judgements.jsonl";
    let (status, _, jsonl) = raw(&app, Method::GET, file, Some(ADMIN), None).await;
    assert_eq!(status, StatusCode::OK);
    let lines: Vec<Value> = jsonl
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    for l in &lines {
        let theirs = l["rater"] == careless_rater.as_str();
        assert_eq!(l["excluded"], i64::from(theirs), "{l}");
        let reason = theirs.then_some("below_reliability_threshold");
        assert_eq!(l["exclusion_reason"], json!(reason), "{l}");
    }
    // So does the per-rater file, on each of the rater's rows, with the thresholds failed.
    let file = "/api/owner/studies/judged/raters.csv";
    let (status, _, csv) = raw(&app, Method::GET, file, Some(ADMIN), None).await;
    assert_eq!(status, StatusCode::OK);
    let mut lines = csv.trim_start_matches('\u{feff}').lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    assert_eq!(
        &header[header.len() - 2..],
        ["threshold_excluded", "failed_thresholds"]
    );
    for line in lines {
        let cells: Vec<&str> = line.split(',').collect();
        let tail = &cells[cells.len() - 2..];
        if cells[0] == careless_rater.as_str() {
            assert_eq!(tail, ["1", "planted_pass_rate"], "{csv}");
        } else {
            assert_eq!(tail, ["0", ""], "{csv}");
        }
    }

    // A maximum leave-one-out gain below the careless rater's gain does the same.
    let gain = -careless["loo_delta"].as_f64().unwrap();
    assert!(gain > 0.0, "{careless}");
    let t = json!({"max_loo_gain": gain / 2.0});
    let (status, _) = as_admin(&app, Method::PUT, SET, Some(t)).await;
    assert_eq!(status, StatusCode::OK);
    let (_, page) = as_admin(&app, Method::GET, PAGE, None).await;
    let excluded = page["threshold_excluded"].as_array().unwrap();
    assert_eq!(excluded.len(), 1, "{page}");
    assert_eq!(excluded[0]["failures"][0]["rule"], "loo_gain");
    assert_eq!(page["tables"]["columns"], careful["tables"]["columns"]);

    // An empty object removes the thresholds: everybody counts again.
    let (status, _) = as_admin(&app, Method::PUT, SET, Some(json!({}))).await;
    assert_eq!(status, StatusCode::OK);
    let (_, page) = as_admin(&app, Method::GET, PAGE, None).await;
    assert_eq!(page["summary"]["raters"], 3);
    assert_eq!(page["tables"]["columns"], all["tables"]["columns"]);

    // Every change is in the owner's action log, with the thresholds.
    let console = format!("/api/owner/tasks/{COMICS}/console");
    let (_, console) = as_admin(&app, Method::GET, &console, None).await;
    let logged: Vec<&Value> = console["actions"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|a| a["action"] == "set_reliability_thresholds")
        .collect();
    assert_eq!(logged.len(), 3, "{console}");
    assert!(logged
        .iter()
        .any(|a| a.to_string().contains("min_planted_pass_rate")));
}

async fn out_of_range_thresholds_are_refused_naming_the_field(db: Db) {
    let app = study_app(db).await;
    let subs = comic_outputs(&app).await;
    let path = format!("/api/owner/tasks/{COMICS}/studies");
    let request = cmpm_request("judged", false, &subs);
    let (status, _) = as_admin(&app, Method::POST, &path, Some(request)).await;
    assert_eq!(status, StatusCode::CREATED);
    for (body, expected) in [
        (
            json!({"min_planted_pass_rate": 1.5}),
            "`min_planted_pass_rate`: expected a number from 0 to 1, found 1.5",
        ),
        (
            json!({"min_competence": -0.2}),
            "`min_competence`: expected a number from 0 to 1, found -0.2",
        ),
        (
            json!({"max_loo_gain": 3}),
            "`max_loo_gain`: expected a number from 0 to 2, found 3",
        ),
        (
            json!({"min_pass_rate": 0.5}),
            "unknown field `min_pass_rate`",
        ),
    ] {
        let (status, reply) = as_admin(&app, Method::PUT, SET, Some(body)).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{reply}");
        assert!(detail(&reply).contains(expected), "{reply}");
    }
    let (status, _) = as_admin(
        &app,
        Method::PUT,
        "/api/owner/studies/nope/reliability",
        Some(json!({})),
    )
    .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    // Nothing refused was stored or logged.
    let (_, page) = as_admin(&app, Method::GET, PAGE, None).await;
    assert_eq!(page["thresholds"], json!({}), "{page}");
    let console = format!("/api/owner/tasks/{COMICS}/console");
    let (_, console) = as_admin(&app, Method::GET, &console, None).await;
    assert!(!console.to_string().contains("set_reliability_thresholds"));
}

/// A database of the previous version (every migration before the thresholds) with a study:
/// the upgrade adds the column, empty (no threshold).
async fn earlier_studies_upgrade_without_thresholds(db: Db) {
    use sqlx::Row;
    let (pool, _dir) = upgraded_from_before(
        db,
        "20261211000001_add_study_reliability_thresholds.sql",
        &[
        "INSERT INTO benchmarks (id, slug, title, description, family, created_at) \
         VALUES ('b', 'b', 'B', 'd', 'text_memes', 1)",
        "INSERT INTO tasks (id, benchmark_id, slug, kind, title, description, categories_json, \
         batch_size, quiz_open, created_at) VALUES ('t', 'b', 't', 'explanation', 't', 'd', '[]', 1, 1, 1)",
        "INSERT INTO studies (id, slug, benchmark_id, source_task_id, protocol, request_json, \
         submissions_json, source_items_json, exposed_items_json, created_by, created_at) \
         VALUES ('study-old', 'old', 'b', 't', 'accuracy', '{}', '[]', '[]', '[]', 'admin', 1)",
        ],
    )
    .await;
    let row = sqlx::query("SELECT reliability_json FROM studies WHERE id = 'study-old'")
        .fetch_one(&pool)
        .await
        .unwrap();
    assert_eq!(
        row.try_get::<Option<String>, _>("reliability_json")
            .unwrap(),
        None
    );
}

on_both_databases!(
    a_threshold_leaves_a_careless_rater_out_of_every_table,
    out_of_range_thresholds_are_refused_naming_the_field,
    earlier_studies_upgrade_without_thresholds,
);
