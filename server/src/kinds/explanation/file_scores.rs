//! Scoring an explanation prediction file: per item the credited identification (the primary
//! score; missing items at chance; filler — the prompt copied, one template for many memes, an
//! answer no closer to its own meaning than to the centroid of the open meanings — at most
//! chance), per board half the secondary figures (raw cosine, BERTScore-F1, origin cosine,
//! the share of each kind of filler), and the "copy of the prompt" reference row.

use super::filler::{copies_prompt, templates, COPY_FLAG_SHARE};
use super::{scoring_error, PROMPT_COPY};
use crate::error::ApiResult;
use crate::explain::inference::EmbeddingService;
use crate::explain::{self, Pair};
use crate::kinds::TypedItem;
use crate::storage::{BoardTaskRow, Storage};
use memeboard_core::api::{BoardSplit, NamedValue};
use memeboard_core::embed::identification::{credited, CHANCE};
use memeboard_core::embed::{bert_score, cosine};
use memeboard_core::human_eval::outputs::OutputScores;
use memeboard_core::kinds::explanation::Explanation;
use memeboard_core::leaderboard::ItemScore;
use memeboard_core::msg;
use memeboard_core::predictions::ValidatedExplanations;
use serde_json::{json, Value};

/// A scored file: per item (task order) its primary score, the secondary figures and flags
/// (`{"public": [...], "private": [...], "flags": [...]}`), and the answered items' scores.
pub(super) type FileScores = (Vec<ItemScore>, Value, Vec<Option<OutputScores>>);

/// Per answered item, what the file's figures need.
struct Answered {
    index: usize,
    cosine: f64,
    bert_f1: f64,
    copy: bool,
    template: bool,
    generic: bool,
}

/// Scores a validated file (see the module docs).
pub(super) async fn score_file(
    storage: &Storage,
    embeddings: &EmbeddingService,
    task: &BoardTaskRow,
    items: &[TypedItem<Explanation>],
    validated: &ValidatedExplanations,
) -> ApiResult<FileScores> {
    let answered: Vec<usize> = (0..items.len())
        .filter(|&i| validated.predictions[i].is_some())
        .collect();
    let meaning = |i: usize| {
        validated.predictions[i]
            .as_ref()
            .map_or("", |p| p.meaning.as_str())
    };
    let pairs: Vec<Pair> = answered
        .iter()
        .map(|&i| Pair {
            item_id: items[i].row.id.clone(),
            answer: meaning(i).to_owned(),
            reference: items[i].gold.meaning.clone(),
        })
        .collect();
    let scored = explain::score_pairs(storage, embeddings, &task.task.id, &pairs)
        .await
        .map_err(scoring_error)?;
    let phrases: Vec<(&str, &str)> = answered
        .iter()
        .map(|&i| (meaning(i), items[i].prompt.meme.as_str()))
        .collect();
    let template = templates(&phrases);
    let origin = origin_cosines(embeddings, items, validated).await?;

    let mut item_scores: Vec<ItemScore> = items
        .iter()
        .map(|i| ItemScore {
            item_id: i.row.id.clone(),
            category: i.row.category.clone(),
            score: CHANCE,
        })
        .collect();
    let mut per_item = vec![None; items.len()];
    let mut facts = Vec::with_capacity(answered.len());
    for (k, &i) in answered.iter().enumerate() {
        let s = &scored[k].score;
        let copy = copies_prompt(phrases[k].0, phrases[k].1);
        let primary = credited(s.identification, copy || template[k] || scored[k].generic);
        item_scores[i].score = primary;
        per_item[i] = Some(OutputScores {
            identification: Some(primary),
            cosine: s.cosine,
            rescaled: s.rescaled,
            bert_f1: s.bert_f1,
        });
        facts.push(Answered {
            index: i,
            cosine: s.cosine,
            bert_f1: s.bert_f1,
            copy,
            template: template[k],
            generic: scored[k].generic,
        });
    }
    let model = scored
        .first()
        .map(|s| s.score.model.clone())
        .or_else(|| embeddings.model_name().ok())
        .unwrap_or_default();
    let half = |half: BoardSplit| -> Vec<NamedValue> {
        let on: Vec<&Answered> = facts
            .iter()
            .filter(|a| items[a.index].row.on_board(half))
            .collect();
        let items_on = items.iter().filter(|i| i.row.on_board(half)).count();
        secondary(&on, items_on, &origin, items, half, &model)
    };
    let mut extra = json!({
        "public": half(BoardSplit::Public),
        "private": half(BoardSplit::Private),
        "whole": half(BoardSplit::Whole),
        "all": half(BoardSplit::All),
    });
    let share = |f: fn(&Answered) -> bool| {
        facts.iter().filter(|a| f(a)).count() as f64 / facts.len().max(1) as f64
    };
    let mut flags = Vec::new();
    if share(|a| a.copy) >= COPY_FLAG_SHARE {
        flags.push("copies_prompt");
    }
    if share(|a| a.template) >= COPY_FLAG_SHARE {
        flags.push("filler");
    }
    if !flags.is_empty() {
        extra["flags"] = json!(flags);
    }
    extra[super::scoring_version::PRIMARY_KEY] = json!(super::scoring_version::PRIMARY_VALUE);
    extra[super::scoring_version::VERSION_KEY] = json!(super::scoring_version::VERSION);
    extra[super::scoring_version::MODEL_KEY] = json!(model);
    store_prompt_copy_scores(storage, embeddings, task, items).await?;
    Ok((item_scores, extra, per_item))
}

