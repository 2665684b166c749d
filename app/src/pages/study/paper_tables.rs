//! The study page's tables in the papers' own shapes: CHIME Table 3 (model × field), Table 11
//! (Fleiss' κ per batch) and Table 12 (model × meme type, meaning); CMPM's dimension means per
//! model (Table 7's measures) and per annotator (Table 7 itself), its rankings (pairwise record,
//! win rate, Bradley–Terry strength and rating), the pairwise win matrix and Table 8 (context
//! ablation). Each is a `<table>` with a caption and a `data-testid` (`study-table-3`, `-11`,
//! `-12`, `-dimensions`, `-per-rater`, `-ranking`, `-win-matrix`, `cmpm-table-8`); the shaping
//! is in `paper_shape` and `cmpm_shape`.

use super::cmpm_shape;
use super::paper_shape::{self as shape, ModelRow, Shares};
use crate::i18n::human::{dimension_name, field_name, hs, HumanStrings};
use crate::i18n::{category_label, use_i18n};
use leptos::prelude::*;
use memeboard_core::human_eval::accuracy::{BatchAgreement, ExplanationField};
use memeboard_core::human_eval::board::HumanTables;
use memeboard_core::human_eval::cmpm_tables::CmpmTables;
use memeboard_core::human_eval::context_ablation::ContextAblation;
use memeboard_core::human_eval::dimensions::Dimension;
use memeboard_core::stats::Estimate;

/// A figure with its interval beneath (`paper` table style), or a dash.
fn figure(cell: Option<(String, String)>) -> AnyView {
    match cell {
        Some((value, ci)) => view! { {value} " " <span class="ci">{ci}</span> }.into_any(),
        None => view! { <span class="muted">{crate::format::DASH}</span> }.into_any(),
    }
}

/// The agree, neutral and disagree cells of one group.
fn share_cells(cell: Option<Shares>) -> impl IntoView {
    let pick = move |f: fn(&Shares) -> Estimate| figure(cell.map(|s| shape::percent_cell(&f(&s))));
    view! {
        <td class="num">{pick(|s| s.agree)}</td>
        <td class="num">{pick(|s| s.neutral)}</td>
        <td class="num">{pick(|s| s.disagree)}</td>
    }
}

