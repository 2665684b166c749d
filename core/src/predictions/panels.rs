//! Multi-panel prediction files (CMPM): panel-order answers ([`validate_orders`]) and
//! structure-type answers ([`validate_types`]), what their answer texts accept
//! ([`parse_order`], [`parse_structure`]), and scoring them to [`ItemOutcome`](crate::metrics::ItemOutcome)s for boards
//! ([`order_outcomes`], [`type_outcomes`]).
//!
//! # Lines
//!
//! ```text
//! {"item_id": "cmpm-…", "order": [3, 1, 2, 4]}     order recovery: a JSON array of integers
//! {"item_id": "cmpm-…", "order": "3 → 1 → 2 → 4"}  or a text (see below)
//! {"item_id": "cmpm-…", "structure": "narrative"}  structure typing: a text (see below)
//! ```
//!
//! CSV files have a header with the same two columns (`item_id,order` or
//! `item_id,structure`); an `order` cell is always text (`"3,1,2,4"` quoted, or `3 1 2 4`).
//!
//! # Unparseable answers are kept, not rejected
//!
//! As in the benchmark, an answer that is there but does not parse does not reject the file:
//! it is kept as [`Parsed::Unparseable`] (its text shortened to 80 characters), counted
//! ([`ValidatedPanelFile::num_unparseable`]) and scored as unparseable: for order recovery it
//! leaves accuracy on parseable answers and lowers the parse rate; for typing it is a wrong
//! prediction (a false negative of the gold type) and lowers the parse rate too.
//!
//! What does reject the file (every problem listed with its line and field, as for the other
//! kinds; see [`records`](super::records)): a line that is not valid JSON or not an object, a
//! missing or non-text `item_id`, an unknown item id, a second line for an item (naming the
//! first), a missing answer field (absent or `null` in JSON Lines; a CSV header without the
//! column), a `structure` that is not a JSON string, and any other field or column.
//!
//! An empty answer is an answer that did not parse: `"order": ""` in JSON Lines, and an
//! empty `order` or `structure` cell in CSV (the column is there, so the cell is the answer;
//! this differs from the other kinds, where an empty CSV cell counts as absent).
//!
//! # Accepted orders ([`parse_order`])
//!
//! An order names the *displayed* panel numbers (1-based, as shown) in reading order; it must
//! name each of `1..=n` exactly once, where `n` is the item's number of panels (the manifest
//! item's `options`, `"1"` to `"n"`).
//!
//! | Written as                                   | Example           | Reads as     |
//! |----------------------------------------------|-------------------|--------------|
//! | JSON array of integers (JSON Lines only)     | `[3, 1, 2, 4]`    | 3, 1, 2, 4   |
//! | comma, with or without spaces                | `3,1,2,4` `3, 1, 2, 4` | 3, 1, 2, 4 |
//! | spaces only                                  | `3 1 2 4`         | 3, 1, 2, 4   |
//! | in square brackets or parentheses            | `[3,1,2,4]` `(3 1 2 4)` | 3, 1, 2, 4 |
//! | hyphen, `>`, `->`, `=>` or `→`               | `3-1-2-4` `3>1>2>4` `3 -> 1 -> 2 -> 4` `3→1→2→4` | 3, 1, 2, 4 |
//! | full-width comma `，`, ideographic comma `、`, semicolon `;` | `3，1，2，4` `3、1、2、4` | 3, 1, 2, 4 |
//! | any of these with a trailing `.` or `。`     | `3,1,2,4.`        | 3, 1, 2, 4   |
//!
//! Numbers are ASCII digits; spaces may surround a separator; separators may differ within an
//! order but two in a row (`3,,1`), a leading or a trailing one (`3,1,2,4,`) may not. Not
//! accepted (unparseable): missing, repeated or out-of-range numbers (`1,2` for four panels,
//! `1,1,2,3`, `0,1,2,3`), words (`panel 3 first`, `three, one, two, four`), full-width digits,
//! an empty text, a JSON number, object or array of non-integers.
//!
//! # Accepted structure types ([`parse_structure`])
//!
//! | Written as                                                  | Example                   | Reads as      |
//! |-------------------------------------------------------------|---------------------------|---------------|
//! | the key, any letter case, quotes and a trailing `.`/`。` ignored | `narrative` `"Parallel."` | narrative, parallel |
//! | the Chinese name                                            | `叙事` `递进` `对话` `并列` `对比` | narrative … comparison |
//! | a text in which exactly one type occurs (keys as whole words, any case; Chinese names anywhere) | `Type: Narrative` `这是对比结构` | narrative, comparison |
//!
//! The keys are `narrative`, `progressive`, `conversational`, `parallel`, `comparison`. A text
//! naming two or more types (`narrative or parallel`), none (`a story`), or a key only inside
//! a longer word (`narratives`) is unparseable. A "whole word" is one not touching an ASCII
//! letter, digit or `_` on either side.
//!
//! ```
//! use memeboard_core::predictions::panels::*;
//! use memeboard_core::predictions::*;
//! let manifest = TaskManifest { task: "cmpm-order".into(), items: vec![
//!     ManifestItem { id: "c1".into(), category: "x".into(), split: Split::Test,
//!         options: ["1", "2", "3"].map(String::from).to_vec() },
//!     ManifestItem { id: "c2".into(), category: "x".into(), split: Split::Test,
//!         options: ["1", "2", "3"].map(String::from).to_vec() },
//! ]};
//! let file = "{\"item_id\":\"c1\",\"order\":\"2 → 3 → 1\"}\n{\"item_id\":\"c2\",\"order\":\"the second one\"}";
//! let ok = validate_orders(file, FileFormat::JsonLines, &manifest, Limits::default()).unwrap();
//! assert_eq!(ok.predictions, vec![
//!     Some(Parsed::Value(vec![2, 3, 1])),
//!     Some(Parsed::Unparseable("the second one".into())),
//! ]);
//! assert_eq!(ok.num_unparseable(), 1);
//! ```

