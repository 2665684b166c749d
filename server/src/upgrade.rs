//! Start-up upgrade of databases made by earlier versions (runs after the migrations, before
//! serving; idempotent: a database already up to date is left untouched).
//!
//! 1. Text MCQ items get ids minted from public data only ([`mcq_item_id`]). Earlier versions
//!    hashed the correct option into the id, so hashing each option recovered the answer.
//!    Items are re-keyed with their session items, answers and submissions' per-item scores;
//!    old ids are gone afterwards (an upload naming one is refused as unknown).
//! 2. Items get a source id (migration 5 backfills it) and their split and board half are
//!    recomputed from it ([`split_of`]). The share of dev items the benchmark was imported
//!    with is not stored, so it is inferred from the stored splits (the value that reproduces
//!    them under the earlier per-item-id hashing).
//! 3. Submissions of a changed task get their public/private summaries re-derived from their
//!    per-item scores, so boards stay consistent with the new halves. Secondary explanation
//!    metrics (per half, not stored per item) cannot be re-derived and are dropped.
//!
//! 4. Multi-panel benchmarks imported before the comic explanation kind existed get its task
//!    (`<slug>-explain`, closed), built from their structure-typing task: the same comics
//!    with panels in reading order, the title and caption of the `-type-context` variant,
//!    splits and ids from the comics' source ids, panels under new per-task names of the
//!    stored images ([`add_comic_explanation_tasks`]).
//! 5. The installation's secret is made at first start, and panel displays and clip model
//!    orders drawn from public data are re-drawn from it where nothing refers to them yet,
//!    else reported ([`crate::upgrade::draws`]).
//! 6. Multi-panel benchmarks imported before cross-task gold was modelled get the record of
//!    which of their tasks reveal the shuffled order tasks' gold ([`panel_gold_reveals`],
//!    from the benchmark slug: task ids are minted from it), so their canonical-display,
//!    typing and explanation tasks withhold the order tasks' test comics from then on.
//! 7. Submissions stored before the whole-split and all-items board views get their
//!    summaries, from their per-item scores ([`crate::upgrade::whole`]).
//!
//! Each task is upgraded in one transaction.
//!
//! The folder `upgrade/` holds the steps with files of their own: [`draws`] (5), [`whole`] (7)
//! and [`explanations`], which scores again, in the background after start-up, the
//! explanation files an earlier version or another embedding model scored.

use crate::import::{mcq_item_id, split_hash, split_of};
use crate::import_panels::{
    explanation_item_id, explanation_task_id, explanation_task_record, panel_gold_reveals,
    EXPLAIN_SUFFIX,
};
use crate::leaderboard::{store_view_summaries, summaries_by_half};
use crate::storage::{
    decode_json, ItemChange, ItemRecord, MediaRecord, Storage, SubmissionRewrite, UpgradeItemRow,
    UpgradeTaskRow,
};
use anyhow::Context;
use memeboard_core::api::BoardSplit;
use memeboard_core::kinds::panel_explanation;
use memeboard_core::kinds::panels::{panel_bucket, PanelContext};
use memeboard_core::kinds::ItemGold;
use memeboard_core::leaderboard::ItemScore;
use memeboard_core::media::opaque_media_name;
use memeboard_core::tasks::MediaRef;
use memeboard_core::tasks::{CategoryInfo, ItemPrompt, TaskKind};
use std::collections::{HashMap, HashSet};

pub mod draws;
pub mod explanations;
pub mod whole;

/// What the upgrade did, for logs and tests.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct UpgradeReport {
    /// Items given a new id.
    pub rekeyed: usize,
    /// Items whose split or board half changed.
    pub resplit: usize,
    /// Submissions rewritten.
    pub submissions: usize,
    /// Tasks added (the comic explanation task of multi-panel benchmarks imported before it
    /// existed).
    pub tasks_added: usize,
    /// Cross-task gold relations recorded (a task revealing another's gold).
    pub gold_reveals: usize,
    /// Public draws re-drawn from the secret key, and tasks left on them.
    pub draws: crate::upgrade::draws::RedrawReport,
    /// Submissions given the whole-split and all-items summaries ([`crate::upgrade::whole`]).
    pub whole_summaries: usize,
}

