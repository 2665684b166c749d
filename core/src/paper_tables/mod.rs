//! Paper tables: each table of a benchmark's paper laid out in the paper's own shape, with
//! the site's rows (models under each run condition, the crowd, baselines) beside the
//! figures the paper published, downloadable as CSV and LaTeX.
//!
//! A kind declares the tables of its task ([`TableSpec`], `Kind::PAPER_TABLES`): which task
//! of the benchmark, which item subset, which run conditions its rows carry and what its
//! columns are (categories, metrics, one column per condition value, or one per task of a
//! grid). [`build_table`] fills a spec from boards already computed for the page (so every
//! site figure is one a board publishes, rounded and withheld as the board does) and from the
//! stored published figures; [`render`] writes the downloads.

mod build;
mod cells;
pub mod cross_task;
pub mod familiarity;
pub mod render;
pub mod spec;

pub use build::{boards_needed, build_table, resolve_task};
pub use cells::{BoardKey, ComputedCells, TableInputs};
pub use spec::{
    ColumnSpec, CrossTaskSpec, MetricColumn, MetricSource, TableSpec, TaskColumn, ValueColumn,
};

use crate::api::{BoardSplit, RowKind};
use crate::conditions::Conditions;
use serde::{Deserialize, Serialize};

/// The paper tables of one benchmark (`GET /api/benchmarks/{slug}/tables`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct PaperTablesResponse {
    /// Benchmark slug.
    pub benchmark: String,
    /// Which half of the test split the site's figures come from.
    pub split: BoardSplit,
    /// Whether the private half is revealed (the page then offers it).
    pub private_revealed: bool,
    /// The tables, in the order the kinds of the benchmark's tasks declare them.
    pub tables: Vec<PaperTable>,
}

/// One table of a paper, filled.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct PaperTable {
    /// Stable id within the benchmark (`table-4`), the downloads' file name.
    pub id: String,
    /// Which table of which paper (`CHIME Table 4`).
    pub paper: String,
    /// English title.
    pub title_en: String,
    /// Chinese title.
    pub title_zh: String,
    /// The task whose boards fill it (the first task of a grid).
    pub task: String,
    /// That task's kind (pages word run conditions by it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<crate::kinds::TaskKind>,
    /// The item subset of its figures (`full`, `main`…).
    pub subset: String,
    /// Items behind the site's figures (the first column's board).
    pub items: usize,
    /// Column headers, after the row label.
    pub columns: Vec<TableColumn>,
    /// Site rows first (models, crowd, baselines, as the board orders them), then the
    /// published rows.
    pub rows: Vec<TableRow>,
}

/// One column of a paper table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct TableColumn {
    /// Stable key (`overall`, a category key, a metric key, a condition value, a task).
    pub key: String,
    /// English header.
    pub label_en: String,
    /// Chinese header.
    pub label_zh: String,
    /// Whether values are fractions shown as percentages (accuracies); otherwise shown as
    /// they are (cosines, counts).
    pub percent: bool,
    /// Whether the column is a difference against another column or condition (Δ).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub delta: bool,
}

/// One row of a paper table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct TableRow {
    /// What the row is (a model, a crowd row, a baseline, a published row).
    pub kind: RowKind,
    /// Model name or row label.
    pub label: String,
    /// The run conditions the row's figures share, besides the ones the columns vary
    /// (defaults filled in; empty for crowd and baseline rows).
    #[serde(default, skip_serializing_if = "Conditions::is_empty")]
    pub conditions: Conditions,
    /// Where a published row comes from (the paper and its table).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    /// One cell per column; `None` where the row has no figure (not run, withheld, or not
    /// published).
    pub cells: Vec<Option<TableCell>>,
}

/// One figure of a paper table.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct TableCell {
    /// The value, on the board's scale (accuracies as fractions).
    pub value: f64,
    /// Lower end of the 95% interval, where the board gives one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ci_low: Option<f64>,
    /// Upper end of the interval.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ci_high: Option<f64>,
    /// Items behind the value, where known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub items: Option<usize>,
    /// People's answers behind the value, where it is counted over (participant, item)
    /// pairs (the crowd's familiarity groups).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pairs: Option<usize>,
}

impl TableCell {
    /// A value without an interval.
    pub fn plain(value: f64) -> Self {
        Self {
            value,
            ci_low: None,
            ci_high: None,
            items: None,
            pairs: None,
        }
    }
}

#[cfg(test)]
mod tests;
