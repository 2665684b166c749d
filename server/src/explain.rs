//! Explanation scoring: a free-text meaning against the reference meaning, by sentence
//! embeddings — meaning identification against the task's open reference pool (the primary
//! score), cosine (raw and rescaled against the dataset's random-pair baseline) — and
//! BERTScore-F1. Used by the explanation quiz (one answer at a time) and by prediction files.
//!
//! The folder `explain/` holds the embedding model itself ([`inference`], also used by the
//! MCQ distractors), the pool of reference meanings ([`pool`]), the admission of answers to
//! the model's queue ([`admission`]) and one computation per key at a time ([`single_flight`]).

use crate::storage::{self, Storage, StorageError};
use inference::{EmbeddingService, InferenceError};
use memeboard_core::api::ExplanationScore;
use memeboard_core::embed::identification::CHANCE;
use memeboard_core::embed::{bert_score, cosine, rescale};
use memeboard_core::ids::fnv1a64;
use memeboard_core::kinds::explanation::is_non_answer;
use memeboard_core::kinds::ItemGold;

pub mod admission;
pub mod inference;
pub mod pool;
pub mod single_flight;

/// Meanings sampled for the random-pair baseline (all pairs among them are averaged).
pub const BASELINE_SAMPLE: usize = 200;

/// One baseline computation per task at a time (the others wait and read its result).
static BASELINE_LOCKS: std::sync::LazyLock<single_flight::KeyedLocks> =
    std::sync::LazyLock::new(single_flight::KeyedLocks::default);

/// Why an explanation could not be scored.
#[derive(Debug, thiserror::Error)]
pub enum ScoringError {
    /// The model is missing, busy or failed.
    #[error(transparent)]
    Inference(#[from] InferenceError),
    /// Storage failed.
    #[error(transparent)]
    Storage(#[from] StorageError),
    /// The task has fewer than two reference meanings.
    #[error("the task has too few reference meanings to compute a baseline")]
    NoBaseline,
    /// The task has too few open (dev) meanings to rank explanations against.
    #[error(
        "the task has {found} open dev reference meanings; meaning identification needs at least {min} (import it again with a higher --dev-percent)",
        min = memeboard_core::embed::identification::MIN_POOL
    )]
    SmallPool {
        /// Open meanings found.
        found: usize,
    },
    /// A scoring thread failed.
    #[error("scoring stopped: {0}")]
    Worker(String),
}

/// The mean cosine of random pairs of reference meanings of a task (BERTScore-style baseline
/// for rescaling), computed once per task and model and cached in the database; callers that
/// arrive while it is being computed wait for that one computation (within one server
/// instance). A fixed, hash-ordered sample of at most [`BASELINE_SAMPLE`] meanings keeps it
/// quick and stable.
pub async fn baseline(
    storage: &Storage,
    embeddings: &EmbeddingService,
    task_id: &str,
) -> Result<f64, ScoringError> {
    let model = embeddings.model_name()?;
    let cached = || async {
        Ok::<_, StorageError>(
            storage
                .task_baseline(task_id)
                .await?
                .filter(|(_, cached_model)| *cached_model == model)
                .map(|(value, _)| value),
        )
    };
    if let Some(value) = cached().await? {
        return Ok(value);
    }
    // Single flight: whoever waited here while another caller computed it reads its result.
    let _guard = BASELINE_LOCKS.lock(task_id).await;
    if let Some(value) = cached().await? {
        return Ok(value);
    }
    let mut meanings: Vec<(u64, String)> = storage
        .task_items(task_id)
        .await?
        .into_iter()
        .filter_map(|item| {
            let gold = storage::decode_json::<ItemGold>("items.gold_json", &item.gold_json);
            let meaning = gold.ok()?.into_explanation()?.meaning;
            Some((fnv1a64(item.id.as_bytes()), meaning))
        })
        .collect();
    meanings.sort();
    meanings.truncate(BASELINE_SAMPLE);
    if meanings.len() < 2 {
        return Err(ScoringError::NoBaseline);
    }
    let vectors = embeddings
        .embed(meanings.into_iter().map(|(_, m)| m).collect())
        .await?;
    let (mut sum, mut pairs) = (0.0, 0usize);
    for i in 0..vectors.len() {
        for j in i + 1..vectors.len() {
            sum += cosine(&vectors[i], &vectors[j]);
            pairs += 1;
        }
    }
    let value = sum / pairs as f64;
    storage.set_task_baseline(task_id, value, &model).await?;
    tracing::info!(task = task_id, baseline = value, model = %model, "computed the explanation baseline");
    Ok(value)
}

/// One explanation to score: the item it answers, the answer, and the item's reference.
#[derive(Debug, Clone)]
pub struct Pair {
    /// Item id (its own meaning is left out of the pool it is ranked against).
    pub item_id: String,
    /// The explanation.
    pub answer: String,
    /// The item's reference meaning.
    pub reference: String,
}

/// One explanation's scores, and whether it is generic (no closer to its own meaning than to
/// the centroid of the open meanings; see [`pool::ReferencePool::generic`]).
#[derive(Debug, Clone)]
pub struct Scored {
    /// The scores.
    pub score: ExplanationScore,
    /// Generic (a non-answer is not).
    pub generic: bool,
}

/// Scores explanations against their references: the embeddings and BERTScore token vectors
/// off the async executor (the model's queue), then per answer its cosine, identification
/// against the task's open pool and BERTScore on a blocking thread. Non-answers score at the
/// floor (chance, the random-pair baseline, BERTScore 0).
pub async fn score_pairs(
    storage: &Storage,
    embeddings: &EmbeddingService,
    task_id: &str,
    pairs: &[Pair],
) -> Result<Vec<Scored>, ScoringError> {
    let base = baseline(storage, embeddings, task_id).await?;
    let pool = pool::open_pool(storage, embeddings, task_id).await?;
    let model = embeddings.model_name()?;
    let texts: Vec<String> = pairs
        .iter()
        .map(|p| p.answer.clone())
        .chain(pairs.iter().map(|p| p.reference.clone()))
        .collect();
    let vectors = embeddings.embed(texts.clone()).await?;
    let (tokens, dim) = embeddings.token_vectors(texts).await?;
    let pairs = pairs.to_vec();
    tokio::task::spawn_blocking(move || {
        let n = pairs.len();
        (0..n)
            .map(|i| {
                if is_non_answer(&pairs[i].answer) {
                    let score = ExplanationScore {
                        model: model.clone(),
                        identification: CHANCE,
                        cosine: base,
                        rescaled: 0.0,
                        baseline: base,
                        bert_f1: 0.0,
                        non_answer: true,
                    };
                    return Scored {
                        score,
                        generic: false,
                    };
                }
                let cos = cosine(&vectors[i], &vectors[n + i]);
                let score = ExplanationScore {
                    model: model.clone(),
                    identification: pool.identify(&pairs[i].item_id, &vectors[i], cos),
                    cosine: cos,
                    rescaled: rescale(cos, base),
                    baseline: base,
                    bert_f1: bert_score(&tokens[i], &tokens[n + i], dim).f1,
                    non_answer: false,
                };
                Scored {
                    score,
                    generic: pool.generic(&vectors[i], cos),
                }
            })
            .collect()
    })
    .await
    .map_err(|e| ScoringError::Worker(e.to_string()))
}
