//! The document title: "<page> · memeboard" in the current language, kept up to date when the
//! language switches. Every page calls [`use_page_title`] once.

use crate::i18n::{use_i18n, Lang};
use leptos::prelude::*;

/// The site name after every page title.
const SITE: &str = "memeboard";

/// Sets `document.title` to "<page> · memeboard", where `page` is computed (tracked) for the
/// current language; it follows language switches and any signal `page` reads.
pub fn use_page_title(page: impl Fn(Lang) -> String + 'static) {
    let i18n = use_i18n();
    Effect::new(move |_| {
        let title = full_title(&page(i18n.lang()));
        if let Some(doc) = web_sys::window().and_then(|w| w.document()) {
            doc.set_title(&title);
        }
    });
}

/// "<page> · memeboard", or just the site name for an empty page name.
fn full_title(page: &str) -> String {
    let page = page.trim();
    if page.is_empty() {
        SITE.to_owned()
    } else {
        format!("{page} · {SITE}")
    }
}

/// The part of a bilingual server text ("English · 中文") for `lang`; a text without the
/// separator is returned whole.
pub fn in_lang(text: &str, lang: Lang) -> &str {
    memeboard_core::page_text::in_lang(text, lang == Lang::Zh)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bilingual_texts_split_by_language() {
        assert_eq!(in_lang("Memes · 梗", Lang::En), "Memes");
        assert_eq!(in_lang("Memes · 梗", Lang::Zh), "梗");
        assert_eq!(in_lang("Only English", Lang::Zh), "Only English");
    }

    #[test]
    fn titles_end_with_the_site_name() {
        assert_eq!(full_title("Leaderboards"), "Leaderboards · memeboard");
        assert_eq!(full_title(" "), "memeboard");
    }
}
