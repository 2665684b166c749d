//! The owner's export downloads: a button that fetches a file with the owner token (a plain
//! link cannot send it) and saves it.

use crate::api;
use crate::i18n::fieldwork::FieldworkStrings;
use crate::i18n::use_i18n;
use leptos::prelude::*;
use leptos::task::spawn_local;
use wasm_bindgen::JsCast;

/// Downloads an owner file with the token (a plain link cannot send it).
#[component]
pub(crate) fn ExportButton(url: String, token: String) -> impl IntoView {
    let i18n = use_i18n();
    let name = url.rsplit('/').next().unwrap_or("export").to_owned();
    let label = name.clone();
    let error = RwSignal::new(None::<String>);
    let (url, token) = (StoredValue::new(url), StoredValue::new(token));
    let on_click = move |_| {
        let name = name.clone();
        spawn_local(async move {
            match api::owner_file(&url.get_value(), &token.get_value()).await {
                Ok(text) => {
                    let _ = error.try_set(None);
                    // Reading the body as text drops the CSV's byte-order mark, which tells
                    // spreadsheet tools the file is UTF-8: put it back.
                    let text = if name.ends_with(".csv") && !text.starts_with('\u{feff}') {
                        format!("\u{feff}{text}")
                    } else {
                        text
                    };
                    save_text(&name, &text);
                }
                Err(e) => {
                    let _ = error.try_set(Some(e.to_string()));
                }
            }
        });
    };
    view! {
        <button type="button" class="button secondary" data-testid="export" on:click=on_click>
            {move || (i18n.table::<FieldworkStrings>().download)(&label)}
        </button>
        {move || error.get().map(|e| view! { <p class="notice error" role="alert">{e}</p> })}
    }
}

/// Saves text as a file through a temporary link.
fn save_text(name: &str, text: &str) {
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    let Ok(a) = doc.create_element("a") else {
        return;
    };
    let href = format!(
        "data:text/plain;charset=utf-8,{}",
        String::from(js_sys::encode_uri_component(text))
    );
    let _ = a.set_attribute("href", &href);
    let _ = a.set_attribute("download", name);
    if let Ok(a) = a.dyn_into::<web_sys::HtmlElement>() {
        a.click();
    }
}
