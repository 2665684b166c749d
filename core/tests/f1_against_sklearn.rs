//! Checks `Metric::MacroF1` and `Metric::WeightedF1` against scikit-learn's `f1_score` on
//! seeded random structure-typing cases (`tests/fixtures/f1_vectors.json`, written by
//! `scripts/sklearn_f1_vectors.py`; no Python is needed to run this test).

use memeboard_core::metrics::{ItemOutcome, Metric, OutcomeValue};
use serde::Deserialize;

/// The fixture file, as the script writes it.
#[derive(Deserialize)]
struct Vectors {
    sklearn_version: String,
    cases: Vec<Case>,
}

/// One case: gold and predicted labels (`None` = unparseable) and scikit-learn's numbers.
#[derive(Deserialize)]
struct Case {
    gold: Vec<String>,
    predicted: Vec<Option<String>>,
    labels: Vec<String>,
    macro_f1: f64,
    weighted_f1: f64,
}

fn vectors() -> Vectors {
    serde_json::from_str(include_str!("fixtures/f1_vectors.json")).expect("fixture parses")
}

fn outcomes(case: &Case) -> Vec<ItemOutcome> {
    assert_eq!(case.gold.len(), case.predicted.len());
    case.gold
        .iter()
        .zip(&case.predicted)
        .enumerate()
        .map(|(i, (gold, predicted))| {
            ItemOutcome::new(
                format!("item-{i:03}"),
                "x",
                OutcomeValue::Label {
                    gold: gold.clone(),
                    predicted: predicted.clone(),
                },
            )
        })
        .collect()
}

#[test]
fn the_fixture_covers_what_the_script_promises() {
    let v = vectors();
    assert!(!v.sklearn_version.is_empty());
    assert!(v.cases.len() >= 30);
    let unparseable = v
        .cases
        .iter()
        .flat_map(|c| &c.predicted)
        .filter(|p| p.is_none())
        .count();
    assert!(unparseable > 0, "some predictions are unparseable");
    for c in &v.cases {
        // L is the sorted union of gold and parsed predicted labels (the metric's definition).
        let mut labels: Vec<&String> = c.gold.iter().chain(c.predicted.iter().flatten()).collect();
        labels.sort();
        labels.dedup();
        assert_eq!(labels, c.labels.iter().collect::<Vec<_>>());
    }
}

#[test]
fn macro_and_weighted_f1_match_scikit_learn() {
    for (k, case) in vectors().cases.iter().enumerate() {
        let o = outcomes(case);
        let macro_f1 = Metric::MacroF1.compute(&o).expect("macro-F1 defined");
        let weighted_f1 = Metric::WeightedF1.compute(&o).expect("weighted F1 defined");
        assert!(
            (macro_f1 - case.macro_f1).abs() < 1e-12,
            "case {k}: macro-F1 {macro_f1} vs scikit-learn {}",
            case.macro_f1
        );
        assert!(
            (weighted_f1 - case.weighted_f1).abs() < 1e-12,
            "case {k}: weighted F1 {weighted_f1} vs scikit-learn {}",
            case.weighted_f1
        );
    }
}

#[test]
fn the_result_does_not_depend_on_item_order() {
    for case in vectors().cases.iter().take(5) {
        let mut o = outcomes(case);
        let macro_f1 = Metric::MacroF1.compute(&o);
        o.reverse();
        assert_eq!(Metric::MacroF1.compute(&o), macro_f1);
    }
}
