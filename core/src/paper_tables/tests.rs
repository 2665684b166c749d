//! Filling the kinds' table specs from hand-made boards and published figures, and the
//! downloads.

use super::render::{to_csv, to_latex, Lang};
use super::*;
use crate::api::BoardResponse;
use crate::kinds::TaskKind;
use crate::paper_figures::PaperFigure;
use serde_json::{json, Value};
use std::collections::HashMap;

/// A board row of a model run under `conditions`, overall `value` and one category.
fn model(label: &str, conditions: Value, value: f64, slang: f64) -> Value {
    json!({"kind": "model", "label": label, "submission_id": label, "submitted_at": 1,
           "status": "scored",
           "model": {"model_name": label, "organisation": "", "parameters": null,
                     "weights": "open", "link": null, "description": "", "conditions": conditions},
           "scores": [{"category": null, "items": 20, "estimate": {"value": value, "ci_low": value - 0.1, "ci_high": value + 0.1}},
                      {"category": "slang", "items": 10, "estimate": {"value": slang, "ci_low": 0.0, "ci_high": 1.0}},
                      {"category": "pun", "items": 3, "suppressed": true}],
           "extra": [{"name": "parse rate", "key": "parse_rate", "value": 0.5},
                     {"name": "sound:song", "value": 0.25, "items": 12}]})
}

/// A board of `task` with the text-MCQ conditions and `rows`.
fn board(task: &str, rows: Vec<Value>, paired: Value) -> BoardResponse {
    serde_json::from_value(json!({
        "task": task, "title": task, "split": "public", "metric": "accuracy",
        "missing_policy": "", "items": 20, "private_revealed": false, "blind": false,
        "categories": [{"key": "slang", "label_en": "Slang", "label_zh": "俚语"},
                       {"key": "pun", "label_en": "Pun", "label_zh": "谐音"}],
        "conditions": [{"name": "options", "values": ["labels_only", "with_meanings"], "default": "labels_only"}],
        "rows": rows, "paired": paired
    }))
    .expect("a board")
}

fn labels_only() -> Value {
    json!({"options": "labels_only"})
}

fn with_meanings() -> Value {
    json!({"options": "with_meanings"})
}

/// A published figure on `chime-mcq`.
fn figure(
    model: &str,
    options: &str,
    category: Option<&str>,
    value: f64,
    source: &str,
) -> PaperFigure {
    PaperFigure {
        task: "chime-mcq".into(),
        model: model.into(),
        conditions: [("options".to_owned(), options.to_owned())].into(),
        metric: "accuracy".into(),
        category: category.map(str::to_owned),
        subset: "full".into(),
        value,
        n: Some(1268),
        source: source.into(),
    }
}

struct Fixture {
    tasks: Vec<String>,
    boards: HashMap<BoardKey, BoardResponse>,
    primary: HashMap<String, &'static str>,
    figures: Vec<PaperFigure>,
    computed: ComputedCells,
}

impl Fixture {
    fn chime() -> Self {
        let rows = vec![
            model("A", labels_only(), 0.6, 0.5),
            model("A", with_meanings(), 0.8, 0.9),
            model("B", with_meanings(), 0.7, 0.7),
            json!({"kind": "human_average", "label": "Human average", "submission_id": null,
                   "model": null, "submitted_at": null, "status": "scored", "participants": 3,
                   "scores": [{"category": null, "items": 20, "estimate": {"value": 0.9, "ci_low": 0.8, "ci_high": 0.95}}]}),
        ];
        let paired = json!([{"model": "A", "condition": "options", "from": "labels_only",
                             "to": "with_meanings", "from_submission": "A", "to_submission": "A",
                             "delta": 0.2, "items": 20}]);
        let mcq = board("chime-mcq", rows, paired);
        Self {
            tasks: vec!["chime-mcq".into(), "chime-explain".into()],
            boards: [(("chime-mcq".to_owned(), "full".to_owned()), mcq)].into(),
            primary: [("chime-mcq".to_owned(), "accuracy")].into(),
            figures: vec![
                figure("GPT-4o", "labels_only", None, 0.75, "CHIME, Table 4"),
                figure(
                    "GPT-4o",
                    "labels_only",
                    Some("slang"),
                    0.5,
                    "CHIME, Table 4",
                ),
                figure("GPT-4o", "with_meanings", None, 0.9, "CHIME, Table 5"),
            ],
            computed: HashMap::new(),
        }
    }

