//! Unit tests for `crate::human_eval::board`.

use super::*;
use crate::human_eval::accuracy::Verdict3::{self, *};
use crate::human_eval::dimensions::DimensionScores;
use crate::human_eval::ranking::RankedEntry;
use crate::human_eval::{HUMAN_EVAL_RESAMPLES, HUMAN_EVAL_SEED};

fn acc(
    rater: &str,
    batch: &str,
    item: &str,
    sub: Option<&str>,
    meaning: Verdict3,
    origin: Option<Verdict3>,
) -> Judgement {
    Judgement {
        rater: rater.into(),
        batch: batch.into(),
        item: format!("j-{item}-{}", sub.unwrap_or("planted")),
        source_item: item.into(),
        category: "pun".into(),
        submission: sub.map(str::to_owned),
        value: JudgementValue::Accuracy {
            meaning,
            origin,
            example: None,
            errors: vec![],
        },
    }
}

fn accuracy_study(judgements: Vec<Judgement>, excluded: usize) -> StudyData {
    let mut metric_scores = BTreeMap::new();
    for (k, item) in ["1", "2", "3", "4"].iter().enumerate() {
        let bump = k as f64 * 0.01;
        metric_scores.insert(
            (item.to_string(), "good".to_string()),
            OutputScores {
                identification: Some(0.95 + bump),
                cosine: 0.9 + bump,
                rescaled: 0.8 + bump,
                bert_f1: 0.7 + bump,
            },
        );
        metric_scores.insert(
            (item.to_string(), "bad".to_string()),
            OutputScores {
                identification: Some(0.4 + bump),
                cosine: 0.5 + bump,
                rescaled: 0.1 + bump,
                bert_f1: 0.3 + bump,
            },
        );
    }
    StudyData {
        study: "chime-1".into(),
        protocol: StudyProtocol::Accuracy,
        judgements,
        excluded_raters: excluded,
        exposed_test_items: 0,
        metric_scores,
    }
}

fn sample() -> Vec<Judgement> {
    let mut v = Vec::new();
    for item in ["1", "2", "3", "4"] {
        for rater in ["a", "b", "c"] {
            v.push(acc(rater, "1", item, Some("good"), Agree, Some(Agree)));
            let verdict = if rater == "c" { Neutral } else { Disagree };
            v.push(acc(rater, "1", item, Some("bad"), verdict, None));
        }
    }
    // A planted reference everyone agrees with: not a model, not in the columns.
    for rater in ["a", "b", "c"] {
        v.push(acc(rater, "1", "1", None, Agree, None));
    }
    v
}

#[test]
fn accuracy_columns_pool_fields_and_leave_planted_pages_out() {
    let human = board_human(
        &[accuracy_study(sample(), 2)],
        HUMAN_EVAL_RESAMPLES,
        HUMAN_EVAL_SEED,
    )
    .unwrap();
    let cols = &human.tables.columns;
    assert_eq!(
        cols.iter()
            .map(|c| c.submission_id.as_str())
            .collect::<Vec<_>>(),
        ["bad", "good"]
    );
    let (bad, good) = (&cols[0], &cols[1]);
    assert_eq!(good.agree.unwrap().value, 1.0);
    assert_eq!((good.items, good.raters, good.judgements), (4, 3, 12));
    assert!((bad.disagree.unwrap().value - 2.0 / 3.0).abs() < 1e-12);
    assert!((bad.neutral.unwrap().value - 1.0 / 3.0).abs() < 1e-12);
    assert_eq!(bad.agree.unwrap().value, 0.0);
    assert!(good.core4.is_none() && good.win_rate.is_none() && good.bt_rating.is_none());
    // Planted pages count for agreement and the study's judgements, not for models.
    let s = &human.studies[0];
    assert_eq!((s.raters, s.excluded_raters, s.judgements), (3, 2, 27));
    assert_eq!(s.batches.len(), 1);
    assert!(s.kappa.is_some());
    assert!(s.alpha.is_empty());
    assert!(human
        .tables
        .accuracy
        .iter()
        .all(|r| !r.model.starts_with("planted")));
}

#[test]
fn the_validity_panel_correlates_every_metric_with_meaning_verdicts() {
    let human = board_human(&[accuracy_study(sample(), 0)], 200, 1).unwrap();
    let panel = &human.tables.validity;
    assert_eq!(panel.len(), 1);
    assert_eq!(panel[0].human_score, HumanScore::MeaningVerdict);
    let metrics: Vec<AutoMetric> = panel[0].metrics.iter().map(|m| m.metric).collect();
    assert_eq!(metrics, AutoMetric::ALL);
    for m in &panel[0].metrics {
        // Two systems: perfectly ordered; segments: 8 explanations.
        assert_eq!(m.validity.system.n, 2);
        assert_eq!(m.validity.system.kendall_tau_b.unwrap().value, 1.0);
        assert_eq!(m.validity.segment.n, 8);
        assert!(m.validity.segment.spearman_rho.unwrap().value > 0.8);
    }
}

