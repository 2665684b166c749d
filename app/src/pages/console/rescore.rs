//! The console's "score every upload again" form: after a corrected gold, the owner states
//! why and the server rescores the task's stored prediction files in the background.

use super::st;
use crate::api;
use crate::i18n::fieldwork::FieldworkStrings;
use crate::i18n::use_i18n;
use leptos::ev::SubmitEvent;
use leptos::prelude::*;
use leptos::task::spawn_local;

/// The form; the outcome is the server's answer (started, or why not).
#[component]
pub(super) fn Rescore(slug: StoredValue<String>, token: StoredValue<String>) -> impl IntoView {
    let i18n = use_i18n();
    let reason = RwSignal::new(String::new());
    let outcome = RwSignal::new(None::<Result<String, api::ApiError>>);
    let sending = RwSignal::new(false);
    let on_submit = move |ev: SubmitEvent| {
        ev.prevent_default();
        if sending.get_untracked() {
            return;
        }
        sending.set(true);
        let why = reason.get_untracked();
        spawn_local(async move {
            let result = api::rescore(&slug.get_value(), &why, &token.get_value()).await;
            let _ = sending.try_set(false);
            let _ = outcome.try_set(Some(result.map(|started| started.reason)));
        });
    };
    view! {
        <section class="card">
            <h2>{st(|s| s.rescore_title)}</h2>
            <p class="muted">{st(|s| s.rescore_intro)}</p>
            <form class="stack" on:submit=on_submit data-testid="rescore">
                <div class="field">
                    <label for="rescore-reason">{st(|s| s.rescore_label)}</label>
                    <input
                        id="rescore-reason"
                        type="text"
                        maxlength="200"
                        autocomplete="off"
                        data-testid="rescore-reason"
                        prop:value=move || reason.get()
                        on:input=move |ev| reason.set(event_target_value(&ev))
                    />
                </div>
                {move || outcome.get().map(|o| match o {
                    Ok(_) => view! {
                        <p class="notice" role="status" data-testid="rescore-started">
                            {move || i18n.table::<FieldworkStrings>().rescore_started}
                        </p>
                    }
                    .into_any(),
                    // The server's coded message, in the reader's language.
                    Err(e) => view! {
                        <p class="notice error" role="alert">{move || { i18n.lang(); e.to_string() }}</p>
                    }
                    .into_any(),
                })}
                <button type="submit" class="button secondary" disabled=move || sending.get()>
                    {st(|s| s.rescore_button)}
                </button>
            </form>
        </section>
    }
}
