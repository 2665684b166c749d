//! Explanation prediction files on the leaderboard (CHIME task B): manifests, templates and
//! dev gold for explanation tasks, and scoring an uploaded file by sentence embeddings —
//! meaning cosine (primary, raw), rescaled cosine, BERTScore-F1 and origin cosine.

use crate::error::{ApiError, ApiResult};
use crate::explain::{self, ScoringError};
use crate::inference::EmbeddingService;
use crate::leaderboard::split;
use crate::storage::{self, BoardTaskRow, Storage, TaskItemRow};
use memeboard_core::api::NamedValue;
use memeboard_core::embed::cosine;
use memeboard_core::leaderboard::ItemScore;
use memeboard_core::predictions::{
    FileFormat, ManifestItem, Split, TaskManifest, ValidatedExplanations,
};
use memeboard_core::tasks::{ItemGold, ItemPrompt};
use serde_json::{json, Value};

/// An explanation item with its (server-side) reference.
pub struct ExplItem {
    /// The stored item.
    pub row: TaskItemRow,
    /// The meme phrase (public).
    pub meme: String,
    /// Reference meaning (gold).
    pub meaning: String,
    /// Reference origin (gold), if any.
    pub origin: Option<String>,
}

/// The explanation items of a task.
pub async fn items(storage: &Storage, task: &BoardTaskRow) -> ApiResult<Vec<ExplItem>> {
    storage
        .task_items(&task.task.id)
        .await?
        .into_iter()
        .map(|row| {
            let ItemPrompt::Explanation { meme } =
                storage::decode_json("items.prompt_json", &row.prompt_json)?
            else {
                return Err(ApiError::Unexpected(anyhow::anyhow!(
                    "item {} is not an explanation item",
                    row.id
                )));
            };
            let ItemGold::Explanation { meaning, origin } =
                storage::decode_json("items.gold_json", &row.gold_json)?
            else {
                return Err(ApiError::Unexpected(anyhow::anyhow!(
                    "item {} has no explanation gold",
                    row.id
                )));
            };
            Ok(ExplItem {
                row,
                meme,
                meaning,
                origin,
            })
        })
        .collect()
}

/// The public manifest: ids, categories, splits (explanations have no options).
pub fn manifest_of(task: &BoardTaskRow, items: &[ExplItem]) -> TaskManifest {
    TaskManifest {
        task: task.task.slug.clone(),
        items: items
            .iter()
            .map(|i| ManifestItem {
                id: i.row.id.clone(),
                category: i.row.category.clone(),
                split: split(&i.row),
                options: Vec::new(),
            })
            .collect(),
    }
}

/// Model inputs: one line per meme.
pub fn inputs_jsonl(items: &[ExplItem]) -> String {
    items
        .iter()
        .map(|i| json!({"item_id": i.row.id, "category": i.row.category, "split": split(&i.row), "meme": i.meme}).to_string() + "\n")
        .collect()
}

/// A template: every item id with an empty meaning.
pub fn template(items: &[ExplItem], format: FileFormat) -> String {
    crate::leaderboard::template_file(
        items.iter().map(|i| i.row.id.as_str()),
        &["meaning", "origin", "example"],
        format,
    )
}

/// Reference explanations of the open dev split only.
pub fn dev_gold(items: &[ExplItem]) -> Vec<Value> {
    items
        .iter()
        .filter(|i| split(&i.row) == Split::Dev)
        .map(|i| json!({"item_id": i.row.id, "category": i.row.category, "meaning": i.meaning, "origin": i.origin}))
        .collect()
}

fn scoring_error(e: ScoringError) -> ApiError {
    match e {
        ScoringError::Storage(e) => ApiError::from(e),
        other => ApiError::Unavailable(format!("explanation scoring is unavailable: {other}")),
    }
}

