//! Labelled form fields bound to a signal: a text (or number) input and a checkbox, as the
//! researchers' forms (quiz settings, study set-up) lay them out.

use leptos::prelude::*;

/// A labelled text (or number) input bound to a string signal; its `id` is also its
/// `data-testid`.
#[component]
pub fn TextField(
    /// The input's id.
    id: &'static str,
    /// The label (in the current language).
    label: impl Fn() -> &'static str + Send + Sync + 'static,
    /// The value.
    value: RwSignal<String>,
    /// The input's type.
    #[prop(default = "text")]
    kind: &'static str,
) -> impl IntoView {
    view! {
        <div class="field">
            <label for=id>{label}</label>
            <input
                id=id
                type=kind
                data-testid=id
                prop:value=move || value.get()
                on:input=move |ev| value.set(event_target_value(&ev))
            />
        </div>
    }
}

/// A labelled checkbox bound to a bool signal; its `id` is also its `data-testid`.
#[component]
pub fn CheckField(
    /// The checkbox's id.
    id: &'static str,
    /// The label (in the current language).
    label: impl Fn() -> &'static str + Send + Sync + 'static,
    /// The value.
    value: RwSignal<bool>,
) -> impl IntoView {
    view! {
        <div class="field check">
            <input
                id=id
                type="checkbox"
                data-testid=id
                prop:checked=move || value.get()
                on:change=move |ev| value.set(event_target_checked(&ev))
            />
            <label for=id>{label}</label>
        </div>
    }
}
