//! `/submit`: how to submit (formats, per-task downloads, limits, curl and CLI examples) and
//! the upload form. A picked file is read in the browser and checked with the server's own
//! validator for the task's kind against the task manifest, with the kind's preview on the open
//! dev split (see [`crate::kinds`]). The upload goes through `XMLHttpRequest` so a progress bar
//! can follow it, then the server's score (or its error lines) is shown. With a token, the
//! uploads it has left today show above the upload button (and again after each upload).

use crate::api::{self, TaskFile, UploadFailure, UploadMeta};
use crate::board_i18n::{btr, BoardStrings};
use crate::components::score::{estimate_view, status_text, ScoreTable};
use crate::components::status::{error_fallback, Loading};
use crate::components::title::use_page_title;
use crate::format;
use crate::i18n::use_i18n;
use crate::kinds::{self, TaskChecker, ValidFile};
use crate::storage;
use leptos::prelude::*;
use leptos::task::spawn_local;
use leptos_router::hooks::use_query_map;
use memeboard_core::api::{Quota, SubmitPredictionsResponse, TaskSummary, Weights};
use memeboard_core::predictions::{FileFormat, Limits};
use memeboard_core::tasks::{CategoryInfo, TaskKind};
use std::sync::Arc;

/// The submit page.
#[component]
pub fn SubmitPage() -> impl IntoView {
    let tasks = LocalResource::new(api::list_tasks);
    use_page_title(|lang| lang.board_strings().submit_title.to_owned());
    view! {
        <section class="intro">
            <h1>{btr(|t| t.submit_title)}</h1>
            <p class="lead">{btr(|t| t.submit_intro)}</p>
        </section>
        <Suspense fallback=|| view! { <Loading /> }>
            <ErrorBoundary fallback=error_fallback>
                {move || Suspend::new(async move {
                    tasks
                        .await
                        .map(|list| {
                            if list.is_empty() {
                                view! {
                                    <p class="empty" data-testid="no-tasks">
                                        {btr(|t| t.no_tasks)}
                                    </p>
                                }
                                    .into_any()
                            } else {
                                view! { <SubmitFlow tasks=list /> }.into_any()
                            }
                        })
                })}
            </ErrorBoundary>
        </Suspense>
    }
}

/// The picked file, as far as it has been read.
#[derive(Debug, Clone)]
enum Picked {
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

/// Why the form was not sent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum FormProblem {
    Token,
    Model,
}

/// This site's origin for the examples (`http://HOST` if unknown).
fn origin() -> String {
    web_sys::window()
        .and_then(|w| w.location().origin().ok())
        .filter(|o| o.starts_with("http"))
        .unwrap_or_else(|| "http://HOST".to_owned())
}

