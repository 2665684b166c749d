//! Rater training before a judging task's first page: the owner's rubric, then each practice
//! page with the kind's own question component (answered through the same exactly-once
//! protocol under its `practice-N` id), the feedback the server sends once the answer is
//! stored, and the outcome. A rater below the pass mark gets the screen-out the server set.

use crate::i18n::human::{practice_field_name, practice_value, TrainingStrings};
use crate::i18n::use_i18n;
use crate::kinds;
use leptos::prelude::*;
use memeboard_core::api::{SessionItem, SubmitAnswerResponse};
use memeboard_core::fieldwork::ScreenOut;
use memeboard_core::human_eval::training::{PracticeFeedback, TrainingView};

/// Where the rater is in the training.
#[derive(Debug, Clone, PartialEq)]
enum Stage {
    /// Reading the rubric.
    Rubric,
    /// Answering practice page `k` (0-based).
    Page(usize),
    /// Reading the feedback of page `k` (with the screen-out its answer brought, shown next).
    Feedback(usize, PracticeFeedback, Option<ScreenOut>),
}

/// The rubric as paragraphs (blank lines separate them).
fn paragraphs(text: &str) -> Vec<String> {
    text.split("\n\n")
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .map(str::to_owned)
        .collect()
}

/// The rubric, as paragraphs.
#[component]
fn Rubric(text: String) -> impl IntoView {
    paragraphs(&text)
        .into_iter()
        .map(|p| view! { <p class="rubric-paragraph">{p}</p> })
        .collect_view()
}

/// The training: rubric, practice pages and their feedback; `on_done` once the rater may go
/// on (`None`) or was screened out (`Some`).
#[component]
pub(super) fn Training(
    session_id: String,
    quiz_slug: String,
    training: TrainingView,
    on_done: Callback<Option<ScreenOut>>,
) -> impl IntoView {
    let i18n = use_i18n();
    let t = move || i18n.table::<TrainingStrings>();
    let pages = training.pages.len();
    let answered = RwSignal::new(
        training
            .pages
            .iter()
            .filter(|p| p.feedback.is_some())
            .count(),
    );
    let first_open = training.pages.iter().position(|p| p.feedback.is_none());
    let stage = RwSignal::new(match first_open {
        Some(0) | None => Stage::Rubric,
        Some(k) => Stage::Page(k),
    });
    let rubric = StoredValue::new(training.rubric);
    let views = StoredValue::new(training.pages);
    let pass = training.pass_percent;
    // The feedback first; a screen-out the last answer brought follows it.
    let on_ack =
        Callback::new(
            move |(page, ack): (usize, SubmitAnswerResponse)| match ack.practice {
                Some(feedback) => {
                    answered.update(|n| *n = (*n).max(page + 1));
                    stage.set(Stage::Feedback(page, feedback, ack.screen_out));
                }
                None => on_done.run(ack.screen_out),
            },
        );
    let run = move || kinds::RunnerContext {
        total: pages,
        answered_count: answered.into(),
        session_id: session_id.clone(),
        quiz_slug: quiz_slug.clone(),
        on_ack,
    };
    move || {
        match stage.get() {
        Stage::Rubric => view! {
            <section class="card training-rubric" data-testid="training-rubric">
                <h1>{move || t().rubric_title}</h1>
                <Rubric text=rubric.get_value() />
                <p>{move || (t().practice_intro)(pages)}</p>
                {pass.map(|p| view! { <p data-testid="training-pass">{move || (t().pass_line)(p)}</p> })}
                <button
                    type="button"
                    class="button primary"
                    data-testid="training-start"
                    on:click=move |_| stage.set(Stage::Page(0))
                >
                    {move || t().start_practice}
                </button>
            </section>
        }
        .into_any(),
        Stage::Page(k) => {
            let Some(page) = views.with_value(|v| v.get(k).cloned()) else {
                on_done.run(None);
                return ().into_any();
            };
            let item = SessionItem {
                position: k,
                item_id: page.item_id,
                category: String::new(),
                content_warning: false,
                prompt: page.prompt,
                answered: false,
                preface: None,
            };
            view! {
                <div class="training-page" data-testid="training-page" data-page=k.to_string()>
                    <p class="notice" data-testid="training-label">{move || (t().practice_label)(k + 1, pages)}</p>
                    <details class="training-rubric-again">
                        <summary>{move || t().rubric_again}</summary>
                        <Rubric text=rubric.get_value() />
                    </details>
                    {kinds::question_view(item, None, Vec::new(), run())}
                </div>
            }
            .into_any()
        }
        Stage::Feedback(k, feedback, screen_out) => {
            let last = k + 1 >= pages;
            let outcome = feedback.outcome;
            let failed = screen_out.is_some();
            let on_click = move |_| match (last, screen_out.clone()) {
                (_, Some(out)) => on_done.run(Some(out)),
                (true, None) => on_done.run(None),
                (false, None) => stage.set(Stage::Page(k + 1)),
            };
            view! {
                <section class="card training-feedback" data-testid="training-feedback">
                    <h1>{move || t().feedback_title}</h1>
                    <FeedbackTable feedback=feedback.clone() />
                    {(!feedback.note.is_empty()).then(|| view! {
                        <p data-testid="training-note"><strong>{move || t().why}</strong>{feedback.note.clone()}</p>
                    })}
                    {outcome.map(|q| view! {
                        <p data-testid="training-outcome">{move || (t().outcome_line)(q.matched, q.total)}</p>
                    })}
                    <button
                        type="button"
                        class="button primary"
                        data-testid=if last { "training-done" } else { "training-next" }
                        on:click=on_click
                    >
                        {move || match (last, failed) {
                            (_, true) => t().go_on,
                            (true, false) => t().start_study,
                            (false, false) => t().next_practice,
                        }}
                    </button>
                </section>
            }
            .into_any()
        }
    }
    }
}

/// Each field of a practice answer beside the expected value, marked same or different.
#[component]
fn FeedbackTable(feedback: PracticeFeedback) -> impl IntoView {
    let i18n = use_i18n();
    let t = move || i18n.table::<TrainingStrings>();
    let rows = feedback
        .fields
        .into_iter()
        .map(|f| {
            let (field, given, expected) = (f.field.clone(), f.given.clone(), f.expected.clone());
            view! {
                <tr data-testid="training-field" data-field=f.field.clone() data-matched=f.matched.to_string()>
                    <th scope="row">{move || practice_field_name(i18n.lang(), &field)}</th>
                    <td>{move || practice_value(i18n.lang(), &given)}</td>
                    <td>{move || practice_value(i18n.lang(), &expected)}</td>
                    <td>{move || if f.matched { t().matched } else { t().differs }}</td>
                </tr>
            }
        })
        .collect_view();
    view! {
        <table class="training-fields">
            <thead>
                <tr>
                    <th scope="col">{move || t().col_field}</th>
                    <th scope="col">{move || t().col_yours}</th>
                    <th scope="col">{move || t().col_expected}</th>
                    <th scope="col"><span class="visually-hidden">"✓"</span></th>
                </tr>
            </thead>
            <tbody>{rows}</tbody>
        </table>
    }
}
