//! Prediction files: reading and all-or-nothing validation of JSON Lines and CSV uploads
//! against a task's public manifest. The same code validates in the browser (preview) and on
//! the server (authoritative).
//!
//! One record reader ([`records`]) does the framing for every task kind: JSON Lines and CSV
//! (header, RFC 4180 quoting, BOM, empty lines), size and row limits, unknown and missing
//! fields, and the error list ("first 20, then a count"). Each kind declares its columns and
//! parses its own fields:
//!
//! - multiple choice ([`validate_predictions`]): `{"item_id": "mcq-…", "answer": 3}`, with
//!   optional `order` and `sample` (see the `mcq` module docs);
//! - explanations ([`validate_explanations`]): `{"item_id": "…", "meaning": "…"}`, with
//!   optional `origin` and `example`.
//! - multi-panel order recovery ([`panels::validate_orders`]):
//!   `{"item_id": "…", "order": [3, 1, 2, 4]}` or `"order": "3,1,2,4"`, and structure typing
//!   ([`panels::validate_types`]): `{"item_id": "…", "structure": "narrative"}`; answers that
//!   do not parse are kept and counted, not rejected (see the `panels` module docs);
//! - comic explanations ([`validate_comic_explanations`]): `{"item_id": "…", "explanation":
//!   "…"}` (`meaning` accepted instead), stored unscored for human judging;
//! - audio-visual meme clips ([`clips::validate_clip_answers`]):
//!   `{"item_id": "…", "answer": "B"}`, a letter of the one fixed option order models see, a
//!   1-based number or an option's text (see the `clips` module docs).
//!
//! CSV files carry the same fields as header columns.

pub mod clips;
mod comics;
mod explanation;
mod header;
mod mcq;
pub mod panels;
mod per_item;
pub mod records;

pub use comics::{validate_comic_explanations, ValidatedComicExplanations};
pub use explanation::{
    validate_explanations, ExplanationPrediction, ValidatedExplanations, MAX_EXPLANATION_CHARS,
};
pub use header::{file_header, FileHeader};
pub use mcq::{
    order_permutation, validate_predictions, ResolvedAnswer, ValidatedPredictions, NUM_ORDERS,
    ORDER_SEED,
};

use crate::messages::{Locale, Message};
use crate::msg;
use records::FieldError;
use serde::{Deserialize, Serialize};

/// How many problems are listed before the rest are only counted.
pub const MAX_LISTED_ERRORS: usize = 20;
/// How many missing item ids are named.
pub const MAX_LISTED_MISSING: usize = 5;

/// Which split an item belongs to. Dev gold is public by design; test gold never leaves the
/// server.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Split {
    /// Open development split: gold downloadable, previews score it.
    Dev,
    /// Hidden test split (public and private board halves).
    Test,
}

impl Split {
    /// The stored and serialised key (`dev`, `test`).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Dev => "dev",
            Self::Test => "test",
        }
    }
}

/// The public description of one item that a prediction may answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ManifestItem {
    /// Item id.
    pub id: String,
    /// Category key.
    pub category: String,
    /// Split.
    pub split: Split,
    /// Options in canonical order (order 0); for clip tasks, in the one lettered order models
    /// see (see [`clips`]).
    pub options: Vec<String>,
}

/// The public manifest of a task: what a valid prediction file may contain. No gold.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct TaskManifest {
    /// Task slug.
    pub task: String,
    /// Items in file order.
    pub items: Vec<ManifestItem>,
}

/// File format of an upload.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum FileFormat {
    /// One JSON object per line.
    JsonLines,
    /// Comma-separated with a header row.
    Csv,
}

impl FileFormat {
    /// The stored key of the format (`submissions.file_format`), as serde writes it;
    /// [`FileFormat::from_key`] reads it back.
    ///
    /// ```
    /// use memeboard_core::predictions::FileFormat;
    /// for f in [FileFormat::JsonLines, FileFormat::Csv] {
    ///     assert_eq!(FileFormat::from_key(f.key()), f);
    ///     assert_eq!(serde_json::to_value(f).unwrap(), f.key());
    /// }
    /// ```
    pub fn key(self) -> &'static str {
        match self {
            Self::JsonLines => "json_lines",
            Self::Csv => "csv",
        }
    }

    /// The format of a stored key ([`FileFormat::key`]); JSON Lines for anything else (the
    /// format of the oldest uploads).
    pub fn from_key(key: &str) -> Self {
        match key {
            "csv" => Self::Csv,
            _ => Self::JsonLines,
        }
    }

    /// The format a file's content shows: a first line starting with `{` is JSON Lines,
    /// one starting with the `item_id` column header is CSV; `None` when it shows neither.
    ///
    /// ```
    /// use memeboard_core::predictions::FileFormat;
    /// assert_eq!(FileFormat::sniff("\u{feff}item_id,answer\nmcq-1,3\n"), Some(FileFormat::Csv));
    /// assert_eq!(FileFormat::sniff("\n{\"item_id\":\"mcq-1\",\"answer\":3}"), Some(FileFormat::JsonLines));
    /// assert_eq!(FileFormat::sniff("mcq-1 3"), None);
    /// ```
    pub fn sniff(text: &str) -> Option<Self> {
        let first = text
            .trim_start_matches('\u{feff}')
            .lines()
            .map(str::trim)
            // A CSV header of run conditions (`# conditions: …`) comes before the columns.
            .find(|l| !l.is_empty() && !l.starts_with('#'))?;
        if first.starts_with('{') {
            Some(Self::JsonLines)
        } else if first.trim_start_matches('"').starts_with("item_id") && first.contains(',') {
            Some(Self::Csv)
        } else {
            None
        }
    }

    /// The format a file name suggests (`.csv`, else JSON Lines).
    pub fn from_file_name(name: &str) -> Self {
        if name.to_ascii_lowercase().ends_with(".csv") {
            Self::Csv
        } else {
            Self::JsonLines
        }
    }
}

