//! CHIME's cross-task analysis (§5.3) as a paper table: each model with a default run on both
//! the MCQ and the explanation task gets P(MCQ right | explained right) and the converse,
//! joined through the answer meme over the items of the board view, rounded to the grid the
//! conditioning count supports, each with a 95% bootstrap interval over the joined questions;
//! nothing before the private half is revealed (the public view shows the published row
//! only), and a model with one run has no row.

use crate::helpers::{demo_questions, test_settings, Db, TestApp};
use crate::leaderboard::{file, new_token, reveal, upload_with, ADMIN};
use crate::on_both_databases;
use axum::http::StatusCode;
use memeboard_core::api::BoardSplit;
use memeboard_core::disclosure::{item_grid, on_grid, round_to};
use memeboard_core::leaderboard::ItemScore;
use memeboard_core::predictions::FileFormat;
use memeboard_server::import::paper_figures::import_paper_figures;
use serde_json::Value;
use std::collections::HashMap;

const MODEL: &str = "Cross-7B";
const MCQ: &str = "demo-mcq";
const EXPLAIN: &str = "demo-explain";
const TABLE: &str = "chime-cross-task";

const FIGURES: &str = r#"{"task": "mcq", "model": "Models evaluated (pooled)", "metric": "mcq_given_explained", "value": 0.83, "source": "CHIME §5.3"}
{"task": "mcq", "model": "Models evaluated (pooled)", "metric": "explained_given_mcq", "value": 0.73, "source": "CHIME §5.3"}
"#;

/// The identification score given to the explanation of the `k`-th explanation item: one in
/// three at 0.3 (wrong), one at exactly the threshold 0.9 (right), one at 0.95 (right).
fn explanation_score(k: usize) -> f64 {
    [0.3, 0.9, 0.95][k % 3]
}

/// Stores an explanation run of `MODEL` with the scores of [`explanation_score`], built from
/// the author's MCQ run (the scorer needs embedding models the tests do without).
async fn store_explanation_run(app: &TestApp, mcq_submission: &str) {
    let storage = app.storage();
    let base = storage
        .find_submission(mcq_submission)
        .await
        .unwrap()
        .unwrap();
    let scores: Vec<ItemScore> = storage
        .task_items(EXPLAIN)
        .await
        .unwrap()
        .into_iter()
        .enumerate()
        .map(|(k, i)| ItemScore {
            item_id: i.id,
            category: i.category,
            score: explanation_score(k),
        })
        .collect();
    let record = memeboard_server::storage::SubmissionRecord {
        id: format!("{mcq_submission}-explain"),
        task_id: EXPLAIN.to_owned(),
        item_scores_json: serde_json::to_string(&scores).unwrap(),
        public_summary_json: "[]".into(),
        private_summary_json: "[]".into(),
        extra_json: None,
        conditions_json: None,
        created_at: base.created_at + 1,
        ..base
    };
    storage.insert_submission(&record).await.unwrap();
}

/// P(MCQ right | explained), P(explained | MCQ right) by hand on `view`: exact value, the
/// pairs meeting the condition, the joined pairs.
async fn by_hand(
    app: &TestApp,
    mcq_submission: &str,
    view: BoardSplit,
) -> [(f64, usize, usize); 2] {
    let storage = app.storage();
    let memes = |task: &'static str| async move {
        let on_view: Vec<String> = storage
            .task_items(task)
            .await
            .unwrap()
            .into_iter()
            .filter(|i| i.on_board(view))
            .map(|i| i.id)
            .collect();
        storage
            .item_memes(task)
            .await
            .unwrap()
            .into_iter()
            .filter(|(id, _)| on_view.contains(id))
            .map(|(id, m)| (id, m.unwrap()))
            .collect::<Vec<_>>()
    };
    let explain_ids: Vec<String> = storage
        .task_items(EXPLAIN)
        .await
        .unwrap()
        .into_iter()
        .map(|i| i.id)
        .collect();
    let explained: HashMap<String, bool> = memes(EXPLAIN)
        .await
        .into_iter()
        .map(|(id, meme)| {
            let k = explain_ids.iter().position(|x| *x == id).unwrap();
            (meme, explanation_score(k) >= 0.9)
        })
        .collect();
    let stored = storage
        .find_submission(mcq_submission)
        .await
        .unwrap()
        .unwrap();
    let mcq_scores: Vec<ItemScore> = serde_json::from_str(&stored.item_scores_json).unwrap();
    let mut pairs = Vec::new();
    for (id, meme) in memes(MCQ).await {
        let Some(e) = explained.get(&meme) else {
            continue;
        };
        let score = mcq_scores.iter().find(|s| s.item_id == id).unwrap().score;
        pairs.push((score >= 0.5, *e));
    }
    let share = |cond: fn(&(bool, bool)) -> bool, out: fn(&(bool, bool)) -> bool| {
        let held: Vec<_> = pairs.iter().filter(|p| cond(p)).collect();
        let hits = held.iter().filter(|p| out(p)).count();
        (hits as f64 / held.len() as f64, held.len(), pairs.len())
    };
    [share(|p| p.1, |p| p.0), share(|p| p.0, |p| p.1)]
}

