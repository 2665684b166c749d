//! The question: the shown panels, the order being built, and Undo/Clear/Confirm.

use super::board::{position_of, Board};
use super::drag::{drag_ghost, follow_pointer, Drag};
use super::{texts, tx};
use crate::components::answer::{use_answer_sender, AnswerError, AnswerSender};
use crate::i18n::use_i18n;
use crate::kinds::panels::{panel_img, panel_label, ContextBlock};
use crate::kinds::{QuestionContext, QuestionHead};
use leptos::ev;
use leptos::prelude::*;
use memeboard_core::api::AnswerInput;
use memeboard_core::kinds::panel_order::{Input, View};
use memeboard_core::tasks::MediaRef;
use std::time::Duration;
use wasm_bindgen::JsCast;

/// Focuses the order-list entry of `panel` once the list has re-rendered (a moved entry
/// loses focus when its node moves).
fn refocus_entry(root: NodeRef<leptos::html::Section>, panel: usize) {
    set_timeout(
        move || {
            let entry = root.get_untracked().and_then(|r| {
                r.query_selector(&format!(
                    "[data-testid=\"order-slot\"][data-display=\"{panel}\"]"
                ))
                .ok()
                .flatten()
            });
            if let Some(e) = entry.and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok()) {
                let _ = e.focus();
            }
        },
        Duration::ZERO,
    );
}

/// One comic: context, the shown panels, the order being built, Undo/Clear/Confirm.
#[component]
pub(super) fn OrderQuestion(ctx: QuestionContext, view: View) -> impl IntoView {
    let i18n = use_i18n();
    let View { panels, context } = view;
    let n = panels.len();
    let panels = StoredValue::new(panels);
    let position = ctx.position;
    let on_ack = ctx.on_ack;
    let sender = use_answer_sender(&ctx.session_id, &ctx.item_id);
    Effect::new(move |_| {
        if let Some(ack) = sender.recorded() {
            on_ack.run((position, ack));
        }
    });

    let board = Board {
        n,
        order: RwSignal::new(Vec::new()),
        history: RwSignal::new(Vec::new()),
        picked: RwSignal::new(None),
        live: RwSignal::new(String::new()),
        i18n,
    };
    let root = NodeRef::<leptos::html::Section>::new();
    let list = NodeRef::<leptos::html::Ol>::new();
    let drag = RwSignal::new(None::<Drag>);
    let drop_at = RwSignal::new(None::<usize>);
    // The click that follows the pointerup ending a drag is not a tap.
    let swallow_click = StoredValue::new(false);

    let submit = move || {
        if sender.locked_untracked() || !board.order.with_untracked(|o| o.len() == n) {
            return;
        }
        board.picked.set(None);
        sender.send(AnswerInput::PanelOrder(Input {
            order: board.order.get_untracked(),
        }));
    };

    follow_pointer(board, sender, drag, drop_at, list, swallow_click);

    // Shared by the shown panels and the order entries.
    let press = move |ev: ev::PointerEvent, panel: usize, from_order: bool| {
        swallow_click.set_value(false);
        if ev.button() != 0 || sender.locked_untracked() {
            return;
        }
        let at = (f64::from(ev.client_x()), f64::from(ev.client_y()));
        drag.set(Some(Drag {
            panel,
            from_order,
            pointer_id: ev.pointer_id(),
            start: at,
            at,
            active: false,
        }));
    };
    let keys = move |ev: ev::KeyboardEvent, panel: usize, on_entry: bool| {
        if board.picked.get_untracked() != Some(panel) || sender.locked_untracked() {
            return;
        }
        let moved = match ev.key().as_str() {
            "ArrowUp" | "ArrowLeft" => Some(board.shift(panel, true)),
            "ArrowDown" | "ArrowRight" => Some(board.shift(panel, false)),
            "Escape" => {
                board.toggle_pick(panel);
                None
            }
            _ => return,
        };
        ev.prevent_default();
        if moved == Some(true) && on_entry {
            refocus_entry(root, panel);
        }
    };
    // A click from the keyboard (Enter/Space on a button) has `detail` 0; a tap or mouse
    // click has 1 or more.
    let activate = move |ev: ev::MouseEvent, panel: usize, on_entry: bool| {
        let swallowed = swallow_click.get_value();
        swallow_click.set_value(false);
        if (swallowed && ev.detail() != 0) || sender.locked_untracked() {
            return;
        }
        if ev.detail() == 0 {
            board.toggle_pick(panel);
            if on_entry {
                refocus_entry(root, panel);
            }
        } else if board.order.with_untracked(|o| o.contains(&panel)) {
            board.remove(panel);
        } else {
            board.picked.set(None);
            board.append(panel);
        }
    };

    let shown = panel_tiles(panels, board, sender, drag, press, keys, activate);

    let entries = order_entries(panels, board, sender, drop_at, press, keys, activate);

    let shown_id = format!("panels-shown-{position}");
    let order_id = format!("panels-order-{position}");
    view! {
        <section
            class="card question panel-question"
            data-testid="question"
            data-position=position.to_string()
            data-item-id=ctx.item_id.clone()
            node_ref=root
        >
            <QuestionHead
                position=position
                total=ctx.total
                answered_count=ctx.answered_count
                content_warning=ctx.content_warning
            />
            <ContextBlock context=context />
            <h3 id=shown_id.clone()>{tx(|t| t.shown_heading)}</h3>
            <p class="muted small">{tx(|t| t.how_to)}</p>
            <ul class="panel-grid" aria-labelledby=shown_id>
                {shown}
            </ul>
            <h3 id=order_id.clone()>{tx(|t| t.order_heading)}</h3>
            <ol
                class="order-list"
                class:drop-target=move || drop_at.get().is_some()
                class:drop-end=move || {
                    drop_at.get().is_some_and(|i| i >= board.order.with(Vec::len))
                }
                aria-labelledby=order_id
                node_ref=list
            >
                {entries}
            </ol>
            <p class="muted small" hidden=move || board.order.with(|o| !o.is_empty())>
                {tx(|t| t.order_empty)}
            </p>
            <p class="order-status small" role="status" aria-live="polite" data-testid="order-live">
                {move || board.live.get()}
            </p>
            <p class="muted small">
                {move || (texts(i18n.lang()).placed)(board.order.with(Vec::len), n)}
            </p>
            <AnswerError sender=sender on_retry=Callback::new(move |()| submit()) />
            {order_actions(board, sender, submit)}
            {drag_ghost(drag)}
        </section>
    }
}

