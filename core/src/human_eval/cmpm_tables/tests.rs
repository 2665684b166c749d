//! Tests of the per-annotator dimension means and the pairwise win matrix.

use super::*;
use crate::human_eval::dimensions::DimensionScores;
use crate::human_eval::ranking::{win_rates, RankedEntry};

fn scores(v: u8, context: Option<u8>) -> DimensionScores {
    DimensionScores {
        visual_correctness: v,
        panel_coherence: v,
        humour_comprehension: v,
        context_handling: context,
        faithfulness: v,
    }
}

fn rating(rater: &str, meme: &str, submission: Option<&str>, s: DimensionScores) -> Judgement {
    Judgement {
        rater: rater.into(),
        batch: "rating-1".into(),
        item: format!("{rater}-{meme}-{submission:?}"),
        source_item: meme.into(),
        category: "c".into(),
        submission: submission.map(Into::into),
        value: JudgementValue::Dimensions {
            scores: s,
            errors: vec![],
        },
    }
}

fn ranking(rater: &str, meme: &str, ranks: &[(&str, u8)]) -> Judgement {
    Judgement {
        rater: rater.into(),
        batch: "ranking-1".into(),
        item: format!("{rater}-{meme}-rank"),
        source_item: meme.into(),
        category: "c".into(),
        submission: None,
        value: JudgementValue::Ranking {
            entries: ranks
                .iter()
                .map(|&(system, rank)| RankedEntry {
                    system: system.into(),
                    rank,
                })
                .collect(),
        },
    }
}

#[test]
fn per_rater_means_skip_planted_pages_and_rankings() {
    let mixed = DimensionScores {
        visual_correctness: 3,
        panel_coherence: 2,
        humour_comprehension: 1,
        context_handling: Some(2),
        faithfulness: 2,
    };
    let data = [
        rating("a", "1", Some("m1"), mixed),
        rating("a", "1", Some("m2"), scores(1, Some(1))),
        // A planted page: no model, left out.
        rating("a", "9", None, scores(3, Some(3))),
        ranking("a", "1", &[("m1", 1), ("m2", 2)]),
    ];
    let rows = rater_dimension_rows(&data, &[]).unwrap();
    assert_eq!(rows.len(), 1);
    let r = &rows[0];
    let means: Vec<Option<f64>> = r.dimensions.iter().map(|c| c.mean).collect();
    assert_eq!(
        means,
        [Some(2.0), Some(1.5), Some(1.0), Some(1.5), Some(1.5)]
    );
    assert!(r.dimensions.iter().all(|c| c.n == 2));
    // Core4: (3 + 2 + 1 + 2) / 4 = 2 and 1: mean 1.5.
    assert_eq!(
        r.core4,
        RaterMean {
            mean: Some(1.5),
            n: 2
        }
    );
    assert!(!r.threshold_excluded);
}

#[test]
fn a_score_out_of_range_is_an_error_naming_the_rater() {
    let data = [rating("x", "1", Some("m"), scores(4, None))];
    let err = rater_dimension_rows(&data, &[]).unwrap_err();
    assert!(err.to_string().contains("rater x"), "{err}");
}

#[test]
fn the_matrix_agrees_with_the_win_rate_column() {
    let data = [
        ranking("a", "1", &[("A", 1), ("B", 2), ("C", 3)]),
        ranking("b", "1", &[("A", 2), ("B", 1), ("C", 1)]),
        ranking("a", "2", &[("A", 1), ("B", 1)]),
        ranking("b", "2", &[("C", 1), ("A", 2)]),
    ];
    let m = study_win_matrix(&data).unwrap().unwrap();
    assert_eq!(m.systems, ["A", "B", "C"]);
    let rankings: Vec<Ranking> = data
        .iter()
        .map(|j| match &j.value {
            JudgementValue::Ranking { entries } => Ranking {
                rater: j.rater.clone(),
                item: j.source_item.clone(),
                entries: entries.clone(),
            },
            _ => unreachable!(),
        })
        .collect();
    let rates = win_rates(&expand_rankings(&rankings).unwrap(), 10, 1);
    for (row, rate) in m.rows.iter().zip(&rates) {
        assert_eq!(row.system, rate.system);
        let cells: Vec<PairRecord> = row.cells.iter().flatten().copied().collect();
        assert_eq!(cells.len(), 2, "the diagonal is empty");
        let sum = |f: fn(&PairRecord) -> usize| cells.iter().map(f).sum::<usize>();
        assert_eq!(sum(|c| c.comparisons), rate.comparisons);
        assert_eq!(
            (sum(|c| c.wins), sum(|c| c.ties), sum(|c| c.losses)),
            (rate.wins, rate.ties, rate.losses)
        );
    }
    // A cell and its mirror sum to 1, wins mirror losses.
    for i in 0..3 {
        for j in 0..3 {
            if i == j {
                assert_eq!(m.rows[i].cells[j], None);
                continue;
            }
            let (x, y) = (m.rows[i].cells[j].unwrap(), m.rows[j].cells[i].unwrap());
            assert_eq!((x.wins, x.ties), (y.losses, y.ties));
            assert_eq!(x.win_rate.unwrap() + y.win_rate.unwrap(), 1.0);
        }
    }
    // By hand: A vs B — a: A beats B, b: B beats A, meme 2: tie → 1.5 / 3.
    let ab = m.rows[0].cells[1].unwrap();
    assert_eq!((ab.comparisons, ab.wins, ab.ties, ab.losses), (3, 1, 1, 1));
    assert_eq!(ab.win_rate, Some(0.5));
    // C vs A — a: loss, b: win, b on meme 2: win → 2 / 3.
    let ca = m.rows[2].cells[0].unwrap();
    assert_eq!((ca.wins, ca.losses), (2, 1));
    assert!((ca.win_rate.unwrap() - 2.0 / 3.0).abs() < 1e-12);
}

#[test]
fn a_pair_never_compared_has_no_rate_and_no_rankings_no_matrix() {
    let data = [
        ranking("a", "1", &[("A", 1), ("B", 2)]),
        ranking("a", "2", &[("B", 1), ("C", 2)]),
    ];
    let m = study_win_matrix(&data).unwrap().unwrap();
    let ac = m.rows[0].cells[2].unwrap();
    assert_eq!((ac.comparisons, ac.win_rate), (0, None));
    let ratings = [rating("a", "1", Some("m"), scores(2, None))];
    assert_eq!(study_win_matrix(&ratings).unwrap(), None);
    assert_eq!(win_matrix(&[]).systems.len(), 0);
}
