//! The pieces a paper table is filled from: what it reads (the boards and published figures),
//! where each column's figures come from, a row's identity, and the figure of one row in one
//! column, from a board row, the board's paired differences or a published figure.

use super::TableCell;
use crate::api::{BoardResponse, BoardRow, RowKind, SubmissionStatus};
use crate::conditions::Conditions;
use crate::leaderboard::CategoryEstimate;
use crate::paper_figures::PaperFigure;
use std::collections::HashMap;

/// A board the page computed: a task's slug and item subset.
pub type BoardKey = (String, String);

/// Figures the page computed itself for a table's model rows (a cross-task table's), by
/// column key and the row's submission id on the table's board.
pub type ComputedCells = HashMap<(String, String), TableCell>;

/// What a table is filled from.
pub struct TableInputs<'a> {
    /// The benchmark's slug (task names resolve to `<benchmark>-<name>`).
    pub benchmark: &'a str,
    /// Slugs of the benchmark's tasks.
    pub tasks: &'a [String],
    /// The boards computed for the page, by task slug and subset.
    pub boards: &'a HashMap<BoardKey, BoardResponse>,
    /// Each task's primary metric key, as published figures name it (`accuracy`).
    pub primary_metrics: &'a HashMap<String, &'static str>,
    /// The published figures, `task` resolved to a slug and `conditions` with the defaults
    /// filled in.
    pub figures: &'a [PaperFigure],
    /// Figures computed for the page beyond the boards' (see [`ComputedCells`]).
    pub computed: &'a ComputedCells,
}

/// Where one column's figures come from.
pub(super) struct Source {
    /// Task slug and subset of its board.
    pub(super) board: BoardKey,
    /// The condition value the column fixes, if it varies one.
    pub(super) condition: Option<(&'static str, &'static str)>,
    /// What figure of a row.
    pub(super) figure: Figure,
    /// The published figures' item subset.
    pub(super) published_subset: String,
    /// The published figures' metric key.
    pub(super) metric: &'static str,
    /// The published figures' category (`None`: overall).
    pub(super) category: Option<String>,
}

/// Which figure of a row a column shows.
#[derive(Clone)]
pub(super) enum Figure {
    /// The primary metric, overall (`None`) or one category.
    Score(Option<String>),
    /// A secondary figure by key.
    Extra(String),
    /// Rate × items of a secondary figure.
    CountOf(String),
    /// A figure the page computed for the row's submission (see [`ComputedCells`]).
    Computed(String),
    /// One familiarity group (its key): the crowd's pooled accuracy as the board publishes
    /// it for the crowd row, the page's computed figure for a model row.
    Familiarity(String),
    /// No site figure.
    None,
    /// The difference of two columns (indices), row by row.
    Delta(usize, usize),
}

/// A row's identity across the table's boards: kind, label, its conditions but the one the
/// columns vary (empty for crowd and baseline rows), and a published row's source.
pub(super) type RowId = (RowKind, String, Conditions, Option<String>);

/// A row with one figure per column.
pub(super) type Row = (RowId, Vec<Option<TableCell>>);

/// Which rows a table takes: conditions as `expected`, but for `free` ones (the condition
/// the columns vary, the one rows vary); `varied` is left out of a row's identity.
pub(super) struct Scope {
    pub(super) expected: Conditions,
    pub(super) varied: Option<&'static str>,
    pub(super) free: Vec<&'static str>,
}

impl Scope {
    /// Whether a run under `conditions` belongs in the table.
    pub(super) fn takes(&self, conditions: &Conditions) -> bool {
        without(conditions, &self.free) == without(&self.expected, &self.free)
    }

    /// A row's identity conditions.
    pub(super) fn identity(&self, conditions: &Conditions) -> Conditions {
        without(conditions, &[self.varied.unwrap_or_default()])
    }
}

/// `conditions` without the named ones.
pub(super) fn without(conditions: &Conditions, names: &[&str]) -> Conditions {
    let mut c = conditions.clone();
    for name in names {
        c.remove(*name);
    }
    c
}

/// The conditions a column reads for a row: the row's, with the column's value.
pub(super) fn column_conditions(source: &Source, id: &RowId) -> Conditions {
    let mut want = id.2.clone();
    if let Some((name, value)) = source.condition {
        want.insert(name.to_owned(), value.to_owned());
    }
    want
}

/// A model row's conditions (defaults filled in by the board).
pub(super) fn row_conditions(row: &BoardRow) -> Conditions {
    row.model
        .as_ref()
        .map(|m| m.conditions.clone())
        .unwrap_or_default()
}

