//! The submit page's dev-split preview of an explanation file, scored in the browser.

use super::{help_t, HelpTexts};
use crate::components::browser_model::{backend_text, BrowserModelPanel};
use crate::embedder::{self, ModelState};
use crate::i18n::{use_i18n, StringTable};
use leptos::prelude::*;
use leptos::task::spawn_local;
use memeboard_core::embed::identification::CHANCE;

/// The dev-split preview of an explanation file: meaning identification, scored in the
/// browser with the same model and pool as the server (missing dev items score chance, as on
/// the board) once the participant has loaded the browser model (opt-in, as on the quiz).
#[component]
pub(super) fn ExplainDevPreview(
    /// (item id, predicted meaning) of the dev items the file answers.
    answers: Vec<(String, String)>,
    /// (item id, reference meaning) of the open dev items: the pool.
    pool: Vec<(String, String)>,
    /// Dev items in the task.
    total: usize,
) -> impl IntoView {
    let i18n = use_i18n();
    let outcome = RwSignal::new(None::<Result<f64, String>>);
    let started = StoredValue::new(false);
    let answered = answers.len();
    let state = embedder::state();
    let inputs = StoredValue::new((answers, pool));
    Effect::new({
        let state = state.clone();
        move |_| {
            if matches!(state.get(), ModelState::Ready(..)) && !started.get_value() {
                started.set_value(true);
                let (answers, pool) = inputs.get_value();
                spawn_local(async move {
                    let missing = total.saturating_sub(answers.len()) as f64;
                    let result = super::identify::identify(&answers, &pool)
                        .await
                        .map(|values| {
                            (values.iter().sum::<f64>() + missing * CHANCE) / total.max(1) as f64
                        });
                    let _ = outcome.try_set(Some(result));
                });
            }
        }
    });
    let backend = move || match state.get() {
        ModelState::Ready(_, b) => backend_text(i18n.lang(), &b),
        _ => String::new(),
    };
    view! {
        <section class="dev-preview" data-testid="preview-score">
            <h3>{HelpTexts::text(|t| t.dev_title)}</h3>
            {move || match outcome.get() {
                None => view! { <p class="muted small">{HelpTexts::text(|t| t.dev_waiting)}</p> }.into_any(),
                Some(Ok(mean)) => {
                    let backend = backend.clone();
                    view! {
                        <p class="big-score" data-testid="preview-explain-score" data-value=mean.to_string()>{format!("{mean:.3}")}</p>
                        <p class="muted small">{move || (help_t().dev_note)(total, answered, &backend())}</p>
                    }.into_any()
                }
                Some(Err(e)) => view! { <p class="muted small" data-testid="preview-explain-error">{e}</p> }.into_any(),
            }}
            <BrowserModelPanel />
        </section>
    }
}
