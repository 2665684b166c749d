//! `/session/{id}`: one question at a time (each kind's question component, see
//! [`crate::kinds`]), answers sent idempotently, no right/wrong feedback; the completion code
//! once the last answer is acknowledged. By feature: `check` (attention checks), `training`
//! (a judging task's rubric and practice pages before the first page), `ending` (completion,
//! hand-off, screen-out).

mod check;
mod ending;
#[cfg(not(feature = "quiz-bundle"))]
mod training;

use crate::api;
use crate::components::answer::forget_recorded;
use crate::components::status::{error_fallback, Loading};
use crate::components::title::{in_lang, use_page_title};
use crate::i18n::{use_i18n, Strings};
use crate::kinds;
use crate::storage;
use check::AttentionCheck;
use ending::{Done, ScreenedOut};
use leptos::prelude::*;
use leptos::task::spawn_local;
use leptos_router::components::Redirect;
use leptos_router::hooks::use_params_map;
use leptos_router::NavigateOptions;
use memeboard_core::api::{SessionItem, SessionResponse, SessionStatus, SubmitAnswerResponse};
use memeboard_core::fieldwork::ScreenOut;
use memeboard_core::human_eval::training::TrainingView;

/// A judging task's training, before its first page (the quiz bundle has no judging pages:
/// it loads the full app, as for their questions).
#[cfg(not(feature = "quiz-bundle"))]
fn training_view(
    session_id: String,
    quiz_slug: String,
    training: TrainingView,
    on_done: Callback<Option<ScreenOut>>,
) -> AnyView {
    view! { <training::Training session_id quiz_slug training on_done /> }.into_any()
}

/// See above: the quiz bundle loads the full app.
#[cfg(feature = "quiz-bundle")]
fn training_view(
    _session_id: String,
    _quiz_slug: String,
    _training: TrainingView,
    _on_done: Callback<Option<ScreenOut>>,
) -> AnyView {
    crate::bundles::load_from_server()
}

/// The session page.
#[component]
pub fn SessionPage() -> impl IntoView {
    let params = use_params_map();
    let id = move || params.read().get("id").unwrap_or_default();
    let session = LocalResource::new(move || {
        let id = id();
        async move { api::get_session(&id).await }
    });
    view! {
        <Suspense fallback=|| view! { <Loading /> }>
            <ErrorBoundary fallback=error_fallback>
                {move || Suspend::new(async move {
                    session.await.map(|s| view! { <QuizRunner session=s /> })
                })}
            </ErrorBoundary>
        </Suspense>
    }
}

/// The first unanswered position after `after` (wrapping around), if any.
fn next_unanswered(items: &[SessionItem], answered: &[bool], after: usize) -> Option<usize> {
    let open = || {
        items
            .iter()
            .zip(answered)
            .filter(|(_, done)| !**done)
            .map(|(item, _)| item.position)
    };
    open().find(|p| *p > after).or_else(|| open().next())
}

/// The items of a session with the page each is shown on: each item's page key
/// ([`kinds::page_key`]), read once when the session loads (`None`: shown alone).
struct Pages<'a> {
    items: &'a [SessionItem],
    keys: &'a [Option<String>],
}

/// Each item's page key, in session order.
fn page_keys(items: &[SessionItem]) -> Vec<Option<String>> {
    items.iter().map(|i| kinds::page_key(&i.prompt)).collect()
}

impl Pages<'_> {
    /// Indices of the items on `pos`'s page, in session order; empty when it is shown alone.
    fn on_page_of(&self, pos: usize) -> Vec<usize> {
        let key = self
            .items
            .iter()
            .position(|i| i.position == pos)
            .and_then(|at| self.keys.get(at).cloned().flatten());
        match key {
            Some(key) => (0..self.items.len())
                .filter(|&at| self.keys[at].as_deref() == Some(key.as_str()))
                .collect(),
            None => Vec::new(),
        }
    }

    /// The items shown on `pos`'s page, in session order with the live answered state;
    /// empty when the item is shown alone.
    fn items(&self, answered: &[bool], pos: usize) -> Vec<SessionItem> {
        self.on_page_of(pos)
            .into_iter()
            .map(|at| SessionItem {
                answered: answered.get(at).copied().unwrap_or(false),
                ..self.items[at].clone()
            })
            .collect()
    }

    /// Where a loaded session resumes: on a page left half-done (some of its items answered,
    /// as after a reload in the middle of a page of several), else at the server's next
    /// position.
    fn resume_position(&self, next: Option<usize>) -> Option<usize> {
        self.items
            .iter()
            .filter(|i| !i.answered)
            .find(|i| {
                self.on_page_of(i.position)
                    .iter()
                    .any(|&at| self.items[at].answered)
            })
            .map(|i| i.position)
            .or(next)
    }

    /// Whether an attention check placed before `before` comes up before the page of `pos`:
    /// it was placed before the item itself or before another item of its page.
    fn check_due(&self, pos: usize, before: usize) -> bool {
        before == pos
            || self
                .on_page_of(pos)
                .iter()
                .any(|&at| self.items[at].position == before)
    }
}

