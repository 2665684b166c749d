//! Filling a [`TableSpec`] from the boards of the benchmark's tasks and the stored published
//! figures. Every site figure is read from a board (rounded and withheld as that board
//! publishes it), so a table says nothing about hidden gold that the boards do not; a Δ is
//! the board's paired difference where it has one, else the difference of two published
//! figures.

use super::cells::{
    computed_cell, delta, familiarity_cell, paired_between, paired_cell, published_cell,
    row_conditions, site_cell, site_row, BoardKey, Figure, Row, RowId, Scope, Source, TableInputs,
};
use super::familiarity::computed_key;
use super::spec::{ColumnSpec, MetricSource, TableSpec};
use super::{PaperTable, TableCell, TableColumn, TableRow};
use crate::api::{BoardResponse, RowKind, SubmissionStatus};
use crate::conditions::Conditions;

/// The slug of the task a spec names: `name` itself, `<benchmark>-<name>`, or the one task
/// whose slug ends in `-<name>`.
///
/// ```
/// use memeboard_core::paper_tables::resolve_task;
/// let tasks = ["cmpm-order".to_owned(), "cmpm-order-context".to_owned()];
/// assert_eq!(resolve_task("cmpm", &tasks, "order"), Some("cmpm-order"));
/// assert_eq!(resolve_task("x", &tasks, "context"), Some("cmpm-order-context"));
/// assert_eq!(resolve_task("cmpm", &tasks, "type"), None);
/// ```
pub fn resolve_task<'a>(benchmark: &str, tasks: &'a [String], name: &str) -> Option<&'a str> {
    let prefixed = format!("{benchmark}-{name}");
    if let Some(t) = tasks.iter().find(|t| **t == name || **t == prefixed) {
        return Some(t);
    }
    let suffix = format!("-{name}");
    let mut ends = tasks.iter().filter(|t| t.ends_with(&suffix));
    match (ends.next(), ends.next()) {
        (Some(one), None) => Some(one),
        _ => None,
    }
}

/// The boards a spec reads (task slug, subset), empty when the benchmark lacks its task.
pub fn boards_needed(spec: &TableSpec, benchmark: &str, tasks: &[String]) -> Vec<BoardKey> {
    let Some(task) = resolve_task(benchmark, tasks, spec.task) else {
        return Vec::new();
    };
    match spec.columns {
        ColumnSpec::Tasks { tasks: cols, .. } => cols
            .iter()
            .filter_map(|c| resolve_task(benchmark, tasks, c.task).map(|t| (t, c.subset)))
            .map(|(t, s)| (t.to_owned(), s.to_owned()))
            .collect(),
        // Both tasks, or none: the table needs a run on each.
        ColumnSpec::CrossTask(cross) => [cross.first, cross.second]
            .iter()
            .map(|name| {
                resolve_task(benchmark, tasks, name).map(|t| (t.to_owned(), spec.subset.to_owned()))
            })
            .collect::<Option<Vec<_>>>()
            .unwrap_or_default(),
        _ => vec![(task.to_owned(), spec.subset.to_owned())],
    }
}

