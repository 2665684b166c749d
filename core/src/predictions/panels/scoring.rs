//! Scoring validated panel files against their gold: reading-order verdicts and structure-type
//! labels.

use super::{Parsed, ValidatedPanelFile};
use crate::kinds::panels::{reads_in_order, StructureType};
use crate::metrics::{ItemOutcome, OutcomeValue, Verdict};
use serde::{Deserialize, Serialize};

/// The gold of one order-recovery item, as plain data so that boards can score without the
/// task store.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct OrderGold {
    /// Item id (the manifest's).
    pub item_id: String,
    /// Category key, for per-category rows.
    pub category: String,
    /// `display[i]`: the 1-based canonical number of the panel shown at position `i`.
    pub display: Vec<usize>,
    /// Order groups over canonical numbers, e.g. `[[1],[2,3],[4]]`.
    pub order_groups: Vec<Vec<usize>>,
    /// Subsets the item belongs to (copied to its outcome).
    pub subsets: Vec<String>,
}

/// One verdict per gold item, so that a board shows accuracy on parseable answers with the
/// parse rate beside it: Correct or Wrong by [`reads_in_order`], Unparseable when the answer
/// did not parse or the item has no line.
///
/// `gold` is in manifest order (the order of `file.item_ids`); outcomes come in gold order. A
/// gold item whose id is not the file's at the same position is a programming error (gold and
/// manifest are built from the same task items): it is skipped, yielding no outcome, so the
/// mistake shows as a lower item count instead of a panic or a mis-scored item.
///
/// Worked example: groups `[[1],[2,3],[4]]` shown as `[4,2,1,3]`. "3,2,4,1" reads canonical
/// 1, 2, 3, 4 and "3,4,2,1" reads 1, 3, 2, 4 (2 and 3 may swap): both correct; "1,2,3,4"
/// reads 4, 2, 1, 3: wrong; "1,2" names two of four panels: unparseable.
///
/// ```
/// use memeboard_core::metrics::{Metric, OutcomeValue, Verdict};
/// use memeboard_core::predictions::panels::*;
/// let gold: Vec<OrderGold> = (1..=5).map(|k| OrderGold { item_id: format!("c{k}"), category: "x".into(),
///     display: vec![4, 2, 1, 3], order_groups: vec![vec![1], vec![2, 3], vec![4]], subsets: vec![] }).collect();
/// let answer = |t: &str| parse_order(t, 4).map_or_else(|| Parsed::Unparseable(t.into()), Parsed::Value);
/// let file = ValidatedPanelFile {
///     item_ids: gold.iter().map(|g| g.item_id.clone()).collect(), num_lines: 4,
///     predictions: vec![Some(answer("3,2,4,1")), Some(answer("3,4,2,1")), Some(answer("1,2,3,4")), Some(answer("1,2")), None],
///     missing: vec!["c5".into()] };
/// let outcomes = order_outcomes(&gold, &file);
/// let verdicts: Vec<_> = outcomes.iter().map(|o| o.value.clone()).collect();
/// use Verdict::*;
/// assert_eq!(verdicts, [Correct, Correct, Wrong, Unparseable, Unparseable].map(OutcomeValue::Verdict));
/// assert_eq!(Metric::AccuracyOnParseable.compute(&outcomes), Some(2.0 / 3.0));
/// assert_eq!(Metric::ParseRate.compute(&outcomes), Some(0.6));
/// ```
pub fn order_outcomes(
    gold: &[OrderGold],
    file: &ValidatedPanelFile<Vec<usize>>,
) -> Vec<ItemOutcome> {
    aligned(gold, file, |g| g.item_id.as_str())
        .map(|(g, prediction)| {
            let verdict = match prediction {
                Some(Parsed::Value(order))
                    if reads_in_order(&g.display, &g.order_groups, order) =>
                {
                    Verdict::Correct
                }
                Some(Parsed::Value(_)) => Verdict::Wrong,
                Some(Parsed::Unparseable(_)) | None => Verdict::Unparseable,
            };
            ItemOutcome {
                item: g.item_id.clone(),
                category: g.category.clone(),
                subsets: g.subsets.clone(),
                value: OutcomeValue::Verdict(verdict),
            }
        })
        .collect()
}