/// Help, form, preview, upload and result for the chosen task.
#[component]
fn SubmitFlow(tasks: Vec<TaskSummary>) -> impl IntoView {
    let i18n = use_i18n();
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

    let preview = Memo::new(move |_| {
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
    let model = RwSignal::new(String::new());
    let organisation = RwSignal::new(String::new());
    let parameters = RwSignal::new(String::new());
    let weights = RwSignal::new(Weights::Closed);
    let link = RwSignal::new(String::new());
    let description = RwSignal::new(String::new());
    let uploading = RwSignal::new(false);
    let progress = RwSignal::new(0.0f64);
    let result = RwSignal::new(None::<Result<SubmitPredictionsResponse, UploadFailure>>);
    let problem = RwSignal::new(None::<FormProblem>);
    let dragging = RwSignal::new(false);
    // The token's quota before uploading: fetched for the stored token and again whenever the
    // token field is committed (change, not every keystroke); an upload's answer updates it.
    // Fetched by hand, not as a resource: a resource reloading under the page's Suspense
    // would swap the whole form for the loading state.
    let quota_token = RwSignal::new(token.get_untracked().trim().to_owned());
    let quota = RwSignal::new(None::<Quota>);
    Effect::new(move |_| {
        let t = quota_token.get();
        quota.set(None);
        if t.is_empty() {
            return;
        }
        spawn_local(async move {
            let q = api::me(&t).await.ok().map(|m| m.quota);
            if quota_token.try_get_untracked().as_deref() == Some(t.as_str()) {
                let _ = quota.try_set(q);
            }
        });
    });

    let pick = move |f: web_sys::File| {
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
    };

    let valid_format = move || {
        preview.with(|p| match p {
            Preview::Valid { format, .. } => Some(*format),
            _ => None,
        })
    };

    let upload = move |_| {
        if uploading.get_untracked() {
            return;
        }
        let Some(format) = valid_format() else {
            return;
        };
        let token_value = token.get_untracked().trim().to_owned();
        let model_value = model.get_untracked().trim().to_owned();
        if token_value.is_empty() {
            problem.set(Some(FormProblem::Token));
            return;
        }
        if model_value.is_empty() {
            problem.set(Some(FormProblem::Model));
            return;
        }
        let Some(f) = file.get_value() else {
            return;
        };
        let meta = UploadMeta {
            model: model_value,
            organisation: organisation.get_untracked(),
            parameters: parameters.get_untracked(),
            weights: weights.get_untracked(),
            link: link.get_untracked(),
            description: description.get_untracked(),
            filename: f.name(),
            format,
        };
        let task = slug.get_untracked();
        problem.set(None);
        result.set(None);
        progress.set(0.0);
        uploading.set(true);
        spawn_local(async move {
            let outcome = api::upload_predictions(&task, &token_value, &meta, &f, move |p| {
                let _ = progress.try_set(p);
            })
            .await;
            if let Ok(r) = &outcome {
                let _ = quota.try_set(Some(r.quota));
                let _ = progress.try_set(1.0);
                if storage::token().is_none() {
                    storage::set(storage::TOKEN_KEY, &token_value);
                }
            }
            let _ = uploading.try_set(false);
            let _ = result.try_set(Some(outcome));
        });
    };

    let text_field = move |id: &'static str,
                           label: fn(&'static BoardStrings) -> &'static str,
                           value: RwSignal<String>,
                           max: &'static str| {
        view! {
            <div class="field">
                <label for=id>{btr(label)}</label>
                <input
                    id=id
                    type="text"
                    data-testid=id
                    maxlength=max
                    prop:value=move || value.get()
                    on:input=move |ev| value.set(event_target_value(&ev))
                />
            </div>
        }
    };

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
                        result.set(None);
                    }
                >
                    {task_options}
                </select>
            </div>
            <TaskDownloads slug=slug />
            <div class="field">
                <label for="submit-token">{btr(|t| t.token_label)}</label>
                <input
                    id="submit-token"
                    type="password"
                    autocomplete="off"
                    spellcheck="false"
                    data-testid="submit-token"
                    prop:value=move || token.get()
                    on:input=move |ev| token.set(event_target_value(&ev))
                    on:change=move |ev| quota_token.set(event_target_value(&ev).trim().to_owned())
                />
                <p class="muted small">
                    {btr(|t| t.token_missing)} " " <a href="/account">
                        {btr(|t| t.token_create_link)}
                    </a>
                </p>
            </div>
            {text_field("model-name", |t| t.model_label, model, "100")}
            <div class="field">
                {text_field("model-organisation", |t| t.organisation_label, organisation, "100")}
                <p class="muted small">{btr(|t| t.organisation_hint)}</p>
            </div>
            {text_field("model-parameters", |t| t.parameters_label, parameters, "40")}
            <div class="field">
                <label for="model-weights">{btr(|t| t.weights_label)}</label>
                <select
                    id="model-weights"
                    data-testid="model-weights"
                    on:change=move |ev| {
                        weights
                            .set(
                                if event_target_value(&ev) == "open" {
                                    Weights::Open
                                } else {
                                    Weights::Closed
                                },
                            )
                    }
                >
                    <option value="closed" prop:selected=move || weights.get() == Weights::Closed>
                        {btr(|t| t.weights_closed_option)}
                    </option>
                    <option value="open" prop:selected=move || weights.get() == Weights::Open>
                        {btr(|t| t.weights_open_option)}
                    </option>
                </select>
            </div>
            <div class="field">
                <label for="model-link">{btr(|t| t.link_label)}</label>
                <input
                    id="model-link"
                    type="url"
                    data-testid="model-link"
                    maxlength="300"
                    placeholder="https://"
                    prop:value=move || link.get()
                    on:input=move |ev| link.set(event_target_value(&ev))
                />
            </div>
            <div class="field">
                <label for="model-description">{btr(|t| t.description_label)}</label>
                <textarea
                    id="model-description"
                    data-testid="model-description"
                    rows="3"
                    maxlength="2000"
                    prop:value=move || description.get()
                    on:input=move |ev| description.set(event_target_value(&ev))
                ></textarea>
            </div>
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
            <div class="preview" aria-live="polite">
                {move || preview.get().render()}
            </div>
            {move || {
                problem
                    .get()
                    .map(|p| {
                        let text = match p {
                            FormProblem::Token => i18n.bt().need_token,
                            FormProblem::Model => i18n.bt().need_model,
                        };
                        view! {
                            <p class="notice error" role="alert" data-testid="form-problem">
                                {text}
                            </p>
                        }
                    })
            }}
            {move || {
                quota
                    .get()
                    .map(|q| {
                        view! {
                            <p class="quota-before" data-testid="quota-before" aria-live="polite">
                                {move || (i18n.bt().quota_before)(q.remaining, q.daily_limit)}
                            </p>
                        }
                    })
            }}
            <div class="actions">
                <button
                    type="button"
                    class="button primary"
                    data-testid="upload"
                    disabled=move || uploading.get() || valid_format().is_none()
                    on:click=upload
                >
                    {move || if uploading.get() { i18n.bt().uploading } else { i18n.bt().upload }}
                </button>
            </div>
            {move || {
                (uploading.get() || result.with(Option::is_some))
                    .then(|| {
                        view! {
                            <p class="upload-progress">
                                <progress
                                    data-testid="upload-progress"
                                    max="1"
                                    prop:value=move || progress.get()
                                    aria-label=btr(|t| t.upload_progress)
                                ></progress>
                                <span>{move || format::percent(progress.get())}</span>
                            </p>
                        }
                    })
            }}
            {move || {
                result
                    .get()
                    .map(|r| match r {
                        Ok(resp) => {
                            view! { <UploadResult response=resp categories=categories.get() /> }
                                .into_any()
                        }
                        Err(failure) => view! { <UploadErrors failure=failure /> }.into_any(),
                    })
            }}
        </section>
        <CommandLine slug=slug />
    }
}

