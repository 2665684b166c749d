//! `/quiz/{slug}`: resume an earlier session, or instructions + consent, then the background
//! survey, then start a session.

use crate::api;
use crate::browser::random_key;
use crate::components::headphone_check::HeadphoneCheck;
use crate::components::status::{error_fallback, Loading};
use crate::components::title::{in_lang, use_page_title};
use crate::i18n::{category_label, use_i18n};
use crate::kinds;
use crate::storage;
use leptos::ev::SubmitEvent;
use leptos::prelude::*;
use leptos::task::spawn_local;
use leptos_router::hooks::{use_navigate, use_params_map, use_query_map};
use memeboard_core::api::{
    HeadphoneCheck as CheckResult, QuizSummary, RecruitmentIds, StartSessionRequest,
};
use memeboard_core::survey::{AgeRange, NativeLanguage, OnlineTime, SurveyResponse};
use memeboard_core::tasks::TaskKind;
use serde::de::DeserializeOwned;
use serde::Serialize;

/// The serde name of a unit enum value (`"18-24"`, `"chinese"`…), used as `<option value>`.
fn wire_name<T: Serialize>(value: &T) -> String {
    serde_json::to_value(value)
        .ok()
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_default()
}

/// Parses a serde name back into the enum value.
fn parse_wire<T: DeserializeOwned>(name: &str) -> Option<T> {
    serde_json::from_value(serde_json::Value::String(name.to_owned())).ok()
}

/// A non-empty, trimmed query parameter.
fn non_empty(value: Option<String>) -> Option<String> {
    value.map(|v| v.trim().to_owned()).filter(|v| !v.is_empty())
}

/// The quiz intro page.
#[component]
pub fn QuizIntroPage() -> impl IntoView {
    let params = use_params_map();
    let slug = move || params.read().get("slug").unwrap_or_default();
    let quiz = LocalResource::new(move || {
        let slug = slug();
        async move { api::get_quiz(&slug).await }
    });
    view! {
        <Suspense fallback=|| view! { <Loading /> }>
            <ErrorBoundary fallback=error_fallback>
                {move || Suspend::new(async move {
                    quiz.await.map(|q| view! { <QuizIntro quiz=q /> })
                })}
            </ErrorBoundary>
        </Suspense>
    }
}

/// The quiz header plus either the resume box or the two-step start flow.
#[component]
fn QuizIntro(quiz: QuizSummary) -> impl IntoView {
    let i18n = use_i18n();
    let slug = quiz.slug.clone();
    let page_title = quiz.title.clone();
    use_page_title(move |lang| in_lang(&page_title, lang).to_owned());
    let existing = RwSignal::new(storage::get(&storage::session_key(&slug)));
    let categories = quiz.categories.clone();
    let cat_list = move || {
        let lang = i18n.lang();
        categories
            .iter()
            .map(|c| category_label(lang, &c.key, &categories))
            .collect::<Vec<_>>()
            .join(" · ")
    };
    let batch_size = quiz.batch_size;
    let kind = quiz.task_kind;
    let open_percent = quiz.open_percent;
    let slug_for_flow = slug.clone();
    view! {
        <section class="intro">
            <h1>{quiz.title.clone()}</h1>
            <p class="lead">{quiz.description.clone()}</p>
            <p class="muted">
                {move || (i18n.t().batch_note)(batch_size)} " " {move || i18n.t().categories}
                ": " {cat_list}
            </p>
        </section>
        {move || match existing.get() {
            Some(session_id) => {
                let slug = slug.clone();
                view! {
                    <section class="card" data-testid="resume">
                        <h2>{move || i18n.t().resume_title}</h2>
                        <p>{move || i18n.t().resume_text}</p>
                        <div class="actions">
                            <a
                                class="button primary"
                                href=format!("/session/{session_id}")
                                data-testid="resume-link"
                            >
                                {move || i18n.t().resume_link}
                            </a>
                            <button
                                type="button"
                                class="button secondary"
                                data-testid="start-over"
                                on:click=move |_| {
                                    storage::remove(&storage::session_key(&slug));
                                    existing.set(None);
                                }
                            >
                                {move || i18n.t().start_over}
                            </button>
                        </div>
                        <p class="muted small">{move || i18n.t().start_over_note}</p>
                    </section>
                }
                    .into_any()
            }
            None => {
                view! { <StartFlow slug=slug_for_flow.clone() kind=kind open_percent=open_percent /> }.into_any()
            }
        }}
    }
}

/// Which step of the start flow is shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Step {
    Consent,
    /// Clip quizzes only: the headphone screening (the server requires its result).
    Headphones,
    Survey,
}