/// A table in the paper style, scrolling sideways when wide.
fn wrap(
    testid: &'static str,
    caption: fn(&'static HumanStrings) -> &'static str,
    head: impl IntoView,
    body: impl IntoView,
) -> impl IntoView {
    view! {
        <div class="paper-table">
            // Keyboard users can scroll a wide table: the region takes focus and is named.
            <div class="table-scroll" role="region" tabindex="0" aria-label=hs(caption)>
                <table class="paper" data-testid=testid>
                    <caption>{hs(caption)}</caption>
                    <thead>{head}</thead>
                    <tbody>{body}</tbody>
                </table>
            </div>
        </div>
    }
}

/// The two header rows of an accuracy table: the model, then per group its name over
/// agree / neutral / disagree.
fn share_head(groups: Vec<Box<dyn Fn() -> String + Send + Sync>>) -> impl IntoView {
    let n = groups.len();
    let names = groups
        .into_iter()
        .map(|name| view! { <th scope="colgroup" colspan="3">{name}</th> })
        .collect_view();
    let sub = (0..n)
        .map(|_| {
            view! {
                <th scope="col" class="num">{hs(|s| s.col_agree)}</th>
                <th scope="col" class="num">{hs(|s| s.col_neutral)}</th>
                <th scope="col" class="num">{hs(|s| s.col_disagree)}</th>
            }
        })
        .collect_view();
    view! {
        <tr>
            <th scope="col" rowspan="2">{hs(|s| s.col_model)}</th>
            {names}
        </tr>
        <tr>{sub}</tr>
    }
}

/// The body of an accuracy table: one row per model, three cells per group.
fn share_body(rows: Vec<ModelRow<Shares>>) -> impl IntoView {
    rows.into_iter()
        .map(|r| {
            view! {
                <tr data-testid="study-table-row" data-submission=r.submission>
                    <th scope="row">{r.label}</th>
                    {r.cells.into_iter().map(share_cells).collect_view()}
                </tr>
            }
        })
        .collect_view()
}

/// CHIME Table 3: per model, the shares on the meaning, origin and example.
fn table_3(rows: Vec<ModelRow<Shares>>) -> impl IntoView {
    let i18n = use_i18n();
    let groups = shape::FIELDS
        .iter()
        .map(|&f| {
            Box::new(move || field_name(i18n.lang(), f).to_owned())
                as Box<dyn Fn() -> String + Send + Sync>
        })
        .collect();
    wrap(
        "study-table-3",
        |s| s.table3_caption,
        share_head(groups),
        share_body(rows),
    )
}

/// CHIME Table 12: per model, the shares on the meaning per meme type.
fn table_12(types: Vec<String>, rows: Vec<ModelRow<Shares>>) -> impl IntoView {
    let i18n = use_i18n();
    let groups = types
        .into_iter()
        .map(|t| {
            Box::new(move || category_label(i18n.lang(), &t, &[]))
                as Box<dyn Fn() -> String + Send + Sync>
        })
        .collect();
    wrap(
        "study-table-12",
        |s| s.table12_caption,
        share_head(groups),
        share_body(rows),
    )
}

/// CHIME Table 11: Fleiss' κ per batch (with its raters and subjects).
#[component]
pub fn KappaTable(
    /// The summary's batches.
    batches: Vec<BatchAgreement>,
) -> impl IntoView {
    (!batches.is_empty()).then(|| {
        let head = view! {
            <tr>
                <th scope="col">{hs(|s| s.col_batch)}</th>
                <th scope="col" class="num">{hs(|s| s.col_raters)}</th>
                <th scope="col" class="num">{hs(|s| s.col_subjects)}</th>
                <th scope="col" class="num">{hs(|s| s.col_kappa)}</th>
            </tr>
        };
        let body = batches
            .into_iter()
            .map(|b| {
                let kappa = shape::kappa(&b);
                view! {
                    <tr data-testid="study-table-row">
                        <th scope="row">{b.batch}</th>
                        <td class="num">{b.raters}</td>
                        <td class="num">{b.subjects}</td>
                        <td class="num" data-testid="batch-kappa">{kappa}</td>
                    </tr>
                }
            })
            .collect_view();
        wrap("study-table-11", |s| s.table11_caption, head, body)
    })
}

/// The header row of the CMPM dimension tables: `first` (model, annotator), the five
/// dimensions, Core4.
fn dimension_head(first: fn(&'static HumanStrings) -> &'static str) -> impl IntoView {
    let i18n = use_i18n();
    view! {
        <tr>
            <th scope="col">{hs(first)}</th>
            {Dimension::ALL
                .into_iter()
                .map(|d| view! { <th scope="col" class="num">{move || dimension_name(i18n.lang(), d)}</th> })
                .collect_view()}
            <th scope="col" class="num">{hs(|s| s.col_core4)}</th>
        </tr>
    }
}

/// CMPM: per model, each dimension's mean and Core4.
fn dimensions_table(rows: Vec<ModelRow<Estimate>>) -> impl IntoView {
    let head = dimension_head(|s| s.col_model);
    let body = rows
        .into_iter()
        .map(|r| {
            view! {
                <tr data-testid="study-table-row" data-submission=r.submission>
                    <th scope="row">{r.label}</th>
                    {r.cells
                        .into_iter()
                        .map(|c| view! { <td class="num">{figure(c.as_ref().map(shape::mean_cell))}</td> })
                        .collect_view()}
                </tr>
            }
        })
        .collect_view();
    wrap(
        "study-table-dimensions",
        |s| s.dimensions_caption,
        head,
        body,
    )
}

/// CMPM rankings: per model, wins / ties / losses, win rate, Bradley–Terry strength and rating.
fn ranking_table(rows: Vec<shape::RankingRow>) -> impl IntoView {
    let head = view! {
        <tr>
            <th scope="col">{hs(|s| s.col_model)}</th>
            <th scope="col" class="num">{hs(|s| s.col_comparisons)}</th>
            <th scope="col" class="num">{hs(|s| s.col_wins)}</th>
            <th scope="col" class="num">{hs(|s| s.col_ties)}</th>
            <th scope="col" class="num">{hs(|s| s.col_losses)}</th>
            <th scope="col" class="num">{hs(|s| s.col_win_rate)}</th>
            <th scope="col" class="num">{hs(|s| s.col_strength)}</th>
            <th scope="col" class="num">{hs(|s| s.col_bt)}</th>
        </tr>
    };
    let count =
        |n: Option<usize>| n.map_or_else(|| crate::format::DASH.to_owned(), |n| n.to_string());
    let body = rows
        .into_iter()
        .map(|r| {
            let w = r.record.as_ref();
            let comparisons = w.map(|w| w.comparisons).or(r.bt.as_ref().map(|b| b.comparisons));
            view! {
                <tr data-testid="study-table-row" data-submission=r.submission.clone()>
                    <th scope="row">{r.label.clone()}</th>
                    <td class="num">{count(comparisons)}</td>
                    <td class="num">{count(w.map(|w| w.wins))}</td>
                    <td class="num">{count(w.map(|w| w.ties))}</td>
                    <td class="num">{count(w.map(|w| w.losses))}</td>
                    <td class="num">{figure(w.map(|w| shape::percent_cell(&w.win_rate)))}</td>
                    <td class="num">
                        {r.bt.as_ref().map_or_else(|| crate::format::DASH.to_owned(), |b| shape::strength(b.log_strength))}
                    </td>
                    <td class="num">{figure(r.bt.as_ref().map(|b| shape::rating_cell(&b.rating)))}</td>
                </tr>
            }
        })
        .collect_view();
    wrap("study-table-ranking", |s| s.ranking_caption, head, body)
}

/// CMPM Table 7 per annotator: per rater, each dimension's mean and Core4, each with its n;
/// a rater the reliability thresholds leave out is marked.
fn per_rater_table(rows: Vec<cmpm_shape::RaterLine>) -> impl IntoView {
    let head = dimension_head(|s| s.col_annotator);
    let body = rows
        .into_iter()
        .map(|r| {
            let mark = r.excluded.then(|| {
                view! { " " <span class="muted small" data-testid="threshold-mark">{hs(|s| s.threshold_mark)}</span> }
            });
            let (rater, excluded) = (r.rater.clone(), r.excluded.to_string());
            view! {
                <tr data-testid="study-table-row" data-rater=rater data-excluded=excluded>
                    <th scope="row"><code>{r.rater}</code>{mark}</th>
                    {r.cells
                        .into_iter()
                        .map(|c| view! { <td class="num">{figure(Some((c.mean, c.n)))}</td> })
                        .collect_view()}
                </tr>
            }
        })
        .collect_view();
    wrap("study-table-per-rater", |s| s.per_rater_caption, head, body)
}

/// The rankings' pairwise win matrix: model × model, the row's win rate against the column's
/// with its record beneath, the diagonal empty.
fn win_matrix_table(labels: Vec<String>, rows: Vec<cmpm_shape::MatrixLine>) -> impl IntoView {
    let head = view! {
        <tr>
            <th scope="col">{hs(|s| s.col_row_model)}</th>
            {labels.into_iter().map(|l| view! { <th scope="col" class="num">{l}</th> }).collect_view()}
        </tr>
    };
    let body = rows
        .into_iter()
        .map(|r| {
            let cells = r
                .cells
                .into_iter()
                .map(|c| match c {
                    cmpm_shape::PairCell::Diagonal => {
                        view! { <td class="num" data-testid="matrix-diagonal"></td> }.into_any()
                    }
                    cmpm_shape::PairCell::NotCompared => {
                        view! { <td class="num">{figure(None)}</td> }.into_any()
                    }
                    cmpm_shape::PairCell::Rate { rate, record } => {
                        view! { <td class="num">{figure(Some((rate, record)))}</td> }.into_any()
                    }
                })
                .collect_view();
            view! {
                <tr data-testid="study-table-row" data-submission=r.submission>
                    <th scope="row">{r.label}</th>
                    {cells}
                </tr>
            }
        })
        .collect_view();
    wrap(
        "study-table-win-matrix",
        |s| s.win_matrix_caption,
        head,
        body,
    )
}

/// CMPM Table 8: per model, mean Core4 with the comic's context and from the image only on the
/// matched comics (ratings beneath), Δ with its interval beneath; the Overall row; then how
/// many comics context helps, hurts or barely moves.
fn context_table(t: &ContextAblation) -> impl IntoView {
    let (rows, overall) = cmpm_shape::context_table(t);
    let e = t.effects;
    let comics = t.overall.comics;
    let i18n = use_i18n();
    let line = move || {
        (i18n.table::<HumanStrings>().context_effects_line)(
            comics,
            e.helps,
            e.hurts,
            e.small_or_mixed,
        )
    };
    let head = view! {
        <tr>
            <th scope="col">{hs(|s| s.col_model)}</th>
            <th scope="col" class="num">{hs(|s| s.col_full_context)}</th>
            <th scope="col" class="num">{hs(|s| s.col_image_only)}</th>
            <th scope="col" class="num">{hs(|s| s.col_delta)}</th>
        </tr>
    };
    let row = |r: cmpm_shape::ContextLine, overall: bool| {
        let label = if overall {
            view! { {hs(|s| s.row_overall)} }.into_any()
        } else {
            view! { {r.label.clone()} }.into_any()
        };
        view! {
            <tr data-testid="study-table-row" data-overall=overall.to_string()>
                <th scope="row">{label}</th>
                <td class="num">{figure(Some((r.full.mean, r.full.n)))}</td>
                <td class="num">{figure(Some((r.image_only.mean, r.image_only.n)))}</td>
                <td class="num">{figure(Some(r.delta))}</td>
            </tr>
        }
    };
    let body = view! {
        {rows.into_iter().map(|r| row(r, false)).collect_view()}
        {row(overall, true)}
    };
    view! {
        {wrap("cmpm-table-8", |s| s.table8_caption, head, body)}
        <p class="muted small" data-testid="context-effects">{line}</p>
    }
}

/// The papers' tables of a study's results (nothing when no model has a judgement): CHIME's
/// Tables 3 and 12 for accuracy studies, the dimension and ranking tables for CMPM.
#[component]
pub fn PaperTables(
    /// The study's computed tables.
    tables: HumanTables,
    /// CMPM Table 7 per annotator, the win matrix and Table 8.
    cmpm: CmpmTables,
    /// The judged models, `(submission id, label)`, in the page's order.
    models: Vec<(String, String)>,
) -> impl IntoView {
    let fields = shape::by_field(&tables.accuracy, &models);
    let (types, by_type) = shape::by_category(&tables.accuracy, &models, ExplanationField::Meaning);
    let dimensions = shape::by_dimension(&tables.dimensions, &models);
    let ranking = shape::by_ranking(&tables.win_rates, &tables.bradley_terry, &models);
    let per_rater = cmpm_shape::per_rater(&cmpm.per_rater);
    let (matrix_labels, matrix) = cmpm
        .win_matrix
        .as_ref()
        .map(|m| cmpm_shape::matrix(m, &models))
        .unwrap_or_default();
    let ablation = cmpm.context_ablation.clone();
    let any = !(fields.is_empty()
        && by_type.is_empty()
        && dimensions.is_empty()
        && ranking.is_empty()
        && per_rater.is_empty()
        && matrix.is_empty()
        && ablation.is_none());
    any.then(|| {
        view! {
            <div class="stack" data-testid="study-paper-tables">
                <h3>{hs(|s| s.paper_title)}</h3>
                <p class="muted small">{hs(|s| s.paper_intro)}</p>
                {(!fields.is_empty()).then(|| table_3(fields))}
                {(!by_type.is_empty()).then(|| table_12(types, by_type))}
                {(!dimensions.is_empty()).then(|| dimensions_table(dimensions))}
                {(!per_rater.is_empty()).then(|| per_rater_table(per_rater))}
                {(!ranking.is_empty()).then(|| ranking_table(ranking))}
                {(!matrix.is_empty()).then(|| win_matrix_table(matrix_labels, matrix))}
                {ablation.as_ref().map(context_table)}
            </div>
        }
    })
}
