//! The statistics of error labels (issue 31): from a study's judgements and its labels, the
//! table of error types per model and the raters' agreement per label. Pure, shared by the
//! server (the study page, `tables.json`) and the browser.
//!
//! An *output* is one submission's explanation of one source item (the same page for every
//! rater who judged it); planted outputs and rankings are left out, and tags with a key the
//! study does not define are ignored. See `docs/human-evaluation.md`, "Error labels".

use super::board::Judgement;
use super::error_labels::ErrorLabel;
use crate::stats::fleiss_kappa;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// One model × error label cell of the table of error types.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ErrorTypeRow {
    /// Submission id.
    pub submission_id: String,
    /// The label's key.
    pub label: String,
    /// The submission's outputs rated (by at least one kept rater).
    pub outputs: usize,
    /// Outputs tagged with the label by at least one rater.
    pub tagged_any: usize,
    /// Outputs tagged with the label by more than half of the raters who rated them.
    pub tagged_majority: usize,
    /// Ratings of the submission's outputs.
    pub ratings: usize,
    /// Ratings that tag the label.
    pub tags: usize,
    /// `tags / ratings`: the share of ratings that tag the label.
    pub share: f64,
}

/// How well raters agree on one label: Fleiss' κ with two categories (tagged, not tagged).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ErrorAgreementRow {
    /// The label's key.
    pub label: String,
    /// Outputs in κ: those rated by the most common number (at least 2) of raters.
    pub outputs: usize,
    /// Raters per output in κ (0 when no output has two raters).
    pub raters: usize,
    /// Ratings among them that tag the label.
    pub tags: usize,
    /// Fleiss' κ; `None` without two raters on an output, or when every rating falls in one
    /// category (nobody, or everybody, tagged the label).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fleiss_kappa: Option<f64>,
}

/// A study's error-label tables, with the labels in the study's order (for their wording).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ErrorTables {
    /// The study's labels.
    pub labels: Vec<ErrorLabel>,
    /// Per submission (sorted by id), one row per label in the labels' order.
    pub per_model: Vec<ErrorTypeRow>,
    /// One row per label.
    pub agreement: Vec<ErrorAgreementRow>,
}

/// Each rated output (submission, source item) with the tags of each of its ratings.
fn outputs(judgements: &[Judgement]) -> BTreeMap<(&str, &str), Vec<&[String]>> {
    let mut out: BTreeMap<(&str, &str), Vec<&[String]>> = BTreeMap::new();
    for j in judgements {
        let Some(submission) = j.submission.as_deref() else {
            continue;
        };
        if matches!(j.value, super::board::JudgementValue::Ranking { .. }) {
            continue;
        }
        out.entry((submission, j.source_item.as_str()))
            .or_default()
            .push(j.value.errors());
    }
    out
}

