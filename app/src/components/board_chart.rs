//! The board's bar chart, drawn as plain SVG by the app: per category (and overall), one bar
//! per model among the top five overall, with the human average and human best as marker
//! lines and chance as a dashed line. Title and description make it readable to screen
//! readers; an HTML legend below it wraps on narrow screens.

use crate::components::score::all_suppressed;
use crate::format;
use crate::i18n::board::btr;
use crate::i18n::{category_label, tr, use_i18n, Lang, Strings};
use leptos::prelude::*;
use memeboard_core::api::{BoardResponse, BoardRow, RowKind, SubmissionStatus};

/// How many models get bars.
pub const TOP_MODELS: usize = 5;
/// Bar colours (Okabe–Ito, distinguishable with colour-vision deficiencies).
const COLOURS: [&str; TOP_MODELS] = ["#0072b2", "#e69f00", "#009e73", "#cc79a7", "#56b4e9"];

const WIDTH: f64 = 720.0;
const HEIGHT: f64 = 300.0;
const LEFT: f64 = 44.0;
const RIGHT: f64 = 10.0;
const TOP: f64 = 14.0;
const BOTTOM: f64 = 50.0;

/// One group of bars: overall (`key` = None) or a category.
#[derive(Debug, Clone, PartialEq)]
pub struct ChartGroup {
    /// Category key (`None` = overall).
    pub key: Option<String>,
    /// One value per charted model (same order as [`ChartData::models`]).
    pub bars: Vec<Option<f64>>,
    /// Human average.
    pub human_average: Option<f64>,
    /// Human best.
    pub human_best: Option<f64>,
    /// Chance.
    pub chance: Option<f64>,
}

/// What the chart draws.
#[derive(Debug, Clone, PartialEq)]
pub struct ChartData {
    /// Labels of the charted models, best overall first.
    pub models: Vec<String>,
    /// Overall, then one group per category.
    pub groups: Vec<ChartGroup>,
}

/// A row's value in column `i` (0 = overall).
fn value(row: &BoardRow, i: usize) -> Option<f64> {
    row.scores.get(i).and_then(|s| s.estimate).map(|e| e.value)
}

/// The chart's data: the top [`TOP_MODELS`] scored model rows by overall accuracy, and the
/// human and chance rows.
pub fn chart_data(board: &BoardResponse) -> ChartData {
    let mut models: Vec<&BoardRow> = board
        .rows
        .iter()
        .filter(|r| {
            r.kind == RowKind::Model
                && r.status == SubmissionStatus::Scored
                && value(r, 0).is_some()
        })
        .collect();
    models.sort_by(|a, b| {
        value(b, 0)
            .unwrap_or(f64::NEG_INFINITY)
            .total_cmp(&value(a, 0).unwrap_or(f64::NEG_INFINITY))
    });
    models.truncate(TOP_MODELS);
    let human_best = board.rows.iter().find(|r| r.kind == RowKind::HumanBest);
    let human_average = board.rows.iter().find(|r| r.kind == RowKind::HumanAverage);
    let chance = board.rows.iter().find(|r| r.kind.is_chance());
    // Overall, then each category that has a figure to show (as the table).
    let keys = std::iter::once(None)
        .chain(board.categories.iter().map(|c| Some(c.key.clone())))
        .enumerate()
        .filter(|(i, _)| *i == 0 || !all_suppressed(&board.rows, *i));
    let groups = keys
        .map(|(i, key)| ChartGroup {
            key,
            bars: models.iter().map(|m| value(m, i)).collect(),
            human_average: human_average.and_then(|r| value(r, i)),
            human_best: human_best.and_then(|r| value(r, i)),
            chance: chance.and_then(|r| value(r, i)),
        })
        .collect();
    ChartData {
        models: models.iter().map(|m| m.label.clone()).collect(),
        groups,
    }
}

/// The y coordinate of an accuracy.
fn y_of(v: f64) -> f64 {
    TOP + (HEIGHT - TOP - BOTTOM) * (1.0 - v.clamp(0.0, 1.0))
}

/// Splits a long axis label at the space nearest its middle.
fn split_label(label: &str) -> (String, Option<String>) {
    if label.chars().count() <= 10 {
        return (label.to_owned(), None);
    }
    let mid = label.len() / 2;
    match label
        .match_indices(' ')
        .map(|(i, _)| i)
        .min_by_key(|i| i.abs_diff(mid))
    {
        Some(i) => (label[..i].to_owned(), Some(label[i + 1..].to_owned())),
        None => (label.to_owned(), None),
    }
}

/// A horizontal marker line across a group.
fn marker(x0: f64, x1: f64, v: Option<f64>, class: &'static str) -> Option<impl IntoView> {
    let y = format!("{:.1}", y_of(v?));
    Some(view! {
        <line
            class=class
            x1=format!("{x0:.1}")
            x2=format!("{x1:.1}")
            y1=y.clone()
            y2=y
        ></line>
    })
}