    fn inputs(&self) -> TableInputs<'_> {
        TableInputs {
            benchmark: "chime",
            tasks: &self.tasks,
            boards: &self.boards,
            primary_metrics: &self.primary,
            figures: &self.figures,
            computed: &self.computed,
        }
    }

    /// The multiple-choice board taken out, to be reused as a clip board (its conditions the
    /// clip task's).
    fn take_mcq_board_as_clips(&mut self) -> BoardResponse {
        let mut clips = self
            .boards
            .remove(&("chime-mcq".to_owned(), "full".to_owned()))
            .expect("board");
        clips.conditions = TaskKind::ClipMcq.conditions();
        clips
    }
}

fn spec(kind: TaskKind, id: &str) -> TableSpec {
    *kind
        .paper_tables()
        .iter()
        .find(|s| s.id == id)
        .expect("the spec")
}

#[test]
fn table_4_takes_the_default_runs_the_crowd_and_the_published_rows() {
    let f = Fixture::chime();
    let t = build_table(&spec(TaskKind::TextMcq, "chime-table-4"), &f.inputs()).expect("a table");
    let keys: Vec<&str> = t.columns.iter().map(|c| c.key.as_str()).collect();
    assert_eq!(keys, ["overall", "slang", "pun"]);
    let labels: Vec<(&str, RowKind)> = t.rows.iter().map(|r| (r.label.as_str(), r.kind)).collect();
    assert_eq!(
        labels,
        [
            ("A", RowKind::Model),
            ("Human average", RowKind::HumanAverage),
            ("GPT-4o", RowKind::Published)
        ]
    );
    // The site's figures are the board's, interval and items included; a withheld category
    // stays empty.
    let a = &t.rows[0];
    assert_eq!(
        a.cells[0].map(|c| (c.value, c.ci_low, c.items)),
        Some((0.6, Some(0.5), Some(20)))
    );
    assert_eq!(a.cells[1].map(|c| c.value), Some(0.5));
    assert_eq!(a.cells[2], None);
    assert!(a.conditions.is_empty(), "defaults are not named");
    let gpt = &t.rows[2];
    assert_eq!(
        gpt.cells[0],
        Some(TableCell {
            value: 0.75,
            ci_low: None,
            ci_high: None,
            items: Some(1268),
            pairs: None,
        })
    );
    assert_eq!(gpt.cells[1].map(|c| c.value), Some(0.5));
    assert_eq!(gpt.source.as_deref(), Some("CHIME, Table 4"));
}

#[test]
fn table_5_pairs_each_run_with_its_labels_only_run() {
    let f = Fixture::chime();
    let t = build_table(&spec(TaskKind::TextMcq, "chime-table-5"), &f.inputs()).expect("a table");
    assert_eq!(t.columns.last().map(|c| c.delta), Some(true));
    let row = |label: &str| t.rows.iter().find(|r| r.label == label).expect(label);
    // A: the board's paired difference; B ran only with meanings: no Δ; the published row:
    // 0.9 (Table 5) − 0.75 (Table 4).
    assert_eq!(
        row("A").cells[3].map(|c| (c.value, c.items)),
        Some((0.2, Some(20)))
    );
    assert!(
        row("A").conditions.is_empty(),
        "the title names the table's conditions"
    );
    assert_eq!(row("B").cells[3], None);
    let d = row("GPT-4o").cells[3].expect("a published Δ").value;
    assert!((d - 0.15).abs() < 1e-12);
    assert!(
        t.rows.iter().all(|r| r.kind != RowKind::HumanAverage),
        "no crowd in an ablation"
    );
}

