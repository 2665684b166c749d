//! `/benchmarks/{slug}/tables?split=public|private`: each table of the benchmark's paper in
//! the paper's own shape: the site's rows (models under each run condition, crowd,
//! baselines) with their intervals, then the published rows marked †, each table with its
//! CSV and LaTeX downloads (headers in the page's language).

use crate::api;
use crate::components::status::{page_error_fallback, Loading};
use crate::components::title::use_page_title;
use crate::i18n::board::{btr, BoardStrings};
use crate::i18n::{use_i18n, Lang};
use crate::kinds::conditions_text;
use crate::pages::board::label_text;
use leptos::prelude::*;
use leptos_router::hooks::{use_params_map, use_query_map};
use memeboard_core::api::{BoardSplit, RowKind};
use memeboard_core::paper_tables::render::figure_text;
use memeboard_core::paper_tables::{PaperTable, PaperTablesResponse, TableCell, TableRow};

/// The paper-tables page.
#[component]
pub fn PaperTablesPage() -> impl IntoView {
    let params = use_params_map();
    let query = use_query_map();
    let slug = Memo::new(move |_| params.read().get("slug").unwrap_or_default());
    let split = Memo::new(move |_| crate::pages::board::parse_split(query.read().get_str("split")));
    let title_slug = slug;
    use_page_title(move |lang| (lang.table::<BoardStrings>().tables_title)(&title_slug.get()));
    let data = LocalResource::new(move || {
        let (slug, split) = (slug.get(), split.get());
        async move { api::paper_tables(&slug, split).await }
    });
    view! {
        <Suspense fallback=|| view! { <Loading /> }>
            <ErrorBoundary fallback=page_error_fallback>
                {move || Suspend::new(async move {
                    data.await.map(|tables| view! { <TablesView tables=tables /> })
                })}
            </ErrorBoundary>
        </Suspense>
    }
}

/// The loaded tables.
#[component]
fn TablesView(tables: PaperTablesResponse) -> impl IntoView {
    let i18n = use_i18n();
    let slug = tables.benchmark.clone();
    let split = tables.split;
    let heading_slug = slug.clone();
    let split_links = tables.private_revealed.then(|| {
        let href = |s: &str| {
            format!(
                "/benchmarks/{}/tables?split={s}",
                api::encode_component(&slug)
            )
        };
        let current = move |s: BoardSplit| (s == split).then_some("page");
        view! {
            <nav class="segmented" aria-label=btr(|t| t.board_split_label)>
                <a href=href("public") aria-current=current(BoardSplit::Public)>{btr(|t| t.board_public)}</a>
                <a href=href("private") aria-current=current(BoardSplit::Private)>{btr(|t| t.board_private)}</a>
                <a href=href("whole") aria-current=current(BoardSplit::Whole) data-testid="tables-whole">
                    {btr(|t| t.board_whole)}
                </a>
            </nav>
        }
    });
    let none = tables.tables.is_empty().then(|| {
        view! { <p class="notice info" data-testid="tables-none">{btr(|t| t.tables_none)}</p> }
    });
    let sections: Vec<_> = tables
        .tables
        .into_iter()
        .map(|table| view! { <TableSection table=table benchmark=tables.benchmark.clone() split=split /> })
        .collect();
    view! {
        <section class="intro">
            <h1>{move || (i18n.bt().tables_title)(&heading_slug)}</h1>
            <p class="muted">{move || (i18n.bt().tables_intro)(split)}</p>
        </section>
        {split_links}
        {none}
        {sections}
    }
}

