//! Per-rater reliability of a study: for each rater, how many pages they judged, how much the
//! study's agreement depends on them (leave-one-out Fleiss' κ for accuracy verdicts,
//! Krippendorff's ordinal α for dimension scores and ranks), their planted-check pass rate and,
//! for the categorical verdicts, a Dawid–Skene competence estimate. Pure; the study page and
//! the study's tables export show it (owners only: rater pseudonyms stay off public boards).

use super::accuracy::{AccuracyRating, ExplanationField, Verdict3};
use super::board::{Judgement, JudgementValue};
use super::dawid_skene::{dawid_skene, Label};
use super::dimensions::Dimension;
use crate::stats::modal_fleiss_kappa;
use loo::ordinal_alpha_loo;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// What a rater judged: one row per rater and scale.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum RaterScale {
    /// Accuracy verdicts (Disagree / Neutral / Agree): Fleiss' κ of the rater's batch.
    Verdicts,
    /// Dimension scores (1–3): Krippendorff's ordinal α over the study.
    Dimensions,
    /// Holistic ranks: Krippendorff's ordinal α over the study.
    Ranks,
}

/// A rater's planted quality checks: how many planted outputs they judged, how many they
/// failed (the study's rule, `study::planted_failed`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct PlantedTally {
    /// Planted outputs judged.
    pub judged: usize,
    /// Of those, failed.
    pub failed: usize,
}

/// One rater's reliability on one scale.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct RaterRow {
    /// Rater pseudonym.
    pub rater: String,
    /// What the figures are about.
    pub scale: RaterScale,
    /// The batch the agreement is computed in (verdicts); `None`: the whole study (α).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub batch: Option<String>,
    /// Pages the rater judged on this scale (in this batch for verdicts).
    pub judgements: usize,
    /// Raters in the agreement's group (the batch, or the study), the rater included.
    pub raters: usize,
    /// The agreement statistic with every rater of the group.
    pub with_rater: Option<f64>,
    /// The same statistic with this rater's values left out.
    pub without_rater: Option<f64>,
    /// `with_rater − without_rater`: positive when the rater agrees with the others more than
    /// they agree among themselves, negative when the rater pulls agreement down.
    pub loo_delta: Option<f64>,
    /// Planted outputs judged (rating pages only; 0 for ranks or without planted checks).
    pub planted_judged: usize,
    /// Share of those passed; `None` when none was judged.
    pub planted_pass_rate: Option<f64>,
    /// Dawid–Skene competence (verdicts only): the estimated probability that the rater's
    /// verdict is the true one.
    pub competence: Option<f64>,
}

/// One batch's verdicts per subject (page × model × field), with their raters.
type BatchVotes<'a> = BTreeMap<(&'a str, &'a str, ExplanationField), Vec<(&'a str, f64)>>;

/// Fleiss' κ of one batch without `skip`'s verdicts, exactly as
/// [`batch_agreement`](super::accuracy::batch_agreement) computes it (over the subjects with the
/// modal number of raters), `None` when not computable.
fn batch_kappa(votes: &BatchVotes<'_>, skip: Option<&str>) -> Option<f64> {
    let kept: BTreeMap<_, Vec<f64>> = votes
        .iter()
        .map(|(k, v)| {
            let values = v.iter().filter(|(r, _)| Some(*r) != skip).map(|&(_, x)| x);
            (*k, values.collect())
        })
        .collect();
    modal_fleiss_kappa(&kept, Verdict3::ALL.len())
}

