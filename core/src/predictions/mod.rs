//! Prediction files: parsing and all-or-nothing validation of JSON Lines and CSV uploads
//! against a task's public manifest. The same code validates in the browser (preview) and on
//! the server (authoritative).
//!
//! A line names an item and an answer in the task's shape:
//!
//! ```text
//! {"item_id": "mcq-…", "answer": 3}                  option number (1-based, as displayed in order 0)
//! {"item_id": "mcq-…", "answer": "躺平"}             or the option text
//! {"item_id": "mcq-…", "answer": 2, "order": 1}      under option order 1 (see `order_permutation`)
//! {"item_id": "mcq-…", "answer": 2, "order": 1, "sample": 4}   several samples per order: majority vote
//! ```
//!
//! CSV has a header with `item_id,answer` and optional `order,sample` columns.

use crate::assign::option_order;
use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use std::collections::BTreeSet;

/// How many problems are listed before the rest are only counted.
pub const MAX_LISTED_ERRORS: usize = 20;
/// How many missing item ids are named.
pub const MAX_LISTED_MISSING: usize = 5;
/// Option orders per MCQ item in the multi-order protocol (the original + 4 shuffles).
pub const NUM_ORDERS: usize = 5;
/// Seed base of the published option orders (order k ≥ 1 uses `ORDER_SEED + k`).
pub const ORDER_SEED: u64 = 0x4348_494d_455f_4f52;

/// Which split an item belongs to. Dev gold is public by design; test gold never leaves the
/// server.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Split {
    /// Open development split: gold downloadable, previews score it.
    Dev,
    /// Hidden test split (public and private board halves).
    Test,
}

/// The public description of one item that a prediction may answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ManifestItem {
    /// Item id.
    pub id: String,
    /// Category key.
    pub category: String,
    /// Split.
    pub split: Split,
    /// Options in canonical order (order 0).
    pub options: Vec<String>,
}

/// The public manifest of a task: what a valid prediction file may contain. No gold.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TaskManifest {
    /// Task slug.
    pub task: String,
    /// Items in file order.
    pub items: Vec<ManifestItem>,
}

/// The permutation of option order `order` of an item: display position `p` shows canonical
/// option `perm[p]`. Order 0 is the canonical order; orders 1–4 are fixed published shuffles.
///
/// ```
/// use memeboard_core::predictions::order_permutation;
/// assert_eq!(order_permutation("mcq-1", 0, 5), vec![0, 1, 2, 3, 4]);
/// let p = order_permutation("mcq-1", 3, 5);
/// assert_eq!(p, order_permutation("mcq-1", 3, 5));
/// ```
pub fn order_permutation(item_id: &str, order: usize, num_options: usize) -> Vec<usize> {
    if order == 0 {
        (0..num_options).collect()
    } else {
        option_order(ORDER_SEED.wrapping_add(order as u64), item_id, num_options)
    }
}

/// File format of an upload.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FileFormat {
    /// One JSON object per line.
    JsonLines,
    /// Comma-separated with a header row.
    Csv,
}

impl FileFormat {
    /// Guesses from a file name (`.csv` → CSV, else JSON Lines).
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
    /// Most accepted data lines.
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
pub struct LineError {
    /// 1-based line number (None = the file as a whole).
    pub line: Option<usize>,
    /// Field concerned.
    pub field: Option<String>,
    /// What was found and what was expected.
    pub message: String,
}

impl std::fmt::Display for LineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match (&self.line, &self.field) {
            (Some(l), Some(field)) => write!(f, "line {l}, field `{field}`: {}", self.message),
            (Some(l), None) => write!(f, "line {l}: {}", self.message),
            (None, Some(field)) => write!(f, "field `{field}`: {}", self.message),
            (None, None) => write!(f, "{}", self.message),
        }
    }
}

/// A rejected file: the first problems and how many there were in all.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
#[error("{}", self.summary())]
pub struct ValidationReport {
    /// The first [`MAX_LISTED_ERRORS`] problems, in line order.
    pub errors: Vec<LineError>,
    /// All problems found.
    pub total_errors: usize,
}

