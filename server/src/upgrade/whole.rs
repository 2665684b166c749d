//! Start-up upgrade: submissions stored before the whole-split and all-items board views get
//! their summaries (both test halves together; every item, dev too), re-derived from their
//! stored per-item scores, so that those boards show every scored upload once the private
//! half is revealed. Idempotent: a submission that has them is left untouched. The kinds'
//! secondary figures over those views cannot be re-derived from item scores (they are not
//! stored per item), so earlier uploads show none there until they are uploaded again.

use crate::leaderboard::{has_view_summaries, store_view_summaries, summaries_by_half};
use crate::storage::{decode_json, Storage, SubmissionRewrite};
use anyhow::Context;
use memeboard_core::api::BoardSplit;
use memeboard_core::leaderboard::ItemScore;
use memeboard_core::predictions::Split;
use memeboard_core::tasks::CategoryInfo;
use std::collections::HashMap;

/// Adds the missing whole-split and all-items summaries; returns how many submissions were rewritten.
/// `resamples`: bootstrap resamples of the summaries (the uploads' own setting).
pub async fn add_whole_summaries(storage: &Storage, resamples: usize) -> anyhow::Result<usize> {
    let mut done = 0;
    for task in storage.list_board_tasks().await? {
        // Found without their item scores; each is then read whole, one at a time.
        let mut pending = Vec::new();
        for s in storage.task_submission_history(&task.task.id).await? {
            let extra: Option<serde_json::Value> = match &s.extra_json {
                Some(json) => Some(decode_json("submissions.extra_json", json)?),
                None => None,
            };
            if !has_view_summaries(extra.as_ref()) {
                pending.push(s.id);
            }
        }
        if pending.is_empty() {
            continue;
        }
        let items = storage.task_items(&task.task.id).await?;
        let halves: HashMap<&str, Option<BoardSplit>> = items
            .iter()
            .map(|r| {
                let half = (r.split == Split::Test).then_some(r.board_half);
                (r.id.as_str(), half)
            })
            .collect();
        let cats: Vec<String> =
            decode_json::<Vec<CategoryInfo>>("tasks.categories_json", &task.task.categories_json)?
                .into_iter()
                .map(|c| c.key)
                .collect();
        for id in pending {
            let Some(s) = storage.find_submission(&id).await? else {
                continue;
            };
            let scores: Vec<ItemScore> =
                decode_json("submissions.item_scores_json", &s.item_scores_json)?;
            let mut extra: Option<serde_json::Value> = match &s.extra_json {
                Some(json) => Some(decode_json("submissions.extra_json", json)?),
                None => None,
            };
            let summaries = summaries_by_half(&halves, &scores, &cats, resamples);
            store_view_summaries(&mut extra, &summaries);
            let rewrite = SubmissionRewrite {
                id: s.id,
                item_scores_json: s.item_scores_json,
                public_summary_json: s.public_summary_json,
                private_summary_json: s.private_summary_json,
                extra_json: extra.as_ref().map(serde_json::Value::to_string),
            };
            storage
                .apply_item_upgrade(&[], std::slice::from_ref(&rewrite))
                .await
                .with_context(|| format!("adding the whole-split summary to `{id}`"))?;
            done += 1;
        }
    }
    if done > 0 {
        tracing::warn!(
            submissions = done,
            "added the whole test split's summary to earlier submissions"
        );
    }
    Ok(done)
}
