//! The results page's card of one answered clip.

use super::Texts;
use crate::format::option_letter;
use crate::i18n::{use_i18n, StringTable};
use crate::kinds::cards::{withheld_dd, OutcomeCard};
use crate::kinds::ReviewContext;
use leptos::prelude::*;
use memeboard_core::kinds::clip_mcq::{MediaKind, Review};

/// One reviewed clip: right/wrong, the clip (to listen again), the question, the lettered
/// options with yours and the correct one marked, and the crowd's accuracy.
#[component]
pub(super) fn ReviewCard(ctx: ReviewContext, review: Review) -> impl IntoView {
    let i18n = use_i18n();
    let outcome = if ctx.gold_withheld {
        None
    } else {
        review
            .correct
            .or_else(|| review.correct_position.map(|c| c == review.chosen_position))
    };
    let correct_position = review.correct_position.filter(|_| !ctx.gold_withheld);
    let answer = |pos: usize| {
        let text = review.options.get(pos).cloned().unwrap_or_default();
        format!("{}. {}", option_letter(pos), text)
    };
    let yours = answer(review.chosen_position);
    let correct = correct_position.map(answer);
    let chosen = review.chosen_position;
    let options = review
        .options
        .iter()
        .enumerate()
        .map(|(i, text)| {
            let is_chosen = i == chosen;
            let is_correct = correct_position == Some(i);
            view! {
                <li
                    class="review-option"
                    class:chosen=is_chosen
                    class:correct=is_correct
                    data-testid="review-option"
                    data-position=i.to_string()
                >
                    <span class="letter">{option_letter(i).to_string()}</span>
                    " "
                    <span>{text.clone()}</span>
                    {is_chosen
                        .then(|| {
                            view! { <span class="badge small">{Texts::text(|t| t.chosen_mark)}</span> }
                        })}
                    {is_correct
                        .then(|| {
                            view! { <span class="badge right small">{Texts::text(|t| t.correct_mark)}</span> }
                        })}
                </li>
            }
        })
        .collect_view();
    let correct_view = match correct {
        Some(c) => view! { <dd data-testid="review-correct">{c}</dd> }.into_any(),
        None => withheld_dd(),
    };
    let label = move || match review.media {
        MediaKind::Audio => i18n.table::<Texts>().clip_audio,
        MediaKind::Video => i18n.table::<Texts>().clip_video,
    };
    let clip = match review.media {
        MediaKind::Audio => view! {
            <audio class="clip-media review-clip" src=review.clip.url.clone() preload="none" controls=true aria-label=label></audio>
        }
        .into_any(),
        MediaKind::Video => view! {
            <video class="clip-media review-clip" src=review.clip.url.clone() preload="none" controls=true playsinline=true aria-label=label></video>
        }
        .into_any(),
    };
    view! {
        <OutcomeCard ctx=ctx outcome=outcome shown=clip>
            <dt>{Texts::text(|t| t.review_question)}</dt>
            <dd data-testid="review-question">{review.question.clone()}</dd>
            <dt>{Texts::text(|t| t.review_options)}</dt>
            <dd>
                <ul class="review-options">
                    {options}
                </ul>
            </dd>
            <dt>{move || i18n.t().your_answer}</dt>
            <dd data-testid="review-chosen">{yours}</dd>
            <dt>{move || i18n.t().correct_answer}</dt>
            {correct_view}
        </OutcomeCard>
    }
}
