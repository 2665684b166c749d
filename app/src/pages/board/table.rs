//! The board table: sortable column headers and one row per model, human or baseline.

use super::conditions::RunConditions;
use super::filters::Filters;
use super::sort::{model_ranks, sorted_indices, SortDir, SortKey};
use super::sort_select::SortSelect;
use crate::api;
use crate::components::score::{
    all_suppressed, category_estimate_view, kind_key, kind_text, row_label, weights_text,
};
use crate::format::{self, DASH};
use crate::i18n::board::{btr, BoardStrings};
use crate::i18n::fieldwork::FieldworkStrings;
use crate::i18n::{category_label, use_i18n, Lang};
use leptos::prelude::*;
use memeboard_core::api::{BoardResponse, BoardRow, RowGroup, RowKind, SubmissionStatus};

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
    categories: &[(usize, String)],
    conditions: &RunConditions,
    lang: Lang,
) -> impl IntoView {
    let t = lang.table::<BoardStrings>();
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
                (lang.table::<FieldworkStrings>().before_exclusions)(b)
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
    // How the model was run, where it differs from the defaults.
    let run = row
        .model
        .as_ref()
        .and_then(|m| conditions.row_text(lang, m))
        .map(|text| view! { <span class="sub" data-testid="row-conditions">{text}</span> });
    // A paper's row: where its figures were published.
    let source = row
        .source
        .clone()
        .map(|text| view! { <span class="sub" data-testid="row-source">{text}</span> });
    // Warnings the server attached to a model row (e.g. its answers copy the prompt).
    let flags = row
        .flags
        .iter()
        .map(|f| {
            let text = match f.as_str() {
                "copies_prompt" => t.flag_copies_prompt.to_owned(),
                "filler" => t.flag_filler.to_owned(),
                other => other.to_owned(),
            };
            view! { <span class="badge warning" data-testid="row-flag" data-flag=f.clone()>{text}</span> }
        })
        .collect_view();
    // A model's facts (a paper's row has none: its name and conditions are in the label).
    let model = row.model.as_ref().filter(|_| row.kind == RowKind::Model);
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
        .map(|(i, name)| {
            view! {
                <td class="score-cell category" data-label=name.clone()>
                    {score(*i)}
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
                {run}
                {source}
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

/// The sortable table of a loaded board: the column headers (fixed columns, then one per
/// category that has a figure to show) and the rows `filters` keeps, in the order the user
/// picked; below it, one line naming the categories left out for too few items.
pub(super) fn board_table(
    board: &BoardResponse,
    rows: StoredValue<Vec<BoardRow>>,
    filters: Memo<Filters>,
    conditions: RunConditions,
) -> impl IntoView {
    let conditions = StoredValue::new(conditions);
    let i18n = use_i18n();
    let sort = RwSignal::new((SortKey::Rank, SortDir::Ascending));
    let ranks = StoredValue::new(model_ranks(&board.rows));
    let categories = StoredValue::new(board.categories.clone());
    // Score index (1 = the first category) of each category column shown.
    let (shown, dropped): (Vec<usize>, Vec<usize>) =
        (1..=board.categories.len()).partition(|&i| !all_suppressed(&board.rows, i));
    let shown = StoredValue::new(shown);
    let dropped_note = (!dropped.is_empty()).then(|| {
        let keys: Vec<String> = dropped
            .iter()
            .map(|&i| board.categories[i - 1].key.clone())
            .collect();
        move || {
            let lang = i18n.lang();
            let names = categories.with_value(|cats| {
                keys.iter()
                    .map(|k| category_label(lang, k, cats))
                    .collect::<Vec<_>>()
                    .join(", ")
            });
            view! {
                <p class="note muted small" data-testid="dropped-categories">
                    {(lang.table::<BoardStrings>().categories_too_small)(&names)}
                </p>
            }
        }
    });

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
    let category_headers = shown
        .get_value()
        .into_iter()
        .map(|i| {
            let c = &board.categories[i - 1];
            let key = c.key.clone();
            sort_header(
                sort,
                SortKey::Score(i),
                format!("cat-{}", c.key),
                move || categories.with_value(|cats| category_label(i18n.lang(), &key, cats)),
                "score-cell category",
            )
        })
        .collect_view();

    let body = move || {
        let (key, dir) = sort.get();
        let lang = i18n.lang();
        let names: Vec<(usize, String)> = categories.with_value(|cats| {
            shown.with_value(|shown| {
                shown
                    .iter()
                    .map(|&i| (i, category_label(lang, &cats[i - 1].key, cats)))
                    .collect()
            })
        });
        filters.with(|f| {
            rows.with_value(|rows| {
                ranks.with_value(|ranks| {
                    sorted_indices(rows, key, dir)
                        .into_iter()
                        .filter(|&i| f.keeps(&rows[i]))
                        .map(|i| {
                            conditions.with_value(|c| row_view(&rows[i], ranks[i], &names, c, lang))
                        })
                        .collect_view()
                })
            })
        })
    };
    view! {
        <SortSelect sort=sort categories=categories shown=shown />
        <div
            class="board-scroll"
            role="region"
            tabindex="0"
            aria-label=btr(|t| t.board_table_label)
        >
            <table class="board" data-testid="board-table">
                <thead>
                    <tr>
                        {text_header(SortKey::Rank, "rank", |l| l.table::<BoardStrings>().col_rank, "sticky-rank")}
                        {text_header(SortKey::Label, "label", |l| l.table::<BoardStrings>().col_model, "sticky-label")}
                        {sort_header(
                            sort,
                            SortKey::Score(0),
                            "overall".to_owned(),
                            move || i18n.bt().overall.to_owned(),
                            "score-cell overall sticky-overall",
                        )}
                        {text_header(SortKey::Kind, "kind", |l| l.table::<BoardStrings>().col_kind, "")}
                        {text_header(
                            SortKey::Organisation,
                            "organisation",
                            |l| l.table::<BoardStrings>().col_organisation,
                            "",
                        )}
                        {text_header(SortKey::Parameters, "parameters", |l| l.table::<BoardStrings>().col_params, "")}
                        {text_header(SortKey::Weights, "weights", |l| l.table::<BoardStrings>().col_weights, "")}
                        {text_header(
                            SortKey::Submitted,
                            "submitted",
                            |l| l.table::<BoardStrings>().col_submitted,
                            "",
                        )}
                        {category_headers}
                    </tr>
                </thead>
                <tbody>{body}</tbody>
            </table>
        </div>
        {dropped_note}
    }
}
