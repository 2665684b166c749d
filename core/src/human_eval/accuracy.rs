//! CHIME accuracy ratings: a rater who has read the reference meaning, origin and examples
//! says Disagree / Neutral / Agree to the study's statement on a model's meaning, origin and
//! example (`statements`); this module turns those verdicts into % agree / neutral / disagree rows with
//! intervals and into Fleiss' kappa per batch.

use super::correlation::SegmentScore;
use crate::stats::modal_fleiss_kappa;
use crate::stats::{item_bootstrap_many, Estimate};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// A three-point accuracy verdict, in scale order (so it sorts Disagree < Neutral < Agree).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Verdict3 {
    /// "This is accurate": disagree.
    Disagree,
    /// Neither agree nor disagree.
    Neutral,
    /// "This is accurate": agree.
    Agree,
}

impl Verdict3 {
    /// Every verdict in scale order.
    pub const ALL: [Verdict3; 3] = [Verdict3::Disagree, Verdict3::Neutral, Verdict3::Agree];

    /// Position on the scale (0, 1, 2): the category index of Fleiss' kappa.
    pub fn index(self) -> usize {
        self as usize
    }

    /// A numeric score for correlating verdicts with automatic metrics: Disagree 0,
    /// Neutral 0.5, Agree 1.
    ///
    /// ```
    /// use memeboard_core::human_eval::accuracy::Verdict3;
    /// assert_eq!(Verdict3::Neutral.score(), 0.5);
    /// ```
    pub fn score(self) -> f64 {
        self as usize as f64 / 2.0
    }
}

/// The part of an explanation a verdict is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum ExplanationField {
    /// What the meme means.
    Meaning,
    /// Where it comes from.
    Origin,
    /// An example sentence using it.
    Example,
}

/// One verdict of one rater on one field of one model's explanation of one meme.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct AccuracyRating {
    /// Anonymous rater id.
    pub rater: String,
    /// Batch id: the items rated by one fixed set of raters (agreement is per batch).
    pub batch: String,
    /// Item (meme) id: the bootstrap unit.
    pub item: String,
    /// The meme's category (type), for per-type rows.
    pub category: String,
    /// Model (submission) whose explanation was rated.
    pub model: String,
    /// Field rated.
    pub field: ExplanationField,
    /// The verdict.
    pub verdict: Verdict3,
}

/// Verdict shares of one model over one group of ratings, so a board can show "% agree" with
/// its interval and the study page the full agree / neutral / disagree split.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct AccuracyRow {
    /// Model (submission) id.
    pub model: String,
    /// Field, or `None` for all fields pooled.
    pub field: Option<ExplanationField>,
    /// Category, or `None` for all categories pooled.
    pub category: Option<String>,
    /// Distinct items rated in this group.
    pub items: usize,
    /// Verdicts in this group.
    pub ratings: usize,
    /// Share of Agree verdicts.
    pub agree: Estimate,
    /// Share of Neutral verdicts.
    pub neutral: Estimate,
    /// Share of Disagree verdicts.
    pub disagree: Estimate,
}

type RowKey<'a> = (&'a str, Option<ExplanationField>, Option<&'a str>);

