//! Bradley–Terry strengths from pairwise outcomes, fitted by Hunter's (2004) MM algorithm,
//! reported on an Elo-like scale with item-bootstrap intervals, as arena-style leaderboards
//! (Chiang et al. 2024, Chatbot Arena) do.
//!
//! Model: P(i beats j) = pᵢ / (pᵢ + pⱼ). Ties count as half a win for each side (the arena
//! convention), so Wᵢⱼ = wins of i over j + ½ ties and Nᵢⱼ = comparisons between them.
//! To keep every strength finite (a system with no win, a pair never compared) every pair of
//! systems gets `prior_ties` virtual comparisons that end in a tie; this shrinks strengths a
//! little towards each other and makes the fit unique.

use super::ranking::Comparison;
use super::sorted_index;
use crate::metrics::PairOutcome;
use crate::stats::{item_bootstrap_many, Estimate};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Points per factor of 10 in strength on the rating scale (as Elo and the arenas).
pub const RATING_SCALE: f64 = 400.0;
/// Rating of a system of geometric-mean strength.
pub const RATING_CENTER: f64 = 1000.0;

/// Fitting options; [`BtOptions::default`] is what the boards use.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct BtOptions {
    /// Virtual tied comparisons added between every pair of systems (default 1.0: one tie,
    /// half a win each). Must be ≥ 0; with 0 the plain maximum-likelihood fit is returned,
    /// which exists only when every system has a win or tie and the comparisons connect
    /// everyone both ways.
    pub prior_ties: f64,
    /// Stop when no log-strength moves more than this in one iteration (default 1e-10).
    pub tolerance: f64,
    /// Stop after this many iterations even if not converged (default 100 000).
    pub max_iterations: usize,
}

impl Default for BtOptions {
    fn default() -> Self {
        Self {
            prior_ties: 1.0,
            tolerance: 1e-10,
            max_iterations: 100_000,
        }
    }
}

/// A fitted model: one strength per system.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct BtFit {
    /// Systems, sorted by id.
    pub systems: Vec<String>,
    /// Natural-log strengths, same order, normalised to mean 0 (geometric-mean strength 1).
    pub log_strengths: Vec<f64>,
    /// MM iterations run.
    pub iterations: usize,
    /// Whether the tolerance was reached within `max_iterations`.
    pub converged: bool,
}

impl BtFit {
    /// The Elo-like ratings: 1000 + 400 · log₁₀(pᵢ), so the average system sits at 1000 and
    /// a 400-point gap means 10:1 odds.
    pub fn ratings(&self) -> Vec<f64> {
        self.log_strengths.iter().map(|&l| to_rating(l)).collect()
    }
}

fn to_rating(log_strength: f64) -> f64 {
    RATING_CENTER + RATING_SCALE * log_strength / std::f64::consts::LN_10
}

/// Pairwise totals of `m` systems: `wins[i][j]` = Wᵢⱼ (ties as halves), `games[i][j]` = Nᵢⱼ.
struct Counts {
    wins: Vec<Vec<f64>>,
    games: Vec<Vec<f64>>,
}

impl Counts {
    fn new(m: usize) -> Self {
        Self {
            wins: vec![vec![0.0; m]; m],
            games: vec![vec![0.0; m]; m],
        }
    }

    fn add(&mut self, a: usize, b: usize, outcome: PairOutcome, weight: f64) {
        let (wa, wb) = match outcome {
            PairOutcome::Win => (1.0, 0.0),
            PairOutcome::Tie => (0.5, 0.5),
            PairOutcome::Loss => (0.0, 1.0),
        };
        self.wins[a][b] += weight * wa;
        self.wins[b][a] += weight * wb;
        self.games[a][b] += weight;
        self.games[b][a] += weight;
    }
}

