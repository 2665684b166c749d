//! Dragging panels with a pointer (mouse, pen, touch): the press that may become a drag,
//! where it would drop, and the window listeners that follow it.

use super::board::Board;
use crate::components::answer::AnswerSender;
use crate::i18n::use_i18n;
use crate::kinds::panels::panel_label;
use leptos::ev;
use leptos::prelude::*;

/// How far (CSS px) a pointer must move before a press becomes a drag rather than a tap.
const DRAG_THRESHOLD_PX: f64 = 6.0;
/// How far (CSS px) outside the order list a drag still drops into it.
const DROP_MARGIN_PX: f64 = 24.0;

/// A pointer press on a panel that may become a drag.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Drag {
    /// The displayed panel number.
    pub(super) panel: usize,
    /// Started on an entry of the order list (dropping it outside takes it out).
    pub(super) from_order: bool,
    /// The pointer that pressed.
    pub(super) pointer_id: i32,
    /// Where it pressed (client px).
    pub(super) start: (f64, f64),
    /// Where it is now (client px).
    pub(super) at: (f64, f64),
    /// Moved past the threshold: a drag, not a tap.
    pub(super) active: bool,
}

/// Where a drag at `(x, y)` would drop into the order list `list`: the index to insert
/// before, or `None` when the pointer is not over the list. Works for wrapped rows.
fn drop_index(list: &web_sys::Element, (x, y): (f64, f64)) -> Option<usize> {
    let r = list.get_bounding_client_rect();
    let inside = x >= r.left() - DROP_MARGIN_PX
        && x <= r.right() + DROP_MARGIN_PX
        && y >= r.top() - DROP_MARGIN_PX
        && y <= r.bottom() + DROP_MARGIN_PX;
    if !inside {
        return None;
    }
    let entries = list.children();
    let count = entries.length();
    for i in 0..count {
        let Some(entry) = entries.item(i) else {
            continue;
        };
        let e = entry.get_bounding_client_rect();
        let before_row = y < e.top();
        let in_row_before = y <= e.bottom() && x < e.left() + e.width() / 2.0;
        if before_row || in_row_before {
            return Some(i as usize);
        }
    }
    Some(count as usize)
}

/// The label that follows the pointer while dragging (built once per drag).
pub(super) fn drag_ghost(drag: RwSignal<Option<Drag>>) -> impl IntoView {
    let i18n = use_i18n();
    let dragged = Memo::new(move |_| drag.with(|d| d.filter(|d| d.active).map(|d| d.panel)));
    let pointer = move || drag.with(|d| d.map(|d| d.at).unwrap_or_default());
    move || {
        dragged.get().map(|panel| {
            view! {
                <div
                    class="drag-ghost"
                    aria-hidden="true"
                    style:left=move || format!("{}px", pointer().0)
                    style:top=move || format!("{}px", pointer().1)
                >
                    {move || panel_label(i18n.lang(), panel)}
                </div>
            }
        })
    }
}

/// Follows pointer moves and releases on the window, so a drag may leave the panel: moves
/// the drop mark, and drops (or takes out) the dragged panel on release.
pub(super) fn follow_pointer(
    board: Board,
    sender: AnswerSender,
    drag: RwSignal<Option<Drag>>,
    drop_at: RwSignal<Option<usize>>,
    list: NodeRef<leptos::html::Ol>,
    swallow_click: StoredValue<bool>,
) {
    let on_move = window_event_listener(ev::pointermove, move |ev| {
        let Some(mut d) = drag.get_untracked() else {
            return;
        };
        if ev.pointer_id() != d.pointer_id {
            return;
        }
        d.at = (f64::from(ev.client_x()), f64::from(ev.client_y()));
        if !d.active {
            let (dx, dy) = (d.at.0 - d.start.0, d.at.1 - d.start.1);
            if dx.hypot(dy) < DRAG_THRESHOLD_PX {
                return;
            }
            d.active = true;
            board.picked.set(None);
        }
        ev.prevent_default();
        let target = list.get_untracked().and_then(|l| drop_index(&l, d.at));
        if drop_at.get_untracked() != target {
            drop_at.set(target);
        }
        drag.set(Some(d));
    });
    let on_up = window_event_listener(ev::pointerup, move |ev| {
        let Some(d) = drag.get_untracked() else {
            return;
        };
        if ev.pointer_id() != d.pointer_id {
            return;
        }
        drag.set(None);
        let target = drop_at.get_untracked();
        drop_at.set(None);
        if !d.active || sender.locked_untracked() {
            return;
        }
        swallow_click.set_value(true);
        match target {
            Some(i) => board.place(d.panel, i),
            None if d.from_order => board.remove(d.panel),
            None => {}
        }
    });
    let on_cancel = window_event_listener(ev::pointercancel, move |_| {
        drag.set(None);
        drop_at.set(None);
    });
    on_cleanup(move || {
        on_move.remove();
        on_up.remove();
        on_cancel.remove();
    });
}
