//! Per item, the crowd's scored answers summed (in total and per participant), kept per
//! state of the crowd's data: a participant's review and a model's item gaps read the crowd
//! per item from it in O(1), never the crowd's answers on the request's path.

use super::quality;
use crate::crowd_cache::CrowdCache;
use crate::error::{ApiError, ApiResult};
use crate::storage::{CrowdResponseRow, Storage};
use std::sync::Arc;

/// Per item, the scored answers of the crowd (completed sessions, after the owner's
/// exclusions) summed per participant: a participant's review shows each open item's mean
/// over the *other* participants in O(1) per item, without reading the crowd's answers.
#[derive(Debug, Default)]
pub struct ItemCrowdTable {
    items: std::collections::HashMap<std::sync::Arc<str>, ItemCrowd>,
}

/// One item's crowd: totals, and each participant's part of them.
#[derive(Debug, Default)]
struct ItemCrowd {
    sum: f64,
    answers: usize,
    by_participant: std::collections::HashMap<std::sync::Arc<str>, (f64, usize)>,
}

impl ItemCrowdTable {
    fn of(rows: &[CrowdResponseRow]) -> Self {
        let mut items: std::collections::HashMap<std::sync::Arc<str>, ItemCrowd> =
            Default::default();
        for r in rows {
            if let Some(score) = r.score {
                let item = items.entry(r.item_id.clone()).or_default();
                item.sum += score;
                item.answers += 1;
                let mine = item
                    .by_participant
                    .entry(r.participant_id.clone())
                    .or_default();
                mine.0 += score;
                mine.1 += 1;
            }
        }
        Self { items }
    }

    /// The mean score on `item` of everyone but `viewer`, if at least `min_others` others
    /// answered it.
    ///
    /// ```
    /// # use memeboard_server::crowd::items::ItemCrowdTable;
    /// // (Built from crowd rows on the server; see the API tests.)
    /// assert_eq!(ItemCrowdTable::default().others_mean("i1", "me", 1), None);
    /// ```
    pub fn others_mean(&self, item: &str, viewer: &str, min_others: usize) -> Option<f64> {
        let crowd = self.items.get(item)?;
        let (own_sum, own_answers) = crowd
            .by_participant
            .get(viewer)
            .copied()
            .unwrap_or_default();
        let others =
            crowd.by_participant.len() - usize::from(crowd.by_participant.contains_key(viewer));
        let answers = crowd.answers - own_answers;
        (others >= min_others.max(1) && answers > 0).then(|| (crowd.sum - own_sum) / answers as f64)
    }

    /// The mean score on `item` of everyone and how many scored answers it is over, if anyone
    /// answered it (an item is in the table only with a scored answer, so never over none).
    ///
    /// ```
    /// # use memeboard_server::crowd::items::ItemCrowdTable;
    /// assert_eq!(ItemCrowdTable::default().mean("i1"), None);
    /// ```
    pub fn mean(&self, item: &str) -> Option<(f64, usize)> {
        self.items
            .get(item)
            .map(|c| (c.sum / c.answers as f64, c.answers))
    }
}

/// The task's [`ItemCrowdTable`] at the crowd's current state: the stored one, or read and
/// computed once off the executor. With a crowd refresh interval a stored table is served
/// while the new one is computed in the background (see `CrowdCache::get_or_refresh`).
pub async fn item_crowd_table(
    storage: &Storage,
    cache: &CrowdCache<ItemCrowdTable>,
    task_id: &str,
) -> ApiResult<Arc<ItemCrowdTable>> {
    let fingerprint = storage.crowd_fingerprint(task_id).await?;
    let (owned_storage, owned_task) = (storage.clone(), task_id.to_owned());
    cache
        .get_or_refresh(
            task_id,
            fingerprint,
            storage.crowd_figures_may_lag(),
            || async move {
                let rows = quality::crowd_responses(&owned_storage, &owned_task).await?;
                let table = tokio::task::spawn_blocking(move || ItemCrowdTable::of(&rows))
                    .await
                    .map_err(|e| ApiError::Unexpected(e.into()))?;
                Ok::<_, ApiError>(table)
            },
        )
        .await
}
