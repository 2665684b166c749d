//! The results page's card of one answered comic.

use super::tx;
use crate::format::{self, DASH};
use crate::i18n::use_i18n;
use crate::kinds::panels::{groups_text, order_text, ReviewStrip};
use crate::kinds::ReviewContext;
use leptos::prelude::*;
use memeboard_core::kinds::panel_order::Review;

/// One reviewed comic: right/wrong, the panels as shown, your order, a right order.
#[component]
pub(super) fn ReviewCard(ctx: ReviewContext, review: Review) -> impl IntoView {
    let i18n = use_i18n();
    let outcome = review.correct.filter(|_| !ctx.gold_withheld);
    let groups = review.reading_groups.filter(|_| !ctx.gold_withheld);
    let crowd = ctx
        .crowd_accuracy
        .map(format::accuracy)
        .unwrap_or_else(|| DASH.to_owned());
    let category = ctx.category_label();
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
    let yours = order_text(&review.chosen);
    let correct_view = match groups {
        Some(g) => {
            let grouped = g.iter().any(|g| g.len() > 1);
            view! {
                <dd data-testid="reading-order">
                    {groups_text(&g)}
                    {grouped.then(|| view! { <span class="muted small">" " {tx(|t| t.groups_note)}</span> })}
                </dd>
            }
            .into_any()
        }
        None => view! { <dd class="muted">{move || i18n.t().withheld_note}</dd> }.into_any(),
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
            <ReviewStrip panels=review.panels />
            <dl class="review-grid">
                <dt>{tx(|t| t.your_order)}</dt>
                <dd data-testid="your-order">{yours}</dd>
                <dt>{tx(|t| t.reading_order)}</dt>
                {correct_view}
                <dt>{move || i18n.t().crowd_accuracy}</dt>
                <dd>{crowd}</dd>
            </dl>
        </li>
    }
}
