//! The paper-tables page (issue 30 §4): each table of a benchmark's paper filled from the
//! boards (every site figure is one a board publishes, so no table opens a gold channel the
//! boards keep shut), with the published rows beside them, a Δ column from the boards'
//! paired differences, the private half only once revealed, and CSV and LaTeX downloads.

use crate::helpers::{demo_questions, detail, Db};
use crate::leaderboard::{app_with, file, new_token, send, upload_with, TASK};
use crate::on_both_databases;
use axum::http::{Method, StatusCode};
use memeboard_core::predictions::FileFormat;
use memeboard_server::import::paper_figures::import_paper_figures;
use serde_json::Value;

const FIGURES: &str = r#"{"task": "mcq", "model": "GPT-4o", "metric": "accuracy", "value": 0.75, "n": 1268, "source": "CHIME (EMNLP 2025), Table 4"}
{"task": "mcq", "model": "GPT-4o", "conditions": "options=with_meanings", "metric": "accuracy", "value": 0.9, "source": "CHIME (EMNLP 2025), Table 5"}
"#;

/// The table `id` of a tables response.
pub(crate) fn table<'a>(tables: &'a Value, id: &str) -> &'a Value {
    tables["tables"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["id"] == id)
        .unwrap_or_else(|| panic!("no table {id}: {tables}"))
}

/// The row labelled `label` of kind `kind` in a table.
fn row<'a>(table: &'a Value, kind: &str, label: &str) -> &'a Value {
    find_row(table, |r| r["kind"] == kind && r["label"] == label)
        .unwrap_or_else(|| panic!("no {kind} row {label}: {table}"))
}

/// The first row of a table that `pick` picks.
pub(crate) fn find_row(table: &Value, pick: impl Fn(&Value) -> bool) -> Option<&Value> {
    table["rows"].as_array().unwrap().iter().find(|r| pick(r))
}

/// Every number in a JSON value.
fn numbers(v: &Value, out: &mut Vec<f64>) {
    match v {
        Value::Number(n) => out.extend(n.as_f64()),
        Value::Array(a) => a.iter().for_each(|x| numbers(x, out)),
        Value::Object(o) => o.values().for_each(|x| numbers(x, out)),
        _ => {}
    }
}

