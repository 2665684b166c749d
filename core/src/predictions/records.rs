//! The record reader shared by every kind of prediction file, so JSON Lines and CSV framing,
//! limits and error wording are written once and behave the same for every task kind.
//!
//! A kind declares its [`Column`]s and implements [`RecordParser`]; [`read_records`] does the
//! rest:
//!
//! - a leading byte-order mark is ignored, and so are empty (or blank) lines;
//! - JSON Lines: each line is one JSON object; keys that are not declared columns are rejected
//!   as "unknown field"; a `null` value counts as absent;
//! - CSV: a header row names the columns (any order, case and surrounding spaces ignored); it
//!   must have every required column, and undeclared or repeated columns are rejected;
//!   fields follow RFC 4180 quoting (commas, doubled quotes and line breaks inside quotes); an
//!   empty cell counts as absent;
//! - every data line counts toward [`Limits::max_rows`] and the returned `num_lines`; lines
//!   over the limit are counted but not parsed;
//! - problems are collected with their line and field, and the file is rejected as a whole
//!   with the first [`MAX_LISTED_ERRORS`](super::MAX_LISTED_ERRORS) and a count.
//!
//! A kind's parser reads fields through [`Record`], whose accessors word type errors the same
//! way everywhere: "line 12, field `answer`: expected …, found …".
//!
//! ```
//! use memeboard_core::predictions::records::*;
//! use memeboard_core::predictions::{FileFormat, Limits};
//!
//! /// A kind whose lines name a panel and how many people are in it.
//! struct Panels;
//! impl RecordParser for Panels {
//!     type Line = (String, Option<u64>);
//!     const COLUMNS: &'static [Column] = &[
//!         Column::required("panel", "expect.text", "\"p1\""),
//!         Column::optional("people", "expect.whole_number", "2"),
//!     ];
//!     fn parse(&mut self, r: &Record<'_>) -> Result<Self::Line, FieldError> {
//!         Ok((r.required_text("panel")?.to_owned(), r.uint("people")?))
//!     }
//! }
//! let json = "{\"panel\": \"p1\", \"people\": 2}\n\n{\"panel\": \"p2\"}\n";
//! let csv = "\u{feff}Panel,people\np1,2\n\"p2\",\n";
//! for (text, format) in [(json, FileFormat::JsonLines), (csv, FileFormat::Csv)] {
//!     let read = read_records(text, format, Limits::default(), &mut Panels).unwrap();
//!     assert_eq!(read.lines, vec![("p1".into(), Some(2)), ("p2".into(), None)]);
//!     assert_eq!(read.num_lines, 2);
//! }
//! let bad = read_records("{\"panel\": 3, \"colour\": 1}", FileFormat::JsonLines, Limits::default(), &mut Panels);
//! assert_eq!(bad.unwrap_err().lines(), vec![
//!     "line 1, field `colour`: unknown field (expected panel, people)",
//!     "line 1, field `panel`: expected text, found 3",
//! ]);
//! ```

use super::{shorten, Collector, FileFormat, Limits, ValidationReport};
use crate::messages::Message;
use crate::msg;
use serde_json::{Map, Value};

/// One field of a kind's lines, declared once so that the reader can check CSV headers,
/// reject unknown fields and word errors alike for every kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Column {
    /// Field name (JSON key and CSV header, lower case).
    pub name: &'static str,
    /// Whether a CSV header must have it and [`Record::require`] reports it as missing.
    pub required: bool,
    /// What a value should be, as in "expected {expected}, found …": a catalogue code
    /// (`expect.text`, `expect.whole_number`…, see [`crate::messages`]).
    pub expected: &'static str,
    /// An example value as JSON, for "expected a JSON object like {…}".
    pub example: &'static str,
}

impl Column {
    /// A field every line must have.
    pub const fn required(
        name: &'static str,
        expected: &'static str,
        example: &'static str,
    ) -> Self {
        Self {
            name,
            required: true,
            expected,
            example,
        }
    }

    /// A field lines may leave out.
    pub const fn optional(
        name: &'static str,
        expected: &'static str,
        example: &'static str,
    ) -> Self {
        Self {
            name,
            required: false,
            expected,
            example,
        }
    }
}

