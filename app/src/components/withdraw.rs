//! The author's "Withdraw" button for one of their own submissions, with an inline
//! confirmation step (no browser dialog): `DELETE /api/submissions/{id}` with the author's
//! token takes the row off every board. Afterwards the button gives way to a note.

use crate::api;
use crate::i18n::board::btr;
use crate::i18n::use_i18n;
use leptos::prelude::*;
use leptos::task::spawn_local;

/// Withdraw button → "Yes, withdraw" / "Cancel" → withdrawn note (or the server's error).
/// `withdrawn` is set once the server confirms, so the caller can mark the row.
#[component]
pub fn WithdrawButton(
    /// The submission to withdraw.
    submission_id: String,
    /// The author's token.
    token: String,
    /// Set to true once withdrawn.
    withdrawn: RwSignal<bool>,
) -> impl IntoView {
    let i18n = use_i18n();
    let confirming = RwSignal::new(false);
    let sending = RwSignal::new(false);
    let error = RwSignal::new(None::<String>);
    let ids = StoredValue::new((submission_id, token));
    let confirm_button = NodeRef::<leptos::html::Button>::new();
    Effect::new(move |_| {
        if let Some(b) = confirm_button.get() {
            let _ = b.focus();
        }
    });
    let withdraw = move |_| {
        if sending.get_untracked() {
            return;
        }
        let (id, token) = ids.get_value();
        sending.set(true);
        error.set(None);
        spawn_local(async move {
            let result = api::withdraw_submission(&token, &id).await;
            let _ = sending.try_set(false);
            match result {
                Ok(_) => {
                    let _ = confirming.try_set(false);
                    let _ = withdrawn.try_set(true);
                }
                Err(e) => {
                    let _ = error.try_set(Some(e.to_string()));
                }
            }
        });
    };
    view! {
        <div class="withdraw" data-testid="withdraw-box">
            {move || {
                if withdrawn.get() {
                    view! {
                        <p class="notice info" role="status" data-testid="withdrawn">
                            {btr(|t| t.withdrawn_note)}
                        </p>
                    }
                        .into_any()
                } else if confirming.get() {
                    view! {
                        <p class="notice warning" data-testid="withdraw-question">
                            {btr(|t| t.withdraw_question)}
                        </p>
                        <div class="actions">
                            <button
                                type="button"
                                class="button danger"
                                data-testid="withdraw-confirm"
                                node_ref=confirm_button
                                disabled=move || sending.get()
                                on:click=withdraw
                            >
                                {move || {
                                    if sending.get() {
                                        i18n.bt().withdrawing
                                    } else {
                                        i18n.bt().withdraw_yes
                                    }
                                }}
                            </button>
                            <button
                                type="button"
                                class="button secondary"
                                data-testid="withdraw-cancel"
                                on:click=move |_| confirming.set(false)
                            >
                                {btr(|t| t.cancel)}
                            </button>
                        </div>
                    }
                        .into_any()
                } else {
                    view! {
                        <button
                            type="button"
                            class="button secondary"
                            data-testid="withdraw"
                            on:click=move |_| confirming.set(true)
                        >
                            {btr(|t| t.withdraw)}
                        </button>
                    }
                        .into_any()
                }
            }}
            {move || {
                error
                    .get()
                    .map(|e| {
                        view! {
                            <p class="notice error" role="alert" data-testid="withdraw-error">
                                {e}
                            </p>
                        }
                    })
            }}
        </div>
    }
}
