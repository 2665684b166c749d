//! Comic explanation prediction lines (the `panel_explanation` kind) and
//! [`validate_comic_explanations`], built on the shared record reader. Nothing is scored:
//! a valid file is stored as the model's outputs, to be judged by people.

use super::per_item::{by_item, OneLinePerItem};
use super::records::{read_records, Column, FieldError, Record, RecordParser};
use super::{FileFormat, Limits, TaskManifest, ValidationReport};
use serde::{Deserialize, Serialize};

/// A valid comic explanation file, aligned with the manifest.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ValidatedComicExplanations {
    /// Item ids in manifest order.
    pub item_ids: Vec<String>,
    /// The explanation for each item (`None` = missing).
    pub explanations: Vec<Option<String>>,
    /// Data lines read (non-empty lines, not counting a CSV header).
    pub num_lines: usize,
    /// Items without a line.
    pub missing: Vec<String>,
}

/// Validates a comic explanation file: JSON Lines `{"item_id": "…", "explanation": "…"}` or
/// CSV with header `item_id,explanation`; `meaning` is accepted in place of `explanation`
/// (the field name of meme explanation files), but not both on one line. Each explanation is
/// 1 to [`MAX_EXPLANATION_CHARS`](super::MAX_EXPLANATION_CHARS) characters after trimming.
/// All or nothing, with line- and field-level messages.
///
/// ```
/// use memeboard_core::predictions::*;
/// let manifest = TaskManifest { task: "t".into(), items: vec![
///     ManifestItem { id: "c1".into(), category: "x".into(), split: Split::Test, options: vec![] },
///     ManifestItem { id: "c2".into(), category: "x".into(), split: Split::Test, options: vec![] },
/// ]};
/// let ok = validate_comic_explanations(
///     "{\"item_id\":\"c1\",\"explanation\":\"The cat loses to Monday.\"}\n{\"item_id\":\"c2\",\"meaning\":\"Plans vs. reality.\"}",
///     FileFormat::JsonLines, &manifest, Limits::default()).unwrap();
/// assert_eq!(ok.explanations[1].as_deref(), Some("Plans vs. reality."));
/// let bad = validate_comic_explanations("item_id,explanation\nc1,\n", FileFormat::Csv, &manifest, Limits::default()).unwrap_err();
/// assert_eq!(bad.lines(), vec!["line 2, field `explanation`: missing"]);
/// ```
pub fn validate_comic_explanations(
    text: &str,
    format: FileFormat,
    manifest: &TaskManifest,
    limits: Limits,
) -> Result<ValidatedComicExplanations, ValidationReport> {
    let mut parser = ComicParser {
        lines: OneLinePerItem::new(manifest),
    };
    let read = read_records(text, format, limits, &mut parser)?;
    let placed = by_item(manifest, read.lines);
    Ok(ValidatedComicExplanations {
        item_ids: placed.item_ids,
        num_lines: read.num_lines,
        explanations: placed.values,
        missing: placed.missing,
    })
}

/// Reads comic explanation lines against a manifest: one line per item at most.
struct ComicParser<'m> {
    lines: OneLinePerItem<'m>,
}

