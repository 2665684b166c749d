//! A paper's published figures (issue 30 §3): imported all or nothing against a benchmark
//! imported from the paper's data, with line- and field-level problems; shown on its boards
//! as marked, unranked rows with their citation; and the example files shipped in
//! `examples/published/` read and match the kinds' conditions and metrics.

use crate::helpers::{test_settings, Db, TestApp};
use crate::on_both_databases;
use axum::http::StatusCode;
use memeboard_core::conditions::resolve;
use memeboard_core::kinds::TaskKind;
use memeboard_core::paper_figures::read_paper_figures;
use memeboard_core::predictions::FileFormat;
use memeboard_core::tasks::MemeType;
use memeboard_core::with_kind;
use memeboard_server::import::paper_figures::import_paper_figures;
use memeboard_server::import::BenchmarkSpec;
use memeboard_server::kinds::ServerKind;
use serde_json::{json, Value};
use std::path::PathBuf;

/// A CHIME-format benchmark `chime` with one meme and one question of every meme type.
async fn chime_benchmark(app: &TestApp) {
    let types = MemeType::ALL;
    let memes: Vec<Value> = types
        .iter()
        .enumerate()
        .map(|(i, t)| {
            json!({"meme": format!("梗{i}"), "meaning": format!("意思{i}"), "origin": null,
                   "examples": [format!("他说梗{i}。")], "profanity": false, "offense": false,
                   "type_cn": "现象", "type_en": t.key().replace('_', " ")})
        })
        .collect();
    let mcqs: Vec<Value> = (0..types.len())
        .map(|i| {
            let options: Vec<String> = (0..5).map(|k| format!("梗{}", (i + k) % 6)).collect();
            json!({"sentence": format!("第{i}句_____。"), "correct_answer": 1,
                   "options": {"1": options[0], "2": options[1], "3": options[2],
                               "4": options[3], "5": options[4]}})
        })
        .collect();
    let spec = BenchmarkSpec {
        slug: "chime".into(),
        title: "CHIME".into(),
        description: "test".into(),
        batch_size: 6,
        quiz_open: true,
        dev_percent: 0,
        explain_batch_size: 6,
    };
    app.import_chime_values(&spec, memes, mcqs).await;
}

const GOOD: &str = r#"{"task": "mcq", "model": "GPT-4o", "conditions": "", "metric": "accuracy", "category": "", "subset": "full", "value": 0.75, "n": 1268, "source": "CHIME (EMNLP 2025), Table 4"}
{"task": "mcq", "model": "GPT-4o", "conditions": "", "metric": "accuracy", "category": "slang", "subset": "full", "value": 0.5, "source": "CHIME (EMNLP 2025), Table 4"}
{"task": "mcq", "model": "GPT-4o", "conditions": "options=with_meanings", "metric": "accuracy", "category": "", "subset": "full", "value": 0.9, "source": "CHIME (EMNLP 2025), Table 5"}
{"task": "explain", "model": "GPT-4o", "conditions": "", "metric": "cosine", "category": "", "subset": "full", "value": 0.8, "source": "CHIME (EMNLP 2025), Table 2"}
{"task": "mcq", "model": "Facets only", "metric": "accuracy", "category": "lang:zh", "value": 0.4, "source": "A facet table"}
"#;

