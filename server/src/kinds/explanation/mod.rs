//! Explanations on the server: model inputs (the meme phrase), dev gold (reference meaning
//! and origin), prediction files scored by sentence embeddings — meaning cosine (stored raw,
//! shown rescaled on boards: 0 = a random pair of reference meanings, 1 = the reference),
//! BERTScore-F1 and origin cosine — a "copy of the prompt" baseline row, a flag on files
//! whose answers copy the prompt, and the quiz feedback after an explanation is stored.

use super::{FeedbackContext, FileContext, ReferenceRow, ScoredFile, ServerKind, TypedItem};
use crate::error::{ApiError, ApiResult};
use crate::explain::{self, ScoringError};
use crate::inference::EmbeddingService;
use crate::storage::{self, BoardTaskRow, Storage};
use anyhow::Context;
use memeboard_core::api::{
    BoardSplit, ExplanationFeedback, ExplanationReference, ExplanationScore, NamedValue, RowKind,
};
use memeboard_core::embed::cosine;
use memeboard_core::human_eval::outputs::{ExplainedOutput, OutputScores};
use memeboard_core::kinds::explanation::Explanation;
use memeboard_core::kinds::{AnswerValue, ItemGold, Kind};
use memeboard_core::leaderboard::ItemScore;
use memeboard_core::predictions::{
    validate_explanations, FileFormat, Limits, ManifestItem, Split, TaskManifest,
    ValidatedExplanations,
};
use serde_json::{json, Value};

/// Key of the prompt-copy scores in `tasks.reference_json`.
const PROMPT_COPY: &str = "prompt_copy";

/// Share of a file's answers that nearly repeat the prompt from which a board flags it.
const COPY_FLAG_SHARE: f64 = 0.5;

/// Whether an answer nearly repeats the meme phrase it should explain: the same text (case,
/// spaces and punctuation aside), the phrase with at most three more characters, or a
/// character-bigram overlap (Jaccard) of 0.8 or more.
fn copies_prompt(answer: &str, phrase: &str) -> bool {
    let norm = |s: &str| -> Vec<char> {
        s.to_lowercase()
            .chars()
            .filter(|c| c.is_alphanumeric())
            .collect()
    };
    let (a, p) = (norm(answer), norm(phrase));
    if a.is_empty() || p.is_empty() {
        return false;
    }
    let (a_text, p_text): (String, String) = (a.iter().collect(), p.iter().collect());
    if a_text == p_text || (a_text.contains(&p_text) && a.len() <= p.len() + 3) {
        return true;
    }
    let bigrams = |v: &[char]| -> std::collections::HashSet<(char, char)> {
        v.windows(2).map(|w| (w[0], w[1])).collect()
    };
    let (ba, bp) = (bigrams(&a), bigrams(&p));
    let union = ba.union(&bp).count();
    union > 0 && ba.intersection(&bp).count() as f64 / union as f64 >= 0.8
}

