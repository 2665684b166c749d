//! The confusion matrix of choice outcomes (gold option against answered option).

use super::{Compact, ItemOutcome, Metric, OutcomeValue, Prepared};
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;

/// Counts of gold label against predicted label, so a board can show where a classifier
/// errs, including how often it gave no parseable answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ConfusionMatrix {
    /// Labels in sorted order: the union of gold and parsed predicted labels.
    pub labels: Vec<String>,
    /// `counts[g][p]`: items with gold `labels[g]` predicted as `labels[p]`; the last column
    /// (`p == labels.len()`) counts unparseable predictions.
    pub counts: Vec<Vec<usize>>,
}

/// The confusion matrix of the label outcomes (rows gold, columns predicted, plus a final
/// "unparseable" column); other outcome kinds are ignored.
///
/// ```
/// use memeboard_core::metrics::{confusion_matrix, ItemOutcome, OutcomeValue};
/// let l = |i: &str, g: &str, p: Option<&str>| ItemOutcome::new(i, "x", OutcomeValue::Label { gold: g.into(), predicted: p.map(str::to_owned) });
/// let m = confusion_matrix(&[l("1", "a", Some("a")), l("2", "a", Some("b")), l("3", "b", None), l("4", "a", Some("c"))]);
/// assert_eq!(m.labels, ["a", "b", "c"]);
/// assert_eq!(m.counts, [[1, 1, 1, 0], [0, 0, 0, 1], [0, 0, 0, 0]]);
/// ```
pub fn confusion_matrix(outcomes: &[ItemOutcome]) -> ConfusionMatrix {
    // Label indices in `Prepared` follow the sorted label set, the same order as here.
    let prepared = Prepared::new(Metric::MacroF1, outcomes.iter());
    let mut seen: BTreeSet<&str> = BTreeSet::new();
    for o in outcomes {
        if let OutcomeValue::Label { gold, predicted } = &o.value {
            seen.insert(gold.as_str());
            seen.extend(predicted.as_deref());
        }
    }
    let labels: Vec<String> = seen.into_iter().map(str::to_owned).collect();
    let n = labels.len();
    let mut counts = vec![vec![0usize; n + 1]; n];
    for (_, value) in &prepared.outcomes {
        if let Compact::Label { gold, predicted } = *value {
            counts[gold][predicted.unwrap_or(n)] += 1;
        }
    }
    ConfusionMatrix { labels, counts }
}