/// The board row of `id` a column reads.
pub(super) fn site_row<'a>(
    inputs: &'a TableInputs<'_>,
    source: &Source,
    id: &RowId,
) -> Option<&'a BoardRow> {
    let board = inputs.boards.get(&source.board)?;
    let want = column_conditions(source, id);
    board.rows.iter().find(|r| {
        r.kind == id.0
            && r.label == id.1
            && (r.kind != RowKind::Model
                || (r.status == SubmissionStatus::Scored && row_conditions(r) == want))
    })
}

/// One figure of a board row.
pub(super) fn site_cell(row: &BoardRow, figure: &Figure) -> Option<TableCell> {
    let from_estimate = |c: &CategoryEstimate| {
        c.estimate.map(|e| TableCell {
            value: e.value,
            ci_low: Some(e.ci_low),
            ci_high: Some(e.ci_high),
            items: Some(c.items),
            pairs: None,
        })
    };
    let extra = |key: &str| {
        row.extra
            .iter()
            .find(|e| e.key.as_deref() == Some(key) || (e.key.is_none() && e.name == key))
    };
    match figure {
        Figure::Score(category) => row
            .scores
            .iter()
            .find(|c| c.category == *category)
            .and_then(from_estimate),
        Figure::Extra(key) => extra(key).map(|e| TableCell {
            value: e.value,
            ci_low: e.ci_low,
            ci_high: e.ci_high,
            items: e.items,
            pairs: None,
        }),
        Figure::CountOf(key) => {
            let items = row.scores.first()?.items;
            extra(key).map(|e| TableCell::plain((e.value * items as f64).round()))
        }
        Figure::Computed(_) | Figure::Familiarity(_) | Figure::None | Figure::Delta(..) => None,
    }
}

/// The computed figure of a board row in the column keyed `key`.
pub(super) fn computed_cell(
    inputs: &TableInputs<'_>,
    row: &BoardRow,
    key: &str,
) -> Option<TableCell> {
    let submission = row.submission_id.as_ref()?;
    inputs
        .computed
        .get(&(key.to_owned(), submission.clone()))
        .copied()
}

/// The crowd's figure in familiarity group `group` on a column's board: pooled accuracy with
/// its interval as the board publishes it (withheld there, empty here), over `pairs` answers.
pub(super) fn familiarity_cell(
    inputs: &TableInputs<'_>,
    source: &Source,
    group: &str,
) -> Option<TableCell> {
    let board = inputs.boards.get(&source.board)?;
    let row = board
        .familiarity
        .iter()
        .find(|r| r.familiarity.key() == group)?;
    row.estimate.map(|e| TableCell {
        value: e.value,
        ci_low: Some(e.ci_low),
        ci_high: Some(e.ci_high),
        items: None,
        pairs: Some(row.answers),
    })
}

/// The board's paired difference of a model row between the conditions of two columns
/// (`of` minus `base`), with its interval on a revealed half.
pub(super) fn paired_between(
    inputs: &TableInputs<'_>,
    base: &Source,
    of: &Source,
    id: &RowId,
) -> Option<TableCell> {
    let ((name, from), (_, to)) = (base.condition?, of.condition?);
    if id.0 != RowKind::Model {
        return None;
    }
    paired_cell(inputs.boards.get(&base.board)?, &id.1, name, from, to)
}

/// `a − b` when both exist, with no interval (the difference of two published figures).
pub(super) fn delta(a: Option<TableCell>, b: Option<TableCell>) -> Option<TableCell> {
    Some(TableCell::plain(a?.value - b?.value))
}

/// The published figure of one row in one column.
pub(super) fn published_cell(
    inputs: &TableInputs<'_>,
    source: &Source,
    id: &RowId,
) -> Option<TableCell> {
    let want = column_conditions(source, id);
    inputs
        .figures
        .iter()
        .find(|f| {
            f.task == source.board.0
                && f.subset == source.published_subset
                && f.model == id.1
                && Some(&f.source) == id.3.as_ref()
                && f.conditions == want
                && f.metric == source.metric
                && f.category == source.category
        })
        .map(|f| TableCell {
            items: f.n.and_then(|n| usize::try_from(n).ok()),
            ..TableCell::plain(f.value)
        })
}

/// The board's paired difference of a model between two values of a condition.
pub(super) fn paired_cell(
    board: &BoardResponse,
    model: &str,
    condition: &str,
    from: &str,
    to: &str,
) -> Option<TableCell> {
    board
        .paired
        .iter()
        .find(|p| p.model == model && p.condition == condition && p.from == from && p.to == to)
        .map(|p| TableCell {
            value: p.delta,
            ci_low: p.ci_low,
            ci_high: p.ci_high,
            items: Some(p.items),
            pairs: None,
        })
}