/// The source id an item should have: public data only.
fn target_source(task: &UpgradeTaskRow, item: &UpgradeItemRow, new_id: &str) -> String {
    match TaskKind::parse(&task.kind) {
        // A question is its own source: its meme is the answer (gold).
        Some(TaskKind::TextMcq) => new_id.to_owned(),
        // An explanation item is derived from its meme (public: the phrase).
        Some(TaskKind::Explanation) => item.meme_id.clone().unwrap_or_else(|| new_id.to_owned()),
        // Every other kind (comics, clips, judging, and any kind added since these two
        // versions, whose importer stores public source ids): kept as it is.
        _ => item.source_id.clone().unwrap_or_else(|| new_id.to_owned()),
    }
}

/// The dev share that reproduces the stored splits when hashed from `key`, if one does.
fn consistent_dev_percent(items: &[(&UpgradeItemRow, u64)]) -> Option<(u64, u64)> {
    let lo = items
        .iter()
        .filter(|(i, _)| i.split == "dev")
        .map(|(_, h)| h + 1)
        .max()
        .unwrap_or(0);
    let hi = items
        .iter()
        .filter(|(i, _)| i.split != "dev")
        .map(|(_, h)| *h)
        .min()
        .unwrap_or(100);
    (lo <= hi).then_some((lo, hi))
}

/// A text MCQ item's id from public data (its sentence and options), replacing the id
/// earlier versions minted from gold.
fn public_mcq_id(task: &UpgradeTaskRow, item: &UpgradeItemRow) -> anyhow::Result<String> {
    let ItemPrompt::TextMcq(prompt) = decode_json("items.prompt_json", &item.prompt_json)? else {
        anyhow::bail!("item {} of a text MCQ task has another prompt", item.id);
    };
    Ok(mcq_item_id(
        &task.benchmark_slug,
        &prompt.sentence,
        &prompt.options,
    ))
}

/// Plans the upgrade of one task: the item changes (empty when up to date).
fn plan_task(task: &UpgradeTaskRow, items: &[UpgradeItemRow]) -> anyhow::Result<Vec<ItemChange>> {
    if items.is_empty() {
        return Ok(Vec::new());
    }
    let kind = TaskKind::parse(&task.kind);
    // Judging tasks keep the splits of the items they judge (set by the study, not hashed).
    if kind.is_some_and(TaskKind::is_judging) {
        return Ok(Vec::new());
    }
    let mut targets = Vec::with_capacity(items.len());
    for item in items {
        // Only text MCQ ids were ever minted from gold; every other kind keeps its ids.
        let new_id = match kind {
            Some(TaskKind::TextMcq) => public_mcq_id(task, item)?,
            // No other kind (nor any added since) minted ids from gold.
            _ => item.id.clone(),
        };
        let source = target_source(task, item, &new_id);
        targets.push((new_id, source));
    }
    let mut seen = HashSet::new();
    for (item, (new_id, _)) in items.iter().zip(&targets) {
        anyhow::ensure!(
            seen.insert(new_id.as_str()),
            "task `{}`: two questions with the same sentence and options (one is `{}`); \
             remove the duplicate before upgrading",
            task.id,
            item.id
        );
    }
    // Up to date: ids and sources as targeted, and the stored splits reproduced by hashing
    // the sources with some dev share.
    let hashed: Vec<(&UpgradeItemRow, u64)> = items
        .iter()
        .zip(&targets)
        .map(|(i, (_, s))| (i, split_hash(s)))
        .collect();
    let up_to_date = items.iter().zip(&targets).all(|(i, (id, s))| {
        &i.id == id
            && i.source_id.as_deref() == Some(s.as_str())
            && (i.split == "dev" || split_of(s, 0).1 == i.board_half)
    }) && consistent_dev_percent(&hashed).is_some();
    if up_to_date {
        return Ok(Vec::new());
    }
    // The dev share the task was imported with: the one reproducing the stored splits under
    // the earlier hashing (by item id), nearest to the observed share.
    let observed =
        (items.iter().filter(|i| i.split == "dev").count() * 100 + items.len() / 2) / items.len();
    let old: Vec<(&UpgradeItemRow, u64)> = items.iter().map(|i| (i, split_hash(&i.id))).collect();
    let dev_percent = match consistent_dev_percent(&old) {
        Some((lo, hi)) => (observed as u64).clamp(lo, hi),
        None => observed as u64,
    };
    let dev_percent = u8::try_from(dev_percent.min(100)).unwrap_or(100);
    Ok(items
        .iter()
        .zip(targets)
        .filter_map(|(i, (new_id, source))| {
            let (split, half) = split_of(&source, dev_percent);
            let changed = i.id != new_id
                || i.source_id.as_deref() != Some(source.as_str())
                || i.split != split
                || i.board_half != half;
            changed.then(|| ItemChange {
                old_id: i.id.clone(),
                new_id,
                source_id: source,
                split: split.into(),
                board_half: half.into(),
            })
        })
        .collect())
}

