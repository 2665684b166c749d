//! `/session/{id}/results`: your score beside the crowd baseline, the completion code, and a
//! per-item review with the correct answers (score wording and review cards come from each
//! kind, see [`crate::kinds`]).

use crate::api::{self, ApiError};
use crate::components::score::reference_row_text;
use crate::components::status::{error_fallback, Loading};
use crate::components::title::use_page_title;
use crate::format::{self, DASH};
use crate::i18n::tr;
use crate::i18n::{category_label, use_i18n, Lang, Strings};
use crate::kinds;
use leptos::prelude::*;
use memeboard_core::api::{CategoryScore, CrowdRow, ResultsResponse, ScoreScale};
use memeboard_core::crowd::AgreementRow;
use memeboard_core::stats::Estimate;
use memeboard_core::tasks::CategoryInfo;

/// The results page.
#[component]
pub fn ResultsPage() -> impl IntoView {
    let params = use_params_map_id();
    use_page_title(|lang| lang.table::<Strings>().results_title.to_owned());
    let data = LocalResource::new(move || {
        let id = params();
        async move {
            let results = api::get_results(&id).await?;
            // Labels only: the page still works if this call fails.
            let categories = api::get_quiz(&results.quiz_slug, "")
                .await
                .map(|q| q.categories)
                .unwrap_or_default();
            Ok::<_, ApiError>((results, categories))
        }
    });
    view! {
        <Suspense fallback=|| view! { <Loading /> }>
            <ErrorBoundary fallback=error_fallback>
                {move || {
                    let id = params();
                    Suspend::new(async move {
                        match data.await {
                            Ok((results, categories)) => {
                                Ok(
                                    view! { <ResultsView results=results categories=categories /> }
                                        .into_any(),
                                )
                            }
                            Err(e @ ApiError::Server { status: 409, .. }) => {
                                Ok(view! { <NotReady session_id=id detail=e /> }.into_any())
                            }
                            Err(e) => Err(e),
                        }
                    })
                }}
            </ErrorBoundary>
        </Suspense>
    }
}

/// The `id` route parameter as a reactive getter.
fn use_params_map_id() -> impl Fn() -> String + Copy + Send + Sync + 'static {
    let params = leptos_router::hooks::use_params_map();
    move || params.read().get("id").unwrap_or_default()
}

/// Shown on 409: the batch is not finished yet.
#[component]
fn NotReady(session_id: String, detail: ApiError) -> impl IntoView {
    let i18n = use_i18n();
    view! {
        <section class="card" data-testid="results-not-ready">
            <h1>{move || i18n.t().results_not_ready}</h1>
            // The server's words, written again on a language switch.
            <p>{move || { i18n.lang(); detail.to_string() }}</p>
            <div class="actions">
                <a class="button primary" href=format!("/session/{session_id}")>
                    {move || i18n.t().continue_quiz}
                </a>
            </div>
        </section>
    }
}

/// The label of a row's category (`None` = overall).
fn row_label(lang: Lang, key: Option<&str>, categories: &[CategoryInfo]) -> String {
    match key {
        None => lang.table::<Strings>().overall.to_owned(),
        Some(k) => category_label(lang, k, categories),
    }
}

/// "0.700 (7/10)" for right/wrong scores, "0.612 (n = 6)" for scores without a "correct".
fn your_cell(score: Option<&CategoryScore>) -> String {
    score
        .map(|s| match s.correct {
            Some(correct) => format!("{} ({correct}/{})", format::accuracy(s.mean), s.answered),
            None => format!("{} (n = {})", format::accuracy(s.mean), s.answered),
        })
        .unwrap_or_else(|| DASH.to_owned())
}

/// "Fleiss κ = 0.412 · Krippendorff α = 0.398", each prefixed by its dimension when there are
/// several.
fn agreement_text(rows: &[AgreementRow]) -> String {
    let named = rows.len() > 1;
    rows.iter()
        .flat_map(|row| {
            let prefix = if named {
                format!("{}: ", row.dimension)
            } else {
                String::new()
            };
            [
                row.fleiss_kappa
                    .map(|k| format!("{prefix}Fleiss κ = {k:.3}")),
                row.krippendorff_alpha
                    .map(|a| format!("{prefix}Krippendorff α = {a:.3}")),
            ]
        })
        .flatten()
        .collect::<Vec<_>>()
        .join(" · ")
}

/// A table cell's content for an estimate: the value, then the interval (which may wrap
/// onto its own line); its text reads `0.812 [0.75, 0.87]`.
fn estimate_cell(e: Option<Estimate>) -> impl IntoView {
    match e {
        Some(e) => view! {
            <span class="val">
                <span class="est">{format::accuracy(e.value)}</span>
                " "
                <span class="ci">{format::interval(&e)}</span>
            </span>
        }
        .into_any(),
        None => view! { <span class="val">{DASH}</span> }.into_any(),
    }
}

