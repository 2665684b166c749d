//! Which model rows the board shows: the weights, size and upload-date filters (kept in the
//! page URL so a filtered board can be shared), the filter bar, and the one-row-per-model or
//! every-attempt toggle.

use super::conditions::{condition_filter, RunConditions};
use crate::api;
use crate::components::score::weights_text;
use crate::format;
use crate::i18n::board::{btr, BoardStrings};
use crate::i18n::{use_i18n, Lang};
use leptos::prelude::*;
use leptos_router::hooks::{use_navigate, use_query_map};
use leptos_router::NavigateOptions;
use memeboard_core::api::{BoardRow, RowGroup, Weights};

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
            Self::All => lang.table::<BoardStrings>().filter_all,
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
        let t = lang.table::<BoardStrings>();
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
    /// Runs under this condition value (`name=value`), when set.
    pub condition: Option<String>,
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
            condition: None,
        }
    }

    /// The same filters, keeping runs under `condition` (`name=value`) only.
    pub fn with_condition(mut self, condition: Option<&str>) -> Self {
        self.condition = condition
            .map(str::trim)
            .filter(|c| c.contains('='))
            .map(str::to_owned);
        self
    }

    /// Whether any filter is set.
    pub fn is_active(&self) -> bool {
        *self != Self::default()
    }

    /// The query parameters these filters set (`None`: the parameter is removed).
    pub fn params(&self) -> [(&'static str, Option<String>); 4] {
        let value = |key: &'static str| (key != "all").then(|| key.to_owned());
        [
            ("weights", value(self.weights.key())),
            ("size", value(self.size.key())),
            ("since", self.since.clone()),
            ("condition", self.condition.clone()),
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
        let condition_ok = super::conditions::matches(self.condition.as_deref(), model);
        weights_ok && size_ok && since_ok && condition_ok
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

/// The board's filters, read from the page URL (`weights`, `size`, `since`).
pub(super) fn use_filters() -> Memo<Filters> {
    let query = use_query_map();
    Memo::new(move |_| {
        query.with(|q| {
            Filters::from_query(q.get_str("weights"), q.get_str("size"), q.get_str("since"))
                .with_condition(q.get_str("condition"))
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
pub(super) fn FilterBar(
    filters: Memo<Filters>,
    shown: Signal<usize>,
    total: usize,
    conditions: RunConditions,
) -> impl IntoView {
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
    let condition_field = (!conditions.specs.is_empty()).then(|| {
        let pick = move |value: String| {
            let f = filters.get_untracked().with_condition(Some(&value));
            apply.with_value(|apply| apply(f));
        };
        let chosen = Signal::derive(move || filters.with(|f| f.condition.clone()));
        condition_filter(chosen, conditions, pick)
    });
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
                {condition_field}
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
pub(super) fn AttemptsToggle(attempts: String, total: usize) -> impl IntoView {
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
