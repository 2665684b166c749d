//! One rater's judgement of one judging page, as the statistics read it: the verdicts,
//! scores or ranks given, and the error labels the rater tagged the output with.

use crate::human_eval::accuracy::{AccuracyRating, ExplanationField, Verdict3};
use crate::human_eval::dimensions::DimensionScores;
use crate::human_eval::ranking::RankedEntry;
use serde::{Deserialize, Serialize};

/// What a rater gave on one judging page.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum JudgementValue {
    /// CHIME accuracy verdicts; origin and example only where the output has them.
    Accuracy {
        /// Verdict on the meaning.
        meaning: Verdict3,
        /// Verdict on the origin.
        origin: Option<Verdict3>,
        /// Verdict on the example.
        example: Option<Verdict3>,
        /// The error labels the rater tagged the output with (keys; issue 31).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        errors: Vec<String>,
    },
    /// CMPM dimension scores.
    Dimensions {
        /// The five 1–3 scores.
        scores: DimensionScores,
        /// The error labels the rater tagged the output with (keys; issue 31).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        errors: Vec<String>,
    },
    /// CMPM holistic ranking: each candidate's submission and rank (1 = best, ties equal).
    Ranking {
        /// The ranked submissions.
        entries: Vec<RankedEntry>,
    },
}

/// One judgement of one (not excluded) rater on one judging page.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Judgement {
    /// Rater pseudonym.
    pub rater: String,
    /// Batch id (unique within the study, e.g. `rating-3`).
    pub batch: String,
    /// Judging item id.
    pub item: String,
    /// The source item (meme, comic) judged: the bootstrap unit.
    pub source_item: String,
    /// Its category.
    pub category: String,
    /// The submission whose output was rated; `None` for planted outputs and rankings.
    pub submission: Option<String>,
    /// What was given.
    pub value: JudgementValue,
}

impl JudgementValue {
    /// The error labels the rater tagged the output with (none for a ranking).
    pub fn errors(&self) -> &[String] {
        match self {
            Self::Accuracy { errors, .. } | Self::Dimensions { errors, .. } => errors,
            Self::Ranking { .. } => &[],
        }
    }
}

impl Judgement {
    /// An accuracy judgement as one [`AccuracyRating`] per verdict given (meaning, then origin
    /// and example where the output has them), judged as `item` of `model` (the source item
    /// or the page, a submission or a planted page's name); none for the other protocols.
    pub(in crate::human_eval) fn accuracy_ratings(
        &self,
        item: &str,
        model: &str,
    ) -> Vec<AccuracyRating> {
        let JudgementValue::Accuracy {
            meaning,
            origin,
            example,
            ..
        } = &self.value
        else {
            return Vec::new();
        };
        let fields = [
            (ExplanationField::Meaning, Some(*meaning)),
            (ExplanationField::Origin, *origin),
            (ExplanationField::Example, *example),
        ];
        fields
            .into_iter()
            .filter_map(|(field, verdict)| {
                Some(AccuracyRating {
                    rater: self.rater.clone(),
                    batch: self.batch.clone(),
                    item: item.to_owned(),
                    category: self.category.clone(),
                    model: model.to_owned(),
                    field,
                    verdict: verdict?,
                })
            })
            .collect()
    }
}
