//! `/boards/{slug}?split=public|private&subset=…&attempts=all&weights=…&size=…&since=…`: one
//! leaderboard. A sortable table of model, human and chance rows with 95% intervals per
//! category (rank, name and overall score stay in view while the rest scrolls sideways; on
//! phones every row is a card), filters for the model rows (weights, size, upload date; kept
//! in the URL so a filtered board can be shared), one row per model or every attempt, the bar
//! chart, the missing-items policy and CSV/JSON downloads; boards with item subsets get a
//! subset switch, and clip boards the human-accuracy-by-familiarity figure. Human and
//! baseline rows are references: always shown, never ranked. The private board shows the
//! server's message until revealed.

mod conditions;
mod familiarity;
mod filters;
mod history;
mod metrics;
mod nav;
mod sort;
mod sort_select;
mod table;

pub use filters::{day_start_ms, with_params, Filters, SizeFilter, WeightsFilter};
pub use sort::{model_ranks, sorted_indices, SortDir, SortKey};

use crate::api::{self, ApiError};
use crate::components::board_chart::BoardChart;
use crate::components::human_eval::BoardHumanSection;
use crate::components::status::{page_error_fallback, Loading};
use crate::components::title::{in_lang, use_page_title};
use crate::i18n::board::btr;
use crate::i18n::use_i18n;
use conditions::{PairedTable, RunConditions};
use familiarity::FamiliarityChart;
use filters::{use_filters, AttemptsToggle, FilterBar};
use history::RescoringHistory;
use leptos::prelude::*;
use leptos_router::hooks::{use_params_map, use_query_map};
use memeboard_core::api::{BoardResponse, BoardSplit, RowGroup};
pub(crate) use metrics::label_text;
use metrics::secondary_metrics;
use nav::{SplitToggle, SubsetSwitch};
use table::board_table;

/// `?split=private` picks the private board, `?split=whole` both halves together; anything
/// else the public one.
pub(crate) fn parse_split(value: Option<&str>) -> BoardSplit {
    match value {
        Some("private") => BoardSplit::Private,
        Some("whole") => BoardSplit::Whole,
        _ => BoardSplit::Public,
    }
}

/// What the page loaded.
#[derive(Debug, Clone)]
enum Loaded {
    Board(Box<BoardResponse>),
    /// The private board (or the whole split) before the reveal (403).
    Locked {
        slug: String,
        split: BoardSplit,
        title: String,
        detail: ApiError,
    },
}

/// The board page.
#[component]
pub fn BoardPage() -> impl IntoView {
    let params = use_params_map();
    let query = use_query_map();
    // Memos: a filter change (also in the query) must not fetch the board again.
    let slug = Memo::new(move |_| params.read().get("slug").unwrap_or_default());
    let split = Memo::new(move |_| parse_split(query.read().get_str("split")));
    let subset = Memo::new(move |_| query.read().get("subset").filter(|s| !s.trim().is_empty()));
    let all_attempts = Memo::new(move |_| query.read().get_str("attempts") == Some("all"));
    let data = LocalResource::new(move || {
        let (slug, split, subset, all) =
            (slug.get(), split.get(), subset.get(), all_attempts.get());
        async move {
            match api::board(&slug, split, subset.as_deref(), all).await {
                Ok(b) => Ok(Loaded::Board(Box::new(b))),
                Err(detail @ ApiError::Server { status: 403, .. }) => {
                    // The title only; the message is the server's.
                    let title = api::list_tasks()
                        .await
                        .ok()
                        .and_then(|ts| ts.into_iter().find(|t| t.slug == slug))
                        .map(|t| t.title)
                        .unwrap_or_else(|| slug.clone());
                    Ok(Loaded::Locked {
                        slug,
                        split,
                        title,
                        detail,
                    })
                }
                Err(e) => Err(e),
            }
        }
    });
    view! {
        <Suspense fallback=|| view! { <Loading /> }>
            <ErrorBoundary fallback=page_error_fallback>
                {move || Suspend::new(async move {
                    data.await
                        .map(|loaded| match loaded {
                            Loaded::Board(b) => view! { <BoardView board=*b /> }.into_any(),
                            Loaded::Locked { slug, split, title, detail } => {
                                view! { <Locked slug=slug split=split title=title detail=detail /> }
                                    .into_any()
                            }
                        })
                })}
            </ErrorBoundary>
        </Suspense>
    }
}

/// The private board (or the whole split) before the private half is revealed: the server's
/// message.
#[component]
fn Locked(slug: String, split: BoardSplit, title: String, detail: ApiError) -> impl IntoView {
    let page_title = title.clone();
    use_page_title(move |lang| in_lang(&page_title, lang).to_owned());
    view! {
        <section class="intro">
            <h1>{move || in_lang(&title, use_i18n().lang()).to_owned()}</h1>
        </section>
        <SplitToggle slug=slug split=split />
        <section class="card" data-testid="board-locked" role="status">
            <h2>{btr(|t| t.board_locked_title)}</h2>
            // The server's words, written again on a language switch.
            <p>{move || { use_i18n().lang(); detail.to_string() }}</p>
        </section>
    }
}

