//! Importers for upstream benchmark files. `chime` reads the CHIME JSON formats
//! (`chime_full.json` memes + `chime_mcq.json` questions), validates every record, joins
//! questions to memes, and mints stable ids. Parsing is pure; storing is one transaction.
//!
//! One module per dataset: `chime` (text memes), `clips` (audio-visual clips) and
//! `panels` (multi-panel comics). This module holds what they share: the import error, the
//! split of an item, and how a JSON value is named in a problem; with `files` (reading the
//! media files a manifest names) and `guard` (the split guard of re-imports) beside them.
//! `distractors` regenerates a CHIME import's MCQ distractors, ready to re-import.

use serde_json::Value;

mod chime;
pub mod clips;
pub mod distractors;
pub mod files;
pub mod guard;
pub mod panels;
pub mod paper_figures;

pub use chime::{
    import_chime, import_chime_with, mcq_item_id, meme_id, parse_chime, BenchmarkSpec, ChimeImport,
};

/// How many problems an import error lists before summarising the rest.
const MAX_LISTED_PROBLEMS: usize = 20;

/// A rejected import: every problem found, each naming the file, record and field.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}", render_problems(.problems))]
pub struct ImportError {
    /// One line per problem.
    pub problems: Vec<String>,
}

fn render_problems(problems: &[String]) -> String {
    let mut out = format!(
        "import rejected, nothing was stored ({} problem(s)):",
        problems.len()
    );
    for p in problems.iter().take(MAX_LISTED_PROBLEMS) {
        out.push_str("\n  - ");
        out.push_str(p);
    }
    if problems.len() > MAX_LISTED_PROBLEMS {
        out.push_str(&format!(
            "\n  … and {} more",
            problems.len() - MAX_LISTED_PROBLEMS
        ));
    }
    out
}

/// The split and board half of an item, fixed by a hash of its **source id** (stable across
/// re-imports): every item derived from one public source (a meme phrase, a comic, a clip)
/// shares it, so one source never has dev gold in one task and test gold in another.
///
/// The source id must be derived from public data only: if it depended on the gold (for a
/// CHIME question, the answer meme), the published split of an item would tell which options
/// cannot be its answer.
///
/// Dev items: gold downloadable, used for previews. Test items: split evenly between the
/// public board and the private board.
pub fn split_of(source_id: &str, dev_percent: u8) -> (&'static str, &'static str) {
    use memeboard_core::ids::fnv1a64;
    let dev = split_hash(source_id) < u64::from(dev_percent);
    let public = fnv1a64(format!("half/{source_id}").as_bytes()).is_multiple_of(2);
    match (dev, public) {
        (true, _) => ("dev", "public"),
        (false, true) => ("test", "public"),
        (false, false) => ("test", "private"),
    }
}

/// The 0–99 bucket of a source id that decides dev vs test (dev when below `dev_percent`).
pub fn split_hash(source_id: &str) -> u64 {
    memeboard_core::ids::fnv1a64(format!("split/{source_id}").as_bytes()) % 100
}

/// Line `line` of the JSON Lines manifest `manifest_name` read as an object, or the problem
/// to report: not JSON (with the column), or JSON of another shape (saying what was found).
pub(crate) fn manifest_object(
    manifest_name: &str,
    line: usize,
    raw: &str,
) -> Result<serde_json::Map<String, Value>, String> {
    match serde_json::from_str::<Value>(raw) {
        Ok(Value::Object(obj)) => Ok(obj),
        Ok(other) => Err(format!(
            "{manifest_name} line {line}: expected a JSON object, found {}",
            describe(&other)
        )),
        Err(e) => Err(format!(
            "{manifest_name} line {line}: not valid JSON at column {}: {e}",
            e.column()
        )),
    }
}

/// A JSON value in an import error ("the number 3", "\"text\"", "an array"…), shared by the
/// importers.
pub(crate) fn describe(v: &Value) -> String {
    match v {
        Value::Null => "null".into(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => format!("the number {n}"),
        Value::String(s) => format!("\"{}\"", s.chars().take(40).collect::<String>()),
        Value::Array(_) => "an array".into(),
        Value::Object(_) => "an object".into(),
    }
}

pub(crate) use files::{is_safe_relative, title_problem};
pub use guard::TestToDev;