/// Size limits of an upload.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Largest accepted file, bytes.
    pub max_bytes: usize,
    /// Most accepted data lines (non-empty lines, not counting a CSV header; a CSV record
    /// with a quoted line break counts once).
    pub max_rows: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            max_bytes: 20 * 1024 * 1024,
            max_rows: 200_000,
        }
    }
}

/// One problem in a file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct LineError {
    /// 1-based line number (None = the file as a whole).
    pub line: Option<usize>,
    /// Field concerned.
    pub field: Option<String>,
    /// What was found and what was expected.
    pub message: Message,
}

impl LineError {
    /// The whole problem as one message: "line 3, field `answer`: …".
    pub fn to_message(&self) -> Message {
        let problem = self.message.clone();
        match (&self.line, &self.field) {
            (Some(l), Some(field)) => {
                msg!("file.at_line_field", line = l, field = field).with_message("problem", problem)
            }
            (Some(l), None) => msg!("file.at_line", line = l).with_message("problem", problem),
            (None, Some(field)) => {
                msg!("file.at_field", field = field).with_message("problem", problem)
            }
            (None, None) => problem,
        }
    }
}

impl std::fmt::Display for LineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.to_message())
    }
}

/// A rejected file: the first problems and how many there were in all.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[error("{}", self.summary())]
pub struct ValidationReport {
    /// The first [`MAX_LISTED_ERRORS`] problems, in line order.
    pub errors: Vec<LineError>,
    /// All problems found.
    pub total_errors: usize,
}

impl ValidationReport {
    /// One line per listed problem, then "… and N more" (English).
    pub fn lines(&self) -> Vec<String> {
        self.lines_in(Locale::En)
    }

    /// [`lines`](Self::lines) in `locale` (the browser's check shows them in the reader's
    /// language).
    pub fn lines_in(&self, locale: Locale) -> Vec<String> {
        self.messages().iter().map(|m| m.render(locale)).collect()
    }

    /// One message per listed problem, then "… and N more" (what the server sends).
    pub fn messages(&self) -> Vec<Message> {
        let mut out: Vec<Message> = self.errors.iter().map(LineError::to_message).collect();
        if self.total_errors > self.errors.len() {
            out.push(msg!(
                "file.more_problems",
                count = self.total_errors - self.errors.len()
            ));
        }
        out
    }

    fn summary(&self) -> String {
        format!(
            "prediction file rejected ({} problem(s)): {}",
            self.total_errors,
            self.lines().join("; ")
        )
    }
}

/// FNV-1a as a `Hasher`, so id lookups are fast for short keys and deterministic across
/// platforms. It is the streaming form of [`crate::ids::fnv1a64`] (one `write` gives the same
/// value); that function cannot continue a running hash, so it is not used here directly.
#[derive(Default)]
pub struct FnvHasher(u64);

impl std::hash::Hasher for FnvHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        let mut h = if self.0 == 0 {
            0xcbf2_9ce4_8422_2325
        } else {
            self.0
        };
        for &b in bytes {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
        self.0 = h;
    }
}

/// A `HashMap` with [`FnvHasher`], for the id lookups of validation and scoring.
pub type FnvMap<K, V> = std::collections::HashMap<K, V, std::hash::BuildHasherDefault<FnvHasher>>;

/// The problems found in one file: every one is counted, the first few are kept for the
/// report (see [`MAX_LISTED_ERRORS`]).
pub(crate) struct Collector {
    errors: Vec<LineError>,
    total: usize,
}

impl Collector {
    /// A collector for a file within the size limit, or the report saying it is too big.
    pub(crate) fn for_file(text: &str, limits: Limits) -> Result<Self, ValidationReport> {
        let mut errs = Self {
            errors: Vec::new(),
            total: 0,
        };
        if text.len() > limits.max_bytes {
            errs.push(
                None,
                None,
                msg!(
                    "file.too_large",
                    size = text.len(),
                    limit = limits.max_bytes
                ),
            );
            return Err(errs.into_report());
        }
        Ok(errs)
    }

