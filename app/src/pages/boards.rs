//! `/boards`: every task that has a leaderboard, with its items per split, its submission
//! count and links to the board and the submit page.

use crate::api;
use crate::components::score::task_kind_text;
use crate::components::status::Loaded;
use crate::components::title::{in_lang, use_page_title};
use crate::i18n::board::{btr, BoardStrings};
use crate::i18n::{category_label, use_i18n};
use leptos::prelude::*;
use memeboard_core::api::TaskSummary;

/// The leaderboard index.
#[component]
pub fn BoardsPage() -> impl IntoView {
    let tasks = LocalResource::new(api::list_tasks);
    use_page_title(|lang| lang.table::<BoardStrings>().boards_title.to_owned());
    let render = |list: Vec<TaskSummary>| {
        if list.is_empty() {
            no_tasks()
        } else {
            view! {
                <ul class="quiz-list">
                    {list
                        .into_iter()
                        .map(|task| view! { <TaskCard task=task /> })
                        .collect_view()}
                </ul>
            }
            .into_any()
        }
    };
    view! {
        <section class="intro">
            <h1>{btr(|t| t.boards_title)}</h1>
            <p class="lead">{btr(|t| t.boards_intro)}</p>
        </section>
        <Loaded resource=tasks render=render />
    }
}

/// What the task lists say when there is no task (the index, the submit page).
pub(crate) fn no_tasks() -> AnyView {
    view! {
        <p class="empty" data-testid="no-tasks">
            {btr(|t| t.no_tasks)}
        </p>
    }
    .into_any()
}

/// One task on the index.
#[component]
fn TaskCard(task: TaskSummary) -> impl IntoView {
    let i18n = use_i18n();
    let TaskSummary {
        slug,
        title,
        kind,
        dev_items,
        public_items,
        private_items,
        submissions,
        categories,
        ..
    } = task;
    let categories = StoredValue::new(categories);
    let chips = move || {
        let lang = i18n.lang();
        categories.with_value(|cats| {
            cats.iter()
                .map(|c| view! { <li class="chip">{category_label(lang, &c.key, cats)}</li> })
                .collect_view()
        })
    };
    view! {
        <li class="card quiz-card" data-testid="task-card" data-slug=slug.clone()>
            <h2>{move || in_lang(&title, i18n.lang()).to_owned()}</h2>
            <ul class="facts">
                <li data-testid="task-kind">{move || task_kind_text(i18n.lang(), kind)}</li>
                <li>{move || (i18n.bt().split_counts)(dev_items, public_items, private_items)}</li>
                <li data-testid="task-submissions">
                    {move || (i18n.bt().submissions_n)(submissions)}
                </li>
            </ul>
            <div class="categories">
                <span class="muted">{btr(|t| t.categories)} ": "</span>
                <ul class="chips">{chips}</ul>
            </div>
            <div class="actions">
                <a class="button primary" href=format!("/boards/{}", api::encode_component(&slug)) data-testid="board-link">
                    {btr(|t| t.view_board)}
                </a>
                <a class="button secondary" href=format!("/submit?task={}", api::encode_component(&slug))>
                    {btr(|t| t.submit_to)}
                </a>
            </div>
        </li>
    }
}
