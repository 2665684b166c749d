//! `/console` and `/console/{slug}`: the study console of a quiz's owner. The owner token is
//! entered once and kept in localStorage (`memeboard.owner_token`); the console shows and
//! saves the quiz's settings (open/closed, batch size, participant target, items and
//! categories, content-flag policy, recruitment hand-off, quality rules, attention checks),
//! the live progress (polled every few seconds, no reload), excluded participants with their
//! reasons, the action log, and the answer-level export downloads.

use crate::api::{self, ApiError};
use crate::components::status::{error_fallback, Loading};
use crate::components::title::use_page_title;
use crate::format;
use crate::i18n::{category_label, use_i18n, Lang};
use crate::storage;
use crate::study_i18n::{st, study_strings};
use leptos::ev::SubmitEvent;
use leptos::prelude::*;
use leptos::task::spawn_local;
use leptos_router::hooks::use_params_map;
use memeboard_core::study::{
    ConsoleResponse, ConsoleSettings, FlaggedPolicy, ProgressResponse, StudySettings,
};
use wasm_bindgen::JsCast;

/// How often the progress view refreshes (ms).
const POLL_MS: i32 = 3_000;

/// The console pages.
#[component]
pub fn ConsolePage() -> impl IntoView {
    let params = use_params_map();
    let slug = move || params.read().get("slug");
    let token = RwSignal::new(storage::owner_token());
    use_page_title(|lang| study_strings(lang).console_title.to_owned());
    let forget = Callback::new(move |()| {
        storage::remove(storage::OWNER_TOKEN_KEY);
        token.set(None);
    });
    view! {
        <section class="intro">
            <h1>{st(|s| s.console_title)}</h1>
            <p class="lead">{st(|s| s.console_intro)}</p>
        </section>
        {move || match (token.get(), slug()) {
            (None, _) => view! { <TokenForm token=token /> }.into_any(),
            (Some(t), None) => view! { <TaskList token=t forget=forget /> }.into_any(),
            (Some(t), Some(s)) => view! { <Console slug=s token=t forget=forget /> }.into_any(),
        }}
    }
}

/// Asks for the owner token once.
#[component]
fn TokenForm(token: RwSignal<Option<String>>) -> impl IntoView {
    let value = RwSignal::new(String::new());
    let on_submit = move |ev: SubmitEvent| {
        ev.prevent_default();
        let t = value.get_untracked().trim().to_owned();
        if !t.is_empty() {
            storage::set(storage::OWNER_TOKEN_KEY, &t);
            token.set(Some(t));
        }
    };
    view! {
        <section class="card">
            <form class="stack" on:submit=on_submit>
                <div class="field">
                    <label for="owner-token">{st(|s| s.owner_token_label)}</label>
                    <input
                        id="owner-token"
                        type="password"
                        autocomplete="off"
                        data-testid="owner-token"
                        prop:value=move || value.get()
                        on:input=move |ev| value.set(event_target_value(&ev))
                    />
                </div>
                <p class="muted small">{st(|s| s.owner_token_note)}</p>
                <button type="submit" class="button primary" data-testid="owner-token-save">
                    {st(|s| s.owner_token_save)}
                </button>
            </form>
        </section>
    }
}

/// The forget-token button.
#[component]
fn ForgetToken(forget: Callback<()>) -> impl IntoView {
    view! {
        <p>
            <button type="button" class="button secondary" on:click=move |_| forget.run(())>
                {st(|s| s.owner_token_forget)}
            </button>
        </p>
    }
}

/// The quizzes the token manages.
#[component]
fn TaskList(token: String, forget: Callback<()>) -> impl IntoView {
    let i18n = use_i18n();
    let tasks = LocalResource::new(move || {
        let token = token.clone();
        async move { api::owner_tasks(&token).await }
    });
    view! {
        <section class="card">
            <h2>{st(|s| s.your_quizzes)}</h2>
            <Suspense fallback=|| view! { <Loading /> }>
                <ErrorBoundary fallback=error_fallback>
                    {move || Suspend::new(async move {
                        tasks
                            .await
                            .map(|list| {
                                view! {
                                    <ul class="stack" data-testid="owner-tasks">
                                        {list
                                            .into_iter()
                                            .map(|t| {
                                                let open = t.quiz_open;
                                                view! {
                                                    <li>
                                                        <a href=format!("/console/{}", api::encode_component(&t.slug))>
                                                            {t.title.clone()}
                                                        </a>
                                                        " (" {t.slug.clone()} ", "
                                                        {move || {
                                                            let s = study_strings(i18n.lang());
                                                            if open { s.open } else { s.closed }
                                                        }} ")"
                                                    </li>
                                                }
                                            })
                                            .collect_view()}
                                    </ul>
                                }
                            })
                    })}
                </ErrorBoundary>
            </Suspense>
            <ForgetToken forget=forget />
        </section>
    }
}

