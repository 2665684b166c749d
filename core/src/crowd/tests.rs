//! Unit tests for `crate::crowd`.

use super::*;
use crate::rng::SplitMix64;
use crate::stats::{crowd_estimate, fleiss_kappa, CrowdStatistic};

fn obs(p: &str, item: &str, category: &str, score: Option<f64>) -> CrowdObservation {
    CrowdObservation {
        participant: p.into(),
        item: item.into(),
        category: category.into(),
        facets: vec![],
        subsets: vec![],
        score,
        ratings: vec![],
    }
}

fn rating(dimension: &'static str, level: AlphaLevel, value: f64) -> Rating {
    Rating {
        dimension: dimension.into(),
        level,
        value,
        num_categories: None,
    }
}

/// The row code as it was before the generic layer, to check the wrappers against.
fn legacy_rows(
    answers: &[CrowdAnswer],
    categories: &[String],
    resamples: usize,
    seed: u64,
) -> Vec<CrowdRow> {
    fn row(answers: &[&CrowdAnswer], category: Option<&str>, r: usize, s: u64) -> CrowdRow {
        let participants = dense_index(answers.iter().map(|a| &*a.participant));
        let items = dense_index(answers.iter().map(|a| &*a.item));
        let responses: Vec<Response> = answers
            .iter()
            .map(|a| Response {
                participant: participants[&*a.participant],
                item: items[&*a.item],
                score: a.score,
            })
            .collect();
        let est = |stat| crowd_estimate(&responses, stat, r, s);
        CrowdRow {
            category: category.map(str::to_owned),
            participants: participants.len(),
            human_average: est(CrowdStatistic::MeanOfParticipants),
            human_best: est(CrowdStatistic::BestParticipant),
            pooled: est(CrowdStatistic::Pooled),
        }
    }
    let all: Vec<&CrowdAnswer> = answers.iter().collect();
    let mut rows = vec![row(&all, None, resamples, seed)];
    for c in categories {
        let subset: Vec<&CrowdAnswer> = answers.iter().filter(|a| *a.category == **c).collect();
        rows.push(row(&subset, Some(c), resamples, seed));
    }
    rows
}

/// The choice agreement as it was before the generic layer (5 options hard-coded by the
/// caller).
fn legacy_agreement(answers: &[CrowdAnswer], num_options: usize) -> (Option<f64>, Option<f64>) {
    let mut per_item: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for a in answers {
        if let Some(c) = a.choice.filter(|&c| c < num_options) {
            per_item.entry(&*a.item).or_default().push(c);
        }
    }
    let mut rater_counts: BTreeMap<usize, usize> = BTreeMap::new();
    for choices in per_item.values().filter(|c| c.len() >= 2) {
        *rater_counts.entry(choices.len()).or_default() += 1;
    }
    let modal = rater_counts
        .iter()
        .max_by_key(|(n, count)| (**count, **n))
        .map(|(n, _)| *n);
    let kappa = modal.and_then(|n| {
        let table: Vec<Vec<u32>> = per_item
            .values()
            .filter(|c| c.len() == n)
            .map(|choices| {
                let mut row = vec![0u32; num_options];
                for &c in choices {
                    row[c] += 1;
                }
                row
            })
            .collect();
        fleiss_kappa(&table)
    });
    let units: Vec<Vec<Option<f64>>> = per_item
        .values()
        .map(|choices| choices.iter().map(|&c| Some(c as f64)).collect())
        .collect();
    (kappa, krippendorff_alpha(&units, AlphaLevel::Nominal))
}

fn random_answers(seed: u64) -> Vec<CrowdAnswer> {
    let mut rng = SplitMix64::new(seed);
    let mut out = Vec::new();
    for p in 0..12 {
        for _ in 0..8 {
            let item = rng.below(15);
            let choice = rng.below(7); // some beyond 5 options
            out.push(CrowdAnswer {
                participant: format!("p{p}").into(),
                item: format!("i{item}").into(),
                category: ["x", "y", "z"][item % 3].into(),
                choice: (rng.below(10) > 0).then_some(choice),
                score: f64::from(u8::from(choice == item % 5)),
            });
        }
    }
    out
}

