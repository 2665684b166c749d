//! Text multiple choice on the server: model inputs with the five published option orders,
//! dev gold, and prediction files scored with CHIME's multi-order protocol (core
//! [`score_mcq`]), with accuracy per option order and per correct position as secondary
//! figures (position bias); chance is 1 / options per item.

use super::capabilities::AutoScoring;
use super::outcomes::{extra_json, figures};
use super::{FileContext, PredictionFiles, ScoredFile, ServerKind, TypedItem};
use crate::error::ApiResult;
use anyhow::Context;
use memeboard_core::api::NamedValue;
use memeboard_core::api::RowKind;
use memeboard_core::kinds::text_mcq::TextMcq;
use memeboard_core::leaderboard::{score_mcq, McqDevGold, McqGold};
use memeboard_core::metrics::{ConfusionMatrix, ItemOutcome};
use memeboard_core::position_bias::{order_key, order_outcomes, position_key};
use memeboard_core::predictions::{order_permutation, validate_predictions, NUM_ORDERS};
use serde_json::{json, Value};

/// The board's baseline on one item, chance: one of the item's options uniformly at random.
fn chance(item: &TypedItem<TextMcq>) -> f64 {
    1.0 / item.prompt.options.len().max(1) as f64
}

impl ServerKind for TextMcq {
    type Files = Self;
    const AUTO_SCORING: Option<AutoScoring<Self>> = Some(AutoScoring {
        baseline_row: RowKind::Chance,
        baseline_label: "Chance (random option)",
        baseline: chance,
    });
    /// Accuracy, then CHIME §5.3's cross-task figures (the questions' side of the join:
    /// MCQ right when the meme is explained right, explained right when the MCQ is).
    const PAPER_METRICS: &'static [&'static str] =
        &["accuracy", "mcq_given_explained", "explained_given_mcq"];

    fn category_keys() -> Vec<&'static str> {
        memeboard_core::tasks::MemeType::ALL
            .iter()
            .map(|t| t.key())
            .collect()
    }

    fn manifest_options(item: &TypedItem<Self>) -> Vec<String> {
        item.prompt.options.clone()
    }
}

impl PredictionFiles for TextMcq {
    type Kind = Self;
    const MISSING_POLICY: &'static str = "Items without a prediction are scored as wrong.";
    const TEMPLATE_FIELDS: &'static [&'static str] = &["answer"];

    fn inputs_line(item: &TypedItem<Self>) -> Value {
        let options = &item.prompt.options;
        let orders: Vec<Vec<&str>> = (0..NUM_ORDERS)
            .map(|o| {
                order_permutation(&item.row.id, o, options.len())
                    .iter()
                    .map(|&c| options[c].as_str())
                    .collect()
            })
            .collect();
        json!({
            "item_id": item.row.id, "category": item.row.category, "split": item.split(),
            "sentence": item.prompt.sentence, "options": options, "options_by_order": orders,
        })
    }

    /// The correct option numbered from 1, as prediction files number it.
    fn dev_gold_line(item: &TypedItem<Self>) -> Value {
        json!(McqDevGold::from(&McqGold {
            item_id: item.row.id.clone(),
            category: item.row.category.clone(),
            correct: item.gold.correct,
        }))
    }

    async fn score_file(ctx: FileContext<'_>, items: &[TypedItem<Self>]) -> ApiResult<ScoredFile> {
        let manifest = Self::manifest(&ctx.task.task.slug, items);
        let validated = ctx.validate(&manifest, validate_predictions)?;
        let gold: Vec<McqGold> = items
            .iter()
            .map(|i| McqGold {
                item_id: i.row.id.clone(),
                category: i.row.category.clone(),
                correct: i.gold.correct,
            })
            .collect();
        let by_order = order_outcomes(&manifest, &validated, &gold);
        let extra = extra_json(items.iter().map(|i| &i.row), &by_order, position_figures);
        Ok(ScoredFile {
            scores: score_mcq(&manifest, &validated, &gold),
            extra: Some(extra),
            num_lines: validated.num_lines,
            num_missing: validated.missing.len(),
            orders_json: serde_json::to_string(&validated.orders).context("encode orders")?,
            warnings: validated.missing_message().into_iter().collect(),
            outputs: Vec::new(),
        })
    }
}

/// Most options a CHIME item has (the position figures go up to this letter).
const MAX_POSITIONS: usize = 5;

/// Accuracy per option order the file answered under (`order:1` is the original) and per
/// position of the correct option (`position:A` …), each over enough answers to publish
/// (position bias, CHIME §5.1). Intervals resample (item, order) pairs.
fn position_figures(outcomes: &[ItemOutcome]) -> (Vec<NamedValue>, Option<ConfusionMatrix>) {
    let keys: Vec<(String, String)> = (0..NUM_ORDERS)
        .map(|o| (order_key(o), format!("option order {}", o + 1)))
        .chain((0..MAX_POSITIONS).map(|p| {
            let key = position_key(p);
            let label = format!("correct at {}", key.trim_start_matches("position:"));
            (key, label)
        }))
        .collect();
    let subsets: Vec<(&str, &str)> = keys.iter().map(|(k, l)| (k.as_str(), l.as_str())).collect();
    figures(outcomes, &[], &subsets, false)
}
