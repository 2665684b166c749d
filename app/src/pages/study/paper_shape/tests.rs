//! Tests of the paper-table shaping: rows in the study's model order, cells in the papers'
//! column order, models without judgements left out, figures written as on the page.

use super::*;
use memeboard_core::human_eval::dimensions::DimensionMean;

fn est(value: f64, ci_low: f64, ci_high: f64) -> Estimate {
    Estimate {
        value,
        ci_low,
        ci_high,
    }
}

fn acc(
    model: &str,
    field: Option<ExplanationField>,
    category: Option<&str>,
    agree: f64,
) -> AccuracyRow {
    AccuracyRow {
        model: model.into(),
        field,
        category: category.map(str::to_owned),
        items: 2,
        ratings: 4,
        agree: est(agree, 0.0, 1.0),
        neutral: est(0.25, 0.0, 0.5),
        disagree: est(0.75 - agree, 0.0, 1.0),
    }
}

fn models() -> Vec<(String, String)> {
    // The study's order (not the id order), and a model nobody judged.
    [("s2", "Beta"), ("s1", "Alpha"), ("s3", "Gamma")]
        .into_iter()
        .map(|(a, b)| (a.to_owned(), b.to_owned()))
        .collect()
}

fn accuracy_rows() -> Vec<AccuracyRow> {
    use ExplanationField::*;
    vec![
        acc("s1", None, None, 0.5),
        acc("s1", Some(Meaning), None, 0.6),
        acc("s1", Some(Meaning), Some("slang"), 0.7),
        acc("s1", Some(Meaning), Some("abbreviation"), 0.4),
        acc("s1", Some(Example), None, 0.3),
        acc("s2", None, None, 0.2),
        acc("s2", Some(Meaning), None, 0.1),
        acc("s2", Some(Meaning), Some("slang"), 0.15),
        acc("s2", Some(Origin), Some("quotation"), 0.05),
        acc("s2", None, Some("quotation"), 0.05),
    ]
}

#[test]
fn table_3_has_a_row_per_judged_model_and_a_cell_per_field() {
    let t = by_field(&accuracy_rows(), &models());
    let labels: Vec<_> = t.iter().map(|r| r.label.as_str()).collect();
    assert_eq!(labels, ["Beta", "Alpha"]);
    let agree = |r: &ModelRow<Shares>| -> Vec<Option<f64>> {
        r.cells.iter().map(|c| c.map(|s| s.agree.value)).collect()
    };
    // Meaning, origin, example; Beta has no pooled origin row, so a gap.
    assert_eq!(agree(&t[0]), [Some(0.1), None, None]);
    assert_eq!(agree(&t[1]), [Some(0.6), None, Some(0.3)]);
    assert_eq!(t[1].cells[0].unwrap().neutral.value, 0.25);
    assert!((t[1].cells[0].unwrap().disagree.value - 0.15).abs() < 1e-12);
}

#[test]
fn table_12_has_the_meaning_per_meme_type() {
    let (types, t) = by_category(&accuracy_rows(), &models(), ExplanationField::Meaning);
    // Types with a meaning row only (quotation has origin and pooled rows), sorted.
    assert_eq!(types, ["abbreviation", "slang"]);
    assert_eq!(t.len(), 2);
    assert_eq!(t[0].submission, "s2");
    let agree: Vec<_> = t[0]
        .cells
        .iter()
        .map(|c| c.map(|s| s.agree.value))
        .collect();
    assert_eq!(agree, [None, Some(0.15)]);
    let agree: Vec<_> = t[1]
        .cells
        .iter()
        .map(|c| c.map(|s| s.agree.value))
        .collect();
    assert_eq!(agree, [Some(0.4), Some(0.7)]);
}

#[test]
fn tables_are_empty_without_judgements() {
    assert!(by_field(&[], &models()).is_empty());
    let (types, rows) = by_category(&[], &models(), ExplanationField::Meaning);
    assert!(types.is_empty() && rows.is_empty());
    assert!(by_dimension(&[], &models()).is_empty());
    assert!(by_ranking(&[], &[], &models()).is_empty());
}

#[test]
fn dimension_rows_follow_the_dimension_order_then_core4() {
    let row = DimensionRow {
        model: "s1".into(),
        items: 3,
        ratings: 6,
        core4: est(2.25, 2.0, 2.5),
        // Out of order and without context handling: placed by dimension, a gap for context.
        dimensions: vec![
            DimensionMean {
                dimension: Dimension::Faithfulness,
                mean: Some(est(2.5, 2.0, 3.0)),
            },
            DimensionMean {
                dimension: Dimension::VisualCorrectness,
                mean: Some(est(2.0, 1.5, 2.5)),
            },
            DimensionMean {
                dimension: Dimension::PanelCoherence,
                mean: Some(est(2.1, 1.5, 2.5)),
            },
            DimensionMean {
                dimension: Dimension::HumourComprehension,
                mean: Some(est(2.4, 2.0, 3.0)),
            },
            DimensionMean {
                dimension: Dimension::ContextHandling,
                mean: None,
            },
        ],
    };
    let t = by_dimension(&[row], &models());
    assert_eq!(t.len(), 1);
    assert_eq!(t[0].label, "Alpha");
    let values: Vec<_> = t[0].cells.iter().map(|c| c.map(|e| e.value)).collect();
    assert_eq!(
        values,
        [Some(2.0), Some(2.1), Some(2.4), None, Some(2.5), Some(2.25)]
    );
}

#[test]
fn ranking_rows_join_the_record_and_the_fit() {
    let record = WinRateRow {
        system: "s1".into(),
        comparisons: 4,
        wins: 2,
        ties: 1,
        losses: 1,
        win_rate: est(0.625, 0.5, 0.75),
    };
    let fit = |system: &str| BtRow {
        system: system.into(),
        comparisons: 4,
        log_strength: 0.0,
        rating: est(1000.0, 950.0, 1050.0),
    };
    let t = by_ranking(
        std::slice::from_ref(&record),
        &[fit("s1"), fit("s2")],
        &models(),
    );
    let labels: Vec<_> = t.iter().map(|r| r.label.as_str()).collect();
    assert_eq!(labels, ["Beta", "Alpha"]);
    assert_eq!(t[0].record, None);
    assert_eq!(t[1].record.as_ref(), Some(&record));
    assert_eq!(t[1].bt.as_ref().map(|b| b.system.as_str()), Some("s1"));
}

#[test]
fn figures_are_written_as_on_the_rest_of_the_page() {
    assert_eq!(
        percent_cell(&est(0.539, 0.4849, 0.75)),
        ("54%".to_owned(), "[48%, 75%]".to_owned())
    );
    assert_eq!(
        mean_cell(&est(2.43, 2.311, 2.549)),
        ("2.430".to_owned(), "[2.31, 2.55]".to_owned())
    );
    assert_eq!(
        rating_cell(&est(1084.4, 1011.6, 1160.2)),
        ("1084".to_owned(), "[1012, 1160]".to_owned())
    );
    assert_eq!(strength(0.0), "1.00");
    assert_eq!(strength(2f64.ln()), "2.00");
    let batch = |k| BatchAgreement {
        batch: "1".into(),
        raters: 3,
        subjects: 60,
        fleiss_kappa: k,
    };
    assert_eq!(kappa(&batch(Some(0.4416))), "0.44");
    assert_eq!(kappa(&batch(None)), format::DASH);
}