    /// The file-level row checks: over the row limit, or no data row at all.
    pub(crate) fn check_rows(&mut self, rows: usize, limits: Limits) {
        if rows > limits.max_rows {
            self.push(
                None,
                None,
                msg!("file.too_many_rows", rows = rows, limit = limits.max_rows),
            );
        }
        if rows == 0 && self.total == 0 {
            self.push(None, None, msg!("file.empty"));
        }
    }

    /// Records one problem.
    pub(crate) fn push(&mut self, line: Option<usize>, field: Option<&str>, message: Message) {
        self.total += 1;
        // Keep a bounded number; the report lists the first few in line order.
        if self.errors.len() < 10 * MAX_LISTED_ERRORS {
            self.errors.push(LineError {
                line,
                field: field.map(str::to_owned),
                message,
            });
        }
    }

    /// Whether any problem was found.
    pub(crate) fn is_empty(&self) -> bool {
        self.total == 0
    }

    /// The report: the first [`MAX_LISTED_ERRORS`] problems in line order, and the count.
    pub(crate) fn into_report(mut self) -> ValidationReport {
        self.errors.sort_by_key(|e| e.line.unwrap_or(0));
        self.errors.truncate(MAX_LISTED_ERRORS);
        ValidationReport {
            errors: self.errors,
            total_errors: self.total,
        }
    }
}

/// Finds a line's item in the manifest. Files usually follow the manifest (they are made from
/// the template), so the item after the previous line's is tried first; the id map is built
/// only on the first line that does not follow.
pub(crate) struct ItemIndex<'m> {
    items: &'m [ManifestItem],
    map: Option<FnvMap<&'m str, usize>>,
    next: usize,
}

impl<'m> ItemIndex<'m> {
    /// An index over `manifest`'s items (nothing is built yet).
    pub(crate) fn new(manifest: &'m TaskManifest) -> Self {
        Self {
            items: &manifest.items,
            map: None,
            next: 0,
        }
    }

    /// The manifest position of `id` (surrounding spaces ignored), or the `item_id` error.
    // (Always inlined: it runs once per line on the MCQ fast path; measured.)
    #[inline(always)]
    pub(crate) fn find(&mut self, id: &str) -> Result<usize, FieldError> {
        let id = id.trim();
        let found = if self
            .items
            .get(self.next)
            .is_some_and(|it| mcq::same_bytes(&it.id, id))
        {
            Some(self.next)
        } else {
            let items = self.items;
            self.map
                .get_or_insert_with(|| {
                    items
                        .iter()
                        .enumerate()
                        .map(|(i, item)| (item.id.as_str(), i))
                        .collect()
                })
                .get(id)
                .copied()
        };
        let index = found.ok_or_else(|| {
            FieldError::new("item_id", msg!("file.unknown_item", id = shorten(id)))
        })?;
        self.next = index + 1;
        Ok(index)
    }
}

/// The note on items without a line (`code`: how they are scored), naming the first
/// [`MAX_LISTED_MISSING`]; None when nothing is missing.
pub(crate) fn missing_message(missing: &[String], code: &str) -> Option<Message> {
    if missing.is_empty() {
        return None;
    }
    let mut named: Vec<&str> = missing
        .iter()
        .take(MAX_LISTED_MISSING)
        .map(String::as_str)
        .collect();
    if missing.len() > MAX_LISTED_MISSING {
        named.push("…");
    }
    Some(
        Message::new(code)
            .with("count", missing.len())
            .with("ids", named.join(", ")),
    )
}

/// `s` cut to 40 characters (with "…"), for quoting file contents in messages.
pub(crate) fn shorten(s: &str) -> String {
    let mut out: String = s.chars().take(40).collect();
    if s.chars().count() > 40 {
        out.push('…');
    }
    out
}

/// A test-split manifest of items with these ids, category `x` and no options (the unit
/// tests' manifest).
#[cfg(test)]
pub(crate) fn test_manifest(ids: &[&str]) -> TaskManifest {
    TaskManifest {
        task: "t".into(),
        items: ids
            .iter()
            .map(|id| ManifestItem {
                id: (*id).into(),
                category: "x".into(),
                split: Split::Test,
                options: vec![],
            })
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::hash::Hasher;

    #[test]
    fn the_fnv_hasher_is_the_streaming_form_of_ids_fnv1a64() {
        for bytes in [&b""[..], b"a", "item-00042".as_bytes()] {
            let mut h = FnvHasher::default();
            h.write(bytes);
            assert_eq!(h.finish(), crate::ids::fnv1a64(bytes));
        }
    }

    #[test]
    fn the_item_index_finds_ids_in_and_out_of_manifest_order() {
        let manifest = test_manifest(&["a", "b", "c"]);
        let mut index = ItemIndex::new(&manifest);
        assert_eq!(index.find("a").ok(), Some(0));
        assert_eq!(index.find(" b ").ok(), Some(1));
        assert_eq!(index.find("a").ok(), Some(0));
        assert_eq!(index.find("c").ok(), Some(2));
        let err = index.find("zz").unwrap_err();
        assert_eq!(err.field.as_deref(), Some("item_id"));
        assert_eq!(err.message.to_string(), "unknown item id `zz`");
    }
}
