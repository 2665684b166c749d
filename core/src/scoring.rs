//! Scoring of single answers against gold, for every task kind.
//!
//! Plain data in, plain data out: the server scores each recorded answer with this module and
//! the browser uses the same code for previews.

use crate::tasks::{AnswerValue, ItemGold};

/// Why an answer could not be scored against a gold record.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ScoreError {
    /// The answer's shape does not fit the gold's task kind.
    #[error("answer of kind `{answer}` cannot be scored against gold of kind `{gold}`")]
    ShapeMismatch {
        /// Answer kind.
        answer: &'static str,
        /// Gold kind.
        gold: &'static str,
    },
}

fn answer_kind(a: &AnswerValue) -> &'static str {
    match a {
        AnswerValue::Choice { .. } => "choice",
        AnswerValue::Text { .. } => "text",
        AnswerValue::Order { .. } => "order",
        AnswerValue::ClipChoice { .. } => "clip_choice",
        AnswerValue::Rating { .. } => "rating",
    }
}

fn gold_kind(g: &ItemGold) -> &'static str {
    match g {
        ItemGold::Choice { .. } => "choice",
        ItemGold::Explanation { .. } => "explanation",
        ItemGold::PanelOrder { .. } => "panel_order",
        ItemGold::Label { .. } => "label",
        ItemGold::None => "none",
    }
}

/// Scores one answer: `Ok(Some(1.0))` correct, `Ok(Some(0.0))` wrong, `Ok(None)` when the
/// task is not scored here (free-text explanations need the embedding model; ratings have no
/// gold).
///
/// ```
/// use memeboard_core::scoring::score_answer;
/// use memeboard_core::tasks::{AnswerValue, ItemGold};
/// let gold = ItemGold::Choice { correct: 4 };
/// assert_eq!(score_answer(&gold, &AnswerValue::Choice { option: 4 }), Ok(Some(1.0)));
/// assert_eq!(score_answer(&gold, &AnswerValue::Choice { option: 0 }), Ok(Some(0.0)));
/// ```
pub fn score_answer(gold: &ItemGold, answer: &AnswerValue) -> Result<Option<f64>, ScoreError> {
    let hit = |b: bool| Some(if b { 1.0 } else { 0.0 });
    match (gold, answer) {
        (ItemGold::Choice { correct }, AnswerValue::Choice { option })
        | (ItemGold::Choice { correct }, AnswerValue::ClipChoice { option, .. }) => {
            Ok(hit(option == correct))
        }
        (
            ItemGold::PanelOrder {
                display,
                order_groups,
            },
            AnswerValue::Order { order },
        ) => Ok(hit(displayed_order_to_canonical(display, order)
            .is_some_and(|seq| is_linear_extension(&seq, order_groups)))),
        (ItemGold::Explanation { .. }, AnswerValue::Text { .. })
        | (ItemGold::None, AnswerValue::Rating { .. }) => Ok(None),
        (g, a) => Err(ScoreError::ShapeMismatch {
            answer: answer_kind(a),
            gold: gold_kind(g),
        }),
    }
}

/// Maps a reading order over *displayed* panel indices (0-based) back to canonical panel
/// numbers, via `display[i]` = canonical number shown at index `i`. `None` if the answer is not
/// a permutation of the displayed indices (an unparseable answer).
///
/// ```
/// use memeboard_core::scoring::displayed_order_to_canonical;
/// // Shown: canonical panels 3, 1, 2. Reading order "1, 2, 0" means panels 1, 2, 3.
/// assert_eq!(displayed_order_to_canonical(&[3, 1, 2], &[1, 2, 0]), Some(vec![1, 2, 3]));
/// assert_eq!(displayed_order_to_canonical(&[3, 1, 2], &[1, 1, 0]), None);
/// ```
pub fn displayed_order_to_canonical(display: &[usize], order: &[usize]) -> Option<Vec<usize>> {
    if order.len() != display.len() {
        return None;
    }
    let mut seen = vec![false; display.len()];
    let mut out = Vec::with_capacity(order.len());
    for &i in order {
        if i >= display.len() || seen[i] {
            return None;
        }
        seen[i] = true;
        out.push(display[i]);
    }
    Some(out)
}

/// Whether `sequence` (canonical panel numbers) is a valid linear extension of `order_groups`:
/// every panel appears once, and the blocks appear in order (any order inside a block).
///
/// ```
/// use memeboard_core::scoring::is_linear_extension;
/// let groups = vec![vec![1], vec![2, 3], vec![4]];
/// assert!(is_linear_extension(&[1, 3, 2, 4], &groups));  // 2 and 3 may swap
/// assert!(!is_linear_extension(&[2, 1, 3, 4], &groups)); // 1 must come first
/// assert!(!is_linear_extension(&[1, 2, 3], &groups));    // panel 4 missing
/// ```
pub fn is_linear_extension(sequence: &[usize], order_groups: &[Vec<usize>]) -> bool {
    let total: usize = order_groups.iter().map(Vec::len).sum();
    if sequence.len() != total {
        return false;
    }
    let mut position = 0;
    for group in order_groups {
        let block = &sequence[position..position + group.len()];
        let mut a = block.to_vec();
        let mut b = group.clone();
        a.sort_unstable();
        b.sort_unstable();
        if a != b {
            return false;
        }
        position += group.len();
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tasks::Familiarity;

    #[test]
    fn clip_choice_is_scored_on_the_option_whatever_the_familiarity() {
        let gold = ItemGold::Choice { correct: 1 };
        let a = AnswerValue::ClipChoice {
            familiarity: Familiarity::Unseen,
            option: 1,
        };
        assert_eq!(score_answer(&gold, &a), Ok(Some(1.0)));
    }

    #[test]
    fn panel_order_is_group_aware() {
        // Canonical 1..4, groups [[1],[2,3],[4]]; displayed as 4,2,1,3.
        let gold = ItemGold::PanelOrder {
            display: vec![4, 2, 1, 3],
            order_groups: vec![vec![1], vec![2, 3], vec![4]],
        };
        let score = |order: Vec<usize>| score_answer(&gold, &AnswerValue::Order { order });
        assert_eq!(score(vec![2, 1, 3, 0]), Ok(Some(1.0))); // 1,2,3,4
        assert_eq!(score(vec![2, 3, 1, 0]), Ok(Some(1.0))); // 1,3,2,4
        assert_eq!(score(vec![0, 1, 2, 3]), Ok(Some(0.0))); // display order
        assert_eq!(score(vec![2, 3, 1]), Ok(Some(0.0))); // unparseable counts as wrong
    }

    #[test]
    fn explanation_needs_the_embedding_model() {
        let gold = ItemGold::Explanation {
            meaning: "m".into(),
            origin: None,
        };
        assert_eq!(
            score_answer(&gold, &AnswerValue::Text { text: "x".into() }),
            Ok(None)
        );
    }

    #[test]
    fn mismatched_shapes_are_an_error() {
        let gold = ItemGold::Choice { correct: 0 };
        assert!(score_answer(&gold, &AnswerValue::Text { text: "x".into() }).is_err());
    }
}
