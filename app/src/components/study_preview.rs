//! The study form's preview: per category, the eligible source items on each split and what
//! the request draws, then the pages, batches and raters it makes and the test gold it would
//! show raters — before the owner commits.

use crate::i18n::human::HumanStrings;
use crate::i18n::use_i18n;
use leptos::prelude::*;
use memeboard_core::human_eval::study::StudyPreview;

/// A study preview as a table and two lines.
#[component]
pub fn StudyPreviewView(
    /// The server's preview of the form's request.
    preview: StudyPreview,
) -> impl IntoView {
    let i18n = use_i18n();
    let p = StoredValue::new(preview);
    let rows = p.with_value(|p| {
        p.categories
            .iter()
            .map(|c| {
                view! {
                    <tr>
                        <th scope="row">{c.category.clone()}</th>
                        <td>{c.dev}</td>
                        <td>{c.test}</td>
                        <td data-testid="preview-drawn">{c.drawn}</td>
                    </tr>
                }
            })
            .collect_view()
    });
    let t = move || i18n.table::<HumanStrings>();
    let summary = move || {
        p.with_value(|p| {
            (t().preview_summary)(
                p.source_items,
                p.rating_pages,
                p.rating_batches,
                p.planted_groups,
                p.ranking_pages,
                p.raters_wanted,
            )
        })
    };
    let exposure =
        move || p.with_value(|p| (t().preview_exposure)(p.exposed_test_items, p.exposed_if_test));
    view! {
        <div class="notice" role="status" data-testid="study-preview">
            <div class="table-wrap">
                <table class="board-table compact">
                    <caption>{move || t().preview_caption}</caption>
                    <thead>
                        <tr>
                            {move || t().preview_columns.map(|c| view! { <th scope="col">{c}</th> }).collect_view()}
                        </tr>
                    </thead>
                    <tbody>{rows}</tbody>
                </table>
            </div>
            <p data-testid="preview-summary">{summary}</p>
            <p>{exposure}</p>
        </div>
    }
}
