//! Multi-panel prediction files (CMPM): panel-order answers ([`validate_orders`]) and
//! structure-type answers ([`validate_types`]), what their answer texts accept
//! ([`parse_order`], [`parse_structure`]), and scoring them to [`ItemOutcome`]s for boards
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

use super::records::{read_records, Column, FieldError, FieldValue, Record, RecordParser};
use super::{shorten, FileFormat, ItemIndex, Limits, ManifestItem, TaskManifest, ValidationReport};
use crate::kinds::panels::{check_permutation, reads_in_order, StructureType};
use crate::metrics::{ItemOutcome, OutcomeValue, Verdict};
use serde::{Deserialize, Serialize};
use serde_json::Value;

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

/// Reads a reading order over displayed panel numbers for an item of `num_panels` panels, so
/// that every way models commonly write one scores the same; `None` unless it is a permutation
/// of `1..=num_panels` in one of the forms of the module docs' table.
///
/// ```
/// use memeboard_core::predictions::panels::parse_order;
/// let want = Some(vec![3, 1, 2, 4]);
/// for text in ["3,1,2,4", "3, 1, 2, 4", "3 1 2 4", "[3,1,2,4]", "3-1-2-4", "3>1>2>4",
///              "3→1→2→4", "3 -> 1 -> 2 -> 4", "3，1，2，4", "3、1、2、4", " 3,1,2,4. "] {
///     assert_eq!(parse_order(text, 4), want, "{text}");
/// }
/// for text in ["1,2", "1,2,3,4,5", "1,1,2,3", "0,1,2,3", "3,,1,2,4", "panel 3 first", ""] {
///     assert_eq!(parse_order(text, 4), None, "{text}");
/// }
/// ```
pub fn parse_order(text: &str, num_panels: usize) -> Option<Vec<usize>> {
    let mut t = text.trim();
    t = t.strip_suffix(['.', '。']).unwrap_or(t).trim_end();
    for (open, close) in [('[', ']'), ('(', ')')] {
        if let Some(inner) = t.strip_prefix(open).and_then(|s| s.strip_suffix(close)) {
            t = inner.trim();
            break;
        }
    }
    let mut order = Vec::with_capacity(num_panels);
    let mut rest = t;
    loop {
        let digits = rest.len() - rest.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        if digits == 0 {
            return None;
        }
        order.push(rest[..digits].parse::<usize>().ok()?);
        rest = &rest[digits..];
        if rest.is_empty() {
            break;
        }
        rest = skip_separator(rest)?;
    }
    check_permutation(&order, num_panels).ok()?;
    Some(order)
}

/// The text after one separator between two numbers (spaces, at most one mark, spaces), or
/// None when there is none or two marks in a row.
fn skip_separator(text: &str) -> Option<&str> {
    const MARKS: [&str; 9] = ["->", "=>", "→", ",", "，", "、", ";", "-", ">"];
    let after_spaces = text.trim_start();
    let spaced = after_spaces.len() < text.len();
    let after_mark = MARKS
        .iter()
        .find_map(|m| after_spaces.strip_prefix(m))
        .map(str::trim_start);
    match after_mark {
        Some(rest) => Some(rest),
        None if spaced => Some(after_spaces),
        None => None,
    }
}

/// Reads a structure-type answer, so that a model answering "Type: Narrative" is read as
/// narrative: [`StructureType::parse`] first, else the one type that occurs in the text (keys
/// as whole words in any case, Chinese names anywhere); `None` when none or several occur.
///
/// ```
/// use memeboard_core::kinds::panels::StructureType::*;
/// use memeboard_core::predictions::panels::parse_structure;
/// assert_eq!(parse_structure(" Narrative. "), Some(Narrative));
/// assert_eq!(parse_structure("对比"), Some(Comparison));
/// assert_eq!(parse_structure("Type: Narrative"), Some(Narrative));
/// assert_eq!(parse_structure("The structure is PARALLEL (并列)."), Some(Parallel));
/// assert_eq!(parse_structure("这是一个递进结构"), Some(Progressive));
/// assert_eq!(parse_structure("narrative or parallel"), None);
/// assert_eq!(parse_structure("narratives"), None);
/// assert_eq!(parse_structure("a story"), None);
/// ```
pub fn parse_structure(text: &str) -> Option<StructureType> {
    if let Some(t) = StructureType::parse(text) {
        return Some(t);
    }
    let lower = text.to_lowercase();
    let mut found = StructureType::ALL
        .into_iter()
        .filter(|t| contains_word(&lower, t.key()) || lower.contains(t.name_zh()));
    let first = found.next()?;
    found.next().is_none().then_some(first)
}

