//! `/boards/{slug}?split=public|private&subset=…&attempts=all&weights=…&size=…&since=…`: one
//! leaderboard. A sortable table of model, human and chance rows with 95% intervals per
//! category (rank, name and overall score stay in view while the rest scrolls sideways; on
//! phones every row is a card), filters for the model rows (weights, size, upload date; kept
//! in the URL so a filtered board can be shared), one row per model or every attempt, the bar
//! chart, the missing-items policy and CSV/JSON downloads; boards with item subsets get a
//! subset switch, and clip boards the human-accuracy-by-familiarity figure. Human and
//! baseline rows are references: always shown, never ranked. The private board shows the
//! server's message until revealed.

use crate::api::{self, ApiError};
use crate::board_i18n::btr;
use crate::components::board_chart::BoardChart;
use crate::components::human_eval::BoardHumanSection;
use crate::components::score::{
    category_estimate_view, estimate_view, kind_key, kind_text, row_label, weights_text,
};
use crate::components::status::{error_fallback, Loading};
use crate::components::title::{in_lang, use_page_title};
use crate::format::{self, DASH};
use crate::i18n::{category_label, use_i18n, Lang};
use leptos::prelude::*;
use leptos_router::hooks::{use_navigate, use_params_map, use_query_map};
use leptos_router::NavigateOptions;
use memeboard_core::api::{
    BoardResponse, BoardRow, BoardSplit, FamiliarityRow, RowGroup, RowKind, SubmissionStatus,
    Weights,
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

/// Board ranks: scored model rows 1..n in the server's order (best overall first); human,
/// baseline and received-only rows get none.
pub fn model_ranks(rows: &[BoardRow]) -> Vec<Option<usize>> {
    let mut next = 0;
    rows.iter()
        .map(|r| {
            (r.kind == RowKind::Model && r.status == SubmissionStatus::Scored).then(|| {
                next += 1;
                next
            })
        })
        .collect()
}

/// The weights filter (`?weights=open|closed`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum WeightsFilter {
    /// Every model.
    #[default]
    All,
    /// Open weights only.
    Open,
    /// Closed weights only.
    Closed,
}

impl WeightsFilter {
    /// Every choice, in menu order.
    pub const ALL: [Self; 3] = [Self::All, Self::Open, Self::Closed];

    /// The URL value (`all` is the absence of the parameter).
    pub fn key(self) -> &'static str {
        match self {
            Self::All => "all",
            Self::Open => "open",
            Self::Closed => "closed",
        }
    }

    /// Parses a URL value; anything unknown is `All`.
    pub fn parse(value: Option<&str>) -> Self {
        Self::ALL
            .into_iter()
            .find(|w| Some(w.key()) == value)
            .unwrap_or_default()
    }

    /// The choice in `lang`.
    pub fn text(self, lang: Lang) -> &'static str {
        match self {
            Self::All => lang.board_strings().filter_all,
            Self::Open => weights_text(lang, Weights::Open),
            Self::Closed => weights_text(lang, Weights::Closed),
        }
    }
}

/// The size filter (`?size=le10b|10to100b|gt100b|unknown`), by parameter count.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SizeFilter {
    /// Every model.
    #[default]
    All,
    /// Up to 10B parameters.
    UpTo10B,
    /// More than 10B, up to 100B.
    From10To100B,
    /// More than 100B.
    Over100B,
    /// No size given, or one that does not read as a number of parameters.
    Unknown,
}

impl SizeFilter {
    /// Every choice, in menu order.
    pub const ALL: [Self; 5] = [
        Self::All,
        Self::UpTo10B,
        Self::From10To100B,
        Self::Over100B,
        Self::Unknown,
    ];

    /// The URL value (`all` is the absence of the parameter).
    pub fn key(self) -> &'static str {
        match self {
            Self::All => "all",
            Self::UpTo10B => "le10b",
            Self::From10To100B => "10to100b",
            Self::Over100B => "gt100b",
            Self::Unknown => "unknown",
        }
    }

    /// Parses a URL value; anything unknown is `All`.
    pub fn parse(value: Option<&str>) -> Self {
        Self::ALL
            .into_iter()
            .find(|s| Some(s.key()) == value)
            .unwrap_or_default()
    }

    /// The bucket of a `parameters` string such as `7B`, `70B`, `1.8T`, `350M`.
    pub fn bucket(parameters: Option<&str>) -> Self {
        match parameters.and_then(format::parameter_count) {
            None => Self::Unknown,
            Some(n) if n <= 10e9 => Self::UpTo10B,
            Some(n) if n <= 100e9 => Self::From10To100B,
            Some(_) => Self::Over100B,
        }
    }

    /// The choice in `lang`.
    pub fn text(self, lang: Lang) -> &'static str {
        let t = lang.board_strings();
        match self {
            Self::All => t.filter_all,
            Self::UpTo10B => t.size_le10b,
            Self::From10To100B => t.size_10to100b,
            Self::Over100B => t.size_gt100b,
            Self::Unknown => t.size_unknown,
        }
    }
}

