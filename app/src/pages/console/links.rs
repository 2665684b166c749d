//! The console's study links (the quiz's link and the one to paste into Prolific, each with a
//! copy button) and the form that deletes a participant's data on request.

use crate::api;
use crate::components::copy_row::CopyRow;
use crate::i18n::fieldwork::{st, FieldworkStrings};
use crate::i18n::use_i18n;
use leptos::ev::SubmitEvent;
use leptos::prelude::*;
use leptos::task::spawn_local;

/// The site's address (`https://host`), which the links start with.
fn origin() -> String {
    web_sys::window()
        .and_then(|w| w.location().origin().ok())
        .unwrap_or_default()
}

/// The quiz's plain link and its link for Prolific.
#[component]
pub(super) fn StudyLinks(slug: String, prolific_link: String) -> impl IntoView {
    let base = origin();
    let quiz = format!("{base}/quiz/{}", api::encode_component(&slug));
    let prolific = format!("{base}{prolific_link}");
    view! {
        <section class="card">
            <h2>{st(|s| s.links_title)}</h2>
            <CopyRow id={"quiz-link".to_owned()} testid="quiz-link" label=Signal::derive(st(|s| s.quiz_link)) link=quiz />
            <CopyRow id={"prolific-link".to_owned()} testid="prolific-link" label=Signal::derive(st(|s| s.prolific_link)) link=prolific />
        </section>
    }
}

/// Deletes a participant's data on request, after a confirmation, and reloads the console.
#[component]
pub(super) fn DeleteParticipant(
    slug: StoredValue<String>,
    token: StoredValue<String>,
    reload: Callback<()>,
) -> impl IntoView {
    let i18n = use_i18n();
    let who = RwSignal::new(String::new());
    let outcome = RwSignal::new(None::<Result<String, String>>);
    let sending = RwSignal::new(false);
    let on_submit = move |ev: SubmitEvent| {
        ev.prevent_default();
        let name = who.get_untracked().trim().to_owned();
        if name.is_empty() || sending.get_untracked() {
            return;
        }
        let strings = i18n.lang_untracked().table::<FieldworkStrings>();
        let confirmed = web_sys::window()
            .and_then(|w| {
                w.confirm_with_message(&(strings.delete_confirm)(&name))
                    .ok()
            })
            .unwrap_or(false);
        if !confirmed {
            return;
        }
        sending.set(true);
        spawn_local(async move {
            let result =
                api::delete_participant(&slug.get_value(), &name, &token.get_value()).await;
            let _ = sending.try_set(false);
            let _ = outcome.try_set(Some(match result {
                Ok(d) => {
                    who.set(String::new());
                    reload.run(());
                    Ok((strings.deleted)(
                        d.participants,
                        usize::try_from(d.sessions).unwrap_or(0),
                        usize::try_from(d.answers).unwrap_or(0),
                    ))
                }
                Err(e) => Err(e.to_string()),
            }));
        });
    };
    view! {
        <section class="card">
            <h2>{st(|s| s.delete_title)}</h2>
            <form class="stack" on:submit=on_submit data-testid="delete-participant">
                <div class="field">
                    <label for="delete-who">{st(|s| s.delete_label)}</label>
                    <input
                        id="delete-who"
                        type="text"
                        autocomplete="off"
                        data-testid="delete-who"
                        prop:value=move || who.get()
                        on:input=move |ev| who.set(event_target_value(&ev))
                    />
                </div>
                {move || outcome.get().map(|o| match o {
                    Ok(m) => view! { <p class="notice" role="status" data-testid="deleted">{m}</p> }.into_any(),
                    Err(e) => view! { <p class="notice error" role="alert">{e}</p> }.into_any(),
                })}
                <button type="submit" class="button secondary" disabled=move || sending.get()>
                    {st(|s| s.delete_button)}
                </button>
            </form>
        </section>
    }
}
