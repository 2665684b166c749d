//! The frames the kinds' question and review components share: the question's head built
//! from its context, the answer sender that moves the batch on, and the right/wrong review
//! card with its badge, category and the crowd's accuracy. Each kind fills them with its own
//! content; nothing here knows a kind.

use super::{QuestionContext, QuestionHead, ReviewContext};
use crate::components::answer::{use_answer_sender, AnswerSender};
use crate::format::{self, DASH};
use crate::i18n::use_i18n;
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