/// Milliseconds since the epoch at the start (UTC) of a `YYYY-MM-DD` day; `None` when the text
/// is not such a date.
pub fn day_start_ms(date: &str) -> Option<i64> {
    let mut parts = date.trim().splitn(3, '-');
    let year: i64 = parts.next()?.parse().ok()?;
    let month: i64 = parts.next()?.parse().ok()?;
    let day: i64 = parts.next()?.parse().ok()?;
    if !(1..=12).contains(&month) || !(1..=31).contains(&day) || !(1..=9999).contains(&year) {
        return None;
    }
    // Days-from-civil (H. Hinnant's algorithm), the inverse of `format::date`.
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (month + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe - 719_468;
    let ms = days * 86_400_000;
    // Reject days a month does not have (2026-02-31 would read as March 3rd).
    (format::date(ms) == format!("{year:04}-{month:02}-{day:02}")).then_some(ms)
}

/// Which model rows the table shows. Human and baseline rows always stay.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Filters {
    /// Open or closed weights.
    pub weights: WeightsFilter,
    /// Parameter count bucket.
    pub size: SizeFilter,
    /// Uploaded on or after this day (`YYYY-MM-DD`, UTC), when set and valid.
    pub since: Option<String>,
}

impl Filters {
    /// The filters of a board URL's query (`weights`, `size`, `since`).
    pub fn from_query(weights: Option<&str>, size: Option<&str>, since: Option<&str>) -> Self {
        Self {
            weights: WeightsFilter::parse(weights),
            size: SizeFilter::parse(size),
            since: since
                .map(str::trim)
                .filter(|d| day_start_ms(d).is_some())
                .map(str::to_owned),
        }
    }

    /// Whether any filter is set.
    pub fn is_active(&self) -> bool {
        *self != Self::default()
    }

    /// The query parameters these filters set (`None`: the parameter is removed).
    pub fn params(&self) -> [(&'static str, Option<String>); 3] {
        let value = |key: &'static str| (key != "all").then(|| key.to_owned());
        [
            ("weights", value(self.weights.key())),
            ("size", value(self.size.key())),
            ("since", self.since.clone()),
        ]
    }

    /// Whether the table shows `row`: every human and baseline row, and the model rows that
    /// pass every filter.
    pub fn keeps(&self, row: &BoardRow) -> bool {
        if row.kind.group() != RowGroup::Model {
            return true;
        }
        let model = row.model.as_ref();
        let weights_ok = match self.weights {
            WeightsFilter::All => true,
            WeightsFilter::Open => model.is_some_and(|m| m.weights == Weights::Open),
            WeightsFilter::Closed => model.is_some_and(|m| m.weights == Weights::Closed),
        };
        let size_ok = self.size == SizeFilter::All
            || SizeFilter::bucket(model.and_then(|m| m.parameters.as_deref())) == self.size;
        let since_ok = match self.since.as_deref().and_then(day_start_ms) {
            None => true,
            Some(start) => row.submitted_at.is_some_and(|t| t >= start),
        };
        weights_ok && size_ok && since_ok
    }
}

/// `path` with the query `current` changed by `set`: a key with `Some(value)` is set (in
/// place, or appended), one with `None` removed; every other parameter is kept as it was.
pub fn with_params(
    path: &str,
    current: &[(String, String)],
    set: &[(&str, Option<String>)],
) -> String {
    let mut pairs: Vec<(String, String)> = current
        .iter()
        .filter(|(k, _)| !set.iter().any(|(s, v)| s == k && v.is_none()))
        .cloned()
        .collect();
    for (key, value) in set {
        if let Some(value) = value {
            match pairs.iter_mut().find(|(k, _)| k == key) {
                Some(pair) => pair.1.clone_from(value),
                None => pairs.push(((*key).to_owned(), value.clone())),
            }
        }
    }
    if pairs.is_empty() {
        return path.to_owned();
    }
    let query: Vec<String> = pairs
        .iter()
        .map(|(k, v)| format!("{}={}", api::encode_component(k), api::encode_component(v)))
        .collect();
    format!("{path}?{}", query.join("&"))
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
        <nav class="segmented" aria-label=btr(|t| t.board_split_label)>
            <a href=public aria-current=current(BoardSplit::Public) data-testid="split-public">
                {btr(|t| t.board_public)}
            </a>
            <a
                href=private
                aria-current=current(BoardSplit::Private)
                data-testid="split-private"
            >
                {btr(|t| t.board_private)}
            </a>
        </nav>
    }
}

