//! `/boards/{slug}?split=public|private&subset=…`: one leaderboard. A sortable table of model,
//! human and chance rows with 95% intervals per category, the bar chart, the missing-items
//! policy and CSV/JSON downloads; boards with item subsets get a subset switch, and clip boards
//! the human-accuracy-by-familiarity figure. The private board shows the server's message
//! until revealed.

use crate::api::{self, ApiError};
use crate::components::board_chart::BoardChart;
use crate::components::score::{
    category_estimate_view, estimate_view, kind_key, kind_text, row_label, weights_text,
};
use crate::components::status::{error_fallback, Loading};
use crate::components::title::{in_lang, use_page_title};
use crate::format::{self, DASH};
use crate::i18n::{category_label, tr, use_i18n, Lang};
use leptos::prelude::*;
use leptos_router::hooks::{use_params_map, use_query_map};
use memeboard_core::api::{
    BoardResponse, BoardRow, BoardSplit, FamiliarityRow, RowGroup, RowKind, SubmissionStatus,
};
use memeboard_core::kinds::panels::StructureType;
use memeboard_core::metrics::ConfusionMatrix;
use memeboard_core::stats::Estimate;
use std::cmp::Ordering;

/// A column the table can be sorted by.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SortKey {
    /// Server order (best overall first).
    Rank,
    /// Row label.
    Label,
    /// Model, human, baseline.
    Kind,
    /// Organisation.
    Organisation,
    /// Model size.
    Parameters,
    /// Open or closed weights.
    Weights,
    /// Upload date.
    Submitted,
    /// Accuracy in score column `i` (0 = overall, then the categories).
    Score(usize),
}

/// Sort direction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SortDir {
    /// Smallest first.
    Ascending,
    /// Largest first.
    Descending,
}

impl SortDir {
    /// The other direction.
    pub fn flip(self) -> Self {
        match self {
            Self::Ascending => Self::Descending,
            Self::Descending => Self::Ascending,
        }
    }

    /// The `aria-sort` value.
    pub fn aria(self) -> &'static str {
        match self {
            Self::Ascending => "ascending",
            Self::Descending => "descending",
        }
    }
}

impl SortKey {
    /// The direction of a first click: numbers largest first, text and rank A→Z / 1→n.
    pub fn first_direction(self) -> SortDir {
        match self {
            Self::Parameters | Self::Submitted | Self::Score(_) => SortDir::Descending,
            _ => SortDir::Ascending,
        }
    }
}

/// A cell's sort value.
#[derive(Debug, Clone, PartialEq)]
enum SortValue {
    Num(f64),
    Text(String),
}

fn sort_value(row: &BoardRow, index: usize, key: SortKey) -> Option<SortValue> {
    let model = row.model.as_ref();
    let text = |s: &str| {
        let s = s.trim();
        (!s.is_empty()).then(|| SortValue::Text(s.to_lowercase()))
    };
    match key {
        SortKey::Rank => Some(SortValue::Num(index as f64)),
        SortKey::Label => text(&row.label),
        SortKey::Kind => Some(SortValue::Num(match row.kind.group() {
            RowGroup::Model => 0.0,
            RowGroup::Human => 1.0,
            RowGroup::Baseline => 2.0,
        })),
        SortKey::Organisation => model.and_then(|m| text(&m.organisation)),
        SortKey::Parameters => model
            .and_then(|m| m.parameters.as_deref())
            .and_then(format::parameter_count)
            .map(SortValue::Num),
        SortKey::Weights => model.and_then(|m| text(weights_text(Lang::En, m.weights))),
        SortKey::Submitted => row.submitted_at.map(|t| SortValue::Num(t as f64)),
        SortKey::Score(i) => row
            .scores
            .get(i)
            .and_then(|s| s.estimate)
            .map(|e| SortValue::Num(e.value)),
    }
}

fn compare(a: &SortValue, b: &SortValue) -> Ordering {
    match (a, b) {
        (SortValue::Num(x), SortValue::Num(y)) => x.total_cmp(y),
        (SortValue::Text(x), SortValue::Text(y)) => x.cmp(y),
        (SortValue::Num(_), SortValue::Text(_)) => Ordering::Less,
        (SortValue::Text(_), SortValue::Num(_)) => Ordering::Greater,
    }
}

