//! The question: the shown panels, the order being built, and Undo/Clear/Confirm.

use super::board::{position_of, Board};
use super::drag::{drag_ghost, follow_pointer, Drag};
use super::gestures::Gestures;
use super::zoom::{PanelZoom, ZoomButton};
use super::Texts;
use crate::components::answer::{AnswerError, AnswerSender};
use crate::i18n::{use_i18n, StringTable};
use crate::kinds::cards::{question_head, use_acked_sender};
use crate::kinds::panels::{panel_img, panel_label, ContextBlock};
use crate::kinds::QuestionContext;
use leptos::prelude::*;
use memeboard_core::api::AnswerInput;
use memeboard_core::kinds::panel_order::{Input, View};
use memeboard_core::tasks::MediaRef;

/// One comic: context, the shown panels, the order being built, Undo/Clear/Confirm.
#[component]
pub(super) fn OrderQuestion(ctx: QuestionContext, view: View) -> impl IntoView {
    let i18n = use_i18n();
    let View { panels, context } = view;
    let n = panels.len();
    let panels = StoredValue::new(panels);
    let position = ctx.position;
    let sender = use_acked_sender(&ctx);

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

    let gestures = Gestures {
        board,
        sender,
        root,
        drag,
        swallow_click,
    };
    let zoomed = RwSignal::new(None::<usize>);
    let tiles = TileState { drag, zoomed };
    let shown = panel_tiles(panels, gestures, tiles);

    let entries = order_entries(panels, gestures, drop_at);

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
            {question_head(&ctx)}
            <ContextBlock context=context />
            <h2 id=shown_id.clone()>{Texts::text(|t| t.shown_heading)}</h2>
            <p class="muted small">
                {Texts::text(|t| t.how_to)} " " <span class="drag-hint">{Texts::text(|t| t.drag_hint)}</span>
            </p>
            <p class="muted small kbd-hint">{Texts::text(|t| t.keys_hint)}</p>
            <ul class="panel-grid" aria-labelledby=shown_id>
                {shown}
            </ul>
            <PanelZoom panels=panels zoomed=zoomed />
            // On a phone the order and its buttons stay in view at the bottom while the
            // panels scroll (style: .order-dock).
            <div class="order-dock">
            <h2 id=order_id.clone()>{Texts::text(|t| t.order_heading)}</h2>
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
                {Texts::text(|t| t.order_empty)}
            </p>
            <p class="order-status small" role="status" aria-live="polite" data-testid="order-live">
                {move || board.live.get()}
            </p>
            <p class="muted small">
                {move || (i18n.table::<Texts>().placed)(board.order.with(Vec::len), n)}
            </p>
            <AnswerError sender=sender on_retry=Callback::new(move |()| submit()) />
            {order_actions(board, sender, submit)}
            </div>
            {drag_ghost(drag)}
        </section>
    }
}

/// What the tiles show besides the order: the drag under way and the enlarged panel.
#[derive(Clone, Copy)]
struct TileState {
    drag: RwSignal<Option<Drag>>,
    zoomed: RwSignal<Option<usize>>,
}

/// The shown panels as buttons: tap to add or take out, press to drag, Enter/Space to place
/// (or pick up a placed one); each says where it is placed and has its enlarge button.
fn panel_tiles(
    panels: StoredValue<Vec<MediaRef>>,
    g: Gestures,
    TileState { drag, zoomed }: TileState,
) -> impl IntoView {
    let (board, sender) = (g.board, g.sender);
    let i18n = board.i18n;
    let n = board.n;
    let ordinal = move |k: usize| (i18n.table::<Texts>().ordinal)(k);
    (1..=n)
        .map(|panel| {
            let placed_at = move || board.order.with(|o| position_of(o, panel));
            let img = panels.with_value(|p| p.get(panel - 1).map(|m| panel_img(m, panel - 1)));
            view! {
                <li class="panel-cell">
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
                        on:pointerdown=move |ev| g.press(ev, panel, false)
                        on:keydown=move |ev| g.key(ev, panel, false)
                        on:click=move |ev| g.activate(ev, panel, false)
                    >
                        {img}
                        <span class="panel-number">{move || panel_label(i18n.lang(), panel)}</span>
                        <span class="panel-placed">{move || placed_at().map(ordinal)}</span>
                    </button>
                    <ZoomButton panel=panel zoomed=zoomed />
                </li>
            }
        })
        .collect_view()
}

/// The order being built, one button per placed panel (same gestures as the tiles).
fn order_entries(
    panels: StoredValue<Vec<MediaRef>>,
    g: Gestures,
    drop_at: RwSignal<Option<usize>>,
) -> impl IntoView {
    let (board, sender) = (g.board, g.sender);
    let i18n = board.i18n;
    let ordinal = move |k: usize| (i18n.table::<Texts>().ordinal)(k);
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
                            on:pointerdown=move |ev| g.press(ev, panel, true)
                            on:keydown=move |ev| g.key(ev, panel, true)
                            on:click=move |ev| g.activate(ev, panel, true)
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
            {Texts::text(|t| t.undo)}
        </button>
        <button
            type="button"
            class="button secondary"
            data-testid="order-clear"
            disabled=move || sender.locked() || board.order.with(Vec::is_empty)
            on:click=move |_| board.clear()
        >
            {Texts::text(|t| t.clear)}
        </button>
        <button
            type="button"
            class="button primary"
            data-testid="order-confirm"
            disabled=move || sender.locked() || !board.complete()
            on:click=move |_| submit()
        >
            {move || if sender.locked() { i18n.table::<Texts>().saving } else { i18n.table::<Texts>().confirm }}
        </button>
    </div>
    }
}