/// One quiz's console.
#[component]
fn Console(slug: String, token: String, forget: Callback<()>) -> impl IntoView {
    let version = RwSignal::new(0u32);
    let (slug_r, token_r) = (StoredValue::new(slug), StoredValue::new(token));
    let data = LocalResource::new(move || {
        version.track();
        let (slug, token) = (slug_r.get_value(), token_r.get_value());
        async move { api::console(&slug, &token).await }
    });
    let reload = Callback::new(move |()| version.update(|v| *v += 1));
    // Outlives a reload of the console (after a save), so "Saved." stays on screen.
    let message = RwSignal::new(None::<Result<(), String>>);
    view! {
        <Transition fallback=|| view! { <Loading /> }>
            <ErrorBoundary fallback=error_fallback>
                {move || Suspend::new(async move {
                    data.await
                        .map(|c| {
                            view! {
                                <ConsoleView
                                    console=c
                                    token=token_r.get_value()
                                    reload=reload
                                    message=message
                                />
                            }
                        })
                })}
            </ErrorBoundary>
        </Transition>
        <ForgetToken forget=forget />
    }
}

/// `YYYY-MM-DD HH:MM:SS UTC`.
fn date_time(ms: i64) -> String {
    let secs = ms.div_euclid(1000).rem_euclid(86_400);
    format!(
        "{} {:02}:{:02}:{:02} UTC",
        format::date(ms),
        secs / 3600,
        secs / 60 % 60,
        secs % 60
    )
}

fn opt_text<T: ToString>(v: Option<T>) -> String {
    v.map(|v| v.to_string()).unwrap_or_default()
}

fn opt_string(v: &str) -> Option<String> {
    let v = v.trim();
    (!v.is_empty()).then(|| v.to_owned())
}

/// A whole number or nothing; `Err` names the field.
fn opt_number<T: std::str::FromStr>(field: &str, v: &str, lang: Lang) -> Result<Option<T>, String> {
    let v = v.trim();
    if v.is_empty() {
        return Ok(None);
    }
    v.parse()
        .map(Some)
        .map_err(|_| (study_strings(lang).not_a_number)(field))
}

