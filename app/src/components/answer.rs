//! Sending one answer exactly once: the one implementation of the quiz's idempotency
//! protocol, used by every kind's question component.
//!
//! The first attempt makes a random idempotency key and keeps it in localStorage under
//! [`storage::pending_key`]; every retry (also after a reload) reuses it, so the server records
//! the answer once and replays its first outcome for a resend. The key is dropped once the
//! server acknowledged the answer (and by the session runner for items the server reports as
//! answered).

use crate::api;
use crate::browser::{elapsed_ms, now_ms, random_key};
use crate::i18n::use_i18n;
use crate::storage;
use leptos::prelude::*;
use leptos::task::spawn_local;
use memeboard_core::api::{AnswerInput, SessionItem, SubmitAnswerRequest, SubmitAnswerResponse};

/// Waits before the automatic resends of a failed answer (no response, or a 5xx): about
/// 15 s in all, after which the participant is shown the error and a retry button.
const RETRY_DELAYS_MS: [i32; 4] = [1_000, 2_000, 4_000, 8_000];

/// The idempotency key of an answer: the pending one from an earlier attempt, else a new one
/// (remembered before it is first sent).
fn idempotency_key(pending_key: &str) -> String {
    storage::get(pending_key)
        .filter(|k| !k.is_empty())
        .unwrap_or_else(|| {
            let k = random_key();
            storage::set(pending_key, &k);
            k
        })
}

/// Forgets the pending keys of items the server already recorded.
pub fn forget_recorded(session_id: &str, items: &[SessionItem]) {
    for item in items.iter().filter(|i| i.answered) {
        storage::remove(&storage::pending_key(session_id, &item.item_id));
    }
}

/// Sends one item's answer; see the module docs. `Copy`, so handlers can share it.
#[derive(Debug, Clone, Copy)]
pub struct AnswerSender {
    /// Session id, item id and the localStorage key of the pending idempotency key.
    ids: StoredValue<(String, String, String)>,
    /// When the question was shown (ms).
    shown_at: f64,
    /// Response time of the first attempt (retries keep it).
    first_ms: StoredValue<Option<u64>>,
    sending: RwSignal<bool>,
    /// Automatic resends of the current send so far.
    retries: RwSignal<u32>,
    error: RwSignal<Option<String>>,
    recorded: RwSignal<Option<SubmitAnswerResponse>>,
}

/// An [`AnswerSender`] for one item of a session; the response time counts from this call.
pub fn use_answer_sender(session_id: &str, item_id: &str) -> AnswerSender {
    AnswerSender {
        ids: StoredValue::new((
            session_id.to_owned(),
            item_id.to_owned(),
            storage::pending_key(session_id, item_id),
        )),
        shown_at: now_ms(),
        first_ms: StoredValue::new(None),
        sending: RwSignal::new(false),
        retries: RwSignal::new(0),
        error: RwSignal::new(None),
        recorded: RwSignal::new(None),
    }
}

impl AnswerSender {
    /// Sends `answer` (with the pending key of an earlier attempt, if any). Ignored while a
    /// send is in flight or once the answer is recorded.
    pub fn send(self, answer: AnswerInput) {
        if self.locked_untracked() {
            return;
        }
        let (session_id, item_id, pending_key) = self.ids.get_value();
        let response_ms = self.first_ms.get_value().unwrap_or_else(|| {
            let ms = elapsed_ms(self.shown_at);
            self.first_ms.set_value(Some(ms));
            ms
        });
        let request = SubmitAnswerRequest {
            item_id,
            idempotency_key: idempotency_key(&pending_key),
            answer,
            response_ms,
        };
        self.error.set(None);
        self.retries.set(0);
        self.sending.set(true);
        spawn_local(async move {
            // Resent by itself, with the same key and growing pauses, while the failure may
            // be temporary: the server records the answer once whatever happens. Stops when
            // the question is gone (navigation): nobody to tell.
            let outcome = api::with_resends(
                &RETRY_DELAYS_MS,
                || api::submit_answer(&session_id, &request),
                |n| self.retries.try_set(n).is_none(),
            )
            .await;
            if outcome.is_ok() {
                storage::remove(&pending_key);
            }
            // The question may be gone by now (navigation): then there is no one to tell.
            match outcome {
                Ok(ack) => {
                    let _ = self.recorded.try_set(Some(ack));
                }
                Err(e) => {
                    let _ = self.error.try_set(Some(e.to_string()));
                }
            }
            let _ = self.sending.try_set(false);
        });
    }

    /// Whether a send is in flight (tracked).
    pub fn sending(self) -> bool {
        self.sending.get()
    }

    /// Automatic resends of the send in flight so far (tracked; 0 on a first attempt).
    pub fn retries(self) -> u32 {
        self.retries.get()
    }

    /// Whether a send is in flight or the answer is recorded: inputs are then locked (tracked).
    pub fn locked(self) -> bool {
        self.sending.get() || self.recorded.with(Option::is_some)
    }

    /// [`Self::locked`], untracked (for event handlers).
    pub fn locked_untracked(self) -> bool {
        self.sending.get_untracked() || self.recorded.with_untracked(Option::is_some)
    }

    /// The error of the last attempt, if it failed (tracked).
    pub fn error(self) -> Option<String> {
        self.error.get()
    }

    /// The server's acknowledgement, once the answer is recorded (tracked).
    pub fn recorded(self) -> Option<SubmitAnswerResponse> {
        self.recorded.get()
    }
}

/// The failed-send notice with its retry button (`answer-error`, `retry-answer`).
#[component]
pub fn AnswerError(
    /// The sender whose error is shown.
    sender: AnswerSender,
    /// Sends the answer again (the same idempotency key is reused).
    on_retry: Callback<()>,
) -> impl IntoView {
    let i18n = use_i18n();
    let resending = move || {
        (sender.sending() && sender.retries() > 0).then(|| {
            view! {
                <p class="notice muted small" role="status" data-testid="answer-retrying">
                    {move || (i18n.t().answer_retrying)(sender.retries())}
                </p>
            }
        })
    };
    let failed = move || {
        sender.error().map(|detail| {
            view! {
                <div class="notice error" role="alert">
                    <p data-testid="answer-error">{move || i18n.t().answer_failed} {detail}</p>
                    <button
                        type="button"
                        class="button secondary"
                        data-testid="retry-answer"
                        disabled=move || sender.sending()
                        on:click=move |_| on_retry.run(())
                    >
                        {move || i18n.t().retry}
                    </button>
                </div>
            }
        })
    };
    view! {
        {resending}
        {failed}
    }
}
