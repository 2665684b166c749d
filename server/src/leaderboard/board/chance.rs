//! A board's chance row: the kind's baseline level averaged over the half's items, overall
//! and per category.

use crate::storage::TaskItemRow;
use memeboard_core::api::{BoardRow, RowKind, SubmissionStatus};
use memeboard_core::leaderboard::CategoryEstimate;
use memeboard_core::stats::Estimate;
use std::collections::HashMap;

/// Chance: one of the options uniformly at random (1/5 for five options), or for
/// explanations the similarity of a random pair of reference meanings.
pub(super) fn chance_row(
    in_half: &HashMap<&str, &(TaskItemRow, Option<f64>)>,
    keys: &[String],
    baseline_kind: RowKind,
    baseline_label: &str,
) -> BoardRow {
    let chance = |subset: Vec<&&(TaskItemRow, Option<f64>)>| -> Option<Estimate> {
        let values: Vec<f64> = subset.iter().filter_map(|i| i.1).collect();
        (!values.is_empty()).then(|| {
            let v = values.iter().sum::<f64>() / values.len() as f64;
            Estimate {
                value: v,
                ci_low: v,
                ci_high: v,
            }
        })
    };
    let mut chance_scores = vec![CategoryEstimate {
        category: None,
        items: in_half.len(),
        estimate: chance(in_half.values().collect()),
        suppressed: false,
    }];
    for k in keys {
        let subset: Vec<&&(TaskItemRow, Option<f64>)> =
            in_half.values().filter(|i| &i.0.category == k).collect();
        chance_scores.push(CategoryEstimate {
            category: Some(k.clone()),
            items: subset.len(),
            estimate: chance(subset),
            suppressed: false,
        });
    }
    BoardRow {
        flags: Vec::new(),
        confusion: None,
        extra: Vec::new(),
        kind: baseline_kind,
        label: baseline_label.into(),
        submission_id: None,
        model: None,
        submitted_at: None,
        status: SubmissionStatus::Scored,
        scores: chance_scores,
        participants: None,
        participants_before_exclusions: None,
        source: None,
    }
}
