//! Tests of the CMPM per-annotator and win-matrix shaping: cells in the paper's column order
//! with their n, excluded raters marked, the matrix in the study's model order with an empty
//! diagonal and a dash for pairs never compared; Table 8 with signed differences, Overall last.

use super::*;
use memeboard_core::human_eval::cmpm_tables::{RaterMean, WinMatrixRow};

fn mean(m: Option<f64>, n: usize) -> RaterMean {
    RaterMean { mean: m, n }
}

#[test]
fn a_rater_row_has_five_dimensions_then_core4_with_n() {
    let rows = [RaterDimensionRow {
        rater: "R-abc".into(),
        dimensions: vec![
            mean(Some(2.0), 9),
            mean(Some(1.5), 9),
            mean(Some(3.0), 9),
            mean(None, 0),
            mean(Some(2.25), 9),
        ],
        core4: mean(Some(2.1875), 9),
        threshold_excluded: true,
    }];
    let t = per_rater(&rows);
    assert_eq!(t.len(), 1);
    assert_eq!((t[0].rater.as_str(), t[0].excluded), ("R-abc", true));
    let means: Vec<&str> = t[0].cells.iter().map(|c| c.mean.as_str()).collect();
    assert_eq!(means, ["2.000", "1.500", "3.000", "—", "2.250", "2.188"]);
    assert_eq!(t[0].cells[3].n, "n = 0");
    assert_eq!(t[0].cells[5].n, "n = 9");
}

fn record(wins: usize, ties: usize, losses: usize) -> Option<PairRecord> {
    let comparisons = wins + ties + losses;
    Some(PairRecord {
        comparisons,
        wins,
        ties,
        losses,
        win_rate: (comparisons > 0).then(|| (wins as f64 + ties as f64 / 2.0) / comparisons as f64),
    })
}

#[test]
fn the_matrix_follows_the_page_order_with_an_empty_diagonal() {
    // Sorted by id: s1, s2, s3; s1 vs s3 never compared.
    let m = WinMatrix {
        systems: vec!["s1".into(), "s2".into(), "s3".into()],
        rows: vec![
            WinMatrixRow {
                system: "s1".into(),
                cells: vec![None, record(2, 0, 1), record(0, 0, 0)],
            },
            WinMatrixRow {
                system: "s2".into(),
                cells: vec![record(1, 0, 2), None, record(3, 0, 0)],
            },
            WinMatrixRow {
                system: "s3".into(),
                cells: vec![record(0, 0, 0), record(0, 0, 3), None],
            },
        ],
    };
    // The page lists Beta (s2) first, then Alpha (s1), and a model nobody ranked.
    let models: Vec<(String, String)> = [("s2", "Beta"), ("s1", "Alpha"), ("s9", "Nobody")]
        .into_iter()
        .map(|(a, b)| (a.to_owned(), b.to_owned()))
        .collect();
    let (labels, rows) = matrix(&m, &models);
    // s3 is not on the page's list: last, by its id.
    assert_eq!(labels, ["Beta", "Alpha", "s3"]);
    let subs: Vec<&str> = rows.iter().map(|r| r.submission.as_str()).collect();
    assert_eq!(subs, ["s2", "s1", "s3"]);
    assert_eq!(rows[0].cells[0], PairCell::Diagonal);
    assert_eq!(
        rows[0].cells[1],
        PairCell::Rate {
            rate: "33%".into(),
            record: "1–0–2 (n = 3)".into()
        }
    );
    assert_eq!(
        rows[1].cells[0],
        PairCell::Rate {
            rate: "67%".into(),
            record: "2–0–1 (n = 3)".into()
        }
    );
    assert_eq!(rows[1].cells[2], PairCell::NotCompared);
    assert_eq!(rows[2].cells[2], PairCell::Diagonal);
}

fn cells(full: f64, image_only: f64, delta: (f64, f64, f64)) -> ContextCells {
    ContextCells {
        full_context: full,
        full_context_ratings: 93,
        image_only,
        image_only_ratings: 93,
        comics: 31,
        delta: memeboard_core::stats::Estimate {
            value: delta.0,
            ci_low: delta.1,
            ci_high: delta.2,
        },
    }
}

#[test]
fn table_8_writes_signed_differences_and_the_overall_row_last() {
    use memeboard_core::human_eval::context_ablation::{ContextEffects, ContextModelRow};
    let t = ContextAblation {
        rows: vec![
            ContextModelRow {
                model: "InternVL3.5-8B".into(),
                cells: cells(2.03, 1.87, (0.16, 0.02, 0.3)),
            },
            ContextModelRow {
                model: "Qwen3.5-9B".into(),
                cells: cells(2.09, 2.09, (-1e-17, -0.1, 0.1)),
            },
        ],
        overall: cells(2.36, 2.30, (0.06, -0.01, 0.13)),
        effects: ContextEffects {
            helps: 13,
            hurts: 10,
            small_or_mixed: 8,
        },
    };
    let (rows, overall) = context_table(&t);
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[0].label, "InternVL3.5-8B");
    assert_eq!(rows[0].full.mean, "2.030");
    assert_eq!(rows[0].image_only.n, "n = 93");
    assert_eq!(
        rows[0].delta,
        ("+0.160".to_owned(), "[+0.02, +0.30]".to_owned())
    );
    // A rounding error below zero is no change, not −0.000.
    assert_eq!(
        rows[1].delta,
        ("+0.000".to_owned(), "[−0.10, +0.10]".to_owned())
    );
    assert_eq!(overall.label, "");
    assert_eq!(
        (overall.full.mean.as_str(), overall.image_only.mean.as_str()),
        ("2.360", "2.300")
    );
    assert_eq!(overall.delta.0, "+0.060");
}
