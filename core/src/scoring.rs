//! Order-scoring helpers shared by the kinds that ask for a reading order (multi-panel
//! memes): mapping a displayed order back to canonical panels, and group-aware checking.
//!
//! Per-answer scoring of every kind lives in its module under `kinds/`.

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

    #[test]
    fn reading_orders_are_group_aware() {
        // Canonical 1..4, groups [[1],[2,3],[4]]; displayed as 4,2,1,3.
        let display = [4, 2, 1, 3];
        let groups = vec![vec![1], vec![2, 3], vec![4]];
        let ok = |order: &[usize]| {
            displayed_order_to_canonical(&display, order)
                .is_some_and(|seq| is_linear_extension(&seq, &groups))
        };
        assert!(ok(&[2, 1, 3, 0])); // 1,2,3,4
        assert!(ok(&[2, 3, 1, 0])); // 1,3,2,4
        assert!(!ok(&[0, 1, 2, 3])); // display order
        assert!(!ok(&[2, 3, 1])); // not a permutation
    }
}