use super::per_item::{by_item, OneLinePerItem};
use super::records::{read_records, Column, FieldError, FieldValue, Record, RecordParser};
use super::{FileFormat, Limits, ManifestItem, TaskManifest, ValidationReport};
use crate::kinds::panels::{check_permutation, StructureType};
use serde::{Deserialize, Serialize};
use serde_json::Value;

mod answers;
mod scoring;
pub use answers::*;
pub use scoring::*;

/// Longest raw text kept for an unparseable answer, in characters: enough to see what a
/// model wrote, bounded so a file of long rambles stays small.
pub const MAX_UNPARSEABLE_CHARS: usize = 80;

/// One line's answer: read, or kept as unparseable (raw text shortened to ≤ 80 chars), because
/// the benchmark counts unparseable answers instead of rejecting the file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Parsed<T> {
    /// The answer, read.
    Value(T),
    /// The answer as written (a JSON value other than a string as JSON text), shortened to
    /// [`MAX_UNPARSEABLE_CHARS`] characters including a closing "…".
    Unparseable(String),
}

/// A valid multi-panel prediction file, aligned with the manifest, so that scoring can walk
/// gold and predictions side by side.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ValidatedPanelFile<T> {
    /// Item ids in manifest order.
    pub item_ids: Vec<String>,
    /// Data lines read: non-empty lines, not counting a CSV header (the same count for every
    /// task kind; in a valid file, one per answered item).
    pub num_lines: usize,
    /// The answer for each manifest item (`None` = no line for it, scored as unparseable).
    pub predictions: Vec<Option<Parsed<T>>>,
    /// Items without a line.
    pub missing: Vec<String>,
}

impl<T> ValidatedPanelFile<T> {
    /// "N item(s) have no prediction and are counted as unparseable: a, b, …" or None, so the
    /// upload page can warn about a partial file the way it does for multiple choice.
    ///
    /// ```
    /// use memeboard_core::predictions::panels::{Parsed, ValidatedPanelFile};
    /// let file: ValidatedPanelFile<Vec<usize>> = ValidatedPanelFile {
    ///     item_ids: vec!["a".into(), "b".into()], num_lines: 1,
    ///     predictions: vec![Some(Parsed::Value(vec![2, 1])), None], missing: vec!["b".into()] };
    /// assert_eq!(file.missing_warning().as_deref(),
    ///     Some("1 item(s) have no prediction and are counted as unparseable: b"));
    /// ```
    pub fn missing_warning(&self) -> Option<String> {
        self.missing_message().map(|m| m.to_string())
    }

    /// [`missing_warning`](Self::missing_warning) as a catalogue message (either language).
    pub fn missing_message(&self) -> Option<crate::messages::Message> {
        super::missing_message(&self.missing, "file.missing_unparseable")
    }

    /// Lines whose answer did not parse (items without a line are not counted here; they are
    /// in [`missing`](Self::missing)), so the upload page can show the parse rate at once.
    ///
    /// ```
    /// use memeboard_core::predictions::panels::{Parsed, ValidatedPanelFile};
    /// let file: ValidatedPanelFile<Vec<usize>> = ValidatedPanelFile {
    ///     item_ids: vec!["a".into(), "b".into(), "c".into()], num_lines: 2,
    ///     predictions: vec![Some(Parsed::Value(vec![2, 1])), Some(Parsed::Unparseable("?".into())), None],
    ///     missing: vec!["c".into()] };
    /// assert_eq!(file.num_unparseable(), 1);
    /// ```
    pub fn num_unparseable(&self) -> usize {
        self.predictions
            .iter()
            .filter(|p| matches!(p, Some(Parsed::Unparseable(_))))
            .count()
    }
}

