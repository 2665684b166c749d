//! From study judgements to what boards and study pages show: per-submission human-judged
//! columns (% agree, Core4, win rate, Bradley–Terry rating, each with its interval), a study
//! summary (raters, exclusions, Fleiss' κ per batch, Krippendorff's α per dimension, exposed
//! test items) and the metric-validity panel (how well cosine, rescaled cosine and
//! BERTScore-F1 rank explanations the way people do).
//!
//! Plain data in, plain data out: the caller reads the judgements of a study's tasks, drops
//! excluded raters (`quality::exclusion` on the server) and passes the count of excluded raters
//! so every table can say it. All the statistics are the existing ones of the sibling modules.

use super::accuracy::{
    accuracy_rows, batch_agreement, kappa_summary, verdict_segments, AccuracyRating, AccuracyRow,
    BatchAgreement, ExplanationField, KappaSummary,
};
use super::bradley_terry::{bradley_terry_rows, BtOptions, BtRow};
use super::correlation::{metric_validity, MetricValidity, SegmentScore};
use super::dimensions::{
    core4_segments, dimension_agreement, dimension_rows, DimensionAgreement, DimensionRating,
    DimensionRow,
};
use super::outputs::OutputScores;
use super::protocol::StudyProtocol;
use super::ranking::{expand_rankings, win_rates, Ranking, WinRateRow};
use super::JudgementError;
use crate::stats::Estimate;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

mod judgement;
pub use judgement::{Judgement, JudgementValue};

/// Everything about one study the tables need.
#[derive(Debug, Clone, PartialEq)]
pub struct StudyData {
    /// Study slug.
    pub study: String,
    /// Protocol.
    pub protocol: StudyProtocol,
    /// Judgements of the raters kept (excluded raters already dropped).
    pub judgements: Vec<Judgement>,
    /// Raters excluded (failed checks, the owner's exclusions, withdrawn consent).
    pub excluded_raters: usize,
    /// Test items whose gold the study shows to raters.
    pub exposed_test_items: usize,
    /// Automatic scores of the judged outputs, by (source item, submission).
    pub metric_scores: BTreeMap<(String, String), OutputScores>,
}

/// One submission's human-judged board columns.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct HumanJudged {
    /// Submission id.
    pub submission_id: String,
    /// Share of Agree verdicts over all fields (accuracy protocol).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agree: Option<Estimate>,
    /// Share of Neutral verdicts.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub neutral: Option<Estimate>,
    /// Share of Disagree verdicts.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub disagree: Option<Estimate>,
    /// Mean Core4, 1–3 (dimension protocol).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub core4: Option<Estimate>,
    /// Pairwise win rate from the rankings (ties half).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub win_rate: Option<Estimate>,
    /// Bradley–Terry rating (Elo-like, 1000 = average) from the rankings.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bt_rating: Option<Estimate>,
    /// Source items judged for this submission.
    pub items: usize,
    /// Distinct raters who judged it.
    pub raters: usize,
    /// Judgements of its outputs (rating pages plus rankings including it).
    pub judgements: usize,
}

/// A study at a glance: who judged, how consistently, and what was exposed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct HumanEvalSummary {
    /// Study slug.
    pub study: String,
    /// Protocol.
    pub protocol: StudyProtocol,
    /// Raters counted (after exclusions).
    pub raters: usize,
    /// Raters excluded.
    pub excluded_raters: usize,
    /// Judgements counted (planted checks included).
    pub judgements: usize,
    /// Fleiss' κ per batch (accuracy protocol).
    pub batches: Vec<BatchAgreement>,
    /// Min, mean and max κ over batches.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kappa: Option<KappaSummary>,
    /// Krippendorff's ordinal α per dimension (CMPM); empty for accuracy.
    pub alpha: Vec<DimensionAgreement>,
    /// Test items whose gold raters saw (invitation-only studies of test items).
    pub exposed_test_items: usize,
    /// Raters and judgements before and after the owner's reliability thresholds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reliability: Option<super::thresholds::counts::ThresholdCounts>,
}

/// An automatic metric of explanations that the validity panel checks against people.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum AutoMetric {
    /// Meaning identification (the board's primary score).
    Identification,
    /// Raw cosine similarity of the meaning to the reference.
    Cosine,
    /// Rescaled cosine.
    Rescaled,
    /// BERTScore F1.
    BertF1,
}

