//! The crowd baseline table of a quiz: overall and per-category human rows plus agreement,
//! computed from the scored answers of completed batches.

use crate::api::CrowdRow;
use crate::stats::{
    crowd_estimate, fleiss_kappa, krippendorff_alpha, AlphaLevel, CrowdStatistic, Response,
};
use std::collections::BTreeMap;

/// One scored answer of a completed batch.
#[derive(Debug, Clone, PartialEq)]
pub struct CrowdAnswer {
    /// Anonymous participant id.
    pub participant: String,
    /// Item id.
    pub item: String,
    /// Category key.
    pub category: String,
    /// Canonical option chosen (choice tasks), for agreement.
    pub choice: Option<usize>,
    /// Score in `[0, 1]`.
    pub score: f64,
}

fn dense_index<'a>(keys: impl Iterator<Item = &'a str>) -> BTreeMap<&'a str, usize> {
    let mut map = BTreeMap::new();
    for k in keys {
        let n = map.len();
        map.entry(k).or_insert(n);
    }
    map
}

fn row(answers: &[&CrowdAnswer], category: Option<&str>, resamples: usize, seed: u64) -> CrowdRow {
    let participants = dense_index(answers.iter().map(|a| a.participant.as_str()));
    let items = dense_index(answers.iter().map(|a| a.item.as_str()));
    let responses: Vec<Response> = answers
        .iter()
        .map(|a| Response {
            participant: participants[a.participant.as_str()],
            item: items[a.item.as_str()],
            score: a.score,
        })
        .collect();
    let est = |stat| crowd_estimate(&responses, stat, resamples, seed);
    CrowdRow {
        category: category.map(str::to_owned),
        participants: participants.len(),
        human_average: est(CrowdStatistic::MeanOfParticipants),
        human_best: est(CrowdStatistic::BestParticipant),
        pooled: est(CrowdStatistic::Pooled),
    }
}

/// The overall row, then one row per category in `categories` order (categories with no
/// answers get an empty row so tables keep their shape).
///
/// ```
/// use memeboard_core::crowd::{crowd_rows, CrowdAnswer};
/// let a = |p: &str, i: &str, c: &str, s| CrowdAnswer { participant: p.into(), item: i.into(), category: c.into(), choice: None, score: s };
/// let rows = crowd_rows(&[a("p1", "i1", "x", 1.0), a("p1", "i2", "y", 0.0), a("p2", "i1", "x", 1.0)], &["x".into(), "y".into()], 100, 1);
/// assert_eq!(rows.len(), 3);
/// assert_eq!(rows[0].participants, 2);
/// assert_eq!(rows[0].human_average.unwrap().value, 0.75); // (0.5 + 1.0) / 2
/// assert_eq!(rows[1].human_best.unwrap().value, 1.0);
/// assert_eq!(rows[2].pooled.unwrap().value, 0.0);
/// ```
pub fn crowd_rows(
    answers: &[CrowdAnswer],
    categories: &[String],
    resamples: usize,
    seed: u64,
) -> Vec<CrowdRow> {
    let all: Vec<&CrowdAnswer> = answers.iter().collect();
    let mut rows = vec![row(&all, None, resamples, seed)];
    for c in categories {
        let subset: Vec<&CrowdAnswer> = answers.iter().filter(|a| &a.category == c).collect();
        rows.push(row(&subset, Some(c), resamples, seed));
    }
    rows
}

/// Agreement on choice items: (Fleiss' kappa, Krippendorff's nominal alpha).
///
/// Fleiss' kappa needs the same number of raters per item, so it uses the items answered by
/// the most common number (≥ 2) of participants; alpha uses every answer (missing allowed).
pub fn choice_agreement(answers: &[CrowdAnswer], num_options: usize) -> (Option<f64>, Option<f64>) {
    let mut per_item: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for a in answers {
        if let Some(c) = a.choice.filter(|&c| c < num_options) {
            per_item.entry(a.item.as_str()).or_default().push(c);
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
