//! One instructed-response attention check, in the participant's language, stored once.

use crate::api;
use crate::browser::focus_when_shown;
use crate::i18n::{tr, use_i18n};
use leptos::prelude::*;
use leptos::task::spawn_local;
use memeboard_core::fieldwork::{
    check_instruction, check_option_labels, CheckPlan, ScreenOut, SubmitCheckRequest,
};

/// One instructed-response attention check, in the participant's language.
#[component]
pub(super) fn AttentionCheck(
    session_id: String,
    check: CheckPlan,
    on_done: Callback<(u8, Option<ScreenOut>)>,
) -> impl IntoView {
    let i18n = use_i18n();
    let chosen = RwSignal::new(None::<u8>);
    let sending = RwSignal::new(false);
    let error = RwSignal::new(None::<String>);
    let shown_at = crate::browser::now_ms();
    let sid = StoredValue::new(session_id);
    let heading = focus_when_shown::<leptos::html::H1>();
    let submit = move |_| {
        let Some(choice) = chosen.get_untracked() else {
            return;
        };
        if sending.get_untracked() {
            return;
        }
        sending.set(true);
        let request = SubmitCheckRequest {
            index: check.index,
            choice,
            response_ms: crate::browser::elapsed_ms(shown_at),
        };
        spawn_local(async move {
            match api::submit_check(&sid.get_value(), &request).await {
                Ok(r) => on_done.run((check.index, r.screen_out)),
                Err(e) => {
                    let _ = error.try_set(Some(e.to_string()));
                    let _ = sending.try_set(false);
                }
            }
        });
    };
    let options = (0..check.num_options)
        .map(|i| {
            let id = format!("check-{}-{i}", check.index);
            view! {
                <li>
                    <input
                        type="radio"
                        name=format!("check-{}", check.index)
                        id=id.clone()
                        data-testid=format!("check-option-{i}")
                        prop:checked=move || chosen.get() == Some(i)
                        on:change=move |_| chosen.set(Some(i))
                    />
                    <label for=id>
                        {move || {
                            check_option_labels(i18n.lang() == crate::i18n::Lang::Zh)
                                .get(usize::from(i))
                                .copied()
                                .unwrap_or_default()
                        }}
                    </label>
                </li>
            }
        })
        .collect_view();
    view! {
        <section class="card question" data-testid="attention-check">
            <h1 node_ref=heading tabindex="-1">{tr(|t| t.check_title)}</h1>
            <fieldset>
                <legend>{move || check_instruction(i18n.lang() == crate::i18n::Lang::Zh, check.target)}</legend>
                <ul class="options plain">{options}</ul>
            </fieldset>
            {move || error.get().map(|e| view! { <p class="notice error" role="alert">{e}</p> })}
            <button
                type="button"
                class="button primary"
                data-testid="check-continue"
                disabled=move || chosen.get().is_none() || sending.get()
                on:click=submit
            >
                {tr(|t| t.check_continue)}
            </button>
        </section>
    }
}
