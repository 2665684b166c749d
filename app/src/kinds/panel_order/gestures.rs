//! What a press, a key and a click do on a panel, the same on the shown panels and on the
//! order's entries: a press may start a drag; Enter places a panel or picks a placed one up,
//! the arrow keys move it, Escape or Tab put it down, Delete takes it out; a tap places or
//! takes out.

use super::board::Board;
use super::drag::Drag;
use crate::components::answer::AnswerSender;
use leptos::ev;
use leptos::prelude::*;
use std::time::Duration;

/// Focuses the `testid` element (`order-slot`, `panel`) of `panel` once the list has
/// re-rendered (a moved or removed entry loses focus when its node goes).
fn refocus(root: NodeRef<leptos::html::Section>, testid: &'static str, panel: usize) {
    set_timeout(
        move || {
            if let Some(r) = root.get_untracked() {
                crate::browser::focus_selector(
                    Some(r.as_ref()),
                    &format!("[data-testid=\"{testid}\"][data-display=\"{panel}\"]"),
                );
            }
        },
        Duration::ZERO,
    );
}

/// The question's state the gestures act on. `Copy`, for the handlers of every panel.
#[derive(Clone, Copy)]
pub(super) struct Gestures {
    /// The order being built.
    pub(super) board: Board,
    /// The answer's sender (locked while it is sent).
    pub(super) sender: AnswerSender,
    /// The question, for refocusing after a change.
    pub(super) root: NodeRef<leptos::html::Section>,
    /// The press under way that may become a drag.
    pub(super) drag: RwSignal<Option<Drag>>,
    /// The click that follows the pointerup ending a drag is not a tap.
    pub(super) swallow_click: StoredValue<bool>,
}

impl Gestures {
    /// A pointer press on a panel (`from_order`: on an entry of the order): may become a drag.
    pub(super) fn press(self, ev: ev::PointerEvent, panel: usize, from_order: bool) {
        let Self {
            sender,
            drag,
            swallow_click,
            ..
        } = self;
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
    }

    /// A key on a panel (`on_entry`: an entry of the order): Delete takes a placed one out;
    /// on the picked-up panel the arrows move it, Escape and Tab put it down.
    pub(super) fn key(self, ev: ev::KeyboardEvent, panel: usize, on_entry: bool) {
        let Self {
            board,
            sender,
            root,
            ..
        } = self;
        if sender.locked_untracked() {
            return;
        }
        let key = ev.key();
        let placed = board.order.with_untracked(|o| o.contains(&panel));
        if placed && matches!(key.as_str(), "Delete" | "Backspace") {
            ev.prevent_default();
            board.remove(panel);
            // An entry leaves the list with its focus: back to the panel's tile.
            if on_entry {
                refocus(root, "panel", panel);
            }
            return;
        }
        if board.picked.get_untracked() != Some(panel) {
            return;
        }
        let moved = match key.as_str() {
            // Leaving a picked panel puts it down: no pick survives out of sight.
            "Tab" => {
                board.toggle_pick(panel);
                return;
            }
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
            refocus(root, "order-slot", panel);
        }
    }

    /// A click on a panel: from the keyboard (Enter/Space on a button: `detail` 0) it places
    /// an unplaced panel last or picks a placed one up (or puts it down); a tap or mouse
    /// click (`detail` ≥ 1) places or takes out.
    pub(super) fn activate(self, ev: ev::MouseEvent, panel: usize, on_entry: bool) {
        let Self {
            board,
            sender,
            root,
            swallow_click,
            ..
        } = self;
        let swallowed = swallow_click.get_value();
        swallow_click.set_value(false);
        if (swallowed && ev.detail() != 0) || sender.locked_untracked() {
            return;
        }
        let placed = board.order.with_untracked(|o| o.contains(&panel));
        if ev.detail() == 0 && !placed {
            // Enter on a panel not in the order yet places it last, without picking it up.
            board.append(panel);
        } else if ev.detail() == 0 {
            board.toggle_pick(panel);
            if on_entry {
                refocus(root, "order-slot", panel);
            }
        } else if board.order.with_untracked(|o| o.contains(&panel)) {
            board.remove(panel);
        } else {
            board.picked.set(None);
            board.append(panel);
        }
    }
}
