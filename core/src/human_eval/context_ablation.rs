//! CMPM Table 8, the paired context ablation: per model, mean Core4 of its explanations written
//! with the comic's title, caption and comments (`context=full`) and from the panels alone
//! (`context=image_only`) on the comics judged under both, the difference with an interval
//! over comics, an Overall row, and how many comics context helps, hurts or barely moves.
//! Pure; the server computes it once per state of a CMPM study's judgements.

use super::board::{Judgement, JudgementValue};
use super::{sorted_index, JudgementError};
use crate::stats::{item_bootstrap_many, Estimate};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// The `context` condition's value of a run given the comic's text context (the default of
/// comic explanation tasks).
pub const FULL_CONTEXT: &str = "full";

/// The `context` condition's value of a run shown the panels only.
pub const IMAGE_ONLY: &str = "image_only";

/// The per-comic change in Core4 from which context counts as helping (Δ ≥ 0.1) or hurting
/// (Δ ≤ −0.1), the paper's cut (§6.5: "a per-meme change of at least 0.1").
pub const EFFECT_THRESHOLD: f64 = 0.1;

/// Slack on [`EFFECT_THRESHOLD`], so that a change of exactly 0.1 computed in floating point
/// (2.35 − 2.25) is not missed by a rounding error.
const EFFECT_SLACK: f64 = 1e-9;

/// The two conditions' cells of one Table 8 row, and their difference.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ContextCells {
    /// Mean Core4 (1–3) of the ratings of explanations written with the context, on the
    /// matched comics.
    pub full_context: f64,
    /// Ratings (pages) behind [`ContextCells::full_context`].
    pub full_context_ratings: usize,
    /// Mean Core4 (1–3) of the ratings of explanations written from the panels only, on the
    /// matched comics.
    pub image_only: f64,
    /// Ratings (pages) behind [`ContextCells::image_only`].
    pub image_only_ratings: usize,
    /// Matched comics: judged under both conditions (for this model; for the Overall row, for
    /// at least one model).
    pub comics: usize,
    /// Full context − image only, with its item-bootstrap 95% interval over the matched comics.
    pub delta: Estimate,
}

/// One model's row of Table 8.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ContextModelRow {
    /// Model name (the submissions' `model_name`: both conditions' runs of one model share it).
    pub model: String,
    /// Its cells.
    pub cells: ContextCells,
}

/// How many matched comics context helps, hurts or barely moves, by the comic's Δ averaged
/// over the models judged on it under both conditions (the paper's 13 / 10 / 8).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ContextEffects {
    /// Comics with Δ ≥ [`EFFECT_THRESHOLD`].
    pub helps: usize,
    /// Comics with Δ ≤ −[`EFFECT_THRESHOLD`].
    pub hurts: usize,
    /// The rest: a small change, or models that disagree.
    pub small_or_mixed: usize,
}

/// CMPM Table 8: does the comic's text context help the models explain it?
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ContextAblation {
    /// One row per model judged under both conditions on at least one comic, sorted by model.
    pub rows: Vec<ContextModelRow>,
    /// Every model's matched ratings pooled (the paper's Overall row).
    pub overall: ContextCells,
    /// Per matched comic, whether context helps, hurts or barely moves it.
    pub effects: ContextEffects,
}

/// Per comic: (sum, count) of Core4 under full context, then under image only.
type Sums = [(f64, usize); 2];

/// Mean of a (sum, count) pair weighted by the comics' bootstrap multiplicities.
fn weighted_cell(w: &[u32], sums: &[Sums], k: usize) -> Option<f64> {
    let (mut num, mut den) = (0.0, 0.0);
    for (&w, s) in w.iter().zip(sums) {
        num += f64::from(w) * s[k].0;
        den += f64::from(w) * s[k].1 as f64;
    }
    (den > 0.0).then(|| num / den)
}

