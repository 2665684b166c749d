//! Optional capabilities of a kind on the server, each a typed hook that only the kinds having
//! it implement (see the `ServerKind` constants that name them): people judging the kind's
//! pages ([`Judged`]), the kind's boards as the source of a human-evaluation study
//! ([`StudySource`]), its gold labels as the strata a study samples by ([`GoldStrata`]), and
//! draws that an earlier version made from public data ([`PublicDraws`]), item subsets a
//! board switches between ([`Subsets`]), and prediction files scored automatically with a
//! baseline row ([`AutoScoring`]). Shared layers ask a kind for the capability and skip kinds
//! without it, so they never match on another kind's items.

use super::{ServerKind, TypedItem};
use crate::draws::Key;
use crate::error::ApiResult;
use crate::storage::{decode_json, JudgementRow};
use memeboard_core::api::RowKind;
use memeboard_core::human_eval::board::Judgement;
use memeboard_core::human_eval::study::SourceItem;
use memeboard_core::human_eval::training::PracticeField;
use memeboard_core::kinds::{AnswerValue, ItemGold, Kind};
use memeboard_core::messages::Message;
use memeboard_core::tasks::CategoryInfo;
use memeboard_core::with_kind;
use serde_json::Value;

/// One value of a judgement in the judgement export: a field of a rating, or one candidate's
/// rank, with the page's batch and what the value is about.
#[derive(Debug, Clone, PartialEq)]
pub struct JudgedField {
    /// The fixed batch of the page.
    pub batch: u32,
    /// The explanation item (meme or comic) judged.
    pub source_item: String,
    /// The submission whose output the value is about (`None`: a planted output).
    pub submission: Option<String>,
    /// `reference` or `other_meaning` for a planted quality-check output.
    pub planted: Option<&'static str>,
    /// What the value is about (`meaning`, a dimension's key, `rank`, …).
    pub field: String,
    /// The value given.
    pub value: Value,
    /// The candidate's display position on the page (rankings), if the kind has one.
    pub shown_at: Option<usize>,
}

/// What a judging kind (people rate or rank model outputs) adds: its pages checked before a
/// judging task is stored, its stored answers read as the statistics' judgements, and the
/// judgement export's values.
pub trait Judged<K: Kind>: Sync {
    /// Problems of one page of a judging task being created (`item`: its id, for messages);
    /// the shared checks (ids, kinds, batches) are made by the caller.
    fn item_problems(&self, item: &str, prompt: &K::Prompt, gold: &K::Gold) -> Vec<Message>;
    /// A stored answer in the statistics' terms (`None`: a page that judges no submission's
    /// output, such as a planted subject's ranking). `rater` is the rater's pseudonym.
    fn judgement(
        &self,
        rater: String,
        row: &JudgementRow,
        gold: K::Gold,
        answer: K::Answer,
    ) -> Option<Judgement>;
    /// The export's values of one stored answer, in the order they are written
    /// (`option_order`: the page's display order, as stored with the answer).
    fn export_fields(
        &self,
        gold: &K::Gold,
        answer: &K::Answer,
        option_order: &[usize],
    ) -> Vec<JudgedField>;
    /// Rater training: a practice answer beside the owner's expected one, field by field, in
    /// what the rater saw (`option_order`: the page's display order). `Err` says why
    /// `expected` is no answer to `prompt` (asked once, when the training is created).
    fn practice_fields(
        &self,
        prompt: &K::Prompt,
        expected: &K::Answer,
        given: &K::Answer,
        option_order: &[usize],
    ) -> Result<Vec<PracticeField>, Message>;
}

/// What a kind whose boards people evaluate (explanations of memes or comics) gives a study:
/// each item as the subject the raters see, with the reference where the dataset has one.
pub trait StudySource<K: Kind>: Sync {
    /// The item as a study's source item.
    fn source_item(&self, item: TypedItem<K>) -> SourceItem;
}

/// A kind whose gold gives each item one class that a study of another task of the same
/// benchmark may sample by (the structure type a comic's panel-type item is labelled with:
/// CMPM drew its comics 12–13 per structure type). Read from dev gold only.
pub trait GoldStrata<K: Kind>: Sync {
    /// The item's class as a category: key and words in both languages.
    fn stratum(&self, gold: &K::Gold) -> CategoryInfo;
}

