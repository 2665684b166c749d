//! Reading an answer-level export (CSV or JSON Lines) into [`StatsRecord`]s, with the
//! line and column of anything that does not parse.

use super::super::cells::{de_opt_time, de_time, parse_list, parse_pairs};
use super::super::{ColumnType, COLUMNS};
use serde::Deserialize;
use serde_json::{Map, Value};
use std::collections::HashMap;

/// Why an export could not be read or summarised: where, and what was expected.
#[derive(Debug, thiserror::Error)]
pub enum ExportReadError {
    /// A line or cell that does not parse.
    #[error("line {line}: {message}")]
    Line {
        /// 1-based line number in the file.
        line: usize,
        /// What was found and expected.
        message: String,
    },
    /// A column the statistics need is missing from the CSV header.
    #[error(
        "the CSV header has no column `{0}` (the statistics need it; see the data dictionary)"
    )]
    MissingColumn(String),
    /// The file as a whole cannot be summarised (empty, several tasks, unknown kind).
    #[error("{0}")]
    File(String),
}

/// The columns the statistics read: the rest of the export may be removed before release
/// (e.g. the Prolific ids) without changing a number.
pub const STATS_COLUMNS: &[&str] = &[
    "task",
    "task_kind",
    "participant",
    "session",
    "session_completed_at",
    "item_id",
    "category",
    "split",
    "board_half",
    "subsets",
    "familiarity",
    "num_options",
    "choice",
    "score",
    "answered_at",
    "excluded",
];

/// The part of an export row the statistics read. Times are read from ISO text or, in files
/// exported before times were ISO text, from integer milliseconds.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[allow(missing_docs)]
pub struct StatsRecord {
    pub task: String,
    pub task_kind: String,
    pub participant: String,
    pub session: String,
    #[serde(default, deserialize_with = "de_opt_time")]
    pub session_completed_at: Option<i64>,
    pub item_id: String,
    pub category: String,
    pub split: String,
    pub board_half: Option<String>,
    pub subsets: Vec<String>,
    pub familiarity: Option<String>,
    pub num_options: Option<i64>,
    pub choice: Option<i64>,
    #[serde(deserialize_with = "exact_f64")]
    pub score: Option<f64>,
    #[serde(deserialize_with = "de_time")]
    pub answered_at: i64,
    pub excluded: i64,
}

/// A number read from its JSON text with the standard library's exact parser (serde_json's
/// default float parsing may be one unit in the last place off, which would move a mean).
fn exact_f64<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<f64>, D::Error> {
    let raw: Option<Box<serde_json::value::RawValue>> = Option::deserialize(d)?;
    raw.map(|r| {
        r.get()
            .parse::<f64>()
            .map_err(|_| serde::de::Error::custom(format!("expected a number, found {}", r.get())))
    })
    .transpose()
}

/// Reads an export (CSV with or without its byte-order mark, or JSON Lines: told apart by
/// the first character).
pub fn read_export(text: &str) -> Result<Vec<StatsRecord>, ExportReadError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    if text.trim_start().starts_with('{') {
        text.lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty())
            .map(|(n, l)| {
                serde_json::from_str(l).map_err(|e| ExportReadError::Line {
                    line: n + 1,
                    message: format!("expected an export object: {e}"),
                })
            })
            .collect()
    } else {
        read_csv(text)
    }
}

/// RFC 4180 records with the line each starts on.
fn csv_records(text: &str) -> Result<Vec<(usize, Vec<String>)>, ExportReadError> {
    let mut out = Vec::new();
    let (mut record, mut field) = (Vec::new(), String::new());
    let (mut line, mut start) = (1usize, 1usize);
    let mut chars = text.chars().peekable();
    let mut quoted = false;
    while let Some(c) = chars.next() {
        if quoted {
            match c {
                '"' if chars.peek() == Some(&'"') => {
                    chars.next();
                    field.push('"');
                }
                '"' => quoted = false,
                '\n' => {
                    line += 1;
                    field.push(c);
                }
                _ => field.push(c),
            }
            continue;
        }
        match c {
            '"' if field.is_empty() => quoted = true,
            ',' => record.push(std::mem::take(&mut field)),
            '\r' if chars.peek() == Some(&'\n') => {}
            '\n' => {
                record.push(std::mem::take(&mut field));
                if !(record.len() == 1 && record[0].is_empty()) {
                    out.push((start, std::mem::take(&mut record)));
                }
                record.clear();
                line += 1;
                start = line;
            }
            _ => field.push(c),
        }
    }
    if quoted {
        return Err(ExportReadError::Line {
            line: start,
            message: "a quoted field is not closed (expected a closing \")".into(),
        });
    }
    if !field.is_empty() || !record.is_empty() {
        record.push(field);
        out.push((start, record));
    }
    Ok(out)
}

