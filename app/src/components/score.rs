//! Leaderboard pieces shared by several pages: an estimate with its interval, a table of
//! per-category estimates, and the localized labels of board rows.

use crate::format::{self, DASH};
use crate::i18n::board::{btr, BoardStrings};
use crate::i18n::{category_label, tr, use_i18n, Lang, Strings};
use crate::kinds;
use leptos::prelude::*;
use memeboard_core::api::{BoardRow, RowGroup, RowKind, SubmissionStatus, Weights};
use memeboard_core::leaderboard::CategoryEstimate;
use memeboard_core::stats::Estimate;
use memeboard_core::tasks::{CategoryInfo, TaskKind};

/// `0.812` with the interval `[0.75, 0.87]` in smaller text after it (or a dash).
pub fn estimate_view(e: Option<&Estimate>) -> AnyView {
    match e {
        Some(e) => view! {
            <span class="val">
                <span class="est">{format::accuracy(e.value)}</span>
                " "
                <span class="ci">{format::interval(e)}</span>
            </span>
        }
        .into_any(),
        None => view! { <span class="val">{DASH}</span> }.into_any(),
    }
}

/// A category's estimate, or "too few items to show" where the server left the value out
/// because the category has too few items on the board half.
pub fn category_estimate_view(s: Option<&CategoryEstimate>, lang: Lang) -> AnyView {
    match s {
        Some(s) if s.suppressed => {
            let t = lang.table::<BoardStrings>();
            view! {
                <span class="val muted small" data-testid="suppressed" title=t.too_few_items_title>
                    {t.too_few_items}
                </span>
            }
            .into_any()
        }
        other => estimate_view(other.and_then(|s| s.estimate.as_ref())),
    }
}

/// Whether no row of the board shows a figure for the category at score index `i` because
/// every figure there is withheld for too few items (the column would read "too few items
/// to show" all the way down).
pub fn all_suppressed(rows: &[BoardRow], i: usize) -> bool {
    memeboard_core::page_text::board::all_suppressed(rows, i)
}

/// The name of a human or baseline row kind in `lang` (`None` for models: they have their
/// own names).
pub fn reference_row_name(lang: Lang, kind: RowKind) -> Option<&'static str> {
    let t = match lang {
        Lang::En => memeboard_core::page_text::board::BOARD_EN,
        Lang::Zh => memeboard_core::page_text::board::BOARD_ZH,
    };
    t.reference_row_name(kind)
}

/// The name of a reference level (chance, random pair…) in `lang`; "model" for a model row.
pub fn reference_row_text(lang: Lang, kind: RowKind) -> &'static str {
    reference_row_name(lang, kind).unwrap_or(lang.table::<Strings>().kind_model)
}

/// A board row's label in `lang`: model names as given; human and baseline rows translated.
pub fn row_label(lang: Lang, row: &BoardRow) -> String {
    reference_row_name(lang, row.kind).map_or_else(|| row.label.clone(), str::to_owned)
}

/// The kind badge text of a row's group.
pub fn kind_text(lang: Lang, kind: RowKind) -> &'static str {
    let t = lang.table::<BoardStrings>();
    match kind.group() {
        RowGroup::Model => t.kind_model,
        RowGroup::Human => t.kind_human,
        RowGroup::Baseline => t.kind_baseline,
        RowGroup::Published => lang.table::<BoardStrings>().kind_published,
    }
}

/// A task kind in words.
pub fn task_kind_text(lang: Lang, kind: TaskKind) -> &'static str {
    kinds::kind_name(lang, kind)
}

/// The wire name of a row's group (CSS class and `data-kind`).
pub fn kind_key(kind: RowKind) -> &'static str {
    match kind.group() {
        RowGroup::Model => "model",
        RowGroup::Human => "human",
        RowGroup::Baseline => "baseline",
        RowGroup::Published => "published",
    }
}