/// A subset's name in `lang` (`main`, `full`; others as sent).
fn subset_text(lang: Lang, subset: &str) -> String {
    let t = lang.board_strings();
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
        <nav class="segmented subset-switch" aria-label=btr(|t| t.board_subset_label) data-testid="subset-switch">
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
        let t = lang.board_strings();
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
        let t = lang.board_strings();
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
            <h2>{btr(|t| t.familiarity_chart_title)}</h2>
            <p class="muted small">{btr(|t| t.familiarity_chart_note)}</p>
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
                <caption>{btr(|t| t.familiarity_table_caption)}</caption>
                <thead>
                    <tr>
                        <th scope="col">{btr(|t| t.col_familiarity)}</th>
                        <th scope="col">{btr(|t| t.col_human_accuracy)}</th>
                        <th scope="col">{btr(|t| t.col_participants)}</th>
                        <th scope="col">{btr(|t| t.col_answers)}</th>
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
            <h2>{btr(|t| t.board_locked_title)}</h2>
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

/// One table row: rank, name and overall score first (they stay in view while the table
/// scrolls sideways), then the kind badge, the model's facts and the categories. Every cell
/// carries its column name (`data-label`) for the phone layout, where rows are cards.
/// `rank` is `None` for reference rows (humans, baselines) and rows not scored yet.
fn row_view(
    row: &BoardRow,
    rank: Option<usize>,
    categories: &[String],
    lang: Lang,
) -> impl IntoView {
    let t = lang.board_strings();
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
    let before = row
        .participants_before_exclusions
        .filter(|b| Some(*b) != row.participants)
        .map(|b| {
            format!(
                " · {}",
                (crate::study_i18n::study_strings(lang).before_exclusions)(b)
            )
        });
    let participants = row.participants.map(|n| {
        view! {
            <span class="sub" data-testid="participants">
                {(t.participants_n)(n)}
                {before.clone()}
            </span>
        }
    });
    // Warnings the server attached to a model row (e.g. its answers copy the prompt).
    let flags = row
        .flags
        .iter()
        .map(|f| {
            let text = match f.as_str() {
                "copies_prompt" => t.flag_copies_prompt.to_owned(),
                other => other.to_owned(),
            };
            view! { <span class="badge warning" data-testid="row-flag" data-flag=f.clone()>{text}</span> }
        })
        .collect_view();
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
    let unscored = row.status == SubmissionStatus::Unscored;
    let score = |i: usize| {
        if received {
            if i == 0 {
                view! { <span class="badge received">{t.status_received}</span> }.into_any()
            } else {
                view! { <span class="val">{DASH}</span> }.into_any()
            }
        } else if unscored {
            // No automatic metric (comic explanations): people judge these outputs.
            if i == 0 {
                view! {
                    <span class="badge received" data-testid="judged-by-people">
                        {t.status_unscored}
                    </span>
                }
                .into_any()
            } else {
                view! { <span class="val">{DASH}</span> }.into_any()
            }
        } else {
            category_estimate_view(row.scores.get(i), lang)
        }
    };
    let overall = score(0);
    let category_cells = categories
        .iter()
        .enumerate()
        .map(|(i, name)| {
            view! {
                <td class="score-cell category" data-label=name.clone()>
                    {score(i + 1)}
                </td>
            }
        })
        .collect_view();
    let rank_view = match rank {
        Some(r) => view! { {r.to_string()} }.into_any(),
        None => view! {
            <span aria-hidden="true">{DASH}</span>
            <span class="visually-hidden">{t.not_ranked}</span>
        }
        .into_any(),
    };
    view! {
        <tr
            class=format!("board-row kind-{kind}")
            class:reference=row.kind.group() != RowGroup::Model
            data-testid="board-row"
            data-kind=kind
            data-label=row.label.clone()
            data-rank=rank.map(|r| r.to_string())
        >
            <td class="rank sticky-rank" data-testid="rank">{rank_view}</td>
            <th scope="row" class="label-cell sticky-label">
                {label_view}
                {participants}
                {flags}
            </th>
            <td class="score-cell overall sticky-overall" data-label=t.overall data-testid="overall">
                {overall}
            </td>
            <td class="kind-cell">
                <span class=format!("kind-badge kind-{kind}")>{kind_text(lang, row.kind)}</span>
            </td>
            <td class="meta" data-label=t.col_organisation>{organisation}</td>
            <td class="meta nowrap" data-label=t.col_params>{parameters}</td>
            <td class="meta" data-label=t.col_weights>{weights}</td>
            <td class="meta nowrap" data-label=t.col_submitted>{submitted}</td>
            {category_cells}
        </tr>
    }
}

/// Secondary figures of every row (rescaled cosine, parse rate, F1, per-type accuracy…), with
/// their intervals where the server computed them, and the confusion matrices of
/// classification boards; `None` when no row has any.
fn secondary_metrics(rows: &[BoardRow], lang: Lang) -> Option<impl IntoView> {
    let t = lang.board_strings();
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
    let t = lang.board_strings();
    match name {
        "parse rate" => t.metric_parse_rate.to_owned(),
        "macro-F1" => t.metric_macro_f1.to_owned(),
        "weighted-F1" => t.metric_weighted_f1.to_owned(),
        "accuracy, unparseable as wrong" => t.metric_accuracy_all.to_owned(),
        other => match StructureType::parse(other) {
            Some(s) => {
                (t.metric_accuracy_of_type)(crate::kinds::panel_type::structure_name(lang, s))
            }
            None => crate::kinds::clip_mcq::metric_name(lang, other)
                .unwrap_or_else(|| label_text(lang, other)),
        },
    }
}

/// A label the server sends in English (the board's metric, its missing-prediction policy, a
/// secondary figure) in `lang`, read back through the shared message catalogue; unknown
/// labels are shown as sent.
fn label_text(lang: Lang, label: &str) -> String {
    memeboard_core::messages::parse_label(label)
        .map_or_else(|| label.to_owned(), |m| m.render(lang.locale()))
}

/// A confusion matrix (gold rows × predicted columns, plus "unparseable"), folded.
fn confusion_view(row: &str, m: &ConfusionMatrix, lang: Lang) -> AnyView {
    let t = lang.board_strings();
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

/// The board's filters, read from the page URL (`weights`, `size`, `since`).
fn use_filters() -> Memo<Filters> {
    let query = use_query_map();
    Memo::new(move |_| {
        query.with(|q| {
            Filters::from_query(q.get_str("weights"), q.get_str("size"), q.get_str("since"))
        })
    })
}

/// The current page URL with some query parameters changed (see [`with_params`]).
fn current_url_with(set: &[(&str, Option<String>)]) -> String {
    let location = leptos_router::hooks::use_location();
    let path = location.pathname.get_untracked();
    let current: Vec<(String, String)> = location.query.with_untracked(|q| {
        q.latest_values()
            .map(|(k, v)| (k.to_string(), v.to_owned()))
            .collect()
    });
    with_params(&path, &current, set)
}

/// Filters for the model rows: weights, size and upload date. Each change rewrites the page
/// URL (replacing the history entry), so a filtered board can be shared.
#[component]
fn FilterBar(filters: Memo<Filters>, shown: Signal<usize>, total: usize) -> impl IntoView {
    let i18n = use_i18n();
    let navigate = use_navigate();
    let location = leptos_router::hooks::use_location();
    let apply = move |f: Filters| {
        let path = location.pathname.get_untracked();
        let current: Vec<(String, String)> = location.query.with_untracked(|q| {
            q.latest_values()
                .map(|(k, v)| (k.to_string(), v.to_owned()))
                .collect()
        });
        let url = with_params(&path, &current, &f.params());
        navigate(
            &url,
            NavigateOptions {
                replace: true,
                scroll: false,
                ..Default::default()
            },
        );
    };
    let apply = StoredValue::new_local(apply);
    let weights_options = move || {
        let lang = i18n.lang();
        WeightsFilter::ALL
            .into_iter()
            .map(|w| {
                view! {
                    <option value=w.key() prop:selected=move || filters.with(|f| f.weights == w)>
                        {w.text(lang)}
                    </option>
                }
            })
            .collect_view()
    };
    let size_options = move || {
        let lang = i18n.lang();
        SizeFilter::ALL
            .into_iter()
            .map(|s| {
                view! {
                    <option value=s.key() prop:selected=move || filters.with(|f| f.size == s)>
                        {s.text(lang)}
                    </option>
                }
            })
            .collect_view()
    };
    let clear_href = move || {
        filters.track();
        current_url_with(&Filters::default().params())
    };
    view! {
        <fieldset class="board-filters" data-testid="board-filters">
            <legend>{btr(|t| t.filters_label)}</legend>
            <div class="filter-fields">
                <div class="field">
                    <label for="filter-weights">{btr(|t| t.col_weights)}</label>
                    <select
                        id="filter-weights"
                        data-testid="filter-weights"
                        on:change=move |ev| {
                            let mut f = filters.get_untracked();
                            f.weights = WeightsFilter::parse(Some(&event_target_value(&ev)));
                            apply.with_value(|apply| apply(f));
                        }
                    >
                        {weights_options}
                    </select>
                </div>
                <div class="field">
                    <label for="filter-size">{btr(|t| t.filter_size)}</label>
                    <select
                        id="filter-size"
                        data-testid="filter-size"
                        on:change=move |ev| {
                            let mut f = filters.get_untracked();
                            f.size = SizeFilter::parse(Some(&event_target_value(&ev)));
                            apply.with_value(|apply| apply(f));
                        }
                    >
                        {size_options}
                    </select>
                </div>
                <div class="field">
                    <label for="filter-since">{btr(|t| t.filter_since)}</label>
                    <input
                        id="filter-since"
                        type="date"
                        data-testid="filter-since"
                        prop:value=move || filters.with(|f| f.since.clone().unwrap_or_default())
                        on:change=move |ev| {
                            let mut f = filters.get_untracked();
                            let value = event_target_value(&ev);
                            f.since = Some(value).filter(|d| day_start_ms(d).is_some());
                            apply.with_value(|apply| apply(f));
                        }
                    />
                </div>
            </div>
            <p class="filter-status small" role="status" data-testid="filter-count">
                {move || (i18n.bt().filter_shown)(shown.get(), total)}
                {move || {
                    filters
                        .with(Filters::is_active)
                        .then(|| {
                            view! {
                                " "
                                <a href=clear_href data-testid="filter-clear">
                                    {btr(|t| t.filter_clear)}
                                </a>
                            }
                        })
                }}
            </p>
        </fieldset>
    }
}

/// One row per model, or every attempt: a link that reloads the board with or without
/// `attempts=all` (the other query parameters are kept), and a note on what the rows are.
#[component]
fn AttemptsToggle(attempts: String, total: usize) -> impl IntoView {
    let i18n = use_i18n();
    let all = attempts == "all";
    let query = use_query_map();
    let href = move || {
        query.track();
        current_url_with(&[("attempts", (!all).then(|| "all".to_owned()))])
    };
    let note = move || {
        let t = i18n.bt();
        match attempts.as_str() {
            "all" => t.attempts_all_note,
            "latest" => t.attempts_latest_note,
            _ => t.attempts_best_note,
        }
    };
    view! {
        <p class="attempts" data-testid="attempts">
            <span class="muted small" data-testid="attempts-note">{note}</span>
            " "
            <a class="button secondary" href=href data-testid="attempts-toggle">
                {move || {
                    if all {
                        i18n.bt().attempts_one_per_model.to_owned()
                    } else {
                        (i18n.bt().attempts_show_all)(total)
                    }
                }}
            </a>
        </p>
    }
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
    let automatic_metric = board.automatic_metric;
    let ranks = StoredValue::new(model_ranks(&board.rows));
    let rows = StoredValue::new(board.rows.clone());
    let categories = StoredValue::new(board.categories.clone());
    let filters = use_filters();

    let text_header =
        |key: SortKey, testid: &str, pick: fn(Lang) -> &'static str, class: &'static str| {
            sort_header(
                sort,
                key,
                testid.to_owned(),
                move || pick(i18n.lang()).to_owned(),
                class,
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
                "score-cell category",
            )
        })
        .collect_view();

    let body = move || {
        let (key, dir) = sort.get();
        let lang = i18n.lang();
        let names: Vec<String> = categories.with_value(|cats| {
            cats.iter()
                .map(|c| category_label(lang, &c.key, cats))
                .collect()
        });
        filters.with(|f| {
            rows.with_value(|rows| {
                ranks.with_value(|ranks| {
                    sorted_indices(rows, key, dir)
                        .into_iter()
                        .filter(|&i| f.keeps(&rows[i]))
                        .map(|i| row_view(&rows[i], ranks[i], &names, lang))
                        .collect_view()
                })
            })
        })
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
        view! { <FilterBar filters=filters shown=shown total=model_rows /> }
    });
    let attempts_toggle = (board.hidden_attempts > 0 || board.attempts == "all").then(|| {
        view! {
            <AttemptsToggle
                attempts=board.attempts.clone()
                total=model_rows + board.hidden_attempts
            />
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
    let familiarity = board.familiarity.clone();
    let familiarity_chart =
        (!familiarity.is_empty()).then(|| view! { <FamiliarityChart rows=familiarity /> });
    view! {
        <section class="intro board-head">
            <h1>{board.title.clone()}</h1>
            <p class="muted">
                {move || (i18n.bt().board_items)(items, &label_text(i18n.lang(), &metric))}
            </p>
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
        <p class="muted small">{btr(|t| t.sort_hint)}</p>
        <div
            class="board-scroll"
            role="region"
            tabindex="0"
            aria-label=btr(|t| t.board_table_label)
        >
            <table class="board" data-testid="board-table">
                <thead>
                    <tr>
                        {text_header(SortKey::Rank, "rank", |l| l.board_strings().col_rank, "sticky-rank")}
                        {text_header(SortKey::Label, "label", |l| l.board_strings().col_model, "sticky-label")}
                        {sort_header(
                            sort,
                            SortKey::Score(0),
                            "overall".to_owned(),
                            move || i18n.bt().overall.to_owned(),
                            "score-cell overall sticky-overall",
                        )}
                        {text_header(SortKey::Kind, "kind", |l| l.board_strings().col_kind, "")}
                        {text_header(
                            SortKey::Organisation,
                            "organisation",
                            |l| l.board_strings().col_organisation,
                            "",
                        )}
                        {text_header(SortKey::Parameters, "parameters", |l| l.board_strings().col_params, "")}
                        {text_header(SortKey::Weights, "weights", |l| l.board_strings().col_weights, "")}
                        {text_header(
                            SortKey::Submitted,
                            "submitted",
                            |l| l.board_strings().col_submitted,
                            "",
                        )}
                        {category_headers}
                    </tr>
                </thead>
                <tbody>{body}</tbody>
            </table>
        </div>
        {secondary}
        <p data-testid="missing-policy">
            <strong>{btr(|t| t.missing_policy_label)} ": "</strong>
            {move || label_text(i18n.lang(), &missing_policy)}
        </p>
        <p class="muted small">{btr(|t| t.board_ci_note)}</p>

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
            participants_before_exclusions: None,
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

    fn reference(kind: RowKind, label: &str, overall: f64) -> BoardRow {
        let mut r = model(label, Some(overall), "", 0);
        r.kind = kind;
        r.model = None;
        r.submission_id = None;
        r.submitted_at = None;
        r
    }

    #[test]
    fn reference_rows_are_never_ranked() {
        let rows = vec![
            reference(RowKind::HumanBest, "Human best", 0.95),
            model("a", Some(0.9), "7B", 1),
            reference(RowKind::HumanAverage, "Human average", 0.8),
            model("b", Some(0.5), "70B", 2),
            reference(RowKind::Chance, "Chance", 0.25),
            model("blind", None, "", 3),
        ];
        assert_eq!(
            model_ranks(&rows),
            vec![None, Some(1), None, Some(2), None, None]
        );
    }

    #[test]
    fn sizes_fall_into_buckets() {
        assert_eq!(SizeFilter::bucket(Some("7B")), SizeFilter::UpTo10B);
        assert_eq!(SizeFilter::bucket(Some("350M")), SizeFilter::UpTo10B);
        assert_eq!(SizeFilter::bucket(Some("10B")), SizeFilter::UpTo10B);
        assert_eq!(SizeFilter::bucket(Some("70b")), SizeFilter::From10To100B);
        assert_eq!(SizeFilter::bucket(Some("1.8T")), SizeFilter::Over100B);
        assert_eq!(SizeFilter::bucket(Some("175B")), SizeFilter::Over100B);
        assert_eq!(SizeFilter::bucket(Some("big")), SizeFilter::Unknown);
        assert_eq!(SizeFilter::bucket(None), SizeFilter::Unknown);
        for s in SizeFilter::ALL {
            assert_eq!(SizeFilter::parse(Some(s.key())), s);
        }
        assert_eq!(SizeFilter::parse(Some("huge")), SizeFilter::All);
        assert_eq!(WeightsFilter::parse(Some("open")), WeightsFilter::Open);
        assert_eq!(WeightsFilter::parse(None), WeightsFilter::All);
    }

    #[test]
    fn dates_read_as_utc_day_starts() {
        assert_eq!(day_start_ms("1970-01-01"), Some(0));
        assert_eq!(day_start_ms("2026-01-01"), Some(1_767_225_600_000));
        assert_eq!(
            format::date(day_start_ms("2024-02-29").unwrap()),
            "2024-02-29"
        );
        assert_eq!(day_start_ms("2026-02-30"), None);
        assert_eq!(day_start_ms("2026-13-01"), None);
        assert_eq!(day_start_ms("yesterday"), None);
        assert_eq!(day_start_ms(""), None);
    }

    #[test]
    fn filters_keep_reference_rows_and_matching_models() {
        let day = 86_400_000;
        let mut closed = model("closed", Some(0.6), "1.8T", 20_000 * day);
        closed.model.as_mut().unwrap().weights = Weights::Closed;
        let rows = [
            model("small", Some(0.7), "7B", 10_000 * day),
            closed,
            model("nosize", Some(0.5), "", 20_000 * day),
            reference(RowKind::Chance, "Chance", 0.25),
        ];
        let kept = |f: &Filters| -> Vec<&str> {
            rows.iter()
                .filter(|r| f.keeps(r))
                .map(|r| r.label.as_str())
                .collect()
        };
        let f = Filters::from_query(Some("open"), None, None);
        assert_eq!(kept(&f), vec!["small", "nosize", "Chance"]);
        let f = Filters::from_query(None, Some("gt100b"), None);
        assert_eq!(kept(&f), vec!["closed", "Chance"]);
        let f = Filters::from_query(None, Some("unknown"), None);
        assert_eq!(kept(&f), vec!["nosize", "Chance"]);
        let since = format::date(15_000 * day);
        let f = Filters::from_query(None, None, Some(&since));
        assert_eq!(kept(&f), vec!["closed", "nosize", "Chance"]);
        assert!(f.is_active());
        // Unknown values are no filter.
        let f = Filters::from_query(Some("x"), Some("y"), Some("not a date"));
        assert!(!f.is_active());
        assert_eq!(kept(&f).len(), 4);
        assert_eq!(
            Filters::from_query(Some("open"), Some("le10b"), Some("2026-01-01")).params(),
            [
                ("weights", Some("open".to_owned())),
                ("size", Some("le10b".to_owned())),
                ("since", Some("2026-01-01".to_owned())),
            ]
        );
    }

    #[test]
    fn query_changes_keep_other_parameters() {
        let current = vec![
            ("split".to_owned(), "private".to_owned()),
            ("weights".to_owned(), "open".to_owned()),
        ];
        assert_eq!(
            with_params("/boards/x", &current, &[("attempts", Some("all".into()))]),
            "/boards/x?split=private&weights=open&attempts=all"
        );
        assert_eq!(
            with_params(
                "/boards/x",
                &current,
                &[("weights", Some("closed".into())), ("size", None)]
            ),
            "/boards/x?split=private&weights=closed"
        );
        assert_eq!(
            with_params("/boards/x", &current[1..], &[("weights", None)]),
            "/boards/x"
        );
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
        assert_eq!(
            metric_text(Lang::Zh, "origin cosine (items with an origin)"),
            "出处余弦（有出处的题目）"
        );
        assert_eq!(label_text(Lang::Zh, "accuracy"), "准确率");
        assert_eq!(label_text(Lang::En, "accuracy"), "accuracy");
        assert_eq!(subset_text(Lang::En, "full"), "All items");
        assert_eq!(subset_text(Lang::En, "odd"), "odd");
    }
}
