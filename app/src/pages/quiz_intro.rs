//! `/quiz/{slug}`: resume an earlier session (or, once finished, the results link), a refusal
//! known before consent, or instructions + consent, then the background survey, then start a
//! session.

use crate::api::{self, ApiError};
use crate::components::headphone_check::HeadphoneCheck;
use crate::components::status::{error_fallback, Loading};
use crate::components::title::{in_lang, use_page_title};
use crate::i18n::{category_label, use_i18n};
use crate::kinds;
use crate::storage;
use leptos::prelude::*;
use leptos_router::hooks::use_params_map;
use memeboard_core::api::{HeadphoneCheck as CheckResult, QuizSummary};
use memeboard_core::tasks::TaskKind;

mod survey;

use survey::SurveyStep;

/// The quiz intro page.
#[component]
pub fn QuizIntroPage() -> impl IntoView {
    let params = use_params_map();
    let slug = move || params.read().get("slug").unwrap_or_default();
    let quiz = LocalResource::new(move || {
        let slug = slug();
        // Unless this browser has a session of the quiz to resume (or whose results to show):
        // the link's `PROLIFIC_PID` and `invite` with `admission`, so that the server answers
        // the refusal a start would get, before consent.
        let query = match storage::get(&storage::session_key(&slug)) {
            // A finished participant: whether a start would still be taken (a judging task
            // refuses a rater who may judge no further batch).
            Some(stored) if stored.ends_with(storage::FINISHED) => {
                match storage::get(storage::PARTICIPANT_KEY) {
                    Some(id) => {
                        let search = web_sys::window()
                            .and_then(|w| w.location().search().ok())
                            .unwrap_or_default();
                        let sep = if search.is_empty() { '?' } else { '&' };
                        let id = String::from(js_sys::encode_uri_component(&id));
                        format!("{search}{sep}admission&participant={id}")
                    }
                    None => String::new(),
                }
            }
            Some(_) => String::new(),
            None => {
                let search = web_sys::window()
                    .and_then(|w| w.location().search().ok())
                    .unwrap_or_default();
                let sep = if search.is_empty() { '?' } else { '&' };
                format!("{search}{sep}admission")
            }
        };
        async move {
            match api::get_quiz(&slug, &query).await {
                // Refused: the quiz's header still shows, with the reason instead of consent.
                Err(refusal) if matches!(refusal.status(), Some(403 | 409)) => {
                    Ok((api::get_quiz(&slug, "").await?, Some(refusal)))
                }
                // The device check (clips): the server words what this browser lacks, with
                // the screen-out code for a Prolific participant.
                Ok(quiz) if !query.is_empty() => {
                    let refusal = match crate::browser::media_problem(&quiz.media_types) {
                        Some(lacks) => {
                            let lacks = String::from(js_sys::encode_uri_component(&lacks));
                            api::get_quiz(&slug, &format!("{query}&device={lacks}"))
                                .await
                                .err()
                        }
                        None => None,
                    };
                    Ok((quiz, refusal))
                }
                answer => answer.map(|quiz| (quiz, None)),
            }
        }
    });
    view! {
        <Suspense fallback=|| view! { <Loading /> }>
            <ErrorBoundary fallback=error_fallback>
                {move || Suspend::new(async move {
                    quiz.await.map(|(q, refusal)| view! { <QuizIntro quiz=q refusal=refusal /> })
                })}
            </ErrorBoundary>
        </Suspense>
    }
}

/// The quiz header plus the resume (or finished) box, the refusal, or the start flow.
#[component]
fn QuizIntro(
    quiz: QuizSummary,
    /// The refusal a start would get (a full study, a missing invitation, a Prolific id that
    /// took part already), in the reader's language.
    refusal: Option<ApiError>,
) -> impl IntoView {
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
    let allow_retake = quiz.allow_retake;
    let protocol = quiz.study_protocol.clone();
    // A rater who finished a batch of a study that gives them several starts the next one.
    let judging = kind.is_judging();
    let slug_for_flow = slug.clone();
    view! {
        <section class="intro">
            // Bilingual texts ("English · 中文") in the reader's language.
            <h1>{move || in_lang(&quiz.title, i18n.lang()).to_owned()}</h1>
            <p class="lead">{move || in_lang(&quiz.description, i18n.lang()).to_owned()}</p>
            <p class="muted">
                {move || (i18n.t().batch_note)(batch_size)} " " {move || i18n.t().categories}
                ": " {cat_list}
            </p>
        </section>
        {move || match existing.get() {
            Some(stored) => {
                let slug = slug.clone();
                // A finished session: its results instead of "Resume", and "Start over" only
                // where the owner allows retakes.
                let (session_id, done) = match stored.strip_suffix(storage::FINISHED) {
                    Some(id) => (id.to_owned(), true),
                    None => (stored, false),
                };
                let href = if done {
                    format!("/session/{session_id}/results")
                } else {
                    format!("/session/{session_id}")
                };
                let t = move || i18n.t();
                // A finished participant the start would refuse (a rater with no batch left)
                // reads why instead of being offered another go; without retakes there is no
                // offer to explain.
                let refused = refusal.clone().filter(|_| done && allow_retake);
                let retake = (!done || allow_retake) && refused.is_none();
                view! {
                    <section class="card" data-testid=if done { "finished" } else { "resume" }>
                        <h2>{move || if done { t().finished_title } else { t().resume_title }}</h2>
                        <p>{move || if done { t().finished_text } else { t().resume_text }}</p>
                        <div class="actions">
                            <a class="button primary" href=href data-testid="resume-link">
                                {move || if done { t().see_results } else { t().resume_link }}
                            </a>
                            {retake.then(|| view! {
                                <button
                                    type="button"
                                    class="button secondary"
                                    data-testid="start-over"
                                    on:click=move |_| {
                                        storage::remove(&storage::session_key(&slug));
                                        existing.set(None);
                                    }
                                >
                                    {move || if done && judging { t().next_batch } else { t().start_over }}
                                </button>
                            })}
                        </div>
                        {refused.map(|r| view! { <p class="muted small" data-testid="refusal">{r.to_string()}</p> })}
                        {retake.then(|| view! {
                            <p class="muted small">
                                {move || if done && judging { t().next_batch_note } else { t().start_over_note }}
                            </p>
                        })}
                    </section>
                }
                    .into_any()
            }
            None => match refusal.clone() {
                Some(refusal) => view! {
                    <section class="card" role="alert" data-testid="refusal">
                        <p>{refusal.to_string()}</p>
                    </section>
                }
                    .into_any(),
                None => view! {
                    <StartFlow
                        slug=slug_for_flow.clone()
                        kind=kind
                        open_percent=open_percent
                        protocol=protocol.clone()
                    />
                }
                    .into_any(),
            },
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
    memeboard_core::with_kind!(kind, K => memeboard_core::kinds::capabilities::needs_headphones::<K>())
}

/// Step 1 (instructions + consent), for clip quizzes the headphone check, then the survey,
/// then `POST …/sessions`.
#[component]
fn StartFlow(
    slug: String,
    kind: TaskKind,
    /// Percent of open (practice) items, when the server says.
    open_percent: Option<u8>,
    /// The protocol of the study a judging task belongs to (its consent text).
    protocol: Option<String>,
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
                        protocol=protocol.clone()
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
                        kind=kind
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
    /// The protocol of the study a judging task belongs to.
    protocol: Option<String>,
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
            <p data-testid="task-instructions">{move || kinds::instructions(i18n.lang(), kind, protocol.as_deref())}</p>
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
