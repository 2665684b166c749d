//! `/models/{id}`: a model page. What the submission says about the model (all user text
//! rendered as plain text; the link only when it is http/https), its file, its public and
//! (once revealed) private scores, and for the author a "Withdraw" button (inline
//! confirmation) and the items the model missed that most people got right.

use crate::api;
use crate::components::score::{status_text, weights_text, ScoreTable};
use crate::components::sentence::Sentence;
use crate::components::status::{page_error_fallback, Loading};
use crate::components::title::use_page_title;
use crate::components::withdraw::WithdrawButton;
use crate::format::{self, DASH};
use crate::i18n::board::{btr, BoardStrings};
use crate::i18n::{category_label, use_i18n};
use crate::storage;
use leptos::prelude::*;
use leptos_router::hooks::use_params_map;
use memeboard_core::api::{ItemGap, SubmissionDetail, SubmissionStatus};
use memeboard_core::tasks::CategoryInfo;

/// The model page.
#[component]
pub fn ModelPage() -> impl IntoView {
    let params = use_params_map();
    let id = move || params.read().get("id").unwrap_or_default();
    let detail = LocalResource::new(move || {
        let id = id();
        async move { api::submission(&id).await }
    });
    view! {
        <Suspense fallback=|| view! { <Loading /> }>
            <ErrorBoundary fallback=page_error_fallback>
                {move || Suspend::new(async move {
                    detail.await.map(|d| view! { <ModelView detail=d /> })
                })}
            </ErrorBoundary>
        </Suspense>
    }
}

/// A loaded model page.
#[component]
fn ModelView(detail: SubmissionDetail) -> impl IntoView {
    let i18n = use_i18n();
    let SubmissionDetail {
        submission_id,
        task,
        kind: detail_kind,
        model,
        submitted_at,
        status,
        lines,
        missing_items,
        categories,
        public_scores,
        private_scores,
        ..
    } = detail;
    let page_title = model.model_name.clone();
    use_page_title(move |lang| (lang.table::<BoardStrings>().model_page_title)(&page_title));
    let link_view = match model.link.clone() {
        Some(l) if format::is_web_link(&l) => {
            let text = l.clone();
            view! {
                <a href=l rel="nofollow noopener noreferrer" data-testid="model-link-out">
                    {text}
                </a>
            }
            .into_any()
        }
        Some(l) if !l.trim().is_empty() => view! { <span>{l}</span> }.into_any(),
        _ => view! { <span>{DASH}</span> }.into_any(),
    };
    let board_href = format!("/boards/{}", api::encode_component(&task));
    let organisation = Some(model.organisation.clone())
        .filter(|o| !o.trim().is_empty())
        .unwrap_or_else(|| DASH.to_owned());
    let parameters = model.parameters.clone().unwrap_or_else(|| DASH.to_owned());
    let weights = model.weights;
    let description = model.description.clone();
    // How the model was run, worded by the task's kind.
    let conditions = model.conditions.clone();
    let task_kind = detail_kind;
    let conditions_view = (!conditions.is_empty()).then(|| {
        let text = move || crate::kinds::conditions_text(i18n.lang(), task_kind, &conditions);
        view! {
            <dt>{btr(|t| t.conditions_label)}</dt>
            <dd data-testid="model-conditions">{text}</dd>
        }
    });
    let has_public = !public_scores.is_empty();
    let has_private = !private_scores.is_empty();
    let public_view = if has_public {
        view! {
            <ScoreTable
                scores=public_scores
                categories=categories.clone()
                testid="model-public-scores"
            />
        }
        .into_any()
    } else if status == SubmissionStatus::Unscored {
        view! { <p class="notice info">{btr(|t| t.unscored_note)}</p> }.into_any()
    } else {
        view! { <p class="notice info">{btr(|t| t.scores_hidden)}</p> }.into_any()
    };
    let private_view = has_private.then(|| {
        view! {
            <h2>{btr(|t| t.board_private)}</h2>
            <ScoreTable
                scores=private_scores
                categories=categories.clone()
                testid="model-private-scores"
            />
        }
    });
    let token = storage::token();
    view! {
        <section class="intro" data-testid="model-page">
            <h1 data-testid="model-name">{model.model_name.clone()}</h1>
            <p class="muted">
                {btr(|t| t.model_task)} ": " <a href=board_href.clone()>{task.clone()}</a>
            </p>
        </section>
        <section class="card">
            <dl class="review-grid model-facts">
                <dt>{btr(|t| t.organisation_label)}</dt>
                <dd>{organisation}</dd>
                <dt>{btr(|t| t.col_params)}</dt>
                <dd>{parameters}</dd>
                <dt>{btr(|t| t.col_weights)}</dt>
                <dd>{move || weights_text(i18n.lang(), weights)}</dd>
                {conditions_view}
                <dt>{btr(|t| t.model_link)}</dt>
                <dd>{link_view}</dd>
                <dt>{btr(|t| t.col_submitted)}</dt>
                <dd>{format::date(submitted_at)}</dd>
                <dt>{btr(|t| t.status_label)}</dt>
                <dd>{move || status_text(i18n.lang(), status)}</dd>
                <dt>{btr(|t| t.model_lines)}</dt>
                <dd>{lines.to_string()}</dd>
                <dt>{btr(|t| t.model_missing)}</dt>
                <dd data-testid="model-missing">{missing_items.to_string()}</dd>
            </dl>
            {(!description.trim().is_empty())
                .then(|| {
                    view! {
                        <h2 class="small-heading">{btr(|t| t.description_label)}</h2>
                        <p class="description" data-testid="model-description">
                            {description.clone()}
                        </p>
                    }
                })}
        </section>
        <h2>{btr(|t| t.board_public)}</h2>
        {public_view}
        {private_view}
        {token
            .map(|token| {
                view! {
                    <OwnerWithdraw submission_id=submission_id.clone() token=token.clone() />
                    <OwnerGaps submission_id=submission_id.clone() token=token categories=categories />
                }
            })}
        <p>
            <a href=format!("/boards/{}", api::encode_component(&task))>
                {btr(|t| t.see_board)}
            </a>
        </p>
    }
}

