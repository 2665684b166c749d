//! Leaderboard pieces shared by several pages: an estimate with its interval, a table of
//! per-category estimates, and the localized labels of board rows.

use crate::format::{self, DASH};
use crate::i18n::{category_label, tr, use_i18n, Lang};
use leptos::prelude::*;
use memeboard_core::api::{BoardRow, RowKind, SubmissionStatus, Weights};
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

fn by_lang(lang: Lang, en: &'static str, zh: &'static str) -> &'static str {
    match lang {
        Lang::En => en,
        Lang::Zh => zh,
    }
}

/// A category's estimate, or "too few items to show" where the server left the value out
/// because the category has too few items on the board half.
pub fn category_estimate_view(s: Option<&CategoryEstimate>, lang: Lang) -> AnyView {
    match s {
        Some(s) if s.suppressed => view! {
            <span class="val muted small" data-testid="suppressed" title=by_lang(lang, "Published only for categories with enough items on this board half", "仅公布本榜单中题目足够多的类别")>
                {by_lang(lang, "too few items to show", "题目太少，不显示")}
            </span>
        }
        .into_any(),
        other => estimate_view(other.and_then(|s| s.estimate.as_ref())),
    }
}

/// Whether a human row is the "human best" row (else it is the human average). The server
/// labels them "Human average (crowd)" and "Human best (crowd)".
pub fn is_human_best(row: &BoardRow) -> bool {
    row.kind == RowKind::Human && row.label.to_ascii_lowercase().contains("best")
}

/// A board row's label in `lang`: model names as given; human and chance rows translated.
pub fn row_label(lang: Lang, row: &BoardRow) -> String {
    let t = lang.strings();
    match row.kind {
        RowKind::Model => row.label.clone(),
        RowKind::Human if is_human_best(row) => t.row_human_best.to_owned(),
        RowKind::Human => t.row_human_average.to_owned(),
        RowKind::Baseline if row.label.to_ascii_lowercase().starts_with("chance") => {
            t.row_chance.to_owned()
        }
        RowKind::Baseline if row.label.to_ascii_lowercase().starts_with("random pair") => {
            t.row_random_pair.to_owned()
        }
        RowKind::Baseline => row.label.clone(),
    }
}

/// The kind badge text.
pub fn kind_text(lang: Lang, kind: RowKind) -> &'static str {
    let t = lang.strings();
    match kind {
        RowKind::Model => t.kind_model,
        RowKind::Human => t.kind_human,
        RowKind::Baseline => t.kind_baseline,
    }
}

/// A task kind in words.
pub fn task_kind_text(lang: Lang, kind: TaskKind) -> &'static str {
    let t = lang.strings();
    match kind {
        TaskKind::TextMcq => t.kind_text_mcq,
        TaskKind::Explanation => t.kind_explanation,
        other => other.as_str(),
    }
}

/// The wire name of a row kind (CSS class and `data-kind`).
pub fn kind_key(kind: RowKind) -> &'static str {
    match kind {
        RowKind::Model => "model",
        RowKind::Human => "human",
        RowKind::Baseline => "baseline",
    }
}

/// "open" / "closed" in `lang`.
pub fn weights_text(lang: Lang, weights: Weights) -> &'static str {
    match weights {
        Weights::Open => lang.strings().weights_open,
        Weights::Closed => lang.strings().weights_closed,
    }
}

/// "scored" / "received" in `lang`.
pub fn status_text(lang: Lang, status: SubmissionStatus) -> &'static str {
    match status {
        SubmissionStatus::Scored => lang.strings().status_scored,
        SubmissionStatus::Received => lang.strings().status_received,
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
                        <th scope="col">{tr(|t| t.col_accuracy)}</th>
                        <th scope="col">{tr(|t| t.col_items)}</th>
                    </tr>
                </thead>
                <tbody>{rows}</tbody>
            </table>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(kind: RowKind, label: &str) -> BoardRow {
        BoardRow {
            kind,
            label: label.into(),
            submission_id: None,
            model: None,
            submitted_at: None,
            status: SubmissionStatus::Scored,
            scores: vec![],
            participants: None,
            extra: vec![],
        }
    }

    #[test]
    fn human_and_chance_rows_are_translated() {
        let best = row(RowKind::Human, "Human best (crowd)");
        let avg = row(RowKind::Human, "Human average (crowd)");
        assert!(is_human_best(&best) && !is_human_best(&avg));
        assert_eq!(row_label(Lang::Zh, &best), "人类最佳（众包）");
        assert_eq!(row_label(Lang::En, &avg), "Human average (crowd)");
        assert_eq!(
            row_label(Lang::Zh, &row(RowKind::Baseline, "Chance (random option)")),
            "随机猜测（随机选项）"
        );
        assert_eq!(
            row_label(Lang::Zh, &row(RowKind::Model, "Best-LM")),
            "Best-LM"
        );
        assert_eq!(
            row_label(
                Lang::Zh,
                &row(RowKind::Baseline, "Random pair of reference meanings")
            ),
            "随机配对的参考释义"
        );
        assert_eq!(
            task_kind_text(Lang::En, TaskKind::TextMcq),
            "Fill in the blank (five options)"
        );
    }
}
