//! The question: the meme, the text box and the answer, the browser's instant estimate of
//! an open dev item's score, then the feedback and the way on.

use super::feedback::Feedback;
use super::Texts;
use crate::api;
use crate::components::answer::{use_answer_sender, AnswerError};
use crate::components::browser_model::BrowserModelPanel;
use crate::embedder::{self, ModelState};
use crate::i18n::StringTable;
use crate::kinds::cards::question_head;
use crate::kinds::free_text::{AnswerBox, NextButton, SendButton};
use crate::kinds::QuestionContext;
use leptos::prelude::*;
use leptos::task::spawn_local;
use memeboard_core::api::AnswerInput;
use memeboard_core::kinds::explanation::Input;
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

thread_local! {
    /// `(item id → reference meaning)` of each quiz's open dev items, fetched once the
    /// browser model is ready (the dev gold is public by design).
    static DEV_MEANINGS: RefCell<HashMap<String, Rc<HashMap<String, String>>>> =
        RefCell::new(HashMap::new());
}

/// The open dev items' reference meanings of the task `slug` (fetched once per page).
async fn dev_meanings(slug: &str) -> Option<Rc<HashMap<String, String>>> {
    if let Some(found) = DEV_MEANINGS.with(|d| d.borrow().get(slug).cloned()) {
        return Some(found);
    }
    let list = api::dev_meanings(slug).await.ok()?;
    let map = Rc::new(list.into_iter().collect::<HashMap<_, _>>());
    DEV_MEANINGS.with(|d| d.borrow_mut().insert(slug.to_owned(), map.clone()));
    Some(map)
}

/// One explanation item: meme, text box, submit (idempotent, with retry), then feedback; the
/// opt-in browser model panel below.
#[component]
pub(super) fn ExplainQuestion(ctx: QuestionContext, meme: String) -> impl IntoView {
    let position = ctx.position;
    let on_ack = ctx.on_ack;
    let text = RwSignal::new(String::new());
    let sender = use_answer_sender(&ctx.session_id, &ctx.item_id);
    let ids = StoredValue::new((ctx.quiz_slug.clone(), ctx.item_id.clone()));
    // The browser's instant estimate (dev items, with the model loaded), computed at most once.
    let instant = RwSignal::new(None::<Result<f64, String>>);
    let scoring = StoredValue::new(false);

    // Once the model is ready, fetch the dev meanings ahead, so that the estimate needs no
    // network (it then works offline).
    let state = embedder::state();
    Effect::new(move |_| {
        if matches!(state.get(), ModelState::Ready(..)) {
            let slug = ids.with_value(|(slug, _)| slug.clone());
            spawn_local(async move {
                let _ = dev_meanings(&slug).await;
            });
        }
    });

    let submit = move || {
        let answer = text.get_untracked().trim().to_owned();
        if answer.is_empty() {
            return;
        }
        sender.send(AnswerInput::Explanation(Input {
            text: answer.clone(),
        }));
        // Never waits for the model: without it (or on a hidden item) there is no estimate.
        if embedder::ready_untracked() && !scoring.get_value() {
            scoring.set_value(true);
            let (slug, item_id) = ids.get_value();
            spawn_local(async move {
                let Some(meanings) = dev_meanings(&slug).await else {
                    return;
                };
                if !meanings.contains_key(&item_id) {
                    return; // a hidden item: no estimate
                }
                let pool: Vec<(String, String)> = meanings
                    .iter()
                    .map(|(k, v)| (k.clone(), v.clone()))
                    .collect();
                let score = super::identify::identify(&[(item_id, answer)], &pool)
                    .await
                    .and_then(|v| v.first().copied().ok_or_else(|| "no score".to_owned()));
                let _ = instant.try_set(Some(score));
            });
        }
    };

    view! {
        <section class="card question explain" data-testid="question" data-position=position.to_string()>
            {question_head(&ctx)}
            <p class="explain-prompt">{Texts::text(|t| t.prompt)}</p>
            <p class="meme" lang="zh-CN" data-testid="meme">{meme}</p>
            <AnswerBox
                text=text
                sender=sender
                label=Texts::text(|t| t.your_explanation)
                lang="zh-CN"
            />
            <AnswerError sender=sender on_retry=Callback::new(move |()| submit()) />
            <div role="status" aria-live="polite">
                {move || {
                    // Until the server's score arrives with the acknowledgement.
                    if sender.recorded().is_some() {
                        return None;
                    }
                    instant.get().map(|score| match score {
                        Ok(c) => view! {
                            <p data-testid="instant-score" data-value=c.to_string()>
                                {Texts::text(|t| t.instant_estimate)}
                                <strong>{format!("{c:.3}")}</strong>
                            </p>
                        }.into_any(),
                        Err(e) => view! {
                            <p class="muted small" data-testid="instant-score-error">{e}</p>
                        }.into_any(),
                    })
                }}
            </div>
            {move || match sender.recorded() {
                None => view! {
                    <SendButton
                        text=text
                        sender=sender
                        submit=Callback::new(move |()| submit())
                        words=|lang| {
                            let t = lang.table::<Texts>();
                            [t.submit, t.saving]
                        }
                    />
                }.into_any(),
                Some(response) => {
                    let feedback = response.feedback.clone();
                    let next = response.clone();
                    view! {
                        {feedback.map(|f| view! { <Feedback feedback=f instant=instant.read_only() /> })}
                        <NextButton on_ack=on_ack position=position ack=next label=Texts::text(|t| t.next) />
                    }.into_any()
                }
            }}
            <BrowserModelPanel />
        </section>
    }
}
