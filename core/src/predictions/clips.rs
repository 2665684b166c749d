//! Audio-visual meme clip prediction files (`clip_mcq`, AVMeme Exam): the one fixed lettered
//! option order models see ([`model_option_order`]), what an answer may say
//! ([`parse_clip_answer`]), all-or-nothing validation ([`validate_clip_answers`]) and scoring
//! to verdicts with the benchmark's facets as subsets ([`clip_outcomes`], [`facet_subsets`]).
//!
//! # Lines
//!
//! ```text
//! {"item_id": "clip-…", "answer": "B"}        a letter (or any form of the table below)
//! {"item_id": "clip-…", "answer": 2}          a 1-based number: 2 = B
//! {"item_id": "clip-…", "answer": "Nyan Cat"} the exact text of one option
//! ```
//!
//! CSV files have the header `item_id,answer`; an `answer` cell is read as the text of a JSON
//! string (`2` and `"2"` alike).
//!
//! # Options and letters
//!
//! Every model sees each item's choices in one fixed shuffled order, lettered A, B, C…; the
//! task's manifest lists them in that order ([`ManifestItem::options`], n = their number), and
//! answers are read as *lettered positions* (0 = A). Letter `k` is canonical choice
//! `order[k]` of the item's model order (drawn once at import with [`model_option_order`]
//! from a seed the server keys with its secret, and stored with the hidden gold);
//! [`model_position`] goes the other way, and
//! [`model_options`] builds the lettered list from the canonical choices. Scoring compares
//! lettered positions with [`ClipGold::correct_position`], so the mapping is needed only to
//! build the manifest and the gold.
//!
//! # Accepted answers ([`parse_clip_answer`])
//!
//! Examples for an item of four options (A `Rickroll`, B `Nyan Cat`, C `Trololo`, D `Numa
//! Numa`); each reads as B. Surrounding spaces are ignored everywhere.
//!
//! | Written as                                                        | Example                   |
//! |-------------------------------------------------------------------|---------------------------|
//! | a letter, either case                                             | `B` `b`                   |
//! | a letter in brackets: `( )`, `[ ]`, full-width `（ ）`             | `(B)` `[b]` `（B）`        |
//! | a letter then `.` `)` `:` `：` `、` `．` `）`, then optionally any text | `B.` `B)` `B: ` `B) Nyan Cat` |
//! | a bracketed letter then optionally any text                       | `(B) Nyan Cat`            |
//! | `Option`, `Answer`, `Choice` (any case), `选项` or `答案`, optionally `:`/`：`, then one of the forms above or a number | `Option B` `answer: (b)` `选项B` `答案：B` `Choice 2` |
//! | a 1-based number: a JSON integer, or a text of ASCII digits        | `2` `"2"`                 |
//! | the text of one option, as written (case-sensitive)               | `Nyan Cat`                |
//! | the text of one option up to letter case, when only one matches   | `nyan cat`                |
//!
//! Letters run from A to the item's last option (A–Z at most). Text after a letter is not
//! read, except that it must not be the text of a *different* option (`B) Trololo` is
//! rejected as contradictory); and an answer that is exactly an option's text is that option
//! even when it starts like a letter form (an option `A.I. voice` is not letter A). An answer that reads two ways is rejected as ambiguous unless
//! both name the same option: e.g. `2` when option C's text is `2` (number 2 is B). A JSON
//! number is always a number. Everything else is rejected with what was expected: letters
//! outside the options (`E`), numbers outside `1..=n` (`0`, `5`), other texts (`B is right`,
//! `Nyan`), an empty text, a JSON boolean, array, object or non-integer number.
//!
//! # Validation ([`validate_clip_answers`])
//!
//! Unlike panel files, an answer that names no option rejects the file, as for text multiple
//! choice. Every problem is listed with its line and field (see [`records`](super::records)):
//! a line that is not valid JSON or not an object, a missing or non-text `item_id`, an unknown
//! item id, a second line for an item (naming the first), a missing `answer` (absent or `null`
//! in JSON Lines, an empty cell or no column in CSV), an answer that is not one of the options,
//! and any other field or column. Items without a line are listed in
//! [`ValidatedClipFile::missing`] and scored as wrong.
//!
//! ```
//! use memeboard_core::predictions::clips::*;
//! use memeboard_core::predictions::*;
//! let options = ["Rickroll", "Nyan Cat", "Trololo"].map(String::from).to_vec();
//! let item = |id: &str| ManifestItem { id: id.into(), category: "emotion".into(), split: Split::Test,
//!     options: options.clone() };
//! let manifest = TaskManifest { task: "avmeme".into(), items: vec![item("v1"), item("v2"), item("v3")] };
//! let file = "{\"item_id\":\"v1\",\"answer\":\"(B)\"}\n{\"item_id\":\"v2\",\"answer\":\"Trololo\"}";
//! let ok = validate_clip_answers(file, FileFormat::JsonLines, &manifest, Limits::default()).unwrap();
//! assert_eq!(ok.answers, vec![Some(1), Some(2), None]);
//! assert_eq!(ok.missing, vec!["v3"]);
//! ```