/// A loaded board.
#[component]
fn BoardView(board: BoardResponse) -> impl IntoView {
    let page_title = board.title.clone();
    use_page_title(move |lang| in_lang(&page_title, lang).to_owned());
    let i18n = use_i18n();
    let slug = board.task.clone();
    let split = board.split;
    let items = board.items;
    let metric = board.metric.clone();
    let blind = board.blind;
    let automatic_metric = board.automatic_metric;
    let rows = StoredValue::new(board.rows.clone());
    let filters = use_filters();
    let run_conditions = RunConditions {
        specs: board.conditions.clone(),
        kind: board.kind,
    };

    let model_rows = board
        .rows
        .iter()
        .filter(|r| r.kind.group() == RowGroup::Model)
        .count();
    let filter_bar = (model_rows > 0).then(|| {
        let shown = Signal::derive(move || {
            filters.with(|f| {
                rows.with_value(|rows| {
                    rows.iter()
                        .filter(|r| r.kind.group() == RowGroup::Model && f.keeps(r))
                        .count()
                })
            })
        });
        let conditions = run_conditions.clone();
        view! { <FilterBar filters=filters shown=shown total=model_rows conditions=conditions /> }
    });
    let attempts_toggle = (board.hidden_attempts > 0 || board.attempts == "all").then(|| {
        view! {
            <AttemptsToggle
                attempts=board.attempts.clone()
                total=model_rows + board.hidden_attempts
            />
        }
    });

    let table = board_table(&board, rows, filters, run_conditions.clone());
    let paired = (!board.paired.is_empty()).then(|| {
        view! {
            <PairedTable paired=board.paired.clone() conditions=run_conditions split=split />
        }
    });

    let csv = api::board_download_url(&slug, split, "csv");
    let json = api::board_download_url(&slug, split, "json");
    let missing_policy = board.missing_policy.clone();
    let secondary_rows = board.rows.clone();
    let secondary = move || secondary_metrics(&secondary_rows, i18n.lang());
    let subset = board.subset.clone();
    let subsets = board.subsets.clone();
    let subset_switch = (!subsets.is_empty()).then(|| {
        view! { <SubsetSwitch slug=slug.clone() split=split current=subset.clone() subsets=subsets /> }
    });
    let kept_subset = (!board.subsets.is_empty()).then(|| board.subset.clone());
    let human_section = view! { <BoardHumanSection board=board.clone() /> };
    let tables_link = board.benchmark.as_deref().map(|b| {
        let href = format!("/benchmarks/{}/tables", api::encode_component(b));
        view! {
            <p>
                <a href=href data-testid="tables-link">{btr(|t| t.tables_link)}</a>
            </p>
        }
    });
    let familiarity = board.familiarity.clone();
    let familiarity_chart = (!familiarity.is_empty())
        .then(|| view! { <FamiliarityChart rows=familiarity kind=board.kind /> });
    view! {
        <section class="intro board-head">
            <h1>{let title = board.title.clone(); move || in_lang(&title, i18n.lang()).to_owned()}</h1>
            <p class="muted">
                {move || (i18n.bt().board_items)(items, &label_text(i18n.lang(), &metric))}
            </p>
            {tables_link}
        </section>
        {match kept_subset {
            Some(subset) => view! { <SplitToggle slug=slug.clone() split=split subset=subset /> }.into_any(),
            None => view! { <SplitToggle slug=slug.clone() split=split /> }.into_any(),
        }}
        {subset_switch}
        {blind
            .then(|| {
                view! {
                    <p class="notice info" data-testid="board-blind">
                        {btr(|t| t.board_blind_note)}
                    </p>
                }
            })}
        {(!automatic_metric)
            .then(|| {
                view! {
                    <p class="notice info" data-testid="board-unscored">
                        {btr(|t| t.board_unscored_note)}
                    </p>
                }
            })}
        {attempts_toggle}
        {filter_bar}
        <p class="muted small sort-hint">{btr(|t| t.sort_hint)}</p>
        {table}
        {paired}
        {secondary}
        <p data-testid="missing-policy">
            <strong>{btr(|t| t.missing_policy_label)} ": "</strong>
            {move || label_text(i18n.lang(), &missing_policy)}
        </p>
        <p class="muted small">{btr(|t| t.board_ci_note)}</p>
        <RescoringHistory rescorings=board.rescorings.clone() />

        {automatic_metric
            .then(|| {
                view! {
                    <section class="chart-section">
                        <h2>{btr(|t| t.chart_title)}</h2>
                        <BoardChart board=board />
                    </section>
                }
            })}
        {familiarity_chart}
        {human_section}

        <section class="downloads">
            <h2>{btr(|t| t.downloads)}</h2>
            <div class="actions">
                <a class="button secondary" href=csv download="" data-testid="download-csv">
                    {btr(|t| t.download_csv)}
                </a>
                <a class="button secondary" href=json download="" data-testid="download-json">
                    {btr(|t| t.download_json)}
                </a>
            </div>
        </section>
    }
}

#[cfg(test)]
mod tests;