async fn published_figures_show_as_marked_rows_and_bad_files_store_nothing(db: Db) {
    let (settings, dir) = test_settings(db, false).await;
    let app = TestApp::with_settings(settings, dir).await;
    chime_benchmark(&app).await;
    let done = import_paper_figures(app.storage(), "chime", GOOD, FileFormat::JsonLines)
        .await
        .expect("import the figures");
    assert_eq!(done.figures, 5);
    assert_eq!(
        done.per_task,
        vec![("chime-explain".to_owned(), 1), ("chime-mcq".to_owned(), 4)]
    );

    let (status, board) = app.get("/api/boards/chime-mcq").await;
    assert_eq!(status, StatusCode::OK, "{board}");
    let published: Vec<&Value> = board["rows"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["kind"] == "published")
        .collect();
    assert_eq!(
        published.len(),
        2,
        "one row per model, conditions and source"
    );
    let plain = published
        .iter()
        .find(|r| r["model"]["conditions"]["options"] == "labels_only")
        .unwrap();
    assert_eq!(plain["label"], "GPT-4o");
    assert_eq!(plain["source"], "CHIME (EMNLP 2025), Table 4");
    assert_eq!(plain["scores"][0]["estimate"]["value"], 0.75);
    assert_eq!(plain["scores"][0]["items"], 1268);
    let slang = plain["scores"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["category"] == "slang")
        .unwrap();
    assert_eq!(slang["estimate"]["value"], 0.5, "exact, never withheld");
    let meanings = published
        .iter()
        .find(|r| r["model"]["conditions"]["options"] == "with_meanings")
        .unwrap();
    assert_eq!(meanings["scores"][0]["estimate"]["value"], 0.9);
    // Only the board's primary metric shows: the explanation board's is identification.
    let (_, explain) = app.get("/api/boards/chime-explain").await;
    assert!(explain["rows"]
        .as_array()
        .unwrap()
        .iter()
        .all(|r| r["kind"] != "published"));

    // Every problem at once, with its line and field; the earlier figures stay.
    let bad = r#"{"task": "mcqq", "model": "M", "metric": "accuracy", "value": 0.5, "source": "S"}
{"task": "mcq", "model": "M", "conditions": "options=maybe", "metric": "accuracy", "value": 0.5, "source": "S"}
{"task": "mcq", "model": "M", "metric": "f1", "category": "slangs", "value": 0.5, "source": "S"}

{"task": "mcq", "model": "N", "metric": "accuracy", "value": 0.5, "source": "S"}
{"task": "chime-mcq", "model": "N", "metric": "accuracy", "value": 0.6, "source": "S"}
"#;
    let err = import_paper_figures(app.storage(), "chime", bad, FileFormat::JsonLines)
        .await
        .expect_err("refused")
        .to_string();
    for expected in [
        "line 1, field `task`: no task `mcqq` in benchmark `chime`; its tasks are chime-explain, chime-mcq",
        "line 2, field `conditions`: `conditions`: `options` expected one of labels_only, with_meanings, found `maybe`",
        "line 3, field `metric`: task `chime-mcq` publishes no metric `f1`; its metrics are accuracy",
        "line 3, field `category`: task `chime-mcq` has no category `slangs`",
        "line 6: the same figure (task, model, conditions, metric, category, subset, source) is already on line 5",
    ] {
        assert!(err.contains(expected), "missing `{expected}` in:\n{err}");
    }
    let (_, again) = app.get("/api/boards/chime-mcq").await;
    let kept = again["rows"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["kind"] == "published")
        .count();
    assert_eq!(kept, 2, "nothing half-written");
    let err = import_paper_figures(app.storage(), "nope", GOOD, FileFormat::JsonLines)
        .await
        .expect_err("no benchmark")
        .to_string();
    assert!(err.contains("no benchmark `nope`"), "{err}");
}

/// The example files of `examples/published/` (the three papers' tables).
fn example(name: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../examples/published")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn the_shipped_example_files_read_and_fit_their_kinds() {
    for (file, kinds) in [
        (
            "chime.jsonl",
            &[
                ("mcq", TaskKind::TextMcq),
                ("explain", TaskKind::Explanation),
            ][..],
        ),
        (
            "cmpm.jsonl",
            &[
                ("order", TaskKind::PanelOrder),
                ("order-context", TaskKind::PanelOrder),
                ("order-canonical", TaskKind::PanelOrder),
                ("order-canonical-context", TaskKind::PanelOrder),
                ("type", TaskKind::PanelType),
            ][..],
        ),
        ("avmeme.jsonl", &[("clips", TaskKind::ClipMcq)][..]),
    ] {
        let figures = read_paper_figures(&example(file), FileFormat::JsonLines)
            .unwrap_or_else(|e| panic!("{file}: {:?}", e.lines()));
        assert!(figures.len() >= 20, "{file}: {} figures", figures.len());
        for (line, f) in &figures {
            let kind = kinds
                .iter()
                .find(|(t, _)| *t == f.task)
                .unwrap_or_else(|| panic!("{file}:{line}: task `{}`", f.task))
                .1;
            resolve(&kind.conditions(), &f.conditions)
                .unwrap_or_else(|e| panic!("{file}:{line}: {e:?}"));
            let metrics = with_kind!(kind, K => K::PAPER_METRICS);
            assert!(
                metrics.contains(&f.metric.as_str()),
                "{file}:{line}: `{}`",
                f.metric
            );
            // A table, or a section for figures the paper gives in its text (CHIME §5.3).
            assert!(
                f.source.contains("Table") || f.source.contains('§'),
                "{file}:{line}: {}",
                f.source
            );
        }
    }
}

async fn the_chime_example_imports_into_a_chime_benchmark(db: Db) {
    let (settings, dir) = test_settings(db, false).await;
    let app = TestApp::with_settings(settings, dir).await;
    chime_benchmark(&app).await;
    let done = import_paper_figures(
        app.storage(),
        "chime",
        &example("chime.jsonl"),
        FileFormat::JsonLines,
    )
    .await
    .expect("the CHIME example imports");
    assert!(done.figures >= 20);
    let (_, board) = app.get("/api/boards/chime-mcq").await;
    let humans = board["rows"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["kind"] == "published" && r["label"].as_str().unwrap().starts_with("Human"))
        .count();
    assert!(
        humans >= 1,
        "the paper's human rows are published rows, not the crowd's"
    );
}

on_both_databases!(
    published_figures_show_as_marked_rows_and_bad_files_store_nothing,
    the_chime_example_imports_into_a_chime_benchmark,
);
