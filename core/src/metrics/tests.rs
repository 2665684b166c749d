//! Unit tests for `crate::metrics`.

use super::*;
use crate::rng::SplitMix64;

fn verdicts(vs: &[Verdict]) -> Vec<ItemOutcome> {
    vs.iter()
        .enumerate()
        .map(|(i, v)| ItemOutcome::new(format!("i{i:02}"), "x", OutcomeValue::Verdict(*v)))
        .collect()
}

fn label(i: usize, gold: &str, predicted: Option<&str>) -> ItemOutcome {
    ItemOutcome::new(
        format!("i{i:02}"),
        if i.is_multiple_of(2) { "even" } else { "odd" },
        OutcomeValue::Label {
            gold: gold.into(),
            predicted: predicted.map(str::to_owned),
        },
    )
}

/// A mixed classification set: 12 items over 3 classes with 2 unparseable answers.
fn labels() -> Vec<ItemOutcome> {
    let pairs = [
        ("a", Some("a")),
        ("a", Some("a")),
        ("a", Some("b")),
        ("a", None),
        ("b", Some("b")),
        ("b", Some("b")),
        ("b", Some("c")),
        ("c", Some("c")),
        ("c", Some("a")),
        ("c", None),
        ("a", Some("a")),
        ("b", Some("b")),
    ];
    pairs
        .iter()
        .enumerate()
        .map(|(i, (g, p))| label(i, g, *p))
        .collect()
}

#[test]
fn accuracy_on_parseable_and_parse_rate_on_a_mixed_example() {
    use Verdict::*;
    // 3 correct, 2 wrong, 3 unparseable.
    let o = verdicts(&[
        Correct,
        Unparseable,
        Wrong,
        Correct,
        Unparseable,
        Wrong,
        Correct,
        Unparseable,
    ]);
    assert_eq!(Metric::Accuracy.compute(&o), Some(3.0 / 8.0));
    assert_eq!(Metric::AccuracyOnParseable.compute(&o), Some(3.0 / 5.0));
    assert_eq!(Metric::ParseRate.compute(&o), Some(5.0 / 8.0));
    // Accuracy = accuracy on parseable × parse rate.
    let product =
        Metric::AccuracyOnParseable.compute(&o).unwrap() * Metric::ParseRate.compute(&o).unwrap();
    assert!((product - 3.0 / 8.0).abs() < 1e-12);
    // Nothing parsed: accuracy on parseable is undefined, the others are 0.
    let none = verdicts(&[Unparseable, Unparseable]);
    assert_eq!(Metric::AccuracyOnParseable.compute(&none), None);
    assert_eq!(Metric::ParseRate.compute(&none), Some(0.0));
    assert_eq!(Metric::Accuracy.compute(&none), Some(0.0));
}

#[test]
fn labels_feed_accuracy_parse_rate_and_f1() {
    let o = labels();
    // 7 right of 12; 10 parsed.
    assert_eq!(Metric::Accuracy.compute(&o), Some(7.0 / 12.0));
    assert_eq!(Metric::AccuracyOnParseable.compute(&o), Some(0.7));
    assert_eq!(Metric::ParseRate.compute(&o), Some(10.0 / 12.0));
    // a: TP 3, FP 1 (c→a), FN 2 (→b, unparseable) → 6/9.
    // b: TP 3, FP 1 (a→b), FN 1 (→c) → 6/8.
    // c: TP 1, FP 1 (b→c), FN 2 (→a, unparseable) → 2/5.
    let (fa, fb, fc) = (6.0 / 9.0, 6.0 / 8.0, 2.0 / 5.0);
    let macro_f1 = Metric::MacroF1.compute(&o).unwrap();
    assert!((macro_f1 - (fa + fb + fc) / 3.0).abs() < 1e-12);
    // Supports a 5, b 4, c 3.
    let weighted = Metric::WeightedF1.compute(&o).unwrap();
    assert!((weighted - (5.0 * fa + 4.0 * fb + 3.0 * fc) / 12.0).abs() < 1e-12);
}

