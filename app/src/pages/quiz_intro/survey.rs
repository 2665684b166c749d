//! The start flow's last step: the background survey, then `POST …/sessions`.

use super::Step;
use crate::api;
use crate::browser::{focus_when_shown, random_key};
use crate::i18n::use_i18n;
use crate::storage;
use leptos::ev::SubmitEvent;
use leptos::prelude::*;
use leptos::task::spawn_local;
use leptos_router::hooks::{use_navigate, use_query_map};
use leptos_router::params::ParamsMap;
use leptos_router::NavigateOptions;
use memeboard_core::api::{HeadphoneCheck as CheckResult, RecruitmentIds, StartSessionRequest};
use memeboard_core::kinds::TaskKind;
use memeboard_core::survey::{AgeRange, NativeLanguage, OnlineTime, SurveyResponse};
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

/// Why the survey could not be sent (kept as data so the text follows the language).
#[derive(Debug, Clone, PartialEq, Eq)]
enum FormError {
    Missing,
    Server(String),
}

/// One `<select>` of the survey, with a placeholder and labelled options.
#[component]
fn SurveySelect(
    /// `id` and `data-testid` of the select.
    id: &'static str,
    /// Label text (reactive).
    #[prop(into)]
    label: Signal<String>,
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
pub(super) fn SurveyStep(
    slug: String,
    step: RwSignal<Step>,
    /// The flow has the headphone check (headings count three steps).
    three_steps: bool,
    /// The headphone check's result, sent with the start.
    check: Signal<Option<CheckResult>>,
    /// The quiz's kind (the familiarity question names its kind of meme).
    kind: TaskKind,
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

    let heading = focus_when_shown::<leptos::html::H2>();

    let [age_options, language_options, online_options, familiarity_options] = survey_options();

    let on_submit = move |ev: SubmitEvent| {
        ev.prevent_default();
        if sending.get_untracked() {
            return;
        }
        let survey = read_survey(age, language, online, familiarity, skip_flagged);
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
        let request = start_request(&slug, &query.get_untracked(), survey, headphone_check);
        error.set(None);
        sending.set(true);
        send_start(slug.clone(), request, navigate.clone(), error, sending);
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
                    label=Signal::derive(move || i18n.t().age_label.to_owned())
                    options=age_options
                    value=age
                />
                <SurveySelect
                    id="survey-language"
                    label=Signal::derive(move || i18n.t().language_label.to_owned())
                    options=language_options
                    value=language
                />
                <SurveySelect
                    id="survey-online"
                    label=Signal::derive(move || i18n.t().online_label.to_owned())
                    options=online_options
                    value=online
                />
                <SurveySelect
                    id="survey-familiarity"
                    label=Signal::derive(move || {
                        (i18n.t().familiarity_label)(crate::kinds::memes_noun(i18n.lang(), kind))
                    })
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

/// The survey's choices in the current language, as `(value, label)` pairs: age ranges,
/// native languages, time online, meme familiarity.
fn survey_options() -> [Signal<Vec<(String, &'static str)>>; 4] {
    let i18n = use_i18n();
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
    [
        age_options,
        language_options,
        online_options,
        familiarity_options,
    ]
}

/// The answered survey; `None` while a question is unanswered.
fn read_survey(
    age: RwSignal<String>,
    language: RwSignal<String>,
    online: RwSignal<String>,
    familiarity: RwSignal<String>,
    skip_flagged: RwSignal<bool>,
) -> Option<SurveyResponse> {
    Some(SurveyResponse {
        age_range: parse_wire(&age.get_untracked())?,
        native_language: parse_wire(&language.get_untracked())?,
        online_time: parse_wire(&online.get_untracked())?,
        meme_familiarity: familiarity.get_untracked().parse().ok()?,
        skip_flagged: skip_flagged.get_untracked(),
    })
}

/// The start request: the survey, the headphone check's result, the recruitment ids (from the
/// page's query `q`, else from the page the visit started on) and this start's resend key.
fn start_request(
    slug: &str,
    q: &ParamsMap,
    survey: SurveyResponse,
    headphone_check: Option<CheckResult>,
) -> StartSessionRequest {
    // One key per start, kept until the server answered: resends (automatic, or after a
    // reload) get the session the first attempt may already have created.
    let start_key_name = storage::start_key(slug);
    let start_key = storage::get(&start_key_name)
        .filter(|k| !k.is_empty())
        .unwrap_or_else(|| {
            let k = random_key();
            storage::set(&start_key_name, &k);
            k
        });
    StartSessionRequest {
        start_key: Some(start_key),
        consent: true,
        participant_id: storage::get(storage::PARTICIPANT_KEY),
        participant_secret: storage::get(storage::PARTICIPANT_SECRET_KEY),
        survey,
        // From this page's link, else from the page the visit started on.
        recruitment: RecruitmentIds {
            prolific_pid: non_empty(q.get("PROLIFIC_PID"))
                .or_else(|| storage::recruitment_id("PROLIFIC_PID")),
            study_id: non_empty(q.get("STUDY_ID")).or_else(|| storage::recruitment_id("STUDY_ID")),
            session_id: non_empty(q.get("SESSION_ID"))
                .or_else(|| storage::recruitment_id("SESSION_ID")),
        },
        headphone_check,
        // The secret of an invitation-only study link.
        invite: non_empty(q.get("invite")),
    }
}

/// Starts the session (resending on failure), keeps the participant's id and the session, then
/// opens the session page; a refusal shows in `error` and re-enables the form.
fn send_start(
    slug: String,
    request: StartSessionRequest,
    navigate: impl Fn(&str, NavigateOptions) + 'static,
    error: RwSignal<Option<FormError>>,
    sending: RwSignal<bool>,
) {
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
