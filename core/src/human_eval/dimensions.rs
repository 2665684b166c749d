//! CMPM dimension ratings: a rater, blind to the model, scores one explanation of a
//! multi-panel meme on five 1–3 dimensions; this module gives Core4 and per-dimension means
//! per model with intervals, and Krippendorff's ordinal alpha per dimension.

use super::correlation::SegmentScore;
use super::{sorted_index, JudgementError};
use crate::stats::{item_bootstrap_many, krippendorff_alpha, AlphaLevel, Estimate};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Lowest score of a dimension.
pub const MIN_SCORE: u8 = 1;
/// Highest score of a dimension.
pub const MAX_SCORE: u8 = 3;

/// One rated aspect of a multi-panel explanation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Dimension {
    /// Does it describe what the panels show correctly?
    VisualCorrectness,
    /// Does it connect the panels in the right order into one story?
    PanelCoherence,
    /// Does it get the joke?
    HumourComprehension,
    /// Does it use the title, caption and comments well (items with context only)?
    ContextHandling,
    /// Does it avoid inventing things that are not there?
    Faithfulness,
}

impl Dimension {
    /// Every dimension, in page order.
    pub const ALL: [Dimension; 5] = [
        Dimension::VisualCorrectness,
        Dimension::PanelCoherence,
        Dimension::HumourComprehension,
        Dimension::ContextHandling,
        Dimension::Faithfulness,
    ];

    /// The four dimensions Core4 averages (context handling is left out: not every meme has
    /// context).
    pub const CORE4: [Dimension; 4] = [
        Dimension::VisualCorrectness,
        Dimension::PanelCoherence,
        Dimension::HumourComprehension,
        Dimension::Faithfulness,
    ];

    /// The wire name (as serialised), for error messages and table keys.
    pub fn key(self) -> &'static str {
        match self {
            Dimension::VisualCorrectness => "visual_correctness",
            Dimension::PanelCoherence => "panel_coherence",
            Dimension::HumourComprehension => "humour_comprehension",
            Dimension::ContextHandling => "context_handling",
            Dimension::Faithfulness => "faithfulness",
        }
    }
}

/// The five scores of one rating page, each 1–3; context handling is `None` when the meme has
/// no text context (or the rater marked it not applicable).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct DimensionScores {
    /// Visual correctness.
    pub visual_correctness: u8,
    /// Panel coherence.
    pub panel_coherence: u8,
    /// Humour comprehension.
    pub humour_comprehension: u8,
    /// Context handling, if applicable.
    pub context_handling: Option<u8>,
    /// Faithfulness.
    pub faithfulness: u8,
}

impl DimensionScores {
    /// The score on `dimension`, if given.
    pub fn get(&self, dimension: Dimension) -> Option<u8> {
        match dimension {
            Dimension::VisualCorrectness => Some(self.visual_correctness),
            Dimension::PanelCoherence => Some(self.panel_coherence),
            Dimension::HumourComprehension => Some(self.humour_comprehension),
            Dimension::ContextHandling => self.context_handling,
            Dimension::Faithfulness => Some(self.faithfulness),
        }
    }

    /// The first dimension whose score is outside 1–3, with that score.
    pub fn out_of_range(&self) -> Option<(Dimension, u8)> {
        Dimension::ALL.into_iter().find_map(|d| {
            self.get(d)
                .filter(|v| !(MIN_SCORE..=MAX_SCORE).contains(v))
                .map(|v| (d, v))
        })
    }

    /// `Ok` when every score is within 1–3; else the first one outside, as the error that
    /// names the rater, the item and the model (`model`: a name or a submission id) of the
    /// page, so the tables can point at the bad record.
    pub fn check(&self, rater: &str, item: &str, model: &str) -> Result<(), JudgementError> {
        match self.out_of_range() {
            Some((d, value)) => Err(JudgementError::ScoreOutOfRange {
                rater: rater.to_owned(),
                item: item.to_owned(),
                model: model.to_owned(),
                dimension: d.key(),
                value,
            }),
            None => Ok(()),
        }
    }

    /// Core4: the mean of visual correctness, panel coherence, humour comprehension and
    /// faithfulness (context handling excluded), on the same 1–3 scale.
    ///
    /// Worked example: visual 3, panel 2, humour 1, context 3, faithfulness 2 gives
    /// (3 + 2 + 1 + 2) / 4 = 2.
    ///
    /// ```
    /// use memeboard_core::human_eval::dimensions::DimensionScores;
    /// let s = DimensionScores { visual_correctness: 3, panel_coherence: 2, humour_comprehension: 1, context_handling: Some(3), faithfulness: 2 };
    /// assert_eq!(s.core4(), 2.0);
    /// ```
    pub fn core4(&self) -> f64 {
        let sum: u32 = [
            self.visual_correctness,
            self.panel_coherence,
            self.humour_comprehension,
            self.faithfulness,
        ]
        .iter()
        .map(|&v| u32::from(v))
        .sum();
        f64::from(sum) / 4.0
    }
}

