//! Cutting the planner's rating pages into batches: how many pages the next batch takes, and
//! how many pages a planted subject group gets.

use super::{BoardSubmission, SourceItem};
use std::collections::BTreeMap;

/// The usual page count of a subject in a batch (the most common, ties to the larger): a
/// planted group gets as many pages, so that no subject stands out by its count (a batch cut
/// may leave a real subject with fewer pages than there are submissions).
pub(super) fn usual_pages(chunk: &[(&SourceItem, &BoardSubmission)]) -> usize {
    let mut per_item: BTreeMap<&str, usize> = BTreeMap::new();
    for (item, _) in chunk {
        *per_item.entry(item.id.as_str()).or_default() += 1;
    }
    let mut frequency: BTreeMap<usize, usize> = BTreeMap::new();
    for n in per_item.values() {
        *frequency.entry(*n).or_default() += 1;
    }
    frequency
        .iter()
        .max_by_key(|(n, f)| (**f, **n))
        .map_or(1, |(n, _)| *n)
}

/// How many of the `rest` remaining rating pages the next batch takes: `batch_size` without a
/// planted group. With one, whole subjects (`subject_pages` each, one per picked submission)
/// leaving room for the group, which then has `subject_pages` pages like every subject of the
/// batch: so a batch never holds more pages than asked for, and exactly as many when
/// `batch_size` is a whole number of subjects. Planting batches come first (spare items only
/// run out), so they start at a subject's first page. When a batch cannot hold one subject
/// beside a group (`batch_size` under twice `subject_pages`), it takes `batch_size` real pages
/// and its group comes on top, as large as the batch's subjects usually are: a smaller group
/// would stand out. With `whole_subjects` (one page per subject) a batch never splits a
/// subject: it takes as many whole subjects as fit beside the group, at least one.
///
/// Worked example: two submissions (two pages per subject), batches of 6 pages: two subjects
/// (4 pages) and a planted group of 2 make 6; cutting 6 real pages first made 8, 8, ….
pub(super) fn chunk_len(
    rest: usize,
    batch_size: usize,
    subject_pages: usize,
    planting: bool,
    whole_subjects: bool,
) -> usize {
    let most = batch_size.min(rest).max(1);
    let subject_pages = subject_pages.max(1);
    if whole_subjects {
        let room = batch_size.saturating_sub(if planting { subject_pages } else { 0 });
        return ((room / subject_pages).max(1) * subject_pages).clamp(1, rest.max(1));
    }
    if !planting || batch_size < 2 * subject_pages {
        return most;
    }
    ((batch_size - subject_pages) / subject_pages * subject_pages).clamp(1, rest.max(1))
}

#[cfg(test)]
mod tests {
    use super::chunk_len;

    #[test]
    fn one_page_per_subject_never_splits_a_subject() {
        // 7 models: 20 memes fill a batch of 140 pages; with a planted group, 19 beside it.
        assert_eq!(chunk_len(400, 140, 7, false, true), 140);
        assert_eq!(chunk_len(400, 140, 7, true, true), 133);
        // A batch asked smaller than a subject still takes one whole subject.
        assert_eq!(chunk_len(400, 5, 7, false, true), 7);
        assert_eq!(chunk_len(400, 10, 7, true, true), 7);
        assert_eq!(chunk_len(400, 10, 7, false, true), 7);
        // The last batch takes what is left.
        assert_eq!(chunk_len(14, 140, 7, false, true), 14);
        // Without the design, a batch is cut where it is full.
        assert_eq!(chunk_len(400, 10, 7, false, false), 10);
    }
}