impl ValidationReport {
    /// One line per listed problem, then "… and N more".
    pub fn lines(&self) -> Vec<String> {
        let mut out: Vec<String> = self.errors.iter().map(ToString::to_string).collect();
        if self.total_errors > self.errors.len() {
            out.push(format!(
                "… and {} more problem(s)",
                self.total_errors - self.errors.len()
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

/// One answer as written in the file, resolved to a canonical option.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ResolvedAnswer {
    /// Option order the answer was given under.
    pub order: usize,
    /// Sample number within the order.
    pub sample: usize,
    /// Canonical option index.
    pub option: usize,
}

/// A valid prediction file: answers per manifest item (canonical options), plus what is
/// missing.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ValidatedPredictions {
    /// All answers grouped by manifest item (in file order within an item): item `i`'s are
    /// `answers[offsets[i]..offsets[i + 1]]` (one allocation for the whole file).
    pub answers: Vec<ResolvedAnswer>,
    /// Group boundaries, `manifest.items.len() + 1` entries.
    pub offsets: Vec<usize>,
    /// Option orders used anywhere in the file (each item is scored over all of them).
    pub orders: BTreeSet<usize>,
    /// Data lines read.
    pub num_lines: usize,
    /// Manifest items with no line (scored as wrong).
    pub missing: Vec<String>,
}

impl ValidatedPredictions {
    /// The answers of the manifest's `index`-th item.
    pub fn answers_at(&self, index: usize) -> &[ResolvedAnswer] {
        match (self.offsets.get(index), self.offsets.get(index + 1)) {
            (Some(&a), Some(&b)) => &self.answers[a..b],
            _ => &[],
        }
    }

    /// The answers given for `item_id` of `manifest` (a linear scan: for tests and small
    /// lookups).
    pub fn answers_for(&self, manifest: &TaskManifest, item_id: &str) -> &[ResolvedAnswer] {
        manifest
            .items
            .iter()
            .position(|i| i.id == item_id)
            .map_or(&[], |i| self.answers_at(i))
    }

    /// "N items missing (scored as wrong): a, b, c, …" or None.
    pub fn missing_warning(&self) -> Option<String> {
        if self.missing.is_empty() {
            return None;
        }
        let mut named: Vec<&str> = self
            .missing
            .iter()
            .take(MAX_LISTED_MISSING)
            .map(String::as_str)
            .collect();
        if self.missing.len() > MAX_LISTED_MISSING {
            named.push("…");
        }
        Some(format!(
            "{} item(s) have no prediction and are scored as wrong: {}",
            self.missing.len(),
            named.join(", ")
        ))
    }
}

/// FNV-1a as a `Hasher`: fast for short keys, and deterministic.
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

/// A `HashMap` with [`FnvHasher`].
pub type FnvMap<K, V> = std::collections::HashMap<K, V, std::hash::BuildHasherDefault<FnvHasher>>;

struct RawLine<'a> {
    line: usize,
    item_id: Option<Cow<'a, str>>,
    answer: Option<RawAnswer<'a>>,
    order: Option<RawInt<'a>>,
    sample: Option<RawInt<'a>>,
}

/// A whole number as read: already parsed (JSON fast path) or text still to check.
enum RawInt<'a> {
    Parsed(u64),
    Text(Cow<'a, str>),
}

impl RawInt<'_> {
    fn value(&self) -> Option<u64> {
        match self {
            Self::Parsed(n) => Some(*n),
            Self::Text(t) => t.parse().ok(),
        }
    }

    fn shown(&self) -> String {
        match self {
            Self::Parsed(n) => n.to_string(),
            Self::Text(t) => shorten(t),
        }
    }
}

enum RawAnswer<'a> {
    Number(RawInt<'a>),
    Text(Cow<'a, str>),
}

/// The common, well-formed JSON line, parsed without building a `Value`. Anything it does
/// not accept goes through the slow path, which names each problem.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FastLine<'a> {
    #[serde(borrow)]
    item_id: Cow<'a, str>,
    answer: FastAnswer<'a>,
    #[serde(default)]
    order: Option<u64>,
    #[serde(default)]
    sample: Option<u64>,
}

/// Reads the common flat line `{"item_id":"…","answer":3,"order":0,"sample":1}` without a
/// general JSON parser: keys in any order, strings without escapes, whole numbers. Anything
/// else (escapes, nesting, other types, unknown keys) returns `None` and goes to serde, so
/// this only makes the common case fast and never changes what is accepted.
fn scan_flat_line(raw: &str) -> Option<FastLine<'_>> {
    let b = raw.as_bytes();
    let mut i = 0;
    let skip_ws = |i: &mut usize| {
        while *i < b.len() && b[*i].is_ascii_whitespace() {
            *i += 1;
        }
    };
    let string = |i: &mut usize| -> Option<&str> {
        if b.get(*i) != Some(&b'"') {
            return None;
        }
        let start = *i + 1;
        let len = b[start..]
            .iter()
            .position(|&c| c == b'"' || c == b'\\' || c < 0x20)?;
        if b[start + len] != b'"' {
            return None;
        }
        *i = start + len + 1;
        raw.get(start..start + len)
    };
    let number = |i: &mut usize| -> Option<u64> {
        let start = *i;
        while *i < b.len() && b[*i].is_ascii_digit() {
            *i += 1;
        }
        if *i == start || (b[start] == b'0' && *i - start > 1) {
            return None;
        }
        raw[start..*i].parse().ok()
    };
    skip_ws(&mut i);
    if b.get(i) != Some(&b'{') {
        return None;
    }
    i += 1;
    let (mut item_id, mut answer, mut order, mut sample) = (None, None, None, None);
    loop {
        skip_ws(&mut i);
        let key = string(&mut i)?;
        skip_ws(&mut i);
        if b.get(i) != Some(&b':') {
            return None;
        }
        i += 1;
        skip_ws(&mut i);
        let slot_taken = match key {
            "item_id" => item_id.replace(Cow::Borrowed(string(&mut i)?)).is_some(),
            "answer" => {
                let value = if b.get(i) == Some(&b'"') {
                    FastAnswer::Text(Cow::Borrowed(string(&mut i)?))
                } else {
                    FastAnswer::Number(number(&mut i)?)
                };
                answer.replace(value).is_some()
            }
            "order" => order.replace(number(&mut i)?).is_some(),
            "sample" => sample.replace(number(&mut i)?).is_some(),
            _ => return None,
        };
        if slot_taken {
            return None;
        }
        skip_ws(&mut i);
        match b.get(i) {
            Some(b',') => i += 1,
            Some(b'}') => {
                i += 1;
                break;
            }
            _ => return None,
        }
    }
    skip_ws(&mut i);
    if i != b.len() {
        return None;
    }
    Some(FastLine {
        item_id: item_id?,
        answer: answer?,
        order,
        sample,
    })
}