impl AutoMetric {
    /// Every metric, in panel order.
    pub const ALL: [AutoMetric; 4] = [
        Self::Identification,
        Self::Cosine,
        Self::Rescaled,
        Self::BertF1,
    ];

    /// This metric's score out of an output's scores (`None`: not computed for this output).
    pub fn of(self, s: &OutputScores) -> Option<f64> {
        match self {
            Self::Identification => s.identification,
            Self::Cosine => Some(s.cosine),
            Self::Rescaled => Some(s.rescaled),
            Self::BertF1 => Some(s.bert_f1),
        }
    }
}

/// Which human score the validity panel correlates the metrics with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum HumanScore {
    /// Mean meaning verdict (Disagree 0, Neutral ½, Agree 1).
    MeaningVerdict,
    /// Mean Core4.
    Core4,
}

/// One metric's agreement with people.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct MetricValidityRow {
    /// The automatic metric.
    pub metric: AutoMetric,
    /// Kendall's τ-b and Spearman's ρ at system and segment level, with intervals.
    pub validity: MetricValidity,
}

/// The metric-validity panel of one protocol's judgements.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ValidityPanel {
    /// The protocol whose judgements give the human score.
    pub protocol: StudyProtocol,
    /// The human score correlated.
    pub human_score: HumanScore,
    /// One row per metric, in [`AutoMetric::ALL`] order.
    pub metrics: Vec<MetricValidityRow>,
}

/// Every computed table of a study (or of a board's studies pooled): the study page, the
/// board and the "computed tables" export all read this.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct HumanTables {
    /// Per-submission board columns, sorted by submission id.
    pub columns: Vec<HumanJudged>,
    /// % agree / neutral / disagree per submission, field and category.
    pub accuracy: Vec<AccuracyRow>,
    /// Core4 and per-dimension means per submission.
    pub dimensions: Vec<DimensionRow>,
    /// Pairwise win rates per submission.
    pub win_rates: Vec<WinRateRow>,
    /// Bradley–Terry ratings per submission.
    pub bradley_terry: Vec<BtRow>,
    /// Metric validity per protocol with automatic scores (none for comics).
    pub validity: Vec<ValidityPanel>,
}

/// Judgements split into the shapes of the statistics modules (planted pages dropped from
/// the model tables but kept for agreement).
#[derive(Default)]
struct Split {
    accuracy: Vec<AccuracyRating>,
    accuracy_all: Vec<AccuracyRating>,
    dimensions: Vec<DimensionRating>,
    dimensions_all: Vec<DimensionRating>,
    rankings: Vec<Ranking>,
}

fn split(judgements: &[Judgement]) -> Split {
    let mut out = Split::default();
    for j in judgements {
        // Planted pages are judged under their page id so they never merge with a model.
        let model = j
            .submission
            .clone()
            .unwrap_or_else(|| format!("planted:{}", j.item));
        match &j.value {
            JudgementValue::Accuracy { .. } => {
                for r in j.accuracy_ratings(&j.source_item, &model) {
                    if j.submission.is_some() {
                        out.accuracy.push(r.clone());
                    }
                    out.accuracy_all.push(r);
                }
            }
            JudgementValue::Dimensions { scores, .. } => {
                let r = DimensionRating {
                    rater: j.rater.clone(),
                    item: j.source_item.clone(),
                    model,
                    scores: *scores,
                };
                if j.submission.is_some() {
                    out.dimensions.push(r.clone());
                }
                out.dimensions_all.push(r);
            }
            JudgementValue::Ranking { entries } => out.rankings.push(Ranking {
                rater: j.rater.clone(),
                item: j.source_item.clone(),
                entries: entries.clone(),
            }),
        }
    }
    out
}

/// The automatic `metric` score of `model`'s output for `item`, from the first study that has it.
fn metric_of(studies: &[&StudyData], metric: AutoMetric, item: &str, model: &str) -> Option<f64> {
    let key = (item.to_owned(), model.to_owned());
    studies
        .iter()
        .find_map(|s| s.metric_scores.get(&key))
        .and_then(|s| metric.of(s))
}