#[test]
fn a_benchmark_without_the_task_has_no_such_table() {
    let f = Fixture::chime();
    assert!(build_table(&spec(TaskKind::PanelType, "cmpm-table-5"), &f.inputs()).is_none());
    assert_eq!(
        resolve_task("chime", &f.tasks, "explain"),
        Some("chime-explain")
    );
}

#[test]
fn condition_columns_and_facets_read_one_row_per_model() {
    let mut f = Fixture::chime();
    // Reuse the board as a clip board: thinking levels as the conditions.
    let mut clips = f.take_mcq_board_as_clips();
    let run = |thinking: &str, value: f64| {
        model(
            "G",
            json!({"input": "audio", "thinking": thinking, "hint": "none"}),
            value,
            value,
        )
    };
    clips.rows = vec![
        serde_json::from_value(run("default", 0.5)).expect("row"),
        serde_json::from_value(run("high", 0.7)).expect("row"),
    ];
    clips.paired.clear();
    f.tasks = vec!["av-clips".into()];
    f.boards = [(("av-clips".to_owned(), "full".to_owned()), clips)].into();
    f.figures.clear();
    let inputs = TableInputs {
        benchmark: "av",
        ..f.inputs()
    };
    let t = build_table(&spec(TaskKind::ClipMcq, "avmeme-table-5"), &inputs).expect("a table");
    assert_eq!(t.rows.len(), 1);
    let values: Vec<Option<f64>> = t.rows[0].cells.iter().map(|c| c.map(|c| c.value)).collect();
    assert_eq!(values, [Some(0.5), None, None, Some(0.7)]);
    let t = build_table(&spec(TaskKind::ClipMcq, "avmeme-table-2"), &inputs).expect("a table");
    assert_eq!(
        t.columns.iter().map(|c| c.key.as_str()).collect::<Vec<_>>(),
        ["sound:song"]
    );
    assert_eq!(
        t.rows[0].cells[0].map(|c| (c.value, c.items)),
        Some((0.25, Some(12)))
    );
}

#[test]
fn downloads_carry_every_figure() {
    let f = Fixture::chime();
    let t = build_table(&spec(TaskKind::TextMcq, "chime-table-4"), &f.inputs()).expect("a table");
    let csv = to_csv(&t);
    assert_eq!(csv.lines().count(), 1 + t.rows.len());
    assert!(
        csv.contains("\nA,model,,,0.6,0.5,0.7,20,0.5,0,1,10,,,,\n"),
        "{csv}"
    );
    let tex = to_latex(&t, Lang::Zh, crate::api::BoardSplit::Public);
    assert!(tex.contains("模型 & 总体 & 俚语 & 谐音 \\\\"), "{tex}");
    assert!(
        tex.contains("A & 60.0 {\\scriptsize [50.0, 70.0]} & 50.0"),
        "{tex}"
    );
    assert!(
        tex.contains("GPT-4o$^{\\dagger}$ & 75.0 & 50.0 & --"),
        "{tex}"
    );
    assert!(tex.contains("CHIME, Table 4"));
    // The crowd's row by its kind, in the table's language (models keep their names).
    let crowd = crate::page_text::board::BOARD_ZH.row_human_average;
    assert!(tex.contains(&format!("\n{crowd} & ")), "{tex}");
    assert!(!tex.contains("Human average"), "{tex}");
    let tex = to_latex(&t, Lang::En, crate::api::BoardSplit::Public);
    assert!(tex.contains("\nHuman average (crowd) & "), "{tex}");
}

