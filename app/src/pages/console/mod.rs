//! `/console` and `/console/{slug}`: the study console of a quiz's owner. The owner token is
//! entered once and kept in localStorage (`memeboard.owner_token`); the console shows and
//! saves the quiz's settings (open/closed, batch size, participant target, items and
//! categories, content-flag policy, recruitment hand-off, quality rules, attention checks),
//! the live progress (polled every few seconds, no reload), the study links with copy buttons,
//! excluded participants under the export's pseudonyms, deleting a participant's data, the
//! action log in words, and the answer-level export downloads.

mod links;
mod log;
mod progress;
mod rescore;
mod settings;

use crate::api;
use crate::components::export::ExportButton;
use crate::components::status::{error_fallback, Loaded, Loading};
use crate::components::title::{in_lang, use_page_title};
use crate::format;
use crate::i18n::fieldwork::{st, FieldworkStrings};
use crate::i18n::{use_i18n, Lang};
use crate::pages::study::StudyForm;
use crate::storage;
use leptos::ev::SubmitEvent;
use leptos::prelude::*;
use leptos_router::hooks::use_params_map;
use links::{DeleteParticipant, StudyLinks};
use log::ActionLog;
use memeboard_core::fieldwork::{ConsoleResponse, OwnedTask};
use progress::Progress;
use rescore::Rescore;
use settings::settings_form;

/// The console pages.
#[component]
pub fn ConsolePage() -> impl IntoView {
    let params = use_params_map();
    let slug = move || params.read().get("slug");
    let token = RwSignal::new(storage::owner_token());
    use_page_title(|lang| lang.table::<FieldworkStrings>().console_title.to_owned());
    let forget = Callback::new(move |()| {
        storage::remove(storage::OWNER_TOKEN_KEY);
        token.set(None);
    });
    view! {
        <section class="intro">
            <h1>{st(|s| s.console_title)}</h1>
            <p class="lead">{st(|s| s.console_intro)}</p>
        </section>
        {move || match (token.get(), slug()) {
            (None, _) => view! { <TokenForm token=token /> }.into_any(),
            (Some(t), None) => view! { <TaskList token=t forget=forget /> }.into_any(),
            (Some(t), Some(s)) => view! { <Console slug=s token=t forget=forget /> }.into_any(),
        }}
    }
}

/// Asks for the owner token once.
#[component]
fn TokenForm(token: RwSignal<Option<String>>) -> impl IntoView {
    let value = RwSignal::new(String::new());
    let on_submit = move |ev: SubmitEvent| {
        ev.prevent_default();
        let t = value.get_untracked().trim().to_owned();
        if !t.is_empty() {
            storage::set(storage::OWNER_TOKEN_KEY, &t);
            token.set(Some(t));
        }
    };
    view! {
        <section class="card">
            <form class="stack" on:submit=on_submit>
                <div class="field">
                    <label for="owner-token">{st(|s| s.owner_token_label)}</label>
                    <input
                        id="owner-token"
                        type="password"
                        autocomplete="off"
                        data-testid="owner-token"
                        prop:value=move || value.get()
                        on:input=move |ev| value.set(event_target_value(&ev))
                    />
                </div>
                <p class="muted small">{st(|s| s.owner_token_note)}</p>
                <button type="submit" class="button primary" data-testid="owner-token-save">
                    {st(|s| s.owner_token_save)}
                </button>
            </form>
        </section>
    }
}

/// The forget-token button.
#[component]
fn ForgetToken(forget: Callback<()>) -> impl IntoView {
    view! {
        <p>
            <button type="button" class="button secondary" on:click=move |_| forget.run(())>
                {st(|s| s.owner_token_forget)}
            </button>
        </p>
    }
}

/// The quizzes the token manages.
#[component]
fn TaskList(token: String, forget: Callback<()>) -> impl IntoView {
    let i18n = use_i18n();
    let tasks = LocalResource::new(move || {
        let token = token.clone();
        async move { api::owner_tasks(&token).await }
    });
    let render = move |list: Vec<OwnedTask>| {
        view! {
            <ul class="stack" data-testid="owner-tasks">
                {list
                    .into_iter()
                    .map(|t| {
                        let open = t.quiz_open;
                        view! {
                            <li>
                                <a href=format!("/console/{}", api::encode_component(&t.slug))>
                                    {let title = t.title.clone(); move || in_lang(&title, i18n.lang()).to_owned()}
                                </a>
                                " (" {t.slug.clone()} ", "
                                {move || {
                                    let s = i18n.table::<FieldworkStrings>();
                                    if open { s.open } else { s.closed }
                                }} ")"
                            </li>
                        }
                    })
                    .collect_view()}
            </ul>
        }
    };
    view! {
        <section class="card">
            <h2>{st(|s| s.your_quizzes)}</h2>
            <Loaded resource=tasks render=render />
            <ForgetToken forget=forget />
        </section>
    }
}