/// A kind whose items carry a draw (a display order, an option order) that versions before
/// keyed draws made from public data; the start-up upgrade (`upgrade::draws`) asks it to
/// redraw such items with the benchmark's secret key.
pub trait PublicDraws<K: Kind>: Sync {
    /// Redraws the item's draw with `key` (`source`: the item's source id, the draw's input)
    /// when it is one made from public data; `Ok(false)`: nothing to do (already keyed,
    /// canonical, or the same draw).
    fn redraw(
        &self,
        key: &Key,
        source: &str,
        prompt: &mut K::Prompt,
        gold: &mut K::Gold,
    ) -> anyhow::Result<bool>;
}

/// Prediction files scored automatically against the gold, with a baseline row beside the
/// models on the kind's boards. A kind without it (comic explanations, the judging kinds)
/// stores submissions unscored, and its boards show no scores, baseline or crowd score rows:
/// people judge its outputs instead.
pub struct AutoScoring<K: Kind> {
    /// Row kind of the board's baseline row.
    pub baseline_row: RowKind,
    /// Label of the baseline row (English, a catalogue label: the app translates it).
    pub baseline_label: &'static str,
    /// The baseline row's expected score on one item (e.g. 1/5 for five options).
    pub baseline: fn(&TypedItem<K>) -> f64,
}

/// Whether kind `K` scores prediction files automatically (see [`AutoScoring`]).
pub fn auto_scored<K: ServerKind>() -> bool {
    K::AUTO_SCORING.is_some()
}

/// The baseline row's expected score on one item; `None` for a kind without automatic
/// scoring.
pub fn baseline_of<K: ServerKind>(item: &TypedItem<K>) -> Option<f64> {
    K::AUTO_SCORING.map(|a| (a.baseline)(item))
}

/// Item subsets a kind's boards switch between besides the full set: the clip task's `main`
/// (questions without a text cheat, AVMeme Table 2), panel order's `cas` (comics whose
/// comments are available, CMPM).
pub trait Subsets<K: Kind>: Sync {
    /// The subsets, `full` first.
    fn names(&self) -> &'static [&'static str];
    /// Whether the item belongs to `subset`, one of [`Subsets::names`] other than `full`.
    fn contains(&self, item: &TypedItem<K>, subset: &str) -> bool;
}

/// The subsets of kind `K`'s boards, `full` first; empty for a kind without subsets (the full
/// set only).
pub fn subset_names<K: ServerKind>() -> &'static [&'static str] {
    K::SUBSETS.map_or(&[], |s| s.names())
}

/// Whether the item belongs to `subset` (every item belongs to `full`).
pub fn in_subset<K: ServerKind>(item: &TypedItem<K>, subset: &str) -> bool {
    subset == "full" || K::SUBSETS.is_some_and(|s| s.contains(item, subset))
}

/// A stored judgement's gold and answer as they were stored.
fn stored(row: &JudgementRow) -> ApiResult<(ItemGold, AnswerValue)> {
    Ok((
        decode_json("items.gold_json", &row.gold_json)?,
        decode_json("answers.answer_json", &row.answer_json)?,
    ))
}

/// A stored judgement in the statistics' terms, read by its judging kind (`None`: a page
/// that judges no submission's output, or a row of a kind that is not judged).
pub fn judgement_of(row: &JudgementRow, rater: String) -> ApiResult<Option<Judgement>> {
    let (gold, answer) = stored(row)?;
    Ok(with_kind!(gold.kind(), K => {
        match (K::JUDGED, K::gold_of(gold), K::answer_of(answer)) {
            (Some(judged), Ok(gold), Ok(answer)) => judged.judgement(rater, row, gold, answer),
            _ => None,
        }
    }))
}

/// The judgement export's values of a stored judgement, read by its judging kind (none for
/// a row of a kind that is not judged).
pub fn export_fields_of(row: &JudgementRow) -> ApiResult<Vec<JudgedField>> {
    let (gold, answer) = stored(row)?;
    let order: Vec<usize> = serde_json::from_str(&row.option_order_json).unwrap_or_default();
    Ok(with_kind!(gold.kind(), K => {
        match (K::JUDGED, K::gold_of(gold), K::answer_of(answer)) {
            (Some(judged), Ok(gold), Ok(answer)) => judged.export_fields(&gold, &answer, &order),
            _ => Vec::new(),
        }
    }))
}