/// The shown panels as buttons: tap to add or take out, press to drag, Enter/Space to pick
/// up; each says where it is placed.
fn panel_tiles(
    panels: StoredValue<Vec<MediaRef>>,
    board: Board,
    sender: AnswerSender,
    drag: RwSignal<Option<Drag>>,
    press: impl Fn(ev::PointerEvent, usize, bool) + Copy + Send + Sync + 'static,
    keys: impl Fn(ev::KeyboardEvent, usize, bool) + Copy + Send + Sync + 'static,
    activate: impl Fn(ev::MouseEvent, usize, bool) + Copy + Send + Sync + 'static,
) -> impl IntoView {
    let i18n = board.i18n;
    let n = board.n;
    let ordinal = move |k: usize| (texts(i18n.lang()).ordinal)(k);
    (1..=n)
        .map(|panel| {
            let placed_at = move || board.order.with(|o| position_of(o, panel));
            let img = panels.with_value(|p| p.get(panel - 1).map(|m| panel_img(m, panel - 1)));
            view! {
                <li>
                    <button
                        type="button"
                        class="panel-tile"
                        class:placed=move || placed_at().is_some()
                        class:picked=move || board.picked.get() == Some(panel)
                        class:dragging=move || {
                            drag.with(|d| d.is_some_and(|d| d.active && d.panel == panel))
                        }
                        data-testid="panel"
                        data-display=panel.to_string()
                        aria-pressed=move || {
                            if board.picked.get() == Some(panel) { "true" } else { "false" }
                        }
                        disabled=move || sender.locked()
                        on:pointerdown=move |ev| press(ev, panel, false)
                        on:keydown=move |ev| keys(ev, panel, false)
                        on:click=move |ev| activate(ev, panel, false)
                    >
                        {img}
                        <span class="panel-number">{move || panel_label(i18n.lang(), panel)}</span>
                        <span class="panel-placed">{move || placed_at().map(ordinal)}</span>
                    </button>
                </li>
            }
        })
        .collect_view()
}

/// The order being built, one button per placed panel (same gestures as the tiles).
fn order_entries(
    panels: StoredValue<Vec<MediaRef>>,
    board: Board,
    sender: AnswerSender,
    drop_at: RwSignal<Option<usize>>,
    press: impl Fn(ev::PointerEvent, usize, bool) + Copy + Send + Sync + 'static,
    keys: impl Fn(ev::KeyboardEvent, usize, bool) + Copy + Send + Sync + 'static,
    activate: impl Fn(ev::MouseEvent, usize, bool) + Copy + Send + Sync + 'static,
) -> impl IntoView {
    let i18n = board.i18n;
    let ordinal = move |k: usize| (texts(i18n.lang()).ordinal)(k);
    move || {
        let order = board.order.get();
        order
            .into_iter()
            .enumerate()
            .map(|(i, panel)| {
                let img = panels.with_value(|p| p.get(panel - 1).map(|m| panel_img(m, i)));
                view! {
                    <li class="order-entry" class:drop-before=move || drop_at.get() == Some(i)>
                        <button
                            type="button"
                            class="order-slot"
                            class:picked=move || board.picked.get() == Some(panel)
                            data-testid="order-slot"
                            data-display=panel.to_string()
                            aria-pressed=move || {
                                if board.picked.get() == Some(panel) { "true" } else { "false" }
                            }
                            disabled=move || sender.locked()
                            on:pointerdown=move |ev| press(ev, panel, true)
                            on:keydown=move |ev| keys(ev, panel, true)
                            on:click=move |ev| activate(ev, panel, true)
                        >
                            <span class="slot-ordinal">{move || ordinal(i + 1)}</span>
                            {img}
                            <span class="panel-number">
                                {move || panel_label(i18n.lang(), panel)}
                            </span>
                        </button>
                    </li>
                }
            })
            .collect_view()
    }
}

/// Undo, Clear and Confirm.
fn order_actions(
    board: Board,
    sender: AnswerSender,
    submit: impl Fn() + Copy + Send + Sync + 'static,
) -> impl IntoView {
    let i18n = board.i18n;
    view! {
    <div class="actions">
        <button
            type="button"
            class="button secondary"
            data-testid="order-undo"
            disabled=move || sender.locked() || board.history.with(Vec::is_empty)
            on:click=move |_| board.undo()
        >
            {tx(|t| t.undo)}
        </button>
        <button
            type="button"
            class="button secondary"
            data-testid="order-clear"
            disabled=move || sender.locked() || board.order.with(Vec::is_empty)
            on:click=move |_| board.clear()
        >
            {tx(|t| t.clear)}
        </button>
        <button
            type="button"
            class="button primary"
            data-testid="order-confirm"
            disabled=move || sender.locked() || !board.complete()
            on:click=move |_| submit()
        >
            {move || if sender.locked() { texts(i18n.lang()).saving } else { texts(i18n.lang()).confirm }}
        </button>
    </div>
    }
}
