//! The clip's question: the player, the familiarity answer (stored as the preface, with
//! retries), then the lettered options and the answer.

use super::player::{player_view, preload_view, Player};
use super::{Texts, FAMILIARITY};
use crate::api;
use crate::browser::focus_when_shown;
use crate::components::answer::use_answer_sender;
use crate::format::option_letter;
use crate::i18n::{use_i18n, I18n, StringTable};
use crate::kinds::cards::{question_head, OptionChoice, SubmitActions};
use crate::kinds::QuestionContext;
use crate::storage;
use leptos::ev::SubmitEvent;
use leptos::prelude::*;
use leptos::task::spawn_local;
use memeboard_core::api::{AnswerInput, PromptView, SubmitAnswerResponse, SubmitPrefaceRequest};
use memeboard_core::kinds::clip_mcq::{Familiarity, Input, View};

/// localStorage key of an item's play count, so a reload does not forget earlier plays.
fn plays_key(session_id: &str, item_id: &str) -> String {
    format!("memeboard.plays.{session_id}.{item_id}")
}

/// The clip's question once the familiarity answer is stored.
#[derive(Debug, Clone, PartialEq)]
struct Asked {
    question: String,
    options: Vec<String>,
}

impl Asked {
    /// The question of a view, when the server sent it.
    fn of(view: &View) -> Option<Self> {
        let question = view.question.clone()?;
        (!view.options.is_empty()).then(|| Self {
            question,
            options: view.options.clone(),
        })
    }
}

/// The three familiarity answers as a radio group (native radios: arrow keys move the choice).
fn familiarity_radios(
    position: usize,
    familiarity: RwSignal<Option<Familiarity>>,
) -> impl IntoView {
    let i18n = use_i18n();
    let group = format!("familiarity-{position}");
    FAMILIARITY
        .iter()
        .enumerate()
        .map(|(i, &f)| {
            let key = f.key();
            view! {
                <label class="check radio-choice">
                    <input
                        type="radio"
                        name=group.clone()
                        value=key
                        data-testid="familiarity-option"
                        data-familiarity=key
                        prop:checked=move || familiarity.get() == Some(f)
                        on:change=move |_| familiarity.set(Some(f))
                    />
                    <span>{move || i18n.table::<Texts>().familiarity[i]}</span>
                </label>
            }
        })
        .collect_view()
}

/// One clip: the player, then the familiarity question, then (once it is stored) the
/// question with lettered options.
#[component]
pub(super) fn ClipQuestion(ctx: QuestionContext, view: View) -> impl IntoView {
    let i18n = use_i18n();
    let position = ctx.position;
    let asked = RwSignal::new(Asked::of(&view));
    let View {
        clip,
        media,
        duration_ms,
        ..
    } = view;
    let player = Player::new(
        plays_key(&ctx.session_id, &ctx.item_id),
        duration_ms,
        ctx.preface.is_some(),
    );
    let ids = StoredValue::new((ctx.session_id.clone(), ctx.item_id.clone()));

    // The familiarity answer and its sending.
    let familiarity = RwSignal::new(ctx.preface);
    let sending = RwSignal::new(false);
    let retries = RwSignal::new(0u32);
    let error = RwSignal::new(None::<String>);
    let send_preface = move || {
        let Some(f) = familiarity.get_untracked() else {
            return;
        };
        if sending.get_untracked() || asked.with_untracked(Option::is_some) {
            return;
        }
        let (session_id, item_id) = ids.get_value();
        let request = SubmitPrefaceRequest {
            item_id,
            familiarity: f,
        };
        sending.set(true);
        retries.set(0);
        error.set(None);
        spawn_local(store_preface(
            session_id, request, asked, sending, retries, error, i18n,
        ));
    };
    // Resumed with a stored preface but without its question: ask again (an identical
    // resend returns the stored item).
    if ctx.preface.is_some() && asked.with_untracked(Option::is_none) {
        send_preface();
    }

    let on_preface = move |ev: SubmitEvent| {
        ev.prevent_default();
        send_preface();
    };
    let controls = Signal::derive(move || asked.with(Option::is_some));
    let notices = preface_notices(sending, retries, error, send_preface);
    let stage_one = move || {
        asked.with(Option::is_none).then(|| {
            view! {
                <form class="familiarity-form" on:submit=on_preface novalidate=true>
                    <fieldset
                        class="choice-group"
                        disabled=move || !player.played_through.get() || sending.get()
                    >
                        <legend>{Texts::text(|t| t.familiarity_legend)}</legend>
                        {familiarity_radios(position, familiarity)}
                    </fieldset>
                    <p
                        class="notice info small"
                        data-testid="listen-first"
                        hidden=move || player.played_through.get()
                    >
                        {Texts::text(|t| t.listen_first)}
                    </p>
                    {notices}
                    <div class="actions">
                        <button
                            type="submit"
                            class="button primary"
                            data-testid="familiarity-submit"
                            disabled=move || {
                                !player.played_through.get() || familiarity.get().is_none()
                                    || sending.get()
                            }
                        >
                            {move || {
                                let t = i18n.table::<Texts>();
                                if sending.get() { t.saving } else { t.familiarity_submit }
                            }}
                        </button>
                    </div>
                </form>
            }
        })
    };
    let on_ack = ctx.on_ack;
    let on_recorded = Callback::new(move |ack: SubmitAnswerResponse| {
        player.key.with_value(|k| storage::remove(k));
        on_ack.run((position, ack));
    });
    let stage_two = move || {
        asked.get().map(|a| {
            let (session_id, item_id) = ids.get_value();
            view! {
                <ChoiceStep
                    asked=a
                    position=position
                    session_id=session_id
                    item_id=item_id
                    plays=player.plays
                    on_recorded=on_recorded
                />
            }
        })
    };

    view! {
        <section
            class="card question clip-question"
            data-testid="question"
            data-position=position.to_string()
            data-item-id=ctx.item_id.clone()
            data-stage=move || if asked.with(Option::is_some) { "question" } else { "familiarity" }
        >
            {question_head(&ctx)}
            {player_view(&clip, media, player, controls)}
            {stage_one}
            {stage_two}
            {preload_view(ctx.next_media.clone())}
        </section>
    }
}

