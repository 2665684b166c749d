//! Explanation prediction lines (CHIME task B) and [`validate_explanations`], built on the
//! shared record reader.

use super::per_item::{by_item, OneLinePerItem};
use super::records::{read_records, Column, FieldError, Record, RecordParser};
use super::{FileFormat, Limits, TaskManifest, ValidationReport};
use serde::{Deserialize, Serialize};

/// One predicted explanation (CHIME task B): the meaning, and optionally origin and example.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ExplanationPrediction {
    /// What the meme means.
    pub meaning: String,
    /// Where it comes from.
    pub origin: Option<String>,
    /// An example sentence.
    pub example: Option<String>,
}

/// A valid explanation prediction file, aligned with the manifest.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ValidatedExplanations {
    /// Item ids in manifest order.
    pub item_ids: Vec<String>,
    /// The prediction for each item (`None` = missing, scored as 0).
    pub predictions: Vec<Option<ExplanationPrediction>>,
    /// Data lines read: non-empty lines, not counting a CSV header (the same count for every
    /// task kind; in a valid file, one per answered item).
    pub num_lines: usize,
    /// Items without a line.
    pub missing: Vec<String>,
}

/// Longest accepted explanation field, in characters (a bound on what is embedded and stored).
pub const MAX_EXPLANATION_CHARS: usize = 2000;

/// Validates an explanation prediction file: JSON Lines
/// `{"item_id": "…", "meaning": "…", "origin": "…", "example": "…"}` (origin and example
/// optional) or CSV with header `item_id,meaning[,origin][,example]`. All or nothing, with
/// line- and field-level messages, like [`validate_predictions`].
///
/// ```
/// use memeboard_core::predictions::*;
/// let manifest = TaskManifest { task: "t".into(), items: vec![
///     ManifestItem { id: "m1".into(), category: "x".into(), split: Split::Test, options: vec![] },
/// ]};
/// let ok = validate_explanations("{\"item_id\":\"m1\",\"meaning\":\"很累\"}", FileFormat::JsonLines, &manifest, Limits::default()).unwrap();
/// assert_eq!(ok.predictions[0].as_ref().unwrap().meaning, "很累");
/// let bad = validate_explanations("{\"item_id\":\"m1\",\"meaning\":\"\"}", FileFormat::JsonLines, &manifest, Limits::default()).unwrap_err();
/// assert_eq!(bad.lines(), vec!["line 1, field `meaning`: expected 1 to 2000 characters of text, found an empty string"]);
/// ```
pub fn validate_explanations(
    text: &str,
    format: FileFormat,
    manifest: &TaskManifest,
    limits: Limits,
) -> Result<ValidatedExplanations, ValidationReport> {
    let mut parser = ExplanationParser {
        lines: OneLinePerItem::new(manifest),
    };
    let read = read_records(text, format, limits, &mut parser)?;
    let placed = by_item(manifest, read.lines);
    Ok(ValidatedExplanations {
        item_ids: placed.item_ids,
        num_lines: read.num_lines,
        predictions: placed.values,
        missing: placed.missing,
    })
}

/// Reads explanation lines against a manifest: one line per item at most.
struct ExplanationParser<'m> {
    lines: OneLinePerItem<'m>,
}

impl RecordParser for ExplanationParser<'_> {
    type Line = (usize, ExplanationPrediction);
    const COLUMNS: &'static [Column] = &[
        Column::required("item_id", "expect.text", "\"…\""),
        Column::required("meaning", "expect.text", "\"…\""),
        Column::optional("origin", "expect.text", "\"…\""),
        Column::optional("example", "expect.text", "\"…\""),
    ];

    fn parse(&mut self, r: &Record<'_>) -> Result<Self::Line, FieldError> {
        let (i, id) = self.lines.item(r)?;
        let meaning =
            explanation_text(r, "meaning")?.ok_or_else(|| FieldError::missing("meaning"))?;
        let origin = explanation_text(r, "origin")?;
        let example = explanation_text(r, "example")?;
        self.lines.first(i, id, r.line)?;
        Ok((
            i,
            ExplanationPrediction {
                meaning,
                origin,
                example,
            },
        ))
    }
}

