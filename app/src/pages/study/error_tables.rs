//! The study page's error-label tables (issue 31), shown when the study has error labels:
//! the error types per model (`study-table-error-types`: per label, the outputs tagged by at
//! least one rater and by a majority of their raters, and the share of ratings that tag it)
//! and the raters' agreement per label (`study-table-error-agreement`: Fleiss' κ over the
//! outputs every rater of the common number judged). Labels in the reader's language.

use crate::i18n::{text, use_i18n, Lang, StringTable};
use leptos::prelude::*;
use memeboard_core::human_eval::error_tables::ErrorTables;

/// The tables' strings.
struct Texts {
    types_caption: &'static str,
    agreement_caption: &'static str,
    model: &'static str,
    label: &'static str,
    outputs: &'static str,
    tagged_any: &'static str,
    tagged_majority: &'static str,
    share: &'static str,
    raters: &'static str,
    kappa: &'static str,
    tags: &'static str,
}

static EN: Texts = Texts {
    types_caption: "Error types per model: of the model's rated explanations, those tagged with the error by at least one rater and by a majority of their raters, and the share of ratings that tag it (planted checks left out)",
    agreement_caption: "Agreement per error label: Fleiss' κ over the explanations rated by the most common number of raters, each rating tagged or not",
    model: "Model",
    label: "Error type",
    outputs: "Explanations",
    tagged_any: "Tagged by ≥ 1 rater",
    tagged_majority: "Tagged by a majority",
    share: "Share of ratings",
    raters: "Raters each",
    kappa: "Fleiss' κ",
    tags: "Tags",
};

static ZH: Texts = Texts {
    types_caption: "各模型的错误类型：在该模型被评判的解释中，至少一位评分者、以及过半评分者标注该错误的解释数，和标注该错误的评判占比（不含质量检查页）",
    agreement_caption: "各错误标签的一致性：在由最常见人数的评分者评判的解释上计算 Fleiss' κ，每条评判分为标注或未标注",
    model: "模型",
    label: "错误类型",
    outputs: "解释数",
    tagged_any: "≥ 1 人标注",
    tagged_majority: "过半标注",
    share: "评判占比",
    raters: "每条评分人数",
    kappa: "Fleiss' κ",
    tags: "标注数",
};

impl StringTable for Texts {
    const EN: &'static Self = &EN;
    const ZH: &'static Self = &ZH;
}

/// A count with its share of `of` beneath.
fn count_cell(n: usize, of: usize) -> impl IntoView {
    let pct = if of == 0 {
        crate::format::DASH.to_owned()
    } else {
        format!("{:.0}%", 100.0 * n as f64 / of as f64)
    };
    view! { <td class="num">{n} " " <span class="ci">{pct}</span></td> }
}

/// Both tables; `models` names each submission (id, model name).
#[component]
pub(super) fn ErrorLabelTables(
    tables: ErrorTables,
    models: Vec<(String, String)>,
) -> impl IntoView {
    let i18n = use_i18n();
    let t = text::<Texts>;
    let labels = StoredValue::new(tables.labels.clone());
    let label_text = move |key: &str| {
        let zh = i18n.lang() == Lang::Zh;
        labels.with_value(|ls| {
            ls.iter()
                .find(|l| l.key == key)
                .map_or_else(|| key.to_owned(), |l| l.text(zh).to_owned())
        })
    };
    let name = move |id: &str| {
        models
            .iter()
            .find(|(s, _)| s == id)
            .map_or_else(|| id.to_owned(), |(_, n)| n.clone())
    };
    let type_rows = tables
        .per_model
        .iter()
        .map(|r| {
            let key = r.label.clone();
            view! {
                <tr data-submission=r.submission_id.clone() data-label=r.label.clone()>
                    <th scope="row">{name(&r.submission_id)}</th>
                    <td>{move || label_text(&key)}</td>
                    <td class="num">{r.outputs}</td>
                    {count_cell(r.tagged_any, r.outputs)}
                    {count_cell(r.tagged_majority, r.outputs)}
                    <td class="num" data-testid="error-share">
                        {format!("{:.1}%", 100.0 * r.share)} " "
                        <span class="ci">{format!("{}/{}", r.tags, r.ratings)}</span>
                    </td>
                </tr>
            }
        })
        .collect_view();
    let agreement_rows = tables
        .agreement
        .iter()
        .map(|r| {
            let key = r.label.clone();
            let kappa = r
                .fleiss_kappa
                .map_or_else(|| crate::format::DASH.to_owned(), |k| format!("{k:.3}"));
            view! {
                <tr data-label=r.label.clone()>
                    <th scope="row">{move || label_text(&key)}</th>
                    <td class="num">{r.outputs}</td>
                    <td class="num">{r.raters}</td>
                    <td class="num">{r.tags}</td>
                    <td class="num" data-testid="error-kappa">{kappa}</td>
                </tr>
            }
        })
        .collect_view();
    view! {
        <div class="paper-table">
            <div class="table-scroll" role="region" tabindex="0" aria-label=t(|t| t.types_caption)>
                <table class="paper" data-testid="study-table-error-types">
                    <caption>{t(|t| t.types_caption)}</caption>
                    <thead>
                        <tr>
                            <th scope="col">{t(|t| t.model)}</th>
                            <th scope="col">{t(|t| t.label)}</th>
                            <th scope="col">{t(|t| t.outputs)}</th>
                            <th scope="col">{t(|t| t.tagged_any)}</th>
                            <th scope="col">{t(|t| t.tagged_majority)}</th>
                            <th scope="col">{t(|t| t.share)}</th>
                        </tr>
                    </thead>
                    <tbody>{type_rows}</tbody>
                </table>
            </div>
        </div>
        <div class="paper-table">
            <div class="table-scroll" role="region" tabindex="0" aria-label=t(|t| t.agreement_caption)>
                <table class="paper" data-testid="study-table-error-agreement">
                    <caption>{t(|t| t.agreement_caption)}</caption>
                    <thead>
                        <tr>
                            <th scope="col">{t(|t| t.label)}</th>
                            <th scope="col">{t(|t| t.outputs)}</th>
                            <th scope="col">{t(|t| t.raters)}</th>
                            <th scope="col">{t(|t| t.tags)}</th>
                            <th scope="col">{t(|t| t.kappa)}</th>
                        </tr>
                    </thead>
                    <tbody>{agreement_rows}</tbody>
                </table>
            </div>
        </div>
    }
}
