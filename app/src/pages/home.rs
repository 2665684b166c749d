//! `/`: the open quizzes, each with a Start link.

use crate::api;
use crate::components::status::Loaded;
use crate::components::title::{in_lang, use_page_title};
use crate::i18n::{category_label, tr, use_i18n, Strings};
use leptos::prelude::*;
use memeboard_core::api::QuizSummary;

/// The home page.
#[component]
pub fn HomePage() -> impl IntoView {
    let i18n = use_i18n();
    let quizzes = LocalResource::new(api::list_quizzes);
    use_page_title(|lang| lang.table::<Strings>().home_title.to_owned());
    let render = move |list: Vec<QuizSummary>| {
        if list.is_empty() {
            view! {
                <p class="empty" data-testid="no-quizzes">
                    {move || i18n.t().no_quizzes}
                </p>
            }
            .into_any()
        } else {
            view! {
                <ul class="quiz-list">
                    {list
                        .into_iter()
                        .map(|quiz| view! { <QuizCard quiz=quiz /> })
                        .collect_view()}
                </ul>
            }
            .into_any()
        }
    };
    view! {
        <section class="intro">
            <h1>{move || i18n.t().home_title}</h1>
            <p class="lead">{move || i18n.t().home_intro}</p>
        </section>
        <Loaded resource=quizzes render=render />
    }
}

/// One quiz on the home page.
#[component]
fn QuizCard(quiz: QuizSummary) -> impl IntoView {
    let i18n = use_i18n();
    let QuizSummary {
        slug,
        title,
        description,
        batch_size,
        item_count,
        categories,
        completed_participants,
        full,
        ..
    } = quiz;
    let href = format!("/quiz/{slug}");
    let chips = categories
        .iter()
        .map(|c| {
            let key = c.key.clone();
            let cats = categories.clone();
            view! {
                <li class="chip" data-category=c.key.clone()>
                    {move || category_label(i18n.lang(), &key, &cats)}
                </li>
            }
        })
        .collect_view();
    view! {
        <li class="card quiz-card" data-testid="quiz-card" data-slug=slug.clone()>
            // Bilingual texts ("English · 中文") in the reader's language.
            <h2>{move || in_lang(&title, i18n.lang()).to_owned()}</h2>
            <p>{move || in_lang(&description, i18n.lang()).to_owned()}</p>
            <ul class="facts">
                <li>{move || (i18n.t().batch_size)(batch_size)}</li>
                <li>{move || (i18n.t().item_count)(item_count)}</li>
                <li>{move || (i18n.t().participants)(completed_participants)}</li>
            </ul>
            <div class="categories">
                <span class="muted">{move || i18n.t().categories} ": "</span>
                <ul class="chips">{chips}</ul>
            </div>
            {full.then(|| view! {
                <p class="notice" data-testid="quiz-full">{tr(|t| t.full)}</p>
            })}
            // A full quiz takes nobody new: no start link.
            {(!full).then(|| view! {
                <a class="button primary" href=href data-testid="start-quiz">
                    {move || i18n.t().start}
                </a>
            })}
        </li>
    }
}
