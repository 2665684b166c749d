//! Ratings on the server: a judging kind, so no prediction files, inputs, templates or dev
//! gold ([`NoFiles`]); raters' answers are stored unscored and counted, and read
//! as the study's judgements and export rows here ([`RatingJudged`]).

use super::capabilities::{Judged, JudgedField};
use super::{NoFiles, ServerKind};
use crate::storage::JudgementRow;
use memeboard_core::human_eval::board::{Judgement, JudgementValue};
use memeboard_core::human_eval::dimensions::Dimension;
use memeboard_core::human_eval::error_labels::validate_error_labels;
use memeboard_core::human_eval::training::PracticeField;
use memeboard_core::kinds::rating::{Answer, Gold, Planted, Prompt, Rating, RatingProtocol};
use memeboard_core::kinds::Kind;
use memeboard_core::messages::Message;
use memeboard_core::msg;
use serde_json::{json, Value};

/// How a rating page is judged: its checks, judgements and export values.
pub struct RatingJudged;

impl Judged<Rating> for RatingJudged {
    /// An accuracy page needs the reference the rater compares the output with; error
    /// labels, when the page has any, are checked as a study's are.
    fn item_problems(&self, item: &str, prompt: &Prompt, _gold: &Gold) -> Vec<Message> {
        let mut problems = Vec::new();
        if prompt.protocol == RatingProtocol::Accuracy && prompt.reference.is_none() {
            problems.push(msg!("judging.reference", item = item));
        }
        if !prompt.error_labels.is_empty() {
            if let Err(problem) = validate_error_labels(&prompt.error_labels) {
                problems.push(
                    msg!("judging.error_labels", item = item).with_message("problem", problem),
                );
            }
        }
        problems
    }

    fn judgement(
        &self,
        rater: String,
        row: &JudgementRow,
        gold: Gold,
        answer: Answer,
    ) -> Option<Judgement> {
        Some(Judgement {
            rater,
            batch: format!("rating-{}", gold.batch),
            item: row.item_id.clone(),
            source_item: gold.source_item,
            category: row.category.clone(),
            submission: gold.submission_id,
            value: match answer {
                Answer::Accuracy {
                    meaning,
                    origin,
                    example,
                    errors,
                } => JudgementValue::Accuracy {
                    meaning,
                    origin,
                    example,
                    errors,
                },
                Answer::Dimensions { scores, errors } => {
                    JudgementValue::Dimensions { scores, errors }
                }
            },
        })
    }

    /// One value per field given (accuracy) or per dimension scored, then one `error:<key>`
    /// field (value 1) per error label the rater tagged.
    fn export_fields(&self, gold: &Gold, answer: &Answer, _order: &[usize]) -> Vec<JudgedField> {
        let field = |field: &str, value: Value| JudgedField {
            batch: gold.batch,
            source_item: gold.source_item.clone(),
            submission: gold.submission_id.clone(),
            planted: gold.planted.map(|p| match p {
                Planted::Reference => "reference",
                Planted::OtherMeaning => "other_meaning",
            }),
            field: field.to_owned(),
            value,
            shown_at: None,
        };
        let mut fields: Vec<JudgedField> = answer_values(answer)
            .into_iter()
            .map(|(name, value)| field(name, value))
            .collect();
        fields.extend(
            answer
                .errors()
                .iter()
                .map(|key| field(&format!("error:{key}"), json!(1))),
        );
        fields
    }

    fn practice_fields(
        &self,
        prompt: &Prompt,
        expected: &Answer,
        given: &Answer,
        _order: &[usize],
    ) -> Result<Vec<PracticeField>, Message> {
        rating_practice(prompt, expected, given)
    }
}

/// The fields of a rating as `(field, value)`, in the export's order: each verdict given
/// (`meaning` → `"agree"`), or each dimension scored (`faithfulness` → `2`).
fn answer_values(answer: &Answer) -> Vec<(&'static str, Value)> {
    match answer {
        Answer::Accuracy {
            meaning,
            origin,
            example,
            ..
        } => [
            ("meaning", Some(meaning)),
            ("origin", origin.as_ref()),
            ("example", example.as_ref()),
        ]
        .into_iter()
        .filter_map(|(name, v)| v.map(|v| (name, serde_json::to_value(v).unwrap_or(Value::Null))))
        .collect(),
        Answer::Dimensions { scores, .. } => Dimension::ALL
            .into_iter()
            .filter_map(|d| scores.get(d).map(|v| (d.key(), json!(v))))
            .collect(),
    }
}

/// A rating field's value as the practice feedback's short key (`agree`, `2`).
fn value_key(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// A practice rating beside the expected one: every field the expected answer has, matched
/// when the rater gave the same verdict or score.
fn rating_practice(
    prompt: &Prompt,
    expected: &Answer,
    given: &Answer,
) -> Result<Vec<PracticeField>, Message> {
    Rating::accept(prompt, &[], expected.clone()).map_err(|e| e.to_message())?;
    let given = answer_values(given);
    Ok(answer_values(expected)
        .into_iter()
        .map(|(field, expected)| {
            let expected = value_key(&expected);
            let given = given
                .iter()
                .find(|(f, _)| *f == field)
                .map(|(_, v)| value_key(v))
                .unwrap_or_default();
            PracticeField {
                field: field.to_owned(),
                matched: given == expected,
                given,
                expected,
            }
        })
        .collect())
}

impl ServerKind for Rating {
    type Files = NoFiles<Self>;
    const PAPER_METRICS: &'static [&'static str] = &[];
    const JUDGED: Option<&'static dyn Judged<Self>> = Some(&RatingJudged);
}
