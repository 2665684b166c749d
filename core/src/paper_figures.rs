//! Figures a paper published (model and human scores from its tables), read from a JSON Lines
//! or CSV file so that boards can show them beside the site's own rows, marked with their
//! citation. One line is one figure: which task, whose score under which run conditions, on
//! which metric, category and subset, the value, the items behind it and the source.
//!
//! ```
//! use memeboard_core::paper_figures::read_paper_figures;
//! use memeboard_core::predictions::FileFormat;
//! let text = r#"{"task": "mcq", "model": "GPT-4o", "conditions": "options=with_meanings", "metric": "accuracy", "category": "", "subset": "full", "value": 0.912, "n": 1268, "source": "CHIME (EMNLP 2025), Table 5"}"#;
//! let figures = read_paper_figures(text, FileFormat::JsonLines).unwrap();
//! let (line, figure) = &figures[0];
//! assert_eq!((*line, figure.model.as_str()), (1, "GPT-4o"));
//! assert_eq!(figure.conditions["options"], "with_meanings");
//! assert_eq!(figure.category, None);
//! let bad = read_paper_figures(r#"{"task": "mcq", "model": "M", "metric": "accuracy", "value": "high", "source": "S"}"#, FileFormat::JsonLines);
//! assert_eq!(bad.unwrap_err().lines(), vec!["line 1, field `value`: expected a number, found \"high\""]);
//! ```

use crate::conditions::{parse_conditions, Conditions};
use crate::msg;
use crate::predictions::records::{
    read_records, Column, FieldError, FieldValue, Record, RecordParser,
};
use crate::predictions::{FileFormat, Limits, ValidationReport};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// One published figure.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct PaperFigure {
    /// The task: its slug, or its name within the benchmark (`mcq` for `<benchmark>-mcq`).
    pub task: String,
    /// The model (or human group) the figure is about, as the paper names it.
    pub model: String,
    /// The run conditions, as on an upload (`options=with_meanings`); empty: the defaults.
    pub conditions: Conditions,
    /// The metric's key (`accuracy`, `macro_f1`, `cosine`…).
    pub metric: String,
    /// The category key (`slang`, `panels_4_6`, `sound:song`…); `None`: overall.
    pub category: Option<String>,
    /// The item subset (`full`, or e.g. `main`).
    pub subset: String,
    /// The value on the board's scale (accuracies as fractions).
    pub value: f64,
    /// Items behind the figure, when the paper says.
    pub n: Option<u64>,
    /// Where it was published: the paper and its table.
    pub source: String,
}

/// Longest model name, metric, category or subset key.
const MAX_NAME: usize = 100;
/// Longest source.
const MAX_SOURCE: usize = 300;

/// The columns of a published-figures file.
struct FigureLines;

impl FigureLines {
    /// A key field: lower-case letters, digits, `_`, `-` and `:` (`sound:song`); empty text
    /// is absent.
    fn key(r: &Record<'_>, name: &str) -> Result<Option<String>, FieldError> {
        let Some(text) = r.text(name)?.map(str::trim).filter(|t| !t.is_empty()) else {
            return Ok(None);
        };
        let ok = text.len() <= MAX_NAME
            && text
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || "_-:".contains(c));
        if !ok {
            return Err(FieldError::new(name, msg!("figures.key", found = text)));
        }
        Ok(Some(text.to_owned()))
    }

    /// A number (JSON number, or a CSV cell that reads as one), finite.
    fn number(r: &Record<'_>, name: &str) -> Result<f64, FieldError> {
        let v = r.require(name)?;
        let x = match v {
            FieldValue::Json(Value::Number(n)) => n.as_f64(),
            FieldValue::Cell(c) => c.parse::<f64>().ok(),
            _ => None,
        };
        x.filter(|x| x.is_finite())
            .ok_or_else(|| r.unexpected(name, v))
    }
}

