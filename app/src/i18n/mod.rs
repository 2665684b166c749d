//! Interface strings in Chinese and English, and the reactive language choice.
//!
//! Every table of strings implements [`StringTable`]: the main [`Strings`] (here), the board
//! and researcher pages' [`board::BoardStrings`], the human-evaluation features'
//! [`human::HumanStrings`] and [`human::TrainingStrings`], the fieldwork features'
//! [`fieldwork::FieldworkStrings`], and the kinds' and components' own tables in their modules.
//! Messages of the server (errors, file checks) come from the core's message catalogue
//! instead (`memeboard_core::messages`, through [`Lang::locale`]).
//!
//! The choice lives in a context ([`I18n`]) provided by the app root; it starts from
//! localStorage (`memeboard.lang`) or, failing that, from `navigator.language`, and every
//! switch is written back to localStorage and to `<html lang>`.

pub mod board;
mod en;
pub mod fieldwork;
pub mod human;
mod strings;
#[cfg(test)]
mod tests;
mod zh;

use crate::storage;
use leptos::prelude::*;
use memeboard_core::tasks::CategoryInfo;

pub use en::EN;
pub use strings::Strings;
pub use zh::ZH;

/// An interface language.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lang {
    /// Simplified Chinese.
    Zh,
    /// English.
    En,
}

impl Lang {
    /// The value stored in localStorage.
    pub fn code(self) -> &'static str {
        match self {
            Self::Zh => "zh",
            Self::En => "en",
        }
    }

    /// The BCP 47 tag for `<html lang>`.
    pub fn html_tag(self) -> &'static str {
        match self {
            Self::Zh => "zh-CN",
            Self::En => "en",
        }
    }

    /// Parses a stored code or a browser language tag (`zh-CN`, `en-GB`…).
    pub fn parse(s: &str) -> Option<Self> {
        let s = s.trim().to_ascii_lowercase();
        if s.starts_with("zh") {
            Some(Self::Zh)
        } else if s.starts_with("en") {
            Some(Self::En)
        } else {
            None
        }
    }

    /// The other language.
    pub fn other(self) -> Self {
        match self {
            Self::Zh => Self::En,
            Self::En => Self::Zh,
        }
    }

    /// The same language for the shared message catalogue (server errors, file checks).
    pub fn locale(self) -> memeboard_core::messages::Locale {
        match self {
            Self::Zh => memeboard_core::messages::Locale::Zh,
            Self::En => memeboard_core::messages::Locale::En,
        }
    }

    /// A table of strings in this language: `lang.table::<Strings>().loading`.
    pub fn table<T: StringTable>(self) -> &'static T {
        match self {
            Self::Zh => T::ZH,
            Self::En => T::EN,
        }
    }
}

/// A table of interface strings, one field per string, filled once per language: its two
/// values sit side by side, `EN` and `ZH`, in the table's module.
///
/// Every table is read the same way, so no table needs its own lookup or reactive accessor:
/// [`Lang::table`] (or [`I18n::table`]) picks the value of a language, and [`text`] makes a
/// string that follows the language switch. Tables are split by feature (and by bundle: the
/// quiz bundle only carries the tables its pages read), not by mechanism.
///
/// ```
/// use memeboard_app::i18n::{Lang, StringTable};
///
/// struct Greeting {
///     hello: &'static str,
/// }
/// static EN: Greeting = Greeting { hello: "Hello" };
/// static ZH: Greeting = Greeting { hello: "你好" };
///
/// impl StringTable for Greeting {
///     const EN: &'static Self = &EN;
///     const ZH: &'static Self = &ZH;
/// }
///
/// assert_eq!(Lang::Zh.table::<Greeting>().hello, "你好");
/// // In a view: `text::<Greeting>(|t| t.hello)` follows the language switch.
/// ```
pub trait StringTable: Sync + 'static {
    /// The English table.
    const EN: &'static Self;
    /// The Chinese table.
    const ZH: &'static Self;

    /// A string of this table that follows the language, [`text`] with the table named by
    /// its type (`Texts::text(|t| t.title)`), so that no module writes its own wrapper.
    fn text(
        pick: fn(&'static Self) -> &'static str,
    ) -> impl Fn() -> &'static str + Copy + Send + Sync + 'static
    where
        Self: Sized,
    {
        text(pick)
    }
}

