//! A board's first paint: its heading and item note, then the table's rank, name, overall and
//! category columns as the app shows them by default (the server's order; columns every row
//! withholds for too few items left out). Sorting, filters, charts and downloads wait for the
//! app.

use crate::http::html_shell::escape;
use memeboard_core::api::{BoardResponse, BoardRow, SubmissionStatus};
use memeboard_core::leaderboard::CategoryEstimate;
use memeboard_core::messages::{parse_label, Locale};
use memeboard_core::page_text::board::{
    all_suppressed, interval, model_ranks, score, BoardText, BOARD_EN, BOARD_ZH,
};
use memeboard_core::page_text::{category_label, in_lang};
use std::fmt::Write;

/// Placeholder for a missing number, as the app writes it.
const DASH: &str = "—";

/// `(page title, markup)` of `board`.
pub fn render(board: &BoardResponse, zh: bool) -> (String, String) {
    let t = if zh { BOARD_ZH } else { BOARD_EN };
    let title = in_lang(&board.title, zh).to_owned();
    let locale = if zh { Locale::Zh } else { Locale::En };
    let metric =
        parse_label(&board.metric).map_or_else(|| board.metric.clone(), |m| m.render(locale));
    let shown: Vec<usize> = (1..=board.categories.len())
        .filter(|&i| !all_suppressed(&board.rows, i))
        .collect();
    let mut out = format!(
        "<section class=\"intro board-head\"><h1>{}</h1><p class=\"muted\">{}</p></section>\
         <div class=\"board-scroll\" role=\"region\" tabindex=\"0\" aria-label=\"{}\">\
         <table class=\"board\"><thead><tr><th scope=\"col\" class=\"sticky-rank\">{}</th>\
         <th scope=\"col\" class=\"sticky-label\">{}</th><th scope=\"col\" \
         class=\"sticky-overall\">{}</th>",
        escape(&title),
        escape(&(t.board_items)(board.items, &metric)),
        escape(t.board_table_label),
        escape(t.col_rank),
        escape(t.col_model),
        escape(t.overall),
    );
    for &i in &shown {
        let key = &board.categories[i - 1].key;
        let _ = write!(
            out,
            "<th scope=\"col\">{}</th>",
            escape(&category_label(key, &board.categories, zh))
        );
    }
    out.push_str("</tr></thead><tbody>");
    for (row, rank) in board.rows.iter().zip(model_ranks(&board.rows)) {
        row_html(&mut out, row, rank, &shown, &t);
    }
    out.push_str("</tbody></table></div>");
    (title, out)
}

/// One row: rank (a dash for reference rows), name, overall and the shown categories.
fn row_html(out: &mut String, row: &BoardRow, rank: Option<usize>, shown: &[usize], t: &BoardText) {
    let rank = rank.map_or_else(
        || {
            format!(
                "<span aria-hidden=\"true\">{DASH}</span><span class=\"visually-hidden\">{}</span>",
                escape(t.not_ranked)
            )
        },
        |r| r.to_string(),
    );
    let label = t
        .reference_row_name(row.kind)
        .map_or_else(|| row.label.clone(), str::to_owned);
    let scored = row.status == SubmissionStatus::Scored;
    let cell = |i: usize| match row.scores.get(i).filter(|_| scored) {
        Some(c) => estimate_html(c, t),
        None => format!("<span class=\"val\">{DASH}</span>"),
    };
    let _ = write!(
        out,
        "<tr class=\"board-row{}\"><td class=\"rank sticky-rank\">{rank}</td><th scope=\"row\" \
         class=\"label-cell sticky-label\"><span>{}</span></th><td class=\"score-cell overall \
         sticky-overall\">{}</td>",
        if row.kind.group() == memeboard_core::api::RowGroup::Model {
            ""
        } else {
            " reference"
        },
        escape(&label),
        cell(0),
    );
    for &i in shown {
        let _ = write!(out, "<td class=\"score-cell category\">{}</td>", cell(i));
    }
    out.push_str("</tr>");
}

/// A figure with its interval, "too few items to show", or a dash.
fn estimate_html(c: &CategoryEstimate, t: &BoardText) -> String {
    match (&c.estimate, c.suppressed) {
        (_, true) => format!(
            "<span class=\"val muted small\">{}</span>",
            escape(t.too_few_items)
        ),
        (Some(e), false) => format!(
            "<span class=\"val\"><span class=\"est\">{}</span> <span class=\"ci\">{}</span></span>",
            score(e.value),
            interval(e)
        ),
        (None, false) => format!("<span class=\"val\">{DASH}</span>"),
    }
}
