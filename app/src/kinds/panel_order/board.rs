//! The order being built: placing, moving and removing panels, keyboard pick-up of placed
//! panels, Undo and Clear, each announced for screen readers.

use super::Texts;
use crate::i18n::{I18n, Lang};
use leptos::prelude::*;

/// `order` with `panel` placed before the entry now at `before` (moved if already there).
pub(super) fn place(order: &[usize], panel: usize, before: usize) -> Vec<usize> {
    let mut out = order.to_vec();
    let mut at = before.min(out.len());
    if let Some(p) = out.iter().position(|&x| x == panel) {
        out.remove(p);
        if p < at {
            at -= 1;
        }
    }
    out.insert(at.min(out.len()), panel);
    out
}

/// `order` with `panel` one step earlier (`earlier`) or later; `None` at either end or when
/// the panel is not placed.
pub(super) fn step(order: &[usize], panel: usize, earlier: bool) -> Option<Vec<usize>> {
    let p = order.iter().position(|&x| x == panel)?;
    let q = if earlier {
        p.checked_sub(1)?
    } else {
        Some(p + 1).filter(|&q| q < order.len())?
    };
    let mut out = order.to_vec();
    out.swap(p, q);
    Some(out)
}

/// 1-based position of `panel` in `order`.
pub(super) fn position_of(order: &[usize], panel: usize) -> Option<usize> {
    order.iter().position(|&x| x == panel).map(|p| p + 1)
}

/// The order being built, with its undo history and the keyboard pick. `Copy` for handlers.
#[derive(Debug, Clone, Copy)]
pub(super) struct Board {
    /// Number of panels.
    pub(super) n: usize,
    /// Displayed numbers in reading order so far.
    pub(super) order: RwSignal<Vec<usize>>,
    /// Earlier orders, latest last (Undo).
    pub(super) history: RwSignal<Vec<Vec<usize>>>,
    /// The panel picked up by keyboard.
    pub(super) picked: RwSignal<Option<usize>>,
    /// The latest announcement.
    pub(super) live: RwSignal<String>,
    /// The language of announcements (event handlers run outside the component's owner).
    pub(super) i18n: I18n,
}

impl Board {
    /// Replaces the order, remembering the old one for Undo (no-op when unchanged).
    fn change(self, new: Vec<usize>) {
        let old = self.order.get_untracked();
        if old != new {
            self.history.update(|h| h.push(old));
            self.order.set(new);
        }
    }

    fn announce(self, text: String) {
        self.live.set(text);
    }

    fn lang(self) -> Lang {
        self.i18n.lang_untracked()
    }

    /// Puts `panel` before the entry at `before` and says so.
    pub(super) fn place(self, panel: usize, before: usize) {
        let was_placed = self.order.with_untracked(|o| o.contains(&panel));
        let new = self.order.with_untracked(|o| place(o, panel, before));
        let k = position_of(&new, panel).unwrap_or(0);
        self.change(new);
        let t = self.lang().table::<Texts>();
        let say = if was_placed { t.moved } else { t.added };
        self.announce(say(panel, k, self.n));
    }

    /// Adds `panel` at the end of the order.
    pub(super) fn append(self, panel: usize) {
        self.place(panel, usize::MAX);
    }

    /// Takes `panel` out of the order.
    pub(super) fn remove(self, panel: usize) {
        let new: Vec<usize> = self
            .order
            .with_untracked(|o| o.iter().copied().filter(|&x| x != panel).collect());
        self.change(new);
        if self.picked.get_untracked() == Some(panel) {
            self.picked.set(None);
        }
        self.announce((self.lang().table::<Texts>().removed)(panel));
    }

    /// Keyboard Enter/Space on a placed panel: picks it up, or drops it when it is the one
    /// picked up (an unplaced one is placed instead: [`Board::append`]).
    pub(super) fn toggle_pick(self, panel: usize) {
        let t = self.lang().table::<Texts>();
        if self.picked.get_untracked() == Some(panel) {
            self.picked.set(None);
            let k = self
                .order
                .with_untracked(|o| position_of(o, panel))
                .unwrap_or(0);
            self.announce((t.dropped)(panel, k, self.n));
            return;
        }
        self.picked.set(Some(panel));
        let k = self
            .order
            .with_untracked(|o| position_of(o, panel))
            .unwrap_or(0);
        self.announce((t.picked)(panel, k, self.n));
    }

    /// Arrow keys on the picked panel: one step earlier or later. Whether it moved.
    pub(super) fn shift(self, panel: usize, earlier: bool) -> bool {
        let Some(new) = self.order.with_untracked(|o| step(o, panel, earlier)) else {
            return false;
        };
        let k = position_of(&new, panel).unwrap_or(0);
        self.change(new);
        self.announce((self.lang().table::<Texts>().moved)(panel, k, self.n));
        true
    }

    pub(super) fn undo(self) {
        let mut previous = None;
        self.history.update(|h| previous = h.pop());
        if let Some(p) = previous {
            if let Some(picked) = self.picked.get_untracked() {
                if !p.contains(&picked) {
                    self.picked.set(None);
                }
            }
            self.order.set(p);
            self.announce(self.lang().table::<Texts>().undone.to_owned());
        }
    }

    pub(super) fn clear(self) {
        self.change(Vec::new());
        self.picked.set(None);
        self.announce(self.lang().table::<Texts>().cleared.to_owned());
    }

    pub(super) fn complete(self) -> bool {
        self.order.with(|o| o.len() == self.n)
    }
}
