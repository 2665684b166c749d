//! `/session/{id}`: one question at a time (each kind's question component, see
//! [`crate::kinds`]), answers sent idempotently, no right/wrong feedback; the completion code
//! once the last answer is acknowledged.

use crate::api;
use crate::components::answer::forget_recorded;
use crate::components::status::{error_fallback, Loading};
use crate::components::title::{in_lang, use_page_title};
use crate::i18n::use_i18n;
use crate::kinds;
use crate::storage;
use leptos::prelude::*;
use leptos::task::spawn_local;
use leptos_router::components::Redirect;
use leptos_router::hooks::use_params_map;
use leptos_router::NavigateOptions;
use memeboard_core::api::{SessionItem, SessionResponse, SessionStatus, SubmitAnswerResponse};

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
    forget_recorded(&session_id, &session.items);
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
    let quiz_title = session.quiz_title.clone();
    use_page_title(move |lang| {
        let page = match current.get() {
            Some(pos) => (lang.strings().progress)(pos + 1, total),
            None => lang.strings().completion_code.to_owned(),
        };
        format!("{page} · {}", in_lang(&quiz_title, lang))
    });
    let quiz_slug = StoredValue::new(session.quiz_slug);

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
                        .with_value(|its| {
                            let item = its.iter().find(|i| i.position == pos).cloned()?;
                            // The item likely shown next (its media can load meanwhile).
                            let next = answered
                                .with_untracked(|a| next_unanswered(its, a, pos))
                                .filter(|&p| p != pos)
                                .and_then(|p| its.iter().find(|i| i.position == p));
                            Some(
                                kinds::question_view(
                                    item,
                                    next,
                                    total,
                                    answered_count,
                                    sid.get_value(),
                                    quiz_slug.get_value(),
                                    on_ack,
                                ),
                            )
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

/// The end of the batch: thanks, the completion code and the results link.
#[component]
fn Done(session_id: String, code: Signal<Option<String>>) -> impl IntoView {
    let i18n = use_i18n();
    let heading = NodeRef::<leptos::html::H1>::new();
    Effect::new(move |_| {
        if let Some(h) = heading.get() {
            let _ = h.focus();
        }
    });
    view! {
        <section class="card done" data-testid="done">
            <h1 node_ref=heading tabindex="-1">
                {move || i18n.t().done_title}
            </h1>
            {move || {
                code.get()
                    .map(|c| {
                        view! {
                            <p class="code-label">{move || i18n.t().completion_code}</p>
                            <p class="code" data-testid="completion-code">
                                {c.clone()}
                            </p>
                            <CopyCode code=c />
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
                <a class="button secondary" href="/" data-testid="back-home">
                    {move || i18n.t().back_home}
                </a>
            </div>
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use memeboard_core::api::PromptView;
    use memeboard_core::kinds::text_mcq::View;

    fn item(position: usize) -> SessionItem {
        SessionItem {
            position,
            item_id: format!("i{position}"),
            category: "slang".into(),
            content_warning: false,
            prompt: PromptView::TextMcq(View {
                sentence: "_____".into(),
                options: vec!["a".into(); 5],
            }),
            answered: false,
            preface: None,
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

/// Copies the completion code, saying whether it worked (or to copy it by hand).
#[component]
fn CopyCode(code: String) -> impl IntoView {
    let i18n = use_i18n();
    let state = RwSignal::new(None::<bool>);
    let code = StoredValue::new(code);
    let copy = move |_| {
        leptos::task::spawn_local(async move {
            let ok = crate::browser::copy_to_clipboard(&code.get_value()).await;
            let _ = state.try_set(Some(ok));
        });
    };
    view! {
        <p class="actions">
            <button type="button" class="button secondary" data-testid="copy-code" on:click=copy>
                {move || match state.get() {
                    Some(true) => i18n.t().copied,
                    _ => i18n.t().copy,
                }}
            </button>
            {move || (state.get() == Some(false)).then(|| view! {
                <span class="muted small" role="status">{move || i18n.t().copy_code_failed}</span>
            })}
        </p>
    }
}
