//! Panel order recovery on the server: model inputs (panel URLs in the fixed display order),
//! dev gold as groups of displayed numbers, prediction files scored as the benchmark does
//! (accuracy on parseable answers with the parse rate beside it, by strip length and by
//! structure type), and the display-order, random-order and expected-random baselines.

use super::capabilities::{AutoScoring, PublicDraws, Subsets};
use super::outcomes::{figures, item_scores};
use super::panels::{inputs_line, scored_file};
use super::{FileContext, PredictionFiles, ReferenceRow, ScoredFile, ServerKind, TypedItem};
use crate::draws::{Key, Purpose};
use crate::error::ApiResult;
use memeboard_core::api::{NamedValue, RowKind};
use memeboard_core::kinds::panel_order::{Gold, PanelOrder, Prompt};
use memeboard_core::kinds::panels::{
    fixed_display, legacy_display_seed, random_order_expectation, reorder_shown, StructureType,
};
use memeboard_core::metrics::{ItemOutcome, Metric};
use memeboard_core::predictions::panels::{
    order_outcomes, validate_orders, OrderGold, Parsed, ValidatedPanelFile,
};
use memeboard_core::rng::SplitMix64;
use serde_json::{json, Value};

/// Seed of the random-order baseline's one draw per item.
const RANDOM_ORDER_SEED: u64 = 42;

/// Panel displays that versions before keyed draws shuffled from a constant seed and the
/// item's public id: redrawn with the benchmark's key, the panel images reordered alike.
pub struct LegacyDisplays;

impl PublicDraws<PanelOrder> for LegacyDisplays {
    fn redraw(
        &self,
        key: &Key,
        source: &str,
        prompt: &mut Prompt,
        gold: &mut Gold,
    ) -> anyhow::Result<bool> {
        let legacy = fixed_display(legacy_display_seed(source), &gold.order_groups);
        let canonical: Vec<usize> = (1..=gold.display.len()).collect();
        if gold.display == canonical || gold.display != legacy {
            return Ok(false);
        }
        let keyed = fixed_display(key.seed(Purpose::PanelDisplay, source), &gold.order_groups);
        if keyed == gold.display {
            return Ok(false);
        }
        let Some(panels) = reorder_shown(&prompt.panels, &gold.display, &keyed) else {
            anyhow::bail!("its panels do not match its display");
        };
        prompt.panels = panels;
        gold.display = keyed;
        Ok(true)
    }
}

/// The subset of the comics with readers' comments (CMPM's comment-available set, the items
/// of the context ablation in Table 6).
pub const COMMENTS_AVAILABLE: &str = "cas";

/// The board's `cas` subset: comics whose comments are available (CMPM's context setting).
pub struct CommentsAvailable;

impl Subsets<PanelOrder> for CommentsAvailable {
    fn names(&self) -> &'static [&'static str] {
        &["full", COMMENTS_AVAILABLE]
    }

    fn contains(&self, item: &TypedItem<PanelOrder>, subset: &str) -> bool {
        subset != COMMENTS_AVAILABLE || item.gold.comments_available
    }
}

/// The board's baseline on one item, a random order of the panels: its expected score on the
/// comic's order groups.
fn random_order(item: &TypedItem<PanelOrder>) -> f64 {
    random_order_expectation(&item.gold.order_groups)
}

impl ServerKind for PanelOrder {
    type Files = Self;
    const AUTO_SCORING: Option<AutoScoring<Self>> = Some(AutoScoring {
        baseline_row: RowKind::Chance,
        baseline_label: "Random order (expected value)",
        baseline: random_order,
    });
    const PAPER_METRICS: &'static [&'static str] = &["accuracy", "parse_rate", "n_scored"];
    const PUBLIC_DRAWS: Option<&'static dyn PublicDraws<Self>> = Some(&LegacyDisplays);
    const SUBSETS: Option<&'static dyn Subsets<Self>> = Some(&CommentsAvailable);

    fn manifest_options(item: &TypedItem<Self>) -> Vec<String> {
        (1..=item.prompt.panels.len())
            .map(|n| n.to_string())
            .collect()
    }

    fn reference_rows(items: &[&TypedItem<Self>], _stored: Option<&Value>) -> Vec<ReferenceRow> {
        let gold = golds(items.iter().copied());
        let answered =
            |label: &'static str,
             kind: RowKind,
             order_of: &dyn Fn(&TypedItem<Self>, usize) -> Vec<usize>| {
                let file = ValidatedPanelFile {
                    item_ids: items.iter().map(|i| i.row.id.clone()).collect(),
                    num_lines: items.len(),
                    predictions: items
                        .iter()
                        .enumerate()
                        .map(|(k, i)| Some(Parsed::Value(order_of(i, k))))
                        .collect(),
                    missing: Vec::new(),
                };
                let outcomes = order_outcomes(&gold, &file);
                let (extra, _) = board_figures(&outcomes);
                ReferenceRow {
                    kind,
                    label,
                    scores: item_scores(&outcomes, true),
                    extra,
                    confusion: None,
                }
            };
        vec![
            answered(
                "Display order (answer = the order shown)",
                RowKind::DisplayOrder,
                &|i, _| (1..=i.prompt.panels.len()).collect(),
            ),
            answered(
                "Random order (one seeded draw per item)",
                RowKind::RandomOrder,
                &|i, _| {
                    let mut rng = SplitMix64::new(
                        RANDOM_ORDER_SEED ^ memeboard_core::ids::fnv1a64(i.row.id.as_bytes()),
                    );
                    let mut order: Vec<usize> = (1..=i.prompt.panels.len()).collect();
                    rng.shuffle(&mut order);
                    order
                },
            ),
        ]
    }
}

