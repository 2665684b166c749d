//! Unit tests for `crate::human_eval::thresholds`.

use super::*;
use crate::human_eval::raters::RaterScale;

fn row(rater: &str, batch: Option<&str>, delta: Option<f64>, rate: Option<f64>) -> RaterRow {
    RaterRow {
        rater: rater.into(),
        scale: if batch.is_some() {
            RaterScale::Verdicts
        } else {
            RaterScale::Dimensions
        },
        batch: batch.map(Into::into),
        judgements: 4,
        raters: 3,
        with_rater: Some(0.5),
        without_rater: delta.map(|d| 0.5 - d),
        loo_delta: delta,
        planted_judged: usize::from(rate.is_some()) * 4,
        planted_pass_rate: rate,
        competence: batch.map(|_| 0.9),
    }
}

#[test]
fn no_threshold_excludes_nobody() {
    let rows = [row("a", Some("1"), Some(-1.5), Some(0.0))];
    assert!(threshold_exclusions(&rows, &ReliabilityThresholds::default()).is_empty());
}

#[test]
fn the_worst_row_decides_and_the_threshold_itself_passes() {
    // `a` is fine in batch 1 and pulls batch 2 down by 0.3; `b`'s gain is exactly the limit.
    let rows = [
        row("a", Some("1"), Some(0.2), None),
        row("a", Some("2"), Some(-0.3), None),
        row("b", Some("2"), Some(-0.25), None),
    ];
    let t = ReliabilityThresholds {
        max_loo_gain: Some(0.25),
        ..Default::default()
    };
    let out = threshold_exclusions(&rows, &t);
    assert_eq!(out.len(), 1, "{out:?}");
    assert_eq!(out[0].rater, "a");
    assert_eq!(out[0].failures[0].rule, ThresholdRule::LooGain);
    assert!((out[0].failures[0].value - 0.3).abs() < 1e-12);
    assert_eq!(out[0].failures[0].threshold, 0.25);
}

#[test]
fn a_rater_without_a_value_passes_that_rule() {
    // No planted check judged, no competence (dimension scale), a group of two (no delta).
    let rows = [row("a", None, None, None), row("b", None, None, Some(0.5))];
    let t = ReliabilityThresholds {
        min_planted_pass_rate: Some(0.8),
        min_competence: Some(0.99),
        max_loo_gain: Some(0.0),
    };
    let out = threshold_exclusions(&rows, &t);
    assert_eq!(out.len(), 1);
    assert_eq!(out[0].rater, "b");
    assert_eq!(out[0].failures.len(), 1);
    assert_eq!(out[0].failures[0].rule, ThresholdRule::PlantedPassRate);
}

#[test]
fn competence_below_the_minimum_fails() {
    let rows = [row("a", Some("1"), Some(0.1), None)];
    let t = ReliabilityThresholds {
        min_competence: Some(0.95),
        ..Default::default()
    };
    let out = threshold_exclusions(&rows, &t);
    assert_eq!(out[0].failures[0].rule, ThresholdRule::Competence);
    assert_eq!(out[0].failures[0].value, 0.9);
}

#[test]
fn validation_names_the_field_and_its_range() {
    let ok = ReliabilityThresholds {
        min_planted_pass_rate: Some(0.0),
        min_competence: Some(1.0),
        max_loo_gain: Some(2.0),
    };
    assert!(ok.validate().is_ok());
    for (t, field, max, found) in [
        (
            ReliabilityThresholds {
                min_planted_pass_rate: Some(1.5),
                ..Default::default()
            },
            "min_planted_pass_rate",
            1.0,
            1.5,
        ),
        (
            ReliabilityThresholds {
                min_competence: Some(-0.1),
                ..Default::default()
            },
            "min_competence",
            1.0,
            -0.1,
        ),
        (
            ReliabilityThresholds {
                max_loo_gain: Some(2.01),
                ..Default::default()
            },
            "max_loo_gain",
            2.0,
            2.01,
        ),
    ] {
        let e = t.validate().unwrap_err();
        assert_eq!((e.field, e.min, e.max, e.found), (field, 0.0, max, found));
    }
    let nan = ReliabilityThresholds {
        min_competence: Some(f64::NAN),
        ..Default::default()
    };
    assert!(nan.validate().is_err());
}

#[test]
fn the_wire_form_refuses_unknown_fields_and_omits_unset_ones() {
    let t: ReliabilityThresholds = serde_json::from_str(r#"{"max_loo_gain": 0.4}"#).unwrap();
    assert_eq!(t.max_loo_gain, Some(0.4));
    assert_eq!(
        serde_json::to_string(&t).unwrap(),
        r#"{"max_loo_gain":0.4}"#
    );
    assert!(serde_json::from_str::<ReliabilityThresholds>(r#"{"min_rate": 0.4}"#).is_err());
    assert!(serde_json::from_str::<ReliabilityThresholds>("{}")
        .unwrap()
        .is_empty());
}