use super::per_item::{by_item, OneLinePerItem};
use super::records::{read_records, Column, FieldError, FieldValue, Record, RecordParser};
use super::{shorten, FileFormat, Limits, ManifestItem, TaskManifest, ValidationReport};
use crate::assign::option_order;
use crate::metrics::{ItemOutcome, OutcomeValue, Verdict};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeSet;

mod answers;
pub use answers::*;

/// The constant earlier versions seeded the model order with (`"avmeme"` in ASCII), combined
/// with the item's public id ([`legacy_model_option_order`]): anyone could recompute it, and
/// with choices listed answer first it gave the answer away. Kept only to read items imported
/// by those versions (their stored gold has no order) and for tests that play the attacker.
pub const LEGACY_MODEL_OPTION_SEED: u64 = 0x6176_6d65_6d65;

/// The subset of items not answerable from the text alone: the benchmark's headline numbers.
pub const MAIN_SUBSET: &str = "main";

/// The one option order every model sees (A = first): the canonical index of the choice at
/// each lettered position, drawn from `seed`. The order must not follow from public data (with
/// choices listed answer first it would give the answer away), so the server derives `seed`
/// from its per-installation secret, the benchmark and the item (docs/clips.md), draws the
/// order once at import and stores it with the hidden gold; inputs.jsonl, the manifest and the
/// scoring all read that stored order.
///
/// ```
/// use memeboard_core::predictions::clips::model_option_order;
/// let order = model_option_order(0x51c2_77e0_9a4d_3b15, 4);
/// assert_eq!(order, model_option_order(0x51c2_77e0_9a4d_3b15, 4)); // fixed per seed
/// let mut sorted = order.clone();
/// sorted.sort();
/// assert_eq!(sorted, vec![0, 1, 2, 3]);
/// ```
pub fn model_option_order(seed: u64, num_options: usize) -> Vec<usize> {
    let mut order: Vec<usize> = (0..num_options).collect();
    crate::rng::SplitMix64::new(seed).shuffle(&mut order);
    order
}

/// The model order earlier versions used: public data only, hence compromised (see
/// [`LEGACY_MODEL_OPTION_SEED`]); the order of stored items that have none of their own.
///
/// ```
/// use memeboard_core::assign::option_order;
/// use memeboard_core::predictions::clips::{legacy_model_option_order, LEGACY_MODEL_OPTION_SEED};
/// assert_eq!(
///     legacy_model_option_order("clip-1", 4),
///     option_order(LEGACY_MODEL_OPTION_SEED, "clip-1", 4)
/// );
/// ```
pub fn legacy_model_option_order(item_id: &str, num_options: usize) -> Vec<usize> {
    option_order(LEGACY_MODEL_OPTION_SEED, item_id, num_options)
}

/// Whether `order` is a model order for `num_options` choices (a permutation of them).
///
/// ```
/// use memeboard_core::predictions::clips::is_model_order;
/// assert!(is_model_order(&[2, 0, 1], 3));
/// assert!(!is_model_order(&[0, 0, 1], 3));
/// assert!(!is_model_order(&[], 3));
/// ```
pub fn is_model_order(order: &[usize], num_options: usize) -> bool {
    let mut seen = vec![false; num_options];
    order.len() == num_options
        && order
            .iter()
            .all(|&c| c < num_options && !std::mem::replace(&mut seen[c], true))
}

