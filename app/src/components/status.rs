//! Loading placeholder and the one error view every page's `ErrorBoundary` falls back to,
//! and [`Loaded`], the two around a loaded resource.

use crate::api::ApiError;
use crate::i18n::use_i18n;
use leptos::prelude::*;

/// "Loading…", announced politely to screen readers. The first one a page shows keeps the
/// server's first paint up instead (`crate::boot`): the app takes over when it goes.
#[component]
pub fn Loading() -> impl IntoView {
    let i18n = use_i18n();
    crate::boot::hold();
    on_cleanup(crate::boot::take_over);
    view! {
        <p class="loading" role="status" aria-live="polite" data-testid="loading">
            {move || i18n.t().loading}
        </p>
    }
}

/// An error box with the given messages and a link home.
#[component]
pub fn ErrorNotice(
    /// Messages to list (each error's display text).
    #[prop(into)]
    messages: Signal<Vec<String>>,
) -> impl IntoView {
    let i18n = use_i18n();
    view! {
        <section class="card error-box" role="alert" data-testid="error">
            <h2>{move || i18n.t().error_title}</h2>
            <ul class="error-list">
                {move || {
                    messages
                        .get()
                        .into_iter()
                        .map(|m| view! { <li>{m}</li> })
                        .collect_view()
                }}
            </ul>
            <p>
                <a href="/">{move || i18n.t().back_home}</a>
            </p>
        </section>
    }
}

/// The shared `ErrorBoundary` fallback: lists every caught error's message.
pub fn error_fallback(errors: ArcRwSignal<Errors>) -> impl IntoView {
    let i18n = use_i18n();
    // Written again on a language switch: the server's messages render from their codes.
    let messages = Signal::derive(move || {
        i18n.lang();
        errors
            .get()
            .into_iter()
            .map(|(_, e)| e.to_string())
            .collect::<Vec<_>>()
    });
    view! { <ErrorNotice messages=messages /> }
}

/// The `ErrorBoundary` fallback of a page whose `<h1>` comes with its data (a board, a model
/// page): the error box under the page's one `<h1>`, for screen readers (the box shows the
/// same title).
pub fn page_error_fallback(errors: ArcRwSignal<Errors>) -> impl IntoView {
    let i18n = use_i18n();
    view! {
        <h1 class="visually-hidden">{move || i18n.t().error_title}</h1>
        {error_fallback(errors)}
    }
}

/// A loaded resource's part of a page: [`Loading`] while it loads, the shared error box
/// ([`error_fallback`]) if it fails, and `render`'s view of its value.
#[component]
pub fn Loaded<T, V, F>(
    /// What is loaded.
    resource: LocalResource<Result<T, ApiError>>,
    /// The view of the loaded value.
    render: F,
) -> impl IntoView
where
    T: Clone + Send + Sync + 'static,
    V: IntoView + Send + 'static,
    F: Fn(T) -> V + Clone + Send + Sync + 'static,
{
    view! {
        <Suspense fallback=|| view! { <Loading /> }>
            <ErrorBoundary fallback=error_fallback>
                {move || {
                    let render = render.clone();
                    Suspend::new(async move { resource.await.map(render) })
                }}
            </ErrorBoundary>
        </Suspense>
    }
}
