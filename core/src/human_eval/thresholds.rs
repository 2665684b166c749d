//! The study owner's reliability thresholds: raters whose per-rater reliability
//! ([`rater_reliability`](super::raters::rater_reliability)) falls below a minimum planted-check
//! pass rate or Dawid–Skene competence, or whose removal raises their group's agreement by more
//! than a set gain, are left out of every table of the study, with the counts before and after.
//!
//! The rule is applied once: the reliability rows are computed over the raters the quality
//! rules keep, the thresholds pick the raters to leave out, and the tables are computed without
//! them. Reliability is not recomputed over the remaining raters (removing one rater changes
//! the others' leave-one-out figures, and iterating until nothing changes could drop raters
//! one by one down to a single agreeing pair). Pure; the server stores the thresholds with the
//! study and applies them in the crowd cache.

use super::board::Judgement;
use super::raters::RaterRow;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

pub mod counts;
pub use counts::ThresholdCounts;

/// The exclusion reason the judgement export gives a rater the thresholds leave out.
pub const BELOW_RELIABILITY_THRESHOLD: &str = "below_reliability_threshold";

/// Largest leave-one-out gain an owner may set: κ and α lie in [−1, 1], so no removal raises
/// agreement by more than 2.
pub const MAX_LOO_GAIN: f64 = 2.0;

/// The owner's thresholds (each optional: unset, it excludes nobody). Stored with the study and
/// set with `PUT /api/owner/studies/{slug}/reliability`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct ReliabilityThresholds {
    /// Exclude raters who passed a smaller share of their planted quality checks (0–1);
    /// raters who judged no planted check are kept.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_planted_pass_rate: Option<f64>,
    /// Exclude raters whose Dawid–Skene competence is lower (0–1; accuracy verdicts only,
    /// raters without a competence are kept).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_competence: Option<f64>,
    /// Exclude raters whose removal raises their group's agreement (κ of their batch, or α of
    /// the study) by more than this (0–2): `without_rater − with_rater`, i.e. `−loo_delta`, on
    /// any of their rows. Raters in a group of two (no leave-one-out figure) are kept.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_loo_gain: Option<f64>,
}

/// A threshold value out of its range: the field, the range and the value found.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ThresholdOutOfRange {
    /// The field's wire name.
    pub field: &'static str,
    /// Smallest value allowed.
    pub min: f64,
    /// Largest value allowed.
    pub max: f64,
    /// The value given.
    pub found: f64,
}

impl ReliabilityThresholds {
    /// Whether no threshold is set (nobody is excluded; the reliability need not be computed).
    pub fn is_empty(&self) -> bool {
        self.min_planted_pass_rate.is_none()
            && self.min_competence.is_none()
            && self.max_loo_gain.is_none()
    }

    /// Checks each set value against its range, so a stored threshold always means something.
    ///
    /// ```
    /// use memeboard_core::human_eval::thresholds::ReliabilityThresholds;
    /// let ok = ReliabilityThresholds { min_planted_pass_rate: Some(0.75), ..Default::default() };
    /// assert!(ok.validate().is_ok());
    /// let bad = ReliabilityThresholds { max_loo_gain: Some(2.5), ..Default::default() };
    /// assert_eq!(bad.validate().unwrap_err().field, "max_loo_gain");
    /// ```
    pub fn validate(&self) -> Result<(), ThresholdOutOfRange> {
        let fields = [
            ("min_planted_pass_rate", self.min_planted_pass_rate, 1.0),
            ("min_competence", self.min_competence, 1.0),
            ("max_loo_gain", self.max_loo_gain, MAX_LOO_GAIN),
        ];
        for (field, value, max) in fields {
            if let Some(found) = value.filter(|v| !(0.0..=max).contains(v)) {
                return Err(ThresholdOutOfRange {
                    field,
                    min: 0.0,
                    max,
                    found,
                });
            }
        }
        Ok(())
    }
}

/// Which threshold a rater failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum ThresholdRule {
    /// [`ReliabilityThresholds::min_planted_pass_rate`].
    PlantedPassRate,
    /// [`ReliabilityThresholds::min_competence`].
    Competence,
    /// [`ReliabilityThresholds::max_loo_gain`].
    LooGain,
}

/// One failed threshold: the rater's worst value on it and the threshold.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ThresholdFailure {
    /// The rule.
    pub rule: ThresholdRule,
    /// The rater's value: the lowest pass rate or competence, or the largest gain, over their
    /// rows.
    pub value: f64,
    /// The owner's threshold.
    pub threshold: f64,
}

/// A rater the thresholds leave out, and why.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ExcludedRater {
    /// Rater pseudonym.
    pub rater: String,
    /// Every threshold failed (at least one), in rule order.
    pub failures: Vec<ThresholdFailure>,
}

