//! Rule 2 of the study planner: which submissions a study judges (the board's top `k`, or
//! the owner's list), each checked to be on the board.

use super::{BoardSubmission, PlanError, SubmissionPick};
use std::collections::BTreeSet;

/// Picks the submissions: top `k` by score (scored before unscored, ties and unscored in board
/// order) or the explicit ids, each checked to be on the board.
pub(super) fn pick<'a>(
    board: &'a [BoardSubmission],
    how: &SubmissionPick,
) -> Result<Vec<&'a BoardSubmission>, PlanError> {
    if board.is_empty() {
        return Err(PlanError::NoSubmissions);
    }
    match how {
        SubmissionPick::Top { k } => {
            if *k == 0 {
                return Err(PlanError::NothingPicked);
            }
            if *k > board.len() {
                return Err(PlanError::TooFewSubmissions {
                    k: *k,
                    available: board.len(),
                });
            }
            let mut order: Vec<&BoardSubmission> = board.iter().collect();
            // Stable: equal scores and unscored rows keep the board's order.
            order.sort_by(|a, b| match (a.score, b.score) {
                (Some(x), Some(y)) => y.total_cmp(&x),
                (Some(_), None) => std::cmp::Ordering::Less,
                (None, Some(_)) => std::cmp::Ordering::Greater,
                (None, None) => std::cmp::Ordering::Equal,
            });
            order.truncate(*k);
            Ok(order)
        }
        SubmissionPick::Ids { ids } => {
            if ids.is_empty() {
                return Err(PlanError::NothingPicked);
            }
            let mut seen = BTreeSet::new();
            ids.iter()
                .map(|id| {
                    if !seen.insert(id.as_str()) {
                        return Err(PlanError::DuplicateSubmission(id.clone()));
                    }
                    board
                        .iter()
                        .find(|s| &s.id == id)
                        .ok_or_else(|| PlanError::UnknownSubmission(id.clone()))
                })
                .collect()
        }
    }
}