/// Agree / neutral / disagree shares per model, overall, per field, per category and per
/// field × category, each with an item-bootstrap 95% interval.
///
/// A share is verdicts of that kind / all verdicts of the group (every rater's verdict counts
/// once). The bootstrap resamples the group's items (memes) with replacement, a drawn item
/// bringing all its verdicts; the three shares of a row come from the same rounds. Rows are
/// sorted by model, then field (`None` = all first, then meaning, origin, example), then
/// category (`None` = all first, then by name).
///
/// Worked example: model `m` on two memes; meme 1 gets Agree, Agree, Neutral on its meaning,
/// meme 2 gets Disagree on its meaning. Overall: agree 2/4 = 0.5, neutral 0.25, disagree 0.25.
///
/// ```
/// use memeboard_core::human_eval::accuracy::{accuracy_rows, AccuracyRating, ExplanationField, Verdict3};
/// use memeboard_core::human_eval::{HUMAN_EVAL_RESAMPLES, HUMAN_EVAL_SEED};
/// let r = |rater: &str, item: &str, verdict| AccuracyRating {
///     rater: rater.into(), batch: "b1".into(), item: item.into(), category: "pun".into(),
///     model: "m".into(), field: ExplanationField::Meaning, verdict,
/// };
/// let data = [r("a", "1", Verdict3::Agree), r("b", "1", Verdict3::Agree), r("c", "1", Verdict3::Neutral), r("a", "2", Verdict3::Disagree)];
/// let rows = accuracy_rows(&data, HUMAN_EVAL_RESAMPLES, HUMAN_EVAL_SEED);
/// // all/all, all/pun, meaning/all, meaning/pun
/// assert_eq!(rows.len(), 4);
/// let all = &rows[0];
/// assert_eq!((all.field, all.category.as_deref(), all.items, all.ratings), (None, None, 2, 4));
/// assert_eq!((all.agree.value, all.neutral.value, all.disagree.value), (0.5, 0.25, 0.25));
/// // Resampling meme 2 twice gives 0 agree; meme 1 twice gives 2/3.
/// assert_eq!((all.agree.ci_low, all.agree.ci_high), (0.0, 2.0 / 3.0));
/// ```
pub fn accuracy_rows(ratings: &[AccuracyRating], resamples: usize, seed: u64) -> Vec<AccuracyRow> {
    let mut groups: BTreeMap<RowKey, BTreeMap<&str, [u32; 3]>> = BTreeMap::new();
    for r in ratings {
        let m = r.model.as_str();
        let c = r.category.as_str();
        for key in [
            (m, None, None),
            (m, None, Some(c)),
            (m, Some(r.field), None),
            (m, Some(r.field), Some(c)),
        ] {
            groups
                .entry(key)
                .or_default()
                .entry(r.item.as_str())
                .or_default()[r.verdict.index()] += 1;
        }
    }
    groups
        .into_iter()
        .filter_map(|((model, field, category), per_item)| {
            let counts: Vec<[u32; 3]> = per_item.into_values().collect();
            let shares = item_bootstrap_many(counts.len(), resamples, seed, |w| {
                let mut sums = [0.0f64; 3];
                for (&w, c) in w.iter().zip(&counts) {
                    for k in 0..3 {
                        sums[k] += f64::from(w) * f64::from(c[k]);
                    }
                }
                let total: f64 = sums.iter().sum();
                sums.iter()
                    .map(|&s| (total > 0.0).then(|| s / total))
                    .collect()
            });
            let [disagree, neutral, agree] = [shares[0]?, shares[1]?, shares[2]?];
            Some(AccuracyRow {
                model: model.to_owned(),
                field,
                category: category.map(str::to_owned),
                items: counts.len(),
                ratings: counts.iter().flatten().map(|&c| c as usize).sum(),
                agree,
                neutral,
                disagree,
            })
        })
        .collect()
}

/// Fleiss' kappa of one batch, so the study page can show agreement per batch as the CHIME
/// paper does (0.27–0.74, mean 0.44 there).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct BatchAgreement {
    /// Batch id.
    pub batch: String,
    /// Distinct raters in the batch.
    pub raters: usize,
    /// Distinct subjects (item × model × field) rated in the batch.
    pub subjects: usize,
    /// Fleiss' kappa over the subjects rated by the batch's most common number (≥ 2) of
    /// raters; `None` when no subject has two verdicts or every verdict is the same.
    pub fleiss_kappa: Option<f64>,
}

/// Fleiss' kappa per batch (sorted by batch id), over every subject of the batch.
///
/// A subject is one field of one model's explanation of one item; its verdicts are the
/// categories (3). All fields and models of a batch are pooled, as in the CHIME paper. Kappa
/// needs the same number of raters per subject, so subjects rated by another number than the
/// batch's most common one (ties go to the larger number) are left out of kappa — after
/// exclusions a batch can lose a rater on some subjects only.
///
/// Worked example: one batch, two raters, three subjects rated (A, A), (D, D), (A, N).
/// P̄ = (1 + 1 + 0) / 3 = 2/3; the category shares are D 2/6, N 1/6, A 3/6, so
/// P̄e = (4 + 1 + 9) / 36 = 7/18 and κ = (2/3 − 7/18) / (1 − 7/18) = 5/11.
///
/// ```
/// use memeboard_core::human_eval::accuracy::{batch_agreement, AccuracyRating, ExplanationField, Verdict3::*};
/// let r = |rater: &str, item: &str, verdict| AccuracyRating {
///     rater: rater.into(), batch: "b1".into(), item: item.into(), category: "pun".into(),
///     model: "m".into(), field: ExplanationField::Meaning, verdict,
/// };
/// let data = [r("a", "1", Agree), r("b", "1", Agree), r("a", "2", Disagree), r("b", "2", Disagree), r("a", "3", Agree), r("b", "3", Neutral)];
/// let rows = batch_agreement(&data);
/// assert_eq!((rows[0].raters, rows[0].subjects), (2, 3));
/// assert!((rows[0].fleiss_kappa.unwrap() - 5.0 / 11.0).abs() < 1e-12);
/// ```
pub fn batch_agreement(ratings: &[AccuracyRating]) -> Vec<BatchAgreement> {
    /// Verdict indices per (item, model, field) subject, and the batch's raters.
    #[derive(Default)]
    struct Batch<'a> {
        subjects: BTreeMap<(&'a str, &'a str, ExplanationField), Vec<f64>>,
        raters: BTreeSet<&'a str>,
    }
    let mut batches: BTreeMap<&str, Batch> = BTreeMap::new();
    for r in ratings {
        let b = batches.entry(r.batch.as_str()).or_default();
        b.subjects
            .entry((r.item.as_str(), r.model.as_str(), r.field))
            .or_default()
            .push(r.verdict.index() as f64);
        b.raters.insert(r.rater.as_str());
    }
    batches
        .into_iter()
        .map(|(batch, b)| BatchAgreement {
            batch: batch.to_owned(),
            raters: b.raters.len(),
            subjects: b.subjects.len(),
            fleiss_kappa: modal_fleiss_kappa(&b.subjects, Verdict3::ALL.len()),
        })
        .collect()
}

