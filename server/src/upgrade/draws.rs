//! Start-up upgrade of draws that earlier versions made from public data (a constant seed and
//! the item's public id): the panel displays of the shuffled order tasks and the option order
//! models see on clip questions. Anyone could recompute those, so they hid nothing.
//!
//! A task with no session and no submission yet is re-drawn from the benchmark's secret key
//! (`crate::draws`), in one transaction: displays with their panel images reordered alike,
//! clip orders stored with the gold. A task with either keeps its draws (answers and scored
//! files refer to what was shown), and a warning names it: its hidden gold must be taken as
//! public, and its owner should re-import the benchmark under a new slug (or reveal the
//! gold). Idempotent: a task already on keyed draws is left untouched.

use crate::draws::{benchmark_key, installation_secret, Key};
use crate::kinds::ServerKind;
use crate::storage::{decode_json, DrawItemRow, Storage};
use anyhow::Context;
use memeboard_core::kinds::{ItemGold, ItemPrompt, Kind, TaskKind};
use memeboard_core::with_kind;

/// What the re-draw did, for logs and tests.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RedrawReport {
    /// Items given a keyed draw.
    pub redrawn: usize,
    /// Slugs of tasks left on public draws (they have sessions or submissions).
    pub compromised: Vec<String>,
}

/// The item re-drawn with `key` by its kind (`(id, prompt_json, gold_json)`), or `None` when
/// its draw is not one made from public data (already keyed, canonical, or not a drawing kind).
fn redraw_item(
    kind: TaskKind,
    key: &Key,
    item: &DrawItemRow,
) -> anyhow::Result<Option<(String, String, String)>> {
    let source = item.source_id.as_deref().unwrap_or(&item.id);
    let prompt: ItemPrompt = decode_json("items.prompt_json", &item.prompt_json)?;
    let gold: ItemGold = decode_json("items.gold_json", &item.gold_json)?;
    with_kind!(kind, K => {
        let Some(draws) = K::PUBLIC_DRAWS else {
            return Ok(None);
        };
        let (mut prompt, mut gold) = (K::prompt_of(prompt)?, K::gold_of(gold)?);
        if !draws
            .redraw(key, source, &mut prompt, &mut gold)
            .with_context(|| format!("item {}", item.id))?
        {
            return Ok(None);
        }
        Ok(Some((
            item.id.clone(),
            serde_json::to_string(&K::wire_prompt(prompt))?,
            serde_json::to_string(&K::wire_gold(gold))?,
        )))
    })
}

/// The kinds whose items may carry draws made from public data.
fn drawing_kinds() -> Vec<TaskKind> {
    TaskKind::ALL
        .into_iter()
        .filter(|k| with_kind!(*k, K => K::PUBLIC_DRAWS.is_some()))
        .collect()
}

/// Makes the installation's secret if there is none yet (first start), then re-draws the
/// public draws of tasks nothing refers to and warns about the others.
pub async fn run(storage: &Storage) -> anyhow::Result<RedrawReport> {
    installation_secret(storage).await?;
    let mut report = RedrawReport::default();
    let kinds: Vec<&str> = drawing_kinds().into_iter().map(TaskKind::as_str).collect();
    for task in storage.draw_tasks(&kinds).await? {
        let kind = TaskKind::parse(&task.kind)
            .with_context(|| format!("task {}: unknown kind `{}`", task.slug, task.kind))?;
        let key = benchmark_key(storage, &task.benchmark_slug).await?;
        let mut changes = Vec::new();
        for item in storage.draw_items(&task.id).await? {
            if let Some(change) = redraw_item(kind, &key, &item)? {
                changes.push(change);
            }
        }
        if changes.is_empty() {
            continue;
        }
        if storage.task_has_answers_or_submissions(&task.id).await? {
            tracing::warn!(
                task = %task.slug,
                items = changes.len(),
                "this task's panel displays or model option orders were drawn from public data \
                 by an earlier version, and it already has answers or submissions, so they are \
                 kept: treat its hidden gold as public (re-import the benchmark under a new \
                 slug, see docs/panels.md and docs/clips.md)"
            );
            report.compromised.push(task.slug.clone());
            continue;
        }
        storage.rewrite_draws(&changes).await?;
        tracing::warn!(
            task = %task.slug,
            items = changes.len(),
            "re-drew panel displays or model option orders made from public data by an \
             earlier version with the installation's secret key"
        );
        report.redrawn += changes.len();
    }
    Ok(report)
}