/// The lettered position (0 = A) at which models see canonical choice `canonical` under the
/// item's model `order`, so that the gold's canonical answer becomes
/// [`ClipGold::correct_position`]; `None` when `canonical` is not in the order.
///
/// ```
/// use memeboard_core::predictions::clips::{model_option_order, model_position};
/// let order = model_option_order(7, 4);
/// for k in 0..4 {
///     assert_eq!(model_position(&order, order[k]), Some(k));
/// }
/// assert_eq!(model_position(&order, 4), None);
/// ```
pub fn model_position(order: &[usize], canonical: usize) -> Option<usize> {
    order.iter().position(|&c| c == canonical)
}

/// An item's choices (given in canonical order) in the item's model `order`, so that the
/// manifest's `options` and the lettered list in inputs.jsonl are built the same way.
///
/// ```
/// use memeboard_core::predictions::clips::{model_option_order, model_options};
/// let choices = ["w", "x", "y", "z"].map(String::from);
/// let order = model_option_order(7, 4);
/// let lettered = model_options(&order, &choices);
/// assert!((0..4).all(|k| lettered[k] == choices[order[k]]));
/// ```
pub fn model_options(order: &[usize], choices: &[String]) -> Vec<String> {
    order
        .iter()
        .filter_map(|&c| choices.get(c).cloned())
        .collect()
}

/// The letter of lettered position `position` (0 = `A`), for messages and pages; `None` past
/// `Z`.
///
/// ```
/// use memeboard_core::predictions::clips::option_letter;
/// assert_eq!((option_letter(0), option_letter(25), option_letter(26)), (Some('A'), Some('Z'), None));
/// ```
pub fn option_letter(position: usize) -> Option<char> {
    u8::try_from(position)
        .ok()
        .filter(|&p| p < 26)
        .map(|p| char::from(b'A' + p))
}

/// A valid clip prediction file, aligned with the manifest, so that scoring can walk gold and
/// answers side by side.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ValidatedClipFile {
    /// Item ids in manifest order.
    pub item_ids: Vec<String>,
    /// Data lines read: non-empty lines, not counting a CSV header (the same count for every
    /// task kind; in a valid file, one per answered item).
    pub num_lines: usize,
    /// The lettered position answered for each manifest item (0 = A; `None` = no line for
    /// it, scored as wrong).
    pub answers: Vec<Option<usize>>,
    /// Items without a line.
    pub missing: Vec<String>,
}

impl ValidatedClipFile {
    /// "N item(s) have no prediction and are scored as wrong: a, b, …" or None, so the upload
    /// page can warn about a partial file the way it does for text multiple choice.
    ///
    /// ```
    /// use memeboard_core::predictions::clips::ValidatedClipFile;
    /// let file = ValidatedClipFile { item_ids: vec!["a".into(), "b".into()], num_lines: 1,
    ///     answers: vec![Some(0), None], missing: vec!["b".into()] };
    /// assert_eq!(file.missing_warning().as_deref(),
    ///     Some("1 item(s) have no prediction and are scored as wrong: b"));
    /// ```
    pub fn missing_warning(&self) -> Option<String> {
        self.missing_message().map(|m| m.to_string())
    }

    /// [`missing_warning`](Self::missing_warning) as a catalogue message (either language).
    pub fn missing_message(&self) -> Option<crate::messages::Message> {
        super::missing_message(&self.missing, "file.missing_wrong")
    }
}

/// Validates a clip prediction file: JSON Lines `{"item_id": "…", "answer": …}` or CSV with
/// header `item_id,answer`, against the manifest (whose `options` are in model order). All or
/// nothing: every problem of the module docs' list is reported with its line and field.
///
/// ```
/// use memeboard_core::predictions::clips::*;
/// use memeboard_core::predictions::*;
/// let item = |id: &str| ManifestItem { id: id.into(), category: "emotion".into(), split: Split::Test,
///     options: ["Rickroll", "Nyan Cat", "Trololo", "Numa Numa"].map(String::from).to_vec() };
/// let manifest = TaskManifest { task: "avmeme".into(), items: vec![item("v1"), item("v2"), item("v3")] };
/// let csv = "item_id,answer\nv1,\"B) Nyan Cat\"\nv2,4\n";
/// let ok = validate_clip_answers(csv, FileFormat::Csv, &manifest, Limits::default()).unwrap();
/// assert_eq!((ok.answers, ok.num_lines), (vec![Some(1), Some(3), None], 2));
/// let bad = validate_clip_answers("{\"item_id\":\"v9\",\"answer\":\"A\"}\n{\"item_id\":\"v1\",\"answer\":\"E\"}",
///     FileFormat::JsonLines, &manifest, Limits::default()).unwrap_err();
/// assert_eq!(bad.lines(), vec![
///     "line 1, field `item_id`: unknown item id `v9`",
///     "line 2, field `answer`: expected a letter A to D, a number 1 to 4 or the text of one option, found \"E\"",
/// ]);
/// ```
pub fn validate_clip_answers(
    text: &str,
    format: FileFormat,
    manifest: &TaskManifest,
    limits: Limits,
) -> Result<ValidatedClipFile, ValidationReport> {
    let mut parser = ClipParser {
        lines: OneLinePerItem::new(manifest),
        items: &manifest.items,
    };
    let read = read_records(text, format, limits, &mut parser)?;
    let placed = by_item(manifest, read.lines);
    Ok(ValidatedClipFile {
        item_ids: placed.item_ids,
        num_lines: read.num_lines,
        answers: placed.values,
        missing: placed.missing,
    })
}

