//! The study form's statements (accuracy studies): one text box per explanation field and
//! language, filled with the paper's statements, so the owner can reword or translate them.
//! The server checks them (`AccuracyStatements::validate`) and names the box that is wrong.

use crate::i18n::human::{hs, HumanStrings};
use crate::i18n::use_i18n;
use leptos::prelude::*;
use memeboard_core::human_eval::accuracy::ExplanationField;
use memeboard_core::human_eval::statements::{AccuracyStatements, Statement};

/// The fields in form order, with their wire names.
const FIELDS: [(ExplanationField, &str); 3] = [
    (ExplanationField::Meaning, "meaning"),
    (ExplanationField::Origin, "origin"),
    (ExplanationField::Example, "example"),
];

/// The statement of `field` in `statements`, for writing.
fn statement_mut(statements: &mut AccuracyStatements, field: ExplanationField) -> &mut Statement {
    match field {
        ExplanationField::Meaning => &mut statements.meaning,
        ExplanationField::Origin => &mut statements.origin,
        ExplanationField::Example => &mut statements.example,
    }
}

/// Six boxes (three fields × English, Chinese) bound to `value`.
#[component]
pub(super) fn StatementsFields(value: RwSignal<AccuracyStatements>) -> impl IntoView {
    let i18n = use_i18n();
    let boxes = FIELDS
        .into_iter()
        .enumerate()
        .flat_map(|(f, (field, name))| {
            [0usize, 1].into_iter().map(move |l| {
                let lang = if l == 0 { "en" } else { "zh" };
                let id = format!("study-statement-{name}-{lang}");
                let label = move || {
                    let t = i18n.table::<HumanStrings>();
                    format!("{} · {}", t.statement_fields[f], t.statement_langs[l])
                };
                let read = move || {
                    value.with(|s| {
                        let s = s.of(field);
                        if l == 0 {
                            s.en.clone()
                        } else {
                            s.zh.clone()
                        }
                    })
                };
                let write = move |text: String| {
                    value.update(|s| {
                        let s = statement_mut(s, field);
                        if l == 0 {
                            s.en = text
                        } else {
                            s.zh = text
                        }
                    })
                };
                view! {
                    <div class="field">
                        <label for=id.clone()>{label}</label>
                        <textarea
                            id=id.clone()
                            rows="2"
                            data-testid=id
                            prop:value=read
                            on:input=move |ev| write(event_target_value(&ev))
                        />
                    </div>
                }
            })
        })
        .collect_view();
    view! {
        <fieldset class="stack" data-testid="study-statements">
            <legend>{hs(|s| s.statements_title)}</legend>
            <p class="muted small">{hs(|s| s.statements_help)}</p>
            {boxes}
        </fieldset>
    }
}