#[test]
fn a_class_only_predicted_counts_zero_in_macro_and_nothing_in_weighted() {
    // Gold a, a; predicted a, z. a: TP 1, FN 1 → 2/3; z: TP 0 → 0.
    let o = vec![label(0, "a", Some("a")), label(1, "a", Some("z"))];
    assert!((Metric::MacroF1.compute(&o).unwrap() - (2.0 / 3.0) / 2.0).abs() < 1e-12);
    assert!((Metric::WeightedF1.compute(&o).unwrap() - 2.0 / 3.0).abs() < 1e-12);
    // An unparseable answer adds no class: the same gold with `None` scores a alone.
    let o = vec![label(0, "a", Some("a")), label(1, "a", None)];
    assert!((Metric::MacroF1.compute(&o).unwrap() - 2.0 / 3.0).abs() < 1e-12);
}

#[test]
fn bootstrap_interval_contains_the_point_and_is_deterministic() {
    let o = labels();
    for metric in [
        Metric::Accuracy,
        Metric::AccuracyOnParseable,
        Metric::ParseRate,
        Metric::MacroF1,
        Metric::WeightedF1,
    ] {
        let a = estimate(metric, &o, 400, 9).unwrap();
        let b = estimate(metric, &o, 400, 9).unwrap();
        assert_eq!(a, b, "{metric:?}");
        assert!(
            a.ci_low <= a.value && a.value <= a.ci_high,
            "{metric:?} {a:?}"
        );
        assert!(a.ci_low < a.ci_high, "{metric:?} {a:?}");
        assert_eq!(Some(a.value), metric.compute(&o));
    }
    let c = estimate(Metric::MacroF1, &o, 400, 10).unwrap();
    assert_ne!(c, estimate(Metric::MacroF1, &o, 400, 9).unwrap());
}

#[test]
fn f1_bootstrap_recomputes_f1_rather_than_averaging_items() {
    // With every item drawn once the weighted path must equal the plain computation, and
    // the bootstrap mean of macro-F1 must differ from a mean of per-item 0/1 scores.
    let o = labels();
    let p = Prepared::new(Metric::MacroF1, o.iter());
    let mut w = vec![0u32; p.num_items];
    // Items 0 and 1 twice (a→a), item 6 once (b→c): a TP 4; b FN 1; c FP 1.
    w[0] = 2;
    w[1] = 2;
    w[6] = 1;
    // a: 8/8 = 1; b: 0; c: 0 → 1/3.
    assert!((p.evaluate(&w).unwrap() - 1.0 / 3.0).abs() < 1e-12);
    // Same multiset by copying outcomes gives the same value.
    let copied = vec![
        o[0].clone(),
        o[0].clone(),
        o[1].clone(),
        o[1].clone(),
        o[6].clone(),
    ];
    let renamed: Vec<ItemOutcome> = copied
        .into_iter()
        .enumerate()
        .map(|(i, mut x)| {
            x.item = format!("copy{i}");
            x
        })
        .collect();
    assert!((Metric::MacroF1.compute(&renamed).unwrap() - 1.0 / 3.0).abs() < 1e-12);
}

#[test]
fn metrics_and_intervals_do_not_depend_on_item_order() {
    let mut o = labels();
    o.extend((0..6).map(|i| {
        ItemOutcome::new(
            format!("s{i}"),
            "x",
            OutcomeValue::Score(f64::from(i) / 5.0),
        )
    }));
    o.extend(
        [
            PairOutcome::Win,
            PairOutcome::Tie,
            PairOutcome::Loss,
            PairOutcome::Win,
        ]
        .into_iter()
        .enumerate()
        .map(|(i, p)| ItemOutcome::new(format!("p{}", i / 2), "x", OutcomeValue::Pairwise(p))),
    );
    let reference: Vec<Option<Estimate>> = Metric::ALL
        .iter()
        .map(|&m| estimate(m, &o, 200, 5))
        .collect();
    assert!(reference.iter().all(Option::is_some), "{reference:?}");
    let mut rng = SplitMix64::new(77);
    for round in 0..6 {
        let mut shuffled = o.clone();
        if round == 0 {
            shuffled.reverse();
        } else {
            rng.shuffle(&mut shuffled);
        }
        let got: Vec<Option<Estimate>> = Metric::ALL
            .iter()
            .map(|&m| estimate(m, &shuffled, 200, 5))
            .collect();
        assert_eq!(got, reference, "round {round}");
    }
}

