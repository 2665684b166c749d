//! The two CMPM tables that neither the per-model means nor the per-model win rates give: the
//! dimension means of each annotator (CMPM Table 7 reports the five-dimension mean per
//! annotator) and the pairwise win matrix of a ranking study (how often each model was ranked
//! above each other one, §5.3 / §6.5); [`CmpmTables`] also carries Table 8, the context
//! ablation (`context_ablation`). Pure; the server computes them once per state of a study's
//! judgements and the study page (owners only) shows them.

use super::board::{Judgement, JudgementValue};
use super::context_ablation::ContextAblation;
use super::dimensions::Dimension;
use super::ranking::{expand_rankings, Comparison, Ranking};
use super::thresholds::ExcludedRater;
use super::JudgementError;
use crate::metrics::PairOutcome;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// One cell of the per-annotator table: a mean on the 1–3 scale and how many judgements
/// (rating pages) it averages.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct RaterMean {
    /// The mean (1–3); `None` when the rater scored no page on it (context handling on memes
    /// without context).
    pub mean: Option<f64>,
    /// Rating pages behind the mean.
    pub n: usize,
}

/// One annotator's row of CMPM Table 7: the mean of each dimension and of Core4 over every
/// model's explanation the rater scored.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct RaterDimensionRow {
    /// Rater pseudonym (the same as the reliability rows and `raters.csv`).
    pub rater: String,
    /// Per-dimension means, in [`Dimension::ALL`] order.
    pub dimensions: Vec<RaterMean>,
    /// Mean Core4 ([`DimensionScores::core4`]) of the rater's pages.
    pub core4: RaterMean,
    /// The owner's reliability thresholds leave this rater out of every other table.
    pub threshold_excluded: bool,
}

/// A pair's record from the side of the row's model against the column's model.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct PairRecord {
    /// Rankings that placed both models.
    pub comparisons: usize,
    /// Of those, the row's model was ranked better.
    pub wins: usize,
    /// Equal ranks.
    pub ties: usize,
    /// The row's model was ranked worse.
    pub losses: usize,
    /// (wins + ties / 2) / comparisons, as the win-rate column counts ties; `None` for a pair
    /// never compared.
    pub win_rate: Option<f64>,
}

/// One model's row of the win matrix.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct WinMatrixRow {
    /// Model (submission) id of the row.
    pub system: String,
    /// Its record against each model of [`WinMatrix::systems`], in that order; `None` on the
    /// diagonal (a model against itself).
    pub cells: Vec<Option<PairRecord>>,
}

/// The pairwise win matrix of a ranking study: model × model, the diagonal empty.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct WinMatrix {
    /// The ranked models (submission ids), sorted: the order of rows and of columns.
    pub systems: Vec<String>,
    /// One row per model, in [`WinMatrix::systems`] order.
    pub rows: Vec<WinMatrixRow>,
}

/// The study page's CMPM tables beyond the per-model ones (both empty for an accuracy study).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct CmpmTables {
    /// CMPM Table 7 per annotator: one row per rater of the dimension pages, sorted by rater.
    #[serde(default)]
    pub per_rater: Vec<RaterDimensionRow>,
    /// The pairwise win matrix of the rankings; `None` without a ranking.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub win_matrix: Option<WinMatrix>,
    /// CMPM Table 8, the paired context ablation (`context_ablation::context_ablation`);
    /// `None` unless a model was judged with and without the comic's context on one comic.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub context_ablation: Option<ContextAblation>,
}