fn table(tables: &Value) -> &Value {
    crate::paper_tables::table(tables, TABLE)
}

fn row<'a>(table: &'a Value, label: &str) -> Option<&'a Value> {
    crate::paper_tables::find_row(table, |r| r["label"] == label)
}

async fn the_cross_task_table_joins_both_runs_through_the_meme_once_revealed(db: Db) {
    let (mut settings, dir) = test_settings(db, true).await;
    settings.leaderboard.daily_quota = 5;
    settings.admin.token = ADMIN.into();
    let (scale, min_items) = (
        settings.leaderboard.score_grid_scale,
        settings.leaderboard.min_category_items,
    );
    let app = TestApp::with_settings(settings, dir).await;
    let token = new_token(&app, "Team Cross").await;
    let right = demo_questions() * 3 / 5;
    let q = format!("model={MODEL}&weights=open");
    let (status, up) = upload_with(&app, &token, &q, &file(&app, right).await).await;
    assert_eq!(status, StatusCode::CREATED, "{up}");
    let mcq_submission = up["submission_id"].as_str().unwrap().to_owned();
    store_explanation_run(&app, &mcq_submission).await;
    // A model with an MCQ run only gets no row.
    let q = "model=McqOnly-7B&weights=open";
    let (status, up) = upload_with(&app, &token, q, &file(&app, right).await).await;
    assert_eq!(status, StatusCode::CREATED, "{up}");
    import_paper_figures(app.storage(), "demo", FIGURES, FileFormat::JsonLines)
        .await
        .expect("import the figures");

    // Before the reveal: the public view has the table with the published row only, the
    // revealed views are refused.
    let (status, tables) = app.get("/api/benchmarks/demo/tables").await;
    assert_eq!(status, StatusCode::OK, "{tables}");
    let t = table(&tables);
    assert!(row(t, MODEL).is_none(), "nothing on the public half: {t}");
    let published = row(t, "Models evaluated (pooled)").expect("the published row");
    assert_eq!(published["kind"], "published");
    assert_eq!(published["source"], "CHIME §5.3");
    assert_eq!(published["cells"][0]["value"], 0.83);
    assert_eq!(published["cells"][1]["value"], 0.73);
    for split in ["private", "whole"] {
        let (status, body) = app
            .get(&format!("/api/benchmarks/demo/tables?split={split}"))
            .await;
        assert_eq!(status, StatusCode::FORBIDDEN, "{split}: {body}");
        assert!(!body.to_string().contains(MODEL), "{split}: {body}");
    }

    reveal(&app, MCQ).await;
    reveal(&app, EXPLAIN).await;
    let (_, tables) = app.get("/api/benchmarks/demo/tables").await;
    assert!(
        row(table(&tables), MODEL).is_none(),
        "still nothing on the public half"
    );
    let mut intervals = 0;
    for (split, view) in [
        ("private", BoardSplit::Private),
        ("whole", BoardSplit::Whole),
    ] {
        let (status, tables) = app
            .get(&format!("/api/benchmarks/demo/tables?split={split}"))
            .await;
        assert_eq!(status, StatusCode::OK, "{split}: {tables}");
        let t = table(&tables);
        assert!(row(t, "McqOnly-7B").is_none(), "{split}: one run only: {t}");
        let m = row(t, MODEL).unwrap_or_else(|| panic!("{split}: no row {MODEL}: {t}"));
        assert_eq!(m["kind"], "model");
        for (k, (exact, of, joined)) in by_hand(&app, &mcq_submission, view)
            .await
            .into_iter()
            .enumerate()
        {
            let cell = &m["cells"][k];
            assert!(joined > 0 && of <= joined, "{split}: {of} of {joined}");
            if of < min_items {
                assert!(cell.is_null(), "{split} column {k}: {of} pairs: {cell}");
                continue;
            }
            let step = item_grid(of, scale).unwrap();
            assert_eq!(
                cell["value"].as_f64(),
                Some(round_to(exact, step)),
                "{split} column {k}: exact {exact} over {of}, step {step}"
            );
            assert_eq!(cell["items"].as_u64(), Some(joined as u64), "{split}");
            // A 95% bootstrap interval over the joined questions, widened to the grid.
            let value = cell["value"].as_f64().unwrap();
            let (lo, hi) = (
                cell["ci_low"].as_f64().unwrap(),
                cell["ci_high"].as_f64().unwrap(),
            );
            assert!(lo <= value && value <= hi, "{split}: {cell}");
            assert!(on_grid(lo, step) && on_grid(hi, step), "{split}: {cell}");
            intervals += 1;
        }
    }
    assert!(intervals > 0, "no published figure with its interval");
    // The whole split has both halves' pairs: at least one figure is published there.
    let (_, tables) = app.get("/api/benchmarks/demo/tables?split=whole").await;
    let m = row(table(&tables), MODEL).unwrap();
    assert!(
        m["cells"].as_array().unwrap().iter().any(|c| !c.is_null()),
        "{m}"
    );
}

on_both_databases!(the_cross_task_table_joins_both_runs_through_the_meme_once_revealed);
