//! The console's settings form: the quiz's state, items and categories, content-flag
//! policy, recruitment hand-off, quality rules and attention checks.

use crate::api;
use crate::components::fields::{CheckField, TextField};
use crate::format;
use crate::i18n::fieldwork::{st, FieldworkStrings};
use crate::i18n::{category_label, use_i18n, Lang};
use leptos::ev::SubmitEvent;
use leptos::prelude::*;
use leptos::task::spawn_local;
use memeboard_core::fieldwork::{
    completion_handoff, screenout_handoff, ConsoleResponse, ConsoleSettings, FieldworkSettings,
    FlaggedPolicy, Handoff, HandoffIds, SettingsInUse,
};
use memeboard_core::tasks::CategoryInfo;

fn opt_text<T: ToString>(v: Option<T>) -> String {
    v.map(|v| v.to_string()).unwrap_or_default()
}

fn opt_string(v: &str) -> Option<String> {
    let v = v.trim();
    (!v.is_empty()).then(|| v.to_owned())
}

/// A whole number or nothing; `Err` names the field by its label on the form.
fn opt_number<T: std::str::FromStr>(
    label: fn(&'static crate::i18n::fieldwork::FieldworkStrings) -> &'static str,
    v: &str,
    lang: Lang,
) -> Result<Option<T>, String> {
    let v = v.trim();
    if v.is_empty() {
        return Ok(None);
    }
    let strings = lang.table::<FieldworkStrings>();
    v.parse()
        .map(Some)
        .map_err(|_| (strings.not_a_number)(label(strings)))
}

/// The settings form's inputs, one signal each.
#[derive(Clone, Copy)]
struct Fields {
    quiz_open: RwSignal<bool>,
    allow_retake: RwSignal<bool>,
    exclude_failed: RwSignal<bool>,
    allow_repeat: RwSignal<bool>,
    require_pid: RwSignal<bool>,
    screen_headphones: RwSignal<bool>,
    planted_checks: RwSignal<bool>,
    pilot: RwSignal<bool>,
    batch_size: RwSignal<String>,
    target: RwSignal<String>,
    checks: RwSignal<String>,
    rater_batches: RwSignal<String>,
    prolific_code: RwSignal<String>,
    prolific_screenout: RwSignal<String>,
    completion_template: RwSignal<String>,
    screenout_template: RwSignal<String>,
    fail_checks: RwSignal<String>,
    min_median: RwSignal<String>,
    min_item: RwSignal<String>,
    fast_share: RwSignal<String>,
    straightline: RwSignal<String>,
    excluded_items: RwSignal<String>,
    categories: RwSignal<Vec<String>>,
    flagged: RwSignal<FlaggedPolicy>,
}

impl Fields {
    /// The inputs as the quiz's settings are now.
    fn new(s: &ConsoleSettings) -> Self {
        let fieldwork = &s.fieldwork;
        let h = &fieldwork.handoff;
        let q = &fieldwork.quality;
        Self {
            quiz_open: RwSignal::new(s.quiz_open),
            allow_retake: RwSignal::new(s.allow_retake),
            exclude_failed: RwSignal::new(s.exclude_failed_checks),
            allow_repeat: RwSignal::new(h.allow_repeat_participation),
            require_pid: RwSignal::new(h.require_prolific_id),
            screen_headphones: RwSignal::new(q.screen_out_failed_headphones),
            planted_checks: RwSignal::new(q.planted_checks),
            pilot: RwSignal::new(fieldwork.pilot),
            batch_size: RwSignal::new(s.batch_size.to_string()),
            target: RwSignal::new(opt_text(fieldwork.participant_target)),
            checks: RwSignal::new(fieldwork.attention_checks.to_string()),
            rater_batches: RwSignal::new(opt_text(fieldwork.batches_per_rater)),
            prolific_code: RwSignal::new(h.prolific_completion_code.clone().unwrap_or_default()),
            prolific_screenout: RwSignal::new(
                h.prolific_screenout_code.clone().unwrap_or_default(),
            ),
            completion_template: RwSignal::new(
                h.completion_url_template.clone().unwrap_or_default(),
            ),
            screenout_template: RwSignal::new(h.screenout_url_template.clone().unwrap_or_default()),
            fail_checks: RwSignal::new(opt_text(q.fail_checks_at_least)),
            min_median: RwSignal::new(opt_text(q.min_median_ms)),
            min_item: RwSignal::new(opt_text(q.min_item_ms)),
            fast_share: RwSignal::new(opt_text(q.fast_share_percent)),
            straightline: RwSignal::new(opt_text(q.straightline_percent)),
            excluded_items: RwSignal::new(fieldwork.excluded_items.join("\n")),
            categories: RwSignal::new(fieldwork.categories.clone()),
            flagged: RwSignal::new(fieldwork.flagged_policy),
        }
    }

    /// The hand-off the inputs describe (as typed, before saving).
    fn handoff(self) -> Handoff {
        Handoff {
            prolific_completion_code: opt_string(&self.prolific_code.get()),
            prolific_screenout_code: opt_string(&self.prolific_screenout.get()),
            completion_url_template: opt_string(&self.completion_template.get()),
            screenout_url_template: opt_string(&self.screenout_template.get()),
            allow_repeat_participation: self.allow_repeat.get(),
            require_prolific_id: self.require_pid.get(),
        }
    }

    /// The settings the inputs describe; `Err` names a field that is not a number.
    fn collect(self, lang: Lang) -> Result<ConsoleSettings, String> {
        let Self {
            quiz_open,
            allow_retake,
            exclude_failed,
            screen_headphones,
            planted_checks,
            pilot,
            batch_size,
            target,
            checks,
            rater_batches,
            fail_checks,
            min_median,
            min_item,
            fast_share,
            straightline,
            excluded_items,
            categories,
            flagged,
            ..
        } = self;
        let handoff = untrack(|| self.handoff());
        Ok(ConsoleSettings {
            quiz_open: quiz_open.get_untracked(),
            batch_size: opt_number(|s| s.batch_size, &batch_size.get_untracked(), lang)?
                .unwrap_or(0),
            allow_retake: allow_retake.get_untracked(),
            exclude_failed_checks: exclude_failed.get_untracked(),
            fieldwork: FieldworkSettings {
                participant_target: opt_number(
                    |s| s.participant_target,
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
                attention_checks: opt_number(|s| s.checks_label, &checks.get_untracked(), lang)?
                    .unwrap_or(0),
                handoff,
                quality: memeboard_core::fieldwork::QualityRules {
                    fail_checks_at_least: opt_number(
                        |s| s.fail_checks,
                        &fail_checks.get_untracked(),
                        lang,
                    )?,
                    min_median_ms: opt_number(|s| s.min_median, &min_median.get_untracked(), lang)?,
                    min_item_ms: opt_number(|s| s.min_item, &min_item.get_untracked(), lang)?,
                    fast_share_percent: opt_number(
                        |s| s.fast_share,
                        &fast_share.get_untracked(),
                        lang,
                    )?,
                    straightline_percent: opt_number(
                        |s| s.straightline,
                        &straightline.get_untracked(),
                        lang,
                    )?,
                    screen_out_failed_headphones: screen_headphones.get_untracked(),
                    planted_checks: planted_checks.get_untracked(),
                },
                pilot: pilot.get_untracked(),
                batches_per_rater: opt_number(
                    |s| s.rater_batches,
                    &rater_batches.get_untracked(),
                    lang,
                )?,
            },
        })
    }
}

/// The category checkboxes, bound to the chosen `categories`.
fn category_boxes(
    console_categories: &[CategoryInfo],
    categories: RwSignal<Vec<String>>,
) -> impl IntoView {
    let i18n = use_i18n();
    let cats = console_categories.to_vec();
    console_categories
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
        .collect_view()
}

/// The settings form of one quiz; saving sends it with the owner `token`, shows the outcome in
/// `message` and calls `reload`.
pub(super) fn settings_form(
    console: &ConsoleResponse,
    slug: StoredValue<String>,
    token: StoredValue<String>,
    reload: Callback<()>,
    message: RwSignal<Option<Result<(), String>>>,
) -> impl IntoView {
    let i18n = use_i18n();
    let fields = Fields::new(&console.settings);
    let Fields {
        quiz_open,
        allow_retake,
        pilot,
        batch_size,
        target,
        excluded_items,
        categories,
        flagged,
        ..
    } = fields;
    let sending = RwSignal::new(false);
    let on_submit = move |ev: SubmitEvent| {
        ev.prevent_default();
        if sending.get_untracked() {
            return;
        }
        let settings = match fields.collect(i18n.lang_untracked()) {
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

    let category_boxes = category_boxes(&console.categories, categories);
    let SettingsInUse {
        content_flags,
        categories: has_categories,
        ..
    } = console.uses;
    view! {
        <section class="card">
            <h2>{st(|s| s.settings_title)}</h2>
            <form class="stack" novalidate=true on:submit=on_submit data-testid="console-settings">
                <CheckField id="set-quiz-open" label=st(|s| s.quiz_open) value=quiz_open />
                <CheckField id="set-pilot" label=st(|s| s.pilot_mode) value=pilot />
                <TextField id="set-batch-size" label=st(|s| s.batch_size) value=batch_size kind="number" />
                <TextField id="set-target" label=st(|s| s.participant_target) value=target kind="number" />
                {has_categories.then(|| view! {
                    <fieldset>
                        <legend>{st(|s| s.categories_label)}</legend>
                        {category_boxes}
                    </fieldset>
                })}
                <div class="field">
                    <label for="set-excluded-items">{st(|s| s.excluded_items_label)}</label>
                    <textarea
                        id="set-excluded-items"
                        rows="3"
                        prop:value=move || excluded_items.get()
                        on:input=move |ev| excluded_items.set(event_target_value(&ev))
                    ></textarea>
                </div>
                {content_flags.then(|| view! {
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
                })}
                <CheckField id="set-allow-retake" label=st(|s| s.allow_retake) value=allow_retake />
                {handoff_fieldset(fields)}
                {quality_fieldset(fields, console.uses)}
                {move || message.get().map(|m| match m {
                    Ok(()) => view! { <p class="notice" role="status" data-testid="settings-saved">{st(|s| s.saved)}</p> }.into_any(),
                    Err(e) => view! { <p class="notice error" role="alert" data-testid="settings-error">{e}</p> }.into_any(),
                })}
                <button type="submit" class="button primary" data-testid="save-settings" disabled=move || sending.get()>
                    {st(|s| s.save)}
                </button>
            </form>
        </section>
    }
}

/// The recruitment hand-off inputs, with the redirects as they will look.
fn handoff_fieldset(fields: Fields) -> impl IntoView {
    let Fields {
        allow_repeat,
        require_pid,
        prolific_code,
        prolific_screenout,
        completion_template,
        screenout_template,
        ..
    } = fields;
    // The redirects as they will look, following the inputs as the owner types.
    let completion_preview = move || {
        completion_handoff(&fields.handoff(), &HandoffIds::EXAMPLE)
            .map_or_else(|| format::DASH.to_owned(), |h| h.0)
    };
    let screenout_preview = move || {
        screenout_handoff(&fields.handoff(), &HandoffIds::EXAMPLE)
            .map_or_else(|| format::DASH.to_owned(), |h| h.0)
    };
    view! {
        <fieldset>
            <legend>{st(|s| s.handoff_title)}</legend>
            <TextField id="set-prolific-code" label=st(|s| s.prolific_code) value=prolific_code />
            <TextField id="set-prolific-screenout" label=st(|s| s.prolific_screenout) value=prolific_screenout />
            <TextField id="set-completion-template" label=st(|s| s.completion_template) value=completion_template />
            <TextField id="set-screenout-template" label=st(|s| s.screenout_template) value=screenout_template />
            <p class="muted small">{st(|s| s.template_help)}</p>
            <CheckField id="set-allow-repeat" label=st(|s| s.allow_repeat) value=allow_repeat />
            <CheckField id="set-require-pid" label=st(|s| s.require_pid) value=require_pid />
            <dl class="facts">
                <dt>{st(|s| s.preview_completion)}</dt>
                <dd data-testid="completion-preview">{completion_preview}</dd>
                <dt>{st(|s| s.preview_screenout)}</dt>
                <dd data-testid="screenout-preview">{screenout_preview}</dd>
            </dl>
        </fieldset>
    }
}

/// The quality rules, only those that apply to the quiz (`uses`).
fn quality_fieldset(fields: Fields, uses: SettingsInUse) -> impl IntoView {
    let Fields {
        exclude_failed,
        screen_headphones,
        planted_checks,
        checks,
        rater_batches,
        fail_checks,
        min_median,
        min_item,
        fast_share,
        straightline,
        ..
    } = fields;
    let SettingsInUse {
        headphones,
        planted_checks: planted,
        choices,
        rater_batches: judging,
        ..
    } = uses;
    view! {
        <fieldset>
            <legend>{st(|s| s.quality_title)}</legend>
            <TextField id="set-checks" label=st(|s| s.checks_label) value=checks kind="number" />
            <TextField id="set-fail-checks" label=st(|s| s.fail_checks) value=fail_checks kind="number" />
            <TextField id="set-min-median" label=st(|s| s.min_median) value=min_median kind="number" />
            <TextField id="set-min-item" label=st(|s| s.min_item) value=min_item kind="number" />
            <TextField id="set-fast-share" label=st(|s| s.fast_share) value=fast_share kind="number" />
            {choices.then(|| view! {
                <TextField id="set-straightline" label=st(|s| s.straightline) value=straightline kind="number" />
            })}
            {headphones.then(|| view! {
                <CheckField id="set-exclude-headphones" label=st(|s| s.exclude_headphones) value=exclude_failed />
                <CheckField id="set-screen-headphones" label=st(|s| s.screen_headphones) value=screen_headphones />
            })}
            {planted.then(|| view! {
                <CheckField id="set-planted-checks" label=st(|s| s.planted_checks) value=planted_checks />
            })}
            {judging.then(|| view! {
                <TextField id="set-rater-batches" label=st(|s| s.rater_batches) value=rater_batches kind="number" />
            })}
        </fieldset>
    }
}