/// The secondary figures of one board half: means over its answered items (BERTScore counts
/// missing items as 0, as CHIME does; origin cosine is over the memes with a reference
/// origin, a missing predicted origin counting 0), the same per meme type, and the shares of
/// answers copying the prompt, of template filler and of generic answers.
fn secondary(
    on: &[&Answered],
    items_on: usize,
    origin: &[Option<OriginScore>],
    items: &[TypedItem<Explanation>],
    half: BoardSplit,
    model: &str,
) -> Vec<NamedValue> {
    let mut out = Vec::new();
    if on.is_empty() {
        return out;
    }
    let n = on.len() as f64;
    let mean = |f: &dyn Fn(&Answered) -> f64| on.iter().map(|a| f(a)).sum::<f64>() / n;
    out.push(
        NamedValue::plain(
            msg!("label.meaning_cosine_raw", model = model).to_string(),
            mean(&|a| a.cosine),
        )
        .keyed("cosine"),
    );
    out.push(
        NamedValue::plain(
            msg!("label.meaning_bertscore", model = model).to_string(),
            on.iter().map(|a| a.bert_f1).sum::<f64>() / items_on.max(1) as f64,
        )
        .keyed("bertscore"),
    );
    out.extend(per_type(on, items, half, model));
    // As CHIME scores origins: over the memes with a reference origin, a missing predicted
    // origin counting 0 (so the figure says nothing about which items an upload answered).
    let origins: Vec<Option<OriginScore>> = items
        .iter()
        .enumerate()
        .filter(|(_, it)| it.row.on_board(half) && it.gold.origin.is_some())
        .map(|(i, _)| origin[i])
        .collect();
    if !origins.is_empty() {
        let mean = |f: fn(&OriginScore) -> f64| {
            origins
                .iter()
                .map(|o| o.as_ref().map_or(0.0, f))
                .sum::<f64>()
                / origins.len() as f64
        };
        out.push(
            NamedValue::plain(msg!("label.origin_cosine").to_string(), mean(|o| o.cosine))
                .keyed("origin_cosine"),
        );
        out.push(
            NamedValue::plain(
                msg!("label.origin_bertscore", model = model).to_string(),
                mean(|o| o.bert_f1),
            )
            .keyed("origin_bertscore"),
        );
    }
    let share = |f: &dyn Fn(&Answered) -> bool| on.iter().filter(|a| f(a)).count() as f64 / n;
    out.push(NamedValue::plain(
        msg!("label.copying_prompt").to_string(),
        share(&|a| a.copy),
    ));
    out.push(NamedValue::plain(
        msg!("label.filler_share").to_string(),
        share(&|a| a.template),
    ));
    out.push(NamedValue::plain(
        msg!("label.generic_share").to_string(),
        share(&|a| a.generic),
    ));
    out
}

