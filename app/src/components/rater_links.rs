//! A study's rater links on its page, each with a copy button, and for an invitation-only
//! study (whose secret was shown once, at creation) the button that reissues the invitation
//! and shows the new links once.

use crate::components::copy_row::CopyRow;
use crate::i18n::human::{hs, HumanStrings};
use crate::i18n::use_i18n;
use crate::study_api;
use leptos::prelude::*;
use leptos::task::spawn_local;
use memeboard_core::human_eval::study::RaterLink;

/// The site's address (`https://host`), which the links start with.
fn origin() -> String {
    web_sys::window()
        .and_then(|w| w.location().origin().ok())
        .unwrap_or_default()
}

/// One task's rater link and Prolific link, with copy buttons.
fn link_rows(link: &RaterLink) -> impl IntoView {
    let base = origin();
    let (rater, prolific) = (
        format!("{base}{}", link.link),
        format!("{base}{}", link.prolific_link),
    );
    let task = link.task.clone();
    view! {
        <p><code>{task.clone()}</code></p>
        <CopyRow
            id=format!("rater-{task}")
            testid="rater-link-copy"
            label=Signal::derive(hs(|s| s.rater_link))
            link=rater
        />
        <CopyRow
            id=format!("prolific-{task}")
            testid="prolific-link-copy"
            label=Signal::derive(hs(|s| s.prolific_link))
            link=prolific
        />
    }
}

/// The rater links of a study (`links` as the page knows them: without the secret of an
/// invitation-only study) and, when `invitation_only`, the reissue button.
#[component]
pub fn RaterLinks(
    /// Study slug.
    slug: String,
    /// The owner token.
    token: String,
    /// Reached only through the secret link.
    invitation_only: bool,
    /// Each judging task's links, as the study page has them.
    links: Vec<RaterLink>,
) -> impl IntoView {
    let i18n = use_i18n();
    let fresh = RwSignal::new(None::<Result<Vec<RaterLink>, String>>);
    let sending = RwSignal::new(false);
    let (slug, token) = (StoredValue::new(slug), StoredValue::new(token));
    let reissue = move |_| {
        if sending.get_untracked() {
            return;
        }
        let question = i18n
            .lang_untracked()
            .table::<HumanStrings>()
            .reissue_confirm;
        let confirmed = web_sys::window()
            .and_then(|w| w.confirm_with_message(question).ok())
            .unwrap_or(false);
        if !confirmed {
            return;
        }
        sending.set(true);
        spawn_local(async move {
            let result = study_api::reissue_invitation(&slug.get_value(), &token.get_value()).await;
            let _ = sending.try_set(false);
            let _ = fresh.try_set(Some(result.map(|r| r.links).map_err(|e| e.to_string())));
        });
    };
    let known = (!invitation_only).then(|| links.iter().map(link_rows).collect_view());
    view! {
        {known}
        {invitation_only.then(|| view! {
            <p class="muted">{hs(|s| s.invitation_hidden)}</p>
            <button
                type="button"
                class="button secondary"
                data-testid="reissue-invitation"
                disabled=move || sending.get()
                on:click=reissue
            >
                {hs(|s| s.reissue)}
            </button>
        })}
        {move || fresh.get().map(|r| match r {
            Ok(links) => view! {
                <div class="notice" role="status" data-testid="reissued">
                    <p><strong>{hs(|s| s.secret_once)}</strong></p>
                    {links.iter().map(link_rows).collect_view()}
                </div>
            }
            .into_any(),
            Err(e) => view! { <p class="notice error" role="alert">{e}</p> }.into_any(),
        })}
    }
}