/// The range and mean of the batches' kappas, the summary the CHIME paper reports.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct KappaSummary {
    /// Batches with a kappa.
    pub batches: usize,
    /// Smallest kappa.
    pub min: f64,
    /// Mean kappa (unweighted over batches).
    pub mean: f64,
    /// Largest kappa.
    pub max: f64,
}

/// Min, mean and max of the batches' kappas (batches without one are skipped); `None` when no
/// batch has a kappa.
///
/// ```
/// use memeboard_core::human_eval::accuracy::{kappa_summary, BatchAgreement};
/// let b = |k| BatchAgreement { batch: "b".into(), raters: 3, subjects: 60, fleiss_kappa: k };
/// let s = kappa_summary(&[b(Some(0.27)), b(None), b(Some(0.74)), b(Some(0.31))]).unwrap();
/// assert_eq!((s.batches, s.min, s.max), (3, 0.27, 0.74));
/// assert!((s.mean - 0.44).abs() < 1e-12);
/// ```
pub fn kappa_summary(rows: &[BatchAgreement]) -> Option<KappaSummary> {
    let kappas: Vec<f64> = rows.iter().filter_map(|r| r.fleiss_kappa).collect();
    let first = *kappas.first()?;
    Some(KappaSummary {
        batches: kappas.len(),
        min: kappas.iter().copied().fold(first, f64::min),
        mean: kappas.iter().sum::<f64>() / kappas.len() as f64,
        max: kappas.iter().copied().fold(first, f64::max),
    })
}

