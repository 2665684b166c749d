//! Multiple-choice prediction lines: their columns, the fast path for the common JSON line,
//! and [`validate_predictions`].
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
//!
//! Uploads are large (one line per item, order and sample) and validated on every upload and
//! preview, so the common flat JSON line is read by a hand-written scanner, and answers are
//! kept in one vector grouped by item (the server benchmark measures this path).

use super::records::{read_records, Column, FieldError, FieldValue, Record, RecordParser};
use super::{shorten, FileFormat, FnvMap, ItemIndex, Limits, TaskManifest, ValidationReport};
use crate::assign::option_order;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::borrow::Cow;
use std::collections::BTreeSet;

/// Option orders per MCQ item in the multi-order protocol (the original + 4 shuffles).
pub const NUM_ORDERS: usize = 5;
/// Seed base of the published option orders (order k ≥ 1 uses `ORDER_SEED + k`).
pub const ORDER_SEED: u64 = 0x4348_494d_455f_4f52;

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

/// One answer as written in the file, resolved to a canonical option.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
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
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ValidatedPredictions {
    /// All answers grouped by manifest item (in file order within an item): item `i`'s are
    /// `answers[offsets[i]..offsets[i + 1]]` (one allocation for the whole file).
    pub answers: Vec<ResolvedAnswer>,
    /// Group boundaries, `manifest.items.len() + 1` entries.
    pub offsets: Vec<usize>,
    /// Option orders used anywhere in the file (each item is scored over all of them).
    pub orders: BTreeSet<usize>,
    /// Data lines read: non-empty lines, not counting a CSV header (the same count for every
    /// task kind; see [`records`](super::records)).
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
        self.missing_message().map(|m| m.to_string())
    }

    /// [`missing_warning`](Self::missing_warning) as a catalogue message (either language).
    pub fn missing_message(&self) -> Option<crate::messages::Message> {
        super::missing_message(&self.missing, "file.missing_wrong")
    }
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
        // Keys compared inline (a `match` on strings calls `memcmp` per key: measured at
        // about a fifth of validation time on a 10,000-line file).
        let slot_taken = if same_bytes(key, "item_id") {
            item_id.replace(Cow::Borrowed(string(&mut i)?)).is_some()
        } else if same_bytes(key, "answer") {
            let value = if b.get(i) == Some(&b'"') {
                FastAnswer::Text(Cow::Borrowed(string(&mut i)?))
            } else {
                FastAnswer::Number(number(&mut i)?)
            };
            answer.replace(value).is_some()
        } else if same_bytes(key, "order") {
            order.replace(number(&mut i)?).is_some()
        } else if same_bytes(key, "sample") {
            sample.replace(number(&mut i)?).is_some()
        } else {
            return None;
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

/// Byte equality without a `memcmp` call, for the short keys and ids of the fast path.
#[inline(always)]
pub(crate) fn same_bytes(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.bytes().zip(b.bytes()).all(|(x, y)| x == y)
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

/// How many samples per (item, order) a file may give.
const MAX_SAMPLES: usize = 1000;

/// The fields of a multiple-choice line.
const COLUMNS: &[Column] = &[
    Column::required("item_id", "expect.text", "\"…\""),
    Column::required("answer", "expect.option", "1"),
    Column::optional("order", "expect.whole_number", "0"),
    Column::optional("sample", "expect.whole_number", "0"),
];

/// An answer as written, before it is checked against the item's options.
enum Answer<'a> {
    /// A whole number, or the text of a number that is not one (shown in the error).
    Number(Result<u64, String>),
    /// An option's text.
    Text(&'a str),
}

/// Reads multiple-choice lines against a manifest, in one pass: finds each line's item,
/// resolves its answer to a canonical option and rejects repeated (item, order, sample).
struct McqParser<'m> {
    manifest: &'m TaskManifest,
    items: ItemIndex<'m>,
    /// First line of each item's (order 0, sample 0) answer; 0 = none yet.
    seen_plain: Vec<usize>,
    /// First line of the other (item, order, sample) answers.
    seen: FnvMap<(usize, usize, usize), usize>,
    orders: BTreeSet<usize>,
}

impl<'m> McqParser<'m> {
    fn new(manifest: &'m TaskManifest) -> Self {
        Self {
            manifest,
            items: ItemIndex::new(manifest),
            seen_plain: vec![0; manifest.items.len()],
            seen: FnvMap::default(),
            orders: BTreeSet::new(),
        }
    }

    /// Checks the rest of a line whose item is `item_index`.
    // (Always inlined into both paths: it runs once per line; measured.)
    #[inline(always)]
    fn accept(
        &mut self,
        line: usize,
        item_index: usize,
        order: Option<u64>,
        sample: Option<u64>,
        answer: Option<Answer<'_>>,
    ) -> Result<(usize, ResolvedAnswer), FieldError> {
        let index_below = |field: &str, value: Option<u64>, max: usize| match value {
            None => Ok(0),
            Some(n) => usize::try_from(n).ok().filter(|&n| n < max).ok_or_else(|| {
                FieldError::new(
                    field,
                    crate::msg!("file.index_range", max = max - 1, found = n),
                )
            }),
        };
        let order = index_below("order", order, NUM_ORDERS)?;
        let sample = index_below("sample", sample, MAX_SAMPLES)?;
        let item = &self.manifest.items[item_index];
        let n = item.options.len();
        let option = match answer {
            None => return Err(FieldError::missing("answer")),
            Some(Answer::Number(v)) => {
                match v.as_ref().ok().and_then(|&k| usize::try_from(k).ok()) {
                    Some(k) if (1..=n).contains(&k) && order == 0 => k - 1,
                    Some(k) if (1..=n).contains(&k) => order_permutation(&item.id, order, n)[k - 1],
                    _ => {
                        let shown = v.map_or_else(|t| shorten(&t), |k| k.to_string());
                        return Err(FieldError::new(
                            "answer",
                            crate::msg!("file.option_number", n = n, found = shown),
                        ));
                    }
                }
            }
            Some(Answer::Text(t)) => match item.options.iter().position(|o| o == t.trim()) {
                Some(k) => k,
                None => {
                    return Err(FieldError::new(
                        "answer",
                        crate::msg!("file.not_an_option", found = shorten(t), n = n),
                    ))
                }
            },
        };
        let first = if order == 0 && sample == 0 {
            let slot = &mut self.seen_plain[item_index];
            let first = (*slot != 0).then_some(*slot);
            if first.is_none() {
                *slot = line;
            }
            first
        } else {
            match self.seen.entry((item_index, order, sample)) {
                std::collections::hash_map::Entry::Occupied(e) => Some(*e.get()),
                std::collections::hash_map::Entry::Vacant(e) => {
                    e.insert(line);
                    None
                }
            }
        };
        if let Some(first) = first {
            return Err(FieldError::new(
                "item_id",
                crate::msg!(
                    "file.duplicate_order_sample",
                    id = shorten(&item.id),
                    order = order,
                    sample = sample,
                    first = first
                ),
            ));
        }
        self.orders.insert(order);
        Ok((
            item_index,
            ResolvedAnswer {
                order,
                sample,
                option,
            },
        ))
    }
}

impl RecordParser for McqParser<'_> {
    type Line = (usize, ResolvedAnswer);
    const COLUMNS: &'static [Column] = COLUMNS;

    fn parse_json_fast(
        &mut self,
        raw: &str,
        line: usize,
    ) -> Option<Result<Self::Line, FieldError>> {
        // (Only objects: serde would also read a struct from a JSON array.)
        if !raw.trim_start().starts_with('{') {
            return None;
        }
        let fast =
            scan_flat_line(raw).or_else(|| serde_json::from_str::<FastLine<'_>>(raw).ok())?;
        let answer = match &fast.answer {
            FastAnswer::Number(k) => Answer::Number(Ok(*k)),
            FastAnswer::Text(t) => Answer::Text(t),
        };
        Some(
            self.items
                .find(&fast.item_id)
                .and_then(|i| self.accept(line, i, fast.order, fast.sample, Some(answer))),
        )
    }

    fn parse(&mut self, r: &Record<'_>) -> Result<Self::Line, FieldError> {
        let item_index = self.items.find(r.required_text("item_id")?)?;
        let order = r.uint("order")?;
        let sample = r.uint("sample")?;
        let answer = match r.value("answer") {
            None => None,
            Some(FieldValue::Json(Value::Number(k))) => {
                Some(Answer::Number(k.as_u64().ok_or_else(|| k.to_string())))
            }
            Some(FieldValue::Json(Value::String(t))) => Some(Answer::Text(t)),
            Some(FieldValue::Cell(c))
                if c.chars()
                    .all(|c| c.is_ascii_digit() || c == '-' || c == '.') =>
            {
                Some(Answer::Number(c.parse().map_err(|_| c.to_owned())))
            }
            Some(FieldValue::Cell(c)) => Some(Answer::Text(c)),
            Some(other) => return Err(r.unexpected("answer", other)),
        };
        self.accept(r.line, item_index, order, sample, answer)
    }
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
    let mut parser = McqParser::new(manifest);
    let read = read_records(text, format, limits, &mut parser)?;
    // Counting sort by item: stable, so each item keeps its answers in file order.
    let mut offsets = vec![0usize; manifest.items.len() + 1];
    for (i, _) in &read.lines {
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
        read.lines.len()
    ];
    for (i, a) in read.lines {
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
        orders: parser.orders,
        num_lines: read.num_lines,
        missing,
    })
}

#[cfg(test)]
mod tests;