/// Hunter's MM iteration from `start` (log strengths); returns (log strengths, iterations,
/// converged), or `None` when a system has no (real or virtual) win, so no finite fit exists.
fn fit_counts(counts: &Counts, opts: &BtOptions, start: &[f64]) -> Option<(Vec<f64>, usize, bool)> {
    let m = start.len();
    let prior = opts.prior_ties.max(0.0);
    let total_wins: Vec<f64> = (0..m)
        .map(|i| counts.wins[i].iter().sum::<f64>() + prior * 0.5 * (m as f64 - 1.0))
        .collect();
    if total_wins.iter().any(|&w| w <= 0.0) {
        return None;
    }
    let mut p: Vec<f64> = start.iter().map(|l| l.exp()).collect();
    let mut next = vec![0.0; m];
    for iteration in 1..=opts.max_iterations {
        for i in 0..m {
            let denom: f64 = (0..m)
                .filter(|&j| j != i)
                .map(|j| (counts.games[i][j] + prior) / (p[i] + p[j]))
                .sum();
            next[i] = if denom > 0.0 {
                total_wins[i] / denom
            } else {
                p[i]
            };
        }
        // Normalise to geometric mean 1 (log mean 0).
        let mean_log = next.iter().map(|x| x.ln()).sum::<f64>() / m as f64;
        let mut change = 0.0f64;
        for i in 0..m {
            let l = next[i].ln() - mean_log;
            change = change.max((l - p[i].ln()).abs());
            p[i] = l.exp();
        }
        if change < opts.tolerance {
            return Some((p.iter().map(|x| x.ln()).collect(), iteration, true));
        }
    }
    Some((
        p.iter().map(|x| x.ln()).collect(),
        opts.max_iterations,
        false,
    ))
}

fn system_index(comparisons: &[Comparison]) -> BTreeMap<&str, usize> {
    sorted_index(
        comparisons
            .iter()
            .flat_map(|c| [c.a.as_str(), c.b.as_str()]),
    )
}

/// Fits Bradley–Terry strengths to pairwise outcomes (each comparison counts once; ties as
/// half-wins; `prior_ties` virtual ties per pair of systems).
///
/// Hunter's MM update pᵢ ← Wᵢ / Σⱼ Nᵢⱼ / (pᵢ + pⱼ) (with the virtual ties included in W and N)
/// is applied to all systems at once, then the log strengths are re-centred to mean 0, until no
/// log strength moves more than `tolerance`. `None` with fewer than two systems, or when
/// `prior_ties = 0` and some system never won or tied.
///
/// Worked example: A beats B three times and loses once, with no prior. The fit solves
/// pA / (pA + pB) = 3/4, so pA / pB = 3: log strengths ±½ ln 3 ≈ ±0.549 and ratings
/// 1000 ± 200 · log₁₀ 3 ≈ 1095.4 / 904.6.
///
/// ```
/// use memeboard_core::human_eval::bradley_terry::{bradley_terry, BtOptions};
/// use memeboard_core::human_eval::ranking::Comparison;
/// use memeboard_core::metrics::PairOutcome::{self, *};
/// let c = |item: &str, outcome| Comparison { item: item.into(), rater: "r".into(), a: "A".into(), b: "B".into(), outcome };
/// let data = [c("1", Win), c("2", Win), c("3", Win), c("4", Loss)];
/// let fit = bradley_terry(&data, &BtOptions { prior_ties: 0.0, ..BtOptions::default() }).unwrap();
/// assert!(fit.converged);
/// assert!((fit.log_strengths[0] - 0.5 * 3f64.ln()).abs() < 1e-9);
/// assert!((fit.ratings()[1] - (1000.0 - 200.0 * 3f64.log10())).abs() < 1e-6);
/// // With the default prior (one virtual tie): pA / pB = 3.5 / 1.5.
/// let fit = bradley_terry(&data, &BtOptions::default()).unwrap();
/// assert!((fit.log_strengths[0] - fit.log_strengths[1] - (3.5f64 / 1.5).ln()).abs() < 1e-9);
/// ```
pub fn bradley_terry(comparisons: &[Comparison], opts: &BtOptions) -> Option<BtFit> {
    let systems = system_index(comparisons);
    let m = systems.len();
    if m < 2 {
        return None;
    }
    let mut counts = Counts::new(m);
    for c in comparisons {
        counts.add(systems[c.a.as_str()], systems[c.b.as_str()], c.outcome, 1.0);
    }
    let (log_strengths, iterations, converged) = fit_counts(&counts, opts, &vec![0.0; m])?;
    Some(BtFit {
        systems: systems.keys().map(|s| (*s).to_owned()).collect(),
        log_strengths,
        iterations,
        converged,
    })
}