/// CMPM Table 7 per annotator: for each rater (sorted by pseudonym), the plain mean of each
/// dimension and of Core4 over the model explanations they scored, with the pages behind each
/// mean. Planted quality-check pages (no submission) and other judgements are skipped; context
/// handling averages the pages where it was scored. `excluded` are the raters the owner's
/// reliability thresholds leave out: pass the judgements *before* those thresholds, so that the
/// raters left out keep their row, marked. Errors on the first score outside 1–3.
///
/// Worked example: rater `a` scores model `m` 3 on every dimension on meme 1 (context 3) and 1 on
/// meme 2 (no context); rater `b`, left out by a threshold, scores 2 everywhere on meme 1 (no
/// context). `a`: every dimension (3 + 1) / 2 = 2 over 2 pages, context 3 over 1 page, Core4 2;
/// `b`: 2 over 1 page, context empty.
///
/// ```
/// use memeboard_core::human_eval::board::{Judgement, JudgementValue};
/// use memeboard_core::human_eval::cmpm_tables::rater_dimension_rows;
/// use memeboard_core::human_eval::dimensions::DimensionScores;
/// use memeboard_core::human_eval::thresholds::ExcludedRater;
/// let j = |rater: &str, meme: &str, v: u8, context: Option<u8>| Judgement {
///     rater: rater.into(), batch: "1".into(), item: format!("{rater}{meme}"), source_item: meme.into(),
///     category: "c".into(), submission: Some("m".into()),
///     value: JudgementValue::Dimensions { scores: DimensionScores {
///         visual_correctness: v, panel_coherence: v, humour_comprehension: v, context_handling: context, faithfulness: v }, errors: vec![] },
/// };
/// let data = [j("a", "1", 3, Some(3)), j("a", "2", 1, None), j("b", "1", 2, None)];
/// let excluded = [ExcludedRater { rater: "b".into(), failures: vec![] }];
/// let rows = rater_dimension_rows(&data, &excluded).unwrap();
/// assert_eq!((rows[0].rater.as_str(), rows[0].threshold_excluded), ("a", false));
/// assert_eq!((rows[0].dimensions[0].mean, rows[0].dimensions[0].n), (Some(2.0), 2));
/// assert_eq!((rows[0].dimensions[3].mean, rows[0].dimensions[3].n), (Some(3.0), 1)); // context
/// assert_eq!((rows[0].core4.mean, rows[0].core4.n), (Some(2.0), 2));
/// assert_eq!((rows[1].rater.as_str(), rows[1].threshold_excluded), ("b", true));
/// assert_eq!((rows[1].core4.mean, rows[1].dimensions[3].mean, rows[1].dimensions[3].n), (Some(2.0), None, 0));
/// ```
pub fn rater_dimension_rows(
    judgements: &[Judgement],
    excluded: &[ExcludedRater],
) -> Result<Vec<RaterDimensionRow>, JudgementError> {
    let excluded: BTreeSet<&str> = excluded.iter().map(|e| e.rater.as_str()).collect();
    // Per rater: (sum, count) of each dimension, then of Core4.
    let mut sums: BTreeMap<&str, [(f64, usize); 6]> = BTreeMap::new();
    for j in judgements {
        let (JudgementValue::Dimensions { scores, .. }, Some(model)) = (&j.value, &j.submission)
        else {
            continue;
        };
        scores.check(&j.rater, &j.source_item, model)?;
        let slot = sums.entry(j.rater.as_str()).or_default();
        for (k, d) in Dimension::ALL.into_iter().enumerate() {
            if let Some(v) = scores.get(d) {
                slot[k].0 += f64::from(v);
                slot[k].1 += 1;
            }
        }
        slot[5].0 += scores.core4();
        slot[5].1 += 1;
    }
    let mean = |(sum, n): (f64, usize)| RaterMean {
        mean: (n > 0).then(|| sum / n as f64),
        n,
    };
    Ok(sums
        .into_iter()
        .map(|(rater, s)| RaterDimensionRow {
            rater: rater.to_owned(),
            dimensions: s[..5].iter().copied().map(mean).collect(),
            core4: mean(s[5]),
            threshold_excluded: excluded.contains(rater),
        })
        .collect())
}