/// The question with its lettered options and the answer button (stage two). The response
/// time counts from when it is shown.
#[component]
fn ChoiceStep(
    asked: Asked,
    position: usize,
    session_id: String,
    item_id: String,
    plays: RwSignal<u32>,
    on_recorded: Callback<SubmitAnswerResponse>,
) -> impl IntoView {
    let sender = use_answer_sender(&session_id, &item_id);
    Effect::new(move |_| {
        if let Some(ack) = sender.recorded() {
            on_recorded.run(ack);
        }
    });
    let heading = focus_when_shown::<leptos::html::H3>();

    let choice = OptionChoice::none();
    let selected = choice.selected;
    let submit = move || {
        if let Some(chosen) = choice.to_send(sender) {
            sender.send(AnswerInput::ClipMcq(Input {
                position: chosen,
                plays: plays.get_untracked(),
            }));
        }
    };
    let on_submit = move |ev: SubmitEvent| {
        ev.prevent_default();
        submit();
    };
    let group = format!("clip-options-{position}");
    let options = asked
        .options
        .into_iter()
        .enumerate()
        .map(|(i, text)| {
            view! {
                <label class="option clip-option" class:selected=move || selected.get() == Some(i)>
                    <input
                        type="radio"
                        name=group.clone()
                        value=i.to_string()
                        data-testid="clip-option"
                        data-position=i.to_string()
                        prop:checked=move || selected.get() == Some(i)
                        on:change=move |_| choice.choose(i)
                    />
                    <span class="letter" aria-hidden="true">{option_letter(i).to_string()}</span>
                    <span class="visually-hidden">{format!("{}.", option_letter(i))}</span>
                    <span class="option-text">{text}</span>
                </label>
            }
        })
        .collect_view();
    view! {
        <p class="visually-hidden" role="status" aria-live="polite">{Texts::text(|t| t.question_shown)}</p>
        <form class="clip-choice" on:submit=on_submit novalidate=true>
            <p class="muted small">{Texts::text(|t| t.question_heading)}</p>
            <h3 class="clip-question-text" node_ref=heading tabindex="-1" data-testid="clip-question">
                {asked.question}
            </h3>
            <fieldset class="choice-group options" disabled=move || sender.locked()>
                <legend>{Texts::text(|t| t.options_legend)}</legend>
                {options}
            </fieldset>
            {choice.hint_view()}
            <SubmitActions
                sender=sender
                submit=Callback::new(move |()| submit())
                testid="clip-submit"
                incomplete=move || selected.get().is_none()
                in_form=true
            />
        </form>
    }
}

/// The familiarity answer's retry notice and its error with a retry button.
fn preface_notices(
    sending: RwSignal<bool>,
    retries: RwSignal<u32>,
    error: RwSignal<Option<String>>,
    send_preface: impl Fn() + Copy + Send + Sync + 'static,
) -> impl IntoView + Copy {
    let i18n = use_i18n();
    let preface_retrying = move || {
        (sending.get() && retries.get() > 0).then(|| {
            view! {
                <p class="notice muted small" role="status" data-testid="preface-retrying">
                    {move || (i18n.t().answer_retrying)(retries.get())}
                </p>
            }
        })
    };
    let preface_error = move || {
        error.get().map(|detail| {
            view! {
                <div class="notice error" role="alert">
                    <p data-testid="preface-error">{Texts::text(|t| t.preface_failed)} " " {detail}</p>
                    <button
                        type="button"
                        class="button secondary"
                        data-testid="retry-preface"
                        disabled=move || sending.get()
                        on:click=move |_| send_preface()
                    >
                        {move || i18n.t().retry}
                    </button>
                </div>
            }
        })
    };
    (preface_retrying, preface_error)
}

/// Stores the familiarity answer (retrying), then shows the question it unlocks in
/// `asked`, or the failure in `error`.
async fn store_preface(
    session_id: String,
    request: SubmitPrefaceRequest,
    asked: RwSignal<Option<Asked>>,
    sending: RwSignal<bool>,
    retries: RwSignal<u32>,
    error: RwSignal<Option<String>>,
    i18n: I18n,
) {
    let outcome =
        api::submit_preface(&session_id, &request, |n| retries.try_set(n).is_none()).await;
    // The question may be gone by now (navigation): then there is no one to tell.
    match outcome {
        Ok(response) => match &response.item.prompt {
            PromptView::ClipMcq(v) if Asked::of(v).is_some() => {
                let _ = asked.try_set(Asked::of(v));
            }
            _ => {
                let text = i18n.lang_untracked().table::<Texts>().preface_unexpected;
                let _ = error.try_set(Some(text.to_owned()));
            }
        },
        Err(e) => {
            let _ = error.try_set(Some(e.to_string()));
        }
    }
    let _ = sending.try_set(false);
}
