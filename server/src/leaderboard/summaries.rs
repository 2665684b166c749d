//! A submission's stored summaries: per category and overall, with bootstrap intervals, on
//! the public half, the private half, the whole test split (both halves together, the figure
//! the papers report) and every item (dev too, for owners); the last two shown once the
//! private half is revealed.
//!
//! The two halves' summaries have their own columns; the other views' are kept in the
//! submission's extra figures under `whole_summary` and `all_summary` ([`summary_key`]),
//! beside the kinds' secondary figures for `whole` and `all`, so that adding them needed no
//! new column.

use super::{category_keys, BOOTSTRAP_SEED};
use crate::config::Settings;
use crate::error::ApiResult;
use crate::storage::{BoardTaskRow, TaskItemRow};
use memeboard_core::api::BoardSplit;
use memeboard_core::leaderboard::{summarize, CategoryEstimate, ItemScore};
use memeboard_core::predictions::Split;
use serde_json::Value;
use std::collections::HashMap;

/// The views whose summaries are kept in the extra figures.
const EXTRA_VIEWS: [BoardSplit; 2] = [BoardSplit::Whole, BoardSplit::All];

/// Where a view's summary is kept in a submission's extra figures (`whole_summary`,
/// `all_summary`).
pub(crate) fn summary_key(view: BoardSplit) -> String {
    format!("{}_summary", view.as_str())
}

/// A file's summaries on each board view.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct HalfSummaries {
    /// Over the public half's items.
    pub(crate) public: Vec<CategoryEstimate>,
    /// Over the private half's items.
    pub(crate) private: Vec<CategoryEstimate>,
    /// Over every test item (both halves).
    pub(crate) whole: Vec<CategoryEstimate>,
    /// Over every item, dev and test.
    pub(crate) all: Vec<CategoryEstimate>,
}

impl HalfSummaries {
    /// The summary of a view kept in the extra figures.
    fn of(&self, view: BoardSplit) -> &[CategoryEstimate] {
        match view {
            BoardSplit::Public => &self.public,
            BoardSplit::Private => &self.private,
            BoardSplit::Whole => &self.whole,
            BoardSplit::All => &self.all,
        }
    }
}

/// The summaries of `scores` on the task's items `rows` (dev items count on no board).
pub(super) fn half_summaries<'a>(
    task: &BoardTaskRow,
    rows: impl Iterator<Item = &'a TaskItemRow>,
    scores: &[ItemScore],
    settings: &Settings,
) -> ApiResult<HalfSummaries> {
    let halves: HashMap<&str, Option<BoardSplit>> = rows
        .map(|r| {
            let half = (r.split == Split::Test).then_some(r.board_half);
            (r.id.as_str(), half)
        })
        .collect();
    let cats = category_keys(task)?;
    Ok(summaries_by_half(
        &halves,
        scores,
        &cats,
        settings.quiz.bootstrap_resamples,
    ))
}

/// The summaries of per-item scores on every board view, given each item's board half
/// (`None` for dev items). Also used by the start-up upgrade to re-derive
/// stored summaries.
pub(crate) fn summaries_by_half(
    halves: &HashMap<&str, Option<BoardSplit>>,
    scores: &[ItemScore],
    cats: &[String],
    resamples: usize,
) -> HalfSummaries {
    let of_view = |view: BoardSplit| -> Vec<CategoryEstimate> {
        let on: Vec<ItemScore> = scores
            .iter()
            .filter(|s| match halves.get(s.item_id.as_str()) {
                Some(Some(half)) => view.covers(*half),
                Some(None) => view.includes_dev(),
                None => false,
            })
            .cloned()
            .collect();
        summarize(&on, cats, resamples, BOOTSTRAP_SEED)
    };
    HalfSummaries {
        public: of_view(BoardSplit::Public),
        private: of_view(BoardSplit::Private),
        whole: of_view(BoardSplit::Whole),
        all: of_view(BoardSplit::All),
    }
}

/// Keeps the whole split's and every item's summaries in a file's extra figures (made when
/// it has none).
pub(crate) fn store_view_summaries(extra: &mut Option<Value>, summaries: &HalfSummaries) {
    let extra = extra.get_or_insert_with(|| serde_json::json!({}));
    if let Some(map) = extra.as_object_mut() {
        for view in EXTRA_VIEWS {
            map.insert(
                summary_key(view),
                serde_json::to_value(summaries.of(view)).unwrap_or_default(),
            );
        }
    }
}

/// Whether stored extra figures already hold every view's summary.
pub(crate) fn has_view_summaries(extra: Option<&Value>) -> bool {
    extra.is_some_and(|v| {
        EXTRA_VIEWS
            .iter()
            .all(|&view| v.get(summary_key(view)).is_some())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn score(id: &str, s: f64) -> ItemScore {
        ItemScore {
            item_id: id.into(),
            category: "a".into(),
            score: s,
        }
    }

    #[test]
    fn whole_covers_both_halves_and_no_dev_item() {
        let halves: HashMap<&str, Option<BoardSplit>> = [
            ("p", Some(BoardSplit::Public)),
            ("q", Some(BoardSplit::Private)),
            ("d1", None),
            ("d2", None),
        ]
        .into_iter()
        .collect();
        let scores = [
            score("p", 1.0),
            score("q", 0.0),
            score("d1", 1.0),
            score("d2", 1.0),
        ];
        let s = summaries_by_half(&halves, &scores, &["a".into()], 50);
        let overall = |v: &[CategoryEstimate]| (v[0].items, v[0].estimate.map(|e| e.value));
        assert_eq!(overall(&s.public), (1, Some(1.0)));
        assert_eq!(overall(&s.private), (1, Some(0.0)));
        assert_eq!(overall(&s.whole), (2, Some(0.5)));
        assert_eq!(overall(&s.all), (4, Some(0.75)));
    }

    #[test]
    fn the_whole_summary_is_kept_beside_other_figures() {
        let mut extra = Some(serde_json::json!({"public": [], "whole_summary": []}));
        assert!(!has_view_summaries(extra.as_ref()));
        store_view_summaries(&mut extra, &HalfSummaries::default());
        assert!(has_view_summaries(extra.as_ref()));
        assert!(extra.as_ref().is_some_and(|v| v.get("public").is_some()));
        let mut none = None;
        store_view_summaries(&mut none, &HalfSummaries::default());
        assert!(has_view_summaries(none.as_ref()));
        assert_eq!(summary_key(BoardSplit::All), "all_summary");
    }
}
