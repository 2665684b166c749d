//! The paper-tables page of a benchmark: the boards each of its kinds' table specs reads,
//! computed once per request (so every site figure is what a board publishes, on the same
//! half and with the same withholding), the stored published figures, and the tables filled
//! from them by `memeboard_core::paper_tables`.

mod cross_task;
mod familiarity;

use super::*;
use crate::error::{ApiError, ApiResult};
use crate::kinds::ServerKind;
use crate::state::AppState;
use memeboard_core::api::{BoardResponse, BoardSplit};
use memeboard_core::conditions::stored_conditions;
use memeboard_core::kinds::TaskKind;
use memeboard_core::paper_figures::PaperFigure;
use memeboard_core::paper_tables::{
    boards_needed, build_table, BoardKey, PaperTablesResponse, TableInputs, TableSpec,
};
use memeboard_core::{msg, with_kind};
use std::collections::HashMap;

/// The paper tables of benchmark `slug` on one half of the test split or the whole split. A
/// table whose task the benchmark lacks is left out; on the private half and the whole
/// split, so is one whose board is not revealed yet. The owners' view over every item is
/// not offered here (the page is public): [`owners_paper_tables`].
pub async fn paper_tables(
    state: &AppState,
    slug: &str,
    split: BoardSplit,
) -> ApiResult<PaperTablesResponse> {
    if split == BoardSplit::All {
        return Err(ApiError::Forbidden(msg!(
            "board.all_owners_only",
            slug = slug
        )));
    }
    tables_view(state, slug, split).await
}

/// The paper tables over every item, dev and test (the papers' whole datasets), from the
/// owners' boards ([`owners_board`]), once the test split is revealed. For an owner of the
/// benchmark or the admin only: the caller has authorized the request.
pub async fn owners_paper_tables(state: &AppState, slug: &str) -> ApiResult<PaperTablesResponse> {
    tables_view(state, slug, BoardSplit::All).await
}

async fn tables_view(
    state: &AppState,
    slug: &str,
    split: BoardSplit,
) -> ApiResult<PaperTablesResponse> {
    let storage = &state.storage;
    let (_, tasks) = storage
        .benchmark_tasks(slug)
        .await?
        .ok_or_else(|| ApiError::NotFound(msg!("benchmark.not_found", slug = slug)))?;
    let kinds: Vec<(String, TaskKind)> = tasks
        .iter()
        .filter_map(|t| Some((t.slug.clone(), TaskKind::parse(&t.kind)?)))
        .filter(|(_, k)| !k.is_judging())
        .collect();
    let slugs: Vec<String> = kinds.iter().map(|(s, _)| s.clone()).collect();
    let specs = specs_of(&kinds, slug, &slugs);

    let mut boards: HashMap<BoardKey, BoardResponse> = HashMap::new();
    let mut private_revealed = false;
    for key in specs.iter().flat_map(|s| boards_needed(s, slug, &slugs)) {
        if boards.contains_key(&key) {
            continue;
        }
        let fetched = if split == BoardSplit::All {
            owners_board(state, &key.0, Some(&key.1), false).await
        } else {
            board(state, &key.0, split, Some(&key.1), false).await
        };
        match fetched {
            Ok(b) => {
                private_revealed |= b.private_revealed;
                boards.insert(key, b);
            }
            // Not revealed yet, or a subset the task does not have: no such board.
            Err(ApiError::Forbidden(_) | ApiError::BadRequest(_) | ApiError::NotFound(_)) => {}
            Err(e) => return Err(e),
        }
    }
    if split.needs_reveal() && boards.is_empty() && !specs.is_empty() {
        return Err(ApiError::Forbidden(if split == BoardSplit::Private {
            msg!("board.private_hidden", slug = slug)
        } else {
            msg!("board.whole_hidden", slug = slug)
        }));
    }
    let mut figures = Vec::new();
    let mut primary_metrics = HashMap::new();
    for (task, kind) in tasks
        .iter()
        .filter_map(|t| Some((t, TaskKind::parse(&t.kind)?)))
    {
        let primary = with_kind!(kind, K => K::PAPER_METRICS.first().copied()).unwrap_or("");
        primary_metrics.insert(task.slug.clone(), primary);
        let condition_specs = kind.conditions();
        for f in storage.task_paper_figures(&task.id).await? {
            figures.push(PaperFigure {
                task: task.slug.clone(),
                model: f.model,
                conditions: stored_conditions(&condition_specs, Some(&f.conditions_json)),
                metric: f.metric,
                category: f.category,
                subset: f.subset,
                value: f.value,
                n: f.n.and_then(|n| u64::try_from(n).ok()),
                source: f.source,
            });
        }
    }
    // Figures the boards do not have, on revealed views only: across two tasks' runs (CHIME
    // §5.3), and the models inside the crowd's familiarity groups (AVMeme Exam Figure 4).
    let task_ids: Vec<(String, String)> = tasks
        .iter()
        .map(|t| (t.slug.clone(), t.id.clone()))
        .collect();
    let scope = ComputedScope {
        benchmark: slug,
        tasks: &task_ids,
        boards: &boards,
        split,
    };
    let mut computed = cross_task::computed_cells(state, &specs, &scope).await?;
    computed.extend(familiarity::computed_cells(state, &specs, &scope).await?);
    let inputs = TableInputs {
        benchmark: slug,
        tasks: &slugs,
        boards: &boards,
        primary_metrics: &primary_metrics,
        figures: &figures,
        computed: &computed,
    };
    Ok(PaperTablesResponse {
        benchmark: slug.to_owned(),
        split,
        private_revealed,
        tables: specs
            .iter()
            .filter_map(|s| build_table(s, &inputs))
            .collect(),
    })
}