/// Validates an order-recovery prediction file: JSON Lines `{"item_id": "…", "order": …}`
/// or CSV with header `item_id,order`, against the manifest (an item's number of panels is
/// the number of its `options`). All or nothing for the framing (see the module docs);
/// answers that do not parse are kept as [`Parsed::Unparseable`].
///
/// ```
/// use memeboard_core::predictions::panels::*;
/// use memeboard_core::predictions::*;
/// let item = |id: &str| ManifestItem { id: id.into(), category: "x".into(), split: Split::Test,
///     options: ["1", "2", "3", "4"].map(String::from).to_vec() };
/// let manifest = TaskManifest { task: "t".into(), items: vec![item("c1"), item("c2"), item("c3")] };
/// let csv = "item_id,order\nc1,\"3,1,2,4\"\nc2,3 1 2\n";
/// let ok = validate_orders(csv, FileFormat::Csv, &manifest, Limits::default()).unwrap();
/// assert_eq!(ok.predictions, vec![
///     Some(Parsed::Value(vec![3, 1, 2, 4])), Some(Parsed::Unparseable("3 1 2".into())), None]);
/// assert_eq!(ok.missing, vec!["c3"]);
/// let bad = validate_orders("{\"item_id\":\"c9\",\"order\":[1,2,3,4]}\n{\"item_id\":\"c1\"}",
///     FileFormat::JsonLines, &manifest, Limits::default()).unwrap_err();
/// assert_eq!(bad.lines(), vec![
///     "line 1, field `item_id`: unknown item id `c9`",
///     "line 2, field `order`: missing",
/// ]);
/// ```
pub fn validate_orders(
    text: &str,
    format: FileFormat,
    manifest: &TaskManifest,
    limits: Limits,
) -> Result<ValidatedPanelFile<Vec<usize>>, ValidationReport> {
    let mut parser = OrderParser {
        lines: PanelLines::new(manifest, format),
        items: &manifest.items,
    };
    let read = read_records(text, format, limits, &mut parser)?;
    Ok(assemble(manifest, read.num_lines, read.lines))
}

/// Validates a structure-typing prediction file: JSON Lines
/// `{"item_id": "…", "structure": "…"}` or CSV with header `item_id,structure`. All or nothing
/// for the framing (see the module docs); answers that do not parse are kept as
/// [`Parsed::Unparseable`].
///
/// ```
/// use memeboard_core::kinds::panels::StructureType;
/// use memeboard_core::predictions::panels::*;
/// use memeboard_core::predictions::*;
/// let item = |id: &str| ManifestItem { id: id.into(), category: "x".into(), split: Split::Test, options: vec![] };
/// let manifest = TaskManifest { task: "t".into(), items: vec![item("c1"), item("c2")] };
/// let file = "{\"item_id\":\"c1\",\"structure\":\"Type: Narrative\"}\n{\"item_id\":\"c2\",\"structure\":\"narrative or parallel\"}";
/// let ok = validate_types(file, FileFormat::JsonLines, &manifest, Limits::default()).unwrap();
/// assert_eq!(ok.predictions, vec![
///     Some(Parsed::Value(StructureType::Narrative)),
///     Some(Parsed::Unparseable("narrative or parallel".into())),
/// ]);
/// let bad = validate_types("{\"item_id\":\"c1\",\"structure\":3}", FileFormat::JsonLines, &manifest, Limits::default()).unwrap_err();
/// assert_eq!(bad.lines(), vec!["line 1, field `structure`: expected text, found 3"]);
/// ```
pub fn validate_types(
    text: &str,
    format: FileFormat,
    manifest: &TaskManifest,
    limits: Limits,
) -> Result<ValidatedPanelFile<StructureType>, ValidationReport> {
    let mut parser = TypeParser {
        lines: PanelLines::new(manifest, format),
    };
    let read = read_records(text, format, limits, &mut parser)?;
    Ok(assemble(manifest, read.num_lines, read.lines))
}

/// Puts the lines' answers at their manifest positions and names the items without one.
fn assemble<T>(
    manifest: &TaskManifest,
    num_lines: usize,
    lines: Vec<(usize, Parsed<T>)>,
) -> ValidatedPanelFile<T> {
    let placed = by_item(manifest, lines);
    ValidatedPanelFile {
        item_ids: placed.item_ids,
        num_lines,
        predictions: placed.values,
        missing: placed.missing,
    }
}

/// What both multi-panel parsers share: the item lookup, one line per item, and how an absent
/// answer field reads in each format.
struct PanelLines<'m> {
    items: OneLinePerItem<'m>,
    format: FileFormat,
}

