//! The open reference pool of an explanation task: the meanings of its open dev items,
//! embedded once per task, gold version and embedding model and kept in memory. Meaning
//! identification ranks each explanation's similarity to its own meaning against its
//! similarities to these; the pool is public, so neither a score nor its changes say anything
//! about a hidden meaning other than the item's own (which only aggregates publish).

use super::single_flight::KeyedLocks;
use super::ScoringError;
use crate::explain::inference::EmbeddingService;
use crate::storage::{self, Storage};
use memeboard_core::embed::cosine;
use memeboard_core::embed::identification::{identification, MIN_POOL};
use memeboard_core::kinds::ItemGold;
use std::collections::HashMap;
use std::sync::{Arc, LazyLock, Mutex};

/// The open meanings of one task, embedded.
#[derive(Debug)]
pub struct ReferencePool {
    model: String,
    gold_version: i64,
    ids: Vec<String>,
    vectors: Vec<Vec<f32>>,
    centroid: Vec<f32>,
}

/// Pools by task id (one per explanation task: a few hundred vectors at most).
static POOLS: LazyLock<Mutex<HashMap<String, Arc<ReferencePool>>>> =
    LazyLock::new(Default::default);

/// One pool build per task at a time.
static POOL_LOCKS: LazyLock<KeyedLocks> = LazyLock::new(KeyedLocks::default);

impl ReferencePool {
    /// Identification of an answer to item `item_id` (its embedding `answer`, its cosine to
    /// its own meaning `own`) against the pool's other meanings.
    pub fn identify(&self, item_id: &str, answer: &[f32], own: f64) -> f64 {
        let others: Vec<f64> = self
            .ids
            .iter()
            .zip(&self.vectors)
            .filter(|(id, _)| id.as_str() != item_id)
            .map(|(_, v)| cosine(answer, v))
            .collect();
        identification(own, &others).unwrap_or(memeboard_core::embed::identification::CHANCE)
    }

    /// Whether an answer is no closer to its own meaning (`own`) than to the centroid of the
    /// open meanings: a sentence about memes in general rather than about this one.
    pub fn generic(&self, answer: &[f32], own: f64) -> bool {
        cosine(answer, &self.centroid) >= own
    }

    /// The open meanings in the pool.
    pub fn len(&self) -> usize {
        self.ids.len()
    }

    /// Whether the pool is empty (never: a pool has at least [`MIN_POOL`] meanings).
    pub fn is_empty(&self) -> bool {
        self.ids.is_empty()
    }
}

/// The task's open reference pool, built on first use (and after a re-import or a model
/// change); callers that arrive during a build wait for it.
pub async fn open_pool(
    storage: &Storage,
    embeddings: &EmbeddingService,
    task_id: &str,
) -> Result<Arc<ReferencePool>, ScoringError> {
    let model = embeddings.model_name()?;
    let gold_version = storage.task_gold_version(task_id).await?;
    let cached = || {
        let pools = POOLS.lock().unwrap_or_else(|p| p.into_inner());
        pools
            .get(task_id)
            .filter(|p| p.model == model && p.gold_version == gold_version)
            .cloned()
    };
    if let Some(pool) = cached() {
        return Ok(pool);
    }
    let _guard = POOL_LOCKS.lock(task_id).await;
    if let Some(pool) = cached() {
        return Ok(pool);
    }
    let mut ids = Vec::new();
    let mut meanings = Vec::new();
    for item in storage.open_dev_items(task_id).await? {
        if let Ok(ItemGold::Explanation(gold)) =
            storage::decode_json::<ItemGold>("items.gold_json", &item.gold_json)
        {
            ids.push(item.id);
            meanings.push(gold.meaning);
        }
    }
    if ids.len() < MIN_POOL {
        return Err(ScoringError::SmallPool { found: ids.len() });
    }
    let vectors = embeddings.embed(meanings).await?;
    let dim = vectors.first().map_or(0, Vec::len);
    let mut centroid = vec![0.0f32; dim];
    for v in &vectors {
        let norm = v
            .iter()
            .map(|x| x * x)
            .sum::<f32>()
            .sqrt()
            .max(f32::MIN_POSITIVE);
        for (c, x) in centroid.iter_mut().zip(v) {
            *c += x / norm;
        }
    }
    let pool = Arc::new(ReferencePool {
        model,
        gold_version,
        ids,
        vectors,
        centroid,
    });
    tracing::info!(
        task = task_id,
        meanings = pool.len(),
        "embedded the open reference pool"
    );
    POOLS
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .insert(task_id.to_owned(), pool.clone());
    Ok(pool)
}