/// What a task is to the comic explanation upgrade.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ComicRole {
    /// Structure typing: the comics the explanation task is built from.
    Typing,
    /// Comic explanation: the task is there already.
    Explaining,
}

/// The role of a task kind in this upgrade of data stored before comic explanations existed:
/// only the two comic kinds have one, so no kind added since needs to say anything here.
fn comic_role(kind: &str) -> Option<ComicRole> {
    match TaskKind::parse(kind) {
        Some(TaskKind::PanelType) => Some(ComicRole::Typing),
        Some(TaskKind::PanelExplanation) => Some(ComicRole::Explaining),
        _ => None,
    }
}

/// Adds the comic explanation task to every multi-panel benchmark that has a structure-typing
/// task (`<slug>-type`) and no comic explanation task yet; returns how many were added.
pub async fn add_comic_explanation_tasks(storage: &Storage) -> anyhow::Result<usize> {
    let tasks = storage.list_board_tasks().await?;
    let mut added = 0;
    for typing in tasks.iter().filter(|t| {
        comic_role(&t.task.kind) == Some(ComicRole::Typing)
            && t.task.slug == format!("{}-type", t.task.benchmark_id)
    }) {
        let bench = typing.task.benchmark_id.as_str();
        if tasks.iter().any(|t| {
            t.task.benchmark_id == bench && comic_role(&t.task.kind) == Some(ComicRole::Explaining)
        }) {
            continue;
        }
        let slug = format!("{bench}-{EXPLAIN_SUFFIX}");
        let task_id = explanation_task_id(bench);
        // Title and caption per comic, from the variant that shows context.
        let mut contexts: HashMap<String, PanelContext> = HashMap::new();
        if let Some(with_context) = tasks
            .iter()
            .find(|t| t.task.slug == format!("{bench}-type-context"))
        {
            for item in storage.upgrade_items(&with_context.task.id).await? {
                if let (Some(source), ItemPrompt::PanelType(p)) = (
                    item.source_id,
                    decode_json::<ItemPrompt>("items.prompt_json", &item.prompt_json)?,
                ) {
                    if let Some(c) = p.context {
                        contexts.insert(source, c);
                    }
                }
            }
        }
        let mut items = Vec::new();
        let mut media: HashMap<String, MediaRecord> = HashMap::new();
        for (ordinal, item) in storage
            .upgrade_items(&typing.task.id)
            .await?
            .into_iter()
            .enumerate()
        {
            let ItemPrompt::PanelType(prompt) =
                decode_json("items.prompt_json", &item.prompt_json)?
            else {
                anyhow::bail!(
                    "item {} of a structure-typing task has another prompt",
                    item.id
                );
            };
            let source = item.source_id.clone().unwrap_or_else(|| item.id.clone());
            let mut panels = Vec::with_capacity(prompt.panels.len());
            for panel in &prompt.panels {
                let name = panel.url.trim_start_matches("/media/");
                let stored = storage.media(name).await?.with_context(|| {
                    format!("panel {} of item {} is not stored", panel.url, item.id)
                })?;
                let extension = name.rsplit('.').next().unwrap_or("png");
                let mut salted = slug.as_bytes().to_vec();
                salted.push(0);
                salted.extend_from_slice(&stored.bytes);
                let new_name = opaque_media_name(&salted, extension);
                media
                    .entry(new_name.clone())
                    .or_insert_with(|| MediaRecord {
                        name: new_name.clone(),
                        task_id: task_id.clone(),
                        sha256: stored.sha256.clone(),
                        content_type: stored.content_type.clone(),
                        bytes: std::sync::Arc::new(stored.bytes),
                    });
                panels.push(MediaRef {
                    url: format!("/media/{new_name}"),
                    alt: panel.alt.clone(),
                });
            }
            let context = contexts
                .get(&source)
                .map(|c| PanelContext {
                    title: c.title.clone(),
                    caption: c.caption.clone(),
                    comments: Vec::new(),
                })
                .filter(|c| !c.is_empty());
            let n = panels.len();
            let prompt =
                ItemPrompt::PanelExplanation(panel_explanation::Prompt { panels, context });
            items.push(ItemRecord {
                id: explanation_item_id(bench, &source),
                task_id: task_id.clone(),
                ordinal: ordinal as i64,
                category: panel_bucket(n).key.to_owned(),
                prompt_json: serde_json::to_string(&prompt)?,
                gold_json: serde_json::to_string(&ItemGold::PanelExplanation(
                    panel_explanation::Gold {},
                ))?,
                flagged: false,
                meme_id: None,
                source_id: source,
                split: item.split,
                board_half: item.board_half,
            });
        }
        let task = explanation_task_record(
            bench,
            &typing.task.description,
            &typing.task.categories_json,
            usize::try_from(typing.task.batch_size).unwrap_or(1),
            items.len(),
        );
        let media: Vec<MediaRecord> = media.into_values().collect();
        storage
            .add_task(&task, &items, &media)
            .await
            .with_context(|| format!("adding the comic explanation task `{slug}`"))?;
        tracing::warn!(task = %slug, items = items.len(), "added the comic explanation task");
        added += 1;
    }
    Ok(added)
}

