//! Explanation scoring: a free-text meaning against the reference meaning, by sentence
//! embeddings (cosine, rescaled against the dataset's random-pair baseline) and BERTScore-F1.
//! Used by the explanation quiz (one answer at a time) and by explanation prediction files.

use crate::inference::{EmbeddingService, InferenceError};
use crate::storage::{self, Storage, StorageError};
use memeboard_core::api::ExplanationScore;
use memeboard_core::embed::{bert_score, cosine, rescale};
use memeboard_core::ids::fnv1a64;
use memeboard_core::kinds::explanation::is_non_answer;
use memeboard_core::kinds::ItemGold;

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
            match storage::decode_json::<ItemGold>("items.gold_json", &item.gold_json) {
                Ok(ItemGold::Explanation(gold)) => {
                    Some((fnv1a64(item.id.as_bytes()), gold.meaning))
                }
                _ => None,
            }
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

/// Scores explanations against references, pairwise (`answers[i]` vs `references[i]`), in
/// batches off the async executor.
pub async fn score_pairs(
    storage: &Storage,
    embeddings: &EmbeddingService,
    task_id: &str,
    answers: &[String],
    references: &[String],
) -> Result<Vec<ExplanationScore>, ScoringError> {
    let base = baseline(storage, embeddings, task_id).await?;
    let model = embeddings.model_name()?;
    let texts: Vec<String> = answers.iter().chain(references).cloned().collect();
    let vectors = embeddings.embed(texts.clone()).await?;
    let (tokens, dim) = embeddings.token_vectors(texts).await?;
    let n = answers.len();
    Ok((0..n)
        .map(|i| {
            if is_non_answer(&answers[i]) {
                // The floor: as similar as a random reference meaning, nothing matched.
                return ExplanationScore {
                    model: model.clone(),
                    cosine: base,
                    rescaled: 0.0,
                    baseline: base,
                    bert_f1: 0.0,
                    non_answer: true,
                };
            }
            let cos = cosine(&vectors[i], &vectors[n + i]);
            ExplanationScore {
                model: model.clone(),
                cosine: cos,
                rescaled: rescale(cos, base),
                baseline: base,
                bert_f1: bert_score(&tokens[i], &tokens[n + i], dim).f1,
                non_answer: false,
            }
        })
        .collect())
}