impl Preview {
    /// The preview's view.
    fn render(self) -> AnyView {
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

/// The formats, the missing-items rule and the limits.
#[component]
fn Help(kind: Memo<Option<TaskKind>>) -> impl IntoView {
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
fn TaskDownloads(slug: RwSignal<String>) -> impl IntoView {
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
fn CommandLine(slug: RwSignal<String>) -> impl IntoView {
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

/// An accepted upload: status, score, warnings, quota and links.
#[component]
fn UploadResult(
    response: SubmitPredictionsResponse,
    categories: Vec<CategoryInfo>,
) -> impl IntoView {
    let i18n = use_i18n();
    let SubmitPredictionsResponse {
        submission_id,
        task,
        status,
        lines,
        warnings,
        notes,
        public_scores,
        quota,
    } = response;
    let heading = NodeRef::<leptos::html::H3>::new();
    Effect::new(move |_| {
        if let Some(h) = heading.get() {
            let _ = h.focus();
        }
    });
    let scores_view = match public_scores {
        Some(scores) => {
            let overall = scores.first().and_then(|s| s.estimate);
            view! {
                <h4>{btr(|t| t.public_score_title)}</h4>
                <p class="big-score" data-testid="result-overall">
                    {estimate_view(overall.as_ref())}
                </p>
                <ScoreTable scores=scores categories=categories testid="result-scores" />
            }
            .into_any()
        }
        None => view! { <p class="notice info">{btr(|t| t.received_note)}</p> }.into_any(),
    };
    let warnings_view = (!warnings.is_empty()).then(|| {
        view! {
            <div class="notice warning" data-testid="result-warnings">
                <p>{btr(|t| t.warnings_title)}</p>
                <ul class="error-list">
                    {move || {
                        // Coded notes in the reader's language; plain English from older servers.
                        let locale = i18n.lang().locale();
                        if notes.is_empty() {
                            warnings.clone()
                        } else {
                            notes.iter().map(|n| n.render(locale)).collect()
                        }
                            .into_iter()
                            .map(|w| view! { <li>{w}</li> })
                            .collect_view()
                    }}
                </ul>
            </div>
        }
    });
    view! {
        <section class="result" data-testid="upload-result" data-status=status_text(crate::i18n::Lang::En, status)>
            <h3 node_ref=heading tabindex="-1">
                {btr(|t| t.result_title)}
            </h3>
            <p>
                <span class="badge right">{move || status_text(i18n.lang(), status)}</span>
                " "
                {move || (i18n.bt().lines_read)(lines)}
            </p>
            {scores_view}
            {warnings_view}
            <p data-testid="result-quota">
                <strong>{btr(|t| t.quota_label)} ": "</strong>
                {move || (i18n.bt().quota_left)(quota.remaining, quota.daily_limit)}
            </p>
            <div class="actions">
                <a
                    class="button primary"
                    href=format!("/boards/{}", api::encode_component(&task))
                    data-testid="result-board-link"
                >
                    {btr(|t| t.see_board)}
                </a>
                <a
                    class="button secondary"
                    href=format!("/models/{}", api::encode_component(&submission_id))
                    data-testid="result-model-link"
                >
                    {btr(|t| t.see_model)}
                </a>
            </div>
        </section>
    }
}

/// A rejected upload: one line per problem, as the server sent them.
#[component]
fn UploadErrors(failure: UploadFailure) -> impl IntoView {
    let status = failure.status.map(|s| s.to_string()).unwrap_or_default();
    view! {
        <div class="notice error" role="alert" data-testid="upload-errors" data-status=status>
            <p>{btr(|t| t.upload_failed)}</p>
            <ul class="error-list">
                {failure.messages.into_iter().map(|m| view! { <li>{m}</li> }).collect_view()}
            </ul>
        </div>
    }
}