/// The human side of the metric-validity panel for CHIME: one [`SegmentScore`] per explanation
/// (item × model) with verdicts on `field`, whose `human` is the mean [`Verdict3::score`] over
/// its raters (Disagree 0, Neutral ½, Agree 1) and whose `metric` is `metric(item, model)`;
/// explanations the metric has no score for are skipped. Sorted by (item, model), ready for
/// [`metric_validity`](super::correlation::metric_validity).
///
/// ```
/// use memeboard_core::human_eval::accuracy::{verdict_segments, AccuracyRating, ExplanationField::*, Verdict3::*};
/// let r = |rater: &str, model: &str, field, verdict| AccuracyRating {
///     rater: rater.into(), batch: "b".into(), item: "1".into(), category: "pun".into(), model: model.into(), field, verdict,
/// };
/// let data = [r("a", "m", Meaning, Agree), r("b", "m", Meaning, Neutral), r("a", "m", Origin, Disagree), r("a", "n", Meaning, Agree)];
/// let segs = verdict_segments(&data, Meaning, |_, model| (model == "m").then_some(0.8));
/// assert_eq!(segs.len(), 1); // n has no metric score
/// assert_eq!((segs[0].human, segs[0].metric), (0.75, 0.8));
/// ```
pub fn verdict_segments(
    ratings: &[AccuracyRating],
    field: ExplanationField,
    metric: impl Fn(&str, &str) -> Option<f64>,
) -> Vec<SegmentScore> {
    let scores = ratings
        .iter()
        .filter(|r| r.field == field)
        .map(|r| (r.item.as_str(), r.model.as_str(), r.verdict.score()));
    super::correlation::mean_segments(scores, metric)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::human_eval::{HUMAN_EVAL_RESAMPLES, HUMAN_EVAL_SEED};

    fn rating(
        rater: &str,
        item: &str,
        category: &str,
        model: &str,
        field: ExplanationField,
        verdict: Verdict3,
    ) -> AccuracyRating {
        AccuracyRating {
            rater: rater.into(),
            batch: format!("batch-{}", item.len()),
            item: item.into(),
            category: category.into(),
            model: model.into(),
            field,
            verdict,
        }
    }

    fn sample() -> Vec<AccuracyRating> {
        use ExplanationField::*;
        use Verdict3::*;
        let mut v = Vec::new();
        for (i, item) in ["m1", "m2", "m3", "m4"].iter().enumerate() {
            let category = if i < 2 { "pun" } else { "slang" };
            for rater in ["a", "b", "c"] {
                v.push(rating(rater, item, category, "x", Meaning, Agree));
                v.push(rating(rater, item, category, "x", Origin, Neutral));
                let verdict = if rater == "a" { Disagree } else { Agree };
                v.push(rating(rater, item, category, "y", Meaning, verdict));
            }
        }
        v
    }

    #[test]
    fn rows_cover_every_model_field_and_category_combination_in_order() {
        let rows = accuracy_rows(&sample(), 200, 1);
        let keys: Vec<_> = rows
            .iter()
            .map(|r| (r.model.as_str(), r.field, r.category.as_deref()))
            .collect();
        use ExplanationField::*;
        assert_eq!(
            keys,
            vec![
                ("x", None, None),
                ("x", None, Some("pun")),
                ("x", None, Some("slang")),
                ("x", Some(Meaning), None),
                ("x", Some(Meaning), Some("pun")),
                ("x", Some(Meaning), Some("slang")),
                ("x", Some(Origin), None),
                ("x", Some(Origin), Some("pun")),
                ("x", Some(Origin), Some("slang")),
                ("y", None, None),
                ("y", None, Some("pun")),
                ("y", None, Some("slang")),
                ("y", Some(Meaning), None),
                ("y", Some(Meaning), Some("pun")),
                ("y", Some(Meaning), Some("slang")),
            ]
        );
        let x_all = &rows[0];
        assert_eq!((x_all.items, x_all.ratings), (4, 24));
        assert_eq!((x_all.agree.value, x_all.neutral.value), (0.5, 0.5));
        // Every item has the same split, so resampling items cannot move it.
        assert_eq!((x_all.agree.ci_low, x_all.agree.ci_high), (0.5, 0.5));
        let y_meaning = &rows[12];
        assert!((y_meaning.agree.value - 2.0 / 3.0).abs() < 1e-12);
        assert!((y_meaning.disagree.value - 1.0 / 3.0).abs() < 1e-12);
    }

    #[test]
    fn shares_sum_to_one_and_do_not_depend_on_input_order() {
        let data = sample();
        let mut reversed = data.clone();
        reversed.reverse();
        let a = accuracy_rows(&data, HUMAN_EVAL_RESAMPLES, HUMAN_EVAL_SEED);
        let b = accuracy_rows(&reversed, HUMAN_EVAL_RESAMPLES, HUMAN_EVAL_SEED);
        assert_eq!(a, b);
        for r in &a {
            let sum = r.agree.value + r.neutral.value + r.disagree.value;
            assert!((sum - 1.0).abs() < 1e-12, "{r:?}");
        }
    }

    #[test]
    fn a_batch_in_full_agreement_has_kappa_one_and_summary_skips_undefined_batches() {
        use ExplanationField::*;
        use Verdict3::*;
        let mut data = Vec::new();
        for rater in ["a", "b", "c"] {
            data.push(rating(rater, "m1", "pun", "x", Meaning, Agree));
            data.push(rating(rater, "m2", "pun", "x", Meaning, Disagree));
            // A batch where everyone says Agree: no variation, kappa undefined.
            data.push(rating(rater, "m100", "pun", "x", Meaning, Agree));
        }
        let rows = batch_agreement(&data);
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[0].batch, "batch-2");
        assert!((rows[0].fleiss_kappa.unwrap() - 1.0).abs() < 1e-12);
        assert_eq!(rows[1].fleiss_kappa, None);
        let s = kappa_summary(&rows).unwrap();
        assert_eq!(s.batches, 1);
        assert_eq!(kappa_summary(&rows[1..]), None);
    }

    #[test]
    fn subjects_missing_a_rater_are_left_out_of_kappa() {
        use ExplanationField::*;
        use Verdict3::*;
        let mut data = Vec::new();
        for rater in ["a", "b"] {
            data.push(rating(rater, "m1", "pun", "x", Meaning, Agree));
            data.push(rating(rater, "m2", "pun", "x", Meaning, Disagree));
        }
        // Only one verdict on m3: not pairable, so kappa stays 1.
        data.push(rating("a", "m3", "pun", "x", Meaning, Neutral));
        let rows = batch_agreement(&data);
        assert_eq!(rows[0].subjects, 3);
        assert!((rows[0].fleiss_kappa.unwrap() - 1.0).abs() < 1e-12);
    }
}
