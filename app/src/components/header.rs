//! The site header (name linking home, main navigation, language switch) and footer, shown
//! on every page.

use crate::i18n::{tr, use_i18n, Strings};
use leptos::prelude::*;
use leptos_router::hooks::use_location;

/// Which nav section a path belongs to.
fn section_of(path: &str) -> &'static str {
    if path.starts_with("/boards") || path.starts_with("/models") {
        "/boards"
    } else if path.starts_with("/submit") {
        "/submit"
    } else if path.starts_with("/account") {
        "/account"
    } else {
        "/"
    }
}

/// The header: "memeboard" linking home, Quizzes / Leaderboards / Submit / Account, and the
/// 中文 / English switch.
#[component]
pub fn SiteHeader() -> impl IntoView {
    let i18n = use_i18n();
    let location = use_location();
    let section = Memo::new(move |_| section_of(&location.pathname.get()));
    let link =
        move |href: &'static str, testid: &'static str, text: fn(&Strings) -> &'static str| {
            view! {
                <a
                    href=href
                    data-testid=testid
                    aria-current=move || (section.get() == href).then_some("page")
                >
                    {tr(text)}
                </a>
            }
        };
    view! {
        <header class="site-header">
            <div class="wrap header-row">
                <a class="brand" href="/">"memeboard"</a>
                <nav class="site-nav" aria-label=tr(|t| t.nav_label)>
                    {link("/", "nav-quizzes", |t| t.nav_quizzes)}
                    {link("/boards", "nav-boards", |t| t.nav_boards)}
                    {link("/submit", "nav-submit", |t| t.nav_submit)}
                    {link("/account", "nav-account", |t| t.nav_account)}
                </nav>
                <button
                    type="button"
                    class="lang-switch"
                    data-testid="lang-switch"
                    data-lang=move || i18n.lang().code()
                    title=tr(|t| t.switch_language)
                    lang=move || i18n.lang().other().html_tag()
                    on:click=move |_| i18n.toggle()
                >
                    {tr(|t| t.other_language)}
                </button>
            </div>
        </header>
    }
}

/// The footer note.
#[component]
pub fn SiteFooter() -> impl IntoView {
    view! {
        <footer class="site-footer">
            <div class="wrap">
                <p>{tr(|t| t.footer)}</p>
            </div>
        </footer>
    }
}

#[cfg(test)]
mod tests {
    use super::section_of;

    #[test]
    fn paths_map_to_nav_sections() {
        assert_eq!(section_of("/"), "/");
        assert_eq!(section_of("/quiz/demo-mcq"), "/");
        assert_eq!(section_of("/boards/demo-mcq"), "/boards");
        assert_eq!(section_of("/models/S-1"), "/boards");
        assert_eq!(section_of("/submit"), "/submit");
        assert_eq!(section_of("/account"), "/account");
    }
}