/// The table of error types and the agreement per label.
///
/// **Per model** and label: the outputs rated, those tagged by at least one rater and by a
/// majority (more than half) of their raters, and the share of the model's ratings that tag
/// the label. **Agreement**: Fleiss' κ over the outputs rated by the most common number (≥ 2)
/// of raters, each rating one of two categories, tagged or not (a rater who judged the output
/// right, and so could not tag it, counts as not tagged).
///
/// *Worked example.* Three raters judge model m on memes 1 and 2 and model g on meme 1. On m's
/// meme 1, a tags `semantic_shift`, b tags it and `origin_confusion`, c nothing; on m's meme 2
/// only c tags `origin_confusion`; nobody tags g. For m, `semantic_shift`: 2 outputs, 1 tagged
/// by anyone, 1 by a majority (2 of 3), 2 tags in 6 ratings (⅓). Agreement on
/// `semantic_shift` over the 3 outputs: (not, tagged) counts (1, 2), (3, 0), (3, 0), P̄ = 7/9,
/// tagged share 2/9 so P̄ₑ = 53/81, κ = (63 − 53) / (81 − 53) = 5/14 ≈ 0.357; on
/// `origin_confusion` (2, 1), (2, 1), (3, 0) give P̄ = 5/9 and κ = (45 − 53) / 28 = −2/7.
///
/// ```
/// use memeboard_core::human_eval::board::{Judgement, JudgementValue};
/// use memeboard_core::human_eval::accuracy::Verdict3::Disagree;
/// use memeboard_core::human_eval::error_labels::chime_error_labels;
/// use memeboard_core::human_eval::error_tables::error_tables;
/// let j = |rater: &str, model: &str, meme: &str, tags: &[&str]| Judgement {
///     rater: rater.into(), batch: "rating-1".into(), item: format!("{model}{meme}"),
///     source_item: meme.into(), category: "pun".into(), submission: Some(model.into()),
///     value: JudgementValue::Accuracy { meaning: Disagree, origin: None, example: None,
///         errors: tags.iter().map(|t| t.to_string()).collect() },
/// };
/// let data = [
///     j("a", "m", "1", &["semantic_shift"]), j("b", "m", "1", &["semantic_shift", "origin_confusion"]),
///     j("c", "m", "1", &[]), j("a", "m", "2", &[]), j("b", "m", "2", &[]),
///     j("c", "m", "2", &["origin_confusion"]), j("a", "g", "1", &[]), j("b", "g", "1", &[]),
///     j("c", "g", "1", &[]),
/// ];
/// let t = error_tables(&chime_error_labels(), &data);
/// let m = t.per_model.iter().find(|r| r.submission_id == "m" && r.label == "semantic_shift").unwrap();
/// assert_eq!((m.outputs, m.tagged_any, m.tagged_majority, m.ratings, m.tags), (2, 1, 1, 6, 2));
/// assert!((m.share - 1.0 / 3.0).abs() < 1e-12);
/// let k = |label: &str| t.agreement.iter().find(|r| r.label == label).unwrap().clone();
/// assert_eq!((k("semantic_shift").outputs, k("semantic_shift").raters), (3, 3));
/// assert!((k("semantic_shift").fleiss_kappa.unwrap() - 5.0 / 14.0).abs() < 1e-12);
/// assert!((k("origin_confusion").fleiss_kappa.unwrap() + 2.0 / 7.0).abs() < 1e-12);
/// assert_eq!(k("cross_type_confusion").fleiss_kappa, None); // nobody tagged it
/// ```
pub fn error_tables(labels: &[ErrorLabel], judgements: &[Judgement]) -> ErrorTables {
    let outputs = outputs(judgements);
    let tagged = |ratings: &[&[String]], key: &str| {
        ratings
            .iter()
            .filter(|tags| tags.iter().any(|t| t == key))
            .count()
    };
    let mut per_submission: BTreeMap<&str, Vec<&Vec<&[String]>>> = BTreeMap::new();
    for ((submission, _), ratings) in &outputs {
        per_submission.entry(submission).or_default().push(ratings);
    }
    let mut per_model = Vec::new();
    for (submission, outs) in &per_submission {
        let ratings: usize = outs.iter().map(|r| r.len()).sum();
        for label in labels {
            let counts: Vec<(usize, usize)> = outs
                .iter()
                .map(|r| (tagged(r, &label.key), r.len()))
                .collect();
            let tags: usize = counts.iter().map(|c| c.0).sum();
            per_model.push(ErrorTypeRow {
                submission_id: (*submission).to_owned(),
                label: label.key.clone(),
                outputs: outs.len(),
                tagged_any: counts.iter().filter(|c| c.0 > 0).count(),
                tagged_majority: counts.iter().filter(|c| 2 * c.0 > c.1).count(),
                ratings,
                tags,
                share: tags as f64 / ratings.max(1) as f64,
            });
        }
    }
    // The most common number (≥ 2) of raters per output, ties to the larger.
    let mut rater_counts: BTreeMap<usize, usize> = BTreeMap::new();
    for r in outputs.values().filter(|r| r.len() >= 2) {
        *rater_counts.entry(r.len()).or_default() += 1;
    }
    let modal = rater_counts
        .iter()
        .max_by_key(|(n, count)| (**count, **n))
        .map_or(0, |(n, _)| *n);
    let agreement = labels
        .iter()
        .map(|label| {
            let table: Vec<Vec<u32>> = outputs
                .values()
                .filter(|r| modal >= 2 && r.len() == modal)
                .map(|r| {
                    let t = u32::try_from(tagged(r, &label.key)).unwrap_or(u32::MAX);
                    let n = u32::try_from(r.len()).unwrap_or(u32::MAX);
                    vec![n - t, t]
                })
                .collect();
            ErrorAgreementRow {
                label: label.key.clone(),
                outputs: table.len(),
                raters: modal,
                tags: table.iter().map(|row| row[1] as usize).sum(),
                fleiss_kappa: fleiss_kappa(&table),
            }
        })
        .collect();
    ErrorTables {
        labels: labels.to_vec(),
        per_model,
        agreement,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::human_eval::board::JudgementValue;
    use crate::human_eval::dimensions::DimensionScores;
    use crate::human_eval::error_labels::cmpm_error_labels;
    use crate::human_eval::ranking::RankedEntry;

    fn scored(rater: &str, model: Option<&str>, comic: &str, tags: &[&str]) -> Judgement {
        Judgement {
            rater: rater.into(),
            batch: "rating-1".into(),
            item: format!("{}{comic}", model.unwrap_or("planted")),
            source_item: comic.into(),
            category: "narrative".into(),
            submission: model.map(Into::into),
            value: JudgementValue::Dimensions {
                scores: DimensionScores {
                    visual_correctness: 1,
                    panel_coherence: 2,
                    humour_comprehension: 2,
                    context_handling: None,
                    faithfulness: 2,
                },
                errors: tags.iter().map(|t| (*t).to_owned()).collect(),
            },
        }
    }

    /// The agreement on `contrast_swap` checked against statsmodels' `fleiss_kappa`.
    ///
    /// Five outputs rated by three raters, tagged by 3, 2, 0, 0 and 1 of them; a sixth
    /// rated by two raters only is left out (κ needs the same raters per output). The table
    /// of (not tagged, tagged) counts is [[0, 3], [1, 2], [3, 0], [3, 0], [2, 1]], and
    /// `statsmodels.stats.inter_rater.fleiss_kappa(table, method="fleiss")` gives
    /// 0.4444444444444444. statsmodels is not installed here, so the value is worked out by
    /// hand with statsmodels' own formulas: p = column sums / (N·n) = (0.6, 0.4),
    /// P_i = (Σ_j n_ij² − n) / (n(n − 1)) = (1, 1/3, 1, 1, 1/3), P̄ = 11/15,
    /// P̄ₑ = Σ p_j² = 0.52, κ = (11/15 − 0.52) / (1 − 0.52) = (16/75) / (12/25) = 4/9.
    #[test]
    fn agreement_matches_statsmodels_fleiss_kappa() {
        let tagged_by = [3, 2, 0, 0, 1];
        let mut data = Vec::new();
        for (comic, n) in tagged_by.iter().enumerate() {
            for (r, rater) in ["a", "b", "c"].iter().enumerate() {
                let tags: &[&str] = if r < *n { &["contrast_swap"] } else { &[] };
                data.push(scored(rater, Some("m"), &comic.to_string(), tags));
            }
        }
        data.push(scored("a", Some("m"), "9", &["contrast_swap"]));
        data.push(scored("b", Some("m"), "9", &["contrast_swap"]));
        let t = error_tables(&cmpm_error_labels(), &data);
        let row = &t.agreement[0];
        assert_eq!(
            (row.label.as_str(), row.outputs, row.raters, row.tags),
            ("contrast_swap", 5, 3, 6)
        );
        assert!((row.fleiss_kappa.unwrap() - 0.444_444_444_444_444_4).abs() < 1e-12);
        // The per-model row counts every output, the one with two raters too.
        let m = &t.per_model[0];
        assert_eq!((m.outputs, m.tagged_any, m.tagged_majority), (6, 4, 3));
        assert_eq!((m.ratings, m.tags), (17, 8));
    }

    #[test]
    fn planted_outputs_rankings_and_unknown_keys_are_left_out() {
        let data = vec![
            scored("a", None, "1", &["contrast_swap"]),
            scored("b", None, "1", &["contrast_swap"]),
            scored("a", Some("m"), "1", &["not_a_label"]),
            scored("b", Some("m"), "1", &[]),
            Judgement {
                rater: "a".into(),
                batch: "ranking-1".into(),
                item: "r1".into(),
                source_item: "1".into(),
                category: "narrative".into(),
                submission: Some("m".into()),
                value: JudgementValue::Ranking {
                    entries: vec![RankedEntry {
                        system: "m".into(),
                        rank: 1,
                    }],
                },
            },
        ];
        let t = error_tables(&cmpm_error_labels(), &data);
        assert_eq!(t.per_model.len(), 3, "one submission × three labels");
        assert!(t
            .per_model
            .iter()
            .all(|r| r.outputs == 1 && r.ratings == 2 && r.tags == 0 && r.share == 0.0));
        assert!(t
            .agreement
            .iter()
            .all(|r| r.outputs == 1 && r.fleiss_kappa.is_none()));
        // Nothing judged: no rows, no κ.
        let empty = error_tables(&cmpm_error_labels(), &[]);
        assert!(empty.per_model.is_empty());
        assert!(empty
            .agreement
            .iter()
            .all(|r| r.raters == 0 && r.outputs == 0));
    }
}