/// An explanation field, trimmed: 1 to [`MAX_EXPLANATION_CHARS`] characters.
pub(super) fn explanation_text(r: &Record<'_>, field: &str) -> Result<Option<String>, FieldError> {
    let Some(text) = r.text(field)? else {
        return Ok(None);
    };
    let text = text.trim();
    let chars = text.chars().count();
    if chars == 0 || chars > MAX_EXPLANATION_CHARS {
        let message = if chars == 0 {
            crate::msg!("file.explanation_length_empty", max = MAX_EXPLANATION_CHARS)
        } else {
            crate::msg!(
                "file.explanation_length_chars",
                max = MAX_EXPLANATION_CHARS,
                found = chars
            )
        };
        return Err(FieldError::new(field, message));
    }
    Ok(Some(text.to_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn manifest() -> TaskManifest {
        crate::predictions::test_manifest(&["m1", "m2", "m3"])
    }

    fn validate(text: &str, format: FileFormat) -> Result<ValidatedExplanations, Vec<String>> {
        validate_explanations(text, format, &manifest(), Limits::default()).map_err(|r| r.lines())
    }

    fn prediction(
        meaning: &str,
        origin: Option<&str>,
        example: Option<&str>,
    ) -> ExplanationPrediction {
        ExplanationPrediction {
            meaning: meaning.into(),
            origin: origin.map(Into::into),
            example: example.map(Into::into),
        }
    }

    #[test]
    fn a_good_file_reads_the_same_in_json_lines_and_csv() {
        let json = [
            r#"{"item_id": "m1", "meaning": " 很累 ", "origin": "网络", "example": null}"#,
            "",
            r#"{"item_id": "m3", "meaning": "躺平", "example": "我躺平了"}"#,
        ]
        .join("\n");
        let csv = "item_id,meaning,origin,example\nm1, 很累 ,网络,\n\nm3,躺平,,我躺平了\n";
        for (text, format) in [
            (json.as_str(), FileFormat::JsonLines),
            (csv, FileFormat::Csv),
        ] {
            let ok = validate(text, format).unwrap();
            assert_eq!(ok.item_ids, vec!["m1", "m2", "m3"]);
            assert_eq!(
                ok.predictions,
                vec![
                    Some(prediction("很累", Some("网络"), None)),
                    None,
                    Some(prediction("躺平", None, Some("我躺平了"))),
                ]
            );
            assert_eq!(ok.missing, vec!["m2"]);
            assert_eq!(ok.num_lines, 2, "data lines, blank lines not counted");
        }
    }

    #[test]
    fn a_second_line_for_an_item_is_a_duplicate_naming_the_first() {
        let text = "{\"item_id\":\"m1\",\"meaning\":\"a\"}\n{\"item_id\":\"m2\",\"meaning\":\"b\"}\n{\"item_id\":\"m1\",\"meaning\":\"c\"}";
        assert_eq!(
            validate(text, FileFormat::JsonLines).unwrap_err(),
            vec!["line 3, field `item_id`: duplicate prediction for `m1`; first on line 1"]
        );
    }

    #[test]
    fn an_unknown_item_id_is_named_before_any_other_field_even_after_lines_in_manifest_order() {
        let text = "item_id,meaning\nm1,a\nm2,b\nnope,c\nm3,\nnope too,\n";
        assert_eq!(
            validate(text, FileFormat::Csv).unwrap_err(),
            vec![
                "line 4, field `item_id`: unknown item id `nope`",
                "line 5, field `meaning`: missing",
                "line 6, field `item_id`: unknown item id `nope too`",
            ]
        );
    }

    #[test]
    fn over_long_or_empty_text_is_rejected_with_its_length() {
        let long = "梗".repeat(MAX_EXPLANATION_CHARS + 1);
        let text = format!(
            "{{\"item_id\":\"m1\",\"meaning\":\"{long}\"}}\n{{\"item_id\":\"m2\",\"meaning\":\"b\",\"origin\":\"  \"}}\n{{\"item_id\":\"m3\",\"meaning\":\"c\",\"example\":3}}"
        );
        assert_eq!(
            validate(&text, FileFormat::JsonLines).unwrap_err(),
            vec![
                "line 1, field `meaning`: expected 1 to 2000 characters of text, found 2001 characters",
                "line 2, field `origin`: expected 1 to 2000 characters of text, found an empty string",
                "line 3, field `example`: expected text, found 3",
            ]
        );
        let exactly = "梗".repeat(MAX_EXPLANATION_CHARS);
        let ok = validate(&format!("item_id,meaning\nm1,{exactly}\n"), FileFormat::Csv).unwrap();
        assert_eq!(
            ok.predictions[0]
                .as_ref()
                .map(|p| p.meaning.chars().count()),
            Some(MAX_EXPLANATION_CHARS)
        );
    }

    #[test]
    fn an_unknown_column_or_field_is_rejected_in_both_formats() {
        assert_eq!(
            validate("item_id,meaning,confidence\nm1,a,0.9\n", FileFormat::Csv).unwrap_err(),
            vec!["line 1, field `confidence`: unknown column (expected item_id, meaning, origin, example)"]
        );
        assert_eq!(
            validate("{\"item_id\":\"m1\",\"meaning\":\"a\",\"confidence\":0.9}", FileFormat::JsonLines).unwrap_err(),
            vec!["line 1, field `confidence`: unknown field (expected item_id, meaning, origin, example)"]
        );
        assert_eq!(
            validate("item_id,origin\nm1,a\n", FileFormat::Csv).unwrap_err(),
            vec!["line 1: expected a header row with columns item_id,meaning (optional: origin,example), found `item_id,origin`"]
        );
    }
}