impl<'m> PanelLines<'m> {
    fn new(manifest: &'m TaskManifest, format: FileFormat) -> Self {
        Self {
            items: OneLinePerItem::new(manifest),
            format,
        }
    }

    /// The line's manifest position (the `item_id` errors first).
    fn item<'r>(&mut self, r: &Record<'r>) -> Result<(usize, &'r str), FieldError> {
        self.items.item(r)
    }

    /// The answer field: its value, `None` for an empty CSV cell (an empty answer), or the
    /// "missing" error when a JSON line lacks it (or has `null`).
    fn answer<'r>(
        &self,
        r: &Record<'r>,
        field: &str,
    ) -> Result<Option<FieldValue<'r>>, FieldError> {
        match (r.value(field), self.format) {
            (Some(v), _) => Ok(Some(v)),
            (None, FileFormat::Csv) => Ok(None),
            (None, FileFormat::JsonLines) => Err(FieldError::missing(field)),
        }
    }

    /// Records item `i`'s line, or the duplicate error naming its first line.
    fn first(&mut self, i: usize, id: &str, line: usize) -> Result<(), FieldError> {
        self.items.first(i, id, line)
    }
}

/// Reads order-recovery lines against a manifest.
struct OrderParser<'m> {
    lines: PanelLines<'m>,
    items: &'m [ManifestItem],
}

impl RecordParser for OrderParser<'_> {
    type Line = (usize, Parsed<Vec<usize>>);
    const COLUMNS: &'static [Column] = &[
        Column::required("item_id", "expect.text", "\"…\""),
        Column::required("order", "expect.panel_order", "[3, 1, 2, 4]"),
    ];

    fn parse(&mut self, r: &Record<'_>) -> Result<Self::Line, FieldError> {
        let (i, id) = self.lines.item(r)?;
        let n = self.items.get(i).map_or(0, |it| it.options.len());
        let parsed = match self.lines.answer(r, "order")? {
            None => Parsed::Unparseable(String::new()),
            Some(v) => order_answer(v, n),
        };
        self.lines.first(i, id, r.line)?;
        Ok((i, parsed))
    }
}

/// Reads structure-typing lines against a manifest.
struct TypeParser<'m> {
    lines: PanelLines<'m>,
}

impl RecordParser for TypeParser<'_> {
    type Line = (usize, Parsed<StructureType>);
    const COLUMNS: &'static [Column] = &[
        Column::required("item_id", "expect.text", "\"…\""),
        Column::required("structure", "expect.text", "\"narrative\""),
    ];

    fn parse(&mut self, r: &Record<'_>) -> Result<Self::Line, FieldError> {
        let (i, id) = self.lines.item(r)?;
        let parsed = match self.lines.answer(r, "structure")? {
            None => Parsed::Unparseable(String::new()),
            Some(v) => match text_of(v) {
                Some(text) => {
                    parse_structure(text).map_or_else(|| unparseable(text), Parsed::Value)
                }
                None => return Err(r.unexpected("structure", v)),
            },
        };
        self.lines.first(i, id, r.line)?;
        Ok((i, parsed))
    }
}

/// An `order` value read for an item of `n` panels: a text by [`parse_order`], a JSON array
/// of integers as it is; either must be a permutation of `1..=n`.
fn order_answer(v: FieldValue<'_>, n: usize) -> Parsed<Vec<usize>> {
    match (text_of(v), v) {
        (Some(text), _) => parse_order(text, n).map_or_else(|| unparseable(text), Parsed::Value),
        (None, FieldValue::Json(json)) => json
            .as_array()
            .and_then(|numbers| {
                numbers
                    .iter()
                    .map(|x| x.as_u64().and_then(|x| usize::try_from(x).ok()))
                    .collect::<Option<Vec<usize>>>()
            })
            .filter(|order| check_permutation(order, n).is_ok())
            .map_or_else(|| unparseable(&json.to_string()), Parsed::Value),
        (None, FieldValue::Cell(text)) => unparseable(text),
    }
}

/// A field's value as text: a CSV cell, or a JSON string.
fn text_of(v: FieldValue<'_>) -> Option<&str> {
    match v {
        FieldValue::Cell(text) => Some(text),
        FieldValue::Json(Value::String(text)) => Some(text),
        FieldValue::Json(_) => None,
    }
}

/// The kept text of an answer that did not parse: trimmed, at most
/// [`MAX_UNPARSEABLE_CHARS`] characters (the last one "…" when cut).
fn unparseable<T>(text: &str) -> Parsed<T> {
    let text = text.trim();
    if text.chars().count() <= MAX_UNPARSEABLE_CHARS {
        return Parsed::Unparseable(text.to_owned());
    }
    let mut kept: String = text.chars().take(MAX_UNPARSEABLE_CHARS - 1).collect();
    kept.push('…');
    Parsed::Unparseable(kept)
}

#[cfg(test)]
mod tests;