/// One row of the comparison table: your score and the crowd's, for one category.
#[derive(Debug, Clone)]
struct CompareRow {
    key: Option<String>,
    you: Option<CategoryScore>,
    crowd: Option<CrowdRow>,
}

/// Crowd rows in server order (overall first), then any category only you have.
fn compare_rows(you: &[CategoryScore], crowd: &[CrowdRow]) -> Vec<CompareRow> {
    let mut rows: Vec<CompareRow> = crowd
        .iter()
        .map(|c| CompareRow {
            key: c.category.clone(),
            you: you.iter().find(|s| s.category == c.category).cloned(),
            crowd: Some(c.clone()),
        })
        .collect();
    for s in you {
        if !rows.iter().any(|r| r.key == s.category) {
            rows.push(CompareRow {
                key: s.category.clone(),
                you: Some(s.clone()),
                crowd: None,
            });
        }
    }
    rows
}

/// The comparison table's rows: your score next to the crowd's, per category.
fn compare_table_rows(
    you: &[CategoryScore],
    crowd: &[CrowdRow],
    categories: StoredValue<Vec<CategoryInfo>>,
) -> impl IntoView {
    let i18n = use_i18n();
    compare_rows(you, crowd)
        .into_iter()
        .map(|row| {
            let key = row.key.clone();
            let label =
                move || categories.with_value(|c| row_label(i18n.lang(), key.as_deref(), c));
            let is_crowd = row.crowd.is_some();
            let crowd_row = row.crowd.clone();
            let average = estimate_cell(crowd_row.as_ref().and_then(|c| c.human_average));
            let best = estimate_cell(crowd_row.as_ref().and_then(|c| c.human_best));
            let pooled = estimate_cell(crowd_row.as_ref().and_then(|c| c.pooled));
            let n = crowd_row
                .as_ref()
                .map(|c| c.participants.to_string())
                .unwrap_or_else(|| DASH.to_owned());
            view! {
                <tr
                    data-testid=is_crowd.then_some("crowd-row")
                    data-category=row.key.clone().unwrap_or_else(|| "overall".to_owned())
                    class:overall=row.key.is_none()
                >
                    <th scope="row" data-label=move || i18n.t().col_category>
                        {label}
                    </th>
                    <td data-label=move || i18n.t().col_you class="you">
                        <span class="val">{your_cell(row.you.as_ref())}</span>
                    </td>
                    <td data-label=move || i18n.t().col_average>{average}</td>
                    <td data-label=move || i18n.t().col_best>{best}</td>
                    <td data-label=move || i18n.t().col_pooled>{pooled}</td>
                    <td data-label=move || i18n.t().col_n>
                        <span class="val">{n}</span>
                    </td>
                </tr>
            }
        })
        .collect_view()
}

