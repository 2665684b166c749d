//! `/account`: create an author token (shown once, with a copy button, and kept in
//! localStorage `memeboard.token`), or use an existing one; with a stored token, the
//! author's quota and own submissions (each with a "Withdraw" button and an inline
//! confirmation), and a button to forget the token.

use crate::api;
use crate::browser::focus_when_shown;
use crate::components::score::status_text;
use crate::components::title::use_page_title;
use crate::components::withdraw::WithdrawButton;
use crate::format;
use crate::i18n::board::{btr, BoardStrings};
use crate::i18n::use_i18n;
use crate::storage;
use leptos::ev::SubmitEvent;
use leptos::prelude::*;
use leptos::task::spawn_local;
use memeboard_core::api::{CreateAuthorRequest, CreateAuthorResponse, MeResponse};

/// The account page.
#[component]
pub fn AccountPage() -> impl IntoView {
    use_page_title(|lang| lang.table::<BoardStrings>().account_title.to_owned());
    let token = RwSignal::new(storage::token());
    let created = RwSignal::new(None::<CreateAuthorResponse>);
    let on_created = Callback::new(move |r: CreateAuthorResponse| {
        storage::set(storage::TOKEN_KEY, &r.token);
        token.set(Some(r.token.clone()));
        created.set(Some(r));
    });
    let on_forget = Callback::new(move |()| {
        storage::remove(storage::TOKEN_KEY);
        token.set(None);
        created.set(None);
    });
    let on_saved = Callback::new(move |t: String| {
        storage::set(storage::TOKEN_KEY, &t);
        created.set(None);
        token.set(Some(t));
    });
    view! {
        <section class="intro">
            <h1>{btr(|t| t.account_title)}</h1>
            <p class="lead">{btr(|t| t.account_intro)}</p>
        </section>
        {move || created.get().map(|r| view! { <NewToken response=r /> })}
        {move || match token.get() {
            Some(t) => {
                view! {
                    <Account token=t on_forget=on_forget />
                    <details class="card">
                        <summary>{btr(|t| t.create_another)}</summary>
                        <CreateToken on_created=on_created />
                    </details>
                }
                    .into_any()
            }
            None => {
                view! {
                    <section class="card">
                        <h2>{btr(|t| t.create_title)}</h2>
                        <CreateToken on_created=on_created />
                    </section>
                    <details class="card">
                        <summary>{btr(|t| t.use_existing)}</summary>
                        <UseToken on_saved=on_saved />
                    </details>
                }
                    .into_any()
            }
        }}
    }
}

/// Name + organisation → `POST /api/authors`.
#[component]
fn CreateToken(on_created: Callback<CreateAuthorResponse>) -> impl IntoView {
    let i18n = use_i18n();
    let name = RwSignal::new(String::new());
    let organisation = RwSignal::new(String::new());
    let sending = RwSignal::new(false);
    let error = RwSignal::new(None::<Option<String>>); // Some(None) = name missing
    let on_submit = move |ev: SubmitEvent| {
        ev.prevent_default();
        if sending.get_untracked() {
            return;
        }
        let request = CreateAuthorRequest {
            name: name.get_untracked().trim().to_owned(),
            organisation: organisation.get_untracked().trim().to_owned(),
        };
        if request.name.is_empty() {
            error.set(Some(None));
            return;
        }
        error.set(None);
        sending.set(true);
        spawn_local(async move {
            let result = api::create_author(&request).await;
            let _ = sending.try_set(false);
            match result {
                Ok(r) => {
                    let _ = name.try_set(String::new());
                    let _ = organisation.try_set(String::new());
                    on_created.run(r);
                }
                Err(e) => {
                    let _ = error.try_set(Some(Some(e.to_string())));
                }
            }
        });
    };
    view! {
        <form class="stack" novalidate=true on:submit=on_submit>
            <div class="field">
                <label for="account-name">{btr(|t| t.name_label)}</label>
                <input
                    id="account-name"
                    type="text"
                    data-testid="account-name"
                    maxlength="100"
                    required=true
                    autocomplete="name"
                    prop:value=move || name.get()
                    on:input=move |ev| name.set(event_target_value(&ev))
                />
            </div>
            <div class="field">
                <label for="account-organisation">{btr(|t| t.organisation_label)}</label>
                <input
                    id="account-organisation"
                    type="text"
                    data-testid="account-organisation"
                    maxlength="100"
                    autocomplete="organization"
                    prop:value=move || organisation.get()
                    on:input=move |ev| organisation.set(event_target_value(&ev))
                />
            </div>
            {move || {
                error
                    .get()
                    .map(|e| {
                        let text = e.unwrap_or_else(|| i18n.bt().need_name.to_owned());
                        view! {
                            <p class="notice error" role="alert" data-testid="account-error">
                                {text}
                            </p>
                        }
                    })
            }}
            <div class="actions">
                <button
                    type="submit"
                    class="button primary"
                    data-testid="create-token"
                    disabled=move || sending.get()
                >
                    {move || if sending.get() { i18n.bt().creating } else { i18n.bt().create_token }}
                </button>
            </div>
        </form>
    }
}

