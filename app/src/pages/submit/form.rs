//! The upload form's fields: the token, and the fields that describe the model on the board.

use crate::i18n::board::{btr, BoardStrings};
use crate::i18n::use_i18n;
use crate::kinds::condition_text;
use leptos::prelude::*;
use memeboard_core::api::Weights;
use memeboard_core::conditions::ConditionSpec;
use memeboard_core::tasks::TaskKind;
use std::collections::BTreeMap;

/// The fields that describe the model (sent with the upload, shown on the board).
#[derive(Clone, Copy)]
pub(super) struct ModelFields {
    /// The model's name (required).
    pub(super) model: RwSignal<String>,
    /// Who made it.
    pub(super) organisation: RwSignal<String>,
    /// Its size, as written (`7B`…).
    pub(super) parameters: RwSignal<String>,
    /// Open or closed weights.
    pub(super) weights: RwSignal<Weights>,
    /// A link about the model.
    pub(super) link: RwSignal<String>,
    /// A free description.
    pub(super) description: RwSignal<String>,
    /// The run conditions picked (a condition not picked takes its default).
    pub(super) conditions: RwSignal<BTreeMap<String, String>>,
}

impl ModelFields {
    /// Empty fields, closed weights.
    pub(super) fn new() -> Self {
        Self {
            model: RwSignal::new(String::new()),
            organisation: RwSignal::new(String::new()),
            parameters: RwSignal::new(String::new()),
            weights: RwSignal::new(Weights::Closed),
            link: RwSignal::new(String::new()),
            description: RwSignal::new(String::new()),
            conditions: RwSignal::new(BTreeMap::new()),
        }
    }

    /// The picked conditions as the upload's `conditions` parameter (`name=value,…`).
    pub(super) fn conditions_param(self) -> String {
        self.conditions.with_untracked(|c| {
            c.iter()
                .map(|(k, v)| format!("{k}={v}"))
                .collect::<Vec<_>>()
                .join(",")
        })
    }

    /// The fields' inputs, in form order.
    pub(super) fn view(self) -> impl IntoView {
        let Self {
            model,
            organisation,
            parameters,
            weights,
            link,
            description,
            conditions: _,
        } = self;
        view! {
            {text_field("model-name", |t| t.model_label, model, "100")}
            <div class="field">
                {text_field("model-organisation", |t| t.organisation_label, organisation, "100")}
                <p class="muted small">{btr(|t| t.organisation_hint)}</p>
            </div>
            {text_field("model-parameters", |t| t.parameters_label, parameters, "40")}
            <div class="field">
                <label for="model-weights">{btr(|t| t.weights_label)}</label>
                <select
                    id="model-weights"
                    data-testid="model-weights"
                    on:change=move |ev| {
                        weights
                            .set(
                                if event_target_value(&ev) == "open" {
                                    Weights::Open
                                } else {
                                    Weights::Closed
                                },
                            )
                    }
                >
                    <option value="closed" prop:selected=move || weights.get() == Weights::Closed>
                        {btr(|t| t.weights_closed_option)}
                    </option>
                    <option value="open" prop:selected=move || weights.get() == Weights::Open>
                        {btr(|t| t.weights_open_option)}
                    </option>
                </select>
            </div>
            <div class="field">
                <label for="model-link">{btr(|t| t.link_label)}</label>
                <input
                    id="model-link"
                    type="url"
                    data-testid="model-link"
                    maxlength="300"
                    placeholder="https://"
                    prop:value=move || link.get()
                    on:input=move |ev| link.set(event_target_value(&ev))
                />
            </div>
            <div class="field">
                <label for="model-description">{btr(|t| t.description_label)}</label>
                <textarea
                    id="model-description"
                    data-testid="model-description"
                    rows="3"
                    maxlength="2000"
                    prop:value=move || description.get()
                    on:input=move |ev| description.set(event_target_value(&ev))
                ></textarea>
            </div>
        }
    }
}

/// One select per run condition of the task (none for a task without conditions), each on
/// its default until changed: how the model was run (zero- or one-shot, audio only or with
/// the video…), shown on the board beside the model name.
pub(super) fn conditions_field(
    specs: Memo<Vec<ConditionSpec>>,
    kind: Memo<Option<TaskKind>>,
    chosen: RwSignal<BTreeMap<String, String>>,
) -> impl IntoView {
    let i18n = use_i18n();
    move || {
        let specs = specs.get();
        (!specs.is_empty()).then(|| {
            let lang = i18n.lang();
            let fields = specs
                .into_iter()
                .map(|spec| {
                    let id = format!("condition-{}", spec.name);
                    let name = spec.name.clone();
                    let options = spec
                        .values
                        .iter()
                        .map(|v| {
                            let (value, name) = (v.clone(), spec.name.clone());
                            let default = spec.default.clone();
                            let selected = move || {
                                chosen.with(|c| c.get(&name).unwrap_or(&default) == &value)
                            };
                            view! {
                                <option value=v.clone() prop:selected=selected>
                                    {condition_text(lang, kind.get(), v)}
                                </option>
                            }
                        })
                        .collect_view();
                    view! {
                        <div class="field">
                            <label for=id.clone()>{condition_text(lang, kind.get(), &spec.name)}</label>
                            <select
                                id=id.clone()
                                data-testid=id
                                on:change=move |ev| {
                                    let value = event_target_value(&ev);
                                    chosen.update(|c| {
                                        c.insert(name.clone(), value);
                                    });
                                }
                            >
                                {options}
                            </select>
                        </div>
                    }
                })
                .collect_view();
            view! {
                <fieldset class="conditions" data-testid="submit-conditions">
                    <legend>{btr(|t| t.conditions_label)}</legend>
                    <p class="muted small">{btr(|t| t.conditions_hint)}</p>
                    {fields}
                </fieldset>
            }
        })
    }
}

/// A one-line text input with its label.
fn text_field(
    id: &'static str,
    label: fn(&'static BoardStrings) -> &'static str,
    value: RwSignal<String>,
    max: &'static str,
) -> impl IntoView {
    view! {
        <div class="field">
            <label for=id>{btr(label)}</label>
            <input
                id=id
                type="text"
                data-testid=id
                maxlength=max
                prop:value=move || value.get()
                on:input=move |ev| value.set(event_target_value(&ev))
            />
        </div>
    }
}

/// The token field: `token` follows every keystroke, `quota_token` the committed value (the
/// quota is fetched for it).
pub(super) fn token_field(token: RwSignal<String>, quota_token: RwSignal<String>) -> impl IntoView {
    view! {
        <div class="field">
            <label for="submit-token">{btr(|t| t.token_label)}</label>
            <input
                id="submit-token"
                type="password"
                autocomplete="off"
                spellcheck="false"
                data-testid="submit-token"
                prop:value=move || token.get()
                on:input=move |ev| token.set(event_target_value(&ev))
                on:change=move |ev| quota_token.set(event_target_value(&ev).trim().to_owned())
            />
            <p class="muted small">
                {btr(|t| t.token_missing)} " " <a href="/account">
                    {btr(|t| t.token_create_link)}
                </a>
            </p>
        </div>
    }
}
