//! The figure of boards whose kind asks familiarity first (clips): human accuracy by
//! familiarity group, drawn and as a table, the groups named by the kind.

use crate::format::{self, DASH};
use crate::i18n::board::{btr, BoardStrings};
use crate::i18n::use_i18n;
use crate::kinds::familiarity_text;
use leptos::prelude::*;
use memeboard_core::api::FamiliarityRow;
use memeboard_core::kinds::TaskKind;

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
pub(super) fn FamiliarityChart(rows: Vec<FamiliarityRow>, kind: Option<TaskKind>) -> impl IntoView {
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
        let t = lang.table::<BoardStrings>();
        let w = slot();
        rows.with_value(|rows| {
            rows.iter()
                .enumerate()
                .map(|(i, r)| {
                    let cx = FAM_LEFT + w * (i as f64 + 0.5);
                    let label = familiarity_text(lang, kind, r.familiarity, true);
                    let people = (t.participants_n)(r.participants);
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
                        <g data-familiarity=r.familiarity.key()>
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
        let t = lang.table::<BoardStrings>();
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
                                {familiarity_text(lang, kind, r.familiarity, false)}
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
            // The wrapper hides the table: a table with the class itself grows to its content's
            // width and made the page scroll sideways on a phone.
            <div class="visually-hidden">
            <table data-testid="familiarity-table">
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
            </div>
        </section>
    }
}