#[test]
fn wrappers_give_the_numbers_of_the_original_code() {
    let cats: Vec<String> = ["x", "y", "z", "w"].map(String::from).to_vec();
    for seed in 0..5 {
        let answers = random_answers(seed);
        assert_eq!(
            crowd_rows(&answers, &cats, 200, 7),
            legacy_rows(&answers, &cats, 200, 7)
        );
        let (kappa, alpha) = choice_agreement(&answers, 5);
        assert!(
            kappa.is_some() && alpha.is_some(),
            "seed {seed}: not a vacuous check"
        );
        for options in [2, 5, 6] {
            assert_eq!(
                choice_agreement(&answers, options),
                legacy_agreement(&answers, options),
                "seed {seed}, {options} options"
            );
        }
    }
}

#[test]
fn facet_rows_split_answers_by_familiarity() {
    let with = |mut o: CrowdObservation, fam: &str| {
        o.facets = vec![
            ("familiarity".into(), fam.into()),
            ("device".into(), "phone".into()),
        ];
        o
    };
    let data = [
        with(obs("p1", "i1", "x", Some(1.0)), "seen"),
        with(obs("p1", "i2", "x", Some(0.0)), "seen"),
        with(obs("p1", "i3", "y", Some(1.0)), "unseen"),
        with(obs("p2", "i1", "x", Some(1.0)), "seen"),
        with(obs("p2", "i3", "y", Some(0.0)), "unseen"),
        with(obs("p2", "i4", "y", Some(0.0)), "unseen"),
        // A rating-only answer: counted, not scored.
        with(obs("p3", "i4", "y", None), "unseen"),
        // No familiarity facet: in no row.
        obs("p4", "i1", "x", Some(1.0)),
    ];
    let rows = facet_rows(&data, "familiarity", None, 200, 1);
    assert_eq!(rows.len(), 2);
    let (seen, unseen) = (&rows[0], &rows[1]);
    assert_eq!(
        (seen.facet.as_str(), seen.value.as_str()),
        ("familiarity", "seen")
    );
    // Seen: p1 1/2, p2 1/1 → average 0.75, best 1, pooled 2/3.
    assert_eq!(
        (seen.participants, seen.items, seen.answers, seen.scored),
        (2, 2, 3, 3)
    );
    assert_eq!(seen.human_average.unwrap().value, 0.75);
    assert_eq!(seen.human_best.unwrap().value, 1.0);
    assert!((seen.pooled.unwrap().value - 2.0 / 3.0).abs() < 1e-12);
    // Unseen: p1 1/1, p2 0/2, p3 unscored → average 0.5, best 1, pooled 1/3.
    assert_eq!(
        (
            unseen.participants,
            unseen.items,
            unseen.answers,
            unseen.scored
        ),
        (3, 2, 4, 3)
    );
    assert_eq!(unseen.human_average.unwrap().value, 0.5);
    assert_eq!(unseen.human_best.unwrap().value, 1.0);
    assert!((unseen.pooled.unwrap().value - 1.0 / 3.0).abs() < 1e-12);
    // Another facet groups differently; an unknown one gives no rows.
    let by_device = facet_rows(&data, "device", None, 50, 1);
    assert_eq!((by_device.len(), by_device[0].answers), (1, 7));
    assert!(facet_rows(&data, "age", None, 50, 1).is_empty());
}