/// An option number or an option text.
enum FastAnswer<'a> {
    Number(u64),
    Text(Cow<'a, str>),
}

impl<'de: 'a, 'a> Deserialize<'de> for FastAnswer<'a> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<'a>(std::marker::PhantomData<&'a ()>);
        impl<'de: 'a, 'a> serde::de::Visitor<'de> for V<'a> {
            type Value = FastAnswer<'a>;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("an option number or option text")
            }
            fn visit_u64<E>(self, v: u64) -> Result<Self::Value, E> {
                Ok(FastAnswer::Number(v))
            }
            fn visit_borrowed_str<E>(self, v: &'de str) -> Result<Self::Value, E> {
                Ok(FastAnswer::Text(Cow::Borrowed(v)))
            }
            fn visit_str<E>(self, v: &str) -> Result<Self::Value, E> {
                Ok(FastAnswer::Text(Cow::Owned(v.to_owned())))
            }
        }
        d.deserialize_any(V(std::marker::PhantomData))
    }
}

struct Collector {
    errors: Vec<LineError>,
    total: usize,
}

impl Collector {
    /// A collector for a file within the size limit, or the report saying it is too big.
    fn for_file(text: &str, limits: Limits) -> Result<Self, ValidationReport> {
        let mut errs = Self {
            errors: Vec::new(),
            total: 0,
        };
        if text.len() > limits.max_bytes {
            errs.push(
                None,
                None,
                format!(
                    "file is {} bytes; the limit is {} bytes",
                    text.len(),
                    limits.max_bytes
                ),
            );
            return Err(errs.into_report());
        }
        Ok(errs)
    }

    /// The file-level row checks: over the row limit, or no data row at all.
    fn check_rows(&mut self, rows: usize, limits: Limits) {
        if rows > limits.max_rows {
            self.push(
                None,
                None,
                format!(
                    "file has {rows} rows; the limit is {} rows",
                    limits.max_rows
                ),
            );
        }
        if rows == 0 && self.total == 0 {
            self.push(None, None, "file contains no predictions".into());
        }
    }

    fn into_report(mut self) -> ValidationReport {
        self.errors.sort_by_key(|e| e.line.unwrap_or(0));
        self.errors.truncate(MAX_LISTED_ERRORS);
        ValidationReport {
            errors: self.errors,
            total_errors: self.total,
        }
    }
}

