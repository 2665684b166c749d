//! How a session ends: the completion box with the code and the results link, the owner's
//! hand-off (code, link, then the redirect), and the end of a session cut short (screen-out).

use crate::browser::focus_when_shown;
use crate::i18n::{tr, use_i18n};
use leptos::prelude::*;
use leptos::task::spawn_local;
use memeboard_core::fieldwork::ScreenOut;

/// Seconds the study code shows before the hand-off redirect.
const REDIRECT_DELAY_MS: i32 = 3_000;

/// The study's code and link, then the redirect (the code stays on screen if it fails), unless
/// the participant has left the page meanwhile ("See your results": no redirect over it).
#[component]
pub(super) fn Handoff(url: String, code: String) -> impl IntoView {
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
pub(super) fn ScreenedOut(screen_out: ScreenOut) -> impl IntoView {
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

/// The end of the batch: thanks, the completion code and the results link; with the owner's
/// hand-off, the study's code and link, followed by itself after a few seconds.
#[component]
pub(super) fn Done(
    session_id: String,
    code: Signal<Option<String>>,
    handoff: Signal<Option<(String, String)>>,
) -> impl IntoView {
    let i18n = use_i18n();
    let heading = focus_when_shown::<leptos::html::H1>();
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
