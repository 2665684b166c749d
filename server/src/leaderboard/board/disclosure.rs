//! A board's figures as readers see them: rounded to what the half supports, and suppressed
//! where a category or subset has too few items.

use crate::config::LeaderboardSettings;
use memeboard_core::api::{BoardRow, RowKind};

/// Whether a row's figures are computed from the half's hidden gold (models, and reference
/// rows such as the majority type or a display order, scored like models); crowd rows are
/// bounded on their own (`board_crowd`), and chance rows need no gold.
fn scored_on_gold(kind: RowKind) -> bool {
    !matches!(
        kind,
        RowKind::HumanAverage
            | RowKind::HumanBest
            | RowKind::HumanPooled
            | RowKind::Chance
            | RowKind::RandomPair
    )
}

/// Figures scored on the hidden half's gold (model and reference rows), rounded to what the
/// half supports on the scale readers see (see `ladder`), and their counts per gold answer
/// (confusion matrices) only once the half is revealed (`revealed`); then per-category
/// figures only where the half has enough items in the category (model, human and baseline
/// rows alike; the overall column always), and likewise secondary figures over a subset of
/// items. `items`: the half's items.
pub(super) fn disclose(
    rows: &mut [BoardRow],
    lb: &LeaderboardSettings,
    items: usize,
    revealed: bool,
) {
    for row in rows.iter_mut().filter(|r| scored_on_gold(r.kind)) {
        memeboard_core::disclosure::round_scores(&mut row.scores, lb.score_grid_scale);
        if !revealed {
            row.confusion = None;
        }
    }
    let min_items = lb.min_category_items;
    for row in rows {
        for s in &mut row.scores {
            s.suppress_below(min_items);
        }
        row.extra.retain(|e| e.items.is_none_or(|n| n >= min_items));
        if row.confusion.is_some() && items < min_items {
            row.confusion = None;
        }
    }
}
