//! `/session/{id}`: one question at a time, answers sent idempotently, no right/wrong
//! feedback; the completion code once the last answer is acknowledged.

use crate::api;
use crate::browser::{elapsed_ms, now_ms, random_key};
use crate::components::sentence::Sentence;
use crate::components::status::{error_fallback, Loading};
use crate::format::{key_to_option, option_letter};
use crate::i18n::use_i18n;
use crate::pages::explain::ExplainQuestion;
use crate::storage;
use leptos::prelude::*;
use leptos::task::spawn_local;
use leptos_router::components::Redirect;
use leptos_router::hooks::use_params_map;
use leptos_router::NavigateOptions;
use memeboard_core::api::{
    AnswerInput, PromptView, SessionItem, SessionResponse, SessionStatus, SubmitAnswerRequest,
    SubmitAnswerResponse,
};
use wasm_bindgen::JsCast;

/// The session page.
#[component]
pub fn SessionPage() -> impl IntoView {
    let params = use_params_map();
    let id = move || params.read().get("id").unwrap_or_default();
    let session = LocalResource::new(move || {
        let id = id();
        async move { api::get_session(&id).await }
    });
    view! {
        <Suspense fallback=|| view! { <Loading /> }>
            <ErrorBoundary fallback=error_fallback>
                {move || Suspend::new(async move {
                    session.await.map(|s| view! { <QuizRunner session=s /> })
                })}
            </ErrorBoundary>
        </Suspense>
    }
}

/// The first unanswered position after `after` (wrapping around), if any.
fn next_unanswered(items: &[SessionItem], answered: &[bool], after: usize) -> Option<usize> {
    let open = || {
        items
            .iter()
            .zip(answered)
            .filter(|(_, done)| !**done)
            .map(|(item, _)| item.position)
    };
    open().find(|p| *p > after).or_else(|| open().next())
}

/// Runs a loaded session: the current question, then the completion box.
#[component]
fn QuizRunner(session: SessionResponse) -> impl IntoView {
    let session_id = session.session_id.clone();
    // Remember the session for "resume", and drop keys of answers the server already has.
    storage::set(&storage::session_key(&session.quiz_slug), &session_id);
    for item in session.items.iter().filter(|i| i.answered) {
        storage::remove(&storage::pending_key(&session_id, &item.item_id));
    }
    if session.status == SessionStatus::Completed {
        return view! {
            <Redirect
                path=format!("/session/{session_id}/results")
                options=NavigateOptions {
                    replace: true,
                    ..Default::default()
                }
            />
        }
        .into_any();
    }

    let total = session.items.len();
    let answered = RwSignal::new(session.items.iter().map(|i| i.answered).collect::<Vec<_>>());
    let answered_count =
        Signal::derive(move || answered.with(|a| a.iter().filter(|d| **d).count()));
    let items = StoredValue::new(session.items);
    let current = RwSignal::new(session.next_position);
    let completion = RwSignal::new(session.completion_code);
    let sid = StoredValue::new(session_id);

    let on_ack = Callback::new(move |(position, ack): (usize, SubmitAnswerResponse)| {
        let next = items.with_value(|its| {
            answered.update(|a| {
                if let Some(done) = its
                    .iter()
                    .position(|it| it.position == position)
                    .and_then(|i| a.get_mut(i))
                {
                    *done = true;
                }
            });
            answered.with_untracked(|a| next_unanswered(its, a, position))
        });
        if let Some(code) = ack.completion_code {
            completion.set(Some(code));
            current.set(None);
            return;
        }
        current.set(next);
        if next.is_none() {
            // Every item is answered but the ack carried no code: ask the session for it.
            let id = sid.get_value();
            spawn_local(async move {
                if let Ok(s) = api::get_session(&id).await {
                    completion.set(s.completion_code);
                }
            });
        }
    });

    view! {
        <div class="quiz" data-testid="quiz">
            <p class="muted quiz-title">{session.quiz_title}</p>
            {move || match current.get() {
                Some(pos) => {
                    items
                        .with_value(|its| its.iter().find(|i| i.position == pos).cloned())
                        .map(|item| match item.prompt.clone() {
                            PromptView::Explanation { meme } => {
                                view! {
                                    <ExplainQuestion
                                        item=item
                                        meme=meme
                                        total=total
                                        answered_count=answered_count
                                        session_id=sid.get_value()
                                        on_ack=on_ack
                                    />
                                }
                                    .into_any()
                            }
                            PromptView::TextMcq { .. } => {
                                view! {
                                    <Question
                                        item=item
                                        total=total
                                        answered_count=answered_count
                                        session_id=sid.get_value()
                                        on_ack=on_ack
                                    />
                                }
                                    .into_any()
                            }
                        })
                        .into_any()
                }
                None => {
                    view! { <Done session_id=sid.get_value() code=completion.into() /> }.into_any()
                }
            }}
        </div>
    }
    .into_any()
}