/// Reads clip answer lines against a manifest: the item, its answer as a lettered position,
/// and one line per item.
struct ClipParser<'m> {
    lines: OneLinePerItem<'m>,
    items: &'m [ManifestItem],
}

impl RecordParser for ClipParser<'_> {
    type Line = (usize, usize);
    const COLUMNS: &'static [Column] = &[
        Column::required("item_id", "expect.text", "\"…\""),
        Column::required("answer", "expect.clip_option", "\"B\""),
    ];

    fn parse(&mut self, r: &Record<'_>) -> Result<Self::Line, FieldError> {
        let (i, id) = self.lines.item(r)?;
        let options = self.items.get(i).map_or(&[][..], |it| &it.options[..]);
        let position = match r.require("answer")? {
            FieldValue::Json(v) => read_clip_answer(v, options),
            FieldValue::Cell(c) => parse_text(c, options, || shorten(&Value::from(c).to_string())),
        }
        .map_err(|message| FieldError::new("answer", message))?;
        self.lines.first(i, id, r.line)?;
        Ok((i, position))
    }
}

/// The gold of one clip item, as plain data so that boards can score without the task store.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ClipGold {
    /// Item id (the manifest's).
    pub item_id: String,
    /// Question type key (e.g. `audio_analysis`): the item's category.
    pub question_type: String,
    /// Lettered position of the correct choice in the manifest's (model) order (0 = A); see
    /// [`model_position`].
    pub correct_position: usize,
    /// Sound type key (e.g. `speech`), for the `sound:` facet.
    pub sound_type: String,
    /// ISO 639-1 code of the clip's language (`None` = no language), for the `lang:` facet.
    pub language: Option<String>,
    /// Answerable from the text alone: such items are outside [`MAIN_SUBSET`].
    pub text_cheat: bool,
}

impl ClipGold {
    /// The subsets the item's outcome belongs to: [`MAIN_SUBSET`] unless `text_cheat`, then
    /// `sound:<sound_type>` and `lang:<code>` (or `lang:none`), so one set of outcomes gives
    /// every board breakdown.
    ///
    /// ```
    /// use memeboard_core::predictions::clips::ClipGold;
    /// let g = ClipGold { item_id: "v1".into(), question_type: "emotion".into(), correct_position: 0,
    ///     sound_type: "song".into(), language: None, text_cheat: false };
    /// assert_eq!(g.subsets(), ["main", "sound:song", "lang:none"]);
    /// ```
    pub fn subsets(&self) -> Vec<String> {
        let mut subsets = Vec::with_capacity(3);
        if !self.text_cheat {
            subsets.push(MAIN_SUBSET.to_owned());
        }
        subsets.push(format!("sound:{}", self.sound_type));
        subsets.push(format!(
            "lang:{}",
            self.language.as_deref().unwrap_or("none")
        ));
        subsets
    }
}