/// Whether a quiz of this kind starts with the headphone check.
fn needs_headphones(kind: TaskKind) -> bool {
    memeboard_core::with_kind!(kind, K => <K as memeboard_core::kinds::Kind>::NEEDS_HEADPHONE_CHECK)
}

/// Why the survey could not be sent (kept as data so the text follows the language).
#[derive(Debug, Clone, PartialEq, Eq)]
enum FormError {
    Missing,
    Server(String),
}

/// Step 1 (instructions + consent), for clip quizzes the headphone check, then the survey,
/// then `POST …/sessions`.
#[component]
fn StartFlow(
    slug: String,
    kind: TaskKind,
    /// Percent of open (practice) items, when the server says.
    open_percent: Option<u8>,
) -> impl IntoView {
    let step = RwSignal::new(Step::Consent);
    let agreed = RwSignal::new(false);
    let headphones = needs_headphones(kind);
    // Kept when the participant goes back to the consent step: the check is not repeated.
    let check = RwSignal::new(None::<CheckResult>);
    let on_check = Callback::new(move |result: CheckResult| {
        check.set(Some(result));
        step.set(Step::Survey);
    });

    view! {
        {move || match step.get() {
            Step::Consent => {
                view! {
                    <ConsentStep
                        agreed=agreed
                        step=step
                        kind=kind
                        open_percent=open_percent
                        next=if headphones && check.get_untracked().is_none() {
                            Step::Headphones
                        } else {
                            Step::Survey
                        }
                    />
                }
                    .into_any()
            }
            Step::Headphones => {
                view! { <HeadphoneCheck slug=slug.clone() on_done=on_check /> }.into_any()
            }
            Step::Survey => {
                view! {
                    <SurveyStep
                        slug=slug.clone()
                        step=step
                        three_steps=headphones
                        check=check.into()
                    />
                }
                    .into_any()
            }
        }}
    }
}

/// Step 1: what the task is (in the quiz kind's words), the rules, and the "I agree" checkbox.
#[component]
fn ConsentStep(
    agreed: RwSignal<bool>,
    step: RwSignal<Step>,
    kind: TaskKind,
    /// Percent of open (practice) items, when the server says.
    open_percent: Option<u8>,
    /// The step after this one.
    next: Step,
) -> impl IntoView {
    let i18n = use_i18n();
    let three_steps = needs_headphones(kind);
    view! {
        <section class="card" data-testid="consent">
            <h2>
                {move || {
                    if three_steps { i18n.t().step1_of3_title } else { i18n.t().step1_title }
                }}
            </h2>
            <p data-testid="task-instructions">{move || kinds::instructions(i18n.lang(), kind)}</p>
            <p data-testid="results-note">
                {move || kinds::results_note(i18n.lang(), kind, open_percent)}
            </p>
            <h3>{move || i18n.t().rules_title}</h3>
            <ul class="rules">
                {move || {
                    i18n.t().rules.iter().map(|r| view! { <li>{*r}</li> }).collect_view()
                }}
            </ul>
            <label class="check">
                <input
                    type="checkbox"
                    data-testid="consent-checkbox"
                    prop:checked=move || agreed.get()
                    on:change=move |ev| agreed.set(event_target_checked(&ev))
                />
                <span>{move || i18n.t().consent_label}</span>
            </label>
            <div class="actions">
                <button
                    type="button"
                    class="button primary"
                    data-testid="consent-continue"
                    disabled=move || !agreed.get()
                    on:click=move |_| {
                        if agreed.get_untracked() {
                            step.set(next);
                        }
                    }
                >
                    {move || i18n.t().continue_}
                </button>
            </div>
        </section>
    }
}

