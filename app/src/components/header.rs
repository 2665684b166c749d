//! The site header (name linking home, language switch) and footer, shown on every page.

use crate::i18n::use_i18n;
use leptos::prelude::*;

/// The header: "memeboard" linking home, and the 中文 / English switch.
#[component]
pub fn SiteHeader() -> impl IntoView {
    let i18n = use_i18n();
    view! {
        <header class="site-header">
            <div class="wrap header-row">
                <a class="brand" href="/">"memeboard"</a>
                <button
                    type="button"
                    class="lang-switch"
                    data-testid="lang-switch"
                    data-lang=move || i18n.lang().code()
                    title=move || i18n.t().switch_language
                    aria-label=move || i18n.t().switch_language
                    lang=move || i18n.lang().other().html_tag()
                    on:click=move |_| i18n.toggle()
                >
                    {move || i18n.t().other_language}
                </button>
            </div>
        </header>
    }
}

/// The footer note.
#[component]
pub fn SiteFooter() -> impl IntoView {
    let i18n = use_i18n();
    view! {
        <footer class="site-footer">
            <div class="wrap">
                <p>{move || i18n.t().footer}</p>
            </div>
        </footer>
    }
}