/// The author's "Withdraw" button, shown only when the stored token's author owns the
/// submission (checked through `/api/me`).
#[component]
fn OwnerWithdraw(submission_id: String, token: String) -> impl IntoView {
    let ids = StoredValue::new((submission_id, token));
    let owns = LocalResource::new(move || {
        let (id, token) = ids.get_value();
        async move {
            api::me(&token)
                .await
                .is_ok_and(|me| me.submissions.iter().any(|s| s.submission_id == id))
        }
    });
    let withdrawn = RwSignal::new(false);
    view! {
        <Suspense fallback=|| ()>
            {move || Suspend::new(async move {
                let (id, token) = ids.get_value();
                owns.await
                    .then(|| {
                        view! {
                            <section class="card owner-actions" data-testid="owner-actions">
                                <WithdrawButton submission_id=id token=token withdrawn=withdrawn />
                            </section>
                        }
                    })
            })}
        </Suspense>
    }
}

/// The per-item gap table, shown only when the stored token's author owns the submission
/// (checked through `/api/me` first, so other visitors cause no failed request).
#[component]
fn OwnerGaps(submission_id: String, token: String, categories: Vec<CategoryInfo>) -> impl IntoView {
    let gaps = LocalResource::new(move || {
        let (id, token) = (submission_id.clone(), token.clone());
        async move {
            let me = api::me(&token).await.ok()?;
            if !me.submissions.iter().any(|s| s.submission_id == id) {
                return None;
            }
            Some(api::item_gaps(&id, &token).await)
        }
    });
    let categories = StoredValue::new(categories);
    view! {
        <Suspense fallback=|| ()>
            {move || Suspend::new(async move {
                match gaps.await {
                    None => ().into_any(),
                    Some(Err(e)) => {
                        view! {
                            <p class="notice error" role="alert" data-testid="item-gaps-error">
                                {e.to_string()}
                            </p>
                        }
                            .into_any()
                    }
                    Some(Ok(list)) => view! { <GapTable gaps=list categories=categories /> }.into_any(),
                }
            })}
        </Suspense>
    }
}

/// Items the model got wrong that most people got right.
#[component]
fn GapTable(gaps: Vec<ItemGap>, categories: StoredValue<Vec<CategoryInfo>>) -> impl IntoView {
    let i18n = use_i18n();
    let empty = gaps.is_empty();
    let rows = gaps
        .into_iter()
        .map(|g| {
            let key = g.category.clone();
            let category = move || categories.with_value(|c| category_label(i18n.lang(), &key, c));
            view! {
                <tr data-testid="item-gap" data-item-id=g.item_id.clone()>
                    <th scope="row" data-label=btr(|t| t.col_question)>
                        <Sentence text=g.sentence.clone() />
                    </th>
                    <td data-label=btr(|t| t.col_category)>
                        <span class="val">{category}</span>
                    </td>
                    <td data-label=btr(|t| t.col_crowd_score)>
                        <span class="val">
                            {format!("{} (n = {})", format::accuracy(g.crowd_accuracy), g.crowd_answers)}
                        </span>
                    </td>
                    <td data-label=btr(|t| t.col_model_score)>
                        <span class="val">{format::accuracy(g.model_score)}</span>
                    </td>
                </tr>
            }
        })
        .collect_view();
    view! {
        <section class="gaps" data-testid="item-gaps">
            <h2>{btr(|t| t.gaps_title)}</h2>
            <p class="muted small">{btr(|t| t.gaps_note)}</p>
            {if empty {
                view! { <p class="empty">{btr(|t| t.no_gaps)}</p> }.into_any()
            } else {
                view! {
                    <div class="table-wrap">
                        <table class="compare gap-table">
                            <thead>
                                <tr>
                                    <th scope="col">{btr(|t| t.col_question)}</th>
                                    <th scope="col">{btr(|t| t.col_category)}</th>
                                    <th scope="col">{btr(|t| t.col_crowd_score)}</th>
                                    <th scope="col">{btr(|t| t.col_model_score)}</th>
                                </tr>
                            </thead>
                            <tbody>{rows}</tbody>
                        </table>
                    </div>
                }
                    .into_any()
            }}
        </section>
    }
}