impl ServerKind for Explanation {
    const BASELINE_ROW: RowKind = RowKind::RandomPair;
    const BASELINE_LABEL: &'static str = "Random pair of reference meanings";
    const MISSING_POLICY: &'static str = "Items without a prediction, and answers that say \
        nothing (\"I don't know\", \"不知道\"…), score like a random reference meaning (0 on \
        the rescaled scale).";
    const TEMPLATE_FIELDS: &'static [&'static str] = &["meaning", "origin", "example"];

    fn manifest_item(item: &TypedItem<Self>) -> ManifestItem {
        ManifestItem {
            id: item.row.id.clone(),
            category: item.row.category.clone(),
            split: item.split(),
            options: Vec::new(),
        }
    }

    fn inputs_line(item: &TypedItem<Self>) -> Value {
        json!({"item_id": item.row.id, "category": item.row.category, "split": item.split(), "meme": item.prompt.meme})
    }

    fn dev_gold_line(item: &TypedItem<Self>) -> Value {
        json!({"item_id": item.row.id, "category": item.row.category, "meaning": item.gold.meaning, "origin": item.gold.origin})
    }

    fn metric_name(embedding_model: Option<&str>) -> String {
        memeboard_core::msg!(
            "label.meaning_similarity",
            model = embedding_model.unwrap_or("embedding model")
        )
        .to_string()
    }

    fn board_value(value: f64, task_baseline: Option<f64>) -> f64 {
        task_baseline.map_or(value, |b| memeboard_core::embed::rescale(value, b))
    }

    /// The meme phrase itself given as the meaning ("copy of the prompt"), scored when a file
    /// was last scored (`tasks.reference_json`: raw cosine per item).
    fn reference_rows(items: &[&TypedItem<Self>], stored: Option<&Value>) -> Vec<ReferenceRow> {
        let Some(per_item) = stored.and_then(|v| v[PROMPT_COPY].as_object()) else {
            return Vec::new();
        };
        let scores: Vec<ItemScore> = items
            .iter()
            .filter_map(|i| {
                per_item
                    .get(&i.row.id)
                    .and_then(Value::as_f64)
                    .map(|score| ItemScore {
                        item_id: i.row.id.clone(),
                        category: i.row.category.clone(),
                        score,
                    })
            })
            .collect();
        if scores.is_empty() {
            return Vec::new();
        }
        vec![ReferenceRow {
            kind: RowKind::PromptCopy,
            label: "Copy of the prompt (the meme phrase as its meaning)",
            scores,
            extra: Vec::new(),
            confusion: None,
        }]
    }

    fn baseline(_item: &TypedItem<Self>, task_baseline: Option<f64>) -> Option<f64> {
        task_baseline
    }

    fn notable_gap(model_score: f64, crowd_score: f64) -> bool {
        crowd_score > model_score
    }

    async fn score_file(
        ctx: FileContext<'_>,
        items: &[TypedItem<Self>],
        text: &str,
        format: FileFormat,
        limits: Limits,
    ) -> ApiResult<ScoredFile> {
        let manifest = TaskManifest {
            task: ctx.task.task.slug.clone(),
            items: items.iter().map(Self::manifest_item).collect(),
        };
        let validated = validate_explanations(text, format, &manifest, limits)
            .map_err(|report| ApiError::Invalid(report.messages()))?;
        let (scores, mut extra, per_item) =
            score_pairs_of_file(ctx.storage, ctx.embeddings, ctx.task, items, &validated).await?;
        // Each answered item's output and its automatic scores, stored with the submission
        // for human evaluation studies.
        let outputs: Vec<storage::StoredOutput> = items
            .iter()
            .zip(&validated.predictions)
            .zip(per_item)
            .filter_map(|((item, prediction), scores)| {
                prediction.as_ref().map(|p| storage::StoredOutput {
                    item_id: item.row.id.clone(),
                    output: ExplainedOutput {
                        meaning: p.meaning.clone(),
                        origin: p.origin.clone(),
                        example: p.example.clone(),
                    },
                    scores,
                })
            })
            .collect();
        store_prompt_copy_scores(ctx.storage, ctx.embeddings, ctx.task, items).await?;
        // Files whose answers mostly repeat the meme phrase are flagged on the board.
        let answered: Vec<(usize, &str)> = validated
            .predictions
            .iter()
            .enumerate()
            .filter_map(|(i, p)| p.as_ref().map(|p| (i, p.meaning.as_str())))
            .collect();
        let copies = answered
            .iter()
            .filter(|(i, meaning)| copies_prompt(meaning, &items[*i].prompt.meme))
            .count();
        if !answered.is_empty() {
            let share = copies as f64 / answered.len() as f64;
            for half in ["public", "private"] {
                if let Some(list) = extra[half].as_array_mut() {
                    list.push(json!(NamedValue::plain(
                        memeboard_core::msg!("label.copying_prompt").to_string(),
                        share
                    )));
                }
            }
            if share >= COPY_FLAG_SHARE {
                extra["flags"] = json!(["copies_prompt"]);
            }
        }
        let warning = (!validated.missing.is_empty()).then(|| {
            let ids = validated
                .missing
                .iter()
                .take(5)
                .cloned()
                .collect::<Vec<_>>()
                .join(", ");
            memeboard_core::msg!(
                "file.missing_floor",
                count = validated.missing.len(),
                ids = ids
            )
        });
        Ok(ScoredFile {
            scores,
            extra: Some(extra),
            num_lines: validated.num_lines,
            num_missing: validated.missing.len(),
            orders_json: "[0]".into(),
            warnings: warning.into_iter().collect(),
            outputs,
        })
    }

    async fn feedback(
        ctx: FeedbackContext<'_>,
        item: &TypedItem<Self>,
    ) -> ApiResult<Option<ExplanationFeedback>> {
        feedback(ctx, item).await.map(Some)
    }
}