/// One verdict per gold item, Correct when the answered lettered position is the gold's and
/// Wrong otherwise (an item without a line is Wrong: validation already rejected every answer
/// that names no option), with the question type as category and [`ClipGold::subsets`], so
/// that a board reads accuracy overall, per question type, per facet and on the main subset
/// from the same outcomes.
///
/// `gold` is in manifest order (the order of `file.item_ids`); outcomes come in gold order. A
/// gold item whose id is not the file's at the same position is a programming error (gold and
/// manifest are built from the same task items): it is skipped, yielding no outcome, so the
/// mistake shows as a lower item count instead of a panic or a mis-scored item.
///
/// Worked example: three items with correct letters B, A, C answered B, C and nothing:
/// Correct, Wrong, Wrong; accuracy 1/3; on the main subset (the third is a text cheat) 1/2.
///
/// ```
/// use memeboard_core::metrics::{ItemOutcome, Metric, OutcomeValue, Verdict::*};
/// use memeboard_core::predictions::clips::*;
/// let gold: Vec<ClipGold> = [(1, false), (0, false), (2, true)].into_iter().enumerate().map(|(k, (c, cheat))|
///     ClipGold { item_id: format!("v{k}"), question_type: "emotion".into(), correct_position: c,
///         sound_type: "speech".into(), language: Some("en".into()), text_cheat: cheat }).collect();
/// let file = ValidatedClipFile { item_ids: vec!["v0".into(), "v1".into(), "v2".into()], num_lines: 2,
///     answers: vec![Some(1), Some(2), None], missing: vec!["v2".into()] };
/// let outcomes = clip_outcomes(&gold, &file);
/// let verdicts: Vec<_> = outcomes.iter().map(|o| o.value.clone()).collect();
/// assert_eq!(verdicts, [Correct, Wrong, Wrong].map(OutcomeValue::Verdict));
/// assert_eq!(Metric::Accuracy.compute(&outcomes), Some(1.0 / 3.0));
/// let main: Vec<ItemOutcome> = outcomes.iter().filter(|o| o.in_subset(MAIN_SUBSET)).cloned().collect();
/// assert_eq!(Metric::Accuracy.compute(&main), Some(0.5));
/// assert_eq!(outcomes[2].subsets, ["sound:speech", "lang:en"]);
/// ```
pub fn clip_outcomes(gold: &[ClipGold], file: &ValidatedClipFile) -> Vec<ItemOutcome> {
    gold.iter()
        .enumerate()
        .filter(|(k, g)| file.item_ids.get(*k) == Some(&g.item_id))
        .map(|(k, g)| {
            let answered = file.answers.get(k).copied().flatten();
            let verdict = if answered == Some(g.correct_position) {
                Verdict::Correct
            } else {
                Verdict::Wrong
            };
            ItemOutcome {
                item: g.item_id.clone(),
                category: g.question_type.clone(),
                subsets: g.subsets(),
                value: OutcomeValue::Verdict(verdict),
            }
        })
        .collect()
}

/// The subset keys of one facet present in `outcomes` (`prefix` `"sound"` or `"sound:"` gives
/// every `sound:*`), sorted with `<facet>:none` last, so a board lists a facet's rows in a
/// stable order for [`summarize_by_subset`](crate::metrics::summarize_by_subset).
///
/// ```
/// use memeboard_core::metrics::{ItemOutcome, OutcomeValue, Verdict::Correct};
/// use memeboard_core::predictions::clips::facet_subsets;
/// let mut o: Vec<ItemOutcome> = (0..3).map(|k| ItemOutcome::new(format!("v{k}"), "emotion", OutcomeValue::Verdict(Correct))).collect();
/// o[0].subsets = vec!["main".into(), "sound:song".into(), "lang:none".into()];
/// o[1].subsets = vec!["sound:speech".into(), "lang:zh".into()];
/// o[2].subsets = vec!["main".into(), "sound:song".into(), "lang:en".into()];
/// assert_eq!(facet_subsets(&o, "lang"), ["lang:en", "lang:zh", "lang:none"]);
/// assert_eq!(facet_subsets(&o, "sound:"), ["sound:song", "sound:speech"]);
/// ```
pub fn facet_subsets(outcomes: &[ItemOutcome], prefix: &str) -> Vec<String> {
    let prefix = if prefix.ends_with(':') {
        prefix.to_owned()
    } else {
        format!("{prefix}:")
    };
    let none = format!("{prefix}none");
    let present: BTreeSet<&str> = outcomes
        .iter()
        .flat_map(|o| &o.subsets)
        .map(String::as_str)
        .filter(|s| s.starts_with(&prefix))
        .collect();
    let mut keys: Vec<String> = present
        .iter()
        .filter(|s| **s != none)
        .map(|s| (*s).to_owned())
        .collect();
    if present.contains(none.as_str()) {
        keys.push(none);
    }
    keys
}

#[cfg(test)]
mod tests;