async fn the_tables_reproduce_the_board_beside_the_published_figures(db: Db) {
    let app = app_with(db, 5).await;
    let token = new_token(&app, "Team T").await;
    let q = "model=M&weights=open";
    let (status, _) = upload_with(&app, &token, q, &file(&app, 12).await).await;
    assert_eq!(status, StatusCode::CREATED);
    let q = "model=M&weights=open&conditions=options=with_meanings";
    let (status, _) = upload_with(&app, &token, q, &file(&app, demo_questions()).await).await;
    assert_eq!(status, StatusCode::CREATED);
    import_paper_figures(app.storage(), "demo", FIGURES, FileFormat::JsonLines)
        .await
        .expect("import the figures");

    let (status, tables) = app.get("/api/benchmarks/demo/tables").await;
    assert_eq!(status, StatusCode::OK, "{tables}");
    assert_eq!(tables["split"], "public");
    let (_, board) = app.get(&format!("/api/boards/{TASK}")).await;
    let board_row = board["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["label"] == "M" && r["model"]["conditions"]["options"] == "labels_only")
        .expect("the labels-only row");

    // Table 4: the default run, with exactly the board's figures, interval and items.
    let t4 = table(&tables, "chime-table-4");
    assert_eq!(t4["paper"], "CHIME Table 4");
    assert_eq!(t4["columns"][0]["key"], "overall");
    let m = row(t4, "model", "M");
    for (k, score) in board_row["scores"].as_array().unwrap().iter().enumerate() {
        let cell = &m["cells"][k];
        match score.get("estimate").filter(|e| !e.is_null()) {
            Some(e) => {
                assert_eq!(cell["value"], e["value"], "column {k}");
                assert_eq!(cell["ci_low"], e["ci_low"], "column {k}");
                assert_eq!(cell["ci_high"], e["ci_high"], "column {k}");
            }
            None => assert!(cell.is_null(), "a withheld category stays empty: {cell}"),
        }
    }
    // Every site figure of every table is a number the boards publish.
    let mut published_numbers = Vec::new();
    numbers(&board, &mut published_numbers);
    for t in tables["tables"].as_array().unwrap() {
        for r in t["rows"].as_array().unwrap() {
            if r["kind"] == "published" {
                continue;
            }
            for (c, cell) in t["columns"]
                .as_array()
                .unwrap()
                .iter()
                .zip(r["cells"].as_array().unwrap())
            {
                if c["delta"] == true || cell.is_null() {
                    continue;
                }
                for key in ["value", "ci_low", "ci_high"] {
                    if let Some(v) = cell[key].as_f64() {
                        assert!(
                            published_numbers.contains(&v),
                            "{key} {v} of {} is on no board",
                            t["id"]
                        );
                    }
                }
            }
        }
    }
    let gpt = row(t4, "published", "GPT-4o");
    assert_eq!(gpt["cells"][0]["value"], 0.75);
    assert_eq!(gpt["cells"][0]["items"], 1268);
    assert_eq!(gpt["source"], "CHIME (EMNLP 2025), Table 4");

    // Table 5: the run with meanings and its Δ, the board's paired difference.
    let t5 = table(&tables, "chime-table-5");
    let m5 = row(t5, "model", "M");
    assert!(
        m5.get("conditions").is_none(),
        "the table's own condition is in its title: {m5}"
    );
    let delta = m5["cells"].as_array().unwrap().last().unwrap();
    assert_eq!(delta["value"], board["paired"][0]["delta"], "{t5}");
    assert!(
        delta.get("ci_low").is_none(),
        "no interval on the public half"
    );
    let published = row(t5, "published", "GPT-4o");
    let d = published["cells"].as_array().unwrap().last().unwrap()["value"]
        .as_f64()
        .unwrap();
    assert!((d - 0.15).abs() < 1e-9, "{published}");
}

async fn the_private_tables_wait_for_the_reveal_and_downloads_open(db: Db) {
    let app = app_with(db, 5).await;
    let token = new_token(&app, "Team P").await;
    let (status, _) =
        upload_with(&app, &token, "model=M&weights=open", &file(&app, 20).await).await;
    assert_eq!(status, StatusCode::CREATED);
    let (status, err) = app.get("/api/benchmarks/demo/tables?split=private").await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{err}");
    let (status, text) = send(
        &app,
        Method::GET,
        "/api/benchmarks/demo/tables/chime-table-4.csv?split=private",
        None,
        "",
        "text/plain",
    )
    .await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{text}");

    crate::leaderboard::reveal(&app, TASK).await;
    let (status, tables) = app.get("/api/benchmarks/demo/tables?split=private").await;
    assert_eq!(status, StatusCode::OK, "{tables}");
    assert_eq!(tables["split"], "private");
    let (_, board) = app.get(&format!("/api/boards/{TASK}?split=private")).await;
    let m = row(table(&tables, "chime-table-4"), "model", "M");
    let board_m = board["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["label"] == "M")
        .unwrap();
    assert_eq!(
        m["cells"][0]["value"],
        board_m["scores"][0]["estimate"]["value"]
    );

    let (status, csv) = send(
        &app,
        Method::GET,
        "/api/benchmarks/demo/tables/chime-table-4.csv",
        None,
        "",
        "text/plain",
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{csv}");
    assert!(
        csv.starts_with("row,kind,conditions,source,overall,overall_ci_low"),
        "{csv}"
    );
    assert!(csv.lines().any(|l| l.starts_with("M,model,")), "{csv}");
    let (status, tex) = send(
        &app,
        Method::GET,
        "/api/benchmarks/demo/tables/chime-table-4.tex?lang=zh",
        None,
        "",
        "text/plain",
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{tex}");
    assert!(
        tex.contains("\\toprule") && tex.contains("模型 & 总体"),
        "{tex}"
    );

    let (status, err) = app
        .get("/api/benchmarks/demo/tables/chime-table-99.csv")
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(
        detail(&err).contains("chime-table-4"),
        "names the tables: {err}"
    );
    let (status, err) = app
        .get("/api/benchmarks/demo/tables/chime-table-4.pdf")
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(detail(&err).contains("`.csv` or `.tex`"), "{err}");
    let (status, err) = app.get("/api/benchmarks/nope/tables").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(detail(&err).contains("no benchmark named `nope`"), "{err}");
}

/// A model that always picks the first option shown, under all five option orders: the
/// board's secondary figures and the position-bias tables show it right wherever the answer
/// is at A and wrong elsewhere, one column per order (CHIME §5.1).
async fn position_bias_shows_a_model_that_favours_one_letter(db: Db) {
    let app = app_with(db, 5).await;
    let token = new_token(&app, "Team P").await;
    let items = app.storage().task_items(TASK).await.unwrap();
    let ids: Vec<String> = items.iter().map(|r| r.id.clone()).collect();
    // Items on the public half: each order's figure covers one answer per item, published
    // only over at least 10 of them.
    let public = items
        .iter()
        .filter(|r| r.split.as_str() == "test" && r.board_half.as_str() == "public")
        .count();
    let body: String = ids
        .iter()
        .flat_map(|id| {
            (0..5).map(move |o| format!("{{\"item_id\":\"{id}\",\"order\":{o},\"answer\":1}}\n"))
        })
        .collect();
    let (status, sub) = upload_with(&app, &token, "model=FirstLetter", &body).await;
    assert_eq!(status, StatusCode::CREATED, "{sub}");

    let (_, board) = app.get(&format!("/api/boards/{TASK}")).await;
    let extra = board["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["label"] == "FirstLetter")
        .map(|r| r["extra"].clone())
        .expect("the model's row");
    let figure = |key: &str| {
        extra
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["key"] == key)
            .cloned()
    };
    for order in 1..=5 {
        match figure(&format!("order:{order}")) {
            Some(f) => assert_eq!(f["items"].as_u64(), Some(public as u64), "{f}"),
            None => assert!(public < 10, "order {order} over {public} items: {extra}"),
        }
    }
    let at_a = figure("position:A").unwrap_or_else(|| panic!("position A: {extra}"));
    assert_eq!(at_a["value"], 1.0, "{at_a}");
    for letter in ["B", "C", "D", "E"] {
        if let Some(f) = figure(&format!("position:{letter}")) {
            assert_eq!(f["value"], 0.0, "{letter}: {f}");
        }
    }

    let (_, tables) = app.get("/api/benchmarks/demo/tables").await;
    let bias = table(&tables, "chime-position-bias");
    assert_eq!(bias["columns"][0]["key"], "position:A", "{bias}");
    assert_eq!(row(bias, "model", "FirstLetter")["cells"][0]["value"], 1.0);
    let orders = table(&tables, "chime-option-orders");
    let keys: Vec<&str> = orders["columns"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|c| c["key"].as_str())
        .collect();
    if public >= 10 {
        assert_eq!(
            keys,
            ["order:1", "order:2", "order:3", "order:4", "order:5"]
        );
    } else {
        assert!(
            keys.is_empty(),
            "no order is published over {public} items: {orders}"
        );
    }
}

on_both_databases!(
    the_tables_reproduce_the_board_beside_the_published_figures,
    the_private_tables_wait_for_the_reveal_and_downloads_open,
    position_bias_shows_a_model_that_favours_one_letter,
);