/// Meaning cosine and BERTScore per meme type on one half (CHIME Table 10), keyed
/// `cosine:<type>` and `bertscore:<type>`, each saying how many items of the type the half
/// holds, so that a type with too few is withheld like a category column. Cosine is the mean
/// over the type's answered items, BERTScore over all its items (missing ones count 0).
fn per_type(
    on: &[&Answered],
    items: &[TypedItem<Explanation>],
    half: BoardSplit,
    model: &str,
) -> Vec<NamedValue> {
    let mut types: Vec<(&str, usize)> = Vec::new();
    for item in items.iter().filter(|i| i.row.on_board(half)) {
        match types.iter_mut().find(|(t, _)| *t == item.row.category) {
            Some((_, n)) => *n += 1,
            None => types.push((&item.row.category, 1)),
        }
    }
    let cosine = msg!("label.meaning_cosine_raw", model = model).to_string();
    let bertscore = msg!("label.meaning_bertscore", model = model).to_string();
    let mut out = Vec::new();
    for (ty, n) in types {
        let answered: Vec<&&Answered> = on
            .iter()
            .filter(|a| items[a.index].row.category == ty)
            .collect();
        if answered.is_empty() {
            continue;
        }
        let mean_cosine = answered.iter().map(|a| a.cosine).sum::<f64>() / answered.len() as f64;
        let bert = answered.iter().map(|a| a.bert_f1).sum::<f64>() / n as f64;
        out.push(
            NamedValue::plain(format!("{cosine}: {ty}"), mean_cosine)
                .over(n)
                .keyed(format!("cosine:{ty}")),
        );
        out.push(
            NamedValue::plain(format!("{bertscore}: {ty}"), bert)
                .over(n)
                .keyed(format!("bertscore:{ty}")),
        );
    }
    out
}

/// A predicted origin against the reference origin.
#[derive(Debug, Clone, Copy)]
struct OriginScore {
    /// Cosine of the two sentence vectors.
    cosine: f64,
    /// BERTScore-F1 of the two texts' token vectors.
    bert_f1: f64,
}

/// Per item (task order), the predicted origin scored against the reference origin, where
/// both exist.
async fn origin_cosines(
    embeddings: &EmbeddingService,
    items: &[TypedItem<Explanation>],
    validated: &ValidatedExplanations,
) -> ApiResult<Vec<Option<OriginScore>>> {
    let with_origin: Vec<(usize, String, String)> = items
        .iter()
        .enumerate()
        .filter_map(|(i, item)| {
            let predicted = validated.predictions[i].as_ref()?.origin.clone()?;
            Some((i, predicted, item.gold.origin.clone()?))
        })
        .collect();
    let mut origin = vec![None; items.len()];
    if with_origin.is_empty() {
        return Ok(origin);
    }
    let texts: Vec<String> = with_origin
        .iter()
        .flat_map(|(_, p, g)| [p.clone(), g.clone()])
        .collect();
    let vectors = embeddings
        .embed(texts.clone())
        .await
        .map_err(|e| scoring_error(e.into()))?;
    let (tokens, dim) = embeddings
        .token_vectors(texts)
        .await
        .map_err(|e| scoring_error(e.into()))?;
    for (k, (i, ..)) in with_origin.iter().enumerate() {
        origin[*i] = Some(OriginScore {
            cosine: cosine(&vectors[2 * k], &vectors[2 * k + 1]),
            bert_f1: bert_score(&tokens[2 * k], &tokens[2 * k + 1], dim).f1,
        });
    }
    Ok(origin)
}

/// Scores each item's meme phrase as if it were the answer (the "copy of the prompt"
/// reference row: credited like a file that copies the prompt, so at most chance) and caches
/// the scores on the task, once per embedding model (a re-import clears them).
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
    let pairs: Vec<Pair> = items
        .iter()
        .map(|i| Pair {
            item_id: i.row.id.clone(),
            answer: i.prompt.meme.clone(),
            reference: i.gold.meaning.clone(),
        })
        .collect();
    let scored = explain::score_pairs(storage, embeddings, &task.task.id, &pairs)
        .await
        .map_err(scoring_error)?;
    let per_item: serde_json::Map<String, Value> = items
        .iter()
        .zip(&scored)
        .map(|(i, s)| {
            (
                i.row.id.clone(),
                json!(credited(s.score.identification, true)),
            )
        })
        .collect();
    let json = json!({"model": model, PROMPT_COPY: per_item}).to_string();
    storage.set_task_reference(&task.task.id, &json).await?;
    Ok(())
}
