//! Run conditions on a board: the words under a model row naming how it was run (the values
//! that differ from the defaults), the filter's choices, and the table of paired differences
//! between runs of one model that differ in one condition.

use crate::format;
use crate::i18n::board::{btr, BoardStrings};
use crate::i18n::{use_i18n, Lang};
use crate::kinds::condition_text;
use leptos::prelude::*;
use memeboard_core::api::{BoardSplit, ModelInfo, PairedDifference};
use memeboard_core::conditions::{non_default, ConditionSpec};
use memeboard_core::tasks::TaskKind;

/// A board's run conditions and the kind that words them.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RunConditions {
    /// The task's conditions (empty: the kind has none).
    pub specs: Vec<ConditionSpec>,
    /// The task's kind.
    pub kind: Option<TaskKind>,
}

impl RunConditions {
    /// A condition's name or value in `lang`.
    fn text(&self, lang: Lang, key: &str) -> String {
        condition_text(lang, self.kind, key)
    }

    /// How a model row was run, where it differs from the defaults ("with each option's
    /// meaning"); `None` for a run under every default.
    pub fn row_text(&self, lang: Lang, model: &ModelInfo) -> Option<String> {
        let changed = non_default(&self.specs, &model.conditions);
        (!changed.is_empty()).then(|| {
            changed
                .iter()
                .map(|(_, v)| self.text(lang, v))
                .collect::<Vec<_>>()
                .join(" · ")
        })
    }

    /// The filter's choices: `(name=value, "Name: value")` for every value of every
    /// condition.
    pub fn choices(&self, lang: Lang) -> Vec<(String, String)> {
        self.specs
            .iter()
            .flat_map(|s| {
                s.values.iter().map(move |v| {
                    (
                        format!("{}={v}", s.name),
                        format!("{}: {}", self.text(lang, &s.name), self.text(lang, v)),
                    )
                })
            })
            .collect()
    }
}

/// Whether a model row's conditions match a `name=value` filter (every row without one).
pub fn matches(filter: Option<&str>, model: Option<&ModelInfo>) -> bool {
    let Some((name, value)) = filter.and_then(|f| f.split_once('=')) else {
        return true;
    };
    model.is_some_and(|m| m.conditions.get(name).map(String::as_str) == Some(value))
}

/// The filter bar's run-condition menu: every runs, or the runs under one value of one
/// condition (`chosen`: the current `name=value`; `pick` gets the new one, or an empty text
/// for all).
pub fn condition_filter(
    chosen: Signal<Option<String>>,
    conditions: RunConditions,
    pick: impl Fn(String) + 'static,
) -> impl IntoView {
    let i18n = use_i18n();
    let options = move || {
        let lang = i18n.lang();
        let all = view! {
            <option value="" prop:selected=move || chosen.with(Option::is_none)>
                {lang.table::<BoardStrings>().filter_all}
            </option>
        };
        let each = conditions
            .choices(lang)
            .into_iter()
            .map(|(key, text)| {
                let k = key.clone();
                let selected = move || chosen.with(|c| c.as_deref() == Some(k.as_str()));
                view! { <option value=key prop:selected=selected>{text}</option> }
            })
            .collect_view();
        view! { {all} {each} }
    };
    view! {
        <div class="field">
            <label for="filter-condition">{btr(|t| t.filter_condition)}</label>
            <select
                id="filter-condition"
                data-testid="filter-condition"
                on:change=move |ev| pick(event_target_value(&ev))
            >
                {options}
            </select>
        </div>
    }
}

/// `+0.125 [+0.050, +0.200]`: a difference with its sign, and its interval where it has one.
pub fn delta_text(d: &PairedDifference) -> String {
    let signed = |x: f64| {
        let text = format::accuracy(x.abs());
        if x < 0.0 {
            format!("−{text}")
        } else {
            format!("+{text}")
        }
    };
    match (d.ci_low, d.ci_high) {
        (Some(low), Some(high)) => {
            format!("{} [{}, {}]", signed(d.delta), signed(low), signed(high))
        }
        _ => signed(d.delta),
    }
}

/// The paired differences of a board (none: nothing is shown).
#[component]
pub fn PairedTable(
    paired: Vec<PairedDifference>,
    conditions: RunConditions,
    split: BoardSplit,
) -> impl IntoView {
    let i18n = use_i18n();
    let rows = move || {
        let lang = i18n.lang();
        paired
            .iter()
            .map(|d| {
                let change = format!(
                    "{}: {} → {}",
                    conditions.text(lang, &d.condition),
                    conditions.text(lang, &d.from),
                    conditions.text(lang, &d.to)
                );
                view! {
                    <tr data-testid="paired-row" data-condition=d.condition.clone()>
                        <th scope="row">{d.model.clone()}</th>
                        <td>{change}</td>
                        <td class="num" data-testid="paired-delta">{delta_text(d)}</td>
                        <td class="num">{d.items}</td>
                    </tr>
                }
            })
            .collect_view()
    };
    let note = move || {
        let t = i18n.bt();
        if split.needs_reveal() {
            t.paired_note_private
        } else {
            t.paired_note_public
        }
    };
    view! {
        <section class="paired" data-testid="paired-differences">
            <h2>{btr(|t| t.paired_title)}</h2>
            <div class="board-scroll" role="region" tabindex="0" aria-label=btr(|t| t.paired_title)>
                <table class="board compact">
                    <thead>
                        <tr>
                            <th scope="col">{btr(|t| t.col_model)}</th>
                            <th scope="col">{btr(|t| t.paired_col_change)}</th>
                            <th scope="col" class="num">{btr(|t| t.paired_col_delta)}</th>
                            <th scope="col" class="num">{btr(|t| t.paired_col_items)}</th>
                        </tr>
                    </thead>
                    <tbody>{rows}</tbody>
                </table>
            </div>
            <p class="muted small">{note}</p>
        </section>
    }
}
