//! `/session/{id}`: one question at a time (each kind's question component, see
//! [`crate::kinds`]), answers sent idempotently, no right/wrong feedback; the completion code
//! once the last answer is acknowledged.

use crate::api;
use crate::components::answer::forget_recorded;
use crate::components::status::{error_fallback, Loading};
use crate::components::title::{in_lang, use_page_title};
use crate::i18n::tr;
use crate::i18n::use_i18n;
use crate::kinds;
use crate::storage;
use leptos::prelude::*;
use leptos::task::spawn_local;
use leptos_router::components::Redirect;
use leptos_router::hooks::use_params_map;
use leptos_router::NavigateOptions;
use memeboard_core::api::{SessionItem, SessionResponse, SessionStatus, SubmitAnswerResponse};
use memeboard_core::study::{
    check_instruction, check_option_labels, CheckPlan, ScreenOut, SubmitCheckRequest,
};

/// Seconds the study code shows before the hand-off redirect.
const REDIRECT_DELAY_MS: i32 = 3_000;

/// The study's code and link, then the redirect (the code stays on screen if it fails), unless
/// the participant has left the page meanwhile ("See your results": no redirect over it).
#[component]
fn Handoff(url: String, code: String) -> impl IntoView {
    let target = url.clone();
    // Gone from the page (the participant went on): no redirect.
    let shown = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
    let still = shown.clone();
    on_cleanup(move || shown.store(false, std::sync::atomic::Ordering::Relaxed));
    spawn_local(async move {
        crate::browser::sleep_ms(REDIRECT_DELAY_MS).await;
        if let Some(w) =
            web_sys::window().filter(|_| still.load(std::sync::atomic::Ordering::Relaxed))
        {
            let _ = w.location().assign(&target);
        }
    });
    view! {
        <div data-testid="handoff">
            {(!code.is_empty()).then(|| view! {
                <p class="code-label">{tr(|t| t.study_code)}</p>
                <p class="code" data-testid="handoff-code">{code.clone()}</p>
            })}
            <p role="status">{tr(|t| t.redirect_note)}</p>
            <p>
                <a class="button primary" href=url data-testid="handoff-link">{tr(|t| t.redirect_link)}</a>
            </p>
        </div>
    }
}

/// The end of a session cut short (failed checks with a screen-out): code, link, redirect.
#[component]
fn ScreenedOut(screen_out: ScreenOut) -> impl IntoView {
    let i18n = use_i18n();
    let reason = screen_out.reason.clone();
    view! {
        <section class="card done" data-testid="screened-out">
            <h1>{tr(|t| t.screened_title)}</h1>
            <p>{tr(|t| t.screened_text)}</p>
            <p class="muted small">
                {move || if i18n.lang() == crate::i18n::Lang::Zh { reason.zh.clone() } else { reason.en.clone() }}
            </p>
            <Handoff url=screen_out.redirect_url code=screen_out.code />
        </section>
    }
}

/// One instructed-response attention check, in the participant's language.
#[component]
fn AttentionCheck(
    session_id: String,
    check: CheckPlan,
    on_done: Callback<(u8, Option<ScreenOut>)>,
) -> impl IntoView {
    let i18n = use_i18n();
    let chosen = RwSignal::new(None::<u8>);
    let sending = RwSignal::new(false);
    let error = RwSignal::new(None::<String>);
    let shown_at = crate::browser::now_ms();
    let sid = StoredValue::new(session_id);
    let heading = NodeRef::<leptos::html::H1>::new();
    Effect::new(move |_| {
        if let Some(h) = heading.get() {
            let _ = h.focus();
        }
    });
    let submit = move |_| {
        let Some(choice) = chosen.get_untracked() else {
            return;
        };
        if sending.get_untracked() {
            return;
        }
        sending.set(true);
        let request = SubmitCheckRequest {
            index: check.index,
            choice,
            response_ms: crate::browser::elapsed_ms(shown_at),
        };
        spawn_local(async move {
            match api::submit_check(&sid.get_value(), &request).await {
                Ok(r) => on_done.run((check.index, r.screen_out)),
                Err(e) => {
                    let _ = error.try_set(Some(e.to_string()));
                    let _ = sending.try_set(false);
                }
            }
        });
    };
    let options = (0..check.num_options)
        .map(|i| {
            let id = format!("check-{}-{i}", check.index);
            view! {
                <li>
                    <input
                        type="radio"
                        name=format!("check-{}", check.index)
                        id=id.clone()
                        data-testid=format!("check-option-{i}")
                        prop:checked=move || chosen.get() == Some(i)
                        on:change=move |_| chosen.set(Some(i))
                    />
                    <label for=id>
                        {move || {
                            check_option_labels(i18n.lang() == crate::i18n::Lang::Zh)
                                .get(usize::from(i))
                                .copied()
                                .unwrap_or_default()
                        }}
                    </label>
                </li>
            }
        })
        .collect_view();
    view! {
        <section class="card question" data-testid="attention-check">
            <h1 node_ref=heading tabindex="-1">{tr(|t| t.check_title)}</h1>
            <fieldset>
                <legend>{move || check_instruction(i18n.lang() == crate::i18n::Lang::Zh, check.target)}</legend>
                <ul class="options plain">{options}</ul>
            </fieldset>
            {move || error.get().map(|e| view! { <p class="notice error" role="alert">{e}</p> })}
            <button
                type="button"
                class="button primary"
                data-testid="check-continue"
                disabled=move || chosen.get().is_none() || sending.get()
                on:click=submit
            >
                {tr(|t| t.check_continue)}
            </button>
        </section>
    }
}

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

