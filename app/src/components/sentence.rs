//! A fill-in-the-blank sentence with the blank visibly styled.

use crate::format::{split_blanks, Segment};
use crate::i18n::use_i18n;
use leptos::prelude::*;

/// Renders `sentence` (Chinese text) with every `_____` shown as a styled blank.
#[component]
pub fn Sentence(
    /// The sentence with `_____`.
    #[prop(into)]
    text: String,
) -> impl IntoView {
    let i18n = use_i18n();
    let parts = split_blanks(&text)
        .into_iter()
        .map(|seg| match seg {
            Segment::Text(t) => view! { <span>{t}</span> }.into_any(),
            Segment::Blank => view! {
                <span class="blank" data-testid="blank">
                    <span class="visually-hidden">{move || i18n.t().blank}</span>
                    <span aria-hidden="true">"_____"</span>
                </span>
            }
            .into_any(),
        })
        .collect_view();
    view! { <p class="sentence" lang="zh-CN">{parts}</p> }
}