/// One rater's scores for one model's explanation of one item.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct DimensionRating {
    /// Anonymous rater id.
    pub rater: String,
    /// Item (meme) id: the bootstrap unit.
    pub item: String,
    /// Model (submission) whose explanation was rated.
    pub model: String,
    /// The five scores.
    pub scores: DimensionScores,
}

fn validate(ratings: &[DimensionRating]) -> Result<(), JudgementError> {
    ratings
        .iter()
        .try_for_each(|r| r.scores.check(&r.rater, &r.item, &r.model))
}

/// A model's mean on one dimension.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct DimensionMean {
    /// The dimension.
    pub dimension: Dimension,
    /// Mean score (1–3) with its interval; `None` when no rating scored it.
    pub mean: Option<Estimate>,
}

/// One model's human-judged row: Core4 and every dimension's mean, with intervals.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct DimensionRow {
    /// Model (submission) id.
    pub model: String,
    /// Distinct items rated.
    pub items: usize,
    /// Ratings (pages) given.
    pub ratings: usize,
    /// Mean Core4 (1–3) with its item-bootstrap interval.
    pub core4: Estimate,
    /// Per-dimension means, in [`Dimension::ALL`] order.
    pub dimensions: Vec<DimensionMean>,
}

/// Core4 and per-dimension means per model (sorted by model), each with an item-bootstrap 95%
/// interval.
///
/// Each rating's Core4 is [`DimensionScores::core4`]. A model's value is the mean over its
/// items of the item's mean over raters, so a meme rated by more people does not weigh more.
/// Dimensions work the same way over the items where the dimension was scored (context only
/// where applicable). The bootstrap resamples the model's items with replacement. Errors on
/// the first score outside 1–3.
///
/// Worked example: model `m`, item 1 rated Core4 3 and 2 (item mean 2.5), item 2 rated Core4 1;
/// the model's Core4 is (2.5 + 1) / 2 = 1.75.
///
/// ```
/// use memeboard_core::human_eval::dimensions::{dimension_rows, Dimension, DimensionRating, DimensionScores};
/// let s = |v: u8| DimensionScores { visual_correctness: v, panel_coherence: v, humour_comprehension: v, context_handling: None, faithfulness: v };
/// let r = |rater: &str, item: &str, v| DimensionRating { rater: rater.into(), item: item.into(), model: "m".into(), scores: s(v) };
/// let rows = dimension_rows(&[r("a", "1", 3), r("b", "1", 2), r("a", "2", 1)], 1000, 1).unwrap();
/// assert_eq!((rows[0].items, rows[0].ratings), (2, 3));
/// assert_eq!(rows[0].core4.value, 1.75);
/// assert_eq!((rows[0].core4.ci_low, rows[0].core4.ci_high), (1.0, 2.5));
/// assert_eq!(rows[0].dimensions[3].dimension, Dimension::ContextHandling);
/// assert_eq!(rows[0].dimensions[3].mean, None);
/// ```
pub fn dimension_rows(
    ratings: &[DimensionRating],
    resamples: usize,
    seed: u64,
) -> Result<Vec<DimensionRow>, JudgementError> {
    validate(ratings)?;
    let mut models: BTreeMap<&str, Vec<&DimensionRating>> = BTreeMap::new();
    for r in ratings {
        models.entry(r.model.as_str()).or_default().push(r);
    }
    let rows = models
        .into_iter()
        .filter_map(|(model, rs)| {
            let items = sorted_index(rs.iter().map(|r| r.item.as_str()));
            // Per item: (sum, count) of Core4, then of each dimension.
            let mut sums = vec![[(0.0f64, 0u32); 6]; items.len()];
            for r in &rs {
                let slot = &mut sums[items[r.item.as_str()]];
                slot[0].0 += r.scores.core4();
                slot[0].1 += 1;
                for (k, d) in Dimension::ALL.into_iter().enumerate() {
                    if let Some(v) = r.scores.get(d) {
                        slot[k + 1].0 += f64::from(v);
                        slot[k + 1].1 += 1;
                    }
                }
            }
            let estimates = item_bootstrap_many(items.len(), resamples, seed, |w| {
                (0..6)
                    .map(|k| {
                        let (mut num, mut den) = (0.0, 0.0);
                        for (&w, item) in w.iter().zip(&sums) {
                            let (s, n) = item[k];
                            if n > 0 {
                                num += f64::from(w) * s / f64::from(n);
                                den += f64::from(w);
                            }
                        }
                        (den > 0.0).then(|| num / den)
                    })
                    .collect()
            });
            Some(DimensionRow {
                model: model.to_owned(),
                items: items.len(),
                ratings: rs.len(),
                core4: estimates[0]?,
                dimensions: Dimension::ALL
                    .into_iter()
                    .zip(&estimates[1..])
                    .map(|(dimension, &mean)| DimensionMean { dimension, mean })
                    .collect(),
            })
        })
        .collect();
    Ok(rows)
}

