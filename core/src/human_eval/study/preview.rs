//! What a study would be before the owner commits: how many items each category offers on
//! the dev and test splits, what the request draws, the pages and batches it makes, and what
//! drawing from test instead would expose.

use super::{BoardSubmission, SourceItem, StudyProtocol};
use crate::predictions::Split;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Whether a source item can be judged in a study of `picked`: every picked submission has an
/// output for it and, under the accuracy protocol (reference shown first), it has a reference.
pub(super) fn eligible(
    item: &SourceItem,
    picked: &[&BoardSubmission],
    protocol: StudyProtocol,
) -> bool {
    picked.iter().all(|s| s.outputs.contains_key(&item.id))
        && (protocol != StudyProtocol::Accuracy || item.reference.is_some())
}

/// The eligible source items per category on `split` for the submissions `picked` (ids on
/// `board`), as a study planned with them could draw (see [`super::plan_study`], rule 3).
///
/// Worked example: two submissions with outputs for memes `a` and `b`, one without for `c`:
/// under the accuracy protocol `a` (with a reference) counts, `b` (none) and `c` do not.
/// ```
/// use memeboard_core::human_eval::outputs::{ExplainedOutput, RatedSubject, Reference};
/// use memeboard_core::human_eval::study::*;
/// use memeboard_core::predictions::Split;
/// let item = |id: &str, reference: bool| SourceItem {
///     id: id.into(), category: "slang".into(), split: Split::Dev,
///     subject: RatedSubject::Meme { phrase: id.into() },
///     reference: reference.then(|| Reference { meaning: "m".into(), origin: None, examples: vec![] }),
///     has_context: false,
/// };
/// let out = ExplainedOutput { meaning: "x".into(), origin: None, example: None };
/// let sub = |id: &str| BoardSubmission { id: id.into(), score: None,
///     outputs: ["a", "b"].iter().map(|i| (i.to_string(), out.clone())).collect() };
/// let items = [item("a", true), item("b", false), item("c", true)];
/// let board = [sub("s1"), sub("s2")];
/// let picked = ["s1".to_owned(), "s2".to_owned()];
/// let n = eligible_per_category(StudyProtocol::Accuracy, &board, &picked, &items, Split::Dev);
/// assert_eq!(n.get("slang"), Some(&1));
/// let n = eligible_per_category(StudyProtocol::Cmpm, &board, &picked, &items, Split::Dev);
/// assert_eq!(n.get("slang"), Some(&2));
/// ```
pub fn eligible_per_category(
    protocol: StudyProtocol,
    board: &[BoardSubmission],
    picked: &[String],
    items: &[SourceItem],
    split: Split,
) -> BTreeMap<String, usize> {
    let picked: Vec<&BoardSubmission> = board.iter().filter(|s| picked.contains(&s.id)).collect();
    let mut counts = BTreeMap::new();
    for item in items.iter().filter(|i| i.split == split) {
        if eligible(item, &picked, protocol) {
            *counts.entry(item.category.clone()).or_insert(0) += 1;
        }
    }
    counts
}

/// One category's eligible source items (an output from every picked submission and, for
/// the accuracy protocol, a reference to show) on each split, and how many the request draws.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct CategoryAvailability {
    /// Category key (meme type, comic structure type).
    pub category: String,
    /// Eligible dev items (gold public: raters may see it).
    pub dev: usize,
    /// Eligible test items (gold hidden: drawing them shows raters their gold).
    pub test: usize,
    /// Drawn by the request, on its split.
    pub drawn: usize,
}

/// `POST /api/owner/tasks/{slug}/studies/preview`: the study a request would make, computed
/// like the real one but stored nowhere (the sample depends on the seed; a request without
/// one is previewed with a fixed seed).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct StudyPreview {
    /// Per category, sorted by key.
    pub categories: Vec<CategoryAvailability>,
    /// Submissions picked.
    pub submissions: Vec<String>,
    /// Source items drawn.
    pub source_items: usize,
    /// Rating pages, planted pages included.
    pub rating_pages: usize,
    /// Rating batches (a rater does one whole batch).
    pub rating_batches: u32,
    /// Ranking pages (CMPM).
    pub ranking_pages: usize,
    /// Ranking batches.
    pub ranking_batches: u32,
    /// Raters wanted: rating batches × raters per batch.
    pub raters_wanted: u32,
    /// Rating batches with a planted group.
    pub planted_groups: u32,
    /// Rating batches without one (no spare items left).
    pub unplanted_batches: u32,
    /// Test items whose gold this plan shows raters.
    pub exposed_test_items: usize,
    /// Test items whose gold the same request would show raters drawn from test instead
    /// (an invitation-only study), so the owner sees the cost before choosing; `None` when
    /// the test split cannot make such a study.
    pub exposed_if_test: Option<usize>,
}