#[test]
fn table_10_reads_one_metric_per_meme_type_from_the_keyed_figures() {
    let mut f = Fixture::chime();
    let mut row = model("A", json!({}), 0.9, 0.8);
    row["extra"] = json!([
        {"name": "cosine", "key": "cosine", "value": 0.71},
        {"name": "cosine: slang", "key": "cosine:slang", "value": 0.64, "items": 12},
        {"name": "BERTScore: slang", "key": "bertscore:slang", "value": 0.6, "items": 12}
    ]);
    let mut explain = board("chime-explain", vec![row], json!([]));
    explain.conditions = Vec::new();
    f.boards
        .insert(("chime-explain".to_owned(), "full".to_owned()), explain);
    f.primary
        .insert("chime-explain".to_owned(), "identification");
    f.figures.push(PaperFigure {
        task: "chime-explain".into(),
        model: "GPT-4o".into(),
        conditions: Default::default(),
        metric: "cosine".into(),
        category: Some("slang".into()),
        subset: "full".into(),
        value: 0.66,
        n: None,
        source: "CHIME, Table 10".into(),
    });
    let t =
        build_table(&spec(TaskKind::Explanation, "chime-table-10"), &f.inputs()).expect("a table");
    let keys: Vec<&str> = t.columns.iter().map(|c| c.key.as_str()).collect();
    assert_eq!(keys, ["overall", "slang", "pun"]);
    assert_eq!(t.columns[1].label_en, "Slang");
    let a = t.rows.iter().find(|r| r.label == "A").expect("the model");
    let values: Vec<Option<f64>> = a.cells.iter().map(|c| c.map(|c| c.value)).collect();
    assert_eq!(
        values,
        [Some(0.71), Some(0.64), None],
        "the withheld type stays empty"
    );
    let gpt = t
        .rows
        .iter()
        .find(|r| r.label == "GPT-4o")
        .expect("published");
    assert_eq!(gpt.cells[1].map(|c| c.value), Some(0.66));
    assert_eq!(gpt.cells[0], None);
}

#[test]
fn the_cross_task_table_lists_the_models_with_computed_figures_and_the_published_row() {
    let mut f = Fixture::chime();
    let explain = board(
        "chime-explain",
        vec![model("A", json!({}), 0.7, 0.7)],
        json!([]),
    );
    f.boards
        .insert(("chime-explain".to_owned(), "full".to_owned()), explain);
    // A's labels-only run has figures (submission id "A"); B has no default run.
    let cell = TableCell {
        items: Some(40),
        ..TableCell::plain(0.8)
    };
    f.computed
        .insert(("mcq_given_explained".to_owned(), "A".to_owned()), cell);
    f.figures.push(PaperFigure {
        metric: "mcq_given_explained".into(),
        model: "Models (pooled)".into(),
        n: None,
        source: "CHIME §5.3".into(),
        ..figure("x", "labels_only", None, 0.83, "")
    });
    let spec = spec(TaskKind::TextMcq, "chime-cross-task");
    assert_eq!(
        boards_needed(&spec, "chime", &f.tasks),
        [
            ("chime-mcq".to_owned(), "full".to_owned()),
            ("chime-explain".to_owned(), "full".to_owned())
        ]
    );
    let t = build_table(&spec, &f.inputs()).expect("a table");
    let keys: Vec<&str> = t.columns.iter().map(|c| c.key.as_str()).collect();
    assert_eq!(keys, ["mcq_given_explained", "explained_given_mcq"]);
    assert!(t.columns.iter().all(|c| c.percent));
    let rows: Vec<(&str, RowKind)> = t.rows.iter().map(|r| (r.label.as_str(), r.kind)).collect();
    assert_eq!(
        rows,
        [
            ("A", RowKind::Model),
            ("Models (pooled)", RowKind::Published)
        ]
    );
    assert_eq!(t.rows[0].cells, [Some(cell), None]);
    assert_eq!(t.rows[1].cells, [Some(TableCell::plain(0.83)), None]);
    assert_eq!(t.rows[1].source.as_deref(), Some("CHIME §5.3"));

    // Without the explanation task, no table.
    let tasks = vec!["chime-mcq".to_owned()];
    assert!(boards_needed(&spec, "chime", &tasks).is_empty());
    let inputs = TableInputs {
        tasks: &tasks,
        ..f.inputs()
    };
    assert_eq!(build_table(&spec, &inputs), None);
}