/// The tables of pooled judgements (one study, or every study of a board).
///
/// - `accuracy`: [`accuracy_rows`] over the real (not planted) pages;
/// - `dimensions`: [`dimension_rows`]; `win_rates` and `bradley_terry`: the rankings expanded
///   to pairwise outcomes ([`expand_rankings`]), then [`win_rates`] and [`bradley_terry_rows`]
///   (default [`BtOptions`]);
/// - `columns`: per submission, the overall row of each (agree / neutral / disagree pooled over
///   fields and categories, Core4, win rate, BT rating), with its items, raters and judgements;
/// - `validity`: per protocol with automatic scores, [`metric_validity`] of each
///   [`AutoMetric`] against the mean meaning verdict (accuracy) or mean Core4 (CMPM).
///
/// All intervals resample the source items. Errors on the first malformed judgement.
fn tables(
    studies: &[&StudyData],
    resamples: usize,
    seed: u64,
) -> Result<HumanTables, JudgementError> {
    let judgements: Vec<Judgement> = studies
        .iter()
        .flat_map(|s| {
            s.judgements.iter().map(|j| Judgement {
                // Batches are per study.
                batch: format!("{}/{}", s.study, j.batch),
                ..j.clone()
            })
        })
        .collect();
    let parts = split(&judgements);
    let accuracy = accuracy_rows(&parts.accuracy, resamples, seed);
    let dimensions = dimension_rows(&parts.dimensions, resamples, seed)?;
    let comparisons = expand_rankings(&parts.rankings)?;
    let win = win_rates(&comparisons, resamples, seed);
    let bt = bradley_terry_rows(&comparisons, &BtOptions::default(), resamples, seed);

    #[derive(Default)]
    struct Counts<'a> {
        items: BTreeSet<&'a str>,
        raters: BTreeSet<&'a str>,
        judgements: usize,
    }
    let mut counts: BTreeMap<&str, Counts> = BTreeMap::new();
    for j in &judgements {
        let subs: Vec<&str> = match (&j.value, &j.submission) {
            (JudgementValue::Ranking { entries }, _) => {
                entries.iter().map(|e| e.system.as_str()).collect()
            }
            (_, Some(s)) => vec![s.as_str()],
            (_, None) => vec![],
        };
        for s in subs {
            let c = counts.entry(s).or_default();
            c.items.insert(j.source_item.as_str());
            c.raters.insert(j.rater.as_str());
            c.judgements += 1;
        }
    }
    let columns = counts
        .into_iter()
        .map(|(sub, c)| {
            let acc = accuracy
                .iter()
                .find(|r| r.model == sub && r.field.is_none() && r.category.is_none());
            HumanJudged {
                submission_id: sub.to_owned(),
                agree: acc.map(|r| r.agree),
                neutral: acc.map(|r| r.neutral),
                disagree: acc.map(|r| r.disagree),
                core4: dimensions.iter().find(|r| r.model == sub).map(|r| r.core4),
                win_rate: win.iter().find(|r| r.system == sub).map(|r| r.win_rate),
                bt_rating: bt.iter().find(|r| r.system == sub).map(|r| r.rating),
                items: c.items.len(),
                raters: c.raters.len(),
                judgements: c.judgements,
            }
        })
        .collect();

    let mut validity = Vec::new();
    let panel = |protocol,
                 human_score,
                 segments: &dyn Fn(AutoMetric) -> Result<Vec<SegmentScore>, JudgementError>|
     -> Result<Option<ValidityPanel>, JudgementError> {
        let mut metrics = Vec::new();
        for metric in AutoMetric::ALL {
            let segs = segments(metric)?;
            if !segs.is_empty() {
                metrics.push(MetricValidityRow {
                    metric,
                    validity: metric_validity(&segs, resamples, seed),
                });
            }
        }
        Ok((!metrics.is_empty()).then_some(ValidityPanel {
            protocol,
            human_score,
            metrics,
        }))
    };
    if !parts.accuracy.is_empty() {
        validity.extend(panel(
            StudyProtocol::Accuracy,
            HumanScore::MeaningVerdict,
            &|m| {
                Ok(verdict_segments(
                    &parts.accuracy,
                    ExplanationField::Meaning,
                    |i, s| metric_of(studies, m, i, s),
                ))
            },
        )?);
    }
    if !parts.dimensions.is_empty() {
        validity.extend(panel(StudyProtocol::Cmpm, HumanScore::Core4, &|m| {
            core4_segments(&parts.dimensions, |i, s| metric_of(studies, m, i, s))
        })?);
    }
    Ok(HumanTables {
        columns,
        accuracy,
        dimensions,
        win_rates: win,
        bradley_terry: bt,
        validity,
    })
}