impl PredictionFiles for PanelOrder {
    type Kind = Self;
    const MISSING_POLICY: &'static str = "Items without a prediction, and answers that do not \
        parse as an order of all displayed panels, count as unparseable: they lower the parse \
        rate and are left out of accuracy (which is over parseable answers).";
    const TEMPLATE_FIELDS: &'static [&'static str] = &["order"];

    fn inputs_line(item: &TypedItem<Self>) -> Value {
        let mut line = inputs_line(
            item,
            &item.prompt.panels,
            item.prompt.context.as_ref(),
            json!({"types": StructureType::ALL.map(StructureType::key)}),
        );
        line["subsets"] = if item.gold.comments_available {
            json!(["full", COMMENTS_AVAILABLE])
        } else {
            json!(["full"])
        };
        line
    }

    fn dev_gold_line(item: &TypedItem<Self>) -> Value {
        json!({
            "item_id": item.row.id,
            "category": item.row.category,
            "order_groups_display": groups_in_display_numbers(item),
        })
    }

    fn metric_name(_embedding_model: Option<&str>) -> String {
        "accuracy on parseable answers".into()
    }

    async fn score_file(ctx: FileContext<'_>, items: &[TypedItem<Self>]) -> ApiResult<ScoredFile> {
        let file = ctx.validate(&Self::manifest("", items), validate_orders)?;
        let outcomes = order_outcomes(&golds(items.iter()), &file);
        Ok(scored_file(
            items,
            &file,
            &outcomes,
            true,
            "file.unparseable_orders",
            board_figures,
        ))
    }
}

/// The scorer's view of the items' gold. Subsets: the structure type, for per-type figures,
/// and CMPM's strip-length groups (§6.4: `length:le6` or `length:7plus`, and `length:4plus`).
fn golds<'a>(items: impl Iterator<Item = &'a TypedItem<PanelOrder>>) -> Vec<OrderGold> {
    items
        .map(|i| {
            let panels = i.prompt.panels.len();
            let mut subsets = vec![i.gold.structure.key().to_owned()];
            subsets.push(
                if panels <= 6 {
                    "length:le6"
                } else {
                    "length:7plus"
                }
                .to_owned(),
            );
            if panels >= 4 {
                subsets.push("length:4plus".to_owned());
            }
            OrderGold {
                item_id: i.row.id.clone(),
                category: i.row.category.clone(),
                display: i.gold.display.clone(),
                order_groups: i.gold.order_groups.clone(),
                subsets,
            }
        })
        .collect()
}

/// Parse rate, accuracy over all items, then accuracy on parseable answers per structure
/// type and per strip-length group.
fn board_figures(
    outcomes: &[ItemOutcome],
) -> (
    Vec<NamedValue>,
    Option<memeboard_core::metrics::ConfusionMatrix>,
) {
    const BY_TYPE: [(&str, &str); 8] = [
        ("narrative", "narrative"),
        ("progressive", "progressive"),
        ("conversational", "conversational"),
        ("parallel", "parallel"),
        ("comparison", "comparison"),
        ("length:le6", "length:le6"),
        ("length:7plus", "length:7plus"),
        ("length:4plus", "length:4plus"),
    ];
    figures(
        outcomes,
        &[
            (Metric::ParseRate, "parse rate"),
            (Metric::Accuracy, "accuracy, unparseable as wrong"),
        ],
        &BY_TYPE,
        false,
    )
}

/// The order groups in displayed numbers (what a dev-gold line gives): `[[1],[2,3],[4]]`
/// shown as 4, 2, 1, 3 is `[[3],[2,4],[1]]`.
fn groups_in_display_numbers(item: &TypedItem<PanelOrder>) -> Vec<Vec<usize>> {
    item.gold
        .order_groups
        .iter()
        .map(|group| {
            group
                .iter()
                .filter_map(|c| item.gold.display.iter().position(|d| d == c).map(|i| i + 1))
                .collect()
        })
        .collect()
}