/// The loaded results.
#[component]
fn ResultsView(results: ResultsResponse, categories: Vec<CategoryInfo>) -> impl IntoView {
    let i18n = use_i18n();
    let score_summary = kinds::score_summary(&results);
    let judging = results.task_kind.is_judging();
    let held_out = if judging { 0 } else { results.held_out };
    let hidden_items = results.hidden_items.clone();
    let ResultsResponse {
        completion_code,
        you,
        crowd,
        review,
        redirect_url,
        redirect_code,
        scale,
        ..
    } = results;
    // One code per situation: the study's (the owner's hand-off, e.g. Prolific's completion
    // code), else the site's own completion code.
    let study_code = redirect_code.filter(|c| !c.is_empty());
    let own_code = study_code.is_none().then_some(completion_code);
    // The owner's hand-off stays reachable here (e.g. after a failed redirect or a reload).
    let handoff = redirect_url.map(|url| {
        view! {
            <div class="card" data-testid="results-handoff">
                {study_code.map(|c| view! {
                    <p class="code-label">{tr(|t| t.study_code)}</p>
                    <p class="code">{c}</p>
                })}
                <a class="button primary" href=url>{tr(|t| t.redirect_link)}</a>
            </div>
        }
    });
    let categories = StoredValue::new(categories);

    let rows = compare_table_rows(&you, &crowd.rows, categories);

    // The reference level (chance, random-pair similarity…), named by what it is.
    let baseline = crowd.baseline;
    let agreement = agreement_text(&crowd.agreement);

    let review_items = review
        .into_iter()
        .map(|item| kinds::review_view(item, categories))
        .collect_view();

    view! {
        <section class="results" data-testid="results">
            <h1>{move || i18n.t().results_title}</h1>
            {handoff}
            <div class="card score-card">
                // A rater's batch has no score: the kind's summary says what was judged.
                {(!judging).then(|| view! {
                    <p class="score-label">{move || i18n.t().your_score}</p>
                })}
                {score_summary}
                {(held_out > 0)
                    .then(|| {
                        view! {
                            <p class="muted small" data-testid="held-out">
                                {move || (i18n.t().held_out_note)(held_out)}
                            </p>
                        }
                    })}
                {hidden_items.map(|h| {
                    view! {
                        <p class="muted small" data-testid="hidden-items-score" data-value=h.mean.to_string()>
                            {move || (i18n.t().hidden_mean_note)(h.answered, h.mean)}
                        </p>
                    }
                })}
                {own_code.map(|c| view! {
                    <p class="code-label">{move || i18n.t().completion_code}</p>
                    <p class="code" data-testid="completion-code">{c}</p>
                })}
            </div>

            // Judging tasks have no right answers: no score table, only the count.
            {(!judging)
                .then(|| {
                    view! {
                        <h2>{move || i18n.t().compare_title}</h2>
                        <div class="table-wrap">
                            <table class="compare">
                                <thead>
                                    <tr>
                                        <th scope="col">{move || i18n.t().col_category}</th>
                                        <th scope="col">{move || i18n.t().col_you}</th>
                                        <th scope="col">{move || i18n.t().col_average}</th>
                                        <th scope="col">{move || i18n.t().col_best}</th>
                                        <th scope="col">{move || i18n.t().col_pooled}</th>
                                        <th scope="col">{move || i18n.t().col_n}</th>
                                    </tr>
                                </thead>
                                <tbody>{rows}</tbody>
                            </table>
                        </div>
                        {baseline
                            .map(|b| {
                                view! {
                                    <p data-testid="chance">
                                        <strong>{move || reference_row_text(i18n.lang(), b.kind)} ": "</strong>
                                        {format::accuracy(b.value)}
                                    </p>
                                }
                            })}
                        {(!agreement.is_empty())
                            .then(|| {
                                view! {
                                    <p class="muted small" data-testid="agreement">
                                        {move || i18n.t().agreement}
                                        ": "
                                        {agreement.clone()}
                                    </p>
                                }
                            })}
                        <p class="muted small" data-testid="ci-note">
                            {move || ci_note(i18n.t(), scale)}
                        </p>
                    }
                })}

            <h2>{move || i18n.t().review_title}</h2>
            <ol class="review-list">{review_items}</ol>

            <p>
                <a href="/" data-testid="back-home">
                    {move || i18n.t().back_home}
                </a>
            </p>
        </section>
    }
}

/// The note under the crowd table, worded for the kind's scale: accuracies for kinds scored
/// right or wrong, mean scores for explanations.
fn ci_note(t: &'static Strings, scale: ScoreScale) -> &'static str {
    match scale {
        ScoreScale::Similarity => t.ci_note_scores,
        ScoreScale::Correctness => t.ci_note,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn explanation_results_do_not_call_their_scores_accuracies() {
        for lang in [Lang::En, Lang::Zh] {
            let t = lang.table::<Strings>();
            assert_eq!(ci_note(t, ScoreScale::Correctness), t.ci_note);
            assert_ne!(ci_note(t, ScoreScale::Similarity), t.ci_note);
        }
        assert!(!ci_note(Lang::En.table::<Strings>(), ScoreScale::Similarity).contains("accurac"));
        assert!(!ci_note(Lang::Zh.table::<Strings>(), ScoreScale::Similarity).contains("正确率"));
    }

    fn score(category: Option<&str>) -> CategoryScore {
        CategoryScore {
            category: category.map(str::to_owned),
            correct: Some(1),
            answered: 2,
            mean: 0.5,
        }
    }

    fn crowd(category: Option<&str>) -> CrowdRow {
        CrowdRow {
            category: category.map(str::to_owned),
            participants: 3,
            human_average: None,
            human_best: None,
            pooled: None,
        }
    }

    #[test]
    fn rows_follow_the_crowd_then_add_your_own() {
        let rows = compare_rows(
            &[score(None), score(Some("slang")), score(Some("quotation"))],
            &[crowd(None), crowd(Some("slang"))],
        );
        let keys: Vec<_> = rows.iter().map(|r| r.key.as_deref()).collect();
        assert_eq!(keys, vec![None, Some("slang"), Some("quotation")]);
        assert!(rows[2].crowd.is_none() && rows[2].you.is_some());
        assert_eq!(your_cell(rows[0].you.as_ref()), "0.500 (1/2)");
        assert_eq!(your_cell(None), DASH);
        let similarity = CategoryScore {
            correct: None,
            ..score(None)
        };
        assert_eq!(your_cell(Some(&similarity)), "0.500 (n = 2)");
    }
}