impl RecordParser for ComicParser<'_> {
    type Line = (usize, String);
    const COLUMNS: &'static [Column] = &[
        Column::required("item_id", "expect.text", "\"…\""),
        // One of the two is required on every line (checked by the parser, so that a CSV
        // header may name either).
        Column::optional("explanation", "expect.text", "\"…\""),
        Column::optional("meaning", "expect.text", "\"…\""),
    ];

    fn parse(&mut self, r: &Record<'_>) -> Result<Self::Line, FieldError> {
        let (i, id) = self.lines.item(r)?;
        let explanation = super::explanation::explanation_text(r, "explanation")?;
        let meaning = super::explanation::explanation_text(r, "meaning")?;
        let text = match (explanation, meaning) {
            (Some(_), Some(_)) => {
                return Err(FieldError::new(
                    "meaning",
                    crate::msg!("file.explanation_and_meaning"),
                ))
            }
            (Some(t), None) | (None, Some(t)) => t,
            (None, None) => return Err(FieldError::missing("explanation")),
        };
        self.lines.first(i, id, r.line)?;
        Ok((i, text))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::predictions::MAX_EXPLANATION_CHARS;

    fn manifest() -> TaskManifest {
        crate::predictions::test_manifest(&["c1", "c2", "c3"])
    }

    fn validate(text: &str, format: FileFormat) -> Result<ValidatedComicExplanations, Vec<String>> {
        validate_comic_explanations(text, format, &manifest(), Limits::default())
            .map_err(|r| r.lines())
    }

    #[test]
    fn both_formats_and_both_field_names_read_the_same() {
        let json = [
            r#"{"item_id": "c1", "explanation": " The plan fails. "}"#,
            "",
            r#"{"item_id": "c3", "meaning": "还是睡觉好"}"#,
        ]
        .join("\n");
        let csv = "item_id,explanation\nc1, The plan fails. \n\nc3,还是睡觉好\n";
        let csv_alias = "Item_ID,Meaning\nc1,\"The plan fails.\"\nc3,还是睡觉好\n";
        for (text, format) in [
            (json.as_str(), FileFormat::JsonLines),
            (csv, FileFormat::Csv),
            (csv_alias, FileFormat::Csv),
        ] {
            let ok = validate(text, format).unwrap();
            assert_eq!(
                ok.explanations,
                vec![
                    Some("The plan fails.".to_owned()),
                    None,
                    Some("还是睡觉好".to_owned())
                ]
            );
            assert_eq!(ok.missing, vec!["c2"]);
            assert_eq!(ok.num_lines, 2);
        }
    }

    #[test]
    fn problems_name_their_line_and_field() {
        let long = "x".repeat(MAX_EXPLANATION_CHARS + 1);
        let text = [
            r#"{"item_id": "c1"}"#.to_owned(),
            r#"{"item_id": "c2", "explanation": "a", "meaning": "b"}"#.to_owned(),
            format!(r#"{{"item_id": "c3", "explanation": "{long}"}}"#),
            r#"{"item_id": "c9", "explanation": "a"}"#.to_owned(),
            r#"{"item_id": "c1", "explanation": 3}"#.to_owned(),
            r#"{"item_id": "c2", "explanation": "ok", "score": 1}"#.to_owned(),
            "not json".to_owned(),
        ]
        .join("\n");
        assert_eq!(
            validate(&text, FileFormat::JsonLines).unwrap_err(),
            vec![
                "line 1, field `explanation`: missing",
                "line 2, field `meaning`: give the explanation in `explanation` or in `meaning`, not both",
                "line 3, field `explanation`: expected 1 to 2000 characters of text, found 2001 characters",
                "line 4, field `item_id`: unknown item id `c9`",
                "line 5, field `explanation`: expected text, found 3",
                "line 6, field `score`: unknown field (expected item_id, explanation, meaning)",
                "line 7: not valid JSON (column 2): expected ident at line 1 column 2",
            ]
        );
    }

    #[test]
    fn a_second_line_for_a_comic_is_a_duplicate() {
        let text = "item_id,explanation\nc1,a\nc1,b\n";
        assert_eq!(
            validate(text, FileFormat::Csv).unwrap_err(),
            vec!["line 3, field `item_id`: duplicate prediction for `c1`; first on line 2"]
        );
    }

    #[test]
    fn the_row_limit_applies() {
        let limits = Limits {
            max_bytes: 1 << 20,
            max_rows: 1,
        };
        let err = validate_comic_explanations(
            "item_id,explanation\nc1,a\nc2,b\n",
            FileFormat::Csv,
            &manifest(),
            limits,
        )
        .unwrap_err();
        assert!(
            err.lines().iter().any(|l| l.contains('1')),
            "{:?}",
            err.lines()
        );
    }
}
