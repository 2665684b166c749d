//! Position bias of a multiple-choice run (CHIME §5.1): accuracy per option order and per
//! position of the correct option, from the orders a prediction file answered under. A model
//! that favours one letter scores high where the answer sits there and low elsewhere; one
//! that reads the options scores the same everywhere.

use crate::leaderboard::{majority, McqGold};
use crate::metrics::{ItemOutcome, OutcomeValue, Verdict};
use crate::predictions::{order_permutation, TaskManifest, ValidatedPredictions};
use std::collections::HashMap;

/// Subset key of option order `order` (numbered from 1, as the paper does: 1 is the
/// original order).
pub fn order_key(order: usize) -> String {
    format!("order:{}", order + 1)
}

/// Subset key of the correct option shown at display position `position` (`position:A`).
pub fn position_key(position: usize) -> String {
    format!("position:{}", letter(position))
}

/// The letter of display position `position` (0 is `A`).
fn letter(position: usize) -> char {
    u8::try_from(position)
        .ok()
        .and_then(|p| b'A'.checked_add(p))
        .map_or('?', char::from)
}

/// One outcome per item and option order the file answered under: right when that order's
/// majority answer is the gold option (an order with no line for the item is wrong, as in
/// [`score_mcq`](crate::leaderboard::score_mcq)). Each outcome is in the subsets
/// [`order_key`] of its order and [`position_key`] of where that order shows the gold
/// option, so accuracy over a subset is the accuracy per order or per correct position.
/// Items whose gold is not in the manifest are left out.
///
/// ```
/// use memeboard_core::leaderboard::McqGold;
/// use memeboard_core::metrics::{estimate, Metric};
/// use memeboard_core::position_bias::order_outcomes;
/// use memeboard_core::predictions::{
///     validate_predictions, FileFormat, Limits, ManifestItem, Split, TaskManifest,
/// };
///
/// let items: Vec<ManifestItem> = (0..4)
///     .map(|i| ManifestItem {
///         id: format!("q{i}"),
///         category: "slang".into(),
///         split: Split::Test,
///         options: vec!["a".into(), "b".into(), "c".into()],
///     })
///     .collect();
/// let manifest = TaskManifest { task: "t".into(), items };
/// // The gold is the first canonical option of every item; the model always answers the first option shown (A).
/// let file: String = (0..4)
///     .map(|i| format!("{{\"item_id\":\"q{i}\",\"answer\":1}}\n"))
///     .collect();
/// let predictions =
///     validate_predictions(&file, FileFormat::JsonLines, &manifest, Limits::default()).unwrap();
/// let gold: Vec<McqGold> = (0..4)
///     .map(|i| McqGold { item_id: format!("q{i}"), category: "slang".into(), correct: 0 })
///     .collect();
/// let outcomes = order_outcomes(&manifest, &predictions, &gold);
/// // One order (the original), where the answer is always at A: all right, all at A.
/// assert_eq!(outcomes.len(), 4);
/// assert!(outcomes.iter().all(|o| o.in_subset("order:1") && o.in_subset("position:A")));
/// let accuracy = estimate(Metric::Accuracy, &outcomes, 100, 1).unwrap();
/// assert_eq!(accuracy.value, 1.0);
/// ```
pub fn order_outcomes(
    manifest: &TaskManifest,
    predictions: &ValidatedPredictions,
    gold: &[McqGold],
) -> Vec<ItemOutcome> {
    let index: HashMap<&str, usize> = manifest
        .items
        .iter()
        .enumerate()
        .map(|(i, item)| (item.id.as_str(), i))
        .collect();
    let mut out = Vec::with_capacity(gold.len() * predictions.orders.len());
    for g in gold {
        let Some(&i) = index.get(g.item_id.as_str()) else {
            continue;
        };
        let num_options = manifest.items[i].options.len();
        let answers = predictions.answers_at(i);
        for &order in &predictions.orders {
            let chosen: Vec<usize> = answers
                .iter()
                .filter(|a| a.order == order)
                .map(|a| a.option)
                .collect();
            let right = majority(&chosen) == Some(g.correct);
            let shown_at = order_permutation(&g.item_id, order, num_options)
                .iter()
                .position(|&canonical| canonical == g.correct);
            let mut subsets = vec![order_key(order)];
            subsets.extend(shown_at.map(position_key));
            out.push(ItemOutcome {
                item: g.item_id.clone(),
                category: g.category.clone(),
                subsets,
                value: OutcomeValue::Verdict(if right {
                    Verdict::Correct
                } else {
                    Verdict::Wrong
                }),
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metrics::{estimate, Metric};
    use crate::predictions::{validate_predictions, FileFormat, Limits, ManifestItem, Split};

    fn manifest(n: usize) -> TaskManifest {
        TaskManifest {
            task: "t".into(),
            items: (0..n)
                .map(|i| ManifestItem {
                    id: format!("q{i}"),
                    category: "c".into(),
                    split: Split::Test,
                    options: (0..5).map(|o| format!("o{o}")).collect(),
                })
                .collect(),
        }
    }

    fn accuracy(outcomes: &[ItemOutcome], key: &str) -> Option<f64> {
        let subset: Vec<ItemOutcome> = outcomes
            .iter()
            .filter(|o| o.in_subset(key))
            .cloned()
            .collect();
        estimate(Metric::Accuracy, &subset, 10, 1).map(|e| e.value)
    }

    #[test]
    fn a_model_that_always_says_a_is_right_only_where_the_answer_is_at_a() {
        let n = 60;
        let m = manifest(n);
        let gold: Vec<McqGold> = (0..n)
            .map(|i| McqGold {
                item_id: format!("q{i}"),
                category: "c".into(),
                correct: i % 5,
            })
            .collect();
        let file: String = (0..n)
            .flat_map(|i| {
                (0..5).map(move |order| {
                    format!("{{\"item_id\":\"q{i}\",\"order\":{order},\"answer\":1}}\n")
                })
            })
            .collect();
        let p = validate_predictions(&file, FileFormat::JsonLines, &m, Limits::default()).unwrap();
        let outcomes = order_outcomes(&m, &p, &gold);
        assert_eq!(outcomes.len(), n * 5);
        assert_eq!(accuracy(&outcomes, "position:A"), Some(1.0));
        for other in ["B", "C", "D", "E"] {
            assert_eq!(accuracy(&outcomes, &format!("position:{other}")), Some(0.0));
        }
        // Each order: right exactly where that order shows the gold at A.
        for order in 0..5 {
            let at_a = gold
                .iter()
                .filter(|g| order_permutation(&g.item_id, order, 5)[0] == g.correct)
                .count();
            let got = accuracy(&outcomes, &order_key(order)).unwrap();
            assert!(
                (got - at_a as f64 / n as f64).abs() < 1e-12,
                "{order}: {got}"
            );
        }
    }

    #[test]
    fn an_order_without_a_line_is_wrong_and_keys_read_as_the_paper_numbers_them() {
        let m = manifest(2);
        let gold = vec![
            McqGold {
                item_id: "q0".into(),
                category: "c".into(),
                correct: 2,
            },
            McqGold {
                item_id: "gone".into(),
                category: "c".into(),
                correct: 0,
            },
        ];
        let file = "{\"item_id\":\"q1\",\"order\":0,\"answer\":3}\n{\"item_id\":\"q1\",\"order\":3,\"answer\":1}\n";
        let p = validate_predictions(file, FileFormat::JsonLines, &m, Limits::default()).unwrap();
        let outcomes = order_outcomes(&m, &p, &gold);
        // q0 has no line in either order: wrong twice; "gone" is not in the manifest.
        assert_eq!(outcomes.len(), 2);
        assert!(outcomes
            .iter()
            .all(|o| o.value == OutcomeValue::Verdict(Verdict::Wrong)));
        assert!(outcomes[0].in_subset("order:1") && outcomes[0].in_subset("position:C"));
        assert!(outcomes[1].in_subset("order:4"));
        assert_eq!(position_key(4), "position:E");
    }
}
