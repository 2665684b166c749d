//! Unit tests for `crate::human_eval::raters` and `crate::human_eval::dawid_skene`.

use super::*;
use crate::human_eval::dawid_skene::DS_MAX_ITERATIONS;
use crate::human_eval::dimensions::DimensionScores;
use crate::human_eval::ranking::RankedEntry;
use crate::stats::{krippendorff_alpha, AlphaLevel};
use Verdict3::*;

/// The verdicts of `scripts/reference/raters.py` (0 disagree, 1 neutral, 2 agree).
/// A batch and its raters' verdicts.
type Batch = (&'static str, &'static [(&'static str, [u8; 12])]);
/// A batch, its κ and each rater's κ without them.
type KappaRow = (&'static str, f64, &'static [(&'static str, f64)]);

const BATCHES: &[Batch] = &[
    (
        "1",
        &[
            ("r1", [2, 2, 0, 1, 2, 0, 0, 2, 1, 2, 0, 2]),
            ("r2", [2, 2, 0, 1, 2, 0, 1, 2, 1, 2, 0, 0]),
            ("r3", [2, 1, 0, 1, 2, 0, 0, 2, 2, 2, 0, 2]),
            ("r4", [0, 2, 1, 2, 0, 0, 2, 1, 1, 0, 2, 2]),
        ],
    ),
    (
        "2",
        // Eight pages; the last four entries are unused.
        &[
            ("r5", [2, 0, 0, 1, 2, 2, 0, 1, 9, 9, 9, 9]),
            ("r6", [2, 0, 1, 1, 2, 2, 0, 1, 9, 9, 9, 9]),
            ("r7", [2, 0, 0, 2, 2, 1, 0, 0, 9, 9, 9, 9]),
        ],
    ),
];

const KAPPA: &[KappaRow] = &[
    (
        "1",
        0.23497267759562834,
        &[
            ("r1", 0.00480769230769233),
            ("r2", 0.11547911547911546),
            ("r3", 0.17788461538461522),
            ("r4", 0.6461916461916463),
        ],
    ),
    (
        "2",
        0.492063492063492,
        &[
            ("r5", 0.23809523809523808),
            ("r6", 0.4074074074074074),
            ("r7", 0.8117647058823529),
        ],
    ),
];
/// Printed by the script: Dawid–Skene competence (24 EM rounds).
const COMPETENCE: &[(&str, f64)] = &[
    ("r1", 0.9947743981039119),
    ("r2", 0.8333650596735285),
    ("r3", 0.8215494895695769),
    ("r4", 0.33725713731404783),
    ("r5", 0.991277568315184),
    ("r6", 0.8773132690156682),
    ("r7", 0.6469982566713011),
];

fn verdict(v: u8) -> Verdict3 {
    Verdict3::ALL[usize::from(v)]
}

fn acc(rater: &str, batch: &str, page: &str, meaning: Verdict3) -> Judgement {
    Judgement {
        rater: rater.into(),
        batch: batch.into(),
        item: page.into(),
        source_item: format!("m-{page}"),
        category: "pun".into(),
        submission: Some("s".into()),
        value: JudgementValue::Accuracy {
            meaning,
            origin: None,
            example: None,
            errors: vec![],
        },
    }
}

fn reference_judgements() -> Vec<Judgement> {
    let mut out = Vec::new();
    for (batch, raters) in BATCHES {
        for (rater, values) in *raters {
            for (page, &v) in values.iter().enumerate().filter(|(_, &v)| v < 3) {
                out.push(acc(
                    rater,
                    batch,
                    &format!("{batch}/p{page:02}"),
                    verdict(v),
                ));
            }
        }
    }
    out
}

#[test]
fn matches_the_reference_script() {
    let rows = rater_reliability(&reference_judgements(), &BTreeMap::new());
    assert_eq!(rows.len(), 7);
    for (batch, with, loo) in KAPPA {
        for (rater, without) in *loo {
            let row = rows.iter().find(|r| r.rater == *rater).unwrap();
            assert_eq!(row.batch.as_deref(), Some(*batch));
            assert!((row.with_rater.unwrap() - with).abs() < 1e-12, "{rater}");
            assert!(
                (row.without_rater.unwrap() - without).abs() < 1e-12,
                "{rater}"
            );
            assert!((row.loo_delta.unwrap() - (with - without)).abs() < 1e-12);
        }
    }
    for (rater, competence) in COMPETENCE {
        let row = rows.iter().find(|r| r.rater == *rater).unwrap();
        assert!(
            (row.competence.unwrap() - competence).abs() < 1e-9,
            "{rater}: {:?} vs {competence}",
            row.competence
        );
    }
    // The outlier of batch 1 raises agreement by leaving, and is the least competent.
    let r4 = rows.iter().find(|r| r.rater == "r4").unwrap();
    assert!(r4.loo_delta.unwrap() < 0.0);
    assert!(rows.iter().all(|r| r.competence >= r4.competence));
    assert_eq!((r4.judgements, r4.raters), (12, 4));
}

#[test]
fn the_input_order_does_not_matter() {
    let mut data = reference_judgements();
    let rows = rater_reliability(&data, &BTreeMap::new());
    data.reverse();
    assert_eq!(rater_reliability(&data, &BTreeMap::new()), rows);
}

#[test]
fn dawid_skene_is_bounded_and_follows_the_majority() {
    // Three raters who always agree: competence ≈ 1, converged at once.
    let labels: Vec<Label<'_>> = ["s1", "s2", "s3"]
        .iter()
        .enumerate()
        .flat_map(|(i, s)| {
            ["a", "b", "c"].map(|rater| Label {
                subject: s,
                rater,
                class: i % 2,
            })
        })
        .collect();
    let fit = dawid_skene(&labels, 2).unwrap();
    assert!(fit.converged && fit.iterations < DS_MAX_ITERATIONS);
    assert!(fit.competence.values().all(|&c| c > 0.99));
    assert!((fit.priors.iter().sum::<f64>() - 1.0).abs() < 1e-12);
    for m in fit.confusion.values() {
        for row in m {
            assert!((row.iter().sum::<f64>() - 1.0).abs() < 1e-12);
        }
    }
    // Out-of-range classes are dropped; nothing left is `None`.
    let bad = [Label {
        subject: "s",
        rater: "a",
        class: 5,
    }];
    assert_eq!(dawid_skene(&bad, 3), None);
}

fn dims(rater: &str, page: &str, v: u8) -> Judgement {
    Judgement {
        rater: rater.into(),
        batch: "1".into(),
        item: page.into(),
        source_item: format!("m-{page}"),
        category: "c".into(),
        submission: Some("s".into()),
        value: JudgementValue::Dimensions {
            scores: DimensionScores {
                visual_correctness: v,
                panel_coherence: v,
                humour_comprehension: 2,
                context_handling: None,
                faithfulness: 2,
            },
            errors: vec![],
        },
    }
}

#[test]
fn dimensions_use_ordinal_alpha_over_the_study_with_planted_tallies() {
    let data = [
        dims("a", "p1", 3),
        dims("b", "p1", 3),
        dims("c", "p1", 1),
        dims("a", "p2", 1),
        dims("b", "p2", 1),
        dims("c", "p2", 3),
    ];
    let planted = [(
        "c".to_owned(),
        PlantedTally {
            judged: 4,
            failed: 3,
        },
    )]
    .into();
    let rows = rater_reliability(&data, &planted);
    assert_eq!(rows.len(), 3);
    assert!(rows.iter().all(|r| r.scale == RaterScale::Dimensions
        && r.batch.is_none()
        && r.competence.is_none()
        && r.raters == 3
        && r.judgements == 2));
    // The units: per page, two varying dimensions and two constant ones.
    let unit = |vals: [f64; 3]| vals.map(Some).to_vec();
    let all = vec![
        unit([3.0, 3.0, 1.0]),
        unit([3.0, 3.0, 1.0]),
        unit([2.0; 3]),
        unit([2.0; 3]),
        unit([1.0, 1.0, 3.0]),
        unit([1.0, 1.0, 3.0]),
        unit([2.0; 3]),
        unit([2.0; 3]),
    ];
    let with = krippendorff_alpha(&all, AlphaLevel::Ordinal).unwrap();
    let without_c: Vec<Vec<Option<f64>>> = all.iter().map(|u| u[..2].to_vec()).collect();
    let c = &rows[2];
    assert!((c.with_rater.unwrap() - with).abs() < 1e-12);
    let alone = krippendorff_alpha(&without_c, AlphaLevel::Ordinal).unwrap();
    assert!((c.without_rater.unwrap() - alone).abs() < 1e-12);
    assert_eq!(c.without_rater, Some(1.0));
    assert!(c.loo_delta.unwrap() < 0.0);
    assert_eq!((c.planted_judged, c.planted_pass_rate), (4, Some(0.25)));
    assert_eq!(rows[0].planted_pass_rate, None);
}

#[test]
fn ranks_get_alpha_rows_without_planted_checks() {
    let rank = |rater: &str, page: &str, good: u8| Judgement {
        rater: rater.into(),
        batch: "r1".into(),
        item: page.into(),
        source_item: page.into(),
        category: "c".into(),
        submission: None,
        value: JudgementValue::Ranking {
            entries: vec![
                RankedEntry {
                    system: "good".into(),
                    rank: good,
                },
                RankedEntry {
                    system: "bad".into(),
                    rank: 3 - good,
                },
            ],
        },
    };
    let data = [
        rank("a", "p1", 1),
        rank("b", "p1", 1),
        rank("a", "p2", 1),
        rank("b", "p2", 2),
    ];
    let planted = [(
        "a".to_owned(),
        PlantedTally {
            judged: 2,
            failed: 0,
        },
    )]
    .into();
    let rows = rater_reliability(&data, &planted);
    assert_eq!(rows.len(), 2);
    assert!(rows
        .iter()
        .all(|r| r.scale == RaterScale::Ranks && r.planted_judged == 0));
    // Two raters: without either, nothing is pairable.
    assert!(rows[0].with_rater.is_some());
    assert_eq!(rows[0].without_rater, None);
    assert_eq!(rows[0].loo_delta, None);
}

#[test]
fn no_judgements_no_rows() {
    assert!(rater_reliability(&[], &BTreeMap::new()).is_empty());
    let one = [acc("a", "1", "p", Agree)];
    let rows = rater_reliability(&one, &BTreeMap::new());
    assert_eq!(rows.len(), 1);
    assert_eq!((rows[0].with_rater, rows[0].without_rater), (None, None));
    assert!(rows[0].competence.is_some());
}

#[test]
fn leave_one_out_alpha_matches_krippendorff_alpha() {
    // Krippendorff (2011): 4 coders × 12 units, missing values and an unpairable unit.
    let m = None;
    let coders: [[Option<f64>; 12]; 4] = [
        [
            Some(1.),
            Some(2.),
            Some(3.),
            Some(3.),
            Some(2.),
            Some(1.),
            Some(4.),
            Some(1.),
            Some(2.),
            m,
            m,
            m,
        ],
        [
            Some(1.),
            Some(2.),
            Some(3.),
            Some(3.),
            Some(2.),
            Some(2.),
            Some(4.),
            Some(1.),
            Some(2.),
            Some(5.),
            m,
            Some(3.),
        ],
        [
            m,
            Some(3.),
            Some(3.),
            Some(3.),
            Some(2.),
            Some(3.),
            Some(4.),
            Some(2.),
            Some(2.),
            Some(5.),
            Some(1.),
            m,
        ],
        [
            Some(1.),
            Some(2.),
            Some(3.),
            Some(3.),
            Some(2.),
            Some(4.),
            Some(4.),
            Some(1.),
            Some(2.),
            Some(5.),
            Some(1.),
            m,
        ],
    ];
    let units: Vec<Vec<(usize, f64)>> = (0..12)
        .map(|u| {
            (0..4)
                .filter_map(|c| coders[c][u].map(|v| (c, v)))
                .collect()
        })
        .collect();
    let plain = |skip: Option<usize>| -> Option<f64> {
        let units: Vec<Vec<Option<f64>>> = (0..12)
            .map(|u| {
                (0..4)
                    .filter(|&c| Some(c) != skip)
                    .map(|c| coders[c][u])
                    .collect()
            })
            .collect();
        krippendorff_alpha(&units, AlphaLevel::Ordinal)
    };
    let (with, without) = loo::ordinal_alpha_loo(&units, 4);
    assert!((with.unwrap() - 0.815).abs() < 0.001);
    assert!((with.unwrap() - plain(None).unwrap()).abs() < 1e-12);
    for (c, w) in without.iter().enumerate() {
        assert!(
            (w.unwrap() - plain(Some(c)).unwrap()).abs() < 1e-12,
            "coder {c}"
        );
    }
    // One value overall, or nothing pairable: no α, as krippendorff_alpha.
    let same = vec![vec![(0, 2.0), (1, 2.0)]];
    assert_eq!(loo::ordinal_alpha_loo(&same, 2), (None, vec![None, None]));
}