/// A problem with one line, found by a kind's parser; the reader adds the line number.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldError {
    /// The field concerned (None = the line as a whole).
    pub field: Option<String>,
    /// What was found and what was expected.
    pub message: Message,
}

impl FieldError {
    /// A problem with `field`.
    pub fn new(field: &str, message: impl Into<Message>) -> Self {
        Self {
            field: Some(field.to_owned()),
            message: message.into(),
        }
    }

    /// A problem with the line as a whole.
    pub fn line(message: impl Into<Message>) -> Self {
        Self {
            field: None,
            message: message.into(),
        }
    }

    /// The wording for a required field that is absent (or `null`, or an empty CSV cell).
    pub fn missing(field: &str) -> Self {
        Self::new(field, msg!("file.missing"))
    }
}

/// A field's value as written: a JSON value (never `null`) or a CSV cell (trimmed, never
/// empty). Kinds that accept several shapes (a number or a text, a JSON list or "3,1,2")
/// match on it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum FieldValue<'r> {
    /// From a JSON Lines file.
    Json(&'r Value),
    /// From a CSV file: always text.
    Cell(&'r str),
}

impl FieldValue<'_> {
    /// How the value is quoted in messages: JSON as written (`3`, `"x"`, `[1]`), a CSV cell
    /// in backticks; long values are shortened.
    pub fn shown(&self) -> String {
        match self {
            Self::Json(v) => shorten(&v.to_string()),
            Self::Cell(c) => format!("`{}`", shorten(c)),
        }
    }
}

/// One data line of a file, as a kind's parser sees it.
pub struct Record<'r> {
    /// 1-based line number (the first line of a CSV record that spans lines).
    pub line: usize,
    columns: &'static [Column],
    values: Values<'r>,
}

enum Values<'r> {
    Json(&'r Map<String, Value>),
    Csv {
        cells: &'r [String],
        /// Cell index of each declared column (None = not in the header).
        at: &'r [Option<usize>],
    },
}

impl<'r> Record<'r> {
    /// The value of field `name`, or None when it is absent, `null` or an empty CSV cell.
    pub fn value(&self, name: &str) -> Option<FieldValue<'r>> {
        match self.values {
            Values::Json(obj) => obj.get(name).filter(|v| !v.is_null()).map(FieldValue::Json),
            Values::Csv { cells, at } => {
                let k = self.columns.iter().position(|c| c.name == name)?;
                let cell = cells[at[k]?].trim();
                (!cell.is_empty()).then_some(FieldValue::Cell(cell))
            }
        }
    }

    /// The value of field `name`, or the "missing" error.
    pub fn require(&self, name: &str) -> Result<FieldValue<'r>, FieldError> {
        self.value(name).ok_or_else(|| FieldError::missing(name))
    }

    /// Field `name` as text (a JSON string as written, a CSV cell trimmed).
    pub fn text(&self, name: &str) -> Result<Option<&'r str>, FieldError> {
        match self.value(name) {
            None => Ok(None),
            Some(FieldValue::Json(Value::String(s))) => Ok(Some(s)),
            Some(FieldValue::Cell(c)) => Ok(Some(c)),
            Some(other) => Err(self.unexpected(name, other)),
        }
    }

    /// Field `name` as text, or the "missing" error.
    pub fn required_text(&self, name: &str) -> Result<&'r str, FieldError> {
        self.text(name)?.ok_or_else(|| FieldError::missing(name))
    }

    /// Field `name` as a whole number ≥ 0 (a JSON number, or a CSV cell of digits).
    pub fn uint(&self, name: &str) -> Result<Option<u64>, FieldError> {
        let Some(v) = self.value(name) else {
            return Ok(None);
        };
        let n = match v {
            FieldValue::Json(Value::Number(n)) => n.as_u64(),
            FieldValue::Cell(c) if c.bytes().all(|b| b.is_ascii_digit()) => c.parse().ok(),
            _ => None,
        };
        n.map(Some).ok_or_else(|| self.unexpected(name, v))
    }

    /// The uniform type error: "expected {the column's `expected`}, found {value}".
    pub fn unexpected(&self, name: &str, found: FieldValue<'_>) -> FieldError {
        let expected = self
            .columns
            .iter()
            .find(|c| c.name == name)
            .map_or("expect.other", |c| c.expected);
        FieldError::new(
            name,
            msg!("file.expected_found", found = found.shown())
                .with_message("expected", Message::new(expected)),
        )
    }
}