/// The items of a session with the page each is shown on: each item's page key
/// ([`kinds::page_key`]), read once when the session loads (`None`: shown alone).
struct Pages<'a> {
    items: &'a [SessionItem],
    keys: &'a [Option<String>],
}

/// Each item's page key, in session order.
fn page_keys(items: &[SessionItem]) -> Vec<Option<String>> {
    items.iter().map(|i| kinds::page_key(&i.prompt)).collect()
}

impl Pages<'_> {
    /// Indices of the items on `pos`'s page, in session order; empty when it is shown alone.
    fn on_page_of(&self, pos: usize) -> Vec<usize> {
        let key = self
            .items
            .iter()
            .position(|i| i.position == pos)
            .and_then(|at| self.keys.get(at).cloned().flatten());
        match key {
            Some(key) => (0..self.items.len())
                .filter(|&at| self.keys[at].as_deref() == Some(key.as_str()))
                .collect(),
            None => Vec::new(),
        }
    }

    /// The items shown on `pos`'s page, in session order with the live answered state;
    /// empty when the item is shown alone.
    fn items(&self, answered: &[bool], pos: usize) -> Vec<SessionItem> {
        self.on_page_of(pos)
            .into_iter()
            .map(|at| SessionItem {
                answered: answered.get(at).copied().unwrap_or(false),
                ..self.items[at].clone()
            })
            .collect()
    }

    /// Where a loaded session resumes: on a page left half-done (some of its items answered,
    /// as after a reload in the middle of a page of several), else at the server's next
    /// position.
    fn resume_position(&self, next: Option<usize>) -> Option<usize> {
        self.items
            .iter()
            .filter(|i| !i.answered)
            .find(|i| {
                self.on_page_of(i.position)
                    .iter()
                    .any(|&at| self.items[at].answered)
            })
            .map(|i| i.position)
            .or(next)
    }

    /// Whether an attention check placed before `before` comes up before the page of `pos`:
    /// it was placed before the item itself or before another item of its page.
    fn check_due(&self, pos: usize, before: usize) -> bool {
        before == pos
            || self
                .on_page_of(pos)
                .iter()
                .any(|&at| self.items[at].position == before)
    }
}

