//! The durable scoring queue of quiz explanations: answers stored without a score (the model
//! missing or busy, a crash just after the answer was stored, an upgrade that cleared old
//! scores) are scored in the background, for as long as the server runs.

use crate::explain;
use crate::explain::inference::EmbeddingService;
use crate::storage::{self, Storage};
use memeboard_core::kinds::explanation::Explanation;
use memeboard_core::kinds::{AnswerValue, ItemGold, Kind};

/// How often the backlog is looked at again after it was found empty (or scoring failed).
const BACKLOG_PAUSE: std::time::Duration = std::time::Duration::from_secs(20);

/// Scores stored explanations that have no score yet — answers stored while the model was
/// missing or busy (a flood of answers fills its queue), or just before a crash or restart —
/// in batches, in the background, for as long as the server runs: a pass drains what is
/// there, then the next pass follows [`BACKLOG_PAUSE`] later, or as soon as `wake` is
/// notified (an answer was left to the queue; see `explain::admission`). The answers table is
/// the durable queue. Without a model it does nothing; an answer that cannot be scored is
/// tried again in the next pass.
pub async fn score_backlog(
    storage: Storage,
    embeddings: EmbeddingService,
    wake: std::sync::Arc<tokio::sync::Notify>,
) {
    if embeddings.model_name().is_err() {
        return;
    }
    loop {
        drain_backlog(&storage, &embeddings).await;
        tokio::select! {
            () = tokio::time::sleep(BACKLOG_PAUSE) => {}
            () = wake.notified() => {}
        }
    }
}

/// One pass over the unscored explanations (each tried once).
async fn drain_backlog(storage: &Storage, embeddings: &EmbeddingService) {
    let mut tried = std::collections::HashSet::new();
    let mut scored = 0usize;
    loop {
        let batch = match storage.unscored_answers(Explanation::KEY, 64).await {
            Ok(b) => b,
            Err(e) => {
                tracing::warn!(error = %e, "explanation backlog: cannot read the queue");
                return;
            }
        };
        let fresh: Vec<_> = batch
            .into_iter()
            .filter(|(session, item, ..)| tried.insert((session.clone(), item.clone())))
            .collect();
        if fresh.is_empty() {
            break;
        }
        for (session, item, task, answer_json, gold_json) in fresh {
            let pair = (
                storage::decode_json::<AnswerValue>("answers.answer_json", &answer_json),
                storage::decode_json::<memeboard_core::kinds::ItemGold>(
                    "items.gold_json",
                    &gold_json,
                ),
            );
            let (Ok(AnswerValue::Explanation(answer)), Ok(ItemGold::Explanation(gold))) = pair
            else {
                continue;
            };
            let pair = explain::Pair {
                item_id: item.clone(),
                answer: answer.text,
                reference: gold.meaning,
            };
            match explain::score_pairs(storage, embeddings, &task, &[pair]).await {
                Ok(mut scores) if !scores.is_empty() => {
                    let score = scores.remove(0).score;
                    let stored = match serde_json::to_string(&score) {
                        Ok(json) => storage
                            .set_answer_scores(&session, &item, score.identification, &json)
                            .await
                            .is_ok(),
                        Err(_) => false,
                    };
                    scored += usize::from(stored);
                }
                Ok(_) => {}
                Err(e) => {
                    tracing::warn!(error = %e, "explanation backlog: scoring stopped");
                    return;
                }
            }
        }
    }
    if scored > 0 {
        tracing::info!(scored, "explanation backlog scored");
    }
}