/// One question: sentence, lettered options, submit with retry; keyboard shortcuts.
#[component]
fn Question(
    item: SessionItem,
    total: usize,
    answered_count: Signal<usize>,
    session_id: String,
    on_ack: Callback<(usize, SubmitAnswerResponse)>,
) -> impl IntoView {
    let i18n = use_i18n();
    let (sentence, options) = match item.prompt {
        PromptView::TextMcq { sentence, options } => (sentence, options),
        // Explanation items are shown by `ExplainQuestion`.
        PromptView::Explanation { meme } => (meme, Vec::new()),
    };
    let option_count = options.len();
    let position = item.position;
    let shown_at = now_ms();

    let selected = RwSignal::new(None::<usize>);
    let sending = RwSignal::new(false);
    let error = RwSignal::new(None::<String>);
    let hint = RwSignal::new(false);
    let first_ms = StoredValue::new(None::<u64>);
    let pending_key = storage::pending_key(&session_id, &item.item_id);
    let ids = StoredValue::new((session_id, item.item_id.clone(), pending_key));

    let submit = move || {
        if sending.get_untracked() {
            return;
        }
        let Some(choice) = selected.get_untracked() else {
            hint.set(true);
            return;
        };
        hint.set(false);
        let (session_id, item_id, pending_key) = ids.get_value();
        // Reuse the key of an earlier attempt (even one from before a reload).
        let idempotency_key = storage::get(&pending_key)
            .filter(|k| !k.is_empty())
            .unwrap_or_else(|| {
                let k = random_key();
                storage::set(&pending_key, &k);
                k
            });
        let response_ms = first_ms.get_value().unwrap_or_else(|| {
            let ms = elapsed_ms(shown_at);
            first_ms.set_value(Some(ms));
            ms
        });
        let request = SubmitAnswerRequest {
            item_id,
            idempotency_key,
            answer: AnswerInput::Choice { position: choice },
            response_ms,
        };
        error.set(None);
        sending.set(true);
        spawn_local(async move {
            match api::submit_answer(&session_id, &request).await {
                Ok(ack) => {
                    storage::remove(&pending_key);
                    if !sending.is_disposed() {
                        on_ack.run((position, ack));
                    }
                }
                Err(e) => {
                    error.set(Some(e.to_string()));
                    sending.set(false);
                }
            }
        });
    };

    // Keys 1–5 / A–E choose; Enter submits (on a focused option: choose it and submit).
    let handle = window_event_listener(leptos::ev::keydown, move |ev| {
        if ev.default_prevented()
            || ev.ctrl_key()
            || ev.meta_key()
            || ev.alt_key()
            || ev.is_composing()
        {
            return;
        }
        let target = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok());
        let tag = target
            .as_ref()
            .map(|e| e.tag_name().to_ascii_uppercase())
            .unwrap_or_default();
        if matches!(tag.as_str(), "INPUT" | "SELECT" | "TEXTAREA") {
            return;
        }
        let key = ev.key();
        if key == "Enter" {
            if ev.repeat() || tag == "A" {
                return;
            }
            if tag == "BUTTON" {
                let option = target
                    .and_then(|e| e.get_attribute("data-option"))
                    .and_then(|v| v.parse::<usize>().ok());
                let Some(i) = option else {
                    return; // other buttons: let the browser click them
                };
                if sending.get_untracked() {
                    return;
                }
                selected.set(Some(i));
            }
            ev.prevent_default();
            submit();
            return;
        }
        if let Some(i) = key_to_option(&key).filter(|i| *i < option_count) {
            if !sending.get_untracked() {
                ev.prevent_default();
                selected.set(Some(i));
                hint.set(false);
            }
        }
    });
    on_cleanup(move || handle.remove());

    // Move focus to the new question so keyboard and screen-reader users start there.
    let heading = NodeRef::<leptos::html::H2>::new();
    Effect::new(move |_| {
        if let Some(h) = heading.get() {
            let _ = h.focus();
        }
    });

    let label_id = format!("options-label-{position}");
    let option_buttons = options
        .into_iter()
        .enumerate()
        .map(|(i, text)| {
            let is_selected = move || selected.get() == Some(i);
            view! {
                <button
                    type="button"
                    role="radio"
                    class="option"
                    class:selected=is_selected
                    aria-checked=move || if is_selected() { "true" } else { "false" }
                    data-testid=format!("option-{i}")
                    data-option=i.to_string()
                    disabled=move || sending.get()
                    on:click=move |_| {
                        selected.set(Some(i));
                        hint.set(false);
                    }
                >
                    <span class="letter">{option_letter(i).to_string()}</span>
                    <span class="option-text" lang="zh-CN">
                        {text}
                    </span>
                </button>
            }
        })
        .collect_view();

    view! {
        <section
            class="card question"
            data-testid="question"
            data-position=position.to_string()
            data-item-id=item.item_id.clone()
        >
            <h2 class="progress-label" data-testid="progress" node_ref=heading tabindex="-1">
                {move || (i18n.t().progress)(position + 1, total)}
            </h2>
            <progress
                class="progress-bar"
                max=total.to_string()
                value=move || answered_count.get().to_string()
                aria-hidden="true"
            ></progress>
            {item
                .content_warning
                .then(|| {
                    view! {
                        <p class="notice warning" role="note" data-testid="content-warning">
                            {move || i18n.t().content_warning}
                        </p>
                    }
                })}
            <Sentence text=sentence />
            <p class="options-label" id=label_id.clone()>
                {move || i18n.t().options_label}
            </p>
            <div class="options" role="radiogroup" aria-labelledby=label_id>
                {option_buttons}
            </div>
            <p class="notice info" role="status" aria-live="polite" hidden=move || !hint.get()>
                {move || i18n.t().choose_first}
            </p>
            {move || {
                error
                    .get()
                    .map(|detail| {
                        view! {
                            <div class="notice error" role="alert">
                                <p data-testid="answer-error">
                                    {move || i18n.t().answer_failed} {detail.clone()}
                                </p>
                                <button
                                    type="button"
                                    class="button secondary"
                                    data-testid="retry-answer"
                                    disabled=move || sending.get()
                                    on:click=move |_| submit()
                                >
                                    {move || i18n.t().retry}
                                </button>
                            </div>
                        }
                    })
            }}
            <div class="actions">
                <button
                    type="button"
                    class="button primary"
                    data-testid="submit-answer"
                    disabled=move || sending.get() || selected.get().is_none()
                    on:click=move |_| submit()
                >
                    {move || if sending.get() { i18n.t().sending } else { i18n.t().submit }}
                </button>
            </div>
            <p class="muted small kbd-hint">{move || i18n.t().keyboard_hint}</p>
        </section>
    }
}