/// One `<select>` of the survey, with a placeholder and labelled options.
#[component]
fn SurveySelect(
    /// `id` and `data-testid` of the select.
    id: &'static str,
    /// Label text (reactive).
    #[prop(into)]
    label: Signal<&'static str>,
    /// `(value, label)` pairs (labels reactive through the signal).
    #[prop(into)]
    options: Signal<Vec<(String, &'static str)>>,
    /// The chosen value ("" = none).
    value: RwSignal<String>,
) -> impl IntoView {
    let i18n = use_i18n();
    view! {
        <div class="field">
            <label for=id>{label}</label>
            <select
                id=id
                data-testid=id
                required=true
                on:change=move |ev| value.set(event_target_value(&ev))
            >
                <option value="" prop:selected=move || value.get().is_empty()>
                    {move || i18n.t().choose}
                </option>
                {move || {
                    options
                        .get()
                        .into_iter()
                        .map(|(v, text)| {
                            let v2 = v.clone();
                            view! {
                                <option value=v prop:selected=move || value.get() == v2>
                                    {text}
                                </option>
                            }
                        })
                        .collect_view()
                }}
            </select>
        </div>
    }
}

/// The last step: the background survey and the start button (with the headphone check's
/// result, for clip quizzes).
#[component]
fn SurveyStep(
    slug: String,
    step: RwSignal<Step>,
    /// The flow has the headphone check (headings count three steps).
    three_steps: bool,
    /// The headphone check's result, sent with the start.
    check: Signal<Option<CheckResult>>,
) -> impl IntoView {
    let i18n = use_i18n();
    let query = use_query_map();
    let navigate = use_navigate();

    let age = RwSignal::new(String::new());
    let language = RwSignal::new(String::new());
    let online = RwSignal::new(String::new());
    let familiarity = RwSignal::new(String::new());
    let skip_flagged = RwSignal::new(false);
    let sending = RwSignal::new(false);
    let error = RwSignal::new(None::<FormError>);

    // Once every question is answered, a "please answer every question" note goes away.
    Effect::new(move |_| {
        let filled = [age, language, online, familiarity]
            .iter()
            .all(|v| !v.read().is_empty());
        if filled && error.get_untracked() == Some(FormError::Missing) {
            error.set(None);
        }
    });

    let heading = NodeRef::<leptos::html::H2>::new();
    Effect::new(move |_| {
        if let Some(h) = heading.get() {
            let _ = h.focus();
        }
    });

    let age_options = Signal::derive(move || {
        let t = i18n.t();
        AgeRange::ALL
            .iter()
            .zip(t.ages)
            .map(|(a, l)| (wire_name(a), l))
            .collect::<Vec<_>>()
    });
    let language_options = Signal::derive(move || {
        let t = i18n.t();
        NativeLanguage::ALL
            .iter()
            .zip(t.languages)
            .map(|(a, l)| (wire_name(a), l))
            .collect::<Vec<_>>()
    });
    let online_options = Signal::derive(move || {
        let t = i18n.t();
        OnlineTime::ALL
            .iter()
            .zip(t.online)
            .map(|(a, l)| (wire_name(a), l))
            .collect::<Vec<_>>()
    });
    let familiarity_options = Signal::derive(move || {
        (1u8..=5)
            .zip(i18n.t().familiarity)
            .map(|(n, l)| (n.to_string(), l))
            .collect::<Vec<_>>()
    });

    let on_submit = move |ev: SubmitEvent| {
        ev.prevent_default();
        if sending.get_untracked() {
            return;
        }
        let survey = (|| {
            Some(SurveyResponse {
                age_range: parse_wire(&age.get_untracked())?,
                native_language: parse_wire(&language.get_untracked())?,
                online_time: parse_wire(&online.get_untracked())?,
                meme_familiarity: familiarity.get_untracked().parse().ok()?,
                skip_flagged: skip_flagged.get_untracked(),
            })
        })();
        let Some(survey) = survey else {
            error.set(Some(FormError::Missing));
            return;
        };
        let headphone_check = check.get_untracked();
        if three_steps && headphone_check.is_none() {
            // The server refuses a clip quiz without the check: do it first.
            step.set(Step::Headphones);
            return;
        }
        let q = query.get_untracked();
        // One key per start, kept until the server answered: resends (automatic, or after a
        // reload) get the session the first attempt may already have created.
        let start_key_name = storage::start_key(&slug);
        let start_key = storage::get(&start_key_name)
            .filter(|k| !k.is_empty())
            .unwrap_or_else(|| {
                let k = random_key();
                storage::set(&start_key_name, &k);
                k
            });
        let request = StartSessionRequest {
            start_key: Some(start_key),
            consent: true,
            participant_id: storage::get(storage::PARTICIPANT_KEY),
            participant_secret: storage::get(storage::PARTICIPANT_SECRET_KEY),
            survey,
            // From this page's link, else from the page the visit started on.
            recruitment: RecruitmentIds {
                prolific_pid: non_empty(q.get("PROLIFIC_PID"))
                    .or_else(|| storage::recruitment_id("PROLIFIC_PID")),
                study_id: non_empty(q.get("STUDY_ID"))
                    .or_else(|| storage::recruitment_id("STUDY_ID")),
                session_id: non_empty(q.get("SESSION_ID"))
                    .or_else(|| storage::recruitment_id("SESSION_ID")),
            },
            headphone_check,
            // The secret of an invitation-only study link.
            invite: non_empty(q.get("invite")),
        };
        error.set(None);
        sending.set(true);
        let slug = slug.clone();
        let navigate = navigate.clone();
        spawn_local(async move {
            let mut result = api::with_resends(
                &[1_000, 2_000, 4_000],
                || api::start_session(&slug, &request),
                |_| true,
            )
            .await;
            if result.as_ref().err().and_then(api::ApiError::status) == Some(403)
                && request.participant_id.is_some()
            {
                // The stored id's secret is missing or wrong (storage partly cleared): take
                // part under a new id rather than not at all.
                let mut fresh = request.clone();
                fresh.participant_id = None;
                fresh.participant_secret = None;
                result = api::start_session(&slug, &fresh).await;
            }
            match result {
                Ok(session) => {
                    storage::remove(&storage::start_key(&slug));
                    // A secret comes only with a newly created participant: keep both.
                    if let Some(secret) = &session.participant_secret {
                        storage::set(storage::PARTICIPANT_KEY, &session.participant_id);
                        storage::set(storage::PARTICIPANT_SECRET_KEY, secret);
                    }
                    storage::set(&storage::session_key(&slug), &session.session_id);
                    navigate(
                        &format!("/session/{}", session.session_id),
                        Default::default(),
                    );
                }
                Err(e) => {
                    error.set(Some(FormError::Server(e.to_string())));
                    sending.set(false);
                }
            }
        });
    };

    view! {
        <section class="card" data-testid="survey">
            <h2 node_ref=heading tabindex="-1">
                {move || if three_steps { i18n.t().step3_of3_title } else { i18n.t().step2_title }}
            </h2>
            <p>{move || i18n.t().survey_intro}</p>
            <form class="survey" novalidate=true on:submit=on_submit>
                <SurveySelect
                    id="survey-age"
                    label=Signal::derive(move || i18n.t().age_label)
                    options=age_options
                    value=age
                />
                <SurveySelect
                    id="survey-language"
                    label=Signal::derive(move || i18n.t().language_label)
                    options=language_options
                    value=language
                />
                <SurveySelect
                    id="survey-online"
                    label=Signal::derive(move || i18n.t().online_label)
                    options=online_options
                    value=online
                />
                <SurveySelect
                    id="survey-familiarity"
                    label=Signal::derive(move || i18n.t().familiarity_label)
                    options=familiarity_options
                    value=familiarity
                />
                <label class="check">
                    <input
                        type="checkbox"
                        data-testid="survey-skip-flagged"
                        prop:checked=move || skip_flagged.get()
                        on:change=move |ev| skip_flagged.set(event_target_checked(&ev))
                    />
                    <span>{move || i18n.t().skip_flagged_label}</span>
                </label>
                {move || {
                    error
                        .get()
                        .map(|e| {
                            let text = match e {
                                FormError::Missing => i18n.t().survey_missing.to_owned(),
                                FormError::Server(detail) => detail,
                            };
                            view! {
                                <p class="notice error" role="alert" data-testid="survey-error">
                                    {text}
                                </p>
                            }
                        })
                }}
                <div class="actions">
                    <button
                        type="submit"
                        class="button primary"
                        data-testid="survey-submit"
                        disabled=move || sending.get()
                    >
                        {move || {
                            if sending.get() { i18n.t().starting } else { i18n.t().survey_submit }
                        }}
                    </button>
                    <button
                        type="button"
                        class="button secondary"
                        on:click=move |_| step.set(Step::Consent)
                        disabled=move || sending.get()
                    >
                        {move || i18n.t().back}
                    </button>
                </div>
            </form>
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn survey_option_values_are_the_wire_names() {
        assert_eq!(wire_name(&AgeRange::From18To24), "18-24");
        assert_eq!(wire_name(&AgeRange::From55), "55+");
        assert_eq!(
            wire_name(&OnlineTime::ThreeToSixHours),
            "three_to_six_hours"
        );
        for a in AgeRange::ALL {
            assert_eq!(parse_wire::<AgeRange>(&wire_name(&a)), Some(a));
        }
        for l in NativeLanguage::ALL {
            assert_eq!(parse_wire::<NativeLanguage>(&wire_name(&l)), Some(l));
        }
        assert_eq!(parse_wire::<AgeRange>(""), None);
    }

    #[test]
    fn recruitment_params_are_trimmed_and_empty_dropped() {
        assert_eq!(non_empty(Some(" abc ".into())), Some("abc".into()));
        assert_eq!(non_empty(Some("  ".into())), None);
        assert_eq!(non_empty(None), None);
    }
}
