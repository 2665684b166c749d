//! CMPM holistic rankings: a rater orders up to five anonymous explanations of one meme (ties
//! allowed); each ranking becomes its pairwise win / tie / loss outcomes, which feed a
//! pairwise win rate and Bradley–Terry strengths.

use super::JudgementError;
use crate::metrics::{estimate, ItemOutcome, Metric, OutcomeValue, PairOutcome};
use crate::stats::Estimate;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// Most explanations on one ranking page.
pub const MAX_RANKED: usize = 5;

/// One explanation on a ranking page and the rank it was given.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct RankedEntry {
    /// Model (submission) whose explanation this is (anonymous on the page).
    pub system: String,
    /// 1 = best; equal ranks are ties.
    pub rank: u8,
}

/// One rater's holistic ranking of the explanations of one item.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Ranking {
    /// Anonymous rater id.
    pub rater: String,
    /// Item (meme) id: the bootstrap unit.
    pub item: String,
    /// The ranked explanations (2 to [`MAX_RANKED`]), in page order.
    pub entries: Vec<RankedEntry>,
}

/// One pairwise outcome drawn from a ranking, from the side of `a` (`a` < `b` by id, so every
/// pair has one canonical form).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Comparison {
    /// Item (meme) id.
    pub item: String,
    /// Rater id.
    pub rater: String,
    /// The system this outcome is from the side of.
    pub a: String,
    /// The other system.
    pub b: String,
    /// `Win` when `a` was ranked better than `b`, `Tie` when equal, `Loss` when worse.
    pub outcome: PairOutcome,
}

impl Comparison {
    /// The outcome from `system`'s side (`None` when it is neither `a` nor `b`).
    pub fn outcome_for(&self, system: &str) -> Option<PairOutcome> {
        if system == self.a {
            Some(self.outcome)
        } else if system == self.b {
            Some(match self.outcome {
                PairOutcome::Win => PairOutcome::Loss,
                PairOutcome::Tie => PairOutcome::Tie,
                PairOutcome::Loss => PairOutcome::Win,
            })
        } else {
            None
        }
    }
}

/// Checks a ranking: 2 to [`MAX_RANKED`] entries, no system twice, and *dense* ranks — the
/// distinct ranks are exactly 1, 2, …, k (ties share a rank and the next rank follows on, so
/// `[1, 1, 2]`, not the competition style `[1, 1, 3]`). Only the order matters for the
/// outcomes, but a gap usually means a page bug, so it is rejected rather than guessed at.
///
/// ```
/// use memeboard_core::human_eval::ranking::{validate_ranking, RankedEntry, Ranking};
/// let ranking = |ranks: &[u8]| Ranking {
///     rater: "r".into(), item: "i".into(),
///     entries: ranks.iter().enumerate().map(|(k, &rank)| RankedEntry { system: format!("s{k}"), rank }).collect(),
/// };
/// assert!(validate_ranking(&ranking(&[2, 1, 2])).is_ok());
/// assert!(validate_ranking(&ranking(&[1, 1, 3])).is_err());
/// assert!(validate_ranking(&ranking(&[1])).is_err());
/// ```
pub fn validate_ranking(ranking: &Ranking) -> Result<(), JudgementError> {
    let n = ranking.entries.len();
    if !(2..=MAX_RANKED).contains(&n) {
        return Err(JudgementError::WrongEntryCount {
            rater: ranking.rater.clone(),
            item: ranking.item.clone(),
            count: n,
            max: MAX_RANKED,
        });
    }
    let mut seen = BTreeSet::new();
    for e in &ranking.entries {
        if !seen.insert(e.system.as_str()) {
            return Err(JudgementError::DuplicateEntry {
                rater: ranking.rater.clone(),
                item: ranking.item.clone(),
                system: e.system.clone(),
            });
        }
    }
    let distinct: BTreeSet<u8> = ranking.entries.iter().map(|e| e.rank).collect();
    let dense = distinct.iter().copied().eq(1..=distinct.len() as u8);
    if !dense {
        return Err(JudgementError::RanksNotDense {
            rater: ranking.rater.clone(),
            item: ranking.item.clone(),
            ranks: ranking.entries.iter().map(|e| e.rank).collect(),
        });
    }
    Ok(())
}