/// The end of the batch: thanks, the completion code and the results link.
#[component]
fn Done(session_id: String, code: Signal<Option<String>>) -> impl IntoView {
    let i18n = use_i18n();
    let heading = NodeRef::<leptos::html::H2>::new();
    Effect::new(move |_| {
        if let Some(h) = heading.get() {
            let _ = h.focus();
        }
    });
    view! {
        <section class="card done" data-testid="done">
            <h2 node_ref=heading tabindex="-1">
                {move || i18n.t().done_title}
            </h2>
            {move || {
                code.get()
                    .map(|c| {
                        view! {
                            <p class="code-label">{move || i18n.t().completion_code}</p>
                            <p class="code" data-testid="completion-code">
                                {c}
                            </p>
                            <p class="muted small">{move || i18n.t().completion_hint}</p>
                        }
                    })
            }}
            <div class="actions">
                <a
                    class="button primary"
                    href=format!("/session/{session_id}/results")
                    data-testid="see-results"
                >
                    {move || i18n.t().see_results}
                </a>
            </div>
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn item(position: usize) -> SessionItem {
        SessionItem {
            position,
            item_id: format!("i{position}"),
            category: "slang".into(),
            content_warning: false,
            prompt: PromptView::TextMcq {
                sentence: "_____".into(),
                options: vec!["a".into(); 5],
            },
            answered: false,
        }
    }

    #[test]
    fn next_unanswered_goes_forward_then_wraps() {
        let items: Vec<_> = (0..4).map(item).collect();
        assert_eq!(
            next_unanswered(&items, &[true, true, false, false], 1),
            Some(2)
        );
        assert_eq!(
            next_unanswered(&items, &[false, true, true, true], 3),
            Some(0)
        );
        assert_eq!(next_unanswered(&items, &[true; 4], 3), None);
    }
}
