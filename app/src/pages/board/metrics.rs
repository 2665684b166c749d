//! Secondary figures below the table (parse rate, F1, per-type accuracy…), confusion
//! matrices, and the names of the labels the server sends in English.

use crate::components::score::{estimate_view, row_label};
use crate::format;
use crate::i18n::board::BoardStrings;
use crate::i18n::Lang;
use leptos::prelude::*;
use memeboard_core::api::BoardRow;
use memeboard_core::metrics::ConfusionMatrix;
use memeboard_core::stats::Estimate;

/// Secondary figures of every row (rescaled cosine, parse rate, F1, per-type accuracy…), with
/// their intervals where the server computed them, and the confusion matrices of
/// classification boards; `None` when no row has any.
pub(super) fn secondary_metrics(rows: &[BoardRow], lang: Lang) -> Option<impl IntoView> {
    let t = lang.table::<BoardStrings>();
    let lines: Vec<(String, String, AnyView)> = rows
        .iter()
        .flat_map(|r| {
            r.extra.iter().map(move |v| {
                let value = match (v.ci_low, v.ci_high) {
                    (Some(ci_low), Some(ci_high)) => estimate_view(Some(&Estimate {
                        value: v.value,
                        ci_low,
                        ci_high,
                    })),
                    _ => view! { <span class="val">{format::accuracy(v.value)}</span> }.into_any(),
                };
                (row_label(lang, r), metric_text(lang, &v.name), value)
            })
        })
        .collect();
    let matrices: Vec<AnyView> = rows
        .iter()
        .filter_map(|r| {
            r.confusion
                .as_ref()
                .map(|m| confusion_view(&row_label(lang, r), m, lang))
        })
        .collect();
    (!lines.is_empty() || !matrices.is_empty()).then(|| {
        let body = lines
            .into_iter()
            .map(|(model, name, value)| {
                view! {
                    <tr>
                        <th scope="row" data-label=t.col_model>
                            {model}
                        </th>
                        <td data-label=t.col_metric>
                            <span class="val">{name}</span>
                        </td>
                        <td data-label=t.col_value>{value}</td>
                    </tr>
                }
            })
            .collect_view();
        view! {
            <section data-testid="secondary-metrics">
                <h2>{t.secondary_title}</h2>
                <div class="table-wrap">
                    <table class="compare">
                        <thead>
                            <tr>
                                <th scope="col">{t.col_model}</th>
                                <th scope="col">{t.col_metric}</th>
                                <th scope="col">{t.col_value}</th>
                            </tr>
                        </thead>
                        <tbody>{body}</tbody>
                    </table>
                </div>
                {matrices}
            </section>
        }
    })
}

/// A secondary figure's name in `lang`: the server names them in English; known names (and
/// structure types) are translated, others shown as sent.
pub(super) fn metric_text(lang: Lang, name: &str) -> String {
    let t = lang.table::<BoardStrings>();
    match name {
        "parse rate" => t.metric_parse_rate.to_owned(),
        "macro-F1" => t.metric_macro_f1.to_owned(),
        "weighted-F1" => t.metric_weighted_f1.to_owned(),
        "accuracy, unparseable as wrong" => t.metric_accuracy_all.to_owned(),
        other => crate::kinds::figure_name(lang, other).unwrap_or_else(|| label_text(lang, other)),
    }
}

/// A label the server sends in English (the board's metric, its missing-prediction policy, a
/// secondary figure) in `lang`, read back through the shared message catalogue; unknown
/// labels are shown as sent.
pub(crate) fn label_text(lang: Lang, label: &str) -> String {
    memeboard_core::messages::parse_label(label)
        .map_or_else(|| label.to_owned(), |m| m.render(lang.locale()))
}

/// A confusion matrix (gold rows × predicted columns, plus "unparseable"), folded.
fn confusion_view(row: &str, m: &ConfusionMatrix, lang: Lang) -> AnyView {
    let t = lang.table::<BoardStrings>();
    let label = |key: &str| crate::kinds::class_name(lang, key);
    let head = m
        .labels
        .iter()
        .map(|l| view! { <th scope="col">{label(l)}</th> })
        .collect_view();
    let body = m
        .labels
        .iter()
        .zip(&m.counts)
        .map(|(gold, counts)| {
            let cells = counts
                .iter()
                .map(|c| view! { <td class="num">{c.to_string()}</td> })
                .collect_view();
            view! {
                <tr>
                    <th scope="row">{label(gold)}</th>
                    {cells}
                </tr>
            }
        })
        .collect_view();
    view! {
        <details class="confusion" data-testid="confusion-matrix">
            <summary>{(t.confusion_title)(row)}</summary>
            <div class="table-wrap">
                <table class="compare">
                    <caption>{t.confusion_caption}</caption>
                    <thead>
                        <tr>
                            <th scope="col">{t.confusion_gold}</th>
                            {head}
                            <th scope="col">{t.confusion_unparseable}</th>
                        </tr>
                    </thead>
                    <tbody>{body}</tbody>
                </table>
            </div>
        </details>
    }
    .into_any()
}
