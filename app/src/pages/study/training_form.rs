//! The study form's rater training: a switch, the rubric, the pass mark, and the practice
//! pages as JSON lines (one page per line: a dev item of the board, the output to judge, the
//! expected judgement, why), checked as they are typed so that a bad line is named before the
//! study is sent.

use crate::i18n::human::TrainingStrings;
use crate::i18n::use_i18n;
use leptos::prelude::*;
use memeboard_core::human_eval::training::{PracticePageRequest, TrainingRequest};

/// The training fields' values; [`TrainingForm::request`] reads them into the request.
#[derive(Debug, Clone, Copy)]
pub(super) struct TrainingForm {
    on: RwSignal<bool>,
    rubric: RwSignal<String>,
    pass: RwSignal<String>,
    practice: RwSignal<String>,
}

/// The practice lines as pages, or the first bad line (1-based) with why.
fn practice_pages(text: &str) -> Result<Vec<PracticePageRequest>, (usize, String)> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(at, l)| serde_json::from_str(l).map_err(|e| (at + 1, e.to_string())))
        .collect()
}

impl TrainingForm {
    /// Empty fields, training off.
    pub(super) fn new() -> Self {
        Self {
            on: RwSignal::new(false),
            rubric: RwSignal::new(String::new()),
            pass: RwSignal::new(String::new()),
            practice: RwSignal::new(String::new()),
        }
    }

    /// The training the fields describe (`None`: off, or a practice line that does not
    /// parse, which the form shows and which keeps the study from being sent).
    pub(super) fn request(self) -> Option<TrainingRequest> {
        if !self.on.get_untracked() {
            return None;
        }
        let practice = practice_pages(&self.practice.get_untracked()).ok()?;
        Some(TrainingRequest {
            rubric: self.rubric.get_untracked(),
            practice,
            pass_percent: self.pass.get_untracked().trim().parse().ok(),
        })
    }

    /// Whether a practice line does not parse (the create button waits for a fix).
    pub(super) fn invalid(self) -> bool {
        self.on.get() && self.practice.with(|p| practice_pages(p).is_err())
    }
}

/// The training fields of the study form.
#[component]
pub(super) fn TrainingFields(form: TrainingForm) -> impl IntoView {
    let i18n = use_i18n();
    let t = move || i18n.table::<TrainingStrings>();
    let error = move || {
        form.practice
            .with(|p| practice_pages(p).err())
            .map(|(line, e)| (t().form_practice_error)(line, &e))
    };
    view! {
        <div class="field check">
            <input
                id="study-training"
                type="checkbox"
                data-testid="study-training"
                prop:checked=move || form.on.get()
                on:change=move |ev| form.on.set(event_target_checked(&ev))
            />
            <label for="study-training">{move || t().form_train}</label>
        </div>
        {move || form.on.get().then(|| view! {
            <div class="field">
                <label for="study-training-rubric">{move || t().form_rubric}</label>
                <textarea
                    id="study-training-rubric"
                    data-testid="study-training-rubric"
                    rows="5"
                    prop:value=move || form.rubric.get()
                    on:input=move |ev| form.rubric.set(event_target_value(&ev))
                ></textarea>
            </div>
            <div class="field">
                <label for="study-training-pass">{move || t().form_pass}</label>
                <input
                    id="study-training-pass"
                    type="number"
                    min="0"
                    max="100"
                    data-testid="study-training-pass"
                    prop:value=move || form.pass.get()
                    on:input=move |ev| form.pass.set(event_target_value(&ev))
                />
            </div>
            <div class="field">
                <label for="study-training-practice">{move || t().form_practice}</label>
                <textarea
                    id="study-training-practice"
                    data-testid="study-training-practice"
                    rows="6"
                    prop:value=move || form.practice.get()
                    on:input=move |ev| form.practice.set(event_target_value(&ev))
                ></textarea>
                <p class="muted small"><code>{move || t().form_practice_help}</code></p>
                {move || error().map(|e| view! {
                    <p class="notice error" role="alert" data-testid="study-training-error">{e}</p>
                })}
            </div>
        })}
    }
}

#[cfg(test)]
mod tests {
    use super::practice_pages;

    #[test]
    fn a_bad_practice_line_is_named_by_its_number() {
        let good = r#"{"source_item": "d1", "output": {"meaning": "m"}, "expected": {"protocol": "accuracy", "meaning": "agree"}}"#;
        assert_eq!(
            practice_pages(&format!("{good}\n\n{good}")).map(|p| p.len()),
            Ok(2)
        );
        let (line, _) = practice_pages(&format!("{good}\n\n{{\"source_item\": 1}}")).unwrap_err();
        assert_eq!(line, 3);
    }
}