/// Pastes an existing token into this browser.
#[component]
fn UseToken(on_saved: Callback<String>) -> impl IntoView {
    let value = RwSignal::new(String::new());
    let on_submit = move |ev: SubmitEvent| {
        ev.prevent_default();
        let t = value.get_untracked().trim().to_owned();
        if !t.is_empty() {
            on_saved.run(t);
        }
    };
    view! {
        <form class="stack" on:submit=on_submit>
            <div class="field">
                <label for="existing-token">{btr(|t| t.token_label)}</label>
                <input
                    id="existing-token"
                    type="password"
                    autocomplete="off"
                    spellcheck="false"
                    data-testid="existing-token"
                    prop:value=move || value.get()
                    on:input=move |ev| value.set(event_target_value(&ev))
                />
            </div>
            <div class="actions">
                <button type="submit" class="button secondary" data-testid="save-token">
                    {btr(|t| t.save)}
                </button>
            </div>
        </form>
    }
}

/// The token just created: shown once, with a copy button.
#[component]
fn NewToken(response: CreateAuthorResponse) -> impl IntoView {
    let i18n = use_i18n();
    let copied = RwSignal::new(None::<bool>);
    let token = StoredValue::new(response.token.clone());
    let heading = focus_when_shown::<leptos::html::H2>();
    let copy = move |_| {
        let t = token.get_value();
        spawn_local(async move {
            let ok = crate::browser::copy_to_clipboard(&t).await;
            let _ = copied.try_set(Some(ok));
        });
    };
    view! {
        <section class="card new-token" data-testid="new-token-box">
            <h2 node_ref=heading tabindex="-1">
                {btr(|t| t.new_token_title)}
            </h2>
            <p class="notice warning">{btr(|t| t.new_token_note)}</p>
            <p class="token-row">
                <code class="code token" data-testid="new-token">
                    {response.token.clone()}
                </code>
                <button
                    type="button"
                    class="button secondary"
                    data-testid="copy-token"
                    on:click=copy
                >
                    {btr(|t| t.copy)}
                </button>
            </p>
            <p class="small" role="status" aria-live="polite">
                {move || match copied.get() {
                    Some(true) => i18n.bt().copied,
                    Some(false) => i18n.bt().copy_failed,
                    None => "",
                }}
            </p>
        </section>
    }
}