#[test]
fn subsets_restrict_category_and_facet_rows() {
    let main = |mut o: CrowdObservation| {
        o.subsets = vec!["main".into()];
        o.facets = vec![("familiarity".into(), "seen".into())];
        o
    };
    let data = [
        main(obs("p1", "i1", "x", Some(1.0))),
        obs("p1", "i2", "x", Some(0.0)),
        main(obs("p2", "i3", "y", Some(0.0))),
        obs("p3", "i2", "x", Some(0.0)),
    ];
    let cats: Vec<String> = vec!["x".into(), "y".into()];
    let all = category_rows(&data, &cats, None, 100, 1);
    assert_eq!(all[0].participants, 3);
    assert_eq!(all[1].pooled.unwrap().value, 1.0 / 3.0);
    let rows = category_rows(&data, &cats, Some("main"), 100, 1);
    assert_eq!(rows[0].participants, 2);
    assert_eq!(rows[0].pooled.unwrap().value, 0.5);
    assert_eq!(rows[1].pooled.unwrap().value, 1.0);
    assert_eq!(rows[2].pooled.unwrap().value, 0.0);
    let facets = facet_rows(&data, "familiarity", Some("main"), 100, 1);
    assert_eq!((facets.len(), facets[0].answers), (1, 2));
    assert!(category_rows(&data, &cats, Some("hard"), 100, 1)
        .iter()
        .all(|r| r.participants == 0 && r.pooled.is_none()));
}

/// Krippendorff (2011): 4 coders × 12 units with missing values.
fn krippendorff_2011() -> Vec<[Option<f64>; 12]> {
    let m = None;
    let s = Some;
    vec![
        [
            s(1.),
            s(2.),
            s(3.),
            s(3.),
            s(2.),
            s(1.),
            s(4.),
            s(1.),
            s(2.),
            m,
            m,
            m,
        ],
        [
            s(1.),
            s(2.),
            s(3.),
            s(3.),
            s(2.),
            s(2.),
            s(4.),
            s(1.),
            s(2.),
            s(5.),
            m,
            s(3.),
        ],
        [
            m,
            s(3.),
            s(3.),
            s(3.),
            s(2.),
            s(3.),
            s(4.),
            s(2.),
            s(2.),
            s(5.),
            s(1.),
            m,
        ],
        [
            s(1.),
            s(2.),
            s(3.),
            s(3.),
            s(2.),
            s(4.),
            s(4.),
            s(1.),
            s(2.),
            s(5.),
            s(1.),
            m,
        ],
    ]
}

#[test]
fn agreement_per_dimension_with_a_nominal_and_an_ordinal_dimension() {
    // Each coder rates each unit twice: as a nominal "label" and as an ordinal "severity".
    let mut data = Vec::new();
    for (c, coder) in krippendorff_2011().iter().enumerate() {
        for (u, value) in coder.iter().enumerate() {
            let Some(v) = *value else { continue };
            let mut o = obs(&format!("c{c}"), &format!("u{u:02}"), "x", None);
            o.ratings = vec![
                rating("severity", AlphaLevel::Ordinal, v),
                rating("label", AlphaLevel::Nominal, v),
            ];
            data.push(o);
        }
    }
    let rows = agreement_by_dimension(&data);
    assert_eq!(rows.len(), 2);
    let (label, severity) = (&rows[0], &rows[1]);
    assert_eq!(
        (label.dimension.as_str(), label.level),
        ("label", AlphaLevel::Nominal)
    );
    assert_eq!(
        (severity.dimension.as_str(), severity.level),
        ("severity", AlphaLevel::Ordinal)
    );
    assert_eq!((label.items, label.raters, label.ratings), (12, 4, 41));
    // Published values: nominal α = 0.743, ordinal α = 0.815.
    assert!((label.krippendorff_alpha.unwrap() - 0.743).abs() < 0.001);
    assert!((severity.krippendorff_alpha.unwrap() - 0.815).abs() < 0.001);
    assert_eq!(severity.fleiss_kappa, None);
    // Kappa by hand over the 8 units rated by all 4 coders (u2..u9), categories 1..4:
    // rows [0,3,1,0] [0,0,4,0] [0,0,4,0] [0,4,0,0] [1,1,1,1] [0,0,0,4] [3,1,0,0] [0,4,0,0];
    // P̄ = (.5 + 1 + 1 + 1 + 0 + 1 + .5 + 1) / 8 = 0.75;
    // p = (4, 13, 10, 5) / 32 → P̄e = 310 / 1024; κ = (0.75 − 310/1024) / (1 − 310/1024)
    // = 458 / 714 = 229 / 357.
    assert!((label.fleiss_kappa.unwrap() - 229.0 / 357.0).abs() < 1e-12);
}