/// Row indices in display order. Rows without a value in the column (blind rows, crowd rows
/// without an organisation…) always come last; ties keep the server order.
pub fn sorted_indices(rows: &[BoardRow], key: SortKey, dir: SortDir) -> Vec<usize> {
    let values: Vec<Option<SortValue>> = rows
        .iter()
        .enumerate()
        .map(|(i, r)| sort_value(r, i, key))
        .collect();
    let mut order: Vec<usize> = (0..rows.len()).collect();
    order.sort_by(|&a, &b| {
        match (&values[a], &values[b]) {
            (None, None) => Ordering::Equal,
            (None, Some(_)) => Ordering::Greater,
            (Some(_), None) => Ordering::Less,
            (Some(x), Some(y)) => match dir {
                SortDir::Ascending => compare(x, y),
                SortDir::Descending => compare(y, x),
            },
        }
        .then(a.cmp(&b))
    });
    order
}

/// `?split=private` picks the private board; anything else the public one.
fn parse_split(value: Option<&str>) -> BoardSplit {
    if value == Some("private") {
        BoardSplit::Private
    } else {
        BoardSplit::Public
    }
}

/// What the page loaded.
#[derive(Debug, Clone)]
enum Loaded {
    Board(Box<BoardResponse>),
    /// The private board is not revealed yet (403).
    Locked {
        slug: String,
        title: String,
        detail: String,
    },
}