/// Krippendorff's alpha of one dimension, so the study page shows how consistently people
/// score each aspect (≈ 0.48 ordinal in the CMPM paper).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct DimensionAgreement {
    /// The dimension.
    pub dimension: Dimension,
    /// Ordinal alpha, `None` when not computable (one value overall, nothing pairable).
    pub krippendorff_alpha: Option<f64>,
    /// Explanations (item × model) scored on the dimension.
    pub units: usize,
    /// Scores given on the dimension.
    pub ratings: usize,
}

/// Krippendorff's ordinal alpha per dimension, in [`Dimension::ALL`] order.
///
/// The unit is one explanation (item × model) and its values are every rater's score on the
/// dimension ([`krippendorff_alpha`] with [`AlphaLevel::Ordinal`]; units with one score are not
/// pairable and drop out). Errors on the first score outside 1–3.
///
/// Worked example: two raters, three explanations scored (3, 3), (1, 1), (2, 3) on visual
/// correctness. The coincidences give n = 6, n₁ = 2, n₂ = 1, n₃ = 3; the ordinal distances
/// are δ²(1,2) = (2 + 1 − 1.5)² = 2.25, δ²(2,3) = (1 + 3 − 2)² = 4, δ²(1,3) = (6 − 2.5)² = 12.25;
/// observed disagreement 2 · 4 = 8, expected 2 · (2·1·2.25 + 2·3·12.25 + 1·3·4) = 180, so
/// α = 1 − 5 · 8 / 180 = 7/9 ≈ 0.778.
///
/// ```
/// use memeboard_core::human_eval::dimensions::{dimension_agreement, Dimension, DimensionRating, DimensionScores};
/// let r = |rater: &str, model: &str, v: u8| DimensionRating {
///     rater: rater.into(), item: "1".into(), model: model.into(),
///     scores: DimensionScores { visual_correctness: v, panel_coherence: 2, humour_comprehension: 2, context_handling: None, faithfulness: 2 },
/// };
/// let rows = dimension_agreement(&[r("a", "x", 3), r("b", "x", 3), r("a", "y", 1), r("b", "y", 1), r("a", "z", 2), r("b", "z", 3)]).unwrap();
/// assert_eq!(rows[0].dimension, Dimension::VisualCorrectness);
/// assert_eq!((rows[0].units, rows[0].ratings), (3, 6));
/// assert!((rows[0].krippendorff_alpha.unwrap() - 7.0 / 9.0).abs() < 1e-12);
/// assert_eq!(rows[1].krippendorff_alpha, None); // everyone gave 2
/// assert_eq!(rows[3].ratings, 0); // no context
/// ```
pub fn dimension_agreement(
    ratings: &[DimensionRating],
) -> Result<Vec<DimensionAgreement>, JudgementError> {
    validate(ratings)?;
    Ok(Dimension::ALL
        .into_iter()
        .map(|d| {
            let mut units: BTreeMap<(&str, &str), Vec<Option<f64>>> = BTreeMap::new();
            let mut count = 0;
            for r in ratings {
                if let Some(v) = r.scores.get(d) {
                    units
                        .entry((r.item.as_str(), r.model.as_str()))
                        .or_default()
                        .push(Some(f64::from(v)));
                    count += 1;
                }
            }
            let units: Vec<Vec<Option<f64>>> = units.into_values().collect();
            DimensionAgreement {
                dimension: d,
                krippendorff_alpha: krippendorff_alpha(&units, AlphaLevel::Ordinal),
                units: units.len(),
                ratings: count,
            }
        })
        .collect())
}