/// The table a spec describes, `None` when the benchmark lacks its task or board.
pub fn build_table(spec: &TableSpec, inputs: &TableInputs<'_>) -> Option<PaperTable> {
    let task = resolve_task(inputs.benchmark, inputs.tasks, spec.task)?;
    if boards_needed(spec, inputs.benchmark, inputs.tasks).is_empty() {
        return None;
    }
    let first = inputs
        .boards
        .get(&(task.to_owned(), spec.subset.to_owned()))
        .or_else(|| {
            let key = boards_needed(spec, inputs.benchmark, inputs.tasks)
                .into_iter()
                .next()?;
            inputs.boards.get(&key)
        })?;
    let primary = inputs.primary_metrics.get(task).copied().unwrap_or("");
    let (mut columns, sources) = columns(spec, inputs, first, task, primary);
    let varied = match spec.columns {
        ColumnSpec::ConditionValues { condition, .. } => Some(condition),
        _ => None,
    };
    let scope = Scope {
        expected: expected_conditions(first, spec.conditions),
        varied,
        free: varied.into_iter().chain(spec.row_condition).collect(),
    };
    let mut rows = site_rows(spec, inputs, &sources, &scope);
    rows.extend(published_rows(inputs, &sources, &scope));
    if let Some(against) = spec.delta_against {
        let percent = columns.first().is_some_and(|c| c.percent);
        columns.push(TableColumn {
            key: format!("delta_{}", against.0),
            label_en: format!("Δ vs {}", against.1),
            label_zh: format!("Δ 对比 {}", against.1),
            percent,
            delta: true,
        });
        for row in &mut rows {
            let cell = delta_against(inputs, first, task, primary, row, against);
            row.1.push(cell);
        }
    }
    let defaults = expected_conditions(first, &[]);
    let rows = rows
        .into_iter()
        .filter(|r| r.1.iter().any(Option::is_some))
        .map(|(id, cells)| TableRow {
            kind: id.0,
            label: id.1,
            // A row names only what sets it apart: not the defaults, nor the conditions
            // every row of the table carries (the title says those).
            conditions: id
                .2
                .into_iter()
                .filter(|(k, v)| defaults.get(k) != Some(v))
                .filter(|(k, _)| !spec.conditions.iter().any(|(name, _)| name == k))
                .collect(),
            source: id.3,
            cells,
        })
        .collect();
    Some(PaperTable {
        id: spec.id.to_owned(),
        paper: spec.paper.to_owned(),
        title_en: spec.title_en.to_owned(),
        title_zh: spec.title_zh.to_owned(),
        task: task.to_owned(),
        kind: first.kind,
        subset: spec.subset.to_owned(),
        items: first.items,
        columns,
        rows,
    })
}

/// The conditions every row carries: the board's defaults with the spec's values.
fn expected_conditions(board: &BoardResponse, fixed: &[(&str, &str)]) -> Conditions {
    let mut c: Conditions = board
        .conditions
        .iter()
        .map(|s| (s.name.clone(), s.default.clone()))
        .collect();
    for (name, value) in fixed {
        if c.contains_key(*name) {
            c.insert((*name).to_owned(), (*value).to_owned());
        }
    }
    c
}

