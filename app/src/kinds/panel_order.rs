//! Multi-panel order recovery in the browser: the participant puts a comic's shuffled panels
//! back in reading order by tapping them in sequence, by dragging (pointer events: mouse, pen
//! and touch), or by keyboard alone; then the review card, the "k / n in the right order"
//! score, and the submit page's help, file check and dev preview.
//!
//! Orders are kept and sent as DISPLAYED panel numbers (1-based), as in prediction files.

use super::panels::{
    correctness_summary, groups_text, order_text, panel_file_check, panel_img, panel_label,
    ContextBlock, DevLine, ReviewStrip,
};
use super::{QuestionContext, QuestionHead, ReviewContext, UiKind, ValidFile};
use crate::api;
use crate::components::answer::{use_answer_sender, AnswerError};
use crate::format::{self, DASH};
use crate::i18n::{use_i18n, I18n, Lang};
use leptos::ev;
use leptos::prelude::*;
use memeboard_core::api::{AnswerInput, ResultsResponse};
use memeboard_core::kinds::panel_order::{Input, PanelOrder, Review, View};
use memeboard_core::predictions::panels::validate_orders;
use memeboard_core::predictions::{FileFormat, Limits, TaskManifest};
use memeboard_core::scoring::is_linear_extension;
use memeboard_core::tasks::CategoryInfo;
use serde::Deserialize;
use std::time::Duration;
use wasm_bindgen::JsCast;

/// How far (CSS px) a pointer must move before a press becomes a drag rather than a tap.
const DRAG_THRESHOLD_PX: f64 = 6.0;
/// How far (CSS px) outside the order list a drag still drops into it.
const DROP_MARGIN_PX: f64 = 24.0;

/// This kind's interface strings (the generic ones are in [`crate::i18n`]).
#[derive(Debug)]
struct Texts {
    /// The kind in words.
    name: &'static str,
    /// Consent page: what the participant will do.
    instructions: &'static str,
    /// Question: heading of the shown panels.
    shown_heading: &'static str,
    /// Question: how to build the order.
    how_to: &'static str,
    /// Question: heading of the order being built.
    order_heading: &'static str,
    /// Question: the order is empty.
    order_empty: &'static str,
    /// "1st", "2nd" (Chinese: "第1").
    ordinal: fn(usize) -> String,
    /// Undo button.
    undo: &'static str,
    /// Clear button.
    clear: &'static str,
    /// Confirm button.
    confirm: &'static str,
    /// Confirm button while sending.
    saving: &'static str,
    /// Status: placed so far (placed, total).
    placed: fn(usize, usize) -> String,
    /// Announcement: a panel joined the order (panel, position, total).
    added: fn(usize, usize, usize) -> String,
    /// Announcement: a panel moved (panel, position, total).
    moved: fn(usize, usize, usize) -> String,
    /// Announcement: a panel left the order.
    removed: fn(usize) -> String,
    /// Announcement: a panel was picked up by keyboard (panel, position, total).
    picked: fn(usize, usize, usize) -> String,
    /// Announcement: a picked-up panel was put down (panel, position, total).
    dropped: fn(usize, usize, usize) -> String,
    /// Announcement: the last change was undone.
    undone: &'static str,
    /// Announcement: the order was cleared.
    cleared: &'static str,
    /// Review: the participant's order.
    your_order: &'static str,
    /// Review: a right reading order.
    reading_order: &'static str,
    /// Review: what parentheses mean.
    groups_note: &'static str,
    /// Results: after "3 / 5".
    score_suffix: &'static str,
    /// Submit help: JSON Lines.
    help_jsonl: &'static str,
    /// Submit help: CSV.
    help_csv: &'static str,
    /// Submit help: which numbers.
    help_numbers: &'static str,
    /// Submit help: unreadable answers.
    help_unparseable: &'static str,
    /// Submit help: missing items.
    help_missing: &'static str,
}

