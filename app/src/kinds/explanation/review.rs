//! The results page's card of one answered explanation.

use super::Texts;
use crate::format::DASH;
use crate::i18n::{use_i18n, Lang, StringTable};
use crate::kinds::ReviewContext;
use leptos::prelude::*;
use memeboard_core::api::ExplanationScore;
use memeboard_core::kinds::explanation::Review;

/// "0.812 · cosine 0.612 · rescaled 0.43 · BERTScore-F1 0.812 · model".
fn score_line(lang: Lang, s: &ExplanationScore) -> String {
    format!(
        "{:.3}{} · {}",
        s.identification,
        (lang.table::<Texts>().score_details)(s.cosine, s.rescaled, s.bert_f1),
        s.model
    )
}

/// One reviewed explanation: meme, your explanation, its similarity, the reference.
#[component]
pub(super) fn ReviewCard(ctx: ReviewContext, review: Review) -> impl IntoView {
    let i18n = use_i18n();
    let category = ctx.category_label();
    let score = review.score;
    let hidden = ctx.gold_withheld;
    let similarity = move || match score.as_ref() {
        Some(s) => score_line(i18n.lang(), s),
        None if hidden => i18n.table::<Texts>().in_hidden_mean.to_owned(),
        None => DASH.to_owned(),
    };
    let reference = review.reference.filter(|_| !ctx.gold_withheld);
    view! {
        <li
            class="card review-item"
            data-testid="review-item"
            data-position=ctx.position.to_string()
            data-correct="scored"
        >
            <p class="review-head">
                <span class="muted">{category}</span>
            </p>
            <p class="meme" lang="zh-CN">
                {review.meme}
            </p>
            <dl class="review-grid">
                <dt>{Texts::text(|t| t.your_explanation)}</dt>
                <dd lang="zh-CN">{review.answer}</dd>
                <dt>{Texts::text(|t| t.similarity)}</dt>
                <dd>{similarity}</dd>
                <dt>{Texts::text(|t| t.reference)}</dt>
                {match reference {
                    Some(r) => view! { <dd lang="zh-CN">{r.meaning}</dd> }.into_any(),
                    None => view! { <dd class="muted">{move || i18n.t().withheld_note}</dd> }.into_any(),
                }}
            </dl>
        </li>
    }
}
