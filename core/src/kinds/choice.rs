//! What the choice kinds share (the CHIME sentence MCQ, the clip questions): options shown in
//! a per-session order, an answer given as a display position and stored as the canonical
//! option, right or wrong against the gold option, and a review in display terms.

use super::FieldError;

/// The canonical option at display `position` of `order`, or the field error naming the
/// range of positions (an option index beyond `options` is refused too).
///
/// ```
/// use memeboard_core::kinds::choice::option_at;
/// // Shown as c, a, b: display position 0 is canonical option 2.
/// assert_eq!(option_at(&[2, 0, 1], 0, 3), Ok(2));
/// assert!(option_at(&[2, 0, 1], 3, 3).is_err());
/// ```
pub fn option_at(order: &[usize], position: usize, options: usize) -> Result<usize, FieldError> {
    match order.get(position) {
        Some(&option) if option < options => Ok(option),
        _ => Err(FieldError {
            field: "answer.position",
            message: crate::msg!(
                "answer.position_range",
                max = order.len().saturating_sub(1),
                found = position
            ),
        }),
    }
}

/// The display position of canonical option `canonical` under `order` (the option itself
/// when the order does not hold it).
pub fn position_of(order: &[usize], canonical: usize) -> usize {
    order
        .iter()
        .position(|&o| o == canonical)
        .unwrap_or(canonical)
}

/// The options in the order shown (indices `order` names that do not exist are skipped).
pub fn in_display_order<T: Clone>(order: &[usize], options: &[T]) -> Vec<T> {
    order
        .iter()
        .filter_map(|&i| options.get(i).cloned())
        .collect()
}

/// The primary score of a right-or-wrong outcome: 1 or 0 (the choice kinds and the other
/// kinds scored right or wrong, such as panel order).
pub fn right_or_wrong(correct: bool) -> f64 {
    f64::from(u8::from(correct))
}

/// A choice answer's review in display terms: what was chosen, and — only where the gold may
/// be shown — which position was right and whether the choice was.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ChoiceReview {
    /// Display position chosen.
    pub chosen_position: usize,
    /// Display position of the correct option (`None`: gold withheld).
    pub correct_position: Option<usize>,
    /// Whether the choice was right (`None`: gold withheld).
    pub correct: Option<bool>,
}

impl ChoiceReview {
    /// The review of canonical option `chosen` shown under `order`, against `gold` (the
    /// correct canonical option, where it may be shown).
    ///
    /// ```
    /// use memeboard_core::kinds::choice::ChoiceReview;
    /// let r = ChoiceReview::of(&[2, 0, 1], 0, Some(2));
    /// assert_eq!((r.chosen_position, r.correct_position, r.correct), (1, Some(0), Some(false)));
    /// assert_eq!(ChoiceReview::of(&[2, 0, 1], 0, None).correct, None);
    /// ```
    pub fn of(order: &[usize], chosen: usize, gold: Option<usize>) -> Self {
        Self {
            chosen_position: position_of(order, chosen),
            correct_position: gold.map(|g| position_of(order, g)),
            correct: gold.map(|g| g == chosen),
        }
    }
}