/// Expands one ranking into its C(n, 2) pairwise outcomes (10 for five explanations), sorted
/// by `(a, b)`: the better-ranked system wins, equal ranks tie.
///
/// Worked example: A ranked 1, B and C tied at 2 gives A beats B, A beats C, B ties C.
///
/// ```
/// use memeboard_core::human_eval::ranking::{expand_ranking, RankedEntry, Ranking};
/// use memeboard_core::metrics::PairOutcome::*;
/// let e = |system: &str, rank| RankedEntry { system: system.into(), rank };
/// let ranking = Ranking { rater: "r".into(), item: "i".into(), entries: vec![e("C", 2), e("A", 1), e("B", 2)] };
/// let pairs: Vec<_> = expand_ranking(&ranking).unwrap().into_iter().map(|c| (c.a, c.b, c.outcome)).collect();
/// assert_eq!(pairs, [("A".into(), "B".into(), Win), ("A".into(), "C".into(), Win), ("B".into(), "C".into(), Tie)]);
/// ```
pub fn expand_ranking(ranking: &Ranking) -> Result<Vec<Comparison>, JudgementError> {
    validate_ranking(ranking)?;
    let mut entries: Vec<&RankedEntry> = ranking.entries.iter().collect();
    entries.sort_by(|x, y| x.system.cmp(&y.system));
    let mut out = Vec::with_capacity(entries.len() * (entries.len() - 1) / 2);
    for (i, a) in entries.iter().enumerate() {
        for b in &entries[i + 1..] {
            let outcome = match a.rank.cmp(&b.rank) {
                std::cmp::Ordering::Less => PairOutcome::Win,
                std::cmp::Ordering::Equal => PairOutcome::Tie,
                std::cmp::Ordering::Greater => PairOutcome::Loss,
            };
            out.push(Comparison {
                item: ranking.item.clone(),
                rater: ranking.rater.clone(),
                a: a.system.clone(),
                b: b.system.clone(),
                outcome,
            });
        }
    }
    Ok(out)
}

/// Expands every ranking ([`expand_ranking`]), in input order; errors on the first malformed
/// ranking.
pub fn expand_rankings(rankings: &[Ranking]) -> Result<Vec<Comparison>, JudgementError> {
    let mut out = Vec::new();
    for r in rankings {
        out.extend(expand_ranking(r)?);
    }
    Ok(out)
}

/// One system's pairwise record and win rate, the simplest ranking-based board column.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct WinRateRow {
    /// Model (submission) id.
    pub system: String,
    /// Comparisons involving the system.
    pub comparisons: usize,
    /// Comparisons it won.
    pub wins: usize,
    /// Comparisons it tied.
    pub ties: usize,
    /// Comparisons it lost.
    pub losses: usize,
    /// (wins + ties / 2) / comparisons, with an item-bootstrap 95% interval.
    pub win_rate: Estimate,
}

