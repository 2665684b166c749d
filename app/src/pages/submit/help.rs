//! The help around the upload form: formats and limits, the chosen task's files, and the
//! curl and CLI examples.

use crate::api::{self, TaskFile};
use crate::i18n::board::{btr, BoardStrings};
use crate::i18n::use_i18n;
use crate::kinds;
use crate::storage;
use leptos::prelude::*;
use memeboard_core::tasks::TaskKind;

/// This site's origin for the examples (`http://HOST` if unknown).
fn origin() -> String {
    web_sys::window()
        .and_then(|w| w.location().origin().ok())
        .filter(|o| o.starts_with("http"))
        .unwrap_or_else(|| "http://HOST".to_owned())
}

/// The formats, the missing-items rule and the limits.
#[component]
pub(super) fn Help(kind: Memo<Option<TaskKind>>) -> impl IntoView {
    let i18n = use_i18n();
    // The quota is known only with a token; the text says so otherwise.
    let quota = LocalResource::new(move || async move {
        match storage::token() {
            Some(t) => api::me(&t).await.ok().map(|m| m.quota.daily_limit),
            None => None,
        }
    });
    view! {
        <section class="card help" data-testid="submit-help">
            <h2>{btr(|t| t.help_title)}</h2>
            {move || kind.get().map(kinds::submit_help)}
            <p data-testid="submit-limits">
                {move || (i18n.bt().help_limits)(quota.get().flatten())}
            </p>
        </section>
    }
}

/// Inputs, templates and dev gold of the chosen task.
#[component]
pub(super) fn TaskDownloads(slug: RwSignal<String>) -> impl IntoView {
    // The inputs go with the stored author token when there is one (a clip task's are given
    // only to authors while its quiz is open; a link cannot send the header).
    let with_token = move |ev: leptos::ev::MouseEvent, file: TaskFile| {
        let (TaskFile::Inputs, Some(token)) = (file, storage::token()) else {
            return;
        };
        ev.prevent_default();
        let slug = slug.get_untracked();
        leptos::task::spawn_local(async move {
            let url = api::task_file_url(&slug, file);
            let name = format!("{slug}-inputs.jsonl");
            if let Err(e) = api::download_with_token(&url, &token, &name).await {
                leptos::logging::warn!("inputs download: {e}");
            }
        });
    };
    let item = move |file: TaskFile,
                     testid: &'static str,
                     text: fn(&'static BoardStrings) -> &'static str| {
        view! {
            <li>
                <a
                    href=move || api::task_file_url(&slug.get(), file)
                    download=""
                    data-testid=testid
                    on:click=move |ev| with_token(ev, file)
                >
                    {btr(text)}
                </a>
            </li>
        }
    };
    view! {
        <div class="task-files">
            <p class="field-label">{btr(|t| t.task_files)}</p>
            <ul class="link-list">
                {item(TaskFile::Inputs, "dl-inputs", |t| t.dl_inputs)}
                {item(TaskFile::TemplateJsonl, "dl-template-jsonl", |t| t.dl_template_jsonl)}
                {item(TaskFile::TemplateCsv, "dl-template-csv", |t| t.dl_template_csv)}
                {item(TaskFile::DevGold, "dl-dev-gold", |t| t.dl_dev_gold)}
            </ul>
        </div>
    }
}

/// curl and CLI examples for the chosen task.
#[component]
pub(super) fn CommandLine(slug: RwSignal<String>) -> impl IntoView {
    let origin = origin();
    let o2 = origin.clone();
    let curl = move || {
        format!(
            "curl -H \"Authorization: Bearer $TOKEN\" --data-binary @preds.jsonl \\\n  \"{origin}/api/tasks/{}/submissions?model=MyModel&weights=open\"",
            api::encode_component(&slug.get())
        )
    };
    let cli = move || {
        format!(
            "memeboard submit --server {o2} --token $TOKEN \\\n  --task {} --model MyModel preds.jsonl",
            slug.get()
        )
    };
    view! {
        <section class="card" data-testid="command-line">
            <h2>{btr(|t| t.cli_title)}</h2>
            <p>{btr(|t| t.cli_curl)}</p>
            <pre><code data-testid="curl-example">{curl}</code></pre>
            <p>{btr(|t| t.cli_tool)}</p>
            <pre><code data-testid="cli-example">{cli}</code></pre>
        </section>
    }
}