/// Verdict rows: leave-one-out Fleiss' κ per batch, Dawid–Skene competence over the study.
fn verdict_rows(
    ratings: &[AccuracyRating],
    pages: &BTreeMap<(&str, &str), usize>,
) -> Vec<RaterRow> {
    let labels: Vec<(String, &AccuracyRating)> = ratings
        .iter()
        .map(|r| {
            let subject = format!(
                "{}\u{1f}{}\u{1f}{}\u{1f}{:?}",
                r.batch, r.item, r.model, r.field
            );
            (subject, r)
        })
        .collect();
    let ds_labels: Vec<Label<'_>> = labels
        .iter()
        .map(|(s, r)| Label {
            subject: s,
            rater: &r.rater,
            class: r.verdict.index(),
        })
        .collect();
    let fit = dawid_skene(&ds_labels, Verdict3::ALL.len());
    let mut batches: BTreeMap<&str, (BatchVotes<'_>, BTreeSet<&str>)> = BTreeMap::new();
    for r in ratings {
        let (votes, raters) = batches.entry(r.batch.as_str()).or_default();
        votes
            .entry((r.item.as_str(), r.model.as_str(), r.field))
            .or_default()
            .push((r.rater.as_str(), r.verdict.index() as f64));
        raters.insert(r.rater.as_str());
    }
    let mut rows = Vec::new();
    for (batch, (votes, raters)) in batches {
        let with = batch_kappa(&votes, None);
        for &rater in &raters {
            let without = batch_kappa(&votes, Some(rater));
            rows.push(RaterRow {
                rater: rater.to_owned(),
                scale: RaterScale::Verdicts,
                batch: Some(batch.to_owned()),
                judgements: pages.get(&(rater, batch)).copied().unwrap_or(0),
                raters: raters.len(),
                with_rater: with,
                without_rater: without,
                loo_delta: with.zip(without).map(|(w, wo)| w - wo),
                planted_judged: 0,
                planted_pass_rate: None,
                competence: fit.as_ref().and_then(|f| f.competence.get(rater).copied()),
            });
        }
    }
    rows
}

/// Ordinal-α rows: `values` are (unit, rater, value); `pages` counts each rater's pages.
fn alpha_rows(
    scale: RaterScale,
    values: &[(String, &str, f64)],
    pages: &BTreeMap<&str, usize>,
) -> Vec<RaterRow> {
    let coder: BTreeMap<&str, usize> = pages.keys().enumerate().map(|(i, &r)| (r, i)).collect();
    let mut units: BTreeMap<&str, Vec<(usize, f64)>> = BTreeMap::new();
    for (unit, rater, v) in values {
        if let Some(&c) = coder.get(rater) {
            units.entry(unit.as_str()).or_default().push((c, *v));
        }
    }
    let units: Vec<Vec<(usize, f64)>> = units.into_values().collect();
    let (with, without) = ordinal_alpha_loo(&units, coder.len());
    pages
        .iter()
        .zip(without)
        .map(|((&rater, &n), without)| RaterRow {
            rater: rater.to_owned(),
            scale,
            batch: None,
            judgements: n,
            raters: pages.len(),
            with_rater: with,
            without_rater: without,
            loo_delta: with.zip(without).map(|(w, wo)| w - wo),
            planted_judged: 0,
            planted_pass_rate: None,
            competence: None,
        })
        .collect()
}

/// Every rater's reliability in a study, one row per rater and scale, sorted by scale, then
/// rater, then batch.
///
/// **Leave-one-out**, as used here, is the group's agreement statistic computed with and
/// without the rater: `loo_delta = with_rater − without_rater`. The group is the rater's batch
/// for accuracy verdicts (Fleiss' κ needs the same raters on every subject: it is the batch κ
/// of [`batch_agreement`](super::accuracy::batch_agreement), all fields and models pooled,
/// planted pages included) and the whole study for dimension scores and ranks
/// (Krippendorff's ordinal α, [`krippendorff_alpha`](crate::stats::krippendorff_alpha), which
/// allows missing values; a unit is one page's dimension, or one page's candidate, so the five
/// dimensions share one α). A rater whose departure raises agreement (`loo_delta < 0`) is the
/// one the others disagree with. In a group of two, `without_rater` and the delta are empty:
/// one rater has no agreement.
///
/// `planted` (by rater) gives the planted-check tally, shown on the rating scales (verdicts,
/// dimensions). Competence is the Dawid–Skene fit ([`dawid_skene`]) of every verdict of the
/// study (subject = batch × page's item × model × field, three classes).
///
/// Worked example: batch `1`, three raters, four pages (meaning only). `a` and `b` agree on
/// every page (A, D, A, D), `c` says N, D, N, A. With all three, P̄ = (1/3 + 1 + 1/3 + 1/3)/4 =
/// 1/2 and the shares D 5/12, N 2/12, A 5/12 give P̄e = 54/144 = 0.375, so κ = 0.2; without `c`
/// κ = 1, so `c`'s delta is 0.2 − 1 = −0.8. Without `a` (or `b`), P̄ = 1/4, the shares D 3/8,
/// N 2/8, A 3/8 give P̄e = 22/64, κ = (16/64 − 22/64)/(42/64) = −1/7, so their delta is
/// 0.2 + 1/7 ≈ 0.343.
///
/// ```
/// use memeboard_core::human_eval::accuracy::Verdict3::{self, *};
/// use memeboard_core::human_eval::board::{Judgement, JudgementValue};
/// use memeboard_core::human_eval::raters::{rater_reliability, PlantedTally, RaterScale};
/// let j = |rater: &str, page: usize, meaning: Verdict3| Judgement {
///     rater: rater.into(), batch: "1".into(), item: format!("p{page}"), source_item: format!("m{page}"),
///     category: "pun".into(), submission: Some("s".into()),
///     value: JudgementValue::Accuracy { meaning, origin: None, example: None, errors: vec![] },
/// };
/// let mut data = Vec::new();
/// for (page, v) in [Agree, Disagree, Agree, Disagree].into_iter().enumerate() {
///     data.push(j("a", page, v));
///     data.push(j("b", page, v));
/// }
/// for (page, v) in [Neutral, Disagree, Neutral, Agree].into_iter().enumerate() {
///     data.push(j("c", page, v));
/// }
/// let planted = [("c".to_string(), PlantedTally { judged: 2, failed: 1 })].into();
/// let rows = rater_reliability(&data, &planted);
/// assert_eq!(rows.len(), 3);
/// let c = &rows[2];
/// assert_eq!((c.rater.as_str(), c.scale, c.judgements, c.raters), ("c", RaterScale::Verdicts, 4, 3));
/// assert!((c.with_rater.unwrap() - 0.2).abs() < 1e-12);
/// assert!((c.without_rater.unwrap() - 1.0).abs() < 1e-12);
/// assert!((c.loo_delta.unwrap() + 0.8).abs() < 1e-12);
/// assert!((rows[0].loo_delta.unwrap() - (0.2 + 1.0 / 7.0)).abs() < 1e-12);
/// assert_eq!(c.planted_pass_rate, Some(0.5));
/// assert!(c.competence.unwrap() < rows[0].competence.unwrap());
/// ```
pub fn rater_reliability(
    judgements: &[Judgement],
    planted: &BTreeMap<String, PlantedTally>,
) -> Vec<RaterRow> {
    let mut verdicts = Vec::new();
    let mut verdict_pages: BTreeMap<(&str, &str), usize> = BTreeMap::new();
    let mut dims: Vec<(String, &str, f64)> = Vec::new();
    let mut dim_pages: BTreeMap<&str, usize> = BTreeMap::new();
    let mut ranks: Vec<(String, &str, f64)> = Vec::new();
    let mut rank_pages: BTreeMap<&str, usize> = BTreeMap::new();
    for j in judgements {
        let model = j.submission.as_deref().unwrap_or("");
        match &j.value {
            JudgementValue::Accuracy { .. } => {
                *verdict_pages
                    .entry((j.rater.as_str(), j.batch.as_str()))
                    .or_default() += 1;
                // The page, so that planted pages never merge with a model's.
                verdicts.extend(j.accuracy_ratings(&j.item, model));
            }
            JudgementValue::Dimensions { scores, .. } => {
                *dim_pages.entry(j.rater.as_str()).or_default() += 1;
                for d in Dimension::ALL {
                    if let Some(v) = scores.get(d) {
                        dims.push((
                            format!("{}\u{1f}{}", j.item, d.key()),
                            &j.rater,
                            f64::from(v),
                        ));
                    }
                }
            }
            JudgementValue::Ranking { entries } => {
                *rank_pages.entry(j.rater.as_str()).or_default() += 1;
                for e in entries {
                    let unit = format!("{}\u{1f}{}", j.item, e.system);
                    ranks.push((unit, &j.rater, f64::from(e.rank)));
                }
            }
        }
    }
    let mut rows = verdict_rows(&verdicts, &verdict_pages);
    rows.extend(alpha_rows(RaterScale::Dimensions, &dims, &dim_pages));
    rows.extend(alpha_rows(RaterScale::Ranks, &ranks, &rank_pages));
    for row in &mut rows {
        if row.scale == RaterScale::Ranks {
            continue;
        }
        if let Some(t) = planted.get(&row.rater).filter(|t| t.judged > 0) {
            row.planted_judged = t.judged;
            row.planted_pass_rate = Some(1.0 - t.failed as f64 / t.judged as f64);
        }
    }
    rows.sort_by(|a, b| (a.scale, &a.rater, &a.batch).cmp(&(b.scale, &b.rater, &b.batch)));
    rows
}

mod loo;
#[cfg(test)]
mod tests;