/// A text cell as written before the export's formula neutralisation (a `'` before `=`, `+`,
/// `-`, `@`, tab or carriage return).
fn unneutralised(s: &str) -> &str {
    match s.strip_prefix('\'') {
        Some(rest) if rest.starts_with(['=', '+', '-', '@', '\t', '\r']) => rest,
        _ => s,
    }
}

/// One CSV cell as the JSON value the same column has in JSON Lines (times as their text or
/// old integer milliseconds, for [`de_time`]); an error says what was expected.
fn cell_value(name: &str, t: ColumnType, cell: &str) -> Result<Value, String> {
    let plain = unneutralised(cell);
    Ok(match t {
        ColumnType::List if cell.is_empty() => Value::Array(Vec::new()),
        ColumnType::Pairs if cell.is_empty() => Value::Object(Map::new()),
        _ if cell.is_empty() => Value::Null,
        ColumnType::Text => Value::String(plain.to_owned()),
        ColumnType::Integer => cell
            .parse::<i64>()
            .map(Value::from)
            .map_err(|_| format!("column `{name}`: expected an integer, found `{cell}`"))?,
        ColumnType::Number => cell
            .parse::<f64>()
            .ok()
            .and_then(|x| serde_json::Number::from_f64(x).map(Value::Number))
            .ok_or_else(|| format!("column `{name}`: expected a number, found `{cell}`"))?,
        // Files exported before times were ISO text hold integer milliseconds.
        ColumnType::Time => cell
            .parse::<i64>()
            .map_or_else(|_| Value::String(cell.to_owned()), Value::from),
        // Files exported before lists and objects were plain text hold compact JSON.
        ColumnType::List | ColumnType::Pairs if is_old_json(plain) => {
            serde_json::from_str(plain)
                .map_err(|e| format!("column `{name}`: expected JSON, found `{cell}` ({e})"))?
        }
        ColumnType::List => {
            Value::Array(parse_list(plain).into_iter().map(Value::String).collect())
        }
        ColumnType::Pairs => parse_pairs(plain)
            .map(|pairs| {
                pairs
                    .into_iter()
                    .map(|(k, v)| (k, Value::from(v)))
                    .collect()
            })
            .map(Value::Object)
            .ok_or_else(|| format!("column `{name}`: expected key=value pairs, found `{cell}`"))?,
    })
}

/// A list or object cell of a file exported before they were plain text (compact JSON).
fn is_old_json(cell: &str) -> bool {
    (cell.starts_with('[') && cell.ends_with(']')) || (cell.starts_with('{') && cell.ends_with('}'))
}

fn read_csv(text: &str) -> Result<Vec<StatsRecord>, ExportReadError> {
    let mut records = csv_records(text)?.into_iter();
    let Some((_, header)) = records.next() else {
        return Err(ExportReadError::File(
            "the file is empty (expected a header row)".into(),
        ));
    };
    let types: HashMap<&str, ColumnType> = COLUMNS.iter().map(|(n, t, _)| (*n, *t)).collect();
    let mut columns = Vec::new();
    for name in STATS_COLUMNS {
        let index = header
            .iter()
            .position(|h| h == name)
            .ok_or_else(|| ExportReadError::MissingColumn((*name).to_owned()))?;
        columns.push((*name, index, types[name]));
    }
    records
        .map(|(line, cells)| {
            let bad = |message: String| ExportReadError::Line { line, message };
            if cells.len() != header.len() {
                return Err(bad(format!(
                    "expected {} fields as in the header, found {}",
                    header.len(),
                    cells.len()
                )));
            }
            let mut object = Map::new();
            for (name, index, t) in &columns {
                let value = cell_value(name, *t, &cells[*index]).map_err(bad)?;
                object.insert((*name).to_owned(), value);
            }
            // Through JSON text, so numbers take the same exact path as in JSON Lines.
            serde_json::from_str(&Value::Object(object).to_string()).map_err(|e| bad(e.to_string()))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_fields_read_back_with_quotes_line_breaks_and_neutralised_formulas() {
        let text = "\u{feff}a,b\r\n\"x, \"\"y\"\"\",\"two\nlines\"\r\n'=SUM(1),'plain\n";
        let records = csv_records(text.trim_start_matches('\u{feff}')).unwrap();
        assert_eq!(records[0], (1, vec!["a".into(), "b".into()]));
        assert_eq!(
            records[1],
            (2, vec!["x, \"y\"".into(), "two\nlines".into()])
        );
        assert_eq!(records[2].0, 4);
        assert_eq!(unneutralised(&records[2].1[0]), "=SUM(1)");
        assert_eq!(unneutralised(&records[2].1[1]), "'plain");
        assert!(matches!(
            csv_records("a\n\"open"),
            Err(ExportReadError::Line { line: 2, .. })
        ));
    }

    #[test]
    fn a_csv_without_a_needed_column_names_it() {
        let err = read_export("task,task_kind\nx,text_mcq\n").unwrap_err();
        assert!(err.to_string().contains("no column `participant`"), "{err}");
    }
}