/// The chart's horizontal grid lines at 0, ¼, ½, ¾ and 1, with their values.
fn grid_view() -> impl IntoView {
    [0.0, 0.25, 0.5, 0.75, 1.0]
        .into_iter()
        .map(|v| {
            let y = format!("{:.1}", y_of(v));
            view! {
                <g class="grid">
                    <line
                        x1=format!("{LEFT:.1}")
                        x2=format!("{:.1}", WIDTH - RIGHT)
                        y1=y.clone()
                        y2=y.clone()
                    ></line>
                    <text x=format!("{:.1}", LEFT - 6.0) y=y dy="0.32em" text-anchor="end">
                        {if v == 0.0 || v == 1.0 { format!("{v:.0}") } else { format!("{v}") }}
                    </text>
                </g>
            }
        })
        .collect_view()
}

/// A legend entry for a marker line (human average, best human, chance).
fn legend_line(class: &'static str, text: Signal<&'static str>) -> impl IntoView {
    view! {
        <li>
            <svg class="line-swatch" viewBox="0 0 28 10" width="28" height="10" aria-hidden="true">
                <line class=class x1="1" x2="27" y1="5" y2="5"></line>
            </svg>
            {text}
        </li>
    }
}

/// The chart: SVG plus legend.
#[component]
pub fn BoardChart(
    /// The board to draw.
    board: BoardResponse,
) -> impl IntoView {
    let i18n = use_i18n();
    let data = chart_data(&board);
    let categories = StoredValue::new(board.categories);
    let group_label = move |lang: Lang, key: &Option<String>| match key {
        None => lang.table::<Strings>().overall.to_owned(),
        Some(k) => categories.with_value(|c| category_label(lang, k, c)),
    };
    let has_humans = data
        .groups
        .first()
        .is_some_and(|g| g.human_average.is_some());
    let has_best = data.groups.first().is_some_and(|g| g.human_best.is_some());
    let has_chance = data.groups.first().is_some_and(|g| g.chance.is_some());
    let data = StoredValue::new(data);

    let plot = move || {
        let lang = i18n.lang();
        data.with_value(|d| {
            let n_groups = d.groups.len().max(1) as f64;
            let group_w = (WIDTH - LEFT - RIGHT) / n_groups;
            let n_models = d.models.len().max(1) as f64;
            let grid = grid_view();
            let groups = d
                .groups
                .iter()
                .enumerate()
                .map(|(gi, g)| {
                    let x0 = LEFT + gi as f64 * group_w + group_w * 0.1;
                    let inner = group_w * 0.8;
                    let x1 = x0 + inner;
                    let bar_w = inner / n_models;
                    let label = group_label(lang, &g.key);
                    let bars = g
                        .bars
                        .iter()
                        .enumerate()
                        .filter_map(|(mi, v)| {
                            let v = (*v)?;
                            let top = y_of(v);
                            let name = d.models.get(mi).cloned().unwrap_or_default();
                            Some(view! {
                                <rect
                                    data-testid="chart-bar"
                                    x=format!("{:.1}", x0 + mi as f64 * bar_w + bar_w * 0.08)
                                    y=format!("{top:.1}")
                                    width=format!("{:.1}", bar_w * 0.84)
                                    height=format!("{:.1}", y_of(0.0) - top)
                                    fill=COLOURS[mi % COLOURS.len()]
                                >
                                    <title>{format!("{name} · {label}: {}", format::accuracy(v))}</title>
                                </rect>
                            })
                        })
                        .collect_view();
                    let (line1, line2) = split_label(&label);
                    let cx = format!("{:.1}", x0 + inner / 2.0);
                    let ty = format!("{:.1}", HEIGHT - BOTTOM + 18.0);
                    view! {
                        <g class="group">
                            {bars}
                            {marker(x0, x1, g.chance, "chance")}
                            {marker(x0, x1, g.human_average, "human-average")}
                            {marker(x0, x1, g.human_best, "human-best")}
                            <text class="axis-label" x=cx.clone() y=ty text-anchor="middle">
                                <tspan x=cx.clone()>{line1}</tspan>
                                {line2.map(|l| view! { <tspan x=cx.clone() dy="1.2em">{l}</tspan> })}
                            </text>
                        </g>
                    }
                })
                .collect_view();
            view! {
                {grid}
                {groups}
            }
        })
    };

    let legend_models = data.with_value(|d| {
        d.models
            .iter()
            .enumerate()
            .map(|(i, m)| {
                view! {
                    <li>
                        <span
                            class="swatch"
                            style=format!("background:{}", COLOURS[i % COLOURS.len()])
                            aria-hidden="true"
                        ></span>
                        {m.clone()}
                    </li>
                }
            })
            .collect_view()
    });
    let no_models = data.with_value(|d| d.models.is_empty());

    view! {
        <figure class="chart" data-testid="board-chart-figure">
            // Scrolls sideways on phones: focusable, so the keyboard can scroll it too.
            <div class="chart-wrap" tabindex="0" role="group" aria-label=btr(|t| t.chart_title)>
                <svg
                    class="board-chart"
                    data-testid="board-chart"
                    viewBox=format!("0 0 {WIDTH} {HEIGHT}")
                    role="img"
                    aria-labelledby="board-chart-title board-chart-desc"
                >
                    <title id="board-chart-title">{btr(|t| t.chart_title)}</title>
                    <desc id="board-chart-desc">{btr(|t| t.chart_desc)}</desc>
                    {plot}
                </svg>
            </div>
            <figcaption>
                {no_models
                    .then(|| view! { <p class="muted small">{btr(|t| t.no_models)}</p> })}
                <ul class="chart-legend">
                    {legend_models}
                    {has_humans
                        .then(|| {
                            legend_line("human-average", Signal::derive(tr(|t| t.col_average)))
                        })}
                    {has_best
                        .then(|| legend_line("human-best", Signal::derive(tr(|t| t.col_best))))}
                    {has_chance
                        .then(|| legend_line("chance", Signal::derive(btr(|t| t.chance))))}
                </ul>
            </figcaption>
        </figure>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::components::score::test_row;
    use memeboard_core::api::BoardSplit;
    use memeboard_core::leaderboard::CategoryEstimate;
    use memeboard_core::stats::Estimate;
    use memeboard_core::tasks::CategoryInfo;

    fn row(kind: RowKind, label: &str, values: &[f64]) -> BoardRow {
        BoardRow {
            scores: values
                .iter()
                .enumerate()
                .map(|(i, v)| CategoryEstimate {
                    category: (i > 0).then(|| format!("c{i}")),
                    items: 4,
                    estimate: Some(Estimate {
                        value: *v,
                        ci_low: *v,
                        ci_high: *v,
                    }),
                    suppressed: false,
                })
                .collect(),
            ..test_row(kind, label)
        }
    }

    #[test]
    fn top_five_models_and_marker_rows() {
        let mut rows: Vec<BoardRow> = (0..7)
            .map(|i| row(RowKind::Model, &format!("m{i}"), &[i as f64 / 10.0, 0.5]))
            .collect();
        rows.push(row(RowKind::HumanBest, "Human best (crowd)", &[0.9, 0.95]));
        rows.push(row(
            RowKind::HumanAverage,
            "Human average (crowd)",
            &[0.7, 0.6],
        ));
        // Other baselines come first on some boards: the chance line is still chance's.
        rows.push(row(RowKind::MajorityType, "Majority type", &[0.4, 0.4]));
        rows.push(row(RowKind::PromptCopy, "Prompt copied", &[0.3, 0.3]));
        rows.push(row(RowKind::Chance, "Chance (random option)", &[0.2, 0.2]));
        let mut blind = row(RowKind::Model, "blind", &[]);
        blind.status = SubmissionStatus::Received;
        rows.push(blind);
        let board = BoardResponse {
            task: "t".into(),
            benchmark: None,
            title: "T".into(),
            split: BoardSplit::Public,
            metric: "accuracy".into(),
            missing_policy: String::new(),
            categories: vec![CategoryInfo {
                key: "c1".into(),
                label_en: "C1".into(),
                label_zh: "一".into(),
            }],
            items: 4,
            private_revealed: false,
            blind: false,
            rows,
            subset: "full".into(),
            subsets: Vec::new(),
            familiarity: Vec::new(),
            attempts: "best".into(),
            hidden_attempts: 0,
            automatic_metric: true,
            human_eval: None,
            kind: None,
            conditions: Vec::new(),
            paired: Vec::new(),
            rescorings: Vec::new(),
        };
        let d = chart_data(&board);
        assert_eq!(d.models, vec!["m6", "m5", "m4", "m3", "m2"]);
        assert_eq!(d.groups.len(), 2);
        assert_eq!(d.groups[1].key.as_deref(), Some("c1"));
        assert_eq!(d.groups[0].human_average, Some(0.7));
        assert_eq!(d.groups[1].human_best, Some(0.95));
        assert_eq!(d.groups[0].chance, Some(0.2));
        assert_eq!(d.groups[0].bars[0], Some(0.6));
    }

    #[test]
    fn long_labels_split_near_the_middle() {
        assert_eq!(split_label("slang"), ("slang".into(), None));
        assert_eq!(
            split_label("stylistic device"),
            ("stylistic".into(), Some("device".into()))
        );
        assert_eq!(y_of(1.0), TOP);
        assert_eq!(y_of(0.0), HEIGHT - BOTTOM);
    }
}