/// The raters the thresholds exclude, from the reliability rows of the raters the quality rules
/// keep, by pseudonym. A rater fails a rule when their worst value on it crosses the threshold:
/// the lowest planted pass rate below `min_planted_pass_rate`, the lowest competence below
/// `min_competence`, the largest leave-one-out gain (`−loo_delta`, over their batches and
/// scales) above `max_loo_gain`. A rater with no value for a rule passes it (no planted check
/// judged, no verdicts, a group of two). Applied once, not iterated (see the module docs).
///
/// Worked example (the raters of `rater_reliability`'s example: `c`'s delta is −0.8 and its
/// planted pass rate 0.5; `a`'s and `b`'s deltas are ≈ 0.343, without planted checks): with
/// `max_loo_gain` 0.5, `c` fails (gain 0.8 > 0.5) and `a` and `b` pass (gain ≈ −0.343); with
/// `min_planted_pass_rate` 0.75 too, `c` fails both and `a` and `b`, who judged no planted
/// check, are kept. Of 3 raters and 12 judgements, 2 and 8 remain.
///
/// ```
/// use memeboard_core::human_eval::accuracy::Verdict3::{self, *};
/// use memeboard_core::human_eval::board::{Judgement, JudgementValue};
/// use memeboard_core::human_eval::raters::{rater_reliability, PlantedTally};
/// use memeboard_core::human_eval::thresholds::*;
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
/// let t = ReliabilityThresholds {
///     max_loo_gain: Some(0.5), min_planted_pass_rate: Some(0.75), ..Default::default()
/// };
/// let out = threshold_exclusions(&rows, &t);
/// assert_eq!(out.len(), 1);
/// assert_eq!(out[0].rater, "c");
/// let rules: Vec<_> = out[0].failures.iter().map(|f| f.rule).collect();
/// assert_eq!(rules, [ThresholdRule::PlantedPassRate, ThresholdRule::LooGain]);
/// assert!((out[0].failures[1].value - 0.8).abs() < 1e-12);
/// let (kept, n) = without_excluded(data, &out);
/// assert_eq!(kept.len(), 8);
/// assert_eq!((n.raters_before, n.raters_after, n.judgements_before, n.judgements_after), (3, 2, 12, 8));
/// ```
pub fn threshold_exclusions(rows: &[RaterRow], t: &ReliabilityThresholds) -> Vec<ExcludedRater> {
    if t.is_empty() {
        return Vec::new();
    }
    // Per rater: lowest pass rate, lowest competence, largest gain.
    let mut worst: BTreeMap<&str, [Option<f64>; 3]> = BTreeMap::new();
    let lower = |old: Option<f64>, new: Option<f64>| match (old, new) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    };
    for r in rows {
        let w = worst.entry(r.rater.as_str()).or_default();
        w[0] = lower(w[0], r.planted_pass_rate);
        w[1] = lower(w[1], r.competence);
        // The largest gain is the lowest delta.
        w[2] = lower(w[2], r.loo_delta);
    }
    let mut out = Vec::new();
    for (rater, [rate, competence, delta]) in worst {
        let checks = [
            (
                ThresholdRule::PlantedPassRate,
                rate,
                t.min_planted_pass_rate,
                false,
            ),
            (
                ThresholdRule::Competence,
                competence,
                t.min_competence,
                false,
            ),
            (
                ThresholdRule::LooGain,
                delta.map(|d| -d),
                t.max_loo_gain,
                true,
            ),
        ];
        let failures: Vec<ThresholdFailure> = checks
            .into_iter()
            .filter_map(|(rule, value, threshold, is_max)| {
                let (value, threshold) = (value?, threshold?);
                let fails = if is_max {
                    value > threshold
                } else {
                    value < threshold
                };
                fails.then_some(ThresholdFailure {
                    rule,
                    value,
                    threshold,
                })
            })
            .collect();
        if !failures.is_empty() {
            out.push(ExcludedRater {
                rater: rater.to_owned(),
                failures,
            });
        }
    }
    out
}

/// The judgements without the excluded raters', and the counts before and after (see
/// [`threshold_exclusions`] for a worked example).
pub fn without_excluded(
    judgements: Vec<Judgement>,
    excluded: &[ExcludedRater],
) -> (Vec<Judgement>, ThresholdCounts) {
    let gone: BTreeSet<&str> = excluded.iter().map(|e| e.rater.as_str()).collect();
    let raters_before = judgements
        .iter()
        .map(|j| j.rater.as_str())
        .collect::<BTreeSet<_>>()
        .len();
    let judgements_before = judgements.len();
    let kept: Vec<Judgement> = judgements
        .into_iter()
        .filter(|j| !gone.contains(j.rater.as_str()))
        .collect();
    let raters_after = kept
        .iter()
        .map(|j| j.rater.as_str())
        .collect::<BTreeSet<_>>()
        .len();
    let counts = ThresholdCounts {
        raters_before,
        raters_after,
        judgements_before,
        judgements_after: kept.len(),
    };
    (kept, counts)
}

#[cfg(test)]
mod tests;