/// Pairwise win rate per system (sorted by id): (wins + ½ ties) / comparisons over every
/// comparison it took part in, with an item-bootstrap interval ([`Metric::WinRate`] through
/// [`estimate`]: the memes are resampled, each bringing all its comparisons).
///
/// Worked example: A beats B, A ties C, B beats C. A: (1 + ½) / 2 = 0.75; B: 1 / 2 = 0.5;
/// C: ½ / 2 = 0.25.
///
/// ```
/// use memeboard_core::human_eval::ranking::{expand_ranking, win_rates, RankedEntry, Ranking};
/// let e = |system: &str, rank| RankedEntry { system: system.into(), rank };
/// let comparisons: Vec<_> = [
///     Ranking { rater: "r".into(), item: "1".into(), entries: vec![e("A", 1), e("B", 2)] },
///     Ranking { rater: "r".into(), item: "2".into(), entries: vec![e("A", 1), e("C", 1)] },
///     Ranking { rater: "r".into(), item: "3".into(), entries: vec![e("B", 1), e("C", 2)] },
/// ].iter().flat_map(|r| expand_ranking(r).unwrap()).collect();
/// let rows = win_rates(&comparisons, 1000, 1);
/// let rate: Vec<f64> = rows.iter().map(|r| r.win_rate.value).collect();
/// assert_eq!(rate, [0.75, 0.5, 0.25]);
/// assert_eq!((rows[0].wins, rows[0].ties, rows[0].losses), (1, 1, 0));
/// ```
pub fn win_rates(comparisons: &[Comparison], resamples: usize, seed: u64) -> Vec<WinRateRow> {
    let mut per_system: BTreeMap<&str, Vec<ItemOutcome>> = BTreeMap::new();
    for c in comparisons {
        for system in [c.a.as_str(), c.b.as_str()] {
            if let Some(outcome) = c.outcome_for(system) {
                per_system.entry(system).or_default().push(ItemOutcome::new(
                    c.item.as_str(),
                    "",
                    OutcomeValue::Pairwise(outcome),
                ));
            }
        }
    }
    per_system
        .into_iter()
        .filter_map(|(system, outcomes)| {
            let count = |o: PairOutcome| {
                outcomes
                    .iter()
                    .filter(|x| x.value == OutcomeValue::Pairwise(o))
                    .count()
            };
            Some(WinRateRow {
                system: system.to_owned(),
                comparisons: outcomes.len(),
                wins: count(PairOutcome::Win),
                ties: count(PairOutcome::Tie),
                losses: count(PairOutcome::Loss),
                win_rate: estimate(Metric::WinRate, &outcomes, resamples, seed)?,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use PairOutcome::*;

    fn ranking(ranks: &[(&str, u8)]) -> Ranking {
        Ranking {
            rater: "r1".into(),
            item: "meme-1".into(),
            entries: ranks
                .iter()
                .map(|&(s, rank)| RankedEntry {
                    system: s.into(),
                    rank,
                })
                .collect(),
        }
    }

    fn triples(r: &Ranking) -> Vec<(String, String, PairOutcome)> {
        expand_ranking(r)
            .unwrap()
            .into_iter()
            .map(|c| (c.a, c.b, c.outcome))
            .collect()
    }

    fn t(a: &str, b: &str, o: PairOutcome) -> (String, String, PairOutcome) {
        (a.into(), b.into(), o)
    }

    #[test]
    fn five_explanations_give_ten_outcomes() {
        let r = ranking(&[("e", 3), ("a", 1), ("d", 2), ("b", 2), ("c", 4)]);
        assert_eq!(
            triples(&r),
            vec![
                t("a", "b", Win),
                t("a", "c", Win),
                t("a", "d", Win),
                t("a", "e", Win),
                t("b", "c", Win),
                t("b", "d", Tie),
                t("b", "e", Win),
                t("c", "d", Loss),
                t("c", "e", Loss),
                t("d", "e", Win),
            ]
        );
    }

    #[test]
    fn an_all_tied_ranking_gives_only_ties() {
        let r = ranking(&[("a", 1), ("b", 1), ("c", 1), ("d", 1), ("e", 1)]);
        let outcomes = triples(&r);
        assert_eq!(outcomes.len(), 10);
        assert!(outcomes.iter().all(|(_, _, o)| *o == Tie));
    }

    #[test]
    fn two_entries_give_one_outcome_and_page_order_does_not_matter() {
        assert_eq!(
            triples(&ranking(&[("b", 1), ("a", 2)])),
            vec![t("a", "b", Loss)]
        );
        let x = triples(&ranking(&[("a", 2), ("b", 1), ("c", 1)]));
        let y = triples(&ranking(&[("c", 1), ("a", 2), ("b", 1)]));
        assert_eq!(x, y);
    }

    #[test]
    fn every_outcome_is_consistent_with_the_ranks() {
        let r = ranking(&[("a", 2), ("b", 1), ("c", 3), ("d", 1)]);
        let rank: BTreeMap<&str, u8> = r
            .entries
            .iter()
            .map(|e| (e.system.as_str(), e.rank))
            .collect();
        for c in expand_ranking(&r).unwrap() {
            let (ra, rb) = (rank[c.a.as_str()], rank[c.b.as_str()]);
            let expected = if ra < rb {
                Win
            } else if ra == rb {
                Tie
            } else {
                Loss
            };
            assert_eq!(c.outcome, expected);
            assert_eq!(
                c.outcome_for(&c.b).map(|o| o as u8),
                Some(2 - expected as u8)
            );
            assert_eq!(c.outcome_for("zz"), None);
        }
    }

    #[test]
    fn malformed_rankings_are_rejected_with_what_was_expected() {
        let err = |r: &Ranking| expand_ranking(r).unwrap_err().to_string();
        assert_eq!(
            err(&ranking(&[])),
            "ranking of item meme-1 by rater r1 has 0 entries; expected 2 to 5"
        );
        assert!(err(&ranking(&[("a", 1)])).contains("has 1 entries"));
        assert!(err(&ranking(&[
            ("a", 1),
            ("b", 2),
            ("c", 3),
            ("d", 4),
            ("e", 5),
            ("f", 6)
        ]))
        .contains("has 6 entries"));
        assert_eq!(
            err(&ranking(&[("a", 1), ("b", 2), ("a", 3)])),
            "ranking of item meme-1 by rater r1 lists a twice"
        );
        assert!(err(&ranking(&[("a", 1), ("b", 1), ("c", 3)])).contains("ranks [1, 1, 3]"));
        assert!(err(&ranking(&[("a", 0), ("b", 1)])).contains("ranks [0, 1]"));
        assert!(err(&ranking(&[("a", 2), ("b", 3)])).contains("ranks [2, 3]"));
        assert!(expand_rankings(&[ranking(&[("a", 1), ("b", 2)]), ranking(&[])]).is_err());
    }

    #[test]
    fn win_rates_count_ties_half_and_resample_memes() {
        let mut comparisons = Vec::new();
        for (item, ranks) in [
            ("m1", [("a", 1), ("b", 2), ("c", 3)]),
            ("m2", [("a", 1), ("b", 1), ("c", 2)]),
            ("m3", [("a", 2), ("b", 1), ("c", 1)]),
        ] {
            let mut r = ranking(&ranks);
            r.item = item.into();
            comparisons.extend(expand_ranking(&r).unwrap());
        }
        let rows = win_rates(&comparisons, 500, 3);
        // a: W W | W T | L L  -> (3 + 0.5) / 6
        assert_eq!((rows[0].wins, rows[0].ties, rows[0].losses), (3, 1, 2));
        assert!((rows[0].win_rate.value - 3.5 / 6.0).abs() < 1e-12);
        // c: L L | L L | W T -> 1.5 / 6
        assert!((rows[2].win_rate.value - 1.5 / 6.0).abs() < 1e-12);
        let total: f64 = rows.iter().map(|r| r.win_rate.value).sum();
        assert!((total - 1.5).abs() < 1e-12);
        for r in &rows {
            assert!(
                r.win_rate.ci_low <= r.win_rate.value && r.win_rate.value <= r.win_rate.ci_high
            );
        }
    }
}