/// A labelled text (or number) input bound to a string signal.
#[component]
fn TextField(
    id: &'static str,
    label: fn(&'static crate::study_i18n::StudyStrings) -> &'static str,
    value: RwSignal<String>,
    #[prop(default = "text")] kind: &'static str,
) -> impl IntoView {
    view! {
        <div class="field">
            <label for=id>{st(label)}</label>
            <input
                id=id
                type=kind
                data-testid=id
                prop:value=move || value.get()
                on:input=move |ev| value.set(event_target_value(&ev))
            />
        </div>
    }
}

/// A labelled checkbox bound to a bool signal.
#[component]
fn CheckField(
    id: &'static str,
    label: fn(&'static crate::study_i18n::StudyStrings) -> &'static str,
    value: RwSignal<bool>,
) -> impl IntoView {
    view! {
        <div class="field check">
            <input
                id=id
                type="checkbox"
                data-testid=id
                prop:checked=move || value.get()
                on:change=move |ev| value.set(event_target_checked(&ev))
            />
            <label for=id>{st(label)}</label>
        </div>
    }
}

/// Settings form, progress, exclusions, action log and exports of one quiz.
#[component]
fn ConsoleView(
    console: ConsoleResponse,
    token: String,
    reload: Callback<()>,
    message: RwSignal<Option<Result<(), String>>>,
) -> impl IntoView {
    let i18n = use_i18n();
    let s = console.settings.clone();
    let study = &s.study;
    let h = &study.handoff;
    let q = &study.quality;
    let quiz_open = RwSignal::new(s.quiz_open);
    let allow_retake = RwSignal::new(s.allow_retake);
    let exclude_failed = RwSignal::new(s.exclude_failed_checks);
    let allow_repeat = RwSignal::new(h.allow_repeat_participation);
    let require_pid = RwSignal::new(h.require_prolific_id);
    let screen_headphones = RwSignal::new(q.screen_out_failed_headphones);
    let planted_checks = RwSignal::new(q.planted_checks);
    let batch_size = RwSignal::new(s.batch_size.to_string());
    let target = RwSignal::new(opt_text(study.participant_target));
    let checks = RwSignal::new(study.attention_checks.to_string());
    let prolific_code = RwSignal::new(h.prolific_completion_code.clone().unwrap_or_default());
    let prolific_screenout = RwSignal::new(h.prolific_screenout_code.clone().unwrap_or_default());
    let completion_template = RwSignal::new(h.completion_url_template.clone().unwrap_or_default());
    let screenout_template = RwSignal::new(h.screenout_url_template.clone().unwrap_or_default());
    let fail_checks = RwSignal::new(opt_text(q.fail_checks_at_least));
    let min_median = RwSignal::new(opt_text(q.min_median_ms));
    let min_item = RwSignal::new(opt_text(q.min_item_ms));
    let fast_share = RwSignal::new(opt_text(q.fast_share_percent));
    let straightline = RwSignal::new(opt_text(q.straightline_percent));
    let excluded_items = RwSignal::new(study.excluded_items.join("\n"));
    let categories = RwSignal::new(study.categories.clone());
    let flagged = RwSignal::new(study.flagged_policy);
    let sending = RwSignal::new(false);
    let slug = StoredValue::new(console.task.clone());
    let token = StoredValue::new(token);

    let collect = move |lang: Lang| -> Result<ConsoleSettings, String> {
        Ok(ConsoleSettings {
            quiz_open: quiz_open.get_untracked(),
            batch_size: opt_number("batch_size", &batch_size.get_untracked(), lang)?.unwrap_or(0),
            allow_retake: allow_retake.get_untracked(),
            exclude_failed_checks: exclude_failed.get_untracked(),
            study: StudySettings {
                participant_target: opt_number(
                    "participant_target",
                    &target.get_untracked(),
                    lang,
                )?,
                categories: categories.get_untracked(),
                excluded_items: excluded_items
                    .get_untracked()
                    .lines()
                    .map(str::trim)
                    .filter(|l| !l.is_empty())
                    .map(str::to_owned)
                    .collect(),
                flagged_policy: flagged.get_untracked(),
                attention_checks: opt_number("attention_checks", &checks.get_untracked(), lang)?
                    .unwrap_or(0),
                handoff: memeboard_core::study::Handoff {
                    prolific_completion_code: opt_string(&prolific_code.get_untracked()),
                    prolific_screenout_code: opt_string(&prolific_screenout.get_untracked()),
                    completion_url_template: opt_string(&completion_template.get_untracked()),
                    screenout_url_template: opt_string(&screenout_template.get_untracked()),
                    allow_repeat_participation: allow_repeat.get_untracked(),
                    require_prolific_id: require_pid.get_untracked(),
                },
                quality: memeboard_core::study::QualityRules {
                    fail_checks_at_least: opt_number(
                        "fail_checks_at_least",
                        &fail_checks.get_untracked(),
                        lang,
                    )?,
                    min_median_ms: opt_number("min_median_ms", &min_median.get_untracked(), lang)?,
                    min_item_ms: opt_number("min_item_ms", &min_item.get_untracked(), lang)?,
                    fast_share_percent: opt_number(
                        "fast_share_percent",
                        &fast_share.get_untracked(),
                        lang,
                    )?,
                    straightline_percent: opt_number(
                        "straightline_percent",
                        &straightline.get_untracked(),
                        lang,
                    )?,
                    screen_out_failed_headphones: screen_headphones.get_untracked(),
                    planted_checks: planted_checks.get_untracked(),
                },
            },
        })
    };
    let on_submit = move |ev: SubmitEvent| {
        ev.prevent_default();
        if sending.get_untracked() {
            return;
        }
        let settings = match collect(i18n.lang_untracked()) {
            Ok(s) => s,
            Err(e) => {
                message.set(Some(Err(e)));
                return;
            }
        };
        sending.set(true);
        spawn_local(async move {
            let result = api::save_settings(&slug.get_value(), &token.get_value(), &settings).await;
            let _ = sending.try_set(false);
            match result {
                Ok(_) => {
                    let _ = message.try_set(Some(Ok(())));
                    reload.run(());
                }
                Err(e) => {
                    let _ = message.try_set(Some(Err(e.to_string())));
                }
            }
        });
    };

    let cats = console.categories.clone();
    let category_boxes = console
        .categories
        .iter()
        .map(|c| {
            let key = c.key.clone();
            let id = format!("category-{}", c.key);
            let (k1, k2, cats) = (key.clone(), key.clone(), cats.clone());
            view! {
                <div class="field check">
                    <input
                        id=id.clone()
                        type="checkbox"
                        data-testid=id.clone()
                        prop:checked=move || categories.with(|c| c.contains(&k1))
                        on:change=move |ev| {
                            let on = event_target_checked(&ev);
                            categories.update(|c| {
                                c.retain(|x| x != &k2);
                                if on {
                                    c.push(k2.clone());
                                }
                            });
                        }
                    />
                    <label for=id>{move || category_label(i18n.lang(), &key, &cats)}</label>
                </div>
            }
        })
        .collect_view();

    let before_after = (
        console.completed_before_exclusions,
        console.completed_after_exclusions,
    );
    let exclusions = console.exclusions.clone();
    let actions = console.actions.clone();
    let exports = console.exports.clone();
    let completion_preview = console.completion_preview.clone();
    let screenout_preview = console.screenout_preview.clone();
    view! {
        <h2 data-testid="console-task">{console.title.clone()} " (" {console.task.clone()} ")"</h2>
        <Progress slug=console.task.clone() token=token.get_value() categories=console.categories.clone() />
        <section class="card">
            <h2>{st(|s| s.settings_title)}</h2>
            <form class="stack" novalidate=true on:submit=on_submit data-testid="console-settings">
                <CheckField id="set-quiz-open" label=|s| s.quiz_open value=quiz_open />
                <TextField id="set-batch-size" label=|s| s.batch_size value=batch_size kind="number" />
                <TextField id="set-target" label=|s| s.participant_target value=target kind="number" />
                <fieldset>
                    <legend>{st(|s| s.categories_label)}</legend>
                    {category_boxes}
                </fieldset>
                <div class="field">
                    <label for="set-excluded-items">{st(|s| s.excluded_items_label)}</label>
                    <textarea
                        id="set-excluded-items"
                        rows="3"
                        prop:value=move || excluded_items.get()
                        on:input=move |ev| excluded_items.set(event_target_value(&ev))
                    ></textarea>
                </div>
                <div class="field">
                    <label for="set-flagged">{st(|s| s.flagged_label)}</label>
                    <select
                        id="set-flagged"
                        on:change=move |ev| {
                            flagged.set(if event_target_value(&ev) == "never" {
                                FlaggedPolicy::Never
                            } else {
                                FlaggedPolicy::ParticipantChoice
                            })
                        }
                    >
                        <option value="participant_choice" selected=move || flagged.get() == FlaggedPolicy::ParticipantChoice>
                            {st(|s| s.flagged_choice)}
                        </option>
                        <option value="never" selected=move || flagged.get() == FlaggedPolicy::Never>
                            {st(|s| s.flagged_never)}
                        </option>
                    </select>
                </div>
                <CheckField id="set-allow-retake" label=|s| s.allow_retake value=allow_retake />
                <fieldset>
                    <legend>{st(|s| s.handoff_title)}</legend>
                    <TextField id="set-prolific-code" label=|s| s.prolific_code value=prolific_code />
                    <TextField id="set-prolific-screenout" label=|s| s.prolific_screenout value=prolific_screenout />
                    <TextField id="set-completion-template" label=|s| s.completion_template value=completion_template />
                    <TextField id="set-screenout-template" label=|s| s.screenout_template value=screenout_template />
                    <p class="muted small">{st(|s| s.template_help)}</p>
                    <CheckField id="set-allow-repeat" label=|s| s.allow_repeat value=allow_repeat />
                    <CheckField id="set-require-pid" label=|s| s.require_pid value=require_pid />
                    <dl class="facts">
                        <dt>{st(|s| s.preview_completion)}</dt>
                        <dd data-testid="completion-preview">{completion_preview.unwrap_or_else(|| format::DASH.to_owned())}</dd>
                        <dt>{st(|s| s.preview_screenout)}</dt>
                        <dd>{screenout_preview.unwrap_or_else(|| format::DASH.to_owned())}</dd>
                    </dl>
                </fieldset>
                <fieldset>
                    <legend>{st(|s| s.quality_title)}</legend>
                    <TextField id="set-checks" label=|s| s.checks_label value=checks kind="number" />
                    <TextField id="set-fail-checks" label=|s| s.fail_checks value=fail_checks kind="number" />
                    <TextField id="set-min-median" label=|s| s.min_median value=min_median kind="number" />
                    <TextField id="set-min-item" label=|s| s.min_item value=min_item kind="number" />
                    <TextField id="set-fast-share" label=|s| s.fast_share value=fast_share kind="number" />
                    <TextField id="set-straightline" label=|s| s.straightline value=straightline kind="number" />
                    <CheckField id="set-exclude-headphones" label=|s| s.exclude_headphones value=exclude_failed />
                    <CheckField id="set-screen-headphones" label=|s| s.screen_headphones value=screen_headphones />
                    <CheckField id="set-planted-checks" label=|s| s.planted_checks value=planted_checks />
                </fieldset>
                {move || message.get().map(|m| match m {
                    Ok(()) => view! { <p class="notice" role="status" data-testid="settings-saved">{st(|s| s.saved)}</p> }.into_any(),
                    Err(e) => view! { <p class="notice error" role="alert" data-testid="settings-error">{e}</p> }.into_any(),
                })}
                <button type="submit" class="button primary" data-testid="save-settings" disabled=move || sending.get()>
                    {st(|s| s.save)}
                </button>
            </form>
        </section>
        <section class="card">
            <h2>{st(|s| s.exclusions_title)}</h2>
            <p data-testid="before-after">{move || (study_strings(i18n.lang()).before_after)(before_after.0, before_after.1)}</p>
            {if exclusions.is_empty() {
                view! { <p class="muted">{st(|s| s.none_excluded)}</p> }.into_any()
            } else {
                view! {
                    <div class="console-table">
                        <table data-testid="exclusions">
                            <thead>
                                <tr>
                                    <th scope="col">{st(|s| s.col_session)}</th>
                                    <th scope="col">{st(|s| s.col_participant)}</th>
                                    <th scope="col">"Prolific"</th>
                                    <th scope="col">{st(|s| s.col_reason)}</th>
                                </tr>
                            </thead>
                            <tbody>
                                {exclusions
                                    .into_iter()
                                    .map(|e| {
                                        let reason = e.reason.clone();
                                        view! {
                                            <tr>
                                                <td><code>{e.session_id.chars().take(8).collect::<String>()}</code></td>
                                                <td>{e.participant_id}</td>
                                                <td>{e.prolific_pid.unwrap_or_default()}</td>
                                                <td data-code=reason.code.as_str()>
                                                    {move || if i18n.lang() == Lang::Zh { reason.zh.clone() } else { reason.en.clone() }}
                                                </td>
                                            </tr>
                                        }
                                    })
                                    .collect_view()}
                            </tbody>
                        </table>
                    </div>
                }
                    .into_any()
            }}
        </section>
        <section class="card">
            <h2>{st(|s| s.exports_title)}</h2>
            <div class="actions">
                {exports
                    .into_iter()
                    .map(|url| view! { <ExportButton url=url token=token.get_value() /> })
                    .collect_view()}
            </div>
        </section>
        <crate::pages::study::StudyForm slug=slug.get_value() token=token.get_value() />
        <section class="card">
            <h2>{st(|s| s.actions_title)}</h2>
            <div class="console-table">
                <table data-testid="actions">
                    <thead>
                        <tr>
                            <th scope="col">{st(|s| s.col_when)}</th>
                            <th scope="col">{st(|s| s.col_who)}</th>
                            <th scope="col">{st(|s| s.col_what)}</th>
                            <th scope="col">{st(|s| s.col_detail)}</th>
                        </tr>
                    </thead>
                    <tbody>
                        {actions
                            .into_iter()
                            .map(|a| {
                                view! {
                                    <tr>
                                        <td>{date_time(a.at)}</td>
                                        <td>{a.actor}</td>
                                        <td>{a.action}{a.task.map(|t| format!(" · {t}"))}</td>
                                        <td><code class="small">{a.detail.to_string()}</code></td>
                                    </tr>
                                }
                            })
                            .collect_view()}
                    </tbody>
                </table>
            </div>
        </section>
    }
}

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
            {move || (study_strings(i18n.lang()).download)(&label)}
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

/// The live progress view: fetched now and every few seconds while the page is open.
#[component]
fn Progress(
    slug: String,
    token: String,
    categories: Vec<memeboard_core::tasks::CategoryInfo>,
) -> impl IntoView {
    let i18n = use_i18n();
    let data = RwSignal::new(None::<Result<ProgressResponse, ApiError>>);
    spawn_local(async move {
        loop {
            let result = api::progress(&slug, &token).await;
            if data.try_set(Some(result)).is_some() {
                break; // the page is gone
            }
            crate::browser::sleep_ms(POLL_MS).await;
        }
    });
    let cats = StoredValue::new(categories);
    view! {
        <section class="card" data-testid="progress" aria-live="off">
            <h2>{st(|s| s.progress_title)}</h2>
            {move || match data.get() {
                None => view! { <Loading /> }.into_any(),
                Some(Err(e)) => view! { <p class="notice error" role="alert">{e.to_string()}</p> }.into_any(),
                Some(Ok(p)) => {
                    let s = study_strings(i18n.lang());
                    let lang = i18n.lang();
                    let max_bin = p.completion_histogram.iter().map(|b| b.sessions).max().unwrap_or(0).max(1);
                    view! {
                        <dl class="facts progress-figures">
                            <div><dt>{s.started}</dt><dd data-testid="progress-started">{p.started}</dd></div>
                            <div><dt>{s.completed}</dt><dd data-testid="progress-completed">{p.completed}</dd></div>
                            <div><dt>{s.after_exclusions}</dt><dd>{p.completed_after_exclusions}</dd></div>
                            <div><dt>{s.in_progress}</dt><dd data-testid="progress-in-progress">{p.in_progress}</dd></div>
                            <div><dt>{s.dropped}</dt><dd>{p.dropped}</dd></div>
                            <div><dt>{s.screened_out}</dt><dd>{p.screened_out}</dd></div>
                            <div><dt>{s.target}</dt><dd>{p.participant_target.map_or_else(|| format::DASH.to_owned(), |t| t.to_string())}</dd></div>
                        </dl>
                        <ul class="small">
                            {p.dropped_at.iter().map(|d| view! { <li>{(s.dropped_after)(d.position, d.sessions)}</li> }).collect_view()}
                        </ul>
                        <h3>{s.per_category}</h3>
                        <ul class="chips">
                            {p.categories.iter().map(|c| {
                                let label = cats.with_value(|cats| category_label(lang, &c.category, cats));
                                view! { <li class="chip">{label} ": " {c.answers}</li> }
                            }).collect_view()}
                        </ul>
                        <h3>{s.agreement}</h3>
                        <ul>
                            {p.agreement.iter().map(|a| view! {
                                <li>
                                    {a.dimension.clone()} ": κ " {a.fleiss_kappa.map_or_else(|| format::DASH.to_owned(), |k| format!("{k:.2}"))}
                                    ", α " {a.krippendorff_alpha.map_or_else(|| format::DASH.to_owned(), |k| format!("{k:.2}"))}
                                    " (" {a.raters} ")"
                                </li>
                            }).collect_view()}
                        </ul>
                        <h3>{s.histogram}</h3>
                        <ul class="histogram">
                            {p.completion_histogram.iter().map(|b| {
                                let width = format!("width: {}%", b.sessions * 100 / max_bin);
                                view! {
                                    <li>
                                        <span class="bar" style=width></span>
                                        <span class="small">{(s.bin)(b.from_s, b.to_s, b.sessions)}</span>
                                    </li>
                                }
                            }).collect_view()}
                        </ul>
                        <details>
                            <summary>{s.per_item}</summary>
                            <div class="console-table">
                                <table>
                                    <thead>
                                        <tr>
                                            <th scope="col">{s.col_item}</th>
                                            <th scope="col">{s.col_category}</th>
                                            <th scope="col">{s.col_answers}</th>
                                            <th scope="col">{s.col_median}</th>
                                        </tr>
                                    </thead>
                                    <tbody>
                                        {p.items.iter().map(|i| view! {
                                            <tr>
                                                <td><code>{i.item_id.clone()}</code></td>
                                                <td>{i.category.clone()}</td>
                                                <td class="num">{i.answers}</td>
                                                <td class="num">{i.median_ms.map_or_else(|| format::DASH.to_owned(), |m| format!("{:.1}", m / 1000.0))}</td>
                                            </tr>
                                        }).collect_view()}
                                    </tbody>
                                </table>
                            </div>
                        </details>
                        <p class="muted small">{(s.updated)(&date_time(p.computed_at))}</p>
                    }
                        .into_any()
                }
            }}
        </section>
    }
}
