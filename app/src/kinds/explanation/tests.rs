//! Tests of the explanation kind: crowd standing and the missing-items warning.

use super::feedback::percentile;
use super::{missing_warning, missing_warning_in};

#[test]
fn standing_counts_the_others_below() {
    assert_eq!(percentile(0.8, &[0.5, 0.6, 0.8, 0.9]), Some(67));
    assert_eq!(percentile(0.8, &[0.8]), None);
}

#[test]
fn missing_items_are_named_as_the_server_does() {
    let missing: Vec<String> = (1..6).map(|i| format!("i{i}")).collect();
    assert_eq!(
        missing_warning(&missing).as_deref(),
        Some("5 item(s) have no prediction and score at chance (0.5): i1, i2, i3, i4, i5")
    );
    assert_eq!(missing_warning(&[]), None);
    assert_eq!(
        missing_warning_in(crate::i18n::Lang::Zh, &missing[..1]).as_deref(),
        Some("1 道题没有预测，按随机水平计分（0.5）：i1")
    );
}