/// The board page.
#[component]
pub fn BoardPage() -> impl IntoView {
    let params = use_params_map();
    let query = use_query_map();
    let slug = move || params.read().get("slug").unwrap_or_default();
    let split = move || parse_split(query.read().get("split").as_deref());
    let subset = move || query.read().get("subset").filter(|s| !s.trim().is_empty());
    let data = LocalResource::new(move || {
        let (slug, split, subset) = (slug(), split(), subset());
        async move {
            match api::board(&slug, split, subset.as_deref()).await {
                Ok(b) => Ok(Loaded::Board(Box::new(b))),
                Err(ApiError::Server {
                    status: 403,
                    detail,
                }) => {
                    // The title only; the message is the server's.
                    let title = api::list_tasks()
                        .await
                        .ok()
                        .and_then(|ts| ts.into_iter().find(|t| t.slug == slug))
                        .map(|t| t.title)
                        .unwrap_or_else(|| slug.clone());
                    Ok(Loaded::Locked {
                        slug,
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
            <ErrorBoundary fallback=error_fallback>
                {move || Suspend::new(async move {
                    data.await
                        .map(|loaded| match loaded {
                            Loaded::Board(b) => view! { <BoardView board=*b /> }.into_any(),
                            Loaded::Locked { slug, title, detail } => {
                                view! { <Locked slug=slug title=title detail=detail /> }.into_any()
                            }
                        })
                })}
            </ErrorBoundary>
        </Suspense>
    }
}

/// The page URL of a board view: split (public is the default) and subset, when given.
fn board_href(slug: &str, split: BoardSplit, subset: Option<&str>) -> String {
    let mut params = Vec::new();
    if split == BoardSplit::Private {
        params.push("split=private".to_owned());
    }
    if let Some(subset) = subset {
        params.push(format!("subset={}", api::encode_component(subset)));
    }
    let base = format!("/boards/{}", api::encode_component(slug));
    if params.is_empty() {
        base
    } else {
        format!("{base}?{}", params.join("&"))
    }
}

/// Public / private links (plain links: the split lives in the URL; the subset is kept).
#[component]
fn SplitToggle(
    slug: String,
    split: BoardSplit,
    #[prop(optional, into)] subset: Option<String>,
) -> impl IntoView {
    let current = move |s: BoardSplit| (s == split).then_some("page");
    let public = board_href(&slug, BoardSplit::Public, subset.as_deref());
    let private = board_href(&slug, BoardSplit::Private, subset.as_deref());
    view! {
        <nav class="segmented" aria-label=tr(|t| t.board_split_label)>
            <a href=public aria-current=current(BoardSplit::Public) data-testid="split-public">
                {tr(|t| t.board_public)}
            </a>
            <a
                href=private
                aria-current=current(BoardSplit::Private)
                data-testid="split-private"
            >
                {tr(|t| t.board_private)}
            </a>
        </nav>
    }
}

/// A subset's name in `lang` (`main`, `full`; others as sent).
fn subset_text(lang: Lang, subset: &str) -> String {
    let t = lang.strings();
    match subset {
        "main" => t.subset_main.to_owned(),
        "full" => t.subset_full.to_owned(),
        other => other.to_owned(),
    }
}

/// Links that reload the board on another item subset (`?subset=main`, `full`…), for boards
/// that have more than one.
#[component]
fn SubsetSwitch(
    slug: String,
    split: BoardSplit,
    current: String,
    subsets: Vec<String>,
) -> impl IntoView {
    let i18n = use_i18n();
    let links = subsets
        .into_iter()
        .map(|s| {
            let href = board_href(&slug, split, Some(&s));
            let here = (s == current).then_some("page");
            let testid = format!("subset-{s}");
            let data = s.clone();
            view! {
                <a href=href aria-current=here data-testid=testid data-subset=data>
                    {move || subset_text(i18n.lang(), &s)}
                </a>
            }
        })
        .collect_view();
    view! {
        <nav class="segmented subset-switch" aria-label=tr(|t| t.board_subset_label) data-testid="subset-switch">
            {links}
        </nav>
    }
}

/// Chart geometry of the familiarity figure (SVG user units).
const FAM_WIDTH: f64 = 420.0;
const FAM_HEIGHT: f64 = 236.0;
const FAM_LEFT: f64 = 44.0;
const FAM_TOP: f64 = 16.0;
const FAM_PLOT_H: f64 = 160.0;
const FAM_BAR_W: f64 = 56.0;

/// The y coordinate of an accuracy in `[0, 1]`.
fn fam_y(value: f64) -> f64 {
    FAM_TOP + FAM_PLOT_H * (1.0 - value.clamp(0.0, 1.0))
}

/// The benchmark's figure: human accuracy by familiarity group, bars with 95% interval
/// whiskers and the group sizes, and the same numbers as a table for screen readers (the
/// drawing is hidden from them).
#[component]
fn FamiliarityChart(rows: Vec<FamiliarityRow>) -> impl IntoView {
    let i18n = use_i18n();
    let rows = StoredValue::new(rows);
    let slot = move || {
        let n = rows.with_value(Vec::len).max(1) as f64;
        (FAM_WIDTH - FAM_LEFT - 8.0) / n
    };
    let grid = [0.0, 0.25, 0.5, 0.75, 1.0]
        .into_iter()
        .map(|v| {
            let y = fam_y(v);
            view! {
                <line class="grid" x1=FAM_LEFT x2=FAM_WIDTH - 8.0 y1=y y2=y></line>
                <text class="axis" x=FAM_LEFT - 6.0 y=y + 4.0 text-anchor="end">
                    {format!("{v:.2}")}
                </text>
            }
        })
        .collect_view();
    let bars = move || {
        let lang = i18n.lang();
        let t = lang.strings();
        let w = slot();
        rows.with_value(|rows| {
            rows.iter()
                .enumerate()
                .map(|(i, r)| {
                    let cx = FAM_LEFT + w * (i as f64 + 0.5);
                    let label = crate::kinds::clip_mcq::familiarity_short(lang, r.familiarity);
                    let people = (t.familiarity_participants)(r.participants);
                    let answers = (t.familiarity_answers)(r.answers);
                    let shape = r.estimate.map(|e| {
                        let (top, low, high) = (fam_y(e.value), fam_y(e.ci_low), fam_y(e.ci_high));
                        view! {
                            <rect
                                class="bar"
                                x=cx - FAM_BAR_W / 2.0
                                y=top
                                width=FAM_BAR_W
                                height=(fam_y(0.0) - top).max(0.0)
                            ></rect>
                            <line class="whisker" x1=cx x2=cx y1=low y2=high></line>
                            <line class="whisker" x1=cx - 8.0 x2=cx + 8.0 y1=low y2=low></line>
                            <line class="whisker" x1=cx - 8.0 x2=cx + 8.0 y1=high y2=high></line>
                            <text class="value" x=cx + 12.0 y=top - 4.0>
                                {format::accuracy(e.value)}
                            </text>
                        }
                    });
                    let empty = r.estimate.is_none().then(|| {
                        view! {
                            <text class="axis" x=cx y=fam_y(0.0) - 6.0 text-anchor="middle">
                                {DASH}
                            </text>
                        }
                    });
                    view! {
                        <g data-familiarity=crate::kinds::clip_mcq::familiarity_key(r.familiarity)>
                            {shape}
                            {empty}
                            <text class="label" x=cx y=FAM_TOP + FAM_PLOT_H + 18.0 text-anchor="middle">
                                {label}
                            </text>
                            <text class="axis" x=cx y=FAM_TOP + FAM_PLOT_H + 34.0 text-anchor="middle">
                                {people}
                            </text>
                            <text
                                class="axis"
                                x=cx
                                y=FAM_TOP + FAM_PLOT_H + 48.0
                                text-anchor="middle"
                            >
                                {answers}
                            </text>
                        </g>
                    }
                })
                .collect_view()
        })
    };
    let table_rows = move || {
        let lang = i18n.lang();
        let t = lang.strings();
        rows.with_value(|rows| {
            rows.iter()
                .map(|r| {
                    let accuracy = r
                        .estimate
                        .as_ref()
                        .map(format::estimate)
                        .unwrap_or_else(|| t.too_few_answers.to_owned());
                    view! {
                        <tr>
                            <th scope="row">
                                {crate::kinds::clip_mcq::familiarity_label(lang, r.familiarity)}
                            </th>
                            <td>{accuracy}</td>
                            <td class="num">{r.participants.to_string()}</td>
                            <td class="num">{r.answers.to_string()}</td>
                        </tr>
                    }
                })
                .collect_view()
        })
    };
    view! {
        <section class="chart-section familiarity-chart" data-testid="familiarity-chart">
            <h2>{tr(|t| t.familiarity_chart_title)}</h2>
            <p class="muted small">{tr(|t| t.familiarity_chart_note)}</p>
            <svg
                class="fam-svg"
                viewBox=format!("0 0 {FAM_WIDTH} {FAM_HEIGHT}")
                width="100%"
                aria-hidden="true"
                focusable="false"
            >
                {grid}
                <line class="axis-line" x1=FAM_LEFT x2=FAM_LEFT y1=FAM_TOP y2=fam_y(0.0)></line>
                {bars}
            </svg>
            <table class="visually-hidden" data-testid="familiarity-table">
                <caption>{tr(|t| t.familiarity_table_caption)}</caption>
                <thead>
                    <tr>
                        <th scope="col">{tr(|t| t.col_familiarity)}</th>
                        <th scope="col">{tr(|t| t.col_human_accuracy)}</th>
                        <th scope="col">{tr(|t| t.col_participants)}</th>
                        <th scope="col">{tr(|t| t.col_answers)}</th>
                    </tr>
                </thead>
                <tbody>{table_rows}</tbody>
            </table>
        </section>
    }
}

/// The private board before it is revealed: the server's message.
#[component]
fn Locked(slug: String, title: String, detail: String) -> impl IntoView {
    let page_title = title.clone();
    use_page_title(move |lang| in_lang(&page_title, lang).to_owned());
    view! {
        <section class="intro">
            <h1>{title}</h1>
        </section>
        <SplitToggle slug=slug split=BoardSplit::Private />
        <section class="card" data-testid="board-locked" role="status">
            <h2>{tr(|t| t.board_locked_title)}</h2>
            <p>{detail}</p>
        </section>
    }
}

/// One sortable column header: a button inside the `th`, with `aria-sort` on the `th`.
fn sort_header(
    sort: RwSignal<(SortKey, SortDir)>,
    key: SortKey,
    testid: String,
    label: impl Fn() -> String + Send + Sync + 'static,
    class: &'static str,
) -> impl IntoView {
    let active = move || {
        let (k, d) = sort.get();
        (k == key).then_some(d)
    };
    view! {
        <th scope="col" class=class aria-sort=move || active().map(SortDir::aria)>
            <button
                type="button"
                class="sort-button"
                data-testid=format!("sort-{testid}")
                on:click=move |_| {
                    sort.update(|(k, d)| {
                        if *k == key {
                            *d = d.flip();
                        } else {
                            *k = key;
                            *d = key.first_direction();
                        }
                    })
                }
            >
                <span>{label}</span>
                <span class="sort-icon" aria-hidden="true">
                    {move || match active() {
                        Some(SortDir::Ascending) => "▲",
                        Some(SortDir::Descending) => "▼",
                        None => "↕",
                    }}
                </span>
            </button>
        </th>
    }
}

/// One table row.
fn row_view(row: &BoardRow, rank: usize, columns: usize, lang: Lang) -> impl IntoView {
    let t = lang.strings();
    let kind = kind_key(row.kind);
    let label = row_label(lang, row);
    let model_page = row
        .submission_id
        .as_ref()
        .filter(|_| row.kind == RowKind::Model);
    let label_view = match model_page {
        Some(id) => view! {
            <a href=format!("/models/{}", api::encode_component(id)) data-testid="model-link">
                {label}
            </a>
        }
        .into_any(),
        None => view! { <span>{label}</span> }.into_any(),
    };
    let participants = row.participants.map(
        |n| view! { <span class="sub" data-testid="participants">{(t.participants_n)(n)}</span> },
    );
    let model = row.model.as_ref();
    let or_dash = |s: Option<String>| {
        s.filter(|s| !s.trim().is_empty())
            .unwrap_or_else(|| DASH.to_owned())
    };
    let organisation = or_dash(model.map(|m| m.organisation.clone()));
    let parameters = or_dash(model.and_then(|m| m.parameters.clone()));
    let weights = or_dash(model.map(|m| weights_text(lang, m.weights).to_owned()));
    let submitted = or_dash(row.submitted_at.map(format::date));
    let received = row.status == SubmissionStatus::Received;
    let scores = (0..columns)
        .map(|i| {
            let content = if received {
                if i == 0 {
                    view! { <span class="badge received">{t.status_received}</span> }.into_any()
                } else {
                    view! { <span class="val">{DASH}</span> }.into_any()
                }
            } else {
                category_estimate_view(row.scores.get(i), lang)
            };
            view! { <td class="score-cell" class:overall=i == 0>{content}</td> }
        })
        .collect_view();
    view! {
        <tr
            class=format!("board-row kind-{kind}")
            data-testid="board-row"
            data-kind=kind
            data-label=row.label.clone()
        >
            <td class="rank">{rank.to_string()}</td>
            <th scope="row" class="label-cell">
                {label_view}
                {participants}
            </th>
            <td>
                <span class=format!("kind-badge kind-{kind}")>{kind_text(lang, row.kind)}</span>
            </td>
            <td>{organisation}</td>
            <td class="nowrap">{parameters}</td>
            <td>{weights}</td>
            <td class="nowrap">{submitted}</td>
            {scores}
        </tr>
    }
}

/// Secondary figures of every row (rescaled cosine, parse rate, F1, per-type accuracy…), with
/// their intervals where the server computed them, and the confusion matrices of
/// classification boards; `None` when no row has any.
fn secondary_metrics(rows: &[BoardRow], lang: Lang) -> Option<impl IntoView> {
    let t = lang.strings();
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
fn metric_text(lang: Lang, name: &str) -> String {
    let t = lang.strings();
    match name {
        "parse rate" => t.metric_parse_rate.to_owned(),
        "macro-F1" => t.metric_macro_f1.to_owned(),
        "weighted-F1" => t.metric_weighted_f1.to_owned(),
        "accuracy, unparseable as wrong" => t.metric_accuracy_all.to_owned(),
        other => match StructureType::parse(other) {
            Some(s) => {
                (t.metric_accuracy_of_type)(crate::kinds::panel_type::structure_name(lang, s))
            }
            None => {
                crate::kinds::clip_mcq::metric_name(lang, other).unwrap_or_else(|| other.to_owned())
            }
        },
    }
}

/// A confusion matrix (gold rows × predicted columns, plus "unparseable"), folded.
fn confusion_view(row: &str, m: &ConfusionMatrix, lang: Lang) -> AnyView {
    let t = lang.strings();
    let label = |key: &str| {
        StructureType::parse(key).map_or_else(
            || key.to_owned(),
            |s| crate::kinds::panel_type::structure_name(lang, s).to_owned(),
        )
    };
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

/// A loaded board.
#[component]
fn BoardView(board: BoardResponse) -> impl IntoView {
    let page_title = board.title.clone();
    use_page_title(move |lang| in_lang(&page_title, lang).to_owned());
    let i18n = use_i18n();
    let sort = RwSignal::new((SortKey::Rank, SortDir::Ascending));
    let slug = board.task.clone();
    let split = board.split;
    let items = board.items;
    let metric = board.metric.clone();
    let blind = board.blind;
    let columns = board.categories.len() + 1;
    let rows = StoredValue::new(board.rows.clone());
    let categories = StoredValue::new(board.categories.clone());

    let text_header = |key: SortKey, testid: &str, pick: fn(Lang) -> &'static str| {
        sort_header(
            sort,
            key,
            testid.to_owned(),
            move || pick(i18n.lang()).to_owned(),
            "",
        )
    };
    let category_headers = board
        .categories
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let key = c.key.clone();
            sort_header(
                sort,
                SortKey::Score(i + 1),
                format!("cat-{}", c.key),
                move || categories.with_value(|cats| category_label(i18n.lang(), &key, cats)),
                "score-cell",
            )
        })
        .collect_view();

    let body = move || {
        let (key, dir) = sort.get();
        let lang = i18n.lang();
        rows.with_value(|rows| {
            sorted_indices(rows, key, dir)
                .into_iter()
                .map(|i| row_view(&rows[i], i + 1, columns, lang))
                .collect_view()
        })
    };

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
    let familiarity = board.familiarity.clone();
    let familiarity_chart =
        (!familiarity.is_empty()).then(|| view! { <FamiliarityChart rows=familiarity /> });
    view! {
        <section class="intro board-head">
            <h1>{board.title.clone()}</h1>
            <p class="muted">{move || (i18n.t().board_items)(items, &metric)}</p>
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
                        {tr(|t| t.board_blind_note)}
                    </p>
                }
            })}
        <p class="muted small">{tr(|t| t.sort_hint)}</p>
        <div
            class="board-scroll"
            role="region"
            tabindex="0"
            aria-label=tr(|t| t.board_table_label)
        >
            <table class="board" data-testid="board-table">
                <thead>
                    <tr>
                        {text_header(SortKey::Rank, "rank", |l| l.strings().col_rank)}
                        {text_header(SortKey::Label, "label", |l| l.strings().col_model)}
                        {text_header(SortKey::Kind, "kind", |l| l.strings().col_kind)}
                        {text_header(
                            SortKey::Organisation,
                            "organisation",
                            |l| l.strings().col_organisation,
                        )}
                        {text_header(SortKey::Parameters, "parameters", |l| l.strings().col_params)}
                        {text_header(SortKey::Weights, "weights", |l| l.strings().col_weights)}
                        {text_header(SortKey::Submitted, "submitted", |l| l.strings().col_submitted)}
                        {sort_header(
                            sort,
                            SortKey::Score(0),
                            "overall".to_owned(),
                            move || i18n.t().overall.to_owned(),
                            "score-cell",
                        )}
                        {category_headers}
                    </tr>
                </thead>
                <tbody>{body}</tbody>
            </table>
        </div>
        {secondary}
        <p data-testid="missing-policy">
            <strong>{tr(|t| t.missing_policy_label)} ": "</strong>
            {missing_policy}
        </p>
        <p class="muted small">{tr(|t| t.board_ci_note)}</p>

        <section class="chart-section">
            <h2>{tr(|t| t.chart_title)}</h2>
            <BoardChart board=board />
        </section>
        {familiarity_chart}

        <section class="downloads">
            <h2>{tr(|t| t.downloads)}</h2>
            <div class="actions">
                <a class="button secondary" href=csv download="" data-testid="download-csv">
                    {tr(|t| t.download_csv)}
                </a>
                <a class="button secondary" href=json download="" data-testid="download-json">
                    {tr(|t| t.download_json)}
                </a>
            </div>
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use memeboard_core::api::{ModelInfo, Weights};
    use memeboard_core::leaderboard::CategoryEstimate;
    use memeboard_core::stats::Estimate;

    fn model(label: &str, overall: Option<f64>, params: &str, at: i64) -> BoardRow {
        BoardRow {
            flags: Vec::new(),
            confusion: None,
            kind: RowKind::Model,
            label: label.into(),
            submission_id: Some(format!("S-{label}")),
            model: Some(ModelInfo {
                model_name: label.into(),
                organisation: format!("org {label}"),
                parameters: Some(params.into()).filter(|p: &String| !p.is_empty()),
                weights: Weights::Open,
                link: None,
                description: String::new(),
            }),
            submitted_at: Some(at),
            status: if overall.is_some() {
                SubmissionStatus::Scored
            } else {
                SubmissionStatus::Received
            },
            scores: overall
                .map(|v| {
                    vec![CategoryEstimate {
                        category: None,
                        items: 10,
                        estimate: Some(Estimate {
                            value: v,
                            ci_low: v,
                            ci_high: v,
                        }),
                        suppressed: false,
                    }]
                })
                .unwrap_or_default(),
            participants: None,
            extra: vec![],
        }
    }

    fn rows() -> Vec<BoardRow> {
        vec![
            model("b", Some(0.9), "70B", 3),
            model("A", Some(0.5), "7B", 1),
            model("c", Some(0.7), "", 2),
            model("blind", None, "1T", 4),
        ]
    }

    #[test]
    fn scores_sort_both_ways_with_blind_rows_last() {
        let r = rows();
        assert_eq!(
            sorted_indices(&r, SortKey::Score(0), SortDir::Descending),
            vec![0, 2, 1, 3]
        );
        assert_eq!(
            sorted_indices(&r, SortKey::Score(0), SortDir::Ascending),
            vec![1, 2, 0, 3]
        );
        assert_eq!(
            sorted_indices(&r, SortKey::Rank, SortDir::Descending),
            vec![3, 2, 1, 0]
        );
    }

    #[test]
    fn text_and_sizes_sort_sensibly() {
        let r = rows();
        assert_eq!(
            sorted_indices(&r, SortKey::Label, SortDir::Ascending),
            vec![1, 0, 3, 2]
        );
        // Sizes by magnitude; a row without a size goes last.
        assert_eq!(
            sorted_indices(&r, SortKey::Parameters, SortDir::Descending),
            vec![3, 0, 1, 2]
        );
        assert_eq!(
            sorted_indices(&r, SortKey::Submitted, SortDir::Ascending),
            vec![1, 2, 0, 3]
        );
    }

    #[test]
    fn first_clicks_and_splits() {
        assert_eq!(SortKey::Score(2).first_direction(), SortDir::Descending);
        assert_eq!(SortKey::Label.first_direction(), SortDir::Ascending);
        assert_eq!(SortDir::Ascending.flip().aria(), "descending");
        assert_eq!(parse_split(Some("private")), BoardSplit::Private);
        assert_eq!(parse_split(Some("x")), BoardSplit::Public);
        assert_eq!(parse_split(None), BoardSplit::Public);
    }

    #[test]
    fn board_links_keep_split_and_subset() {
        assert_eq!(
            board_href("clips", BoardSplit::Public, None),
            "/boards/clips"
        );
        assert_eq!(
            board_href("clips", BoardSplit::Public, Some("main")),
            "/boards/clips?subset=main"
        );
        assert_eq!(
            board_href("clips", BoardSplit::Private, Some("full")),
            "/boards/clips?split=private&subset=full"
        );
    }

    #[test]
    fn clip_figures_and_subsets_are_named() {
        assert_eq!(metric_text(Lang::En, "sound:speech"), "sound: speech");
        assert_eq!(metric_text(Lang::Zh, "sound:speech"), "声音类型：语音");
        assert_eq!(
            metric_text(Lang::En, "lang:none"),
            "language: none (no words)"
        );
        assert_eq!(metric_text(Lang::En, "parse rate"), "parse rate");
        assert_eq!(metric_text(Lang::En, "something"), "something");
        assert_eq!(subset_text(Lang::En, "full"), "All items");
        assert_eq!(subset_text(Lang::En, "odd"), "odd");
    }
}
