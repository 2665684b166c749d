//! The home page's first paint: the heading, the lead and one card per open quiz, with the
//! app's classes so that it looks like the page the app then renders.

use crate::http::html_shell::escape;
use memeboard_core::api::QuizSummary;
use memeboard_core::page_text::{category_label, in_lang, EN, ZH};
use std::fmt::Write;

/// `(page title, markup)` of the home page listing `quizzes`.
pub fn render(quizzes: &[QuizSummary], zh: bool) -> (String, String) {
    let t = if zh { ZH } else { EN };
    let mut out = format!(
        "<section class=\"intro\"><h1>{}</h1><p class=\"lead\">{}</p></section>",
        escape(t.home_title),
        escape(t.home_intro)
    );
    if quizzes.is_empty() {
        let _ = write!(out, "<p class=\"empty\">{}</p>", escape(t.no_quizzes));
        return (t.home_title.to_owned(), out);
    }
    out.push_str("<ul class=\"quiz-list\">");
    for quiz in quizzes {
        let chips: String = quiz
            .categories
            .iter()
            .map(|c| {
                format!(
                    "<li class=\"chip\">{}</li>",
                    escape(&category_label(&c.key, &quiz.categories, zh))
                )
            })
            .collect();
        let _ = write!(
            out,
            "<li class=\"card quiz-card\"><h2>{}</h2><p>{}</p><ul class=\"facts\"><li>{}</li>\
             <li>{}</li><li>{}</li></ul><div class=\"categories\"><span class=\"muted\">{}: \
             </span><ul class=\"chips\">{chips}</ul></div>",
            escape(in_lang(&quiz.title, zh)),
            escape(in_lang(&quiz.description, zh)),
            escape(&(t.batch_size)(quiz.batch_size)),
            escape(&(t.item_count)(quiz.item_count)),
            escape(&(t.participants)(quiz.completed_participants)),
            escape(t.categories),
        );
        if quiz.full {
            let _ = write!(out, "<p class=\"notice\">{}</p>", escape(t.full));
        } else {
            let _ = write!(
                out,
                "<a class=\"button primary\" href=\"/quiz/{}\">{}</a>",
                escape(&quiz.slug),
                escape(t.start)
            );
        }
        out.push_str("</li>");
    }
    out.push_str("</ul>");
    (t.home_title.to_owned(), out)
}
