//! The human side of an explanation board: the human-judged columns per model (% agree,
//! Core4, win rate, Bradley–Terry rating with intervals), each study's summary (raters,
//! exclusions, agreement, exposed test items) and the metric-validity panel. Shared by the
//! board page and the study page.

use crate::format;
use crate::i18n::human::{
    dimension_name, hs, human_score_name, metric_name, protocol_name, HumanStrings,
};
use crate::i18n::use_i18n;
use leptos::prelude::*;
use memeboard_core::api::BoardResponse;
use memeboard_core::human_eval::board::{AutoMetric, HumanEvalSummary, HumanJudged, ValidityPanel};
use memeboard_core::human_eval::correlation::Correlation;
use memeboard_core::stats::Estimate;

/// A share with its interval in percent: `62% [48%, 75%]`.
pub fn share(e: Option<Estimate>) -> String {
    e.map_or_else(
        || format::DASH.to_owned(),
        |e| {
            format!(
                "{} [{}, {}]",
                format::percent(e.value),
                format::percent(e.ci_low),
                format::percent(e.ci_high)
            )
        },
    )
}

/// A rating on the Elo-like scale with its interval: `1084 [1012, 1160]`.
pub fn rating(e: Option<Estimate>) -> String {
    e.map_or_else(
        || format::DASH.to_owned(),
        |e| format!("{:.0} [{:.0}, {:.0}]", e.value, e.ci_low, e.ci_high),
    )
}

/// A mean (Core4, a correlation) with its interval.
pub fn mean(e: Option<Estimate>) -> String {
    format::maybe_estimate(e.as_ref())
}

/// Which columns any model has.
#[derive(Debug, Clone, Copy)]
struct Shown {
    agree: bool,
    core4: bool,
    ranking: bool,
}

/// The human-judged columns of `rows` (label, column), in the order given.
#[component]
pub fn HumanColumns(
    /// Model label and its columns, in display order.
    rows: Vec<(String, HumanJudged)>,
) -> impl IntoView {
    let shown = Shown {
        agree: rows.iter().any(|(_, c)| c.agree.is_some()),
        core4: rows.iter().any(|(_, c)| c.core4.is_some()),
        ranking: rows.iter().any(|(_, c)| c.bt_rating.is_some()),
    };
    let body = rows
        .into_iter()
        .map(|(label, c)| {
            view! {
                <tr data-testid="human-row" data-submission=c.submission_id.clone()>
                    <th scope="row">{label}</th>
                    {shown.agree.then(|| view! {
                        <td data-testid="human-agree">{share(c.agree)}</td>
                        <td>{share(c.neutral)}</td>
                        <td>{share(c.disagree)}</td>
                    })}
                    {shown.core4.then(|| view! { <td data-testid="human-core4">{mean(c.core4)}</td> })}
                    {shown.ranking.then(|| view! {
                        <td data-testid="human-win-rate">{share(c.win_rate)}</td>
                        <td data-testid="human-bt">{rating(c.bt_rating)}</td>
                    })}
                    <td>{c.raters}</td>
                    <td>{c.judgements}</td>
                </tr>
            }
        })
        .collect_view();
    view! {
        <div class="table-wrap">
            <table class="board-table" data-testid="human-columns">
                <caption>{hs(|s| s.columns_caption)}</caption>
                <thead>
                    <tr>
                        <th scope="col">{hs(|s| s.col_model)}</th>
                        {shown.agree.then(|| view! {
                            <th scope="col">{hs(|s| s.col_agree)}</th>
                            <th scope="col">{hs(|s| s.col_neutral)}</th>
                            <th scope="col">{hs(|s| s.col_disagree)}</th>
                        })}
                        {shown.core4.then(|| view! { <th scope="col">{hs(|s| s.col_core4)}</th> })}
                        {shown.ranking.then(|| view! {
                            <th scope="col">{hs(|s| s.col_win_rate)}</th>
                            <th scope="col">{hs(|s| s.col_bt)}</th>
                        })}
                        <th scope="col">{hs(|s| s.col_raters)}</th>
                        <th scope="col">{hs(|s| s.col_judgements)}</th>
                    </tr>
                </thead>
                <tbody>{body}</tbody>
            </table>
        </div>
    }
}