#[test]
fn empty_input_gives_none_everywhere() {
    for metric in Metric::ALL {
        assert_eq!(metric.compute(&[]), None, "{metric:?}");
        assert_eq!(estimate(metric, &[], 100, 1), None, "{metric:?}");
    }
    let rows = summarize_by(Metric::MacroF1, &[], &["x".into()], None, 10, 1);
    assert_eq!(rows.len(), 2);
    assert!(rows.iter().all(|r| r.items == 0 && r.estimate.is_none()));
    assert_eq!(
        confusion_matrix(&[]),
        ConfusionMatrix {
            labels: vec![],
            counts: vec![]
        }
    );
}

#[test]
fn win_rate_resamples_items_with_all_their_comparisons() {
    // Item p0 has two comparisons (win, win), item p1 one (loss): 2/3 overall.
    let o: Vec<ItemOutcome> = [
        ("p0", PairOutcome::Win),
        ("p0", PairOutcome::Win),
        ("p1", PairOutcome::Loss),
    ]
    .into_iter()
    .map(|(i, p)| ItemOutcome::new(i, "x", OutcomeValue::Pairwise(p)))
    .collect();
    let e = estimate(Metric::WinRate, &o, 300, 2).unwrap();
    assert!((e.value - 2.0 / 3.0).abs() < 1e-12);
    // Two items: every resample is {p0,p0}, {p0,p1} or {p1,p1} → 1, 2/3 or 0.
    assert_eq!((e.ci_low, e.ci_high), (0.0, 1.0));
    let rows = summarize_by(Metric::WinRate, &o, &[], None, 10, 1);
    assert_eq!(rows[0].items, 2);
}

#[test]
fn summarize_by_matches_the_board_summary_point_estimates() {
    use crate::leaderboard::{summarize, ItemScore};
    let scores: Vec<ItemScore> = (0..9)
        .map(|i| ItemScore {
            item_id: format!("i{i}"),
            category: ["x", "y", "z"][i % 3].into(),
            score: [1.0, 0.0, 0.5, 0.2][i % 4],
        })
        .collect();
    let outcomes: Vec<ItemOutcome> = scores
        .iter()
        .map(|s| ItemOutcome::new(&s.item_id, &s.category, OutcomeValue::Score(s.score)))
        .collect();
    let cats: Vec<String> = ["x", "y", "z", "w"].map(String::from).to_vec();
    let old = summarize(&scores, &cats, 200, 3);
    let new = summarize_by(Metric::MeanScore, &outcomes, &cats, None, 200, 3);
    assert_eq!(old.len(), new.len());
    for (a, b) in old.iter().zip(&new) {
        assert_eq!(
            (a.category.as_ref(), a.items),
            (b.category.as_ref(), b.items)
        );
        assert_eq!(
            a.estimate.map(|e| e.value),
            b.estimate.map(|e| e.value),
            "{a:?} {b:?}"
        );
    }
}

#[test]
fn rows_serialize_with_snake_case_metric_names() {
    let row = MetricRow {
        metric: Metric::AccuracyOnParseable,
        category: None,
        subset: Some("main".into()),
        items: 3,
        estimate: None,
    };
    let json = serde_json::to_string(&row).unwrap();
    assert!(json.contains("\"accuracy_on_parseable\""), "{json}");
    assert_eq!(serde_json::from_str::<MetricRow>(&json).unwrap(), row);
}
