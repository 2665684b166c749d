//! The error labels' question (issue 31): once the rater's verdicts or scores mark the
//! explanation wrong, a group of checkboxes asks what is wrong with it, one per error label of
//! the study (in the reader's language); the keys ticked go with the answer.

use super::texts::Texts;
use crate::i18n::{use_i18n, Lang, StringTable};
use leptos::prelude::*;
use memeboard_core::human_eval::error_labels::ErrorLabel;

/// The keys ticked, kept only while the explanation is judged wrong (the server refuses tags
/// on an explanation that is not).
pub(super) fn tags_if_wrong(wrong: bool, ticked: RwSignal<Vec<String>>) -> Vec<String> {
    if wrong {
        ticked.get()
    } else {
        Vec::new()
    }
}

/// One checkbox per label, shown while `wrong` holds.
#[component]
pub(super) fn ErrorTags(
    /// The page's labels (none: nothing is shown).
    labels: Vec<ErrorLabel>,
    /// Whether the rater's judgement marks the explanation wrong.
    wrong: Signal<bool>,
    /// The keys ticked.
    ticked: RwSignal<Vec<String>>,
    /// Unique prefix of the inputs' ids on the page.
    group: String,
    /// Whether the inputs are locked.
    locked: Signal<bool>,
) -> impl IntoView {
    let i18n = use_i18n();
    let empty = labels.is_empty();
    let boxes = labels
        .into_iter()
        .map(|label| {
            let key = label.key.clone();
            let id = format!("{group}-error-{key}");
            let is_ticked = {
                let key = key.clone();
                move || ticked.with(|t| t.contains(&key))
            };
            let toggle = {
                let key = key.clone();
                move |on: bool| {
                    ticked.update(|t| {
                        t.retain(|k| k != &key);
                        if on {
                            t.push(key.clone());
                        }
                    })
                }
            };
            view! {
                <label class="option error-label-option">
                    <input
                        type="checkbox"
                        id=id
                        data-testid=format!("error-label-{key}")
                        data-key=key.clone()
                        prop:checked=is_ticked
                        prop:disabled=move || locked.get()
                        on:change=move |ev| toggle(event_target_checked(&ev))
                    />
                    <span>{move || label.text(i18n.lang() == Lang::Zh).to_owned()}</span>
                </label>
            }
        })
        .collect_view();
    (!empty).then(|| {
        view! {
            <fieldset
                class="judging-group error-labels"
                data-testid="error-labels"
                style:display=move || if wrong.get() { "" } else { "none" }
            >
                <legend><strong>{Texts::text(|t| t.errors_legend)}</strong></legend>
                <p class="muted small">{move || i18n.table::<Texts>().errors_help}</p>
                <div class="judging-choices">{boxes}</div>
            </fieldset>
        }
    })
}
