//! The paper tables each kind's tasks fill (`Kind::PAPER_TABLES`), one module per kind:
//! static layouts of the papers' tables, filled by `paper_tables::build_table`. Columns that
//! several kinds' tables show alike are declared here once.

pub(super) mod clip_mcq;
pub(super) mod explanation;
pub(super) mod panel_order;
pub(super) mod panel_type;
pub(super) mod text_mcq;

use crate::paper_tables::spec::{MetricColumn, MetricSource};

/// The accuracy column of the comic tables (the primary score, as a percentage).
const ACCURACY: MetricColumn = MetricColumn {
    key: "accuracy",
    label_en: "Accuracy",
    label_zh: "准确率",
    percent: true,
    source: MetricSource::Primary,
};

/// The parse-rate column of the comic tables (the share of answers that parsed, as a
/// percentage).
const PARSE_RATE: MetricColumn = MetricColumn {
    key: "parse_rate",
    label_en: "Parse rate",
    label_zh: "可解析率",
    percent: true,
    source: MetricSource::Extra("parse_rate"),
};