/// Records, for every multi-panel benchmark (one with a `<slug>-order` order task), which of
/// its tasks reveal which one's gold; returns the relations added (none when up to date).
pub async fn record_panel_gold_reveals(storage: &Storage) -> anyhow::Result<usize> {
    let mut added = 0;
    for task in storage.list_board_tasks().await? {
        let bench = task.task.benchmark_id.as_str();
        if TaskKind::parse(&task.task.kind) == Some(TaskKind::PanelOrder)
            && task.task.slug == format!("{bench}-order")
        {
            added += storage
                .record_gold_reveals(&panel_gold_reveals(bench))
                .await
                .with_context(|| format!("recording what reveals the gold of `{bench}`"))?;
        }
    }
    if added > 0 {
        tracing::warn!(
            relations = added,
            "recorded which tasks reveal other tasks' gold"
        );
    }
    Ok(added)
}

/// Runs the upgrade on every task. `resamples`: bootstrap resamples of re-derived summaries.
pub async fn run(storage: &Storage, resamples: usize) -> anyhow::Result<UpgradeReport> {
    let mut report = UpgradeReport {
        tasks_added: add_comic_explanation_tasks(storage).await?,
        draws: crate::upgrade::draws::run(storage).await?,
        ..UpgradeReport::default()
    };
    report.gold_reveals = record_panel_gold_reveals(storage).await?;
    for task in storage.upgrade_tasks().await? {
        let items = storage.upgrade_items(&task.id).await?;
        let changes = plan_task(&task, &items).with_context(|| format!("task `{}`", task.id))?;
        if changes.is_empty() {
            continue;
        }
        let by_old: HashMap<&str, &ItemChange> =
            changes.iter().map(|c| (c.old_id.as_str(), c)).collect();
        // Every item's (split, half) after the upgrade, by its new id.
        let after: Vec<(String, String, String)> = items
            .iter()
            .map(|i| match by_old.get(i.id.as_str()) {
                Some(c) => (c.new_id.clone(), c.split.clone(), c.board_half.clone()),
                None => (i.id.clone(), i.split.clone(), i.board_half.clone()),
            })
            .collect();
        // The board half that scores each item (none for dev items), from the new values.
        let halves: HashMap<&str, Option<BoardSplit>> = after
            .iter()
            .map(|(id, s, h)| {
                let half = match (s.as_str(), h.as_str()) {
                    ("test", "public") => Some(BoardSplit::Public),
                    ("test", _) => Some(BoardSplit::Private),
                    _ => None,
                };
                (id.as_str(), half)
            })
            .collect();
        let cats: Vec<String> =
            decode_json::<Vec<CategoryInfo>>("tasks.categories_json", &task.categories_json)?
                .into_iter()
                .map(|c| c.key)
                .collect();
        let halves_changed = changes.iter().any(|c| {
            items
                .iter()
                .find(|i| i.id == c.old_id)
                .is_some_and(|i| i.split != c.split || i.board_half != c.board_half)
        });
        let mut rewrites = Vec::new();
        for s in storage.task_submissions_with_items(&task.id).await? {
            let mut scores: Vec<ItemScore> =
                decode_json("submissions.item_scores_json", &s.item_scores_json)?;
            for sc in &mut scores {
                if let Some(c) = by_old.get(sc.item_id.as_str()) {
                    sc.item_id.clone_from(&c.new_id);
                }
            }
            let summaries = summaries_by_half(&halves, &scores, &cats, resamples);
            let mut extra: Option<serde_json::Value> = match (halves_changed, &s.extra_json) {
                (false, Some(json)) => Some(decode_json("submissions.extra_json", json)?),
                _ => None,
            };
            store_view_summaries(&mut extra, &summaries);
            rewrites.push(SubmissionRewrite {
                id: s.id.clone(),
                item_scores_json: serde_json::to_string(&scores)?,
                public_summary_json: serde_json::to_string(&summaries.public)?,
                private_summary_json: serde_json::to_string(&summaries.private)?,
                extra_json: extra.as_ref().map(serde_json::Value::to_string),
            });
        }
        storage
            .apply_item_upgrade(&changes, &rewrites)
            .await
            .with_context(|| format!("upgrading task `{}`", task.id))?;
        report.rekeyed += changes.iter().filter(|c| c.new_id != c.old_id).count();
        report.resplit += changes
            .iter()
            .filter(|c| {
                items
                    .iter()
                    .find(|i| i.id == c.old_id)
                    .is_some_and(|i| i.split != c.split || i.board_half != c.board_half)
            })
            .count();
        report.submissions += rewrites.len();
        tracing::warn!(
            task = %task.id,
            changed_items = changes.len(),
            submissions = rewrites.len(),
            "upgraded items to public-data ids and source-based splits"
        );
    }
    // After any summaries above were re-derived (they include it).
    report.whole_summaries = crate::upgrade::whole::add_whole_summaries(storage, resamples).await?;
    Ok(report)
}
