//! What the free-text kinds (meme explanations, comic explanations) share in the browser, as
//! core's `kinds::free_text` does on the server: the text box with its character count, the
//! button that sends the written answer, the button to the next item once it is stored, and
//! the submit page's note on a file's missing items.

use crate::components::answer::AnswerSender;
use crate::i18n::{use_i18n, Lang};
use leptos::prelude::*;
use memeboard_core::api::SubmitAnswerResponse;
use memeboard_core::kinds::free_text::MAX_ANSWER_CHARS;
use memeboard_core::messages::Message;

/// The text box of a written answer, with its label and character count; locked once the
/// answer is sent.
#[component]
pub(super) fn AnswerBox(
    /// The answer being written.
    text: RwSignal<String>,
    /// The question's sender.
    sender: AnswerSender,
    /// The box's label.
    label: impl Fn() -> &'static str + Send + Sync + 'static,
    /// The box's `lang`, where answers are written in one language.
    #[prop(optional)]
    lang: Option<&'static str>,
) -> impl IntoView {
    let chars = move || text.with(|t| t.chars().count());
    view! {
        <label class="field">
            <span class="muted small">{label}</span>
            <textarea
                data-testid="explanation-input"
                rows="4"
                maxlength=MAX_ANSWER_CHARS.to_string()
                lang=lang
                prop:value=move || text.get()
                prop:disabled=move || sender.locked()
                on:input=move |ev| text.set(event_target_value(&ev))
            ></textarea>
            <span class="muted small">{move || format!("{} / {MAX_ANSWER_CHARS}", chars())}</span>
        </label>
    }
}

/// The button that sends the written answer, disabled while nothing is written and while it
/// is sent.
#[component]
pub(super) fn SendButton(
    /// The answer being written.
    text: RwSignal<String>,
    /// The question's sender.
    sender: AnswerSender,
    /// Sends the answer.
    submit: Callback<()>,
    /// The button's words in a language: idle, then while the answer is sent.
    words: fn(Lang) -> [&'static str; 2],
) -> impl IntoView {
    let i18n = use_i18n();
    view! {
        <button
            type="button"
            class="button primary"
            data-testid="submit-answer"
            prop:disabled=move || sender.sending() || text.with(String::is_empty)
            on:click=move |_| submit.run(())
        >
            {move || {
                let [idle, sending] = words(i18n.lang());
                if sender.sending() { sending } else { idle }
            }}
        </button>
    }
}

/// The button to the next item, once the answer is stored (the participant reads what it
/// got first).
#[component]
pub(super) fn NextButton(
    /// [`super::QuestionContext::on_ack`].
    on_ack: Callback<(usize, SubmitAnswerResponse)>,
    /// The item's position.
    position: usize,
    /// The answer's acknowledgement.
    ack: SubmitAnswerResponse,
    /// The button's words.
    label: impl Fn() -> &'static str + Send + Sync + 'static,
) -> impl IntoView {
    view! {
        <button
            type="button"
            class="button primary"
            data-testid="next-item"
            on:click=move |_| on_ack.run((position, ack.clone()))
        >
            {label}
        </button>
    }
}

/// The server's note on a free-text prediction file's missing items (`code`: how they
/// count), with their number and the first five ids, in `lang`; `None` when none is missing.
pub(super) fn missing_note(lang: Lang, code: &str, missing: &[String]) -> Option<String> {
    (!missing.is_empty()).then(|| {
        let ids = missing
            .iter()
            .take(5)
            .cloned()
            .collect::<Vec<_>>()
            .join(", ");
        Message::new(code)
            .with("count", missing.len())
            .with("ids", ids)
            .render(lang.locale())
    })
}