impl Collector {
    fn push(&mut self, line: Option<usize>, field: Option<&str>, message: String) {
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
}

fn shorten(s: &str) -> String {
    let mut out: String = s.chars().take(40).collect();
    if s.chars().count() > 40 {
        out.push('…');
    }
    out
}

fn parse_jsonl<'a>(text: &'a str, errs: &mut Collector) -> Vec<RawLine<'a>> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        if raw.trim().is_empty() {
            continue;
        }
        // (Only objects: serde would also read a struct from a JSON array.)
        let fast = if raw.trim_start().starts_with('{') {
            scan_flat_line(raw).or_else(|| serde_json::from_str::<FastLine<'a>>(raw).ok())
        } else {
            None
        };
        if let Some(fast) = fast {
            out.push(RawLine {
                line,
                item_id: Some(fast.item_id),
                answer: Some(match fast.answer {
                    FastAnswer::Number(n) => RawAnswer::Number(RawInt::Parsed(n)),
                    FastAnswer::Text(t) => RawAnswer::Text(t),
                }),
                order: fast.order.map(RawInt::Parsed),
                sample: fast.sample.map(RawInt::Parsed),
            });
            continue;
        }
        let value: serde_json::Value = match serde_json::from_str(raw) {
            Ok(v) => v,
            Err(e) => {
                errs.push(
                    Some(line),
                    None,
                    format!("not valid JSON (column {}): {e}", e.column()),
                );
                continue;
            }
        };
        let Some(obj) = value.as_object() else {
            errs.push(
                Some(line),
                None,
                "expected a JSON object like {\"item_id\": \"…\", \"answer\": 1}".into(),
            );
            continue;
        };
        let mut item_id = None;
        match obj.get("item_id") {
            Some(serde_json::Value::String(s)) => item_id = Some(Cow::Owned(s.clone())),
            Some(other) => errs.push(
                Some(line),
                Some("item_id"),
                format!("expected text, found {other}"),
            ),
            None => {}
        }
        let answer = match obj.get("answer") {
            Some(serde_json::Value::Number(n)) => {
                Some(RawAnswer::Number(RawInt::Text(Cow::Owned(n.to_string()))))
            }
            Some(serde_json::Value::String(s)) => Some(RawAnswer::Text(Cow::Owned(s.clone()))),
            Some(other) => {
                errs.push(
                    Some(line),
                    Some("answer"),
                    format!("expected an option number or option text, found {other}"),
                );
                continue;
            }
            None => None,
        };
        let int_field = |name: &str, errs: &mut Collector| match obj.get(name) {
            None | Some(serde_json::Value::Null) => None,
            Some(serde_json::Value::Number(n)) => Some(RawInt::Text(Cow::Owned(n.to_string()))),
            Some(other) => {
                errs.push(
                    Some(line),
                    Some(name),
                    format!("expected a whole number, found {other}"),
                );
                Some(RawInt::Text(Cow::Borrowed("")))
            }
        };
        let order = int_field("order", errs);
        let sample = int_field("sample", errs);
        for key in obj.keys() {
            if !["item_id", "answer", "order", "sample"].contains(&key.as_str()) {
                errs.push(
                    Some(line),
                    Some(key),
                    "unknown field (expected item_id, answer, order, sample)".into(),
                );
            }
        }
        out.push(RawLine {
            line,
            item_id,
            answer,
            order,
            sample,
        });
    }
    out
}

/// Splits one CSV record (RFC 4180 quoting) into fields.
fn csv_fields(record: &str) -> Result<Vec<String>, String> {
    let mut fields = Vec::new();
    let mut field = String::new();
    let mut chars = record.chars().peekable();
    let mut quoted = false;
    let mut at_start = true;
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
                            return Err(format!(
                                "unexpected `{next}` after a closing quote (quote the whole field)"
                            ));
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
    if quoted {
        return Err("a quoted field is not closed".into());
    }
    fields.push(field);
    Ok(fields)
}

fn parse_csv<'a>(text: &'a str, errs: &mut Collector) -> Vec<RawLine<'a>> {
    let mut lines = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty());
    let Some((header_index, header)) = lines.next() else {
        return Vec::new();
    };
    let header = match csv_fields(header.trim_start_matches('\u{feff}')) {
        Ok(h) => h
            .into_iter()
            .map(|h| h.trim().to_ascii_lowercase())
            .collect::<Vec<_>>(),
        Err(e) => {
            errs.push(Some(header_index + 1), None, format!("not valid CSV: {e}"));
            return Vec::new();
        }
    };
    let col = |name: &str| header.iter().position(|h| h == name);
    let (Some(id_col), Some(answer_col)) = (col("item_id"), col("answer")) else {
        errs.push(
            Some(header_index + 1),
            None,
            format!(
                "expected a header row with columns item_id,answer (optional: order,sample), found `{}`",
                header.join(",")
            ),
        );
        return Vec::new();
    };
    for unknown in header
        .iter()
        .filter(|h| !["item_id", "answer", "order", "sample"].contains(&h.as_str()))
    {
        errs.push(
            Some(header_index + 1),
            Some(unknown),
            "unknown column (expected item_id, answer, order, sample)".into(),
        );
    }
    let (order_col, sample_col) = (col("order"), col("sample"));
    let mut out = Vec::new();
    for (i, record) in lines {
        let line = i + 1;
        let fields = match csv_fields(record) {
            Ok(f) => f,
            Err(e) => {
                errs.push(Some(line), None, format!("not valid CSV: {e}"));
                continue;
            }
        };
        if fields.len() != header.len() {
            errs.push(
                Some(line),
                None,
                format!(
                    "expected {} fields as in the header, found {}",
                    header.len(),
                    fields.len()
                ),
            );
            continue;
        }
        let get = |c: Option<usize>| -> Option<Cow<'a, str>> {
            c.map(|c| fields[c].trim().to_owned())
                .filter(|s| !s.is_empty())
                .map(Cow::Owned)
        };
        let answer = get(Some(answer_col)).map(|a| {
            if a.chars()
                .all(|c| c.is_ascii_digit() || c == '-' || c == '.')
            {
                RawAnswer::Number(RawInt::Text(a))
            } else {
                RawAnswer::Text(a)
            }
        });
        out.push(RawLine {
            line,
            item_id: get(Some(id_col)),
            answer,
            order: get(order_col).map(RawInt::Text),
            sample: get(sample_col).map(RawInt::Text),
        });
    }
    out
}