/// The cells of one row from its matched comics' sums (sorted by comic): plain means over the
/// ratings, the difference's interval from resampling the comics.
fn cells(sums: &[Sums], resamples: usize, seed: u64) -> Option<ContextCells> {
    let est = item_bootstrap_many(sums.len(), resamples, seed, |w| {
        let full = weighted_cell(w, sums, 0);
        let image = weighted_cell(w, sums, 1);
        vec![full.zip(image).map(|(f, i)| f - i)]
    });
    let delta = est.into_iter().next().flatten()?;
    let all = vec![1; sums.len()];
    let count = |k: usize| sums.iter().map(|s| s[k].1).sum();
    Some(ContextCells {
        full_context: weighted_cell(&all, sums, 0)?,
        full_context_ratings: count(0),
        image_only: weighted_cell(&all, sums, 1)?,
        image_only_ratings: count(1),
        comics: sums.len(),
        delta,
    })
}

/// CMPM Table 8 from a CMPM study's dimension judgements: per model (by name) judged under both
/// `context` conditions, the mean Core4 of its ratings under [`FULL_CONTEXT`] and under
/// [`IMAGE_ONLY`] on its *matched* comics (those where both of its runs were rated; ratings of
/// other comics are left out, so the two means cover the same comics), the ratings behind each,
/// and Δ = full − image only with an item-bootstrap 95% interval that resamples the matched
/// comics. The Overall row pools every model's matched ratings, resampling the comics matched
/// for any model. Each matched comic's Δ is the mean over the models matched on it of
/// (mean Core4 over raters under full − under image only); context *helps* it when that is
/// ≥ [`EFFECT_THRESHOLD`], *hurts* it when ≤ −[`EFFECT_THRESHOLD`], and is small or mixed
/// otherwise.
///
/// `runs` maps a submission id to its (model name, `context` value); judgements of other
/// submissions, planted pages (no submission), rankings and accuracy verdicts are skipped,
/// as are runs under any other value. Pass the judgements every other table counts (the
/// raters the owner's thresholds leave out already dropped). Several runs of one model under
/// one condition pool. `None` when no model has a comic judged under both conditions. Errors on
/// the first score outside 1–3.
///
/// Worked example (each page scores every dimension alike, so its Core4 is that score): model
/// `m` gets 3 and 3 with context and 2 and 2 without on comic 1 (raters `a`, `b`), 1 with and
/// 2 without on comic 2, 3 with and 2 without on comic 3, and 3 with context only on comic 4
/// (not matched); model `g` gets 2 with and 3 without on comic 1. `m`: full (3 + 3 + 1 + 3) / 4
/// = 2.5, image only 8 / 4 = 2, Δ = +0.5 over 3 comics; `g`: 2 vs 3, Δ = −1 over 1 comic.
/// Overall: full 12 / 5 = 2.4, image only 11 / 5 = 2.2, Δ = +0.2 over 3 comics. Per comic:
/// comic 1 (+1 − 1) / 2 = 0 small or mixed, comic 2 −1 hurts, comic 3 +1 helps.
///
/// ```
/// use memeboard_core::human_eval::board::{Judgement, JudgementValue};
/// use memeboard_core::human_eval::context_ablation::context_ablation;
/// use memeboard_core::human_eval::dimensions::DimensionScores;
/// use std::collections::BTreeMap;
/// let j = |rater: &str, comic: &str, submission: &str, v: u8| Judgement {
///     rater: rater.into(), batch: "1".into(), item: format!("{comic}{submission}"),
///     source_item: comic.into(), category: "c".into(), submission: Some(submission.into()),
///     value: JudgementValue::Dimensions { scores: DimensionScores {
///         visual_correctness: v, panel_coherence: v, humour_comprehension: v, context_handling: None, faithfulness: v }, errors: vec![] },
/// };
/// let runs: BTreeMap<String, (String, String)> = [("m1", "m", "full"), ("m2", "m", "image_only"), ("g1", "g", "full"), ("g2", "g", "image_only")]
///     .iter().map(|(s, m, c)| (s.to_string(), (m.to_string(), c.to_string()))).collect();
/// let data = [
///     j("a", "1", "m1", 3), j("b", "1", "m1", 3), j("a", "1", "m2", 2), j("b", "1", "m2", 2),
///     j("a", "2", "m1", 1), j("a", "2", "m2", 2), j("a", "3", "m1", 3), j("a", "3", "m2", 2),
///     j("a", "4", "m1", 3), j("a", "1", "g1", 2), j("a", "1", "g2", 3),
/// ];
/// let t = context_ablation(&data, &runs, 1000, 1).unwrap().unwrap();
/// let (g, m) = (&t.rows[0], &t.rows[1]);
/// assert_eq!((g.model.as_str(), m.model.as_str()), ("g", "m"));
/// assert_eq!((m.cells.full_context, m.cells.image_only, m.cells.delta.value), (2.5, 2.0, 0.5));
/// assert_eq!((m.cells.full_context_ratings, m.cells.image_only_ratings, m.cells.comics), (4, 4, 3));
/// assert_eq!((g.cells.delta.value, g.cells.delta.ci_low, g.cells.delta.ci_high, g.cells.comics), (-1.0, -1.0, -1.0, 1));
/// assert!((t.overall.full_context - 2.4).abs() < 1e-12 && (t.overall.image_only - 2.2).abs() < 1e-12);
/// assert!((t.overall.delta.value - 0.2).abs() < 1e-12);
/// assert_eq!((t.overall.full_context_ratings, t.overall.comics), (5, 3));
/// assert_eq!((t.effects.helps, t.effects.hurts, t.effects.small_or_mixed), (1, 1, 1));
/// ```
pub fn context_ablation(
    judgements: &[Judgement],
    runs: &BTreeMap<String, (String, String)>,
    resamples: usize,
    seed: u64,
) -> Result<Option<ContextAblation>, JudgementError> {
    // Per model, per comic: (sum, count) of Core4 under each condition.
    let mut by_model: BTreeMap<&str, BTreeMap<&str, Sums>> = BTreeMap::new();
    for j in judgements {
        let (JudgementValue::Dimensions { scores, .. }, Some(submission)) =
            (&j.value, &j.submission)
        else {
            continue;
        };
        let Some((model, context)) = runs.get(submission) else {
            continue;
        };
        let k = match context.as_str() {
            FULL_CONTEXT => 0,
            IMAGE_ONLY => 1,
            _ => continue,
        };
        scores.check(&j.rater, &j.source_item, submission)?;
        let slot = &mut by_model
            .entry(model.as_str())
            .or_default()
            .entry(j.source_item.as_str())
            .or_default()[k];
        slot.0 += scores.core4();
        slot.1 += 1;
    }
    // Only the matched comics, per model.
    for comics in by_model.values_mut() {
        comics.retain(|_, s| s[0].1 > 0 && s[1].1 > 0);
    }
    by_model.retain(|_, comics| !comics.is_empty());
    let rows: Vec<ContextModelRow> = by_model
        .iter()
        .filter_map(|(model, comics)| {
            let sums: Vec<Sums> = comics.values().copied().collect();
            Some(ContextModelRow {
                model: (*model).to_owned(),
                cells: cells(&sums, resamples, seed)?,
            })
        })
        .collect();
    let matched: BTreeSet<&str> = by_model.values().flat_map(|c| c.keys().copied()).collect();
    let index = sorted_index(matched.iter().copied());
    let mut pooled: Vec<Sums> = vec![[(0.0, 0); 2]; index.len()];
    // Per comic: (sum, count) of the matched models' Δ.
    let mut per_comic = vec![(0.0f64, 0usize); index.len()];
    for comics in by_model.values() {
        for (comic, s) in comics {
            let i = index[comic];
            for k in 0..2 {
                pooled[i][k].0 += s[k].0;
                pooled[i][k].1 += s[k].1;
            }
            per_comic[i].0 += s[0].0 / s[0].1 as f64 - s[1].0 / s[1].1 as f64;
            per_comic[i].1 += 1;
        }
    }
    let Some(overall) = cells(&pooled, resamples, seed) else {
        return Ok(None);
    };
    let mut effects = ContextEffects::default();
    for (sum, n) in per_comic {
        let delta = sum / n as f64;
        if delta >= EFFECT_THRESHOLD - EFFECT_SLACK {
            effects.helps += 1;
        } else if delta <= -EFFECT_THRESHOLD + EFFECT_SLACK {
            effects.hurts += 1;
        } else {
            effects.small_or_mixed += 1;
        }
    }
    Ok(Some(ContextAblation {
        rows,
        overall,
        effects,
    }))
}

#[cfg(test)]
mod tests;