static ZH: Texts = Texts {
    name: "漫画排序（多格漫画）",
    instructions: "每道题给出一则多格漫画，各格已被打乱，并按显示顺序编号。请把它们恢复成阅读顺序：按你阅读的先后依次点按各格，或把各格拖入“你的顺序”中（键盘：Tab 移到某一格，Enter 或空格拿起，方向键移动，再按 Enter 或空格放下）。有些格子的先后无关紧要，任何合理的阅读顺序都算对。",
    shown_heading: "打乱后的各格（按显示编号）",
    how_to: "按阅读顺序依次点按各格，或把格子拖到下面的顺序里；再点一次已放入的格子可将其取出。键盘：Tab 移到某一格，Enter 或空格拿起，↑/← 前移，↓/→ 后移，再按 Enter 或空格放下。",
    order_heading: "你的顺序",
    order_empty: "还没有放入任何一格：先点按最先读的那一格。",
    ordinal: |k| format!("第{k}"),
    undo: "撤销",
    clear: "清空",
    confirm: "确认顺序",
    saving: "保存中…",
    placed: |k, n| format!("已放入 {k} / {n} 格"),
    added: |p, k, n| format!("第 {p} 格放在第 {k} 位（共 {n} 格）"),
    moved: |p, k, n| format!("第 {p} 格移到第 {k} 位（共 {n} 格）"),
    removed: |p| format!("第 {p} 格已取出"),
    picked: |p, k, n| format!("已拿起第 {p} 格，在第 {k} 位（共 {n} 格）。方向键移动，Enter 或空格放下。"),
    dropped: |p, k, n| format!("第 {p} 格放在第 {k} 位（共 {n} 格）"),
    undone: "已撤销上一步",
    cleared: "顺序已清空",
    your_order: "你的顺序",
    reading_order: "正确的阅读顺序",
    groups_note: "括号内的格子可按任意顺序阅读。",
    score_suffix: " 排序正确",
    help_jsonl: "JSON Lines：每行一个对象，给出题目编号和阅读顺序，顺序可以是数组，也可以是逗号分隔的字符串：",
    help_csv: "CSV：首行为表头 item_id,order，之后每行一条预测（顺序含逗号，需加引号）：",
    help_numbers: "数字是各格的显示编号（与 inputs.jsonl 中的顺序相同，从 1 开始），按阅读先后排列，每格恰好一次。",
    help_unparseable: "无法解析的答案不会导致文件被拒绝，而是计入统计、按答错计分，并降低可解析率。",
    help_missing: "没有预测的题目计为无法解析，按答错计分。",
};

static EN: Texts = Texts {
    name: "Panel order (multi-panel comics)",
    instructions: "Each question shows the panels of a comic in a shuffled order, numbered as shown. Put them back in reading order: tap or click the panels in the order you would read them, or drag them into “your order” (keyboard: Tab to a panel, Enter or Space picks it up, arrow keys move it, Enter or Space drops it). Where some panels can be read in either order, any valid reading order counts as right.",
    shown_heading: "The panels, shuffled (numbered as shown)",
    how_to: "Tap the panels in reading order, or drag them into your order below; tap a placed panel again to take it out. Keyboard: Tab to a panel, Enter or Space picks it up, ↑/← moves it earlier, ↓/→ later, Enter or Space drops it.",
    order_heading: "Your order",
    order_empty: "No panels yet: tap the panel you would read first.",
    ordinal: |k| {
        let suffix = match (k % 10, k % 100) {
            (_, 11..=13) => "th",
            (1, _) => "st",
            (2, _) => "nd",
            (3, _) => "rd",
            _ => "th",
        };
        format!("{k}{suffix}")
    },
    undo: "Undo",
    clear: "Clear",
    confirm: "Confirm order",
    saving: "Saving…",
    placed: |k, n| format!("{k} of {n} panels placed"),
    added: |p, k, n| format!("Panel {p} placed at position {k} of {n}"),
    moved: |p, k, n| format!("Panel {p} moved to position {k} of {n}"),
    removed: |p| format!("Panel {p} taken out of the order"),
    picked: |p, k, n| format!("Panel {p} picked up, at position {k} of {n}. Arrow keys move it; Enter or Space drops it."),
    dropped: |p, k, n| format!("Panel {p} dropped at position {k} of {n}"),
    undone: "Last change undone",
    cleared: "Order cleared",
    your_order: "Your order",
    reading_order: "A right reading order",
    groups_note: "Panels in parentheses may be read in any order.",
    score_suffix: " in the right order",
    help_jsonl: "JSON Lines: one object per line with the item id and the reading order, as an array or as a comma-separated string:",
    help_csv: "CSV: a header row item_id,order, then one prediction per row (quote the order, it contains commas):",
    help_numbers: "The numbers are DISPLAYED panel numbers, counted from 1 in the order inputs.jsonl lists the panels, first panel to read first, each panel once.",
    help_unparseable: "Answers that cannot be read do not make the file fail: they are counted, scored as wrong, and lower the file's parse rate.",
    help_missing: "Items without a prediction count as unparseable and are scored as wrong.",
};