/// One quiz's console.
#[component]
fn Console(slug: String, token: String, forget: Callback<()>) -> impl IntoView {
    let version = RwSignal::new(0u32);
    let (slug_r, token_r) = (StoredValue::new(slug), StoredValue::new(token));
    let data = LocalResource::new(move || {
        version.track();
        let (slug, token) = (slug_r.get_value(), token_r.get_value());
        async move { api::console(&slug, &token).await }
    });
    let reload = Callback::new(move |()| version.update(|v| *v += 1));
    // Outlives a reload of the console (after a save), so "Saved." stays on screen.
    let message = RwSignal::new(None::<Result<(), String>>);
    view! {
        <Transition fallback=|| view! { <Loading /> }>
            <ErrorBoundary fallback=error_fallback>
                {move || Suspend::new(async move {
                    data.await
                        .map(|c| {
                            view! {
                                <ConsoleView
                                    console=c
                                    token=token_r.get_value()
                                    reload=reload
                                    message=message
                                />
                            }
                        })
                })}
            </ErrorBoundary>
        </Transition>
        <DeleteParticipant slug=slug_r token=token_r reload=reload />
        <Rescore slug=slug_r token=token_r />
        <ForgetToken forget=forget />
    }
}

/// `YYYY-MM-DD HH:MM:SS UTC` (the progress view and the action log).
pub(super) fn date_time(ms: i64) -> String {
    let secs = ms.div_euclid(1000).rem_euclid(86_400);
    format!(
        "{} {:02}:{:02}:{:02} UTC",
        format::date(ms),
        secs / 3600,
        secs / 60 % 60,
        secs % 60
    )
}

/// Settings form, progress, exclusions, action log and exports of one quiz.
#[component]
fn ConsoleView(
    console: ConsoleResponse,
    token: String,
    reload: Callback<()>,
    message: RwSignal<Option<Result<(), String>>>,
) -> impl IntoView {
    let i18n = use_i18n();
    let slug = StoredValue::new(console.task.clone());
    let token = StoredValue::new(token);

    let before_after = (
        console.completed_before_exclusions,
        console.completed_after_exclusions,
    );
    let exclusions = console.exclusions.clone();
    let actions = console.actions.clone();
    let prolific_link = console.prolific_link.clone();
    let exports = console.exports.clone();
    view! {
        <h2 data-testid="console-task">
            {let title = console.title.clone(); move || in_lang(&title, use_i18n().lang()).to_owned()}
            " (" {console.task.clone()} ")"
        </h2>
        <StudyLinks slug=console.task.clone() prolific_link=prolific_link />
        <Progress slug=console.task.clone() token=token.get_value() categories=console.categories.clone() />
        {settings_form(&console, slug, token, reload, message)}
        <section class="card">
            <h2>{st(|s| s.exclusions_title)}</h2>
            <p data-testid="before-after">{move || (i18n.table::<FieldworkStrings>().before_after)(before_after.0, before_after.1)}</p>
            {if exclusions.is_empty() {
                view! { <p class="muted">{st(|s| s.none_excluded)}</p> }.into_any()
            } else {
                view! {
                    <div class="console-table">
                        <table data-testid="exclusions">
                            <thead>
                                <tr>
                                    <th scope="col">{st(|s| s.col_session)}</th>
                                    <th scope="col">{st(|s| s.col_participant)}</th>
                                    <th scope="col">"Prolific"</th>
                                    <th scope="col">{st(|s| s.col_reason)}</th>
                                </tr>
                            </thead>
                            <tbody>
                                {exclusions
                                    .into_iter()
                                    .map(|e| {
                                        let reason = e.reason.clone();
                                        view! {
                                            <tr>
                                                <td><code>{e.session}</code></td>
                                                <td><code>{e.participant}</code></td>
                                                <td>{e.prolific_pid.unwrap_or_default()}</td>
                                                <td data-code=reason.code.as_str()>
                                                    {move || if i18n.lang() == Lang::Zh { reason.zh.clone() } else { reason.en.clone() }}
                                                </td>
                                            </tr>
                                        }
                                    })
                                    .collect_view()}
                            </tbody>
                        </table>
                    </div>
                }
                    .into_any()
            }}
        </section>
        <section class="card">
            <h2>{st(|s| s.exports_title)}</h2>
            <div class="actions">
                {exports
                    .into_iter()
                    .map(|url| view! { <ExportButton url=url token=token.get_value() /> })
                    .collect_view()}
            </div>
        </section>
        <StudyForm slug=slug.get_value() token=token.get_value() />
        <ActionLog actions=actions />
    }
}