/// One system's Bradley–Terry row for a board.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct BtRow {
    /// Model (submission) id.
    pub system: String,
    /// Comparisons involving the system.
    pub comparisons: usize,
    /// Natural-log strength on the full data (mean 0 over systems).
    pub log_strength: f64,
    /// Elo-like rating (1000 + 400 · log₁₀ strength) with an item-bootstrap 95% interval.
    pub rating: Estimate,
}

/// Bradley–Terry ratings per system (sorted by id) with item-bootstrap 95% intervals.
///
/// Each of `resamples` rounds draws the items (memes) with replacement, every drawn item
/// bringing all its comparisons (weighted by how often it was drawn), refits (warm-started from
/// the full-data fit) and records every system's rating; the interval is the 2.5th–97.5th
/// percentile. A system absent from a round keeps a finite strength through the prior, so
/// every round is defined when `prior_ties > 0`. Empty when [`bradley_terry`] is `None`.
///
/// Worked example: A beats B on every one of three memes. With the default prior
/// Wᴬ = 3.5, Wᴮ = 0.5, so pA / pB = 7 and A's rating is 1000 + 200 · log₁₀ 7 ≈ 1169.0; every
/// resample is the same, so the interval is a point.
///
/// ```
/// use memeboard_core::human_eval::bradley_terry::{bradley_terry_rows, BtOptions};
/// use memeboard_core::human_eval::ranking::Comparison;
/// use memeboard_core::metrics::PairOutcome::Win;
/// let c = |item: &str| Comparison { item: item.into(), rater: "r".into(), a: "A".into(), b: "B".into(), outcome: Win };
/// let rows = bradley_terry_rows(&[c("1"), c("2"), c("3")], &BtOptions::default(), 200, 1);
/// assert_eq!(rows[0].system, "A");
/// assert!((rows[0].rating.value - (1000.0 + 200.0 * 7f64.log10())).abs() < 1e-6);
/// assert!((rows[0].rating.ci_high - rows[0].rating.ci_low).abs() < 1e-6);
/// assert_eq!(rows[1].comparisons, 3);
/// ```
pub fn bradley_terry_rows(
    comparisons: &[Comparison],
    opts: &BtOptions,
    resamples: usize,
    seed: u64,
) -> Vec<BtRow> {
    let Some(fit) = bradley_terry(comparisons, opts) else {
        return Vec::new();
    };
    let systems = system_index(comparisons);
    let m = systems.len();
    let items = sorted_index(comparisons.iter().map(|c| c.item.as_str()));
    // Comparisons grouped by item index: (a, b, outcome).
    let mut by_item: Vec<Vec<(usize, usize, PairOutcome)>> = vec![Vec::new(); items.len()];
    let mut involved = vec![0usize; m];
    for c in comparisons {
        let (a, b) = (systems[c.a.as_str()], systems[c.b.as_str()]);
        by_item[items[c.item.as_str()]].push((a, b, c.outcome));
        involved[a] += 1;
        involved[b] += 1;
    }
    let estimates = item_bootstrap_many(items.len(), resamples, seed, |w| {
        if w.iter().all(|&w| w == 1) {
            return fit
                .log_strengths
                .iter()
                .map(|&l| Some(to_rating(l)))
                .collect();
        }
        let mut counts = Counts::new(m);
        for (&w, cs) in w.iter().zip(&by_item) {
            if w > 0 {
                for &(a, b, o) in cs {
                    counts.add(a, b, o, f64::from(w));
                }
            }
        }
        match fit_counts(&counts, opts, &fit.log_strengths) {
            Some((logs, _, _)) => logs.into_iter().map(|l| Some(to_rating(l))).collect(),
            None => vec![None; m],
        }
    });
    fit.systems
        .iter()
        .zip(&fit.log_strengths)
        .zip(estimates)
        .enumerate()
        .filter_map(|(i, ((system, &log_strength), rating))| {
            Some(BtRow {
                system: system.clone(),
                comparisons: involved[i],
                log_strength,
                rating: rating?,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use PairOutcome::*;

    fn c(item: &str, a: &str, b: &str, outcome: PairOutcome) -> Comparison {
        Comparison {
            item: item.into(),
            rater: "r".into(),
            a: a.into(),
            b: b.into(),
            outcome,
        }
    }

    /// The fixture `core/tests/fixtures/bt_pairs.json`, fitted by the independent Newton
    /// solver in `scripts/reference/bradley_terry.py`. To regenerate the expected values:
    /// `python3 scripts/reference/bradley_terry.py` (from the repository root; standard
    /// library only) and paste its output below.
    #[test]
    fn matches_the_reference_script_on_the_committed_fixture() {
        #[derive(Deserialize)]
        struct Fixture {
            rankings: Vec<super::super::ranking::Ranking>,
            comparisons: Vec<Comparison>,
        }
        let fixture: Fixture =
            serde_json::from_str(include_str!("../../tests/fixtures/bt_pairs.json")).unwrap();
        // The fixture's outcomes are its rankings expanded (by the script that wrote it).
        let expanded = super::super::ranking::expand_rankings(&fixture.rankings).unwrap();
        assert_eq!(expanded, fixture.comparisons);
        // Output of scripts/reference/bradley_terry.py (prior_ties, system, log strength).
        let expected: &[(f64, &[(&str, f64)])] = REFERENCE;
        for &(prior_ties, strengths) in expected {
            let opts = BtOptions {
                prior_ties,
                ..BtOptions::default()
            };
            let fit = bradley_terry(&fixture.comparisons, &opts).unwrap();
            assert!(fit.converged, "prior {prior_ties}: {fit:?}");
            let got: Vec<(&str, f64)> = fit
                .systems
                .iter()
                .map(String::as_str)
                .zip(fit.log_strengths.iter().copied())
                .collect();
            assert_eq!(got.len(), strengths.len());
            for ((s, l), (es, el)) in got.iter().zip(strengths.iter()) {
                assert_eq!(s, es);
                assert!(
                    (l - el).abs() < 1e-6,
                    "prior {prior_ties}, {s}: got {l}, reference {el}"
                );
            }
        }
    }

    // Generated by scripts/reference/bradley_terry.py from core/tests/fixtures/bt_pairs.json.
    const REFERENCE: &[(f64, &[(&str, f64)])] = &[
        (
            0.0,
            &[
                ("alpha", 1.397692404521),
                ("bravo", 0.131045913947),
                ("charlie", 0.373636873397),
                ("delta", -0.633630287881),
                ("echo", -1.268744903984),
            ],
        ),
        (
            0.5,
            &[
                ("alpha", 1.325266518736),
                ("bravo", 0.123874030218),
                ("charlie", 0.357789199669),
                ("delta", -0.600864077040),
                ("echo", -1.206065671584),
            ],
        ),
        (
            1.0,
            &[
                ("alpha", 1.260921872901),
                ("bravo", 0.117491749586),
                ("charlie", 0.343482075143),
                ("delta", -0.571658793242),
                ("echo", -1.150236904387),
            ],
        ),
    ];

    #[test]
    fn a_system_that_never_wins_gets_a_finite_low_rating_with_the_prior() {
        let data: Vec<Comparison> = (0..5)
            .flat_map(|i| {
                let item = format!("m{i}");
                [
                    c(&item, "a", "b", Win),
                    c(&item, "a", "c", Win),
                    c(&item, "b", "c", Tie),
                    c(&item, "c", "z", Win),
                ]
            })
            .collect();
        let fit = bradley_terry(&data, &BtOptions::default()).unwrap();
        assert!(fit.converged);
        assert_eq!(fit.systems, ["a", "b", "c", "z"]);
        let r = fit.ratings();
        assert!(r.iter().all(|x| x.is_finite()));
        // a beats b and c; c ties b but beats z, so c > b; z never wins.
        assert!(r[0] > r[2] && r[2] > r[1] && r[1] > r[3], "{r:?}");
        assert!((fit.log_strengths.iter().sum::<f64>()).abs() < 1e-9);
        let no_prior = BtOptions {
            prior_ties: 0.0,
            ..BtOptions::default()
        };
        assert_eq!(bradley_terry(&data, &no_prior), None);
    }

    #[test]
    fn fewer_than_two_systems_have_no_fit() {
        assert_eq!(bradley_terry(&[], &BtOptions::default()), None);
        assert!(bradley_terry_rows(&[], &BtOptions::default(), 10, 1).is_empty());
    }

    #[test]
    fn the_fit_satisfies_the_likelihood_equations() {
        // Expected wins under the fit equal observed (plus virtual) wins for every system.
        let data = [
            c("1", "a", "b", Win),
            c("1", "a", "c", Loss),
            c("2", "b", "c", Win),
            c("2", "a", "b", Tie),
            c("3", "c", "a", Loss),
            c("3", "b", "c", Loss),
            c("4", "a", "c", Win),
        ];
        let opts = BtOptions::default();
        let fit = bradley_terry(&data, &opts).unwrap();
        let idx = |s: &str| fit.systems.iter().position(|x| x == s).unwrap();
        let p: Vec<f64> = fit.log_strengths.iter().map(|l| l.exp()).collect();
        let mut counts = Counts::new(3);
        for x in &data {
            counts.add(idx(&x.a), idx(&x.b), x.outcome, 1.0);
        }
        for i in 0..3 {
            let observed: f64 = counts.wins[i].iter().sum::<f64>() + opts.prior_ties;
            let expected: f64 = (0..3)
                .filter(|&j| j != i)
                .map(|j| (counts.games[i][j] + opts.prior_ties) * p[i] / (p[i] + p[j]))
                .sum();
            assert!(
                (observed - expected).abs() < 1e-8,
                "{i}: {observed} vs {expected}"
            );
        }
    }

    #[test]
    fn intervals_resample_memes_and_are_reproducible() {
        let mut data = Vec::new();
        for i in 0..30 {
            let item = format!("m{i:02}");
            let o = if i % 3 == 0 { Loss } else { Win };
            data.push(c(&item, "a", "b", o));
            data.push(c(&item, "b", "c", if i % 2 == 0 { Win } else { Tie }));
        }
        let rows = bradley_terry_rows(&data, &BtOptions::default(), 300, 5);
        let again = bradley_terry_rows(&data, &BtOptions::default(), 300, 5);
        assert_eq!(rows, again);
        assert_eq!(rows.len(), 3);
        for r in &rows {
            assert!(
                r.rating.ci_low < r.rating.value && r.rating.value < r.rating.ci_high,
                "{r:?}"
            );
        }
        assert!(rows[0].rating.value > rows[1].rating.value);
        assert!(rows[1].rating.value > rows[2].rating.value);
        let mean: f64 = rows.iter().map(|r| r.rating.value).sum::<f64>() / 3.0;
        assert!((mean - RATING_CENTER).abs() < 1e-9);
    }
}
