//! The board's history: when the task's uploads were scored again, and why (a corrected
//! gold makes figures before and after incomparable, so readers are told).

use crate::format;
use crate::i18n::board::btr;
use crate::i18n::use_i18n;
use leptos::prelude::*;
use memeboard_core::api::Rescoring;

/// The latest rescorings, newest first (nothing when there were none).
#[component]
pub(super) fn RescoringHistory(rescorings: Vec<Rescoring>) -> impl IntoView {
    let i18n = use_i18n();
    (!rescorings.is_empty()).then(|| {
        let items = rescorings
            .into_iter()
            .map(|r| {
                view! {
                    <li data-testid="rescoring">
                        <time>{format::date(r.at)}</time>
                        ": "
                        {r.reason.clone()}
                        " "
                        {move || (i18n.bt().rescored_uploads)(r.rescored, r.skipped)}
                    </li>
                }
            })
            .collect_view();
        view! {
            <section class="muted small" data-testid="board-rescorings">
                <h2>{btr(|t| t.rescorings_title)}</h2>
                <ul>{items}</ul>
            </section>
        }
    })
}