/// The human side of the metric-validity panel for CMPM: one [`SegmentScore`] per explanation
/// (item × model) whose `human` is its mean Core4 over raters and whose `metric` is
/// `metric(item, model)`; explanations the metric has no score for are skipped. Sorted by
/// (item, model). Errors on the first score outside 1–3.
///
/// ```
/// use memeboard_core::human_eval::dimensions::{core4_segments, DimensionRating, DimensionScores};
/// let s = |v: u8| DimensionScores { visual_correctness: v, panel_coherence: v, humour_comprehension: v, context_handling: None, faithfulness: v };
/// let r = |rater: &str, v| DimensionRating { rater: rater.into(), item: "1".into(), model: "m".into(), scores: s(v) };
/// let segs = core4_segments(&[r("a", 3), r("b", 2)], |_, _| Some(0.9)).unwrap();
/// assert_eq!((segs[0].human, segs[0].metric), (2.5, 0.9));
/// ```
pub fn core4_segments(
    ratings: &[DimensionRating],
    metric: impl Fn(&str, &str) -> Option<f64>,
) -> Result<Vec<SegmentScore>, JudgementError> {
    validate(ratings)?;
    let scores = ratings
        .iter()
        .map(|r| (r.item.as_str(), r.model.as_str(), r.scores.core4()));
    Ok(super::correlation::mean_segments(scores, metric))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scores(v: [u8; 4], context: Option<u8>) -> DimensionScores {
        DimensionScores {
            visual_correctness: v[0],
            panel_coherence: v[1],
            humour_comprehension: v[2],
            context_handling: context,
            faithfulness: v[3],
        }
    }

    fn rating(rater: &str, item: &str, model: &str, s: DimensionScores) -> DimensionRating {
        DimensionRating {
            rater: rater.into(),
            item: item.into(),
            model: model.into(),
            scores: s,
        }
    }

    #[test]
    fn core4_leaves_context_out() {
        assert_eq!(scores([1, 1, 1, 1], Some(3)).core4(), 1.0);
        assert_eq!(scores([3, 3, 2, 2], None).core4(), 2.5);
        assert_eq!(scores([3, 1, 2, 3], Some(1)).core4(), 2.25);
    }

    #[test]
    fn per_dimension_means_average_items_first_and_skip_missing_context() {
        let data = [
            rating("a", "1", "m", scores([3, 2, 1, 3], Some(3))),
            rating("b", "1", "m", scores([1, 2, 1, 3], Some(1))),
            rating("a", "2", "m", scores([2, 2, 2, 2], None)),
            rating("a", "1", "n", scores([1, 1, 1, 1], None)),
        ];
        let rows = dimension_rows(&data, 100, 1).unwrap();
        assert_eq!(rows.len(), 2);
        let m = &rows[0];
        assert_eq!(m.model, "m");
        // Core4: item 1 = (2.25 + 1.75) / 2 = 2, item 2 = 2.
        assert_eq!(m.core4.value, 2.0);
        let mean = |d: Dimension| m.dimensions[d as usize].mean.unwrap().value;
        assert_eq!(mean(Dimension::VisualCorrectness), 2.0); // (2 + 2) / 2
        assert_eq!(mean(Dimension::HumourComprehension), 1.5); // (1 + 2) / 2
        assert_eq!(mean(Dimension::Faithfulness), 2.5); // (3 + 2) / 2
        assert_eq!(mean(Dimension::ContextHandling), 2.0); // item 1 only
        assert_eq!(rows[1].core4.value, 1.0);
    }

    #[test]
    fn out_of_range_scores_are_rejected_with_the_record_named() {
        let data = [rating("r7", "meme-3", "m", scores([3, 4, 1, 1], None))];
        let err = dimension_rows(&data, 10, 1).unwrap_err();
        assert_eq!(
            err.to_string(),
            "rater r7 gave m on item meme-3 a panel_coherence score of 4; expected 1, 2 or 3"
        );
        let zero_context = [rating("r7", "meme-3", "m", scores([3, 3, 1, 1], Some(0)))];
        assert!(matches!(
            dimension_agreement(&zero_context),
            Err(JudgementError::ScoreOutOfRange {
                dimension: "context_handling",
                value: 0,
                ..
            })
        ));
    }

    #[test]
    fn perfect_agreement_gives_alpha_one_per_dimension() {
        let mut data = Vec::new();
        for (item, v) in [("1", 1u8), ("2", 2), ("3", 3)] {
            for rater in ["a", "b", "c"] {
                data.push(rating(rater, item, "m", scores([v; 4], Some(v))));
            }
        }
        let rows = dimension_agreement(&data).unwrap();
        assert_eq!(rows.len(), 5);
        for row in rows {
            assert!((row.krippendorff_alpha.unwrap() - 1.0).abs() < 1e-12);
            assert_eq!((row.units, row.ratings), (3, 9));
        }
    }

    #[test]
    fn serde_uses_the_dimension_keys() {
        for d in Dimension::ALL {
            assert_eq!(
                serde_json::to_value(d).unwrap(),
                serde_json::Value::String(d.key().into())
            );
        }
    }
}
