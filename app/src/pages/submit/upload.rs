//! The upload step: the form's checks, the upload with its progress bar, the token's quota,
//! and the lines under the form (problem, quota, button, progress, the server's answer).

use super::form::ModelFields;
use super::result::{UploadErrors, UploadResult};
use crate::api::{self, UploadFailure, UploadMeta};
use crate::format;
use crate::i18n::board::btr;
use crate::i18n::use_i18n;
use crate::storage;
use leptos::prelude::*;
use leptos::task::spawn_local;
use memeboard_core::api::{Quota, SubmitPredictionsResponse};
use memeboard_core::predictions::FileFormat;
use memeboard_core::tasks::{CategoryInfo, TaskKind};

/// Why the form was not sent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum FormProblem {
    Token,
    Model,
}

/// The upload's state: whether one is running, its progress, the server's answer, why the
/// form was not sent, and the token's quota.
#[derive(Clone, Copy)]
pub(super) struct Upload {
    /// An upload is running.
    uploading: RwSignal<bool>,
    /// Its progress in `[0, 1]`.
    pub(super) progress: RwSignal<f64>,
    /// The server's answer to the last upload.
    pub(super) result: RwSignal<Option<Result<SubmitPredictionsResponse, UploadFailure>>>,
    /// Why the form was not sent.
    problem: RwSignal<Option<FormProblem>>,
    /// The token's uploads left today, when known.
    quota: RwSignal<Option<Quota>>,
}

impl Upload {
    /// No upload yet.
    pub(super) fn new() -> Self {
        Self {
            uploading: RwSignal::new(false),
            progress: RwSignal::new(0.0f64),
            result: RwSignal::new(None),
            problem: RwSignal::new(None),
            quota: RwSignal::new(None),
        }
    }
}

/// The token's quota before uploading: fetched for the stored token and again whenever the
/// token field is committed (change, not every keystroke); an upload's answer updates it.
/// Fetched by hand, not as a resource: a resource reloading under the page's Suspense
/// would swap the whole form for the loading state. Returns the committed token.
pub(super) fn use_quota(token: RwSignal<String>, state: Upload) -> RwSignal<String> {
    let quota = state.quota;
    let quota_token = RwSignal::new(token.get_untracked().trim().to_owned());
    Effect::new(move |_| {
        let t = quota_token.get();
        quota.set(None);
        if t.is_empty() {
            return;
        }
        spawn_local(async move {
            let q = api::me(&t).await.ok().map(|m| m.quota);
            if quota_token.try_get_untracked().as_deref() == Some(t.as_str()) {
                let _ = quota.try_set(q);
            }
        });
    });
    quota_token
}

/// The upload button's action: checks the token and the model name, then sends the picked
/// file (read as `valid_format`) with the model's description, following its progress.
pub(super) fn upload_action(
    state: Upload,
    slug: RwSignal<String>,
    token: RwSignal<String>,
    fields: ModelFields,
    file: StoredValue<Option<web_sys::File>, LocalStorage>,
    valid_format: impl Fn() -> Option<FileFormat> + 'static,
) -> impl Fn(leptos::ev::MouseEvent) + 'static {
    let Upload {
        uploading,
        progress,
        result,
        problem,
        quota,
    } = state;
    move |_| {
        if uploading.get_untracked() {
            return;
        }
        let Some(format) = valid_format() else {
            return;
        };
        let token_value = token.get_untracked().trim().to_owned();
        let model_value = fields.model.get_untracked().trim().to_owned();
        if token_value.is_empty() {
            problem.set(Some(FormProblem::Token));
            return;
        }
        if model_value.is_empty() {
            problem.set(Some(FormProblem::Model));
            return;
        }
        let Some(f) = file.get_value() else {
            return;
        };
        let meta = UploadMeta {
            model: model_value,
            organisation: fields.organisation.get_untracked(),
            parameters: fields.parameters.get_untracked(),
            weights: fields.weights.get_untracked(),
            link: fields.link.get_untracked(),
            description: fields.description.get_untracked(),
            conditions: fields.conditions_param(),
            filename: f.name(),
            format,
        };
        let task = slug.get_untracked();
        problem.set(None);
        result.set(None);
        progress.set(0.0);
        uploading.set(true);
        spawn_local(async move {
            let outcome = api::upload_predictions(&task, &token_value, &meta, &f, move |p| {
                let _ = progress.try_set(p);
            })
            .await;
            if let Ok(r) = &outcome {
                let _ = quota.try_set(Some(r.quota));
                let _ = progress.try_set(1.0);
                if storage::token().is_none() {
                    storage::set(storage::TOKEN_KEY, &token_value);
                }
            }
            let _ = uploading.try_set(false);
            let _ = result.try_set(Some(outcome));
        });
    }
}

/// Under the preview: why the form was not sent, the quota before uploading, the upload
/// button (enabled for a valid file), the progress bar and the server's answer.
pub(super) fn upload_controls(
    state: Upload,
    valid_format: impl Fn() -> Option<FileFormat> + Send + Sync + 'static,
    upload: impl Fn(leptos::ev::MouseEvent) + 'static,
    categories: Memo<Vec<CategoryInfo>>,
    kind: Memo<Option<TaskKind>>,
) -> impl IntoView {
    let i18n = use_i18n();
    let Upload {
        uploading,
        progress,
        result,
        problem,
        quota,
    } = state;
    view! {
        {move || {
            problem
                .get()
                .map(|p| {
                    let text = match p {
                        FormProblem::Token => i18n.bt().need_token,
                        FormProblem::Model => i18n.bt().need_model,
                    };
                    view! {
                        <p class="notice error" role="alert" data-testid="form-problem">
                            {text}
                        </p>
                    }
                })
        }}
        {move || {
            quota
                .get()
                .map(|q| {
                    view! {
                        <p class="quota-before" data-testid="quota-before" aria-live="polite">
                            {move || (i18n.bt().quota_before)(q.remaining, q.daily_limit)}
                        </p>
                    }
                })
        }}
        <div class="actions">
            <button
                type="button"
                class="button primary"
                data-testid="upload"
                disabled=move || uploading.get() || valid_format().is_none()
                on:click=upload
            >
                {move || if uploading.get() { i18n.bt().uploading } else { i18n.bt().upload }}
            </button>
        </div>
        {move || {
            (uploading.get() || result.with(Option::is_some))
                .then(|| {
                    view! {
                        <p class="upload-progress">
                            <progress
                                data-testid="upload-progress"
                                max="1"
                                prop:value=move || progress.get()
                                aria-label=btr(|t| t.upload_progress)
                            ></progress>
                            <span>{move || format::percent(progress.get())}</span>
                        </p>
                    }
                })
        }}
        {move || {
            result
                .get()
                .map(|r| match r {
                    Ok(resp) => {
                        view! {
                            <UploadResult
                                response=resp
                                categories=categories.get()
                                kind=kind.get_untracked()
                            />
                        }
                            .into_any()
                    }
                    Err(failure) => view! { <UploadErrors failure=failure /> }.into_any(),
                })
        }}
    }
}