/// Whether `word` occurs in `text` not touching an ASCII letter, digit or `_`.
fn contains_word(text: &str, word: &str) -> bool {
    let is_word_char = |c: char| c.is_ascii_alphanumeric() || c == '_';
    text.match_indices(word).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + word.len()..].chars().next();
        !before.is_some_and(is_word_char) && !after.is_some_and(is_word_char)
    })
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
    let mut predictions: Vec<Option<Parsed<T>>> = std::iter::repeat_with(|| None)
        .take(manifest.items.len())
        .collect();
    for (i, parsed) in lines {
        predictions[i] = Some(parsed);
    }
    let missing = manifest
        .items
        .iter()
        .zip(&predictions)
        .filter(|(_, p)| p.is_none())
        .map(|(it, _)| it.id.clone())
        .collect();
    ValidatedPanelFile {
        item_ids: manifest.items.iter().map(|i| i.id.clone()).collect(),
        num_lines,
        predictions,
        missing,
    }
}

/// What both multi-panel parsers share: the item lookup, one line per item, and how an absent
/// answer field reads in each format.
struct PanelLines<'m> {
    items: ItemIndex<'m>,
    /// First line of each item; 0 = none yet.
    first_line: Vec<usize>,
    format: FileFormat,
}

impl<'m> PanelLines<'m> {
    fn new(manifest: &'m TaskManifest, format: FileFormat) -> Self {
        Self {
            items: ItemIndex::new(manifest),
            first_line: vec![0; manifest.items.len()],
            format,
        }
    }

    /// The line's manifest position (the `item_id` errors first).
    fn item<'r>(&mut self, r: &Record<'r>) -> Result<(usize, &'r str), FieldError> {
        let id = r.required_text("item_id")?;
        let i = self.items.find(id)?;
        Ok((i, id))
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
        if self.first_line[i] != 0 {
            return Err(FieldError::new(
                "item_id",
                crate::msg!(
                    "file.duplicate",
                    id = shorten(id.trim()),
                    first = self.first_line[i]
                ),
            ));
        }
        self.first_line[i] = line;
        Ok(())
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

/// The gold of one order-recovery item, as plain data so that boards can score without the
/// task store.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct OrderGold {
    /// Item id (the manifest's).
    pub item_id: String,
    /// Category key, for per-category rows.
    pub category: String,
    /// `display[i]`: the 1-based canonical number of the panel shown at position `i`.
    pub display: Vec<usize>,
    /// Order groups over canonical numbers, e.g. `[[1],[2,3],[4]]`.
    pub order_groups: Vec<Vec<usize>>,
    /// Subsets the item belongs to (copied to its outcome).
    pub subsets: Vec<String>,
}

/// One verdict per gold item, so that a board shows accuracy on parseable answers with the
/// parse rate beside it: Correct or Wrong by [`reads_in_order`], Unparseable when the answer
/// did not parse or the item has no line.
///
/// `gold` is in manifest order (the order of `file.item_ids`); outcomes come in gold order. A
/// gold item whose id is not the file's at the same position is a programming error (gold and
/// manifest are built from the same task items): it is skipped, yielding no outcome, so the
/// mistake shows as a lower item count instead of a panic or a mis-scored item.
///
/// Worked example: groups `[[1],[2,3],[4]]` shown as `[4,2,1,3]`. "3,2,4,1" reads canonical
/// 1, 2, 3, 4 and "3,4,2,1" reads 1, 3, 2, 4 (2 and 3 may swap): both correct; "1,2,3,4"
/// reads 4, 2, 1, 3: wrong; "1,2" names two of four panels: unparseable.
///
/// ```
/// use memeboard_core::metrics::{Metric, OutcomeValue, Verdict};
/// use memeboard_core::predictions::panels::*;
/// let gold: Vec<OrderGold> = (1..=5).map(|k| OrderGold { item_id: format!("c{k}"), category: "x".into(),
///     display: vec![4, 2, 1, 3], order_groups: vec![vec![1], vec![2, 3], vec![4]], subsets: vec![] }).collect();
/// let answer = |t: &str| parse_order(t, 4).map_or_else(|| Parsed::Unparseable(t.into()), Parsed::Value);
/// let file = ValidatedPanelFile {
///     item_ids: gold.iter().map(|g| g.item_id.clone()).collect(), num_lines: 4,
///     predictions: vec![Some(answer("3,2,4,1")), Some(answer("3,4,2,1")), Some(answer("1,2,3,4")), Some(answer("1,2")), None],
///     missing: vec!["c5".into()] };
/// let outcomes = order_outcomes(&gold, &file);
/// let verdicts: Vec<_> = outcomes.iter().map(|o| o.value.clone()).collect();
/// use Verdict::*;
/// assert_eq!(verdicts, [Correct, Correct, Wrong, Unparseable, Unparseable].map(OutcomeValue::Verdict));
/// assert_eq!(Metric::AccuracyOnParseable.compute(&outcomes), Some(2.0 / 3.0));
/// assert_eq!(Metric::ParseRate.compute(&outcomes), Some(0.6));
/// ```
pub fn order_outcomes(
    gold: &[OrderGold],
    file: &ValidatedPanelFile<Vec<usize>>,
) -> Vec<ItemOutcome> {
    aligned(gold, file, |g| g.item_id.as_str())
        .map(|(g, prediction)| {
            let verdict = match prediction {
                Some(Parsed::Value(order))
                    if reads_in_order(&g.display, &g.order_groups, order) =>
                {
                    Verdict::Correct
                }
                Some(Parsed::Value(_)) => Verdict::Wrong,
                Some(Parsed::Unparseable(_)) | None => Verdict::Unparseable,
            };
            ItemOutcome {
                item: g.item_id.clone(),
                category: g.category.clone(),
                subsets: g.subsets.clone(),
                value: OutcomeValue::Verdict(verdict),
            }
        })
        .collect()
}

