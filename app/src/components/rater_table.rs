//! The study page's per-rater reliability table (owners only): each counted rater's pages,
//! leave-one-out agreement, planted-check pass rate and Dawid–Skene competence, with its
//! strings in both languages. Only the study page (the studio bundle) uses it, so its words
//! stay out of the board bundle's tables.

use crate::format;
use crate::i18n::{text, use_i18n, StringTable};
use leptos::prelude::*;
use memeboard_core::human_eval::raters::{RaterRow, RaterScale};

/// The table's strings in one language.
#[derive(Debug)]
pub struct RaterStrings {
    /// Caption.
    pub caption: &'static str,
    /// The note under the table: what the figures mean.
    pub note: &'static str,
    /// Column: rater pseudonym.
    pub col_rater: &'static str,
    /// Column: what was judged.
    pub col_scale: &'static str,
    /// Column: pages judged.
    pub col_pages: &'static str,
    /// Column: agreement with everyone.
    pub col_with: &'static str,
    /// Column: agreement without the rater.
    pub col_without: &'static str,
    /// Column: the difference.
    pub col_delta: &'static str,
    /// Column: planted checks passed.
    pub col_planted: &'static str,
    /// Column: Dawid–Skene competence.
    pub col_competence: &'static str,
    /// Scale names: verdicts, dimensions, ranks.
    pub scales: [&'static str; 3],
}

static EN: RaterStrings = RaterStrings {
    caption: "Per-rater reliability",
    note: "Agreement is Fleiss' κ of the rater's batch (accuracy verdicts) or Krippendorff's \
           ordinal α of the study (dimension scores, ranks), with and without the rater; a \
           negative Δ means the others agree better without them. Planted: share of planted \
           quality checks passed (n judged). Competence: Dawid–Skene estimate of how often \
           the rater's verdict is the true one. Every rater the quality rules keep is listed, \
           including any the reliability thresholds below leave out.",
    col_rater: "Rater",
    col_scale: "Judged",
    col_pages: "Pages",
    col_with: "Agreement",
    col_without: "Without rater",
    col_delta: "Δ",
    col_planted: "Planted checks",
    col_competence: "Competence",
    scales: ["accuracy verdicts", "dimension scores", "rankings"],
};

static ZH: RaterStrings = RaterStrings {
    caption: "逐评分者信度",
    note: "一致性为该评分者所在批次的 Fleiss κ（准确性评判），或整个研究的 Krippendorff 有序 α\
           （维度评分、排序），分别含与不含该评分者；Δ 为负表示去掉此人后其他人更一致。\
           预设检查：通过的预设质量检查占比（括号内为判断数）。能力：Dawid–Skene 估计的\
           该评分者判断正确的概率。列出通过质量规则的全部评分者，\
           包括被下方信度阈值排除的评分者。",
    col_rater: "评分者",
    col_scale: "评判内容",
    col_pages: "页数",
    col_with: "一致性",
    col_without: "不含此人",
    col_delta: "Δ",
    col_planted: "预设检查",
    col_competence: "能力",
    scales: ["准确性评判", "维度评分", "排序"],
};

impl StringTable for RaterStrings {
    const EN: &'static Self = &EN;
    const ZH: &'static Self = &ZH;
}

/// A statistic with two decimals, or a dash.
fn stat(v: Option<f64>) -> String {
    v.map_or_else(|| format::DASH.to_owned(), |v| format!("{v:.2}"))
}

/// `100% (4)`, or a dash without planted checks.
fn planted(r: &RaterRow) -> String {
    r.planted_pass_rate.map_or_else(
        || format::DASH.to_owned(),
        |p| format!("{} ({})", format::percent(p), r.planted_judged),
    )
}

fn scale_index(s: RaterScale) -> usize {
    match s {
        RaterScale::Verdicts => 0,
        RaterScale::Dimensions => 1,
        RaterScale::Ranks => 2,
    }
}

/// The per-rater table (nothing without rows).
#[component]
pub fn RaterTable(
    /// The study page's rows.
    rows: Vec<RaterRow>,
) -> impl IntoView {
    if rows.is_empty() {
        return ().into_any();
    }
    let i18n = use_i18n();
    let t = text::<RaterStrings>;
    let body = rows
        .into_iter()
        .map(|r| {
            let scale = scale_index(r.scale);
            let scale_name = move || i18n.table::<RaterStrings>().scales[scale];
            view! {
                <tr data-testid="rater-row">
                    <th scope="row"><code>{r.rater.clone()}</code></th>
                    <td>{scale_name}</td>
                    <td>{r.judgements}</td>
                    <td>{stat(r.with_rater)}</td>
                    <td>{stat(r.without_rater)}</td>
                    <td data-testid="rater-delta">{stat(r.loo_delta)}</td>
                    <td data-testid="rater-planted">{planted(&r)}</td>
                    <td>{stat(r.competence)}</td>
                </tr>
            }
        })
        .collect_view();
    view! {
        <div class="table-wrap">
            <table class="board-table compact" data-testid="rater-table">
                <caption>{t(|s| s.caption)}</caption>
                <thead>
                    <tr>
                        <th scope="col">{t(|s| s.col_rater)}</th>
                        <th scope="col">{t(|s| s.col_scale)}</th>
                        <th scope="col">{t(|s| s.col_pages)}</th>
                        <th scope="col">{t(|s| s.col_with)}</th>
                        <th scope="col">{t(|s| s.col_without)}</th>
                        <th scope="col">{t(|s| s.col_delta)}</th>
                        <th scope="col">{t(|s| s.col_planted)}</th>
                        <th scope="col">{t(|s| s.col_competence)}</th>
                    </tr>
                </thead>
                <tbody>{body}</tbody>
            </table>
        </div>
        <p class="muted small">{t(|s| s.note)}</p>
    }
    .into_any()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_languages_name_every_scale() {
        for s in [&EN, &ZH] {
            assert!(s.scales.iter().all(|n| !n.is_empty()));
            assert!(!s.caption.is_empty() && !s.note.is_empty());
        }
        assert_eq!(stat(Some(0.256)), "0.26");
        assert_eq!(stat(None), format::DASH);
    }
}