/// Scores a validated file: per item the raw meaning cosine (missing → 0), and per board half
/// the secondary metrics.
pub async fn score_file(
    storage: &Storage,
    embeddings: &EmbeddingService,
    task: &BoardTaskRow,
    items: &[ExplItem],
    validated: &ValidatedExplanations,
) -> ApiResult<(Vec<ItemScore>, Value)> {
    let answered: Vec<usize> = (0..items.len())
        .filter(|&i| validated.predictions[i].is_some())
        .collect();
    let answers: Vec<String> = answered
        .iter()
        .filter_map(|&i| validated.predictions[i].as_ref().map(|p| p.meaning.clone()))
        .collect();
    let references: Vec<String> = answered.iter().map(|&i| items[i].meaning.clone()).collect();
    let scores = explain::score_pairs(storage, embeddings, &task.task.id, &answers, &references)
        .await
        .map_err(scoring_error)?;
    // Origins, where both the reference and the prediction have one.
    let with_origin: Vec<usize> = answered
        .iter()
        .copied()
        .filter(|&i| {
            items[i].origin.is_some()
                && validated.predictions[i]
                    .as_ref()
                    .is_some_and(|p| p.origin.is_some())
        })
        .collect();
    let origin_texts: Vec<String> = with_origin
        .iter()
        .flat_map(|&i| {
            [
                validated.predictions[i]
                    .as_ref()
                    .and_then(|p| p.origin.clone())
                    .unwrap_or_default(),
                items[i].origin.clone().unwrap_or_default(),
            ]
        })
        .collect();
    let origin_vectors = if origin_texts.is_empty() {
        Vec::new()
    } else {
        embeddings
            .embed(origin_texts)
            .await
            .map_err(|e| scoring_error(e.into()))?
    };

    let mut item_scores: Vec<ItemScore> = items
        .iter()
        .map(|i| ItemScore {
            item_id: i.row.id.clone(),
            category: i.row.category.clone(),
            score: 0.0,
        })
        .collect();
    let mut rescaled = vec![None; items.len()];
    let mut bert = vec![None; items.len()];
    for (k, &i) in answered.iter().enumerate() {
        item_scores[i].score = scores[k].cosine;
        rescaled[i] = Some(scores[k].rescaled);
        bert[i] = Some(scores[k].bert_f1);
    }
    let mut origin = vec![None; items.len()];
    for (k, &i) in with_origin.iter().enumerate() {
        origin[i] = Some(cosine(&origin_vectors[2 * k], &origin_vectors[2 * k + 1]));
    }
    let model = scores
        .first()
        .map(|s| s.model.clone())
        .or_else(|| embeddings.model_name().ok())
        .unwrap_or_default();
    let extras_for = |half: &str| -> Vec<NamedValue> {
        let idx: Vec<usize> = (0..items.len())
            .filter(|&i| items[i].row.split == "test" && items[i].row.board_half == half)
            .collect();
        let mean = |v: &Vec<Option<f64>>, missing_as_zero: bool| -> Option<f64> {
            let vals: Vec<f64> = idx
                .iter()
                .filter_map(|&i| {
                    if missing_as_zero {
                        Some(v[i].unwrap_or(0.0))
                    } else {
                        v[i]
                    }
                })
                .collect();
            (!vals.is_empty()).then(|| vals.iter().sum::<f64>() / vals.len() as f64)
        };
        let mut out = Vec::new();
        let baseline = scores.first().map(|s| s.baseline);
        if let Some(v) = mean(&rescaled, false) {
            out.push(NamedValue {
                name: format!(
                    "meaning cosine, rescaled (baseline {:.3}; answered items)",
                    baseline.unwrap_or(0.0)
                ),
                value: v,
            });
        }
        if let Some(v) = mean(&bert, true) {
            out.push(NamedValue {
                name: format!("meaning BERTScore-F1 ({model})"),
                value: v,
            });
        }
        if let Some(v) = mean(&origin, false) {
            out.push(NamedValue {
                name: "origin cosine (items with an origin)".into(),
                value: v,
            });
        }
        out
    };
    Ok((
        item_scores,
        json!({"public": extras_for("public"), "private": extras_for("private")}),
    ))
}