fn texts(lang: Lang) -> &'static Texts {
    match lang {
        Lang::Zh => &ZH,
        Lang::En => &EN,
    }
}

/// A string of [`Texts`] that follows the language.
fn tx(pick: fn(&'static Texts) -> &'static str) -> impl Fn() -> &'static str + Copy + Send + Sync {
    let i18n = use_i18n();
    move || pick(texts(i18n.lang()))
}

/// A dev gold line of an order task: the reading order in groups over DISPLAYED numbers.
#[derive(Debug, Clone, Deserialize)]
pub struct OrderGold {
    item_id: String,
    category: String,
    order_groups_display: Vec<Vec<usize>>,
}

impl DevLine for OrderGold {
    type Value = Vec<usize>;

    fn item_id(&self) -> &str {
        &self.item_id
    }

    fn category(&self) -> &str {
        &self.category
    }

    fn is_right(&self, order: &Vec<usize>) -> bool {
        is_linear_extension(order, &self.order_groups_display)
    }
}

impl UiKind for PanelOrder {
    type DevGold = Vec<OrderGold>;

    fn name(lang: Lang) -> &'static str {
        texts(lang).name
    }

    fn instructions(lang: Lang) -> &'static str {
        texts(lang).instructions
    }

    fn question(ctx: QuestionContext, view: View) -> AnyView {
        view! { <OrderQuestion ctx=ctx view=view /> }.into_any()
    }

    fn review_card(ctx: ReviewContext, review: Review) -> AnyView {
        view! { <ReviewCard ctx=ctx review=review /> }.into_any()
    }

    fn score_summary(results: &ResultsResponse) -> AnyView {
        correctness_summary(results, |lang| texts(lang).score_suffix)
    }

    fn submit_help() -> AnyView {
        view! {
            <div data-testid="help-panel-order">
                <p>{tx(|t| t.help_jsonl)}</p>
                <pre><code>
                    "{\"item_id\": \"ITEM_ID\", \"order\": [3, 1, 2, 4]}\n{\"item_id\": \"ITEM_ID\", \"order\": \"3,1,2,4\"}"
                </code></pre>
                <p>{tx(|t| t.help_csv)}</p>
                <pre><code>"item_id,order\nITEM_ID,\"3,1,2,4\""</code></pre>
                <p>{tx(|t| t.help_numbers)}</p>
                <p>{tx(|t| t.help_unparseable)}</p>
                <p>
                    <strong>{tx(|t| t.help_missing)}</strong>
                </p>
            </div>
        }
        .into_any()
    }

    /// Without dev gold the file is still checked; the preview just has no score.
    async fn load_dev_gold(slug: String) -> Vec<OrderGold> {
        api::dev_gold_lines(&slug).await.unwrap_or_default()
    }

    fn check_file(
        text: &str,
        format: FileFormat,
        manifest: &TaskManifest,
        dev: &Vec<OrderGold>,
        categories: &[CategoryInfo],
    ) -> Result<ValidFile, Vec<String>> {
        let valid = validate_orders(text, format, manifest, Limits::default())
            .map_err(|report| report.lines_in(crate::i18n::current_lang().locale()))?;
        Ok(panel_file_check(&valid, manifest, dev, categories))
    }
}