impl RecordParser for FigureLines {
    type Line = (usize, PaperFigure);
    const COLUMNS: &'static [Column] = &[
        Column::required("task", "expect.text", "\"mcq\""),
        Column::required("model", "expect.text", "\"GPT-4o\""),
        Column::optional("conditions", "expect.text", "\"options=with_meanings\""),
        Column::required("metric", "expect.text", "\"accuracy\""),
        Column::optional("category", "expect.text", "\"slang\""),
        Column::optional("subset", "expect.text", "\"full\""),
        Column::required("value", "expect.number", "0.886"),
        Column::optional("n", "expect.whole_number", "240"),
        Column::required("source", "expect.text", "\"CHIME (EMNLP 2025), Table 4\""),
    ];

    fn parse(&mut self, r: &Record<'_>) -> Result<(usize, PaperFigure), FieldError> {
        let task = Self::key(r, "task")?.ok_or_else(|| FieldError::missing("task"))?;
        let model = r.required_text("model")?.trim();
        if model.is_empty() || model.chars().count() > MAX_NAME {
            return Err(FieldError::new(
                "model",
                msg!("field.required_chars", field = "model", max = MAX_NAME),
            ));
        }
        let conditions = parse_conditions(r.text("conditions")?.unwrap_or(""))
            .map_err(|m| FieldError::new("conditions", m))?
            .into_iter()
            .collect();
        let metric = Self::key(r, "metric")?.ok_or_else(|| FieldError::missing("metric"))?;
        let category = Self::key(r, "category")?.filter(|c| c != "overall");
        let subset = Self::key(r, "subset")?.unwrap_or_else(|| "full".to_owned());
        let value = Self::number(r, "value")?;
        let n = r.uint("n")?;
        let source = r.required_text("source")?.trim();
        if source.is_empty() || source.chars().count() > MAX_SOURCE {
            return Err(FieldError::new(
                "source",
                msg!("field.required_chars", field = "source", max = MAX_SOURCE),
            ));
        }
        Ok((
            r.line,
            PaperFigure {
                task,
                model: model.to_owned(),
                conditions,
                metric,
                category,
                subset,
                value,
                n,
                source: source.to_owned(),
            },
        ))
    }
}

/// Every figure of a published-figures file with its line number, or the report of every
/// problem (line, field, what was expected). Checks against the benchmark (tasks,
/// conditions, categories) are the importer's.
pub fn read_paper_figures(
    text: &str,
    format: FileFormat,
) -> Result<Vec<(usize, PaperFigure)>, ValidationReport> {
    read_records(text, format, Limits::default(), &mut FigureLines).map(|r| r.lines)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_and_json_lines_read_alike() {
        let json = "{\"task\":\"clips\",\"model\":\"Gemini 2.5 Flash\",\"conditions\":\"input=audio_visual\",\"metric\":\"accuracy\",\"category\":\"lang:en\",\"subset\":\"main\",\"value\":0.5,\"source\":\"AVMeme Exam, Table 2\"}\n";
        let csv = "task,model,conditions,metric,category,subset,value,n,source\n\
                   clips,Gemini 2.5 Flash,input=audio_visual,accuracy,lang:en,main,0.5,,\"AVMeme Exam, Table 2\"\n";
        let a = read_paper_figures(json, FileFormat::JsonLines).expect("json");
        let b = read_paper_figures(csv, FileFormat::Csv).expect("csv");
        assert_eq!(a[0].1, b[0].1);
        assert_eq!(a[0].1.subset, "main");
        assert_eq!(a[0].1.category.as_deref(), Some("lang:en"));
        assert_eq!(b[0].0, 2, "the CSV line after the header");
    }

    #[test]
    fn every_bad_line_is_named_with_its_field() {
        let text = "{\"task\":\"MCQ\",\"model\":\"M\",\"metric\":\"accuracy\",\"value\":1,\"source\":\"S\"}\n\
                    {\"task\":\"mcq\",\"model\":\"M\",\"metric\":\"accuracy\",\"value\":1,\"source\":\"S\",\"conditions\":\"x\"}\n\
                    {\"task\":\"mcq\",\"model\":\"\",\"metric\":\"accuracy\",\"value\":1,\"source\":\"S\"}\n";
        let lines = read_paper_figures(text, FileFormat::JsonLines)
            .expect_err("three problems")
            .lines();
        assert_eq!(lines.len(), 3, "{lines:?}");
        assert!(lines[0].starts_with("line 1, field `task`"), "{lines:?}");
        assert!(
            lines[1].starts_with("line 2, field `conditions`"),
            "{lines:?}"
        );
        assert!(lines[2].starts_with("line 3, field `model`"), "{lines:?}");
    }
}
