//! The feedback once an explanation is stored: the server's score, the browser's estimate,
//! the standing among the crowd and the reference meaning.

use super::{t, Texts};
use crate::i18n::StringTable;
use leptos::prelude::*;
use memeboard_core::api::ExplanationFeedback;

/// Share of the crowd's scores strictly below `score`, as a percentage.
pub(super) fn percentile(score: f64, crowd: &[f64]) -> Option<u32> {
    (crowd.len() > 1).then(|| {
        let below = crowd.iter().filter(|&&c| c < score).count();
        (100.0 * below as f64 / (crowd.len() - 1).max(1) as f64)
            .round()
            .min(100.0) as u32
    })
}

/// A score computed in the browser: the identification, or why there is none.
type BrowserScore = Option<Result<f64, String>>;

/// The scores and reference shown once an explanation is stored: the server's score, and
/// under it the browser's instant estimate when there was one.
#[component]
pub(super) fn Feedback(
    feedback: ExplanationFeedback,
    /// The browser's estimate of this answer (may still arrive).
    instant: ReadSignal<BrowserScore>,
) -> impl IntoView {
    if feedback.scores_with_results {
        // Hidden test item: nothing derived from the reference is sent per answer.
        return view! {
            <div class="feedback card" data-testid="explanation-feedback" role="status">
                <p data-testid="scores-with-results">{Texts::text(|t| t.scores_with_results)}</p>
                <p class="muted small" data-testid="reference-withheld">
                    {Texts::text(|t| t.reference_withheld)}
                </p>
            </div>
        }
        .into_any();
    }
    let score = feedback.server_score.clone();
    let server_value = score.as_ref().map(|s| s.identification);
    let crowd = feedback.crowd_scores.clone();
    let standing = score
        .as_ref()
        .and_then(|s| percentile(s.identification, &crowd));
    view! {
        <div class="feedback card" data-testid="explanation-feedback" role="status">
            {match score {
                Some(s) => view! {
                    <p data-testid="server-score" data-value=s.identification.to_string() data-cosine=s.cosine.to_string()>
                        {Texts::text(|t| t.server_score)}
                        <strong>{format!("{:.3}", s.identification)}</strong>
                        {move || format!("{} · {}", (t().score_details)(s.cosine, s.rescaled, s.bert_f1), s.model)}
                    </p>
                }.into_any(),
                None => view! {
                    <p class="muted" data-testid="server-score">{feedback.scoring_error.clone().unwrap_or_default()}</p>
                }.into_any(),
            }}
            {move || instant.get().map(|b| match b {
                Ok(b) => {
                    let differs = server_value.map(|s| (s - b).abs());
                    view! {
                        <p class="muted small" data-testid="browser-score" data-value=b.to_string()>
                            {Texts::text(|t| t.browser_score)}
                            {format!("{b:.3}")}
                            {differs.map(|d| move || (t().differs)(d))}
                        </p>
                    }.into_any()
                }
                Err(e) => view! {
                    <p class="muted small" data-testid="browser-score-error">{e}</p>
                }.into_any(),
            })}
            {standing.map(|p| {
                let n = crowd.len();
                view! {
                    <p data-testid="crowd-standing">{move || (t().standing)(p, n)}</p>
                }
            })}
            {match feedback.reference {
                Some(r) => view! {
                    <div data-testid="reference-meaning">
                        <p class="muted small">{Texts::text(|t| t.reference)}</p>
                        <p lang="zh-CN">{r.meaning}</p>
                        {r.origin.map(|o| view! { <p class="muted small" lang="zh-CN">{o}</p> })}
                    </div>
                }.into_any(),
                None => view! {
                    <p class="muted small" data-testid="reference-withheld">
                        {Texts::text(|t| t.reference_withheld)}
                    </p>
                }.into_any(),
            }}
        </div>
    }
    .into_any()
}