/// One table with its downloads.
#[component]
fn TableSection(table: PaperTable, benchmark: String, split: BoardSplit) -> impl IntoView {
    let i18n = use_i18n();
    let table = StoredValue::new(table);
    let id = table.with_value(|t| t.id.clone());
    let csv = api::table_download_url(&benchmark, &id, "csv", split, "en");
    let tex = move || {
        let lang = match i18n.lang() {
            Lang::Zh => "zh",
            Lang::En => "en",
        };
        table.with_value(|t| api::table_download_url(&benchmark, &t.id, "tex", split, lang))
    };
    let sources = move || {
        let mut list: Vec<String> = Vec::new();
        table.with_value(|t| {
            for s in t.rows.iter().filter_map(|r| r.source.clone()) {
                if !list.contains(&s) {
                    list.push(s);
                }
            }
        });
        (!list.is_empty()).then(|| {
            view! {
                <p class="muted small">{btr(|t| t.tables_published_note)} " " {list.join("; ")}</p>
            }
        })
    };
    view! {
        <section class="card paper-table" data-testid="paper-table" data-table=id.clone()>
            <h2>
                {table.with_value(|t| t.paper.clone())} ": "
                {move || table.with_value(|t| title(t, i18n.lang()).to_owned())}
            </h2>
            {move || {
                table.with_value(|t| {
                    if t.rows.is_empty() {
                        view! {
                            <p class="muted" data-testid="table-empty">{btr(|t| t.tables_empty)}</p>
                        }
                            .into_any()
                    } else {
                        view! {
                            <div class="table-scroll">{table_view(t, i18n.lang())}</div>
                        }
                            .into_any()
                    }
                })
            }}
            <p class="muted small">{move || (i18n.bt().tables_items)(table.with_value(|t| t.items), split)}</p>
            {sources}
            <div class="actions">
                <a class="button secondary" href=csv download="" data-testid="table-csv">
                    {btr(|t| t.download_csv)}
                </a>
                <a class="button secondary" href=tex download="" data-testid="table-tex">
                    {btr(|t| t.tables_download_tex)}
                </a>
            </div>
        </section>
    }
}

/// A table's title in `lang`.
fn title(t: &PaperTable, lang: Lang) -> &str {
    match lang {
        Lang::Zh => &t.title_zh,
        Lang::En => &t.title_en,
    }
}

/// The HTML table.
fn table_view(t: &PaperTable, lang: Lang) -> impl IntoView {
    let headers: Vec<_> = t
        .columns
        .iter()
        .map(|c| {
            let label = match lang {
                Lang::Zh => c.label_zh.clone(),
                Lang::En => c.label_en.clone(),
            };
            view! { <th scope="col" class="num">{label}</th> }
        })
        .collect();
    let rows: Vec<_> = t.rows.iter().map(|r| row_view(t, r, lang)).collect();
    view! {
        <table class="paper">
            <thead>
                <tr>
                    <th scope="col">{lang.table::<BoardStrings>().col_model}</th>
                    {headers}
                </tr>
            </thead>
            <tbody>{rows}</tbody>
        </table>
    }
}

/// One row: its label (conditions and † for published rows), then its figures.
fn row_view(t: &PaperTable, r: &TableRow, lang: Lang) -> impl IntoView {
    let published = r.kind == RowKind::Published;
    let conditions = (!r.conditions.is_empty())
        .then(|| conditions_text(lang, t.kind, &r.conditions))
        .map(|c| view! { <span class="muted small conditions">{c}</span> });
    let mark =
        published.then(|| view! { <sup title=r.source.clone().unwrap_or_default()>"†"</sup> });
    let cells: Vec<_> = r
        .cells
        .iter()
        .zip(&t.columns)
        .map(|(cell, col)| view! { <td class="num">{cell_view(cell.as_ref(), col.percent, col.delta)}</td> })
        .collect();
    let class = if published { "published" } else { "site" };
    // Crowd and baseline rows by their kind, in the reader's language; models and the
    // paper's rows by their own names.
    let name = crate::components::score::reference_row_name(lang, r.kind)
        .map_or_else(|| label_text(lang, &r.label), str::to_owned);
    view! {
        <tr class=class data-kind=row_kind_key(r.kind)>
            <th scope="row">{name} {mark} {conditions}</th>
            {cells}
        </tr>
    }
}

/// A figure and its interval, or a dash.
fn cell_view(cell: Option<&TableCell>, percent: bool, delta: bool) -> AnyView {
    match cell {
        None => view! { <span class="muted">"–"</span> }.into_any(),
        Some(c) => {
            let value = figure_text(c, percent, delta, false);
            let interval = figure_text(c, percent, delta, true);
            let ci = interval
                .strip_prefix(&value)
                .map(str::trim)
                .filter(|s| !s.is_empty());
            let ci = ci.map(|ci| view! { <span class="ci">{ci.to_owned()}</span> });
            view! { {value} " " {ci} }.into_any()
        }
    }
}

/// The row kind's wire key (tests and styles pick rows by it).
fn row_kind_key(kind: RowKind) -> String {
    serde_json::to_value(kind)
        .ok()
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_default()
}