impl StringTable for Strings {
    const EN: &'static Self = &EN;
    const ZH: &'static Self = &ZH;
}

/// The language context: a reactive [`Lang`] shared by every page.
#[derive(Debug, Clone, Copy)]
pub struct I18n {
    lang: RwSignal<Lang>,
}

impl I18n {
    /// The current language (tracked).
    pub fn lang(&self) -> Lang {
        self.lang.get()
    }

    /// The current language, untracked (for async code and event handlers).
    pub fn lang_untracked(&self) -> Lang {
        self.lang.get_untracked()
    }

    /// A table of strings in the current language (tracked): `i18n.table::<FieldworkStrings>()`.
    pub fn table<T: StringTable>(&self) -> &'static T {
        self.lang().table()
    }

    /// The current main strings (tracked): [`I18n::table`] of [`Strings`].
    pub fn t(&self) -> &'static Strings {
        self.table()
    }

    /// Switches language and remembers the choice.
    pub fn set(&self, lang: Lang) {
        storage::set(storage::LANG_KEY, lang.code());
        CURRENT.with(|c| c.set(Some(lang)));
        self.lang.set(lang);
    }

    /// Switches to the other language.
    pub fn toggle(&self) {
        self.set(self.lang.get_untracked().other());
    }
}

thread_local! {
    /// The language last chosen, for code outside the reactive tree (API error messages).
    static CURRENT: std::cell::Cell<Option<Lang>> = const { std::cell::Cell::new(None) };
}

/// The current language without a context (for messages built in async API code): the last
/// choice, else the starting one.
pub fn current_lang() -> Lang {
    CURRENT.with(|c| {
        c.get().unwrap_or_else(|| {
            // (Native unit tests have no browser to ask.)
            let lang = if cfg!(target_arch = "wasm32") {
                initial_lang()
            } else {
                Lang::En
            };
            c.set(Some(lang));
            lang
        })
    })
}

/// The language to start with: the stored choice, else the browser's, else English.
fn initial_lang() -> Lang {
    storage::get(storage::LANG_KEY)
        .and_then(|s| Lang::parse(&s))
        .or_else(|| {
            web_sys::window()
                .and_then(|w| w.navigator().language())
                .and_then(|l| Lang::parse(&l))
        })
        .unwrap_or(Lang::En)
}

/// Provides the [`I18n`] context and keeps `<html lang>` in sync. Call once, at the root.
pub fn provide_i18n() -> I18n {
    let i18n = I18n {
        lang: RwSignal::new(initial_lang()),
    };
    provide_context(i18n);
    Effect::new(move |_| {
        let lang = i18n.lang();
        CURRENT.with(|c| c.set(Some(lang)));
        let tag = lang.html_tag();
        if let Some(root) = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.document_element())
        {
            let _ = root.set_attribute("lang", tag);
        }
    });
    i18n
}

/// The [`I18n`] context (falls back to a fresh one if the root did not provide it).
pub fn use_i18n() -> I18n {
    use_context::<I18n>().unwrap_or_else(|| I18n {
        lang: RwSignal::new(initial_lang()),
    })
}

/// A string of a [`StringTable`] that follows the language: `text::<FieldworkStrings>(|s| s.x)`.
///
/// Every call for one table returns the same closure type, so the view code that renders
/// such text is compiled once per table instead of once per string (a large wasm saving).
pub fn text<T: StringTable>(
    pick: fn(&'static T) -> &'static str,
) -> impl Fn() -> &'static str + Copy + Send + Sync + 'static {
    let i18n = use_i18n();
    move || pick(i18n.table())
}

/// [`text`] of the main [`Strings`]: `tr(|t| t.title)`.
pub fn tr(
    pick: fn(&'static Strings) -> &'static str,
) -> impl Fn() -> &'static str + Copy + Send + Sync + 'static {
    text(pick)
}

/// A category's label in `lang`: from the quiz's own labels, else the CHIME meme types,
/// else the raw key.
pub fn category_label(lang: Lang, key: &str, categories: &[CategoryInfo]) -> String {
    memeboard_core::page_text::category_label(key, categories, lang == Lang::Zh)
}
