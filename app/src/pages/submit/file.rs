//! The file step of the upload form: the picked file as far as it has been read, the
//! in-browser check's preview, and the drop zone.

use super::upload::Upload;
use crate::i18n::board::btr;
use crate::i18n::use_i18n;
use crate::kinds::ValidFile;
use leptos::prelude::*;
use leptos::task::spawn_local;
use memeboard_core::predictions::{FileFormat, Limits};
use std::sync::Arc;

/// The picked file, as far as it has been read.
#[derive(Debug, Clone)]
pub(super) enum Picked {
    None,
    Reading {
        name: String,
        size: f64,
    },
    TooBig {
        name: String,
        size: f64,
    },
    Unreadable {
        name: String,
        size: f64,
    },
    Loaded {
        name: String,
        size: f64,
        text: Arc<str>,
    },
}

impl Picked {
    fn name_and_size(&self) -> Option<(&str, f64)> {
        match self {
            Self::None => None,
            Self::Reading { name, size }
            | Self::TooBig { name, size }
            | Self::Unreadable { name, size }
            | Self::Loaded { name, size, .. } => Some((name, *size)),
        }
    }
}

/// What the in-browser check found.
#[derive(Debug, Clone, PartialEq)]
pub enum Preview {
    /// No file yet.
    Nothing,
    /// Reading the file or loading the manifest.
    Checking,
    /// Over the size limit (bytes).
    TooBig(f64),
    /// The browser could not read it.
    Unreadable,
    /// The manifest could not be loaded.
    TaskError(String),
    /// The validator's lines (one per problem).
    Errors(Vec<String>),
    /// A valid file.
    Valid {
        /// What the kind's check found.
        file: ValidFile,
        /// The format it was read as.
        format: FileFormat,
    },
}

impl Preview {
    /// The preview's view.
    pub(super) fn render(self) -> AnyView {
        let i18n = use_i18n();
        let error_list = |lines: Vec<String>| {
            view! {
                <div class="notice error" role="alert" data-testid="preview-errors">
                    <p>{btr(|t| t.preview_errors_title)}</p>
                    <ul class="error-list">
                        {lines.into_iter().map(|l| view! { <li>{l}</li> }).collect_view()}
                    </ul>
                </div>
            }
            .into_any()
        };
        match self {
            Preview::Nothing => ().into_any(),
            Preview::Checking => view! {
                <p class="muted" data-testid="preview-checking">
                    {btr(|t| t.checking)}
                </p>
            }
            .into_any(),
            Preview::TooBig(size) => {
                let limit = Limits::default().max_bytes;
                error_list(vec![(i18n.bt().file_too_big)(size, limit)])
            }
            Preview::Unreadable => error_list(vec![i18n.bt().file_unreadable.to_owned()]),
            Preview::TaskError(e) => error_list(vec![e]),
            Preview::Errors(lines) => error_list(lines),
            Preview::Valid { file, .. } => {
                let ValidFile {
                    lines,
                    missing,
                    panel,
                } = file;
                view! {
                    <div class="notice ok" data-testid="preview-ok">
                        <p>
                            <strong>{move || (i18n.bt().lines_ok)(lines)}</strong>
                        </p>
                        {missing
                            .map(|m| {
                                view! {
                                    <p class="warning-text" data-testid="preview-missing">
                                        {m}
                                    </p>
                                }
                            })}
                    </div>
                    {panel.render()}
                }
                .into_any()
            }
        }
    }
}

/// What picking a file does: clears the last answer, keeps the file for the upload, and reads
/// it (unless it is over the size limit); a file picked meanwhile wins over a slower read.
pub(super) fn picker(
    picked: RwSignal<Picked>,
    file: StoredValue<Option<web_sys::File>, LocalStorage>,
    generation: StoredValue<u64>,
    state: Upload,
) -> impl Fn(web_sys::File) + Copy + 'static {
    let (result, progress) = (state.result, state.progress);
    move |f: web_sys::File| {
        let name = f.name();
        let size = f.size();
        let gen = generation.get_value().wrapping_add(1);
        generation.set_value(gen);
        result.set(None);
        progress.set(0.0);
        file.set_value(Some(f.clone()));
        if size > Limits::default().max_bytes as f64 {
            picked.set(Picked::TooBig { name, size });
            return;
        }
        picked.set(Picked::Reading {
            name: name.clone(),
            size,
        });
        spawn_local(async move {
            let text = wasm_bindgen_futures::JsFuture::from(f.text())
                .await
                .ok()
                .and_then(|v| v.as_string());
            if generation.try_with_value(|g| *g) != Some(gen) {
                return; // another file was picked meanwhile
            }
            let _ = picked.try_set(match text {
                Some(t) => Picked::Loaded {
                    name,
                    size,
                    text: Arc::from(t),
                },
                None => Picked::Unreadable { name, size },
            });
        });
    }
}

/// The file field: a drop zone around the file input, and the picked file's name and size.
pub(super) fn file_field(
    picked: RwSignal<Picked>,
    pick: impl Fn(web_sys::File) + Copy + 'static,
) -> impl IntoView {
    let i18n = use_i18n();
    let dragging = RwSignal::new(false);
    view! {
        <div class="field">
            <span class="field-label" id="file-label">
                {btr(|t| t.file_label)}
            </span>
            <div
                class="dropzone"
                class:dragging=move || dragging.get()
                data-testid="drop-zone"
                on:dragenter=move |ev| {
                    ev.prevent_default();
                    dragging.set(true);
                }
                on:dragover=move |ev| {
                    ev.prevent_default();
                    dragging.set(true);
                }
                on:dragleave=move |_| dragging.set(false)
                on:drop=move |ev| {
                    ev.prevent_default();
                    dragging.set(false);
                    if let Some(f) = ev
                        .data_transfer()
                        .and_then(|d| d.files())
                        .and_then(|list| list.get(0))
                    {
                        pick(f);
                    }
                }
            >
                <label for="file-input">{btr(|t| t.drop_text)}</label>
                <input
                    id="file-input"
                    type="file"
                    data-testid="file-input"
                    aria-describedby="file-label file-name"
                    accept=".jsonl,.json,.ndjson,.csv,.txt"
                    on:change=move |ev| {
                        let input = event_target::<web_sys::HtmlInputElement>(&ev);
                        if let Some(f) = input.files().and_then(|list| list.get(0)) {
                            pick(f);
                        }
                        // Lets the same file be picked again after it was edited.
                        input.set_value("");
                    }
                />
                <p class="small" id="file-name" data-testid="file-name">
                    {move || {
                        picked
                            .with(|p| {
                                p.name_and_size()
                                    .map(|(n, s)| (i18n.bt().file_selected)(n, s))
                            })
                    }}
                </p>
            </div>
        </div>
    }
}