/// A kind of prediction line: its columns and how one record becomes a `Line`. The parser is
/// `&mut self` so that it can check a record against the manifest and the lines before it
/// (unknown items, duplicates) in the same pass.
pub trait RecordParser {
    /// What one valid line becomes.
    type Line;
    /// The fields of a line; nothing else is accepted.
    const COLUMNS: &'static [Column];

    /// Parses one record. Report one problem, the first found; check the item id before the
    /// other fields so that a line for an unknown item is named as such.
    fn parse(&mut self, record: &Record<'_>) -> Result<Self::Line, FieldError>;

    /// An optional fast path for a raw JSON line (no `serde_json::Value`): return None to
    /// leave the line to [`parse`](Self::parse). It must accept exactly what `parse` would,
    /// with the same results and errors.
    fn parse_json_fast(
        &mut self,
        raw: &str,
        line: usize,
    ) -> Option<Result<Self::Line, FieldError>> {
        let _ = (raw, line);
        None
    }
}

/// The lines of a valid file.
#[derive(Debug, Clone, PartialEq)]
pub struct Records<L> {
    /// The parsed lines, in file order.
    pub lines: Vec<L>,
    /// Data lines read (non-empty lines, not counting a CSV header).
    pub num_lines: usize,
}

/// Reads a whole file with `parser`: all its lines, or the report of every problem (see the
/// module docs for the rules).
pub fn read_records<P: RecordParser>(
    text: &str,
    format: FileFormat,
    limits: Limits,
    parser: &mut P,
) -> Result<Records<P::Line>, ValidationReport> {
    let mut errs = Collector::for_file(text, limits)?;
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut out = Records {
        lines: Vec::new(),
        num_lines: 0,
    };
    match format {
        FileFormat::JsonLines => read_jsonl(text, limits, parser, &mut errs, &mut out),
        FileFormat::Csv => read_csv(text, limits, parser, &mut errs, &mut out),
    }
    errs.check_rows(out.num_lines, limits);
    if errs.is_empty() {
        Ok(out)
    } else {
        Err(errs.into_report())
    }
}

#[inline]
fn keep<L>(line: usize, result: Result<L, FieldError>, errs: &mut Collector, out: &mut Vec<L>) {
    match result {
        Ok(l) => out.push(l),
        Err(e) => errs.push(Some(line), e.field.as_deref(), e.message),
    }
}

fn column_names(columns: &[Column]) -> String {
    columns
        .iter()
        .map(|c| c.name)
        .collect::<Vec<_>>()
        .join(", ")
}

fn read_jsonl<P: RecordParser>(
    text: &str,
    limits: Limits,
    parser: &mut P,
    errs: &mut Collector,
    out: &mut Records<P::Line>,
) {
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        if raw.trim().is_empty() {
            continue;
        }
        out.num_lines += 1;
        if out.num_lines > limits.max_rows {
            continue;
        }
        if let Some(result) = parser.parse_json_fast(raw, line) {
            keep(line, result, errs, &mut out.lines);
            continue;
        }
        let value: Value = match serde_json::from_str(raw) {
            Ok(v) => v,
            Err(e) => {
                errs.push(
                    Some(line),
                    None,
                    msg!("file.invalid_json", column = e.column(), reason = e),
                );
                continue;
            }
        };
        let Value::Object(obj) = &value else {
            let example: Vec<String> = P::COLUMNS
                .iter()
                .filter(|c| c.required)
                .map(|c| format!("\"{}\": {}", c.name, c.example))
                .collect();
            errs.push(
                Some(line),
                None,
                msg!("file.expected_object", example = example.join(", ")),
            );
            continue;
        };
        for key in obj.keys() {
            if !P::COLUMNS.iter().any(|c| c.name == key) {
                errs.push(
                    Some(line),
                    Some(key),
                    msg!("file.unknown_field", expected = column_names(P::COLUMNS)),
                );
            }
        }
        let record = Record {
            line,
            columns: P::COLUMNS,
            values: Values::Json(obj),
        };
        keep(line, parser.parse(&record), errs, &mut out.lines);
    }
}