/// The stored token's author: quota, submissions, forget button.
#[component]
fn Account(token: String, on_forget: Callback<()>) -> impl IntoView {
    let stored = StoredValue::new(token.clone());
    let me = LocalResource::new(move || {
        let token = token.clone();
        async move { api::me(&token).await }
    });
    let confirming = RwSignal::new(false);
    let forget = move || {
        view! {
            <div class="forget">
                {move || {
                    if confirming.get() {
                        view! {
                            <p class="notice warning" role="alert">
                                {btr(|t| t.forget_confirm)}
                            </p>
                            <div class="actions">
                                <button
                                    type="button"
                                    class="button primary"
                                    data-testid="forget-token-confirm"
                                    on:click=move |_| on_forget.run(())
                                >
                                    {btr(|t| t.forget_yes)}
                                </button>
                                <button
                                    type="button"
                                    class="button secondary"
                                    on:click=move |_| confirming.set(false)
                                >
                                    {btr(|t| t.cancel)}
                                </button>
                            </div>
                        }
                            .into_any()
                    } else {
                        view! {
                            <div class="actions">
                                <button
                                    type="button"
                                    class="button secondary"
                                    data-testid="forget-token"
                                    on:click=move |_| confirming.set(true)
                                >
                                    {btr(|t| t.forget_token)}
                                </button>
                            </div>
                        }
                            .into_any()
                    }
                }}
            </div>
        }
    };
    view! {
        <section class="card" data-testid="account">
            <h2>{btr(|t| t.your_account)}</h2>
            <Suspense fallback=|| view! { <crate::components::status::Loading /> }>
                {move || Suspend::new(async move {
                    match me.await {
                        Ok(me) => {
                            view! { <AccountDetails me=me token=stored.get_value() /> }.into_any()
                        }
                        Err(e) => {
                            view! {
                                <p class="notice error" role="alert" data-testid="account-error">
                                    {e.to_string()}
                                </p>
                            }
                                .into_any()
                        }
                    }
                })}
            </Suspense>
            {forget}
        </section>
    }
}

/// Name, quota and own submissions, each with a "Withdraw" button.
#[component]
fn AccountDetails(me: MeResponse, token: String) -> impl IntoView {
    let i18n = use_i18n();
    let MeResponse {
        name,
        organisation,
        quota,
        submissions,
        ..
    } = me;
    let who = if organisation.trim().is_empty() {
        name
    } else {
        format!("{name} · {organisation}")
    };
    let empty = submissions.is_empty();
    let items = submissions
        .into_iter()
        .map(|s| {
            let overall = s
                .public_scores
                .first()
                .and_then(|e| e.estimate)
                .map(|e| format::estimate(&e));
            let status = s.status;
            let score = match overall {
                Some(o) => view! { <span>{o}</span> }.into_any(),
                None => view! { <span>{move || status_text(i18n.lang(), status)}</span> }.into_any(),
            };
            let withdrawn = RwSignal::new(s.withdrawn);
            let state = move || withdrawn.get().then(|| {
                view! {
                    " · "
                    <span class="badge withdrawn">{btr(|t| t.withdrawn)}</span>
                }
            });
            view! {
                <li
                    data-testid="my-submission"
                    data-submission-id=s.submission_id.clone()
                    class:withdrawn=move || withdrawn.get()
                    data-withdrawn=move || withdrawn.get().to_string()
                >
                    <a href=format!("/models/{}", api::encode_component(&s.submission_id))>
                        {s.model.model_name.clone()}
                    </a>
                    " · "
                    <a href=format!("/boards/{}", api::encode_component(&s.task))>{s.task.clone()}</a>
                    " · "
                    {format::date(s.submitted_at)}
                    " · "
                    {score}
                    {state}
                    <WithdrawButton
                        submission_id=s.submission_id.clone()
                        token=token.clone()
                        withdrawn=withdrawn
                    />
                </li>
            }
        })
        .collect_view();
    view! {
        <p data-testid="account-who">{who}</p>
        <p>
            <strong>{btr(|t| t.quota_label)} ": "</strong>
            <span data-testid="quota">
                {move || (i18n.bt().quota_left)(quota.remaining, quota.daily_limit)}
            </span>
        </p>
        <h3>{btr(|t| t.my_submissions)}</h3>
        {if empty {
            view! { <p class="empty">{btr(|t| t.no_submissions)}</p> }.into_any()
        } else {
            view! { <ul class="submission-list">{items}</ul> }.into_any()
        }}
    }
}