/// Scores each item's meme phrase as if it were the answer (the "copy of the prompt"
/// baseline) and caches the raw cosines on the task, once per embedding model.
async fn store_prompt_copy_scores(
    storage: &Storage,
    embeddings: &EmbeddingService,
    task: &BoardTaskRow,
    items: &[TypedItem<Explanation>],
) -> ApiResult<()> {
    let model = embeddings
        .model_name()
        .map_err(|e| scoring_error(e.into()))?;
    let cached: Option<Value> = storage
        .task_reference(&task.task.id)
        .await?
        .and_then(|j| serde_json::from_str(&j).ok());
    if cached.as_ref().is_some_and(|v| {
        v["model"] == model.as_str()
            && v[PROMPT_COPY]
                .as_object()
                .is_some_and(|o| o.len() == items.len())
    }) {
        return Ok(());
    }
    let texts: Vec<String> = items
        .iter()
        .flat_map(|i| [i.prompt.meme.clone(), i.gold.meaning.clone()])
        .collect();
    let vectors = embeddings
        .embed(texts)
        .await
        .map_err(|e| scoring_error(e.into()))?;
    let per_item: serde_json::Map<String, Value> = items
        .iter()
        .enumerate()
        .map(|(k, i)| {
            (
                i.row.id.clone(),
                json!(cosine(&vectors[2 * k], &vectors[2 * k + 1])),
            )
        })
        .collect();
    let json = json!({"model": model, PROMPT_COPY: per_item}).to_string();
    storage.set_task_reference(&task.task.id, &json).await?;
    Ok(())
}

/// How often the backlog is looked at again after it was found empty (or scoring failed).
const BACKLOG_PAUSE: std::time::Duration = std::time::Duration::from_secs(20);