#[test]
fn excluding_a_rater_changes_the_tables() {
    let all = sample();
    let kept: Vec<Judgement> = all.iter().filter(|j| j.rater != "c").cloned().collect();
    let before = board_human(&[accuracy_study(all, 0)], 200, 1).unwrap();
    let after = board_human(&[accuracy_study(kept, 1)], 200, 1).unwrap();
    // Without c's Neutral verdicts, `bad` is disagreed with by everyone left.
    assert_eq!(after.tables.columns[0].disagree.unwrap().value, 1.0);
    assert_ne!(before.tables.columns[0], after.tables.columns[0]);
    assert_eq!(after.studies[0].raters, 2);
    assert_eq!(after.studies[0].excluded_raters, 1);
}

#[test]
fn comics_without_automatic_scores_have_no_validity_panel_but_rank_and_agree() {
    let scores = |v: u8| DimensionScores {
        visual_correctness: v,
        panel_coherence: v,
        humour_comprehension: v,
        context_handling: None,
        faithfulness: v,
    };
    let mut judgements = Vec::new();
    for comic in ["c1", "c2", "c3"] {
        for rater in ["a", "b"] {
            for (sub, v) in [("x", 3), ("y", 2), ("z", 1)] {
                judgements.push(Judgement {
                    rater: rater.into(),
                    batch: "1".into(),
                    item: format!("{comic}{sub}"),
                    source_item: comic.into(),
                    category: "four_panel".into(),
                    submission: Some(sub.into()),
                    value: JudgementValue::Dimensions {
                        scores: scores(v),
                        errors: vec![],
                    },
                });
            }
            let e = |system: &str, rank| RankedEntry {
                system: system.into(),
                rank,
            };
            judgements.push(Judgement {
                rater: rater.into(),
                batch: "1".into(),
                item: format!("{comic}-rank"),
                source_item: comic.into(),
                category: "four_panel".into(),
                submission: None,
                value: JudgementValue::Ranking {
                    entries: vec![e("z", 2), e("x", 1), e("y", 2)],
                },
            });
        }
    }
    let study = StudyData {
        study: "cmpm-1".into(),
        protocol: StudyProtocol::Cmpm,
        judgements,
        excluded_raters: 0,
        exposed_test_items: 0,
        metric_scores: BTreeMap::new(),
    };
    let t = study_tables(&study, 200, 1).unwrap();
    assert!(t.validity.is_empty());
    let x = &t.columns[0];
    assert_eq!(x.submission_id, "x");
    assert_eq!(x.core4.unwrap().value, 3.0);
    assert_eq!(x.win_rate.unwrap().value, 1.0);
    assert_eq!(x.judgements, 12);
    let (y, z) = (&t.columns[1], &t.columns[2]);
    // y and z always tie: equal win rates and ratings.
    assert_eq!(y.win_rate.unwrap().value, 0.25);
    assert!((y.bt_rating.unwrap().value - z.bt_rating.unwrap().value).abs() < 1e-6);
    let s = study_summary(&study).unwrap();
    assert_eq!(s.alpha.len(), 5);
    assert!((s.alpha[0].krippendorff_alpha.unwrap() - 1.0).abs() < 1e-12);
    assert!(s.batches.is_empty() && s.kappa.is_none());
}

#[test]
fn a_malformed_ranking_is_an_error_naming_it() {
    let study = StudyData {
        study: "s".into(),
        protocol: StudyProtocol::Cmpm,
        judgements: vec![Judgement {
            rater: "r9".into(),
            batch: "1".into(),
            item: "j1".into(),
            source_item: "c7".into(),
            category: "x".into(),
            submission: None,
            value: JudgementValue::Ranking {
                entries: vec![RankedEntry {
                    system: "x".into(),
                    rank: 1,
                }],
            },
        }],
        excluded_raters: 0,
        exposed_test_items: 0,
        metric_scores: BTreeMap::new(),
    };
    let err = study_tables(&study, 10, 1).unwrap_err().to_string();
    assert!(err.contains("item c7 by rater r9 has 1 entries"), "{err}");
}

#[test]
fn pooling_two_studies_keeps_their_batches_apart() {
    let a = accuracy_study(sample(), 0);
    let mut b = accuracy_study(sample(), 1);
    b.study = "chime-2".into();
    let human = board_human(&[a, b], 100, 1).unwrap();
    assert_eq!(human.studies.len(), 2);
    assert_eq!(human.tables.columns[1].judgements, 24);
    assert_eq!(human.studies[1].excluded_raters, 1);
}
