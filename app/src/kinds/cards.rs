//! The frames the kinds' question and review components share: the question's head built
//! from its context, the answer sender that moves the batch on, the submit button with the
//! answer's error, the choice among lettered options, and the right/wrong review card with
//! its badge, category and the crowd's accuracy. Each kind fills them with its own content;
//! nothing here knows a kind.

use super::{QuestionContext, QuestionHead, ReviewContext};
use crate::components::answer::{use_answer_sender, AnswerError, AnswerSender};
use crate::format::{self, DASH};
use crate::i18n::{use_i18n, Lang, Strings};
use leptos::prelude::*;

/// The head of a question ([`QuestionHead`]) from its context, as every question starts.
pub(super) fn question_head(ctx: &QuestionContext) -> impl IntoView {
    view! {
        <QuestionHead
            position=ctx.position
            total=ctx.total
            answered_count=ctx.answered_count
            content_warning=ctx.content_warning
        />
    }
}

/// The answer sender of a question that moves on as soon as the server has the answer (its
/// acknowledgement goes to [`QuestionContext::on_ack`]); the response time counts from here.
pub(super) fn use_acked_sender(ctx: &QuestionContext) -> AnswerSender {
    let position = ctx.position;
    let on_ack = ctx.on_ack;
    let sender = use_answer_sender(&ctx.session_id, &ctx.item_id);
    Effect::new(move |_| {
        if let Some(ack) = sender.recorded() {
            on_ack.run((position, ack));
        }
    });
    sender
}

/// A review card (`<li data-testid="review-item">`) of an answer that was right, wrong, or
/// whose gold is withheld (`None`): the outcome's classes and badge and the category, what
/// the kind shows of the item, then its review grid (`children`: the kind's rows), which ends
/// with the share of other participants who got the item right.
#[component]
pub(super) fn OutcomeCard(
    /// The reviewed item.
    ctx: ReviewContext,
    /// Right, wrong, or withheld.
    outcome: Option<bool>,
    /// What the kind shows of the item above the grid (sentence, clip, panels).
    shown: AnyView,
    /// The kind's rows of the review grid.
    children: Children,
) -> impl IntoView {
    let i18n = use_i18n();
    let category = ctx.category_label();
    let crowd = ctx
        .crowd_accuracy
        .map(format::accuracy)
        .unwrap_or_else(|| DASH.to_owned());
    let (badge_class, mark) = match outcome {
        Some(true) => ("badge right", "✓ "),
        Some(false) => ("badge wrong", "✗ "),
        None => ("badge withheld", ""),
    };
    let badge_text = move || {
        let t = i18n.t();
        match outcome {
            Some(true) => t.right,
            Some(false) => t.wrong,
            None => t.withheld,
        }
    };
    view! {
        <li
            class="card review-item"
            class:right=outcome == Some(true)
            class:wrong=outcome == Some(false)
            data-testid="review-item"
            data-position=ctx.position.to_string()
            data-correct=match outcome {
                Some(true) => "true",
                Some(false) => "false",
                None => "withheld",
            }
        >
            <p class="review-head">
                <span class=badge_class>{mark} {badge_text}</span>
                <span class="muted">{category}</span>
            </p>
            {shown}
            <dl class="review-grid">
                {children()}
                <dt>{move || i18n.t().crowd_accuracy}</dt>
                <dd>{crowd}</dd>
            </dl>
        </li>
    }
}

/// The gold row's value of a review grid while the gold is withheld.
pub(super) fn withheld_dd() -> AnyView {
    let i18n = use_i18n();
    view! { <dd class="muted">{move || i18n.t().withheld_note}</dd> }.into_any()
}

/// The answer's error (with its retry) and the submit button, disabled while the answer is
/// sent or stored and while it is incomplete: the end of every question answered with one
/// button.
#[component]
pub(super) fn SubmitActions(
    /// The question's sender.
    sender: AnswerSender,
    /// Sends the answer (the button's click, and the error's retry).
    submit: Callback<()>,
    /// The button's `data-testid`.
    testid: &'static str,
    /// Whether the answer is incomplete (nothing to send yet).
    incomplete: impl Fn() -> bool + Send + Sync + 'static,
    /// The button's words in a language: idle, then while the answer is sent (by default
    /// the generic "Submit" and "Sending…").
    #[prop(optional)]
    words: Option<fn(Lang) -> [&'static str; 2]>,
    /// The button submits its form (whose handler sends) instead of sending on a click.
    #[prop(optional)]
    in_form: bool,
) -> impl IntoView {
    let i18n = use_i18n();
    view! {
        <AnswerError sender=sender on_retry=submit />
        <div class="actions">
            <button
                type=if in_form { "submit" } else { "button" }
                class="button primary"
                data-testid=testid
                disabled=move || sender.locked() || incomplete()
                on:click=move |_| {
                    if !in_form {
                        submit.run(());
                    }
                }
            >
                {move || {
                    let [idle, sending] = words.unwrap_or(generic_words)(i18n.lang());
                    if sender.locked() { sending } else { idle }
                }}
            </button>
        </div>
    }
}

/// The generic words of a submit button: idle, then while the answer is sent.
fn generic_words(lang: Lang) -> [&'static str; 2] {
    let t = lang.table::<Strings>();
    [t.submit, t.sending]
}

/// The chosen option of a question with lettered options, and whether to remind the
/// participant to choose one first.
#[derive(Debug, Clone, Copy)]
pub(super) struct OptionChoice {
    /// The chosen option's position.
    pub selected: RwSignal<Option<usize>>,
    /// Show the reminder (after a submit without a choice).
    pub hint: RwSignal<bool>,
}

impl OptionChoice {
    /// Nothing chosen (a fresh component per item: nothing carries over).
    pub fn none() -> Self {
        Self {
            selected: RwSignal::new(None),
            hint: RwSignal::new(false),
        }
    }

    /// Chooses option `i`, dropping the reminder.
    pub fn choose(self, i: usize) {
        self.selected.set(Some(i));
        self.hint.set(false);
    }

    /// The option to send: `None` while the answer is locked, and (showing the reminder)
    /// while nothing is chosen.
    pub fn to_send(self, sender: AnswerSender) -> Option<usize> {
        if sender.locked_untracked() {
            return None;
        }
        let Some(choice) = self.selected.get_untracked() else {
            self.hint.set(true);
            return None;
        };
        self.hint.set(false);
        Some(choice)
    }

    /// The reminder to choose an option first.
    pub fn hint_view(self) -> impl IntoView {
        let i18n = use_i18n();
        let hint = self.hint;
        view! {
            <p class="notice info" role="status" aria-live="polite" hidden=move || !hint.get()>
                {move || i18n.t().choose_first}
            </p>
        }
    }
}

/// A question's card: the `<section data-testid="question">` with the item's position and id,
/// and the question's head; the kind's question (`children`) follows.
#[component]
pub(super) fn QuestionCard(
    /// The question.
    ctx: QuestionContext,
    /// The section's classes (`card question` and the kind's own).
    class: &'static str,
    /// The kind's question.
    children: Children,
) -> impl IntoView {
    view! {
        <section
            class=class
            data-testid="question"
            data-position=ctx.position.to_string()
            data-item-id=ctx.item_id.clone()
        >
            {question_head(&ctx)}
            {children()}
        </section>
    }
}