/// The page of the item at `pos`: its kind's question component, with the items shown on
/// the same page and the item likely shown next (its media can load meanwhile).
fn page_view(
    pages: Pages<'_>,
    answered: &[bool],
    pos: usize,
    run: kinds::RunnerContext,
) -> Option<AnyView> {
    let its = pages.items;
    let item = its.iter().find(|i| i.position == pos).cloned()?;
    let next = next_unanswered(its, answered, pos)
        .filter(|&p| p != pos)
        .and_then(|p| its.iter().find(|i| i.position == p));
    let page = pages.items(answered, pos);
    Some(kinds::question_view(item, next, page, run))
}

/// Remembers the session for "resume" (or, finished, for its results) and drops the keys of
/// answers the server already has; whether the session is completed.
fn remember(session: &SessionResponse) -> bool {
    let completed = session.status == SessionStatus::Completed;
    let id = &session.session_id;
    let finished = format!("{id}{}", storage::FINISHED);
    let remembered = if completed { &finished } else { id };
    storage::set(&storage::session_key(&session.quiz_slug), remembered);
    forget_recorded(id, &session.items);
    completed
}

/// Runs a loaded session: the current question, then the completion box.
#[component]
fn QuizRunner(session: SessionResponse) -> impl IntoView {
    let session_id = session.session_id.clone();
    let completed = remember(&session);
    if let Some(out) = session.screen_out.clone() {
        return view! { <ScreenedOut screen_out=out /> }.into_any();
    }
    if completed {
        return view! {
            <Redirect
                path=format!("/session/{session_id}/results")
                options=NavigateOptions {
                    replace: true,
                    ..Default::default()
                }
            />
        }
        .into_any();
    }

    let total = session.items.len();
    let answered = RwSignal::new(session.items.iter().map(|i| i.answered).collect::<Vec<_>>());
    let answered_count =
        Signal::derive(move || answered.with(|a| a.iter().filter(|d| **d).count()));
    let keys = StoredValue::new(page_keys(&session.items));
    let current = keys.with_value(|keys| {
        let pages = Pages {
            items: &session.items,
            keys,
        };
        RwSignal::new(pages.resume_position(session.next_position))
    });
    let items = StoredValue::new(session.items);
    let completion = RwSignal::new(session.completion_code);
    // The owner's hand-off, once the last answer is acknowledged: (url, code).
    let handoff = RwSignal::new(None::<(String, String)>);
    let screen_out = RwSignal::new(None::<ScreenOut>);
    let checks = RwSignal::new(session.checks);
    // Practice first while the training's outcome is not known (not every page answered).
    let training = StoredValue::new(session.training.filter(|t| t.outcome.is_none()));
    let training_open = RwSignal::new(training.with_value(Option::is_some));
    let on_trained = Callback::new(move |out: Option<ScreenOut>| match out {
        Some(out) => screen_out.set(Some(out)),
        None => training_open.set(false),
    });
    let sid = StoredValue::new(session_id);
    let i18n = use_i18n();
    let quiz_title = session.quiz_title.clone();
    use_page_title(move |lang| {
        let page = match current.get() {
            Some(pos) => (lang.table::<Strings>().progress)(pos + 1, total),
            None => lang.table::<Strings>().completion_code.to_owned(),
        };
        format!("{page} · {}", in_lang(&quiz_title, lang))
    });
    let quiz_slug = StoredValue::new(session.quiz_slug);

    let on_ack = Callback::new(move |(position, ack): (usize, SubmitAnswerResponse)| {
        let next = items.with_value(|its| {
            answered.update(|a| {
                if let Some(done) = its
                    .iter()
                    .position(|it| it.position == position)
                    .and_then(|i| a.get_mut(i))
                {
                    *done = true;
                }
            });
            answered.with_untracked(|a| next_unanswered(its, a, position))
        });
        if let Some(code) = ack.completion_code {
            let finished = format!("{}{}", sid.get_value(), storage::FINISHED);
            storage::set(&storage::session_key(&quiz_slug.get_value()), &finished);
            if let (Some(url), Some(study_code)) = (ack.redirect_url, ack.redirect_code) {
                handoff.set(Some((url, study_code)));
            }
            completion.set(Some(code));
            current.set(None);
            return;
        }
        current.set(next);
        if next.is_none() {
            // Every item is answered but the ack carried no code: ask the session for it.
            let id = sid.get_value();
            spawn_local(async move {
                if let Ok(s) = api::get_session(&id).await {
                    completion.set(s.completion_code);
                }
            });
        }
    });

    // An attention check placed before any item of the current page comes before the page.
    let due = move |pos: usize, before: usize| {
        items.with_value(|items| {
            keys.with_value(|keys| Pages { items, keys }.check_due(pos, before))
        })
    };
    let on_check = Callback::new(move |(index, out): (u8, Option<ScreenOut>)| {
        checks.update(|cs| {
            if let Some(c) = cs.iter_mut().find(|c| c.plan.index == index) {
                c.answered = true;
            }
        });
        if out.is_some() {
            screen_out.set(out);
        }
    });
    view! {
        <div class="quiz" data-testid="quiz">
            <p class="muted quiz-title">{move || in_lang(&session.quiz_title, i18n.lang()).to_owned()}</p>
            {move || match (screen_out.get(), current.get()) {
                (Some(out), _) => view! { <ScreenedOut screen_out=out /> }.into_any(),
                (None, Some(_)) if training_open.get() => training
                    .get_value()
                    .map(|t| training_view(sid.get_value(), quiz_slug.get_value(), t, on_trained))
                    .into_any(),
                (None, Some(pos)) if checks.with(|cs| cs.iter().any(|c| !c.answered && due(pos, c.plan.before_position))) => {
                    let check = checks.with(|cs| cs.iter().find(|c| !c.answered && due(pos, c.plan.before_position)).cloned());
                    check
                        .map(|c| view! { <AttentionCheck session_id=sid.get_value() check=c.plan on_done=on_check /> })
                        .into_any()
                }
                (None, Some(pos)) => {
                    let run = kinds::RunnerContext {
                        total,
                        answered_count,
                        session_id: sid.get_value(),
                        quiz_slug: quiz_slug.get_value(),
                        on_ack,
                    };
                    items
                        .with_value(|its| {
                            keys.with_value(|keys| {
                                answered.with_untracked(|a| page_view(Pages { items: its, keys }, a, pos, run))
                            })
                        })
                        .into_any()
                }
                (None, None) => {
                    view! { <Done session_id=sid.get_value() code=completion.into() handoff=handoff.into() /> }.into_any()
                }
            }}
        </div>
    }
    .into_any()
}