/// One study's summary: raters, exclusions, κ, α per dimension, exposed test items.
#[component]
pub fn StudySummary(
    /// The study's summary.
    summary: HumanEvalSummary,
) -> impl IntoView {
    let i18n = use_i18n();
    let s = StoredValue::new(summary);
    let line = move || {
        let lang = i18n.lang();
        let t = lang.table::<HumanStrings>();
        s.with_value(|s| {
            (t.study_line)(
                &s.study,
                protocol_name(lang, s.protocol),
                s.raters,
                s.excluded_raters,
                s.judgements,
            )
        })
    };
    let kappa = move || {
        let t = i18n.table::<HumanStrings>();
        s.with_value(|s| {
            s.kappa
                .map(|k| (t.kappa_line)(k.min, k.mean, k.max, k.batches))
        })
    };
    let exposed = move || {
        let t = i18n.table::<HumanStrings>();
        s.with_value(|s| (s.exposed_test_items > 0).then(|| (t.exposed_line)(s.exposed_test_items)))
    };
    let alpha = s.with_value(|s| s.alpha.clone());
    let alpha_table = (!alpha.is_empty()).then(|| {
        let rows = alpha
            .into_iter()
            .map(|a| {
                let d = a.dimension;
                view! {
                    <tr>
                        <th scope="row">{move || dimension_name(i18n.lang(), d)}</th>
                        <td>{a.krippendorff_alpha.map_or_else(|| format::DASH.to_owned(), |v| format!("{v:.2}"))}</td>
                        <td>{a.units}</td>
                    </tr>
                }
            })
            .collect_view();
        view! {
            <table class="board-table compact" data-testid="alpha-table">
                <caption>{hs(|s| s.alpha_caption)}</caption>
                <thead>
                    <tr>
                        <th scope="col">{hs(|s| s.col_dimension)}</th>
                        <th scope="col">{hs(|s| s.col_alpha)}</th>
                        <th scope="col">{hs(|s| s.col_n)}</th>
                    </tr>
                </thead>
                <tbody>{rows}</tbody>
            </table>
        }
    });
    view! {
        <div class="stack" data-testid="study-summary">
            <p>{line}</p>
            {move || kappa().map(|k| view! { <p data-testid="kappa-summary">{k}</p> })}
            {move || exposed().map(|e| view! { <p class="notice" data-testid="exposed-items">{e}</p> })}
            {alpha_table}
        </div>
    }
}

fn correlation_cells(c: &Correlation) -> impl IntoView {
    view! {
        <td>{mean(c.kendall_tau_b)}</td>
        <td>{mean(c.spearman_rho)}</td>
        <td>{c.n}</td>
    }
}

/// The metric-validity panel of one protocol.
#[component]
pub fn Validity(
    /// One protocol's panel.
    panel: ValidityPanel,
) -> impl IntoView {
    let i18n = use_i18n();
    let human = panel.human_score;
    let caption = move || {
        let lang = i18n.lang();
        (lang.table::<HumanStrings>().validity_caption)(human_score_name(lang, human))
    };
    let has_rescaled = panel
        .metrics
        .iter()
        .any(|m| m.metric == AutoMetric::Rescaled);
    let rows = panel
        .metrics
        .into_iter()
        .map(|m| {
            let metric = m.metric;
            let name = move || metric_name(i18n.lang(), metric);
            view! {
                <tr data-testid="validity-row">
                    <th scope="row" rowspan="2">{name}</th>
                    <td>{hs(|s| s.level_system)}</td>
                    {correlation_cells(&m.validity.system)}
                </tr>
                <tr>
                    <td>{hs(|s| s.level_segment)}</td>
                    {correlation_cells(&m.validity.segment)}
                </tr>
            }
        })
        .collect_view();
    view! {
        <div class="table-wrap">
            <table class="board-table" data-testid="validity-table">
                <caption>{caption}</caption>
                <thead>
                    <tr>
                        <th scope="col">{hs(|s| s.col_metric)}</th>
                        <th scope="col">{hs(|s| s.col_level)}</th>
                        <th scope="col">{hs(|s| s.col_tau)}</th>
                        <th scope="col">{hs(|s| s.col_rho)}</th>
                        <th scope="col">{hs(|s| s.col_n)}</th>
                    </tr>
                </thead>
                <tbody>{rows}</tbody>
            </table>
        </div>
        {has_rescaled.then(|| view! { <p class="muted small">{hs(|s| s.rescaled_note)}</p> })}
    }
}

/// The board's human-evaluation section (nothing when no study has judgements).
#[component]
pub fn BoardHumanSection(
    /// The board.
    board: BoardResponse,
) -> impl IntoView {
    let Some(human) = board.human_eval.clone() else {
        return ().into_any();
    };
    // Model rows in board order, each with its columns.
    let rows: Vec<(String, HumanJudged)> = board
        .rows
        .iter()
        .filter_map(|r| {
            let id = r.submission_id.as_ref()?;
            let c = human.columns.iter().find(|c| &c.submission_id == id)?;
            Some((r.label.clone(), c.clone()))
        })
        .collect();
    let studies = human
        .studies
        .into_iter()
        .map(|s| view! { <StudySummary summary=s /> })
        .collect_view();
    let validity = (!human.validity.is_empty()).then(|| {
        let panels = human
            .validity
            .into_iter()
            .map(|p| view! { <Validity panel=p /> })
            .collect_view();
        view! {
            <section class="chart-section" data-testid="validity-panel">
                <h2>{hs(|s| s.validity_title)}</h2>
                <p class="muted small">{hs(|s| s.validity_intro)}</p>
                {panels}
            </section>
        }
    });
    view! {
        <section class="chart-section" data-testid="human-eval">
            <h2>{hs(|s| s.board_title)}</h2>
            <p class="muted small">{hs(|s| s.board_intro)}</p>
            <HumanColumns rows=rows />
            <h3>{hs(|s| s.studies_title)}</h3>
            {studies}
        </section>
        {validity}
    }
    .into_any()
}
