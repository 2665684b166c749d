//! A prediction file's own header: the run conditions written into the file, so that a file
//! says how it was made wherever it travels. In JSON Lines the first line may be
//! `{"conditions": {"options": "with_meanings"}}` (or `{"conditions": "options=with_meanings"}`);
//! in CSV, `# conditions: options=with_meanings` before the column names. The upload's own
//! `conditions` and the header must agree where both name a condition.

use super::FileFormat;
use crate::conditions::parse_conditions;
use crate::messages::Message;
use crate::msg;
use serde_json::Value;
use std::collections::BTreeMap;

/// A file's header, read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileHeader {
    /// The condition values it states (not yet checked against a task).
    pub conditions: BTreeMap<String, String>,
    /// Its 1-based line.
    pub line: usize,
    /// The file with the header line left blank, so the data lines keep their numbers.
    pub rest: String,
}

/// The header of `text` in `format`, `None` when its first non-blank line is not one (a
/// JSON Lines object with the one key `conditions`; a CSV line starting `# conditions:`). A
/// header whose values are not texts, or not `name=value` pairs, is an error naming its line.
///
/// ```
/// use memeboard_core::predictions::{file_header, FileFormat};
/// let text = "{\"conditions\": {\"shot\": \"one_shot\"}}\n{\"item_id\": \"a\", \"explanation\": \"x\"}\n";
/// let h = file_header(text, FileFormat::JsonLines).unwrap().unwrap();
/// assert_eq!(h.conditions["shot"], "one_shot");
/// assert_eq!(h.line, 1);
/// assert_eq!(h.rest, "\n{\"item_id\": \"a\", \"explanation\": \"x\"}\n");
/// let csv = "# conditions: shot=one_shot\nitem_id,explanation\na,x\n";
/// let h = file_header(csv, FileFormat::Csv).unwrap().unwrap();
/// assert_eq!(h.conditions["shot"], "one_shot");
/// assert!(file_header("item_id,explanation\n", FileFormat::Csv).unwrap().is_none());
/// ```
pub fn file_header(text: &str, format: FileFormat) -> Result<Option<FileHeader>, Message> {
    let body = text.strip_prefix('\u{feff}').unwrap_or(text);
    // The first non-blank line, and where the text after it starts.
    let mut start = 0;
    let mut found = None;
    for (index, piece) in body.split_inclusive('\n').enumerate() {
        if !piece.trim().is_empty() {
            found = Some((index, piece, start + piece.len()));
            break;
        }
        start += piece.len();
    }
    let Some((index, first, consumed)) = found else {
        return Ok(None);
    };
    let line = index + 1;
    let trimmed = first.trim();
    let conditions = match format {
        FileFormat::JsonLines => match json_header(trimmed) {
            Some(value) => json_conditions(value, line)?,
            None => return Ok(None),
        },
        FileFormat::Csv => match csv_header(trimmed) {
            Some(pairs) => parse_conditions(pairs)?,
            None => return Ok(None),
        },
    };
    // Everything after the header line, behind as many newlines as lines it replaces.
    let mut rest = "\n".repeat(line);
    rest.push_str(&body[consumed..]);
    Ok(Some(FileHeader {
        conditions,
        line,
        rest,
    }))
}

/// The `conditions` value of a JSON Lines header line (an object with that one key).
fn json_header(line: &str) -> Option<Value> {
    if !line.starts_with('{') || !line.contains("\"conditions\"") {
        return None;
    }
    match serde_json::from_str::<Value>(line).ok()? {
        Value::Object(mut o) if o.len() == 1 => o.remove("conditions"),
        _ => None,
    }
}

/// The pairs of a CSV header line (`# conditions: name=value, …`).
fn csv_header(line: &str) -> Option<&str> {
    let rest = line.strip_prefix('#')?.trim_start();
    let (word, pairs) = rest.split_once(':')?;
    word.trim()
        .eq_ignore_ascii_case("conditions")
        .then_some(pairs)
}

/// The conditions a JSON header states: an object of texts, or one `name=value,…` text.
fn json_conditions(value: Value, line: usize) -> Result<BTreeMap<String, String>, Message> {
    let bad = |found: &str| msg!("condition.header", line = line, found = found);
    match value {
        Value::String(pairs) => parse_conditions(&pairs),
        Value::Object(o) => o
            .into_iter()
            .map(|(name, v)| match v {
                Value::String(s) if !s.trim().is_empty() => Ok((name, s.trim().to_owned())),
                other => Err(bad(&format!("`{name}`: {other}"))),
            })
            .collect(),
        other => Err(bad(&other.to_string())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_header_keeps_the_data_lines_numbers() {
        let text = "\n\u{20}\n{\"conditions\": \"options=with_meanings, shot=one_shot\"}\r\n{\"item_id\":\"a\"}\n";
        let h = file_header(text, FileFormat::JsonLines).unwrap().unwrap();
        assert_eq!(h.line, 3);
        assert_eq!(h.conditions.len(), 2);
        assert_eq!(h.rest.lines().nth(3), Some("{\"item_id\":\"a\"}"));
        assert!(h.rest.lines().take(3).all(str::is_empty));
    }

    #[test]
    fn data_lines_and_other_objects_are_no_header() {
        for text in [
            "{\"item_id\":\"a\",\"conditions\":{\"x\":\"y\"}}\n",
            "{\"item_id\":\"a\"}\n",
            "{\"conditions\": \n",
            "",
        ] {
            assert_eq!(file_header(text, FileFormat::JsonLines), Ok(None), "{text}");
        }
        assert_eq!(
            file_header("# a comment\nitem_id\n", FileFormat::Csv),
            Ok(None)
        );
    }

    #[test]
    fn bad_headers_name_their_line() {
        let e =
            file_header("{\"conditions\": {\"shot\": 1}}\n", FileFormat::JsonLines).unwrap_err();
        assert_eq!(e.code(), "condition.header");
        assert!(e.to_string().contains("line 1"), "{e}");
        assert!(file_header("{\"conditions\": [1]}\n", FileFormat::JsonLines).is_err());
        let e = file_header("# conditions: shot\n", FileFormat::Csv).unwrap_err();
        assert_eq!(e.code(), "condition.pair");
    }
}
