//! Tests of the order kind: placing and stepping panels, ordinals, dev gold lines.

use super::board::{place, step};
use super::*;

#[test]
fn placing_inserts_or_moves_before_an_entry() {
    assert_eq!(place(&[], 3, usize::MAX), vec![3]);
    assert_eq!(place(&[3, 1], 2, 1), vec![3, 2, 1]);
    // Moving later: the index counts entries before the move.
    assert_eq!(place(&[3, 1, 2], 3, 2), vec![1, 3, 2]);
    assert_eq!(place(&[3, 1, 2], 3, 3), vec![1, 2, 3]);
    // Moving earlier.
    assert_eq!(place(&[3, 1, 2], 2, 0), vec![2, 3, 1]);
    // Onto itself: unchanged.
    assert_eq!(place(&[3, 1, 2], 1, 1), vec![3, 1, 2]);
    assert_eq!(place(&[3, 1, 2], 1, 2), vec![3, 1, 2]);
}

#[test]
fn steps_stop_at_the_ends() {
    assert_eq!(step(&[3, 1, 2], 1, true), Some(vec![1, 3, 2]));
    assert_eq!(step(&[3, 1, 2], 1, false), Some(vec![3, 2, 1]));
    assert_eq!(step(&[3, 1, 2], 3, true), None);
    assert_eq!(step(&[3, 1, 2], 2, false), None);
    assert_eq!(step(&[3, 1, 2], 4, false), None);
}

#[test]
fn ordinals_read_naturally() {
    let en: Vec<String> = [1, 2, 3, 4, 11, 12, 13, 21, 22].map(EN.ordinal).to_vec();
    assert_eq!(
        en,
        ["1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd"]
    );
    assert_eq!((ZH.ordinal)(2), "第2");
}

#[test]
fn dev_gold_lines_score_over_displayed_groups() {
    let gold: OrderGold = serde_json::from_str(
        r#"{"item_id":"c1","category":"narrative","order_groups_display":[[3],[2,4],[1]]}"#,
    )
    .expect("dev gold line");
    assert!(gold.is_right(&vec![3, 4, 2, 1]));
    assert!(!gold.is_right(&vec![1, 2, 3, 4]));
}
