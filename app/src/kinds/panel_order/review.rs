//! The results page's card of one answered comic.

use super::Texts;
use crate::i18n::StringTable;
use crate::kinds::cards::{withheld_dd, OutcomeCard};
use crate::kinds::panels::{groups_text, order_text, ReviewStrip};
use crate::kinds::ReviewContext;
use leptos::prelude::*;
use memeboard_core::kinds::panel_order::Review;

/// One reviewed comic: right/wrong, the panels as shown, your order, a right order.
#[component]
pub(super) fn ReviewCard(ctx: ReviewContext, review: Review) -> impl IntoView {
    let outcome = review.correct.filter(|_| !ctx.gold_withheld);
    let groups = review.reading_groups.filter(|_| !ctx.gold_withheld);
    let yours = order_text(&review.chosen);
    let correct_view = match groups {
        Some(g) => {
            let grouped = g.iter().any(|g| g.len() > 1);
            view! {
                <dd data-testid="reading-order">
                    {groups_text(&g)}
                    {grouped.then(|| view! { <span class="muted small">" " {Texts::text(|t| t.groups_note)}</span> })}
                </dd>
            }
            .into_any()
        }
        None => withheld_dd(),
    };
    let shown = view! { <ReviewStrip panels=review.panels /> }.into_any();
    view! {
        <OutcomeCard ctx=ctx outcome=outcome shown=shown>
            <dt>{Texts::text(|t| t.your_order)}</dt>
            <dd data-testid="your-order">{yours}</dd>
            <dt>{Texts::text(|t| t.reading_order)}</dt>
            {correct_view}
        </OutcomeCard>
    }
}
