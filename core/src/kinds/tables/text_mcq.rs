//! CHIME's multiple-choice tables: accuracy per meme type (Table 4, with the human rows) and
//! with each option's meaning shown (Table 5, with Δ against the labels-only run).

use crate::paper_tables::spec::{ColumnSpec, TableSpec};

/// CHIME Tables 4 and 5.
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
];
