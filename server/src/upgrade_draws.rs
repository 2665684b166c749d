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

use crate::draws::{benchmark_key, installation_secret, Key, Purpose};
use crate::storage::{decode_json, DrawItemRow, Storage};
use memeboard_core::kinds::panels::{fixed_display, legacy_display_seed, reorder_shown};
use memeboard_core::kinds::{ItemGold, ItemPrompt, TaskKind};
use memeboard_core::predictions::clips::model_option_order;

/// What the re-draw did, for logs and tests.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RedrawReport {
    /// Items given a keyed draw.
    pub redrawn: usize,
    /// Slugs of tasks left on public draws (they have sessions or submissions).
    pub compromised: Vec<String>,
}

/// The item re-drawn with `key` (`(id, prompt_json, gold_json)`), or `None` when its draw is
/// not one made from public data (already keyed, canonical, or not a drawing kind).
fn redraw_item(key: &Key, item: &DrawItemRow) -> anyhow::Result<Option<(String, String, String)>> {
    let source = item.source_id.as_deref().unwrap_or(&item.id);
    let prompt: ItemPrompt = decode_json("items.prompt_json", &item.prompt_json)?;
    let gold: ItemGold = decode_json("items.gold_json", &item.gold_json)?;
    let (prompt, gold) = match (prompt, gold) {
        (ItemPrompt::PanelOrder(mut p), ItemGold::PanelOrder(mut g)) => {
            let legacy = fixed_display(legacy_display_seed(source), &g.order_groups);
            let canonical: Vec<usize> = (1..=g.display.len()).collect();
            if g.display == canonical || g.display != legacy {
                return Ok(None);
            }
            let keyed = fixed_display(key.seed(Purpose::PanelDisplay, source), &g.order_groups);
            if keyed == g.display {
                return Ok(None);
            }
            let Some(panels) = reorder_shown(&p.panels, &g.display, &keyed) else {
                anyhow::bail!("item {}: its panels do not match its display", item.id);
            };
            p.panels = panels;
            g.display = keyed;
            (ItemPrompt::PanelOrder(p), ItemGold::PanelOrder(g))
        }
        (ItemPrompt::ClipMcq(p), ItemGold::ClipMcq(mut g)) => {
            if !g.model_order.is_empty() {
                return Ok(None);
            }
            g.model_order =
                model_option_order(key.seed(Purpose::ClipModelOrder, source), p.choices.len());
            (ItemPrompt::ClipMcq(p), ItemGold::ClipMcq(g))
        }
        _ => return Ok(None),
    };
    Ok(Some((
        item.id.clone(),
        serde_json::to_string(&prompt)?,
        serde_json::to_string(&gold)?,
    )))
}

/// Makes the installation's secret if there is none yet (first start), then re-draws the
/// public draws of tasks nothing refers to and warns about the others.
pub async fn run(storage: &Storage) -> anyhow::Result<RedrawReport> {
    installation_secret(storage).await?;
    let mut report = RedrawReport::default();
    let kinds = [TaskKind::PanelOrder.as_str(), TaskKind::ClipMcq.as_str()];
    for task in storage.draw_tasks(&kinds).await? {
        let key = benchmark_key(storage, &task.benchmark_slug).await?;
        let mut changes = Vec::new();
        for item in storage.draw_items(&task.id).await? {
            if let Some(change) = redraw_item(&key, &item)? {
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
