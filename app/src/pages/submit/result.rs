//! The server's answer to an upload: the accepted submission's score, or the rejection's lines.

use crate::api::{self, UploadFailure};
use crate::browser::focus_when_shown;
use crate::components::score::{estimate_view, status_text, ScoreTable};
use crate::i18n::board::btr;
use crate::i18n::use_i18n;
use crate::kinds::conditions_text;
use leptos::prelude::*;
use memeboard_core::api::{SubmissionStatus, SubmitPredictionsResponse};
use memeboard_core::tasks::{CategoryInfo, TaskKind};

/// An accepted upload: status, score, warnings, quota and links.
#[component]
pub(super) fn UploadResult(
    response: SubmitPredictionsResponse,
    categories: Vec<CategoryInfo>,
    kind: Option<TaskKind>,
) -> impl IntoView {
    let i18n = use_i18n();
    let SubmitPredictionsResponse {
        submission_id,
        task,
        status,
        lines,
        warnings,
        notes,
        public_scores,
        quota,
        conditions,
    } = response;
    let conditions_view = (!conditions.is_empty()).then(|| {
        let text = move || conditions_text(i18n.lang(), kind, &conditions);
        view! {
            <p data-testid="result-conditions">
                <strong>{btr(|t| t.conditions_label)} ": "</strong>
                {text}
            </p>
        }
    });
    let heading = focus_when_shown::<leptos::html::H3>();
    let scores_view = match public_scores {
        Some(scores) => {
            let overall = scores.first().and_then(|s| s.estimate);
            view! {
                <h4>{btr(|t| t.public_score_title)}</h4>
                <p class="big-score" data-testid="result-overall">
                    {estimate_view(overall.as_ref())}
                </p>
                <ScoreTable scores=scores categories=categories testid="result-scores" />
            }
            .into_any()
        }
        None if status == SubmissionStatus::Unscored => {
            view! { <p class="notice info" data-testid="result-unscored">{btr(|t| t.unscored_note)}</p> }
                .into_any()
        }
        None => view! { <p class="notice info">{btr(|t| t.received_note)}</p> }.into_any(),
    };
    let warnings_view = (!warnings.is_empty()).then(|| {
        view! {
            <div class="notice warning" data-testid="result-warnings">
                <p>{btr(|t| t.warnings_title)}</p>
                <ul class="error-list">
                    {move || {
                        // Coded notes in the reader's language; plain English from older servers.
                        let locale = i18n.lang().locale();
                        if notes.is_empty() {
                            warnings.clone()
                        } else {
                            notes.iter().map(|n| n.render(locale)).collect()
                        }
                            .into_iter()
                            .map(|w| view! { <li>{w}</li> })
                            .collect_view()
                    }}
                </ul>
            </div>
        }
    });
    view! {
        <section class="result" data-testid="upload-result" data-status=status_text(crate::i18n::Lang::En, status)>
            <h3 node_ref=heading tabindex="-1">
                {btr(|t| t.result_title)}
            </h3>
            <p>
                <span class="badge right">{move || status_text(i18n.lang(), status)}</span>
                " "
                {move || (i18n.bt().lines_read)(lines)}
            </p>
            {conditions_view}
            {scores_view}
            {warnings_view}
            <p data-testid="result-quota">
                <strong>{btr(|t| t.quota_label)} ": "</strong>
                {move || (i18n.bt().quota_left)(quota.remaining, quota.daily_limit)}
            </p>
            <div class="actions">
                <a
                    class="button primary"
                    href=format!("/boards/{}", api::encode_component(&task))
                    data-testid="result-board-link"
                >
                    {btr(|t| t.see_board)}
                </a>
                <a
                    class="button secondary"
                    href=format!("/models/{}", api::encode_component(&submission_id))
                    data-testid="result-model-link"
                >
                    {btr(|t| t.see_model)}
                </a>
            </div>
        </section>
    }
}

/// A rejected upload: one line per problem, as the server sent them.
#[component]
pub(super) fn UploadErrors(failure: UploadFailure) -> impl IntoView {
    let status = failure.status.map(|s| s.to_string()).unwrap_or_default();
    view! {
        <div class="notice error" role="alert" data-testid="upload-errors" data-status=status>
            <p>{btr(|t| t.upload_failed)}</p>
            <ul class="error-list">
                {failure.messages.into_iter().map(|m| view! { <li>{m}</li> }).collect_view()}
            </ul>
        </div>
    }
}
