//! CMPM's structure-typing table (Table 5): accuracy, macro-F1, weighted-F1, parse rate.

use crate::paper_tables::spec::{ColumnSpec, MetricColumn, MetricSource, TableSpec};

/// CMPM Table 5.
pub(in crate::kinds) const TABLES: &[TableSpec] = &[TableSpec {
    id: "cmpm-table-5",
    paper: "CMPM Table 5",
    title_en: "Structure typing",
    title_zh: "结构类型识别",
    task: "type",
    subset: "full",
    conditions: &[],
    row_condition: None,
    columns: ColumnSpec::Metrics(&[
        super::ACCURACY,
        MetricColumn {
            key: "macro_f1",
            label_en: "Macro-F1",
            label_zh: "宏平均 F1",
            percent: true,
            source: MetricSource::Extra("macro_f1"),
        },
        MetricColumn {
            key: "weighted_f1",
            label_en: "Weighted-F1",
            label_zh: "加权 F1",
            percent: true,
            source: MetricSource::Extra("weighted_f1"),
        },
        super::PARSE_RATE,
    ]),
    delta_against: None,
    reference_rows: true,
}];
