//! A link shown with its copy button (study links on the console, rater links on a study
//! page), and the outcome of copying in the reader's language.

use crate::i18n::fieldwork::{st, FieldworkStrings};
use crate::i18n::use_i18n;
use leptos::prelude::*;
use leptos::task::spawn_local;

/// One labelled link with its copy button.
#[component]
pub fn CopyRow(
    /// Names the row (unique on the page).
    id: String,
    /// The link's `data-testid`.
    testid: &'static str,
    /// What the link is for, in the reader's language.
    label: Signal<&'static str>,
    /// The link, whole (with the site's address).
    link: String,
) -> impl IntoView {
    let i18n = use_i18n();
    let copied = RwSignal::new(None::<bool>);
    let text = StoredValue::new(link.clone());
    let copy = move |_| {
        spawn_local(async move {
            let ok = crate::browser::copy_to_clipboard(&text.get_value()).await;
            let _ = copied.try_set(Some(ok));
        });
    };
    let label_id = format!("{id}-label");
    view! {
        <div class="field">
            <span class="label" id=label_id.clone()>{label}</span>
            <div class="copy-row">
                <code data-testid=testid aria-labelledby=label_id>{link}</code>
                <button type="button" class="button secondary" on:click=copy>{st(|s| s.copy)}</button>
            </div>
            {move || copied.get().map(|ok| view! {
                <p class="muted small" role="status">
                    {move || {
                        let s = i18n.table::<FieldworkStrings>();
                        if ok { s.copied } else { s.copy_failed }
                    }}
                </p>
            })}
        </div>
    }
}