/// One study's summary: raters kept and excluded, judgements, Fleiss' κ per batch over all its
/// accuracy pages (planted ones included: agreement is about raters, not models), Krippendorff's
/// α per dimension over all its dimension pages, and its exposed test items.
///
/// ```
/// use memeboard_core::human_eval::accuracy::Verdict3::*;
/// use memeboard_core::human_eval::board::*;
/// use memeboard_core::human_eval::study::StudyProtocol;
/// let j = |rater: &str, item: &str, meaning| Judgement {
///     rater: rater.into(), batch: "1".into(), item: format!("j{item}"), source_item: item.into(),
///     category: "pun".into(), submission: Some("s".into()),
///     value: JudgementValue::Accuracy { meaning, origin: None, example: None, errors: vec![] },
/// };
/// let study = StudyData {
///     study: "s1".into(), protocol: StudyProtocol::Accuracy, excluded_raters: 1, exposed_test_items: 0,
///     judgements: vec![j("a", "1", Agree), j("b", "1", Agree), j("a", "2", Disagree), j("b", "2", Disagree), j("a", "3", Agree), j("b", "3", Neutral)],
///     metric_scores: Default::default(),
/// };
/// let s = study_summary(&study).unwrap();
/// assert_eq!((s.raters, s.excluded_raters, s.judgements), (2, 1, 6));
/// // The accuracy module's worked example: κ = 5/11.
/// assert!((s.kappa.unwrap().mean - 5.0 / 11.0).abs() < 1e-12);
/// ```
pub fn study_summary(study: &StudyData) -> Result<HumanEvalSummary, JudgementError> {
    let parts = split(&study.judgements);
    let batches = batch_agreement(&parts.accuracy_all);
    let alpha = if parts.dimensions_all.is_empty() {
        Vec::new()
    } else {
        dimension_agreement(&parts.dimensions_all)?
    };
    let raters: BTreeSet<&str> = study.judgements.iter().map(|j| j.rater.as_str()).collect();
    Ok(HumanEvalSummary {
        study: study.study.clone(),
        protocol: study.protocol,
        raters: raters.len(),
        excluded_raters: study.excluded_raters,
        judgements: study.judgements.len(),
        kappa: kappa_summary(&batches),
        batches,
        alpha,
        exposed_test_items: study.exposed_test_items,
        reliability: None,
    })
}

/// One study's computed tables (the study page and its "computed tables" export); see
/// [`board_human`] for what each table is.
pub fn study_tables(
    study: &StudyData,
    resamples: usize,
    seed: u64,
) -> Result<HumanTables, JudgementError> {
    tables(&[study], resamples, seed)
}

/// What a board shows of its studies: the human-judged columns and validity panels over every
/// study's judgements pooled, and each study's summary.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct BoardHuman {
    /// The pooled tables.
    pub tables: HumanTables,
    /// One summary per study, in the order given.
    pub studies: Vec<HumanEvalSummary>,
}

