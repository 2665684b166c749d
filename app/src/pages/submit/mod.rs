//! `/submit`: how to submit (formats, per-task downloads, limits, curl and CLI examples) and
//! the upload form. A picked file is read in the browser and checked with the server's own
//! validator for the task's kind against the task manifest, with the kind's preview on the open
//! dev split (see [`crate::kinds`]). The upload goes through `XMLHttpRequest` so a progress bar
//! can follow it, then the server's score (or its error lines) is shown. With a token, the
//! uploads it has left today show above the upload button (and again after each upload).

mod file;
mod form;
mod help;
mod result;
mod upload;

pub use file::Preview;

use super::boards::no_tasks;
use crate::api;
use crate::components::status::Loaded;
use crate::components::title::use_page_title;
use crate::i18n::board::{btr, BoardStrings};
use crate::kinds::{self, TaskChecker};
use crate::storage;
use file::{file_field, picker, Picked};
use form::{conditions_field, token_field, ModelFields};
use help::{CommandLine, Help, TaskDownloads};
use leptos::prelude::*;
use leptos_router::hooks::use_query_map;
use memeboard_core::api::TaskSummary;
use memeboard_core::predictions::FileFormat;
use std::sync::Arc;
use upload::{upload_action, upload_controls, use_quota, Upload};

/// The submit page.
#[component]
pub fn SubmitPage() -> impl IntoView {
    let tasks = LocalResource::new(api::list_tasks);
    use_page_title(|lang| lang.table::<BoardStrings>().submit_title.to_owned());
    let render = |list: Vec<TaskSummary>| {
        if list.is_empty() {
            no_tasks()
        } else {
            view! { <SubmitFlow tasks=list /> }.into_any()
        }
    };
    view! {
        <section class="intro">
            <h1>{btr(|t| t.submit_title)}</h1>
            <p class="lead">{btr(|t| t.submit_intro)}</p>
        </section>
        <Loaded resource=tasks render=render />
    }
}

/// Help, form, preview, upload and result for the chosen task.
#[component]
fn SubmitFlow(tasks: Vec<TaskSummary>) -> impl IntoView {
    let query = use_query_map();
    let first = query
        .with_untracked(|q| q.get("task"))
        .filter(|t| tasks.iter().any(|x| &x.slug == t))
        .or_else(|| tasks.first().map(|t| t.slug.clone()))
        .unwrap_or_default();
    let slug = RwSignal::new(first);
    let tasks = StoredValue::new(tasks);
    let categories = Memo::new(move |_| {
        let s = slug.get();
        tasks.with_value(|ts| {
            ts.iter()
                .find(|t| t.slug == s)
                .map(|t| t.categories.clone())
                .unwrap_or_default()
        })
    });
    let kind = Memo::new(move |_| {
        let s = slug.get();
        tasks.with_value(|ts| ts.iter().find(|t| t.slug == s).map(|t| t.kind))
    });
    let condition_specs = Memo::new(move |_| {
        let s = slug.get();
        tasks.with_value(|ts| {
            ts.iter()
                .find(|t| t.slug == s)
                .map(|t| t.conditions.clone())
                .unwrap_or_default()
        })
    });
    // `None` for a slug that is not a listed task (nothing to check against).
    let task_data = LocalResource::new(move || {
        let (s, k) = (slug.get(), kind.get());
        async move {
            match k {
                Some(k) => kinds::load_checker(s, k).await.map(|c| Some(Arc::new(c))),
                None => Ok(None::<Arc<TaskChecker>>),
            }
        }
    });

    let picked = RwSignal::new(Picked::None);
    let file = StoredValue::new_local(None::<web_sys::File>);
    let generation = StoredValue::new(0u64);

    let i18n = crate::i18n::use_i18n();
    let preview = Memo::new(move |_| {
        // The check's lines are written in the reader's language: a switch writes them again.
        i18n.lang();
        let data = task_data.get();
        let current = slug.get();
        picked.with(|p| match p {
            Picked::None => Preview::Nothing,
            Picked::Reading { .. } => Preview::Checking,
            Picked::TooBig { size, .. } => Preview::TooBig(*size),
            Picked::Unreadable { .. } => Preview::Unreadable,
            Picked::Loaded { name, text, .. } => match &data {
                Some(Ok(Some(d))) if d.manifest.task == current => {
                    let format = FileFormat::from_file_name(name);
                    match categories.with(|cs| d.check(text, format, cs)) {
                        Ok(file) => Preview::Valid { file, format },
                        Err(lines) => Preview::Errors(lines),
                    }
                }
                Some(Ok(None)) => Preview::Nothing,
                Some(Err(e)) => Preview::TaskError(e.to_string()),
                _ => Preview::Checking,
            },
        })
    });

    let token = RwSignal::new(storage::token().unwrap_or_default());
    let fields = ModelFields::new();
    // Another task has other conditions: start again from its defaults.
    Effect::new(move |_| {
        slug.track();
        fields.conditions.set(Default::default());
    });
    let state = Upload::new();
    let quota_token = use_quota(token, state);
    let pick = picker(picked, file, generation, state);

    let valid_format = move || {
        preview.with(|p| match p {
            Preview::Valid { format, .. } => Some(*format),
            _ => None,
        })
    };

    let upload = upload_action(state, slug, token, fields, file, valid_format);

    let task_options = tasks.with_value(|ts| {
        ts.iter()
            .map(|t| {
                let s = t.slug.clone();
                view! {
                    <option value=t.slug.clone() prop:selected=move || slug.get() == s>
                        {format!("{} ({})", t.title, t.slug)}
                    </option>
                }
            })
            .collect_view()
    });

    view! {
        <Help kind=kind />
        <section class="card upload-form" data-testid="upload-form">
            <h2>{btr(|t| t.form_title)}</h2>
            <div class="field">
                <label for="submit-task">{btr(|t| t.task_label)}</label>
                <select
                    id="submit-task"
                    data-testid="submit-task"
                    on:change=move |ev| {
                        slug.set(event_target_value(&ev));
                        state.result.set(None);
                    }
                >
                    {task_options}
                </select>
            </div>
            <TaskDownloads slug=slug />
            {token_field(token, quota_token)}
            {fields.view()}
            {conditions_field(condition_specs, kind, fields.conditions)}
            {file_field(picked, pick)}
            <div class="preview" aria-live="polite">
                {move || preview.get().render()}
            </div>
            {upload_controls(state, valid_format, upload, categories, kind)}
        </section>
        <CommandLine slug=slug />
    }
}