#[test]
fn figure_4_has_the_crowd_by_familiarity_and_the_models_computed_figures() {
    let mut f = Fixture::chime();
    let mut clips = f.take_mcq_board_as_clips();
    let default = json!({"input": "audio", "thinking": "default", "hint": "none"});
    let visual = json!({"input": "audio_visual", "thinking": "default", "hint": "none"});
    clips.rows = vec![
        serde_json::from_value(model("G", default, 0.5, 0.5)).expect("row"),
        serde_json::from_value(model("V", visual, 0.6, 0.6)).expect("row"),
    ];
    clips.familiarity = serde_json::from_value(json!([
        {"familiarity": "familiar", "participants": 4, "answers": 30,
         "estimate": {"value": 0.9, "ci_low": 0.8, "ci_high": 1.0}},
        {"familiarity": "seen_not_familiar", "participants": 1, "answers": 2, "estimate": null},
        {"familiarity": "unseen", "participants": 4, "answers": 40,
         "estimate": {"value": 0.45, "ci_low": 0.3, "ci_high": 0.6}}
    ]))
    .expect("familiarity rows");
    clips.paired.clear();
    f.tasks = vec!["av-clips".into()];
    f.boards = [(("av-clips".to_owned(), "full".to_owned()), clips)].into();
    f.figures.clear();
    let spec = spec(TaskKind::ClipMcq, "avmeme-figure-4");

    // The public half: no computed figures, so the crowd row alone.
    let inputs = TableInputs {
        benchmark: "av",
        ..f.inputs()
    };
    let t = build_table(&spec, &inputs).expect("a table");
    let keys: Vec<&str> = t.columns.iter().map(|c| c.key.as_str()).collect();
    assert_eq!(keys, ["familiar", "seen_not_familiar", "unseen"]);
    assert_eq!(t.rows.len(), 1, "{:?}", t.rows);
    assert_eq!(t.rows[0].kind, RowKind::HumanPooled);
    let crowd = |t: &PaperTable| {
        t.rows
            .iter()
            .find(|r| r.kind == RowKind::HumanPooled)
            .cloned()
    };
    let cells = crowd(&t).expect("the crowd").cells;
    assert_eq!(
        cells[0],
        Some(TableCell {
            value: 0.9,
            ci_low: Some(0.8),
            ci_high: Some(1.0),
            items: None,
            pairs: Some(30),
        })
    );
    assert_eq!(cells[1], None, "withheld on the board, empty here");
    assert!(!to_csv(&t).contains("\nG,"), "no model row without figures");
    assert!(to_csv(&t).starts_with("row,kind,conditions,source,familiar,familiar_ci_low,familiar_ci_high,familiar_n,familiar_pairs,"));

    // A revealed view: the default run's computed figures; the audio-visual run has no row.
    let cell = TableCell {
        items: Some(12),
        pairs: Some(25),
        ci_low: Some(0.4),
        ci_high: Some(0.8),
        ..TableCell::plain(0.6)
    };
    f.computed
        .insert((familiarity::computed_key("unseen"), "G".to_owned()), cell);
    f.computed
        .insert((familiarity::computed_key("unseen"), "V".to_owned()), cell);
    let inputs = TableInputs {
        benchmark: "av",
        ..f.inputs()
    };
    let t = build_table(&spec, &inputs).expect("a table");
    let labels: Vec<(&str, RowKind)> = t.rows.iter().map(|r| (r.label.as_str(), r.kind)).collect();
    assert_eq!(
        labels,
        [
            ("G", RowKind::Model),
            ("Humans pooled (crowd)", RowKind::HumanPooled)
        ]
    );
    assert_eq!(t.rows[0].cells, [None, None, Some(cell)]);
    assert!(
        to_csv(&t).contains("\nG,model,,,,,,,,,,,,,0.6,0.4,0.8,12,25\n"),
        "{}",
        to_csv(&t)
    );
}