fn read_csv<P: RecordParser>(
    text: &str,
    limits: Limits,
    parser: &mut P,
    errs: &mut Collector,
    out: &mut Records<P::Line>,
) {
    let mut lines = text.lines().enumerate();
    let Some((header_line, header)) = next_csv_record(&mut lines) else {
        return;
    };
    let header: Vec<String> = match header {
        Ok(h) => h.iter().map(|h| h.trim().to_ascii_lowercase()).collect(),
        Err(e) => {
            errs.push(Some(header_line), None, e);
            return;
        }
    };
    let at: Vec<Option<usize>> = P::COLUMNS
        .iter()
        .map(|c| header.iter().position(|h| h == c.name))
        .collect();
    if P::COLUMNS
        .iter()
        .zip(&at)
        .any(|(c, a)| c.required && a.is_none())
    {
        let names = |required: bool| {
            P::COLUMNS
                .iter()
                .filter(|c| c.required == required)
                .map(|c| c.name)
                .collect::<Vec<_>>()
                .join(",")
        };
        let optional = names(false);
        let (columns, found) = (names(true), header.join(","));
        let message = if optional.is_empty() {
            msg!("file.csv_header", columns = columns, found = found)
        } else {
            msg!(
                "file.csv_header_optional",
                columns = columns,
                optional = optional,
                found = found
            )
        };
        errs.push(Some(header_line), None, message);
        return;
    }
    for (k, h) in header.iter().enumerate() {
        if !P::COLUMNS.iter().any(|c| c.name == h) {
            errs.push(
                Some(header_line),
                Some(h),
                msg!("file.unknown_column", expected = column_names(P::COLUMNS)),
            );
        } else if header[..k].contains(h) {
            errs.push(Some(header_line), Some(h), msg!("file.column_twice"));
        }
    }
    while let Some((line, cells)) = next_csv_record(&mut lines) {
        out.num_lines += 1;
        if out.num_lines > limits.max_rows {
            continue;
        }
        let cells = match cells {
            Ok(c) => c,
            Err(e) => {
                errs.push(Some(line), None, e);
                continue;
            }
        };
        if cells.len() != header.len() {
            errs.push(
                Some(line),
                None,
                msg!(
                    "file.csv_cells",
                    expected = header.len(),
                    found = cells.len()
                ),
            );
            continue;
        }
        let record = Record {
            line,
            columns: P::COLUMNS,
            values: Values::Csv {
                cells: &cells,
                at: &at,
            },
        };
        keep(line, parser.parse(&record), errs, &mut out.lines);
    }
}

/// The next CSV record (RFC 4180 quoting; a quoted field may span lines), skipping blank
/// lines: its 1-based first line and its fields, or the "not valid CSV" problem saying what
/// is wrong with it.
fn next_csv_record<'t>(
    lines: &mut impl Iterator<Item = (usize, &'t str)>,
) -> Option<(usize, Result<Vec<String>, Message>)> {
    let (start, mut current) = lines.find(|(_, l)| !l.trim().is_empty())?;
    let line = start + 1;
    let mut fields = Vec::new();
    let mut field = String::new();
    let mut quoted = false;
    let mut at_start = true;
    loop {
        let mut chars = current.chars().peekable();
        while let Some(c) = chars.next() {
            match c {
                '"' if at_start => {
                    quoted = true;
                    at_start = false;
                }
                '"' if quoted => {
                    if chars.peek() == Some(&'"') {
                        field.push('"');
                        chars.next();
                    } else {
                        quoted = false;
                        if let Some(&next) = chars.peek() {
                            if next != ',' {
                                let reason = msg!("file.csv_after_quote", found = next);
                                return Some((line, Err(invalid_csv(reason))));
                            }
                        }
                    }
                }
                ',' if !quoted => {
                    fields.push(std::mem::take(&mut field));
                    at_start = true;
                }
                c => {
                    field.push(c);
                    at_start = false;
                }
            }
        }
        if !quoted {
            break;
        }
        match lines.next() {
            Some((_, next)) => {
                field.push('\n');
                current = next;
            }
            None => return Some((line, Err(invalid_csv(msg!("file.csv_unclosed_quote"))))),
        }
    }
    fields.push(field);
    Some((line, Ok(fields)))
}

/// The problem of a record that is not valid CSV, giving the `reason`.
fn invalid_csv(reason: Message) -> Message {
    Message::new("file.invalid_csv").with_message("reason", reason)
}

#[cfg(test)]
mod tests;
