//! CHIME's multiple-choice tables: accuracy per meme type (Table 4, with the human rows),
//! with each option's meaning shown (Table 5, with Δ against the labels-only run), and the
//! position bias of §5.1 (accuracy per position of the correct option and per option order).

use crate::paper_tables::spec::{ColumnSpec, TableSpec};

/// CHIME Tables 4 and 5 and the position bias of §5.1.
pub(in crate::kinds) const TABLES: &[TableSpec] = &[
    TableSpec {
        id: "chime-table-4",
        paper: "CHIME Table 4",
        title_en: "Multiple-choice accuracy by meme type",
        title_zh: "各梗类型的选择题准确率",
        task: "mcq",
        subset: "full",
        conditions: &[],
        row_condition: None,
        columns: ColumnSpec::Categories { percent: true },
        delta_against: None,
        reference_rows: true,
    },
    TableSpec {
        id: "chime-table-5",
        paper: "CHIME Table 5",
        title_en: "Multiple-choice accuracy with each option's meaning shown",
        title_zh: "给出各选项含义时的选择题准确率",
        task: "mcq",
        subset: "full",
        conditions: &[("options", "with_meanings")],
        row_condition: None,
        columns: ColumnSpec::Categories { percent: true },
        delta_against: Some(("options", "labels_only")),
        reference_rows: false,
    },
    TableSpec {
        id: "chime-position-bias",
        paper: "CHIME §5.1 (option orders)",
        title_en: "Multiple-choice accuracy by the position of the correct option",
        title_zh: "按正确选项位置分组的选择题准确率",
        task: "mcq",
        subset: "full",
        conditions: &[],
        row_condition: None,
        columns: ColumnSpec::Facets {
            prefixes: &["position:"],
            labels: &[
                ("position:A", "Correct at A", "正确项为 A"),
                ("position:B", "Correct at B", "正确项为 B"),
                ("position:C", "Correct at C", "正确项为 C"),
                ("position:D", "Correct at D", "正确项为 D"),
                ("position:E", "Correct at E", "正确项为 E"),
            ],
            percent: true,
        },
        delta_against: None,
        reference_rows: false,
    },
    TableSpec {
        id: "chime-option-orders",
        paper: "CHIME §5.1 (option orders)",
        title_en: "Multiple-choice accuracy per option order",
        title_zh: "各选项顺序下的选择题准确率",
        task: "mcq",
        subset: "full",
        conditions: &[],
        row_condition: None,
        columns: ColumnSpec::Facets {
            prefixes: &["order:"],
            labels: &[
                ("order:1", "Original order", "原始顺序"),
                ("order:2", "Shuffle 1", "打乱 1"),
                ("order:3", "Shuffle 2", "打乱 2"),
                ("order:4", "Shuffle 3", "打乱 3"),
                ("order:5", "Shuffle 4", "打乱 4"),
            ],
            percent: true,
        },
        delta_against: None,
        reference_rows: false,
    },
];