/// Runs a loaded session: the current question, then the completion box.
#[component]
fn QuizRunner(session: SessionResponse) -> impl IntoView {
    let session_id = session.session_id.clone();
    // Remember the session for "resume" (or, finished, for its results), and drop keys of
    // answers the server already has.
    let completed = session.status == SessionStatus::Completed;
    let finished = format!("{session_id}{}", storage::FINISHED);
    let remembered = if completed { &finished } else { &session_id };
    storage::set(&storage::session_key(&session.quiz_slug), remembered);
    forget_recorded(&session_id, &session.items);
    if let Some(out) = session.screen_out.clone() {
        return view! { <ScreenedOut screen_out=out /> }.into_any();
    }
    if completed {
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
    let keys = StoredValue::new(page_keys(&session.items));
    let current = keys.with_value(|keys| {
        let pages = Pages {
            items: &session.items,
            keys,
        };
        RwSignal::new(pages.resume_position(session.next_position))
    });
    let items = StoredValue::new(session.items);
    let completion = RwSignal::new(session.completion_code);
    // The owner's hand-off, once the last answer is acknowledged: (url, code).
    let handoff = RwSignal::new(None::<(String, String)>);
    let screen_out = RwSignal::new(None::<ScreenOut>);
    let checks = RwSignal::new(session.checks);
    let sid = StoredValue::new(session_id);
    let i18n = use_i18n();
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
            let finished = format!("{}{}", sid.get_value(), storage::FINISHED);
            storage::set(&storage::session_key(&quiz_slug.get_value()), &finished);
            if let (Some(url), Some(study_code)) = (ack.redirect_url, ack.redirect_code) {
                handoff.set(Some((url, study_code)));
            }
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

    // An attention check placed before any item of the current page comes before the page.
    let due = move |pos: usize, before: usize| {
        items.with_value(|items| {
            keys.with_value(|keys| Pages { items, keys }.check_due(pos, before))
        })
    };
    let on_check = Callback::new(move |(index, out): (u8, Option<ScreenOut>)| {
        checks.update(|cs| {
            if let Some(c) = cs.iter_mut().find(|c| c.plan.index == index) {
                c.answered = true;
            }
        });
        if out.is_some() {
            screen_out.set(out);
        }
    });
    view! {
        <div class="quiz" data-testid="quiz">
            <p class="muted quiz-title">{move || in_lang(&session.quiz_title, i18n.lang()).to_owned()}</p>
            {move || match (screen_out.get(), current.get()) {
                (Some(out), _) => view! { <ScreenedOut screen_out=out /> }.into_any(),
                (None, Some(pos)) if checks.with(|cs| cs.iter().any(|c| !c.answered && due(pos, c.plan.before_position))) => {
                    let check = checks.with(|cs| cs.iter().find(|c| !c.answered && due(pos, c.plan.before_position)).cloned());
                    check
                        .map(|c| view! { <AttentionCheck session_id=sid.get_value() check=c.plan on_done=on_check /> })
                        .into_any()
                }
                (None, Some(pos)) => {
                    items
                        .with_value(|its| {
                            let item = its.iter().find(|i| i.position == pos).cloned()?;
                            // The item likely shown next (its media can load meanwhile).
                            let next = answered
                                .with_untracked(|a| next_unanswered(its, a, pos))
                                .filter(|&p| p != pos)
                                .and_then(|p| its.iter().find(|i| i.position == p));
                            let page = keys.with_value(|keys| {
                                let pages = Pages { items: its, keys };
                                answered.with_untracked(|a| pages.items(a, pos))
                            });
                            let run = kinds::RunnerContext {
                                total,
                                answered_count,
                                session_id: sid.get_value(),
                                quiz_slug: quiz_slug.get_value(),
                                on_ack,
                            };
                            Some(kinds::question_view(item, next, page, run))
                        })
                        .into_any()
                }
                (None, None) => {
                    view! { <Done session_id=sid.get_value() code=completion.into() handoff=handoff.into() /> }.into_any()
                }
            }}
        </div>
    }
    .into_any()
}

/// The end of the batch: thanks, the completion code and the results link; with the owner's
/// hand-off, the study's code and link, followed by itself after a few seconds.
#[component]
fn Done(
    session_id: String,
    code: Signal<Option<String>>,
    handoff: Signal<Option<(String, String)>>,
) -> impl IntoView {
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
            {move || handoff.get().map(|(url, study_code)| view! { <Handoff url=url code=study_code /> })}
            {move || {
                code.get()
                    .filter(|_| handoff.with(Option::is_none))
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
    fn items_shown_alone_resume_at_the_servers_position() {
        let mut items: Vec<_> = (0..4).map(item).collect();
        items[0].answered = true;
        let keys = page_keys(&items);
        let pages = Pages {
            items: &items,
            keys: &keys,
        };
        assert_eq!(pages.resume_position(Some(1)), Some(1));
        assert!(pages.items(&[true, false, false, false], 1).is_empty());
    }

    /// A rating page of meme `phrase` shown with the meme's other pages.
    fn rating(position: usize, phrase: &str, answered: bool) -> SessionItem {
        use memeboard_core::human_eval::outputs::{ExplainedOutput, RatedSubject};
        use memeboard_core::kinds::rating::{RatingProtocol, View};
        SessionItem {
            prompt: PromptView::Rating(View {
                protocol: RatingProtocol::Accuracy,
                subject: RatedSubject::Meme {
                    phrase: phrase.into(),
                },
                reference: None,
                output: ExplainedOutput {
                    meaning: format!("output {position}"),
                    origin: None,
                    example: None,
                },
                has_context: false,
                statements: None,
                one_page_per_subject: true,
                error_labels: vec![],
            }),
            answered,
            ..item(position)
        }
    }

    #[test]
    fn a_memes_pages_share_one_page_and_a_half_done_page_resumes_first() {
        let items = vec![
            rating(0, "A", false),
            rating(1, "B", false),
            rating(2, "A", true),
            rating(3, "B", false),
        ];
        let answered: Vec<bool> = items.iter().map(|i| i.answered).collect();
        let keys = page_keys(&items);
        let pages = Pages {
            items: &items,
            keys: &keys,
        };
        let page: Vec<usize> = pages
            .items(&answered, 0)
            .iter()
            .map(|i| i.position)
            .collect();
        assert_eq!(page, [0, 2]);
        assert!(pages.items(&answered, 0)[1].answered);
        // The server would go on at 1 (meme B); the half-done page of meme A comes first.
        assert_eq!(pages.resume_position(Some(1)), Some(0));
        // A check placed before any item of the page comes before the page.
        assert!(pages.check_due(0, 2));
        assert!(!pages.check_due(0, 1));
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
