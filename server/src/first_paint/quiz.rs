//! A quiz page's first paint: the quiz's heading, description and batch note, then the
//! consent card's rules as the app shows them (its checkbox and button wait for the app).
//! A visitor a start would refuse gets the heading alone; the app then says why.

use crate::http::html_shell::escape;
use memeboard_core::api::QuizSummary;
use memeboard_core::kinds::Kind;
use memeboard_core::page_text::{category_label, in_lang, EN, ZH};
use std::fmt::Write;

/// `(page title, markup)` of the quiz page of `quiz`; `admitted`: the consent card too.
pub fn render(quiz: &QuizSummary, admitted: bool, zh: bool) -> (String, String) {
    let t = if zh { ZH } else { EN };
    let title = in_lang(&quiz.title, zh).to_owned();
    let categories: Vec<String> = quiz
        .categories
        .iter()
        .map(|c| category_label(&c.key, &quiz.categories, zh))
        .collect();
    let mut out = format!(
        "<section class=\"intro\"><h1>{}</h1><p class=\"lead\">{}</p><p class=\"muted\">{} \
         {}: {}</p></section>",
        escape(&title),
        escape(in_lang(&quiz.description, zh)),
        escape(&(t.batch_note)(quiz.batch_size)),
        escape(t.categories),
        escape(&categories.join(" · ")),
    );
    if !admitted || quiz.full {
        return (title, out);
    }
    let headphones = memeboard_core::with_kind!(quiz.task_kind, K => memeboard_core::kinds::capabilities::needs_headphones::<K>());
    let step = if headphones {
        t.step1_of3_title
    } else {
        t.step1_title
    };
    let rules: String = t
        .rules
        .iter()
        .map(|r| format!("<li>{}</li>", escape(r)))
        .collect();
    let _ = write!(
        out,
        "<section class=\"card\"><h2>{}</h2><p>{}</p><h3>{}</h3><ul class=\"rules\">{rules}</ul>\
         <label class=\"check\"><input type=\"checkbox\" disabled><span>{}</span></label>\
         <div class=\"actions\"><button type=\"button\" class=\"button primary\" disabled>{}\
         </button></div></section>",
        escape(step),
        escape(
            memeboard_core::with_kind!(quiz.task_kind, K => K::instructions_for(
                quiz.study_protocol.as_deref()
            ))[usize::from(zh)]
        ),
        escape(t.rules_title),
        escape(t.consent_label),
        escape(t.continue_),
    );
    (title, out)
}