/// `order` with `panel` placed before the entry now at `before` (moved if already there).
fn place(order: &[usize], panel: usize, before: usize) -> Vec<usize> {
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
fn step(order: &[usize], panel: usize, earlier: bool) -> Option<Vec<usize>> {
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
fn position_of(order: &[usize], panel: usize) -> Option<usize> {
    order.iter().position(|&x| x == panel).map(|p| p + 1)
}

/// A pointer press on a panel that may become a drag.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Drag {
    /// The displayed panel number.
    panel: usize,
    /// Started on an entry of the order list (dropping it outside takes it out).
    from_order: bool,
    /// The pointer that pressed.
    pointer_id: i32,
    /// Where it pressed (client px).
    start: (f64, f64),
    /// Where it is now (client px).
    at: (f64, f64),
    /// Moved past the threshold: a drag, not a tap.
    active: bool,
}

/// The order being built, with its undo history and the keyboard pick. `Copy` for handlers.
#[derive(Debug, Clone, Copy)]
struct Board {
    /// Number of panels.
    n: usize,
    /// Displayed numbers in reading order so far.
    order: RwSignal<Vec<usize>>,
    /// Earlier orders, latest last (Undo).
    history: RwSignal<Vec<Vec<usize>>>,
    /// The panel picked up by keyboard.
    picked: RwSignal<Option<usize>>,
    /// The latest announcement.
    live: RwSignal<String>,
    /// The language of announcements (event handlers run outside the component's owner).
    i18n: I18n,
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
    fn place(self, panel: usize, before: usize) {
        let was_placed = self.order.with_untracked(|o| o.contains(&panel));
        let new = self.order.with_untracked(|o| place(o, panel, before));
        let k = position_of(&new, panel).unwrap_or(0);
        self.change(new);
        let t = texts(self.lang());
        let say = if was_placed { t.moved } else { t.added };
        self.announce(say(panel, k, self.n));
    }

    /// Adds `panel` at the end of the order.
    fn append(self, panel: usize) {
        self.place(panel, usize::MAX);
    }

    /// Takes `panel` out of the order.
    fn remove(self, panel: usize) {
        let new: Vec<usize> = self
            .order
            .with_untracked(|o| o.iter().copied().filter(|&x| x != panel).collect());
        self.change(new);
        if self.picked.get_untracked() == Some(panel) {
            self.picked.set(None);
        }
        self.announce((texts(self.lang()).removed)(panel));
    }

    /// Keyboard Enter/Space on a panel: picks it up (placing it at the end if it is not in
    /// the order yet), or drops it when it is the one picked up.
    fn toggle_pick(self, panel: usize) {
        let t = texts(self.lang());
        if self.picked.get_untracked() == Some(panel) {
            self.picked.set(None);
            let k = self
                .order
                .with_untracked(|o| position_of(o, panel))
                .unwrap_or(0);
            self.announce((t.dropped)(panel, k, self.n));
            return;
        }
        if !self.order.with_untracked(|o| o.contains(&panel)) {
            let new = self.order.with_untracked(|o| place(o, panel, usize::MAX));
            self.change(new);
        }
        self.picked.set(Some(panel));
        let k = self
            .order
            .with_untracked(|o| position_of(o, panel))
            .unwrap_or(0);
        self.announce((t.picked)(panel, k, self.n));
    }

    /// Arrow keys on the picked panel: one step earlier or later. Whether it moved.
    fn shift(self, panel: usize, earlier: bool) -> bool {
        let Some(new) = self.order.with_untracked(|o| step(o, panel, earlier)) else {
            return false;
        };
        let k = position_of(&new, panel).unwrap_or(0);
        self.change(new);
        self.announce((texts(self.lang()).moved)(panel, k, self.n));
        true
    }

    fn undo(self) {
        let mut previous = None;
        self.history.update(|h| previous = h.pop());
        if let Some(p) = previous {
            if let Some(picked) = self.picked.get_untracked() {
                if !p.contains(&picked) {
                    self.picked.set(None);
                }
            }
            self.order.set(p);
            self.announce(texts(self.lang()).undone.to_owned());
        }
    }

    fn clear(self) {
        self.change(Vec::new());
        self.picked.set(None);
        self.announce(texts(self.lang()).cleared.to_owned());
    }

    fn complete(self) -> bool {
        self.order.with(|o| o.len() == self.n)
    }
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
fn OrderQuestion(ctx: QuestionContext, view: View) -> impl IntoView {
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

    // Pointer moves and releases are followed on the window, so a drag may leave the panel.
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

    let ordinal = move |k: usize| (texts(i18n.lang()).ordinal)(k);
    let shown = (1..=n)
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
        .collect_view();

    let entries = move || {
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
    };

    // The label that follows the pointer while dragging (built once per drag).
    let dragged = Memo::new(move |_| drag.with(|d| d.filter(|d| d.active).map(|d| d.panel)));
    let pointer = move || drag.with(|d| d.map(|d| d.at).unwrap_or_default());
    let ghost = move || {
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
    };

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
            {ghost}
        </section>
    }
}

/// One reviewed comic: right/wrong, the panels as shown, your order, a right order.
#[component]
fn ReviewCard(ctx: ReviewContext, review: Review) -> impl IntoView {
    let i18n = use_i18n();
    let outcome = review.correct.filter(|_| !ctx.gold_withheld);
    let groups = review.reading_groups.filter(|_| !ctx.gold_withheld);
    let crowd = ctx
        .crowd_accuracy
        .map(format::accuracy)
        .unwrap_or_else(|| DASH.to_owned());
    let category = ctx.category_label();
    let (badge_class, mark) = match outcome {
        Some(true) => ("badge right", "✓ "),
        Some(false) => ("badge wrong", "✗ "),
        None => ("badge withheld", ""),
    };
    let badge_text = move || {
        let t = i18n.t();
        match outcome {
            Some(true) => t.right,
            Some(false) => t.wrong,
            None => t.withheld,
        }
    };
    let yours = order_text(&review.chosen);
    let correct_view = match groups {
        Some(g) => {
            let grouped = g.iter().any(|g| g.len() > 1);
            view! {
                <dd data-testid="reading-order">
                    {groups_text(&g)}
                    {grouped.then(|| view! { <span class="muted small">" " {tx(|t| t.groups_note)}</span> })}
                </dd>
            }
            .into_any()
        }
        None => view! { <dd class="muted">{move || i18n.t().withheld_note}</dd> }.into_any(),
    };
    view! {
        <li
            class="card review-item"
            class:right=outcome == Some(true)
            class:wrong=outcome == Some(false)
            data-testid="review-item"
            data-position=ctx.position.to_string()
            data-correct=match outcome {
                Some(true) => "true",
                Some(false) => "false",
                None => "withheld",
            }
        >
            <p class="review-head">
                <span class=badge_class>{mark} {badge_text}</span>
                <span class="muted">{category}</span>
            </p>
            <ReviewStrip panels=review.panels />
            <dl class="review-grid">
                <dt>{tx(|t| t.your_order)}</dt>
                <dd data-testid="your-order">{yours}</dd>
                <dt>{tx(|t| t.reading_order)}</dt>
                {correct_view}
                <dt>{move || i18n.t().crowd_accuracy}</dt>
                <dd>{crowd}</dd>
            </dl>
        </li>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placing_inserts_or_moves_before_an_entry() {
        assert_eq!(place(&[], 3, usize::MAX), vec![3]);
        assert_eq!(place(&[3, 1], 2, 1), vec![3, 2, 1]);
        // Moving later: the index counts entries before the move.
        assert_eq!(place(&[3, 1, 2], 3, 2), vec![1, 3, 2]);
        assert_eq!(place(&[3, 1, 2], 3, 3), vec![1, 2, 3]);
        // Moving earlier.
        assert_eq!(place(&[3, 1, 2], 2, 0), vec![2, 3, 1]);
        // Onto itself: unchanged.
        assert_eq!(place(&[3, 1, 2], 1, 1), vec![3, 1, 2]);
        assert_eq!(place(&[3, 1, 2], 1, 2), vec![3, 1, 2]);
    }

    #[test]
    fn steps_stop_at_the_ends() {
        assert_eq!(step(&[3, 1, 2], 1, true), Some(vec![1, 3, 2]));
        assert_eq!(step(&[3, 1, 2], 1, false), Some(vec![3, 2, 1]));
        assert_eq!(step(&[3, 1, 2], 3, true), None);
        assert_eq!(step(&[3, 1, 2], 2, false), None);
        assert_eq!(step(&[3, 1, 2], 4, false), None);
    }

    #[test]
    fn ordinals_read_naturally() {
        let en: Vec<String> = [1, 2, 3, 4, 11, 12, 13, 21, 22].map(EN.ordinal).to_vec();
        assert_eq!(
            en,
            ["1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd"]
        );
        assert_eq!((ZH.ordinal)(2), "第2");
    }

    #[test]
    fn dev_gold_lines_score_over_displayed_groups() {
        let gold: OrderGold = serde_json::from_str(
            r#"{"item_id":"c1","category":"narrative","order_groups_display":[[3],[2,4],[1]]}"#,
        )
        .expect("dev gold line");
        assert!(gold.is_right(&vec![3, 4, 2, 1]));
        assert!(!gold.is_right(&vec![1, 2, 3, 4]));
    }
}