/// What the page's own figures (beyond the boards') are computed from.
struct ComputedScope<'a> {
    /// The benchmark's slug.
    benchmark: &'a str,
    /// Its tasks: slug and id.
    tasks: &'a [(String, String)],
    /// The boards computed for the page.
    boards: &'a HashMap<BoardKey, BoardResponse>,
    /// The board view of the page.
    split: BoardSplit,
}

impl ComputedScope<'_> {
    /// The slug, id and board (over `subset`) of the task a spec names, when the benchmark
    /// has it and its board was computed.
    fn task(&self, name: &str, subset: &str) -> Option<(&str, &str, &BoardResponse)> {
        let slugs: Vec<String> = self.tasks.iter().map(|t| t.0.clone()).collect();
        let slug = memeboard_core::paper_tables::resolve_task(self.benchmark, &slugs, name)?;
        let (slug, id) = self.tasks.iter().find(|t| t.0 == slug)?;
        let board = self.boards.get(&(slug.clone(), subset.to_owned()))?;
        Some((slug, id, board))
    }
}

/// The table specs of the benchmark's kinds whose task it has, each once (variant tasks
/// share a kind), in the papers' table order.
fn specs_of(kinds: &[(String, TaskKind)], benchmark: &str, slugs: &[String]) -> Vec<TableSpec> {
    let mut specs: Vec<TableSpec> = Vec::new();
    for (_, kind) in kinds {
        for spec in kind.paper_tables() {
            let has_task = !boards_needed(spec, benchmark, slugs).is_empty();
            if has_task && !specs.iter().any(|s| s.id == spec.id) {
                specs.push(*spec);
            }
        }
    }
    specs.sort_by_key(|s| table_number(s.paper));
    specs
}

/// The first number in a table's name (`CMPM Table 6` → 6), to order a paper's tables.
fn table_number(paper: &str) -> u32 {
    paper
        .split(|c: char| !c.is_ascii_digit())
        .find(|d| !d.is_empty())
        .and_then(|d| d.parse().ok())
        .unwrap_or(u32::MAX)
}