#[cfg(test)]
mod tests {
    use super::*;
    use memeboard_core::api::PromptView;
    use memeboard_core::kinds::text_mcq::View;

    fn item(position: usize) -> SessionItem {
        SessionItem {
            position,
            item_id: format!("i{position}"),
            category: "slang".into(),
            content_warning: false,
            prompt: PromptView::TextMcq(View {
                sentence: "_____".into(),
                options: vec!["a".into(); 5],
            }),
            answered: false,
            preface: None,
        }
    }

    #[test]
    fn items_shown_alone_resume_at_the_servers_position() {
        let mut items: Vec<_> = (0..4).map(item).collect();
        items[0].answered = true;
        let keys = page_keys(&items);
        let pages = Pages {
            items: &items,
            keys: &keys,
        };
        assert_eq!(pages.resume_position(Some(1)), Some(1));
        assert!(pages.items(&[true, false, false, false], 1).is_empty());
    }

    /// A rating page of meme `phrase` shown with the meme's other pages.
    fn rating(position: usize, phrase: &str, answered: bool) -> SessionItem {
        use memeboard_core::human_eval::outputs::{ExplainedOutput, RatedSubject};
        use memeboard_core::kinds::rating::{RatingProtocol, View};
        SessionItem {
            prompt: PromptView::Rating(View {
                protocol: RatingProtocol::Accuracy,
                subject: RatedSubject::Meme {
                    phrase: phrase.into(),
                },
                reference: None,
                output: ExplainedOutput {
                    meaning: format!("output {position}"),
                    origin: None,
                    example: None,
                },
                has_context: false,
                statements: None,
                one_page_per_subject: true,
                error_labels: vec![],
            }),
            answered,
            ..item(position)
        }
    }

    #[test]
    fn a_memes_pages_share_one_page_and_a_half_done_page_resumes_first() {
        let items = vec![
            rating(0, "A", false),
            rating(1, "B", false),
            rating(2, "A", true),
            rating(3, "B", false),
        ];
        let answered: Vec<bool> = items.iter().map(|i| i.answered).collect();
        let keys = page_keys(&items);
        let pages = Pages {
            items: &items,
            keys: &keys,
        };
        let page: Vec<usize> = pages
            .items(&answered, 0)
            .iter()
            .map(|i| i.position)
            .collect();
        assert_eq!(page, [0, 2]);
        assert!(pages.items(&answered, 0)[1].answered);
        // The server would go on at 1 (meme B); the half-done page of meme A comes first.
        assert_eq!(pages.resume_position(Some(1)), Some(0));
        // A check placed before any item of the page comes before the page.
        assert!(pages.check_due(0, 2));
        assert!(!pages.check_due(0, 1));
    }

    #[test]
    fn next_unanswered_goes_forward_then_wraps() {
        let items: Vec<_> = (0..4).map(item).collect();
        assert_eq!(
            next_unanswered(&items, &[true, true, false, false], 1),
            Some(2)
        );
        assert_eq!(
            next_unanswered(&items, &[false, true, true, true], 3),
            Some(0)
        );
        assert_eq!(next_unanswered(&items, &[true; 4], 3), None);
    }
}