/// Parses and validates a whole prediction file against `manifest`: every problem is
/// reported with its line and field, and nothing is returned unless the file is valid.
/// Missing items are not an error: they are listed and scored as wrong.
///
/// ```
/// use memeboard_core::predictions::*;
/// let manifest = TaskManifest { task: "t".into(), items: vec![
///     ManifestItem { id: "a".into(), category: "x".into(), split: Split::Test, options: vec!["甲".into(), "乙".into()] },
///     ManifestItem { id: "b".into(), category: "x".into(), split: Split::Test, options: vec!["丙".into(), "丁".into()] },
/// ]};
/// let ok = validate_predictions("{\"item_id\":\"a\",\"answer\":2}\n", FileFormat::JsonLines, &manifest, Limits::default()).unwrap();
/// assert_eq!(ok.answers_for(&manifest, "a")[0].option, 1);
/// assert_eq!(ok.missing, vec!["b".to_string()]);
/// let bad = validate_predictions("item_id,answer\na,3\nzz,1\n", FileFormat::Csv, &manifest, Limits::default()).unwrap_err();
/// assert_eq!(bad.lines(), vec![
///     "line 2, field `answer`: expected an option number from 1 to 2 or an option's text, found `3`",
///     "line 3, field `item_id`: unknown item id `zz`",
/// ]);
/// ```
pub fn validate_predictions(
    text: &str,
    format: FileFormat,
    manifest: &TaskManifest,
    limits: Limits,
) -> Result<ValidatedPredictions, ValidationReport> {
    let mut errs = Collector::for_file(text, limits)?;
    let raw = match format {
        FileFormat::JsonLines => parse_jsonl(text, &mut errs),
        FileFormat::Csv => parse_csv(text, &mut errs),
    };
    errs.check_rows(raw.len(), limits);
    // Files usually follow the manifest (they are made from the template), so the next item
    // is tried first; the id map is built only on the first line that does not follow.
    let mut index: Option<FnvMap<&str, usize>> = None;
    let mut hint = 0usize;
    // (item index, answer) in file order; grouped by item at the end.
    let mut flat: Vec<(usize, ResolvedAnswer)> = Vec::with_capacity(raw.len());
    // First line of each (item, order, sample): a plain vector for the common (0, 0), a map
    // for the rest.
    let mut seen_plain: Vec<usize> = vec![0; manifest.items.len()];
    let mut seen: FnvMap<(usize, usize, usize), usize> = FnvMap::default();
    let mut orders = BTreeSet::new();
    for r in &raw {
        let Some(item_id) = r.item_id.as_deref().map(str::trim) else {
            errs.push(Some(r.line), Some("item_id"), "missing".into());
            continue;
        };
        let found = if manifest.items.get(hint).is_some_and(|it| it.id == item_id) {
            Some(hint)
        } else {
            index
                .get_or_insert_with(|| {
                    manifest
                        .items
                        .iter()
                        .enumerate()
                        .map(|(i, item)| (item.id.as_str(), i))
                        .collect()
                })
                .get(item_id)
                .copied()
        };
        let Some(item_index) = found else {
            errs.push(
                Some(r.line),
                Some("item_id"),
                format!("unknown item id `{}`", shorten(item_id)),
            );
            continue;
        };
        hint = item_index + 1;
        let item = &manifest.items[item_index];
        let parse_index =
            |field: &str, value: &Option<RawInt<'_>>, max: usize, errs: &mut Collector| {
                let Some(v) = value else { return Some(0) };
                match v.value().and_then(|n| usize::try_from(n).ok()) {
                    Some(n) if n < max => Some(n),
                    _ => {
                        errs.push(
                            Some(r.line),
                            Some(field),
                            format!(
                                "expected a whole number from 0 to {}, found `{}`",
                                max - 1,
                                v.shown()
                            ),
                        );
                        None
                    }
                }
            };
        let order = parse_index("order", &r.order, NUM_ORDERS, &mut errs);
        let sample = parse_index("sample", &r.sample, 1000, &mut errs);
        let (Some(order), Some(sample)) = (order, sample) else {
            continue;
        };
        let n = item.options.len();
        let option = match &r.answer {
            None => {
                errs.push(Some(r.line), Some("answer"), "missing".into());
                continue;
            }
            Some(RawAnswer::Number(v)) => match v.value().and_then(|k| usize::try_from(k).ok()) {
                Some(k) if (1..=n).contains(&k) && order == 0 => k - 1,
                Some(k) if (1..=n).contains(&k) => order_permutation(&item.id, order, n)[k - 1],
                _ => {
                    errs.push(
                        Some(r.line),
                        Some("answer"),
                        format!(
                            "expected an option number from 1 to {n} or an option's text, found `{}`",
                            v.shown()
                        ),
                    );
                    continue;
                }
            },
            Some(RawAnswer::Text(t)) => match item.options.iter().position(|o| o == t.trim()) {
                Some(k) => k,
                None => {
                    errs.push(
                        Some(r.line),
                        Some("answer"),
                        format!(
                            "`{}` is not one of this item's options (expected 1 to {n} or an option's exact text)",
                            shorten(t)
                        ),
                    );
                    continue;
                }
            },
        };
        let first = if order == 0 && sample == 0 {
            let slot = &mut seen_plain[item_index];
            let first = (*slot != 0).then_some(*slot);
            if first.is_none() {
                *slot = r.line;
            }
            first
        } else {
            match seen.entry((item_index, order, sample)) {
                std::collections::hash_map::Entry::Occupied(e) => Some(*e.get()),
                std::collections::hash_map::Entry::Vacant(e) => {
                    e.insert(r.line);
                    None
                }
            }
        };
        if let Some(first) = first {
            errs.push(
                Some(r.line),
                Some("item_id"),
                format!(
                    "duplicate prediction for `{}` (order {order}, sample {sample}); first on line {first}",
                    shorten(&item.id)
                ),
            );
            continue;
        }
        orders.insert(order);
        flat.push((
            item_index,
            ResolvedAnswer {
                order,
                sample,
                option,
            },
        ));
    }
    if errs.total > 0 {
        return Err(errs.into_report());
    }
    // Counting sort by item: stable, so each item keeps its answers in file order.
    let mut offsets = vec![0usize; manifest.items.len() + 1];
    for (i, _) in &flat {
        offsets[i + 1] += 1;
    }
    for i in 0..manifest.items.len() {
        offsets[i + 1] += offsets[i];
    }
    let mut next = offsets.clone();
    let mut answers = vec![
        ResolvedAnswer {
            order: 0,
            sample: 0,
            option: 0
        };
        flat.len()
    ];
    for (i, a) in flat {
        answers[next[i]] = a;
        next[i] += 1;
    }
    let missing = manifest
        .items
        .iter()
        .enumerate()
        .filter(|(i, _)| offsets[*i] == offsets[i + 1])
        .map(|(_, item)| item.id.clone())
        .collect();
    Ok(ValidatedPredictions {
        answers,
        offsets,
        orders,
        num_lines: raw.len(),
        missing,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn manifest(n: usize) -> TaskManifest {
        TaskManifest {
            task: "t".into(),
            items: (0..n)
                .map(|i| ManifestItem {
                    id: format!("i{i}"),
                    category: "c".into(),
                    split: Split::Test,
                    options: vec!["甲".into(), "乙".into(), "丙, \"丁\"".into()],
                })
                .collect(),
        }
    }

    fn errors(text: &str, format: FileFormat) -> Vec<String> {
        validate_predictions(text, format, &manifest(3), Limits::default())
            .unwrap_err()
            .lines()
    }

    #[test]
    fn each_kind_of_bad_line_is_named_with_line_and_field() {
        let text = [
            r#"{"item_id":"i0","answer":1}"#,
            r#"{"item_id":"i1","answer":1"#,
            r#"["i1", 1]"#,
            r#"{"item_id":7,"answer":1}"#,
            r#"{"item_id":"i1","answer":true}"#,
            r#"{"item_id":"i1","answer":0}"#,
            r#"{"item_id":"i1","answer":"戊"}"#,
            r#"{"item_id":"i1","answer":1,"order":5}"#,
            r#"{"item_id":"i1","answer":1,"confidence":0.9}"#,
            r#"{"answer":1}"#,
            r#"{"item_id":"i2"}"#,
        ]
        .join("\n");
        assert_eq!(
            errors(&text, FileFormat::JsonLines),
            vec![
                "line 2: not valid JSON (column 26): EOF while parsing an object at line 1 column 26",
                "line 3: expected a JSON object like {\"item_id\": \"…\", \"answer\": 1}",
                "line 4, field `item_id`: expected text, found 7",
                "line 4, field `item_id`: missing",
                "line 5, field `answer`: expected an option number or option text, found true",
                "line 6, field `answer`: expected an option number from 1 to 3 or an option's text, found `0`",
                "line 7, field `answer`: `戊` is not one of this item's options (expected 1 to 3 or an option's exact text)",
                "line 8, field `order`: expected a whole number from 0 to 4, found `5`",
                "line 9, field `confidence`: unknown field (expected item_id, answer, order, sample)",
                "line 10, field `item_id`: missing",
                "line 11, field `answer`: missing",
            ]
        );
    }

    #[test]
    fn the_fast_scanner_agrees_with_serde_or_declines() {
        let lines = [
            r#"{"item_id":"i0","answer":2}"#,
            r#"  { "answer" : "甲" , "item_id" : "i1", "order": 3, "sample": 12 }  "#,
            r#"{"item_id":"i\u0030","answer":2}"#,
            r#"{"item_id":"i0","answer":2.0}"#,
            r#"{"item_id":"i0","answer":-1}"#,
            r#"{"item_id":"i0","answer":02}"#,
            r#"{"item_id":"i0","answer":2,"extra":1}"#,
            r#"{"item_id":"i0","answer":2} trailing"#,
            r#"{"item_id":"i0","item_id":"i1","answer":2}"#,
        ];
        for line in lines {
            let fast = scan_flat_line(line).map(|f| (f.item_id.into_owned(), f.order, f.sample));
            let slow = serde_json::from_str::<FastLine<'_>>(line)
                .ok()
                .map(|f| (f.item_id.into_owned(), f.order, f.sample));
            if let Some(fast) = fast {
                assert_eq!(Some(fast), slow, "{line}");
            }
        }
        assert!(scan_flat_line(lines[0]).is_some() && scan_flat_line(lines[1]).is_some());
        assert!(scan_flat_line(lines[2]).is_none(), "escapes go to serde");
    }

    #[test]
    fn csv_quoting_and_header_are_checked() {
        let ok = validate_predictions(
            "\u{feff}item_id,answer\ni0,\"丙, \"\"丁\"\"\"\ni1,2\n",
            FileFormat::Csv,
            &manifest(3),
            Limits::default(),
        )
        .unwrap();
        assert_eq!(ok.answers_for(&manifest(3), "i0")[0].option, 2);
        assert_eq!(ok.answers_for(&manifest(3), "i1")[0].option, 1);
        assert_eq!(
            ok.missing_warning().as_deref(),
            Some("1 item(s) have no prediction and are scored as wrong: i2")
        );
        assert_eq!(
            errors("id,prediction\ni0,1\n", FileFormat::Csv),
            vec!["line 1: expected a header row with columns item_id,answer (optional: order,sample), found `id,prediction`"]
        );
        assert_eq!(
            errors("item_id,answer\ni0,1,3\ni1,\"2\n", FileFormat::Csv),
            vec![
                "line 2: expected 2 fields as in the header, found 3",
                "line 3: not valid CSV: a quoted field is not closed",
            ]
        );
    }

    #[test]
    fn many_errors_are_listed_up_to_the_limit_then_counted() {
        let text: String = (0..30)
            .map(|i| format!("{{\"item_id\":\"x{i}\",\"answer\":1}}\n"))
            .collect();
        let report = validate_predictions(
            &text,
            FileFormat::JsonLines,
            &manifest(3),
            Limits::default(),
        )
        .unwrap_err();
        assert_eq!(report.total_errors, 30);
        assert_eq!(report.errors.len(), MAX_LISTED_ERRORS);
        assert_eq!(
            report.lines().last().map(String::as_str),
            Some("… and 10 more problem(s)")
        );
    }

    #[test]
    fn size_and_row_limits_have_clear_messages() {
        let limits = Limits {
            max_bytes: 10,
            max_rows: 1,
        };
        let report = validate_predictions(
            "{\"item_id\":\"i0\",\"answer\":1}",
            FileFormat::JsonLines,
            &manifest(1),
            limits,
        )
        .unwrap_err();
        assert_eq!(
            report.lines(),
            vec!["file is 27 bytes; the limit is 10 bytes"]
        );
        let limits = Limits {
            max_bytes: 1000,
            max_rows: 1,
        };
        let report = validate_predictions(
            "item_id,answer\ni0,1\ni1,1\n",
            FileFormat::Csv,
            &manifest(2),
            limits,
        )
        .unwrap_err();
        assert_eq!(report.lines(), vec!["file has 2 rows; the limit is 1 rows"]);
        let report = validate_predictions(
            "\n\n",
            FileFormat::JsonLines,
            &manifest(1),
            Limits::default(),
        )
        .unwrap_err();
        assert_eq!(report.lines(), vec!["file contains no predictions"]);
    }
}

/// One predicted explanation (CHIME task B): the meaning, and optionally origin and example.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
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
pub struct ValidatedExplanations {
    /// Item ids in manifest order.
    pub item_ids: Vec<String>,
    /// The prediction for each item (`None` = missing, scored as 0).
    pub predictions: Vec<Option<ExplanationPrediction>>,
    /// Data lines read.
    pub num_lines: usize,
    /// Items without a line.
    pub missing: Vec<String>,
}

/// Longest accepted explanation field, in characters.
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
    let mut errs = Collector::for_file(text, limits)?;
    const FIELDS: [&str; 4] = ["item_id", "meaning", "origin", "example"];
    // (line, field values by FIELDS index)
    let mut rows: Vec<(usize, [Option<String>; 4])> = Vec::new();
    match format {
        FileFormat::JsonLines => {
            for (i, raw) in text.lines().enumerate() {
                let line = i + 1;
                if raw.trim().is_empty() {
                    continue;
                }
                let value: serde_json::Value = match serde_json::from_str(raw) {
                    Ok(v) => v,
                    Err(e) => {
                        errs.push(
                            Some(line),
                            None,
                            format!("not valid JSON (column {}): {e}", e.column()),
                        );
                        continue;
                    }
                };
                let Some(obj) = value.as_object() else {
                    errs.push(
                        Some(line),
                        None,
                        "expected a JSON object like {\"item_id\": \"…\", \"meaning\": \"…\"}"
                            .into(),
                    );
                    continue;
                };
                let mut fields: [Option<String>; 4] = Default::default();
                for (key, v) in obj {
                    let Some(k) = FIELDS.iter().position(|f| f == key) else {
                        errs.push(
                            Some(line),
                            Some(key),
                            "unknown field (expected item_id, meaning, origin, example)".into(),
                        );
                        continue;
                    };
                    match v {
                        serde_json::Value::String(s) => fields[k] = Some(s.clone()),
                        serde_json::Value::Null if k >= 2 => {}
                        other => errs.push(
                            Some(line),
                            Some(key),
                            format!("expected text, found {other}"),
                        ),
                    }
                }
                rows.push((line, fields));
            }
        }
        FileFormat::Csv => {
            let mut lines = text
                .lines()
                .enumerate()
                .filter(|(_, l)| !l.trim().is_empty());
            if let Some((hi, header)) = lines.next() {
                match csv_fields(header.trim_start_matches('\u{feff}')) {
                    Err(e) => errs.push(Some(hi + 1), None, format!("not valid CSV: {e}")),
                    Ok(h) => {
                        let h: Vec<String> = h
                            .into_iter()
                            .map(|c| c.trim().to_ascii_lowercase())
                            .collect();
                        let cols: Vec<Option<usize>> = FIELDS
                            .iter()
                            .map(|f| h.iter().position(|c| c == f))
                            .collect();
                        if cols[0].is_none() || cols[1].is_none() {
                            errs.push(Some(hi + 1), None, format!("expected a header row with columns item_id,meaning (optional: origin,example), found `{}`", h.join(",")));
                        } else {
                            for (i, record) in lines {
                                match csv_fields(record) {
                                    Err(e) => {
                                        errs.push(Some(i + 1), None, format!("not valid CSV: {e}"))
                                    }
                                    Ok(f) if f.len() != h.len() => errs.push(
                                        Some(i + 1),
                                        None,
                                        format!(
                                            "expected {} fields as in the header, found {}",
                                            h.len(),
                                            f.len()
                                        ),
                                    ),
                                    Ok(f) => {
                                        let mut fields: [Option<String>; 4] = Default::default();
                                        for (k, c) in cols.iter().enumerate() {
                                            fields[k] = c
                                                .map(|c| f[c].clone())
                                                .filter(|v| !(k >= 2 && v.trim().is_empty()));
                                        }
                                        rows.push((i + 1, fields));
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    errs.check_rows(rows.len(), limits);
    let index: FnvMap<&str, usize> = manifest
        .items
        .iter()
        .enumerate()
        .map(|(i, it)| (it.id.as_str(), i))
        .collect();
    let mut predictions: Vec<Option<ExplanationPrediction>> = vec![None; manifest.items.len()];
    let mut first_line: Vec<usize> = vec![0; manifest.items.len()];
    for (line, fields) in rows {
        let Some(id) = fields[0].as_deref().map(str::trim) else {
            errs.push(Some(line), Some("item_id"), "missing".into());
            continue;
        };
        let Some(&i) = index.get(id) else {
            errs.push(
                Some(line),
                Some("item_id"),
                format!("unknown item id `{}`", shorten(id)),
            );
            continue;
        };
        let mut ok = true;
        let mut check = |k: usize, required: bool, errs: &mut Collector| -> Option<String> {
            match &fields[k] {
                None if required => {
                    errs.push(Some(line), Some(FIELDS[k]), "missing".into());
                    ok = false;
                    None
                }
                None => None,
                Some(v) => {
                    let chars = v.trim().chars().count();
                    if chars == 0 || chars > MAX_EXPLANATION_CHARS {
                        let found = if chars == 0 {
                            "an empty string".to_owned()
                        } else {
                            format!("{chars} characters")
                        };
                        errs.push(Some(line), Some(FIELDS[k]), format!("expected 1 to {MAX_EXPLANATION_CHARS} characters of text, found {found}"));
                        ok = false;
                        None
                    } else {
                        Some(v.trim().to_owned())
                    }
                }
            }
        };
        let meaning = check(1, true, &mut errs);
        let origin = check(2, false, &mut errs);
        let example = check(3, false, &mut errs);
        if !ok {
            continue;
        }
        if first_line[i] != 0 {
            errs.push(
                Some(line),
                Some("item_id"),
                format!(
                    "duplicate prediction for `{}`; first on line {}",
                    shorten(id),
                    first_line[i]
                ),
            );
            continue;
        }
        first_line[i] = line;
        predictions[i] = meaning.map(|meaning| ExplanationPrediction {
            meaning,
            origin,
            example,
        });
    }
    if errs.total > 0 {
        return Err(errs.into_report());
    }
    let missing = manifest
        .items
        .iter()
        .zip(&predictions)
        .filter(|(_, p)| p.is_none())
        .map(|(it, _)| it.id.clone())
        .collect();
    Ok(ValidatedExplanations {
        item_ids: manifest.items.iter().map(|i| i.id.clone()).collect(),
        num_lines: first_line.iter().filter(|&&l| l != 0).count(),
        predictions,
        missing,
    })
}