#[test]
fn unscored_answers_are_counted_but_not_scored() {
    let mut data = vec![
        obs("p1", "i1", "x", Some(1.0)),
        obs("p2", "i1", "x", None),
        obs("p3", "i2", "x", None),
    ];
    for o in &mut data {
        o.ratings = vec![rating("funny", AlphaLevel::Interval, 3.0)];
    }
    data[2].ratings[0].value = 1.0;
    let rows = category_rows(&data, &["x".into()], None, 100, 1);
    assert_eq!(rows[0].participants, 3);
    assert_eq!(rows[0].pooled.unwrap().value, 1.0);
    assert_eq!(rows[0].human_average.unwrap().value, 1.0);
    let agreement = agreement_by_dimension(&data);
    assert_eq!(
        (
            agreement[0].items,
            agreement[0].raters,
            agreement[0].ratings
        ),
        (2, 3, 3)
    );
    // Only rating-only answers: everyone counted, no accuracy.
    let unscored: Vec<CrowdObservation> = data[1..].to_vec();
    let rows = category_rows(&unscored, &["x".into()], None, 100, 1);
    assert_eq!(rows[0].participants, 2);
    assert_eq!((rows[0].human_average, rows[0].pooled), (None, None));
    let facets = facet_rows(
        &unscored
            .iter()
            .cloned()
            .map(|mut o| {
                o.facets = vec![("f".into(), "v".into())];
                o
            })
            .collect::<Vec<_>>(),
        "f",
        None,
        10,
        1,
    );
    assert_eq!((facets[0].answers, facets[0].scored), (2, 0));
}

#[test]
fn six_option_choices_are_not_dropped() {
    // Two raters on three items, options 0..=5; the sixth option (5) is used.
    let a = |p: &str, i: &str, c: usize| CrowdAnswer {
        participant: p.into(),
        item: i.into(),
        category: "x".into(),
        choice: Some(c),
        score: 0.0,
    };
    let answers = [
        a("p1", "i1", 5),
        a("p2", "i1", 5),
        a("p1", "i2", 0),
        a("p2", "i2", 0),
        a("p1", "i3", 0),
        a("p2", "i3", 5),
    ];
    // κ = (2/3 − 1/2) / (1/2) = 1/3; α = 4/9 (see agreement_by_dimension's example).
    let (kappa, alpha) = choice_agreement(&answers, 6);
    assert!((kappa.unwrap() - 1.0 / 3.0).abs() < 1e-12);
    assert!((alpha.unwrap() - 4.0 / 9.0).abs() < 1e-12);
    // The generic API needs no declared count at all.
    let data: Vec<CrowdObservation> = answers
        .iter()
        .map(|x| {
            let mut o = obs(&x.participant, &x.item, "x", None);
            o.ratings = vec![rating(
                "choice",
                AlphaLevel::Nominal,
                x.choice.unwrap() as f64,
            )];
            o
        })
        .collect();
    let row = &agreement_by_dimension(&data)[0];
    assert_eq!(row.fleiss_kappa, kappa);
    assert_eq!(row.krippendorff_alpha, alpha);
    // With 5 options declared the sixth is out of range and ignored, as before: only
    // item i2 (0, 0) is left for kappa and alpha, which have no variation.
    assert_eq!(choice_agreement(&answers, 5), (None, None));
}

#[test]
fn agreement_rows_round_trip_through_json() {
    let row = AgreementRow {
        dimension: "choice".into(),
        level: AlphaLevel::Ordinal,
        fleiss_kappa: None,
        krippendorff_alpha: Some(0.5),
        items: 3,
        raters: 2,
        ratings: 6,
    };
    let json = serde_json::to_string(&row).unwrap();
    assert!(json.contains("\"ordinal\""), "{json}");
    assert_eq!(serde_json::from_str::<AgreementRow>(&json).unwrap(), row);
}
