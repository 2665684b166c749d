//! The split of the browser app into three nested bundles, so that each visitor downloads
//! only what their pages need (issue 12: the quiz bundle stays under 350 KB brotli):
//!
//! | bundle | binary, root component | output | pages |
//! | --- | --- | --- | --- |
//! | [`Bundle::Quiz`] | `memeboard-app` ([`crate::App`]) | `dist/` | home, quiz, session, results |
//! | [`Bundle::Boards`] | `memeboard-boards` ([`crate::BoardsApp`]) | `dist/boards-app/` | the quiz pages + leaderboards and model pages |
//! | [`Bundle::Studio`] | `memeboard-studio` ([`crate::StudioApp`]) | `dist/studio/` | every page, with the researcher pages (console, studies, submit, account) |
//!
//! The server answers a page with the smallest bundle that has it ([`bundle_of`]; its copy
//! of the lists is `server/src/startup.rs`). Inside a bundle links move without reloading;
//! a plain click on a link to a page the bundle lacks is a full page load
//! ([`intercept_foreign_links`]), which the server answers with the right bundle.
//!
//! The quiz bundle also leaves out the judging kinds (rating, ranking): the server answers a
//! judging quiz's pages (`/quiz/{slug}`, `/session/{id}…`) with the boards bundle, so that
//! every participant of the other kinds downloads less.

use crate::components::title::use_page_title;
use crate::i18n::{use_i18n, Strings};
use crate::pages::not_found::NotFoundPage;
use leptos::prelude::*;
use leptos_router::hooks::use_location;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// One browser bundle; each has every page of the smaller ones.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Bundle {
    /// Quiz participants: home, quiz, session, results (`dist/`).
    Quiz,
    /// Public leaderboards and model pages, plus the quiz pages (`dist/boards-app/`).
    Boards,
    /// Researchers: every page (`dist/studio/`).
    Studio,
}

/// First path segments of the pages that need [`Bundle::Boards`] (as matched by
/// [`bundle_of`]).
pub const BOARDS_PATHS: [&str; 3] = ["boards", "models", "benchmarks"];
/// First path segments of the pages that need [`Bundle::Studio`].
pub const STUDIO_PATHS: [&str; 3] = ["console", "submit", "account"];

/// The smallest bundle that has the page at `href`, a same-origin absolute path (with or
/// without query and fragment); `None` for anything else (other origins, relative links).
///
/// ```
/// use memeboard_app::bundles::{bundle_of, Bundle};
/// assert_eq!(bundle_of("/console/studies/s1?tab=x"), Some(Bundle::Studio));
/// assert_eq!(bundle_of("/submit?task=demo"), Some(Bundle::Studio));
/// assert_eq!(bundle_of("/boards/demo#chart"), Some(Bundle::Boards));
/// assert_eq!(bundle_of("/benchmarks/demo/tables"), Some(Bundle::Boards));
/// assert_eq!(bundle_of("/session/abc/results"), Some(Bundle::Quiz));
/// assert_eq!(bundle_of("/accounts"), Some(Bundle::Quiz));
/// assert_eq!(bundle_of("//example.com/console"), None);
/// assert_eq!(bundle_of("https://example.com/"), None);
/// ```
pub fn bundle_of(href: &str) -> Option<Bundle> {
    let path = href.strip_prefix('/')?;
    if path.starts_with('/') {
        return None;
    }
    let first = path.split(['/', '?', '#']).next().unwrap_or("");
    Some(if STUDIO_PATHS.contains(&first) {
        Bundle::Studio
    } else if matches!(first, "boards" | "models" | "benchmarks") {
        Bundle::Boards
    } else {
        Bundle::Quiz
    })
}

/// Makes plain clicks on links to pages that `bundle` lacks full page loads. Must run before
/// the router is created: the router's listener is on `window` and skips clicks whose
/// default was prevented, this one is on `document` and sees them first.
pub fn intercept_foreign_links(bundle: Bundle) {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    let handler = Closure::<dyn Fn(web_sys::MouseEvent)>::new(move |ev: web_sys::MouseEvent| {
        if ev.default_prevented()
            || ev.button() != 0
            || ev.meta_key()
            || ev.alt_key()
            || ev.ctrl_key()
            || ev.shift_key()
        {
            return;
        }
        let Some(anchor) = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
            .and_then(|el| el.closest("a[href]").ok().flatten())
        else {
            return;
        };
        if anchor.has_attribute("target") || anchor.has_attribute("download") {
            return;
        }
        let href = anchor.get_attribute("href").unwrap_or_default();
        if bundle_of(&href).is_some_and(|needed| needed > bundle) {
            ev.prevent_default();
            if let Some(window) = web_sys::window() {
                let _ = window.location().assign(&href);
            }
        }
    });
    let _ = document.add_event_listener_with_callback("click", handler.as_ref().unchecked_ref());
    // The listener lives as long as the page.
    handler.forget();
}

/// What a smaller bundle shows on a page it lacks: reached only when the server sent it for
/// one, i.e. the bigger bundle was not built (links to such pages load them from the server).
#[component]
pub fn BundleMissingPage() -> impl IntoView {
    let i18n = use_i18n();
    use_page_title(|lang| lang.table::<Strings>().bundle_missing.to_owned());
    view! {
        <section class="card" data-testid="bundle-missing">
            <h1>{move || i18n.t().bundle_missing}</h1>
            <p>{move || i18n.t().bundle_missing_detail}</p>
            <p>
                <a href="/">{move || i18n.t().back_home}</a>
            </p>
        </section>
    }
}

/// A judging quiz's page met in the quiz bundle, which leaves the judging kinds' question
/// and review components out: loads the page again from the server, which answers a judging
/// quiz's pages with the boards bundle (`server/src/first_paint`). Once per page: if the
/// server sends the quiz bundle again (no bigger bundle was built), [`BundleMissingPage`].
#[cfg(feature = "quiz-bundle")]
pub fn load_from_server() -> AnyView {
    const KEY: &str = "memeboard.reloaded";
    let Some(window) = web_sys::window() else {
        return ().into_any();
    };
    let here = window.location().href().unwrap_or_default();
    let storage = window.session_storage().ok().flatten();
    let reloaded = storage
        .as_ref()
        .and_then(|s| s.get_item(KEY).ok().flatten())
        .is_some_and(|page| page == here);
    if reloaded {
        return view! { <BundleMissingPage /> }.into_any();
    }
    if let Some(storage) = storage {
        let _ = storage.set_item(KEY, &here);
    }
    let _ = window.location().reload();
    ().into_any()
}

/// The router's fallback in a smaller bundle: [`BundleMissingPage`] on a page of a bigger
/// bundle (one fallback instead of a route per such page keeps the bundle small), else
/// "page not found".
#[component]
pub fn Fallback(
    /// The bundle this app is.
    bundle: Bundle,
) -> impl IntoView {
    let location = use_location();
    move || {
        if bundle_of(&location.pathname.get()).is_some_and(|needed| needed > bundle) {
            view! { <BundleMissingPage /> }.into_any()
        } else {
            view! { <NotFoundPage /> }.into_any()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The list the server mirrors and the match `bundle_of` makes stay in step.
    #[test]
    fn every_boards_path_opens_the_boards_bundle() {
        for first in BOARDS_PATHS {
            assert_eq!(
                bundle_of(&format!("/{first}/x")),
                Some(Bundle::Boards),
                "{first}"
            );
        }
        for first in STUDIO_PATHS {
            assert_eq!(
                bundle_of(&format!("/{first}")),
                Some(Bundle::Studio),
                "{first}"
            );
        }
    }
}