/// Scores stored explanations that have no score yet — answers stored while the model was
/// missing or busy (a flood of answers fills its queue), or just before a crash or restart —
/// in batches, in the background, for as long as the server runs: a pass drains what is
/// there, then the next pass follows [`BACKLOG_PAUSE`] later (the answers table is the
/// durable queue). Without a model it does nothing; an answer that cannot be scored is
/// tried again in the next pass.
pub async fn score_backlog(storage: Storage, embeddings: EmbeddingService) {
    if embeddings.model_name().is_err() {
        return;
    }
    loop {
        drain_backlog(&storage, &embeddings).await;
        tokio::time::sleep(BACKLOG_PAUSE).await;
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
            match explain::score_pairs(storage, embeddings, &task, &[answer.text], &[gold.meaning])
                .await
            {
                Ok(mut scores) if !scores.is_empty() => {
                    let score = scores.remove(0);
                    let stored = match serde_json::to_string(&score) {
                        Ok(json) => storage
                            .set_answer_scores(&session, &item, score.cosine, &json)
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

/// Scores a stored explanation (once; a replay reuses the stored scores) and builds what the
/// participant sees: the server score, the crowd's scores, and the reference where allowed.
async fn feedback(
    ctx: FeedbackContext<'_>,
    item: &TypedItem<Explanation>,
) -> ApiResult<ExplanationFeedback> {
    let (answer_json, scores_json) = ctx
        .storage
        .find_answer(ctx.session_id, ctx.item_id)
        .await?
        .ok_or_else(|| ApiError::Unexpected(anyhow::anyhow!("recorded answer vanished")))?;
    let mut scoring_error = None;
    let server_score = match scores_json {
        Some(json) => Some(storage::decode_json::<ExplanationScore>(
            "answers.scores_json",
            &json,
        )?),
        None => {
            let AnswerValue::Explanation(answer) =
                storage::decode_json("answers.answer_json", &answer_json)?
            else {
                return Err(ApiError::Unexpected(anyhow::anyhow!(
                    "explanation answer is not text"
                )));
            };
            match explain::score_pairs(
                ctx.storage,
                ctx.embeddings,
                ctx.task_id,
                &[answer.text],
                std::slice::from_ref(&item.gold.meaning),
            )
            .await
            {
                Ok(mut scores) => {
                    let score = scores.remove(0);
                    let json = serde_json::to_string(&score).context("encode scores")?;
                    ctx.storage
                        .set_answer_scores(ctx.session_id, ctx.item_id, score.cosine, &json)
                        .await?;
                    Some(score)
                }
                Err(e) => {
                    scoring_error = Some(format!("not scored on the server: {e}"));
                    None
                }
            }
        }
    };
    if item.split() != Split::Dev {
        // Hidden test item: the score is stored for the crowd baseline and the results, but
        // nothing derived from the reference goes back now. Otherwise every answer (and
        // sessions restart freely) would be a similarity oracle on the hidden meaning.
        return Ok(ExplanationFeedback {
            reference: None,
            gold_withheld: true,
            server_score: None,
            scoring_error,
            crowd_scores: Vec::new(),
            scores_with_results: true,
        });
    }
    Ok(ExplanationFeedback {
        reference: Some(ExplanationReference {
            meaning: item.gold.meaning.clone(),
            origin: item.gold.origin.clone(),
        }),
        gold_withheld: false,
        server_score,
        scoring_error,
        crowd_scores: ctx.storage.item_scores(ctx.item_id).await?,
        scores_with_results: false,
    })
}

fn scoring_error(e: ScoringError) -> ApiError {
    match e {
        ScoringError::Storage(e) => ApiError::from(e),
        other => ApiError::Unavailable(memeboard_core::msg!("explain.unavailable", reason = other)),
    }
}

/// Scores a validated file: per item the raw meaning cosine (missing → the floor), per board
/// half the secondary metrics, and per item (in task order) the answered items' automatic
/// scores, stored with the outputs.
async fn score_pairs_of_file(
    storage: &Storage,
    embeddings: &EmbeddingService,
    task: &BoardTaskRow,
    items: &[TypedItem<Explanation>],
    validated: &ValidatedExplanations,
) -> ApiResult<(Vec<ItemScore>, Value, Vec<Option<OutputScores>>)> {
    let answered: Vec<usize> = (0..items.len())
        .filter(|&i| validated.predictions[i].is_some())
        .collect();
    let answers: Vec<String> = answered
        .iter()
        .filter_map(|&i| validated.predictions[i].as_ref().map(|p| p.meaning.clone()))
        .collect();
    let references: Vec<String> = answered
        .iter()
        .map(|&i| items[i].gold.meaning.clone())
        .collect();
    let scores = explain::score_pairs(storage, embeddings, &task.task.id, &answers, &references)
        .await
        .map_err(scoring_error)?;
    // Origins, where both the reference and the prediction have one.
    let with_origin: Vec<usize> = answered
        .iter()
        .copied()
        .filter(|&i| {
            items[i].gold.origin.is_some()
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
                items[i].gold.origin.clone().unwrap_or_default(),
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

    // Items without a prediction score like a random reference meaning (rescaled 0), the
    // same floor as a non-answer.
    let floor = explain::baseline(storage, embeddings, &task.task.id)
        .await
        .map_err(scoring_error)?;
    let mut item_scores: Vec<ItemScore> = items
        .iter()
        .map(|i| ItemScore {
            item_id: i.row.id.clone(),
            category: i.row.category.clone(),
            score: floor,
        })
        .collect();
    let mut rescaled = vec![None; items.len()];
    let mut bert = vec![None; items.len()];
    let mut per_item = vec![None; items.len()];
    for (k, &i) in answered.iter().enumerate() {
        item_scores[i].score = scores[k].cosine;
        rescaled[i] = Some(scores[k].rescaled);
        bert[i] = Some(scores[k].bert_f1);
        per_item[i] = Some(OutputScores {
            cosine: scores[k].cosine,
            rescaled: scores[k].rescaled,
            bert_f1: scores[k].bert_f1,
        });
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
    let extras_for = |half: BoardSplit| -> Vec<NamedValue> {
        let idx: Vec<usize> = (0..items.len())
            .filter(|&i| items[i].row.on_board(half))
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
            out.push(NamedValue::plain(
                memeboard_core::msg!(
                    "label.meaning_cosine_rescaled",
                    baseline = format!("{:.3}", baseline.unwrap_or(0.0))
                )
                .to_string(),
                v,
            ));
        }
        if let Some(v) = mean(&bert, true) {
            out.push(NamedValue::plain(
                memeboard_core::msg!("label.meaning_bertscore", model = model).to_string(),
                v,
            ));
        }
        if let Some(v) = mean(&origin, false) {
            out.push(NamedValue::plain(
                memeboard_core::msg!("label.origin_cosine").to_string(),
                v,
            ));
        }
        out
    };
    Ok((
        item_scores,
        json!({"public": extras_for(BoardSplit::Public), "private": extras_for(BoardSplit::Private)}),
        per_item,
    ))
}