/// The gold of one structure-typing item, as plain data so that boards can score without the
/// task store.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct TypeGold {
    /// Item id (the manifest's).
    pub item_id: String,
    /// Category key, for per-category rows.
    pub category: String,
    /// The annotated structure type.
    pub structure: StructureType,
    /// Subsets the item belongs to (copied to its outcome).
    pub subsets: Vec<String>,
}

/// One label outcome per gold item (gold key against the predicted key, `None` when the
/// answer did not parse or the item has no line), so that a board can show macro-F1, accuracy,
/// the parse rate and a confusion matrix from the same outcomes.
///
/// `gold` is in manifest order; an id mismatch is skipped as in [`order_outcomes`].
///
/// Worked example: gold narrative, parallel, comparison answered "Narrative", "comparison"
/// and nothing: narrative→narrative, parallel→comparison, comparison→unparseable; accuracy
/// 1/3, accuracy on parseable answers 1/2.
///
/// ```
/// use memeboard_core::kinds::panels::StructureType::*;
/// use memeboard_core::metrics::{Metric, OutcomeValue};
/// use memeboard_core::predictions::panels::*;
/// let gold: Vec<TypeGold> = [Narrative, Parallel, Comparison].into_iter().enumerate().map(|(k, s)|
///     TypeGold { item_id: format!("c{k}"), category: "x".into(), structure: s, subsets: vec!["main".into()] }).collect();
/// let file = ValidatedPanelFile {
///     item_ids: vec!["c0".into(), "c1".into(), "c2".into()], num_lines: 2,
///     predictions: vec![Some(Parsed::Value(Narrative)), Some(Parsed::Value(Comparison)), None],
///     missing: vec!["c2".into()] };
/// let outcomes = type_outcomes(&gold, &file);
/// assert_eq!(outcomes[1].value, OutcomeValue::Label { gold: "parallel".into(), predicted: Some("comparison".into()) });
/// assert_eq!(outcomes[2].value, OutcomeValue::Label { gold: "comparison".into(), predicted: None });
/// assert!(outcomes.iter().all(|o| o.in_subset("main")));
/// assert_eq!(Metric::Accuracy.compute(&outcomes), Some(1.0 / 3.0));
/// assert_eq!(Metric::AccuracyOnParseable.compute(&outcomes), Some(0.5));
/// ```
pub fn type_outcomes(
    gold: &[TypeGold],
    file: &ValidatedPanelFile<StructureType>,
) -> Vec<ItemOutcome> {
    aligned(gold, file, |g| g.item_id.as_str())
        .map(|(g, prediction)| {
            let predicted = match prediction {
                Some(Parsed::Value(t)) => Some(t.key().to_owned()),
                Some(Parsed::Unparseable(_)) | None => None,
            };
            ItemOutcome {
                item: g.item_id.clone(),
                category: g.category.clone(),
                subsets: g.subsets.clone(),
                value: OutcomeValue::Label {
                    gold: g.structure.key().to_owned(),
                    predicted,
                },
            }
        })
        .collect()
}

/// Gold items with the file's answer at the same manifest position, skipping any whose id
/// differs (see [`order_outcomes`]).
fn aligned<'a, G, T>(
    gold: &'a [G],
    file: &'a ValidatedPanelFile<T>,
    id: fn(&G) -> &str,
) -> impl Iterator<Item = (&'a G, Option<&'a Parsed<T>>)> + 'a {
    gold.iter().enumerate().filter_map(move |(k, g)| {
        if file.item_ids.get(k).map(String::as_str) != Some(id(g)) {
            return None;
        }
        Some((g, file.predictions.get(k).and_then(Option::as_ref)))
    })
}
