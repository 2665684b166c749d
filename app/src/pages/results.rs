//! `/session/{id}/results`: your score beside the crowd baseline, the completion code, and a
//! per-item review with the correct answers.

use crate::api::{self, ApiError};
use crate::components::sentence::Sentence;
use crate::components::status::{error_fallback, Loading};
use crate::format::{self, option_letter, DASH};
use crate::i18n::{category_label, use_i18n, Lang};
use leptos::prelude::*;
use memeboard_core::api::{CategoryScore, CrowdRow, ResultsResponse, ReviewItem};
use memeboard_core::stats::Estimate;
use memeboard_core::tasks::CategoryInfo;

/// The results page.
#[component]
pub fn ResultsPage() -> impl IntoView {
    let params = use_params_map_id();
    let data = LocalResource::new(move || {
        let id = params();
        async move {
            let results = api::get_results(&id).await?;
            // Labels only: the page still works if this call fails.
            let categories = api::get_quiz(&results.quiz_slug)
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
                            Err(ApiError::Server { status: 409, detail }) => {
                                Ok(view! { <NotReady session_id=id detail=detail /> }.into_any())
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
fn NotReady(session_id: String, detail: String) -> impl IntoView {
    let i18n = use_i18n();
    view! {
        <section class="card" data-testid="results-not-ready">
            <h1>{move || i18n.t().results_not_ready}</h1>
            <p>{detail}</p>
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
        None => lang.strings().overall.to_owned(),
        Some(k) => category_label(lang, k, categories),
    }
}

/// "0.700 (7/10)".
fn your_cell(score: Option<&CategoryScore>) -> String {
    score
        .map(|s| {
            format!(
                "{} ({}/{})",
                format::accuracy(s.accuracy),
                s.correct,
                s.answered
            )
        })
        .unwrap_or_else(|| DASH.to_owned())
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

/// The loaded results.
#[component]
fn ResultsView(results: ResultsResponse, categories: Vec<CategoryInfo>) -> impl IntoView {
    let i18n = use_i18n();
    let ResultsResponse {
        completion_code,
        you,
        crowd,
        review,
        hidden_items,
        ..
    } = results;
    let overall = you.iter().find(|s| s.category.is_none()).cloned();
    let categories = StoredValue::new(categories);

    let score_text = overall
        .as_ref()
        .map(|s| {
            format!(
                "{} / {} ({})",
                s.correct,
                s.answered,
                format::accuracy(s.accuracy)
            )
        })
        .unwrap_or_else(|| DASH.to_owned());

    let rows = compare_rows(&you, &crowd.rows)
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
        .collect_view();

    let chance = format::accuracy(crowd.chance);
    let agreement = {
        let mut parts = Vec::new();
        if let Some(k) = crowd.fleiss_kappa {
            parts.push(format!("Fleiss κ = {k:.3}"));
        }
        if let Some(a) = crowd.krippendorff_alpha {
            parts.push(format!("Krippendorff α = {a:.3}"));
        }
        parts.join(" · ")
    };

    let review_items = review
        .into_iter()
        .map(|item| view! { <ReviewCard item=item categories=categories /> })
        .collect_view();

    view! {
        <section class="results" data-testid="results">
            <h1>{move || i18n.t().results_title}</h1>
            <div class="card score-card">
                <p class="score-label">{move || i18n.t().your_score}</p>
                <p class="score" data-testid="your-score">
                    {score_text}
                </p>
                {hidden_items.map(|h| view! {
                    <p class="muted small" data-testid="hidden-items-score" data-value=h.accuracy.to_string()>
                        {move || if i18n.lang() == crate::i18n::Lang::Zh {
                            format!("隐藏测试梗（{} 个）的平均相似度：{:.1}（四舍五入；不显示单题得分）", h.answered, h.accuracy)
                        } else {
                            format!("Hidden test memes ({}): average similarity {:.1} (rounded; no per-item scores)", h.answered, h.accuracy)
                        }}
                    </p>
                })}
                <p class="code-label">{move || i18n.t().completion_code}</p>
                <p class="code" data-testid="completion-code">
                    {completion_code}
                </p>
            </div>

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
            <p data-testid="chance">
                <strong>{move || i18n.t().chance} ": "</strong>
                {chance}
            </p>
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
            <p class="muted small">{move || i18n.t().ci_note}</p>

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

/// Whether a reviewed answer was right: `None` when the gold is withheld.
fn review_outcome(item: &ReviewItem) -> Option<bool> {
    if item.gold_withheld {
        return None;
    }
    item.correct_position.map(|c| c == item.chosen_position)
}

/// One reviewed item: right/wrong, sentence, your answer, the correct one, meaning, crowd.
#[component]
fn ReviewCard(item: ReviewItem, categories: StoredValue<Vec<CategoryInfo>>) -> impl IntoView {
    let i18n = use_i18n();
    if let Some(explanation) = item.explanation.clone() {
        let key = item.category.clone();
        let category = move || categories.with_value(|c| category_label(i18n.lang(), &key, c));
        let zh = move || i18n.lang() == crate::i18n::Lang::Zh;
        return view! {
            <li class="card review-item" data-testid="review-item" data-position=item.position.to_string() data-correct="scored">
                <p class="review-head"><span class="muted">{category}</span></p>
                <p class="meme" lang="zh-CN">{item.sentence.clone()}</p>
                <dl class="review-grid">
                    <dt>{move || if zh() { "你的解释" } else { "Your explanation" }}</dt>
                    <dd lang="zh-CN">{explanation.answer.clone()}</dd>
                    <dt>{move || if zh() { "相似度" } else { "Similarity" }}</dt>
                    <dd>{match explanation.score.as_ref() {
                        Some(s) => format!("{:.3} (rescaled {:.2}, BERTScore-F1 {:.3}, {})", s.cosine, s.rescaled, s.bert_f1, s.model),
                        None if item.gold_withheld => if zh() { "计入隐藏梗的平均分".to_owned() } else { "counted in your hidden-meme average".to_owned() },
                        None => DASH.to_owned(),
                    }}</dd>
                    <dt>{move || if zh() { "参考释义" } else { "Reference" }}</dt>
                    {match explanation.reference.clone() {
                        Some(r) => view! { <dd lang="zh-CN">{r.meaning}</dd> }.into_any(),
                        None => view! { <dd class="muted">{move || i18n.t().withheld_note}</dd> }.into_any(),
                    }}
                </dl>
            </li>
        }
        .into_any();
    }
    let outcome = review_outcome(&item);
    let answer = |pos: usize| {
        let text = item.options.get(pos).cloned().unwrap_or_default();
        format!("{}. {}", option_letter(pos), text)
    };
    let yours = answer(item.chosen_position);
    let correct = item
        .correct_position
        .filter(|_| !item.gold_withheld)
        .map(answer);
    let crowd = item
        .crowd_accuracy
        .map(format::accuracy)
        .unwrap_or_else(|| DASH.to_owned());
    let key = item.category.clone();
    let category = move || categories.with_value(|c| category_label(i18n.lang(), &key, c));
    let (badge_class, mark) = match outcome {
        Some(true) => ("badge right", "✓ "),
        Some(false) => ("badge wrong", "✗ "),
        None => ("badge withheld", ""),
    };
    let badge_text = move || {
        let t = i18n.t();
        match outcome {
            Some(true) => t.right,
            Some(false) => t.wrong,
            None => t.withheld,
        }
    };
    let correct_view = match correct {
        Some(c) => view! { <dd lang="zh-CN">{c}</dd> }.into_any(),
        None => view! { <dd class="muted">{move || i18n.t().withheld_note}</dd> }.into_any(),
    };
    view! {
        <li
            class="card review-item"
            class:right=outcome == Some(true)
            class:wrong=outcome == Some(false)
            data-testid="review-item"
            data-position=item.position.to_string()
            data-correct=match outcome {
                Some(true) => "true",
                Some(false) => "false",
                None => "withheld",
            }
        >
            <p class="review-head">
                <span class=badge_class>{mark} {badge_text}</span>
                <span class="muted">{category}</span>
            </p>
            <Sentence text=item.sentence.clone() />
            <dl class="review-grid">
                <dt>{move || i18n.t().your_answer}</dt>
                <dd lang="zh-CN">{yours}</dd>
                <dt>{move || i18n.t().correct_answer}</dt>
                {correct_view}
                {item
                    .meaning
                    .clone()
                    .map(|m| {
                        view! {
                            <dt>{move || i18n.t().meaning}</dt>
                            <dd lang="zh-CN">{m}</dd>
                        }
                    })}
                <dt>{move || i18n.t().crowd_accuracy}</dt>
                <dd>{crowd}</dd>
            </dl>
        </li>
    }
    .into_any()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn score(category: Option<&str>) -> CategoryScore {
        CategoryScore {
            category: category.map(str::to_owned),
            correct: 1,
            answered: 2,
            accuracy: 0.5,
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
    }
}