/// The human side of a board: every study's judgements pooled into one set of tables (batch
/// ids are made unique per study; a rater keeps their pseudonym across studies), plus each
/// study's [`study_summary`].
///
/// The tables: `accuracy` ([`accuracy_rows`] over real pages, planted checks dropped),
/// `dimensions` ([`dimension_rows`]), `win_rates` and `bradley_terry` (rankings expanded to
/// pairwise outcomes, then [`win_rates`] and [`bradley_terry_rows`] with default
/// [`BtOptions`]), `columns` (per submission the overall value of each, with its items, raters
/// and judgements) and `validity` (per protocol with automatic scores, [`metric_validity`] of
/// each [`AutoMetric`] against the mean meaning verdict or the mean Core4). Every interval
/// resamples the source items.
///
/// Worked example: two submissions ranked on two memes, `good` above `bad` both times, and
/// rated Core4 3 and 1; the metric agrees on both memes, so every rank correlation is 1.
///
/// ```
/// use memeboard_core::human_eval::board::*;
/// use memeboard_core::human_eval::dimensions::DimensionScores;
/// use memeboard_core::human_eval::outputs::OutputScores;
/// use memeboard_core::human_eval::ranking::RankedEntry;
/// use memeboard_core::human_eval::study::StudyProtocol;
/// use memeboard_core::human_eval::{HUMAN_EVAL_RESAMPLES, HUMAN_EVAL_SEED};
/// let s = |v| DimensionScores { visual_correctness: v, panel_coherence: v, humour_comprehension: v, context_handling: None, faithfulness: v };
/// let mut judgements = Vec::new();
/// let mut metric_scores = std::collections::BTreeMap::new();
/// for meme in ["m1", "m2"] {
///     for (sub, v, cos) in [("good", 3, 0.9), ("bad", 1, 0.4)] {
///         judgements.push(Judgement { rater: "r".into(), batch: "1".into(), item: format!("{meme}{sub}"),
///             source_item: meme.into(), category: "c".into(), submission: Some(sub.into()),
///             value: JudgementValue::Dimensions { scores: s(v), errors: vec![] } });
///         metric_scores.insert((meme.to_string(), sub.to_string()), OutputScores { identification: Some(cos), cosine: cos, rescaled: cos, bert_f1: cos });
///     }
///     judgements.push(Judgement { rater: "r".into(), batch: "r1".into(), item: format!("{meme}rank"),
///         source_item: meme.into(), category: "c".into(), submission: None,
///         value: JudgementValue::Ranking { entries: vec![
///             RankedEntry { system: "bad".into(), rank: 2 }, RankedEntry { system: "good".into(), rank: 1 }] } });
/// }
/// let study = StudyData { study: "s".into(), protocol: StudyProtocol::Cmpm, judgements,
///     excluded_raters: 0, exposed_test_items: 0, metric_scores };
/// let human = board_human(&[study], HUMAN_EVAL_RESAMPLES, HUMAN_EVAL_SEED).unwrap();
/// let cols = &human.tables.columns;
/// assert_eq!(cols[1].submission_id, "good");
/// assert_eq!(cols[1].core4.unwrap().value, 3.0);
/// assert_eq!(cols[1].win_rate.unwrap().value, 1.0);
/// assert!(cols[1].bt_rating.unwrap().value > 1000.0 && cols[0].bt_rating.unwrap().value < 1000.0);
/// assert_eq!((cols[1].items, cols[1].raters, cols[1].judgements), (2, 1, 4));
/// let panel = &human.tables.validity[0];
/// assert_eq!(panel.metrics.len(), 4); // identification, cosine, rescaled, BERTScore
/// assert_eq!(panel.metrics[0].validity.system.spearman_rho.unwrap().value, 1.0);
/// assert_eq!(panel.metrics[0].validity.segment.n, 4);
/// ```
pub fn board_human(
    studies: &[StudyData],
    resamples: usize,
    seed: u64,
) -> Result<BoardHuman, JudgementError> {
    let refs: Vec<&StudyData> = studies.iter().collect();
    Ok(BoardHuman {
        tables: tables(&refs, resamples, seed)?,
        studies: studies
            .iter()
            .map(study_summary)
            .collect::<Result<_, _>>()?,
    })
}

/// What a board page shows of its studies: the human-judged columns (matched to model rows by
/// submission id), each study's summary, and the metric-validity panels.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct BoardHumanEval {
    /// Per-submission columns over every study of the board pooled.
    pub columns: Vec<HumanJudged>,
    /// One summary per study, oldest first.
    pub studies: Vec<HumanEvalSummary>,
    /// Metric validity per protocol (none for comic boards).
    pub validity: Vec<ValidityPanel>,
}

impl From<BoardHuman> for BoardHumanEval {
    fn from(h: BoardHuman) -> Self {
        Self {
            columns: h.tables.columns,
            studies: h.studies,
            validity: h.tables.validity,
        }
    }
}

#[cfg(test)]
mod tests;