/// The columns of a spec and where each one's figures come from.
fn columns(
    spec: &TableSpec,
    inputs: &TableInputs<'_>,
    first: &BoardResponse,
    task: &str,
    primary: &'static str,
) -> (Vec<TableColumn>, Vec<Source>) {
    let board: BoardKey = (task.to_owned(), spec.subset.to_owned());
    let column = |key: &str, en: &str, zh: &str, percent: bool, delta: bool| TableColumn {
        key: key.to_owned(),
        label_en: en.to_owned(),
        label_zh: zh.to_owned(),
        percent,
        delta,
    };
    let source = |figure: Figure, metric: &'static str, category: Option<&str>| Source {
        board: board.clone(),
        published_subset: board.1.clone(),
        condition: None,
        figure,
        metric,
        category: category.map(str::to_owned),
    };
    let (mut cols, mut srcs) = (Vec::new(), Vec::new());
    match spec.columns {
        ColumnSpec::Categories { percent } => {
            cols.push(column("overall", "Overall", "总体", percent, false));
            srcs.push(source(Figure::Score(None), primary, None));
            for c in &first.categories {
                cols.push(column(&c.key, &c.label_en, &c.label_zh, percent, false));
                let figure = Figure::Score(Some(c.key.clone()));
                srcs.push(source(figure, primary, Some(&c.key)));
            }
        }
        ColumnSpec::CategoriesOf { metric, percent } => {
            cols.push(column("overall", "Overall", "总体", percent, false));
            srcs.push(source(Figure::Extra(metric.to_owned()), metric, None));
            for c in &first.categories {
                cols.push(column(&c.key, &c.label_en, &c.label_zh, percent, false));
                let figure = Figure::Extra(format!("{metric}:{}", c.key));
                srcs.push(source(figure, metric, Some(&c.key)));
            }
        }
        ColumnSpec::Metrics(metrics) => {
            for m in metrics {
                cols.push(column(m.key, m.label_en, m.label_zh, m.percent, false));
                let figure = match m.source {
                    MetricSource::Primary => Figure::Score(None),
                    MetricSource::Extra(k) => Figure::Extra(k.to_owned()),
                    MetricSource::CountOf(k) => Figure::CountOf(k.to_owned()),
                    MetricSource::PublishedOnly => Figure::None,
                };
                srcs.push(source(figure, m.key, None));
            }
        }
        ColumnSpec::ConditionValues {
            condition,
            values,
            percent,
            deltas,
        } => {
            for (i, v) in values.iter().enumerate() {
                cols.push(column(v.value, v.label_en, v.label_zh, percent, false));
                srcs.push(Source {
                    condition: Some((condition, v.value)),
                    ..source(Figure::Score(None), primary, None)
                });
                if i > 0 && deltas {
                    let key = format!("delta_{}", v.value);
                    let (en, zh) = (format!("Δ {}", v.label_en), format!("Δ {}", v.label_zh));
                    cols.push(column(&key, &en, &zh, percent, true));
                    srcs.push(source(Figure::Delta(0, srcs.len() - 1), primary, None));
                }
            }
        }
        ColumnSpec::Tasks { tasks, percent } => {
            for c in tasks {
                let Some(slug) = resolve_task(inputs.benchmark, inputs.tasks, c.task) else {
                    continue;
                };
                cols.push(column(c.task, c.label_en, c.label_zh, percent, false));
                srcs.push(Source {
                    board: (slug.to_owned(), c.subset.to_owned()),
                    published_subset: c.published_subset.to_owned(),
                    condition: None,
                    figure: Figure::Score(None),
                    metric: inputs.primary_metrics.get(slug).copied().unwrap_or(primary),
                    category: None,
                });
            }
        }
        ColumnSpec::CrossTask(cross) => {
            for (key, en, zh) in [cross.first_given_second, cross.second_given_first] {
                cols.push(column(key, en, zh, true, false));
                srcs.push(source(Figure::Computed(key.to_owned()), key, None));
            }
        }
        ColumnSpec::FamiliarityGroups { groups, percent } => {
            for g in groups {
                cols.push(column(g.value, g.label_en, g.label_zh, percent, false));
                let category = format!("familiarity:{}", g.value);
                let figure = Figure::Familiarity(g.value.to_owned());
                srcs.push(source(figure, primary, Some(&category)));
            }
        }
        ColumnSpec::Facets {
            prefixes,
            labels,
            percent,
        } => {
            for key in facet_keys(first, inputs, task, spec.subset, prefixes) {
                let (en, zh) = labels
                    .iter()
                    .find(|l| l.0 == key)
                    .map_or((key.as_str(), key.as_str()), |l| (l.1, l.2));
                cols.push(column(&key, en, zh, percent, false));
                srcs.push(source(Figure::Extra(key.clone()), primary, Some(&key)));
            }
        }
    }
    (cols, srcs)
}

/// The facet keys of a board's secondary figures and of the task's published figures with
/// one of `prefixes`, board order first.
fn facet_keys(
    board: &BoardResponse,
    inputs: &TableInputs<'_>,
    task: &str,
    subset: &str,
    prefixes: &[&str],
) -> Vec<String> {
    let mut keys: Vec<String> = Vec::new();
    let site = board
        .rows
        .iter()
        .flat_map(|r| &r.extra)
        .map(|e| e.key.as_deref().unwrap_or(&e.name));
    let published = inputs
        .figures
        .iter()
        .filter(|f| f.task == task && f.subset == subset)
        .filter_map(|f| f.category.as_deref());
    for prefix in prefixes {
        for k in site.clone().chain(published.clone()) {
            if k.starts_with(prefix) && !keys.iter().any(|x| x == k) {
                keys.push(k.to_owned());
            }
        }
    }
    keys
}

