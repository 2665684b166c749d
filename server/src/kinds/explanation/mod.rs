//! Explanations on the server: model inputs (the meme phrase), dev gold (reference meaning
//! and origin), prediction files scored by meaning identification against the task's open
//! reference pool (the primary score; filler credited at most chance) with raw cosine,
//! BERTScore-F1 and origin cosine beside it, a "copy of the prompt" reference row, flags on
//! files of filler, the quiz feedback after an explanation is stored, and the background
//! scoring of stored answers.

pub mod backlog;
mod file_scores;
pub mod filler;
pub mod scoring_version;

use super::capabilities::{AutoScoring, StudySource};
use super::{
    FeedbackContext, FileContext, PredictionFiles, ReferenceRow, ScoredFile, ServerKind, TypedItem,
};
use crate::error::{ApiError, ApiResult};
use crate::explain::{self, ScoringError};
use crate::storage::{self, StoredOutput};
use anyhow::Context;
use memeboard_core::api::{ExplanationFeedback, ExplanationReference, ExplanationScore, RowKind};
use memeboard_core::embed::identification::CHANCE;
use memeboard_core::human_eval::outputs::{ExplainedOutput, RatedSubject, Reference};
use memeboard_core::human_eval::study::SourceItem;
use memeboard_core::kinds::explanation::Explanation;
use memeboard_core::kinds::AnswerValue;
use memeboard_core::leaderboard::ItemScore;
use memeboard_core::predictions::{validate_explanations, Split};
use serde_json::{json, Value};

/// A meme explanation item as a study's source: the phrase, with its reference meaning and
/// origin (memes have no text context).
pub struct ExplanationSource;

impl StudySource<Explanation> for ExplanationSource {
    fn source_item(&self, item: TypedItem<Explanation>) -> SourceItem {
        SourceItem {
            id: item.row.id,
            category: item.row.category,
            split: item.row.split,
            subject: RatedSubject::Meme {
                phrase: item.prompt.meme,
            },
            reference: Some(Reference {
                meaning: item.gold.meaning,
                origin: item.gold.origin,
                examples: Vec::new(),
            }),
            has_context: false,
        }
    }
}

/// Key of the prompt-copy scores (credited identification per item) in `tasks.reference_json`.
const PROMPT_COPY: &str = "prompt_copy_identification";

/// The board's baseline on one item, the similarity of a random pair of reference meanings: a
/// meaning that fits every meme alike is as close to the others as to its own.
fn random_pair(_item: &TypedItem<Explanation>) -> f64 {
    CHANCE
}

impl ServerKind for Explanation {
    type Files = Self;
    const AUTO_SCORING: Option<AutoScoring<Self>> = Some(AutoScoring {
        baseline_row: RowKind::RandomPair,
        baseline_label: "Chance (a meaning that fits every meme alike)",
        baseline: random_pair,
    });
    const PAPER_METRICS: &'static [&'static str] = &[
        "identification",
        "cosine",
        "bertscore",
        "bartscore",
        "origin_cosine",
        "origin_bertscore",
        "origin_bartscore",
    ];
    const STUDY_SOURCE: Option<&'static dyn StudySource<Self>> = Some(&ExplanationSource);

    fn category_keys() -> Vec<&'static str> {
        memeboard_core::tasks::MemeType::ALL
            .iter()
            .map(|t| t.key())
            .collect()
    }

    /// The meme phrase itself given as the meaning ("copy of the prompt"), scored when a file
    /// was last scored (`tasks.reference_json`: credited identification per item).
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

    async fn feedback(
        ctx: FeedbackContext<'_>,
        item: &TypedItem<Self>,
    ) -> ApiResult<Option<ExplanationFeedback>> {
        feedback(ctx, item).await.map(Some)
    }
}

impl PredictionFiles for Explanation {
    type Kind = Self;
    const MISSING_POLICY: &'static str = "Items without a prediction, and answers that say \
        nothing (\"I don't know\", \"不知道\"…), score at chance (0.5); answers flagged as \
        filler (one template for many memes, or the prompt copied) score at most chance.";
    const TEMPLATE_FIELDS: &'static [&'static str] = &["meaning", "origin", "example"];

    fn inputs_line(item: &TypedItem<Self>) -> Value {
        json!({"item_id": item.row.id, "category": item.row.category, "split": item.split(), "meme": item.prompt.meme})
    }

    fn dev_gold_line(item: &TypedItem<Self>) -> Value {
        json!({"item_id": item.row.id, "category": item.row.category, "meaning": item.gold.meaning, "origin": item.gold.origin})
    }

    fn metric_name(embedding_model: Option<&str>) -> String {
        memeboard_core::msg!(
            "label.meaning_identification",
            model = embedding_model.unwrap_or("embedding model")
        )
        .to_string()
    }

    fn notable_gap(model_score: f64, crowd_score: f64) -> bool {
        crowd_score > model_score
    }

    async fn score_file(ctx: FileContext<'_>, items: &[TypedItem<Self>]) -> ApiResult<ScoredFile> {
        let manifest = Self::manifest(&ctx.task.task.slug, items);
        let validated = ctx.validate(&manifest, validate_explanations)?;
        let (scores, extra, per_item) =
            file_scores::score_file(ctx.storage, ctx.embeddings, ctx.task, items, &validated)
                .await?;
        // Each answered item's output and its automatic scores, stored with the submission
        // for human evaluation studies.
        let outputs: Vec<StoredOutput> = items
            .iter()
            .zip(&validated.predictions)
            .zip(per_item)
            .filter_map(|((item, prediction), scores)| {
                prediction.as_ref().map(|p| StoredOutput {
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
            // Beyond the client's share of scoring now, the background queue scores it.
            let Some(_permit) = ctx.admission.try_admit(ctx.client) else {
                ctx.admission.queued();
                return finish(ctx, item, None, Some(QUEUED.to_owned())).await;
            };
            let pair = explain::Pair {
                item_id: item.row.id.clone(),
                answer: answer.text,
                reference: item.gold.meaning.clone(),
            };
            match explain::score_pairs(ctx.storage, ctx.embeddings, ctx.task_id, &[pair]).await {
                Ok(mut scores) if !scores.is_empty() => {
                    let score = scores.remove(0).score;
                    let json = serde_json::to_string(&score).context("encode scores")?;
                    ctx.storage
                        .set_answer_scores(ctx.session_id, ctx.item_id, score.identification, &json)
                        .await?;
                    Some(score)
                }
                Ok(_) => None,
                Err(e) => {
                    scoring_error = Some(format!("not scored on the server: {e}"));
                    None
                }
            }
        }
    };
    finish(ctx, item, server_score, scoring_error).await
}

/// What [`feedback`] says of an explanation left to the background queue.
const QUEUED: &str = "Scoring… your answer is saved and is being scored in the background; \
                      its score comes with your results.";

/// The feedback of a stored explanation with its server score, if any: for hidden test items
/// nothing derived from the reference, for open ones the reference and the crowd's scores.
async fn finish(
    ctx: FeedbackContext<'_>,
    item: &TypedItem<Explanation>,
    server_score: Option<ExplanationScore>,
    scoring_error: Option<String>,
) -> ApiResult<ExplanationFeedback> {
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

pub(super) fn scoring_error(e: ScoringError) -> ApiError {
    match e {
        ScoringError::Storage(e) => ApiError::from(e),
        other => ApiError::Unavailable(memeboard_core::msg!("explain.unavailable", reason = other)),
    }
}
