//! Multi-panel order recovery in the browser: the participant puts a comic's shuffled panels
//! back in reading order by tapping them in sequence, by dragging (pointer events: mouse, pen
//! and touch), or by keyboard alone, with any panel shown large on demand; then the review
//! card, the "k / n in the right order" score, and the submit page's help, file check and dev
//! preview.
//!
//! Orders are kept and sent as DISPLAYED panel numbers (1-based), as in prediction files.

mod board;
mod drag;
mod gestures;
mod question;
mod review;
#[cfg(test)]
mod tests;
mod zoom;

use super::panels::{correctness_summary, help_notes, panel_file_check, DevLine};
use super::{PredictionFiles, QuestionContext, ReviewContext, UiKind, ValidFile};
use crate::api;
use crate::i18n::{Lang, StringTable};
use leptos::prelude::*;
use memeboard_core::api::ResultsResponse;
use memeboard_core::kinds::panel_order::{PanelOrder, Review, View};
use memeboard_core::predictions::panels::validate_orders;
use memeboard_core::predictions::{FileFormat, Limits, TaskManifest};
use memeboard_core::scoring::is_linear_extension;
use memeboard_core::tasks::CategoryInfo;
use question::OrderQuestion;
use review::ReviewCard;
use serde::Deserialize;

/// This kind's interface strings (the generic ones are in [`crate::i18n`]).
#[derive(Debug)]
struct Texts {
    /// The kind in words.
    name: &'static str,
    /// Question: heading of the shown panels.
    shown_heading: &'static str,
    /// Question: how to build the order by tapping (every device).
    how_to: &'static str,
    /// Question: how to build it by dragging (shown where there is a mouse or pen).
    drag_hint: &'static str,
    /// Question: how to build it by keyboard (hidden on touch screens).
    keys_hint: &'static str,
    /// The enlarge button of a panel ("Enlarge panel 3").
    zoom: fn(usize) -> String,
    /// The close button of an enlarged panel.
    zoom_close: &'static str,
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
}

impl StringTable for Texts {
    const EN: &'static Self = &EN;
    const ZH: &'static Self = &ZH;
}

static ZH: Texts = Texts {
    name: "漫画排序（多格漫画）",
    shown_heading: "打乱后的各格（按显示编号）",
    how_to: "按阅读顺序依次点按各格；再点一次已放入的格子可将其取出。点 ⤢ 可放大查看某一格。",
    drag_hint: "也可以把格子拖到下面的顺序里，或在顺序里拖动调整。",
    keys_hint: "键盘：Tab 移到某一格，按 Enter 放入顺序；在已放入的格子上按 Enter 拿起，↑/← 前移，↓/→ 后移，再按 Enter 放下；Delete 取出。",
    zoom: |n| format!("放大第 {n} 格"),
    zoom_close: "关闭",
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
};

static EN: Texts = Texts {
    name: "Panel order (multi-panel comics)",
    shown_heading: "The panels, shuffled (numbered as shown)",
    how_to: "Tap the panels in reading order; tap a placed panel again to take it out. ⤢ shows a panel larger.",
    drag_hint: "Or drag them into your order below, and drag within it to reorder.",
    keys_hint: "Keyboard: Tab to a panel and press Enter to place it; on a placed panel Enter picks it up, ↑/← moves it earlier, ↓/→ later, Enter drops it; Delete takes it out.",
    zoom: |n| format!("Enlarge panel {n}"),
    zoom_close: "Close",
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
};

/// This kind's submit-page strings (the file help), apart from [`Texts`] so that the quiz
/// bundle, which shows `Texts` on its pages, does not carry it.
#[derive(Debug)]
struct HelpTexts {
    /// Submit help: JSON Lines.
    help_jsonl: &'static str,
    /// Submit help: CSV.
    help_csv: &'static str,
    /// Submit help: which numbers.
    help_numbers: &'static str,
}

impl StringTable for HelpTexts {
    const EN: &'static Self = &HELP_EN;
    const ZH: &'static Self = &HELP_ZH;
}

static HELP_ZH: HelpTexts = HelpTexts {
    help_jsonl: "JSON Lines：每行一个对象，给出题目编号和阅读顺序，顺序可以是数组，也可以是逗号分隔的字符串：",
    help_csv: "CSV：首行为表头 item_id,order，之后每行一条预测（顺序含逗号，需加引号）：",
    help_numbers: "数字是各格的显示编号（与 inputs.jsonl 中的顺序相同，从 1 开始），按阅读先后排列，每格恰好一次。",
};

static HELP_EN: HelpTexts = HelpTexts {
    help_jsonl: "JSON Lines: one object per line with the item id and the reading order, as an array or as a comma-separated string:",
    help_csv: "CSV: a header row item_id,order, then one prediction per row (quote the order, it contains commas):",
    help_numbers: "The numbers are DISPLAYED panel numbers, counted from 1 in the order inputs.jsonl lists the panels, first panel to read first, each panel once.",
};

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
    type Files = Self;

    fn memes_noun(lang: Lang) -> &'static str {
        super::panels::memes_noun(lang)
    }

    fn name(lang: Lang) -> &'static str {
        lang.table::<Texts>().name
    }

    fn question(ctx: QuestionContext, view: View) -> AnyView {
        view! { <OrderQuestion ctx=ctx view=view /> }.into_any()
    }

    fn review_card(ctx: ReviewContext, review: Review) -> AnyView {
        view! { <ReviewCard ctx=ctx review=review /> }.into_any()
    }

    fn score_summary(results: &ResultsResponse) -> AnyView {
        correctness_summary(results, |lang| lang.table::<Texts>().score_suffix)
    }
}

impl PredictionFiles for PanelOrder {
    type DevGold = Vec<OrderGold>;

    fn submit_help() -> AnyView {
        view! {
            <div data-testid="help-panel-order">
                <p>{HelpTexts::text(|t| t.help_jsonl)}</p>
                <pre><code>
                    "{\"item_id\": \"ITEM_ID\", \"order\": [3, 1, 2, 4]}\n{\"item_id\": \"ITEM_ID\", \"order\": \"3,1,2,4\"}"
                </code></pre>
                <p>{HelpTexts::text(|t| t.help_csv)}</p>
                <pre><code>"item_id,order\nITEM_ID,\"3,1,2,4\""</code></pre>
                <p>{HelpTexts::text(|t| t.help_numbers)}</p>
                {help_notes()}
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