/// The site's rows: every scored model row whose conditions the table takes, and the
/// board's crowd and baseline rows where the spec wants them, each with its figure in every
/// column.
fn site_rows(
    spec: &TableSpec,
    inputs: &TableInputs<'_>,
    sources: &[Source],
    scope: &Scope,
) -> Vec<Row> {
    let mut ids: Vec<RowId> = Vec::new();
    for s in sources {
        let Some(board) = inputs.boards.get(&s.board) else {
            continue;
        };
        for row in &board.rows {
            let id = match row.kind {
                RowKind::Published => continue,
                RowKind::Model if row.status != SubmissionStatus::Scored => continue,
                RowKind::Model => {
                    let c = row_conditions(row);
                    if !scope.takes(&c) {
                        continue;
                    }
                    (row.kind, row.label.clone(), scope.identity(&c), None)
                }
                _ if !spec.reference_rows => continue,
                kind => (kind, row.label.clone(), Conditions::new(), None),
            };
            if !ids.contains(&id) {
                ids.push(id);
            }
        }
    }
    // The crowd's familiarity groups are the board's figure of its own, not a board row.
    if sources
        .iter()
        .any(|s| matches!(s.figure, Figure::Familiarity(_)))
    {
        let label = crate::page_text::board::BOARD_EN.row_human_pooled;
        ids.push((
            RowKind::HumanPooled,
            label.to_owned(),
            Conditions::new(),
            None,
        ));
    }
    fill_rows(ids, sources, |s, id, cells| match &s.figure {
        Figure::Delta(a, b) => paired_between(inputs, &sources[*a], &sources[*b], id)
            .or_else(|| delta(cells[*b], cells[*a])),
        Figure::Computed(key) => {
            site_row(inputs, s, id).and_then(|r| computed_cell(inputs, r, key))
        }
        Figure::Familiarity(group) => match id.0 {
            RowKind::HumanPooled => familiarity_cell(inputs, s, group),
            RowKind::Model => {
                site_row(inputs, s, id).and_then(|r| computed_cell(inputs, r, &computed_key(group)))
            }
            _ => None,
        },
        figure => site_row(inputs, s, id).and_then(|r| site_cell(r, figure)),
    })
}

/// Each row's cells, column by column: `cell` gives one from the column's source, the row
/// and the row's cells so far (a Δ column reads two of them).
fn fill_rows(
    ids: Vec<RowId>,
    sources: &[Source],
    cell: impl Fn(&Source, &RowId, &[Option<TableCell>]) -> Option<TableCell>,
) -> Vec<Row> {
    ids.into_iter()
        .map(|id| {
            let mut cells: Vec<Option<TableCell>> = Vec::with_capacity(sources.len());
            for s in sources {
                let c = cell(s, &id, &cells);
                cells.push(c);
            }
            (id, cells)
        })
        .collect()
}

/// The published rows: one per model, conditions (but the varied one) and source, over the
/// figures of the table's tasks whose conditions the table takes.
fn published_rows(inputs: &TableInputs<'_>, sources: &[Source], scope: &Scope) -> Vec<Row> {
    let mut ids: Vec<RowId> = Vec::new();
    for f in inputs.figures {
        let on_table = sources.iter().any(|s| s.board.0 == f.task);
        if !on_table || !scope.takes(&f.conditions) {
            continue;
        }
        let id = (
            RowKind::Published,
            f.model.clone(),
            scope.identity(&f.conditions),
            Some(f.source.clone()),
        );
        if !ids.contains(&id) {
            ids.push(id);
        }
    }
    fill_rows(ids, sources, |s, id, cells| match &s.figure {
        Figure::Delta(a, b) => delta(cells[*b], cells[*a]),
        Figure::None
        | Figure::Score(_)
        | Figure::Extra(_)
        | Figure::CountOf(_)
        | Figure::Computed(_)
        | Figure::Familiarity(_) => published_cell(inputs, s, id),
    })
}

/// A row's Δ against itself with `against` = (condition, value): the board's paired
/// difference (with its interval on a revealed half) for a model, the difference of the two
/// published overall figures (any source) for a published row.
fn delta_against(
    inputs: &TableInputs<'_>,
    board: &BoardResponse,
    task: &str,
    primary: &str,
    row: &Row,
    against: (&str, &str),
) -> Option<TableCell> {
    let ((kind, label, conditions, _), cells) = row;
    let (name, value) = against;
    let own = cells.first().copied().flatten();
    let mut base = conditions.clone();
    base.insert(name.to_owned(), value.to_owned());
    let to = conditions.get(name)?;
    match kind {
        RowKind::Model => paired_cell(board, label, name, value, to).or_else(|| {
            let other = board.rows.iter().find(|r| {
                r.kind == RowKind::Model
                    && r.label == *label
                    && r.status == SubmissionStatus::Scored
                    && row_conditions(r) == base
            })?;
            delta(own, site_cell(other, &Figure::Score(None)))
        }),
        RowKind::Published => {
            let other = inputs.figures.iter().find(|f| {
                f.task == task
                    && f.model == *label
                    && f.conditions == base
                    && f.category.is_none()
                    && f.metric == primary
            })?;
            delta(own, Some(TableCell::plain(other.value)))
        }
        _ => None,
    }
}
