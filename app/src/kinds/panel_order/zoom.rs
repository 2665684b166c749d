//! A panel shown large over the page (tap-to-zoom): in a grid of six or eight panels on a
//! phone each is ~160 px wide, too small to read its speech bubbles, and the order depends on
//! them.

use super::Texts;
use crate::i18n::{use_i18n, StringTable};
use leptos::prelude::*;
use memeboard_core::tasks::MediaRef;

/// The enlarge button of displayed panel `panel` (1-based): opens [`PanelZoom`] on it.
#[component]
pub(super) fn ZoomButton(panel: usize, zoomed: RwSignal<Option<usize>>) -> impl IntoView {
    let i18n = use_i18n();
    view! {
        <button
            type="button"
            class="panel-zoom"
            data-testid="panel-zoom"
            data-display=panel.to_string()
            aria-label=move || (i18n.table::<super::Texts>().zoom)(panel)
            on:click=move |_| zoomed.set(Some(panel))
        >
            "⤢"
        </button>
    }
}

/// Focuses the enlarge button of `panel` (where the dialog was opened from).
fn refocus_zoom_button(panel: usize) {
    crate::browser::focus_selector(
        None,
        &format!("[data-testid=\"panel-zoom\"][data-display=\"{panel}\"]"),
    );
}

/// The panel `zoomed` holds, large, in a modal dialog: closed by its button, by Escape or
/// by a click beside the image; focus stays on the close button while it is open and goes
/// back to the panel's enlarge button after.
#[component]
pub(super) fn PanelZoom(
    panels: StoredValue<Vec<MediaRef>>,
    zoomed: RwSignal<Option<usize>>,
) -> impl IntoView {
    let close_button = NodeRef::<leptos::html::Button>::new();
    Effect::new(move |_| {
        if let Some(b) = close_button.get() {
            let _ = b.focus();
        }
    });
    let close = move || {
        if let Some(panel) = zoomed.get_untracked() {
            zoomed.set(None);
            refocus_zoom_button(panel);
        }
    };
    move || {
        let panel = zoomed.get()?;
        let MediaRef { url, alt } = panels.with_value(|p| p.get(panel - 1).cloned())?;
        let label = alt.clone();
        Some(view! {
            <div class="zoom-backdrop" on:click=move |_| close()>
                <div
                    class="zoom-dialog"
                    role="dialog"
                    aria-modal="true"
                    aria-label=label
                    data-testid="panel-zoomed"
                    on:click=|ev| ev.stop_propagation()
                    on:keydown=move |ev| match ev.key().as_str() {
                        "Escape" => close(),
                        // One control: focus stays in the dialog.
                        "Tab" => ev.prevent_default(),
                        _ => {}
                    }
                >
                    <img class="zoom-img" src=url alt=alt />
                    <button
                        type="button"
                        class="button secondary"
                        data-testid="zoom-close"
                        node_ref=close_button
                        on:click=move |_| close()
                    >
                        {Texts::text(|t| t.zoom_close)}
                    </button>
                </div>
            </div>
        })
    }
}
