//! `memeboard import published FILE --benchmark SLUG`: a paper's published figures for a
//! benchmark already imported from the paper's data, checked line by line against it (the
//! task each line names, its run conditions, metric and category) and stored all or nothing,
//! replacing the benchmark's earlier figures. Boards show them as marked reference rows.

use super::ImportError;
use crate::kinds::ServerKind;
use crate::storage::{BenchmarkTaskRow, PaperFigureRecord, Storage};
use memeboard_core::conditions::resolve;
use memeboard_core::kinds::TaskKind;
use memeboard_core::messages::Message;
use memeboard_core::paper_figures::{read_paper_figures, PaperFigure};
use memeboard_core::predictions::FileFormat;
use memeboard_core::tasks::CategoryInfo;
use memeboard_core::{msg, with_kind};
use std::collections::HashMap;

/// What an import stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImportedFigures {
    /// Figures stored.
    pub figures: usize,
    /// Figures per task slug.
    pub per_task: Vec<(String, usize)>,
}

/// The task a line names: its slug, `<benchmark>-<name>`, or the one task whose slug ends
/// in `-<name>`.
fn find_task<'a>(
    benchmark: &str,
    tasks: &'a [BenchmarkTaskRow],
    name: &str,
) -> Result<&'a BenchmarkTaskRow, Message> {
    let prefixed = format!("{benchmark}-{name}");
    if let Some(t) = tasks.iter().find(|t| t.slug == name || t.slug == prefixed) {
        return Ok(t);
    }
    let suffix = format!("-{name}");
    let ends: Vec<&BenchmarkTaskRow> = tasks.iter().filter(|t| t.slug.ends_with(&suffix)).collect();
    match ends[..] {
        [one] => Ok(one),
        _ => Err(msg!(
            "figures.task",
            found = name,
            benchmark = benchmark,
            allowed = tasks
                .iter()
                .map(|t| t.slug.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        )),
    }
}

/// The problems of one figure against its task (conditions, metric, category), and the
/// record to store when there are none.
fn check(task: &BenchmarkTaskRow, f: &PaperFigure) -> Result<PaperFigureRecord, Vec<Message>> {
    let Some(kind) = TaskKind::parse(&task.kind) else {
        return Err(vec![msg!(
            "figures.metric",
            task = task.slug,
            found = f.metric,
            allowed = "none"
        )]);
    };
    let mut problems = Vec::new();
    let conditions = resolve(&kind.conditions(), &f.conditions).unwrap_or_else(|p| {
        problems.extend(p);
        Default::default()
    });
    let metrics = with_kind!(kind, K => K::PAPER_METRICS);
    if !metrics.contains(&f.metric.as_str()) {
        problems.push(msg!(
            "figures.metric",
            task = task.slug,
            found = f.metric,
            allowed = if metrics.is_empty() {
                "none".to_owned()
            } else {
                metrics.join(", ")
            }
        ));
    }
    if let Some(category) = f.category.as_deref().filter(|c| !c.contains(':')) {
        let categories: Vec<CategoryInfo> =
            serde_json::from_str(&task.categories_json).unwrap_or_default();
        let known = with_kind!(kind, K => K::category_keys());
        if !categories.iter().any(|c| c.key == category) && !known.contains(&category) {
            problems.push(msg!(
                "figures.category",
                task = task.slug,
                found = category,
                allowed = categories
                    .iter()
                    .map(|c| c.key.as_str())
                    .chain(
                        known
                            .iter()
                            .copied()
                            .filter(|k| categories.iter().all(|c| c.key != *k))
                    )
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    Ok(PaperFigureRecord {
        task_id: task.id.clone(),
        model: f.model.clone(),
        conditions_json: serde_json::to_string(&conditions).unwrap_or_else(|_| "{}".into()),
        metric: f.metric.clone(),
        category: f.category.clone(),
        subset: f.subset.clone(),
        value: f.value,
        n: f.n.and_then(|n| i64::try_from(n).ok()),
        source: f.source.clone(),
    })
}

/// Reads, checks and stores a published-figures file for benchmark `slug` (see the module
/// docs). Every problem is reported at once, with its line and field; nothing is stored then.
pub async fn import_paper_figures(
    storage: &Storage,
    slug: &str,
    text: &str,
    format: FileFormat,
) -> anyhow::Result<ImportedFigures> {
    let Some((benchmark_id, tasks)) = storage.benchmark_tasks(slug).await? else {
        return Err(ImportError {
            problems: vec![format!("no benchmark `{slug}` (import its data first)")],
        }
        .into());
    };
    let figures = read_paper_figures(text, format).map_err(|report| ImportError {
        problems: report.lines(),
    })?;
    let mut problems = Vec::new();
    let mut records = Vec::new();
    let mut seen: HashMap<String, usize> = HashMap::new();
    for (line, f) in &figures {
        let at = |field: &str, m: &Message| format!("line {line}, field `{field}`: {m}");
        let task = match find_task(slug, &tasks, &f.task) {
            Ok(t) => t,
            Err(m) => {
                problems.push(at("task", &m));
                continue;
            }
        };
        match check(task, f) {
            Ok(record) => {
                let key = format!(
                    "{}\u{1f}{}\u{1f}{}\u{1f}{}\u{1f}{:?}\u{1f}{}\u{1f}{}",
                    record.task_id,
                    record.model,
                    record.conditions_json,
                    record.metric,
                    record.category,
                    record.subset,
                    record.source
                );
                if let Some(first) = seen.insert(key, *line) {
                    problems.push(format!(
                        "line {line}: {}",
                        msg!("figures.repeated", first = first)
                    ));
                }
                records.push(record);
            }
            Err(ms) => {
                for m in ms {
                    let field = match m.code() {
                        "figures.metric" => "metric",
                        "figures.category" => "category",
                        _ => "conditions",
                    };
                    problems.push(at(field, &m));
                }
            }
        }
    }
    if !problems.is_empty() {
        return Err(ImportError { problems }.into());
    }
    storage
        .replace_paper_figures(&benchmark_id, &records)
        .await?;
    let per_task = tasks
        .iter()
        .map(|t| {
            let n = records.iter().filter(|r| r.task_id == t.id).count();
            (t.slug.clone(), n)
        })
        .filter(|(_, n)| *n > 0)
        .collect();
    Ok(ImportedFigures {
        figures: records.len(),
        per_task,
    })
}