/// "open" / "closed" in `lang`.
pub fn weights_text(lang: Lang, weights: Weights) -> &'static str {
    match weights {
        Weights::Open => lang.table::<BoardStrings>().weights_open,
        Weights::Closed => lang.table::<BoardStrings>().weights_closed,
    }
}

/// "scored" / "received" / "judged by people only" in `lang`.
pub fn status_text(lang: Lang, status: SubmissionStatus) -> &'static str {
    match status {
        SubmissionStatus::Scored => lang.table::<BoardStrings>().status_scored,
        SubmissionStatus::Received => lang.table::<BoardStrings>().status_received,
        SubmissionStatus::Unscored => lang.table::<BoardStrings>().status_unscored,
    }
}

/// A table of estimates: overall first, then one row per category, with item counts.
#[component]
pub fn ScoreTable(
    /// Overall then per category (as the server and `summarize` return them).
    scores: Vec<CategoryEstimate>,
    /// Category labels.
    categories: Vec<CategoryInfo>,
    /// `data-testid` of the table.
    #[prop(optional)]
    testid: &'static str,
) -> impl IntoView {
    let i18n = use_i18n();
    let categories = StoredValue::new(categories);
    let rows = scores
        .into_iter()
        .map(|s| {
            let key = s.category.clone();
            let label = move || match key.as_deref() {
                None => i18n.t().overall.to_owned(),
                Some(k) => categories.with_value(|c| category_label(i18n.lang(), k, c)),
            };
            view! {
                <tr
                    class:overall=s.category.is_none()
                    data-category=s.category.clone().unwrap_or_else(|| "overall".to_owned())
                >
                    <th scope="row">{label}</th>
                    <td>{let s = s.clone(); move || category_estimate_view(Some(&s), i18n.lang())}</td>
                    <td>{s.items.to_string()}</td>
                </tr>
            }
        })
        .collect_view();
    view! {
        <div class="table-wrap">
            <table class="scores" data-testid=(!testid.is_empty()).then_some(testid)>
                <thead>
                    <tr>
                        <th scope="col">{tr(|t| t.col_category)}</th>
                        <th scope="col">{btr(|t| t.col_accuracy)}</th>
                        <th scope="col">{btr(|t| t.col_items)}</th>
                    </tr>
                </thead>
                <tbody>{rows}</tbody>
            </table>
        </div>
    }
}

/// A scored board row without scores, for the tests of the components that show rows.
#[cfg(test)]
pub(crate) fn test_row(kind: RowKind, label: &str) -> BoardRow {
    BoardRow {
        flags: Vec::new(),
        confusion: None,
        kind,
        label: label.into(),
        submission_id: None,
        model: None,
        submitted_at: None,
        status: SubmissionStatus::Scored,
        scores: vec![],
        participants: None,
        participants_before_exclusions: None,
        source: None,
        extra: vec![],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn human_and_baseline_rows_are_translated_by_kind_not_label() {
        let best = test_row(RowKind::HumanBest, "whatever the server says");
        let avg = test_row(RowKind::HumanAverage, "Human average (crowd)");
        assert_eq!(row_label(Lang::Zh, &best), "人类最佳（众包）");
        assert_eq!(row_label(Lang::En, &avg), "Human average (crowd)");
        assert_eq!(
            row_label(
                Lang::Zh,
                &test_row(RowKind::Chance, "Chance (random option)")
            ),
            "随机猜测（期望值）"
        );
        assert_eq!(
            row_label(Lang::Zh, &test_row(RowKind::Model, "Best-LM")),
            "Best-LM"
        );
        assert_eq!(
            row_label(Lang::Zh, &test_row(RowKind::RandomPair, "Chance")),
            "随机（对每个梗都一样适用的释义）"
        );
        assert_eq!(kind_key(RowKind::RandomPair), "baseline");
        assert_eq!(kind_key(RowKind::HumanPooled), "human");
        assert_eq!(
            task_kind_text(Lang::En, TaskKind::TextMcq),
            "Fill in the blank (five options)"
        );
    }
}
