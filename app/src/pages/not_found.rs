//! The fallback page for unknown paths.

use crate::components::title::use_page_title;
use crate::i18n::{use_i18n, Strings};
use leptos::prelude::*;

/// "Page not found" with a link home.
#[component]
pub fn NotFoundPage() -> impl IntoView {
    let i18n = use_i18n();
    use_page_title(|lang| {
        lang.table::<Strings>()
            .not_found
            .trim_end_matches(['.', '。'])
            .to_owned()
    });
    view! {
        <section class="card" data-testid="not-found">
            <h1>{move || i18n.t().not_found}</h1>
            <p>
                <a href="/">{move || i18n.t().back_home}</a>
            </p>
        </section>
    }
}
