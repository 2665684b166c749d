//! Tests of the CMPM per-annotator and win-matrix shaping: cells in the paper's column order
//! with their n, excluded raters marked, the matrix in the study's model order with an empty
//! diagonal and a dash for pairs never compared.

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