/// The gold of one structure-typing item, as plain data so that boards can score without the
/// task store.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct TypeGold {
    /// Item id (the manifest's).
    pub item_id: String,
    /// Category key, for per-category rows.
    pub category: String,
    /// The annotated structure type.
    pub structure: StructureType,
    /// Subsets the item belongs to (copied to its outcome).
    pub subsets: Vec<String>,
}

/// One label outcome per gold item (gold key against the predicted key, `None` when the
/// answer did not parse or the item has no line), so that a board can show macro-F1, accuracy,
/// the parse rate and a confusion matrix from the same outcomes.
///
/// `gold` is in manifest order; an id mismatch is skipped as in [`order_outcomes`].
///
/// Worked example: gold narrative, parallel, comparison answered "Narrative", "comparison"
/// and nothing: narrative→narrative, parallel→comparison, comparison→unparseable; accuracy
/// 1/3, accuracy on parseable answers 1/2.
///
/// ```
/// use memeboard_core::kinds::panels::StructureType::*;
/// use memeboard_core::metrics::{Metric, OutcomeValue};
/// use memeboard_core::predictions::panels::*;
/// let gold: Vec<TypeGold> = [Narrative, Parallel, Comparison].into_iter().enumerate().map(|(k, s)|
///     TypeGold { item_id: format!("c{k}"), category: "x".into(), structure: s, subsets: vec!["main".into()] }).collect();
/// let file = ValidatedPanelFile {
///     item_ids: vec!["c0".into(), "c1".into(), "c2".into()], num_lines: 2,
///     predictions: vec![Some(Parsed::Value(Narrative)), Some(Parsed::Value(Comparison)), None],
///     missing: vec!["c2".into()] };
/// let outcomes = type_outcomes(&gold, &file);
/// assert_eq!(outcomes[1].value, OutcomeValue::Label { gold: "parallel".into(), predicted: Some("comparison".into()) });
/// assert_eq!(outcomes[2].value, OutcomeValue::Label { gold: "comparison".into(), predicted: None });
/// assert!(outcomes.iter().all(|o| o.in_subset("main")));
/// assert_eq!(Metric::Accuracy.compute(&outcomes), Some(1.0 / 3.0));
/// assert_eq!(Metric::AccuracyOnParseable.compute(&outcomes), Some(0.5));
/// ```
pub fn type_outcomes(
    gold: &[TypeGold],
    file: &ValidatedPanelFile<StructureType>,
) -> Vec<ItemOutcome> {
    aligned(gold, file, |g| g.item_id.as_str())
        .map(|(g, prediction)| {
            let predicted = match prediction {
                Some(Parsed::Value(t)) => Some(t.key().to_owned()),
                Some(Parsed::Unparseable(_)) | None => None,
            };
            ItemOutcome {
                item: g.item_id.clone(),
                category: g.category.clone(),
                subsets: g.subsets.clone(),
                value: OutcomeValue::Label {
                    gold: g.structure.key().to_owned(),
                    predicted,
                },
            }
        })
        .collect()
}

/// Gold items with the file's answer at the same manifest position, skipping any whose id
/// differs (see [`order_outcomes`]).
fn aligned<'a, G, T>(
    gold: &'a [G],
    file: &'a ValidatedPanelFile<T>,
    id: fn(&G) -> &str,
) -> impl Iterator<Item = (&'a G, Option<&'a Parsed<T>>)> + 'a {
    gold.iter().enumerate().filter_map(move |(k, g)| {
        if file.item_ids.get(k).map(String::as_str) != Some(id(g)) {
            return None;
        }
        Some((g, file.predictions.get(k).and_then(Option::as_ref)))
    })
}

#[cfg(test)]
mod tests;