/// The pairwise win matrix of expanded rankings: for every ordered pair of models (row A,
/// column B), the comparisons of A and B, A's wins, ties and losses, and A's win rate against B,
/// (wins + ½ ties) / comparisons — the win-rate column's count restricted to the pair, so a
/// cell and its mirror sum to 1. Models sorted by id; the diagonal is `None`; a pair never
/// compared has a record of zeros and no win rate.
///
/// Worked example: A 1, B 2, C 2 on meme 1 and B 1, A 2 on meme 2. A vs B: one win, one loss,
/// 0.5; A vs C: one win, 1; B vs C: one tie, 0.5; C vs A: 0.
///
/// ```
/// use memeboard_core::human_eval::cmpm_tables::win_matrix;
/// use memeboard_core::human_eval::ranking::{expand_rankings, RankedEntry, Ranking};
/// let e = |system: &str, rank| RankedEntry { system: system.into(), rank };
/// let comparisons = expand_rankings(&[
///     Ranking { rater: "r".into(), item: "1".into(), entries: vec![e("A", 1), e("B", 2), e("C", 2)] },
///     Ranking { rater: "r".into(), item: "2".into(), entries: vec![e("B", 1), e("A", 2)] },
/// ]).unwrap();
/// let m = win_matrix(&comparisons);
/// assert_eq!(m.systems, ["A", "B", "C"]);
/// let rate = |row: usize, col: usize| m.rows[row].cells[col].unwrap().win_rate;
/// assert_eq!(m.rows[0].cells[0], None);
/// assert_eq!((rate(0, 1), rate(0, 2), rate(1, 2), rate(2, 0)), (Some(0.5), Some(1.0), Some(0.5), Some(0.0)));
/// let ab = m.rows[0].cells[1].unwrap();
/// assert_eq!((ab.comparisons, ab.wins, ab.ties, ab.losses), (2, 1, 0, 1));
/// ```
pub fn win_matrix(comparisons: &[Comparison]) -> WinMatrix {
    let systems: Vec<String> = comparisons
        .iter()
        .flat_map(|c| [c.a.clone(), c.b.clone()])
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    let index: BTreeMap<&str, usize> = systems
        .iter()
        .enumerate()
        .map(|(i, s)| (s.as_str(), i))
        .collect();
    let n = systems.len();
    // [row][column] = (wins, ties, losses) of row against column.
    let mut counts = vec![vec![(0usize, 0usize, 0usize); n]; n];
    for c in comparisons {
        let (a, b) = (index[c.a.as_str()], index[c.b.as_str()]);
        let (ab, ba) = match c.outcome {
            PairOutcome::Win => ((1, 0, 0), (0, 0, 1)),
            PairOutcome::Tie => ((0, 1, 0), (0, 1, 0)),
            PairOutcome::Loss => ((0, 0, 1), (1, 0, 0)),
        };
        for ((row, col), (w, t, l)) in [((a, b), ab), ((b, a), ba)] {
            let cell = &mut counts[row][col];
            cell.0 += w;
            cell.1 += t;
            cell.2 += l;
        }
    }
    let rows = systems
        .iter()
        .enumerate()
        .map(|(i, system)| WinMatrixRow {
            system: system.clone(),
            cells: counts[i]
                .iter()
                .enumerate()
                .map(|(j, &(wins, ties, losses))| {
                    let comparisons = wins + ties + losses;
                    (i != j).then(|| PairRecord {
                        comparisons,
                        wins,
                        ties,
                        losses,
                        win_rate: (comparisons > 0)
                            .then(|| (wins as f64 + ties as f64 / 2.0) / comparisons as f64),
                    })
                })
                .collect(),
        })
        .collect();
    WinMatrix { systems, rows }
}

/// The win matrix of a study's ranking judgements ([`win_matrix`] of their expansion), `None`
/// when it has no ranking. Pass the judgements every other table counts (after the owner's
/// thresholds), so that the matrix agrees with the win-rate and Bradley–Terry columns. Errors
/// on the first malformed ranking.
pub fn study_win_matrix(judgements: &[Judgement]) -> Result<Option<WinMatrix>, JudgementError> {
    let rankings: Vec<Ranking> = judgements
        .iter()
        .filter_map(|j| match &j.value {
            JudgementValue::Ranking { entries } => Some(Ranking {
                rater: j.rater.clone(),
                item: j.source_item.clone(),
                entries: entries.clone(),
            }),
            _ => None,
        })
        .collect();
    if rankings.is_empty() {
        return Ok(None);
    }
    Ok(Some(win_matrix(&expand_rankings(&rankings)?)))
}

#[cfg(test)]
mod tests;
