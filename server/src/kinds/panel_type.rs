//! Structure typing on the server: model inputs (panels in reading order and the five
//! labels), dev gold labels, prediction files scored by accuracy, macro-F1, weighted-F1 and
//! parse rate with a confusion matrix, and the majority-type, random-type and chance rows.

use super::capabilities::{AutoScoring, GoldStrata};
use super::outcomes::{figures, item_scores};
use super::panels::{inputs_line, scored_file};
use super::{FileContext, PredictionFiles, ReferenceRow, ScoredFile, ServerKind, TypedItem};
use crate::error::ApiResult;
use memeboard_core::api::{NamedValue, RowKind};
use memeboard_core::kinds::panel_type::{Gold, PanelType};
use memeboard_core::kinds::panels::StructureType;
use memeboard_core::metrics::{ConfusionMatrix, ItemOutcome, Metric};
use memeboard_core::predictions::panels::{
    type_outcomes, validate_types, Parsed, TypeGold, ValidatedPanelFile,
};
use memeboard_core::rng::SplitMix64;
use memeboard_core::tasks::CategoryInfo;
use serde_json::{json, Value};
use std::collections::BTreeMap;

/// Seed of the random-type baseline's one draw per item.
const RANDOM_TYPE_SEED: u64 = 42;

/// A comic's structure type as a study's stratum (CMPM §5.3).
struct StructureStrata;

impl GoldStrata<PanelType> for StructureStrata {
    /// ```
    /// # // The words are the type's own: its key capitalised and its Chinese name.
    /// use memeboard_core::kinds::panels::StructureType;
    /// assert_eq!(StructureType::Comparison.name_zh(), "对比");
    /// ```
    fn stratum(&self, gold: &Gold) -> CategoryInfo {
        let key = gold.structure.key();
        let mut en: Vec<char> = key.chars().collect();
        if let Some(first) = en.first_mut() {
            *first = first.to_ascii_uppercase();
        }
        CategoryInfo {
            key: key.into(),
            label_en: en.into_iter().collect(),
            label_zh: gold.structure.name_zh().into(),
        }
    }
}

/// The board's baseline on one item: one structure type uniformly at random.
fn uniform_type(_item: &TypedItem<PanelType>) -> f64 {
    1.0 / StructureType::ALL.len() as f64
}

impl ServerKind for PanelType {
    type Files = Self;
    const AUTO_SCORING: Option<AutoScoring<Self>> = Some(AutoScoring {
        baseline_row: RowKind::Chance,
        baseline_label: "Chance (uniform random type, expected value)",
        baseline: uniform_type,
    });
    const PAPER_METRICS: &'static [&'static str] =
        &["accuracy", "macro_f1", "weighted_f1", "parse_rate"];
    const GOLD_STRATA: Option<&'static dyn GoldStrata<Self>> = Some(&StructureStrata);

    fn manifest_options(_item: &TypedItem<Self>) -> Vec<String> {
        StructureType::ALL.map(|t| t.key().to_owned()).to_vec()
    }

    fn reference_rows(items: &[&TypedItem<Self>], _stored: Option<&Value>) -> Vec<ReferenceRow> {
        let gold = golds(items.iter().copied());
        // The most common type of the scored items (ties: the benchmark's first).
        let mut counts: BTreeMap<usize, usize> = BTreeMap::new();
        for i in items {
            *counts.entry(i.gold.structure.index()).or_default() += 1;
        }
        let majority = StructureType::ALL
            .into_iter()
            .max_by_key(|t| {
                (
                    counts.get(&t.index()).copied().unwrap_or(0),
                    usize::MAX - t.index(),
                )
            })
            .unwrap_or(StructureType::Narrative);
        let answered =
            |label: &'static str,
             kind: RowKind,
             type_of: &dyn Fn(&TypedItem<Self>) -> StructureType| {
                let file = ValidatedPanelFile {
                    item_ids: items.iter().map(|i| i.row.id.clone()).collect(),
                    num_lines: items.len(),
                    predictions: items
                        .iter()
                        .map(|i| Some(Parsed::Value(type_of(i))))
                        .collect(),
                    missing: Vec::new(),
                };
                let outcomes = type_outcomes(&gold, &file);
                let (extra, confusion) = board_figures(&outcomes);
                ReferenceRow {
                    kind,
                    label,
                    scores: item_scores(&outcomes, false),
                    extra,
                    confusion,
                }
            };
        vec![
            answered(
                "Majority type (always the most common type)",
                RowKind::MajorityType,
                &|_| majority,
            ),
            answered(
                "Random type (one seeded draw per item)",
                RowKind::RandomType,
                &|i| {
                    let mut rng = SplitMix64::new(
                        RANDOM_TYPE_SEED ^ memeboard_core::ids::fnv1a64(i.row.id.as_bytes()),
                    );
                    let mut all = StructureType::ALL;
                    rng.shuffle(&mut all);
                    all[0]
                },
            ),
        ]
    }
}

impl PredictionFiles for PanelType {
    type Kind = Self;
    const MISSING_POLICY: &'static str = "Items without a prediction, and labels that do not \
        parse as one of the five types, count as wrong and lower the parse rate.";
    const TEMPLATE_FIELDS: &'static [&'static str] = &["structure"];

    fn inputs_line(item: &TypedItem<Self>) -> Value {
        inputs_line(
            item,
            &item.prompt.panels,
            item.prompt.context.as_ref(),
            json!({"types": StructureType::ALL.map(StructureType::key)}),
        )
    }

    fn dev_gold_line(item: &TypedItem<Self>) -> Value {
        json!({
            "item_id": item.row.id,
            "category": item.row.category,
            "structure": item.gold.structure,
        })
    }

    async fn score_file(ctx: FileContext<'_>, items: &[TypedItem<Self>]) -> ApiResult<ScoredFile> {
        let file = ctx.validate(&Self::manifest("", items), validate_types)?;
        let outcomes = type_outcomes(&golds(items.iter()), &file);
        Ok(scored_file(
            items,
            &file,
            &outcomes,
            false,
            "file.unparseable_types",
            board_figures,
        ))
    }
}

fn golds<'a>(items: impl Iterator<Item = &'a TypedItem<PanelType>>) -> Vec<TypeGold> {
    items
        .map(|i| TypeGold {
            item_id: i.row.id.clone(),
            category: i.row.category.clone(),
            structure: i.gold.structure,
            subsets: Vec::new(),
        })
        .collect()
}

/// Macro-F1, weighted-F1 and parse rate, and the confusion matrix.
fn board_figures(outcomes: &[ItemOutcome]) -> (Vec<NamedValue>, Option<ConfusionMatrix>) {
    figures(
        outcomes,
        &[
            (Metric::MacroF1, "macro-F1"),
            (Metric::WeightedF1, "weighted-F1"),
            (Metric::ParseRate, "parse rate"),
        ],
        &[],
        true,
    )
}
