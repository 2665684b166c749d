//! CHIME's page design in the browser (App. C.4): one meme, its reference once, then every
//! model's explanation of it in the rater's batch (in the rater's own order), each judged on
//! the study's statements and saved on its own, so every verdict is stored the moment it is
//! given; the page moves on once all are saved. The rater never sees which model wrote which.

use super::super::cards::question_head;
use super::super::judging::{
    is_comic, OutputFields, ReferenceBlock, Subject, Texts as SharedTexts,
};
use super::super::QuestionContext;
use super::{Texts, Verdicts};
use crate::components::answer::{use_answer_sender, AnswerError};
use crate::i18n::{use_i18n, StringTable};
use leptos::prelude::*;
use memeboard_core::api::{AnswerInput, SubmitAnswerResponse};
use memeboard_core::human_eval::error_labels::ErrorLabel;
use memeboard_core::human_eval::outputs::ExplainedOutput;
use memeboard_core::human_eval::statements::AccuracyStatements;
use memeboard_core::kinds::rating::{Rating, View};
use memeboard_core::kinds::Kind;

/// One explanation on the page.
#[derive(Debug, Clone)]
struct PageEntry {
    /// Its position in the batch.
    position: usize,
    /// Its item (to answer).
    item_id: String,
    /// The explanation.
    output: ExplainedOutput,
    /// The statements judged.
    statements: AccuracyStatements,
    /// Stored before the page was shown (a resumed session).
    answered: bool,
    /// The study's error labels (none: no tagging).
    error_labels: Vec<ErrorLabel>,
}

/// The page of one meme with all its explanations.
#[component]
pub(super) fn SubjectPage(ctx: QuestionContext, view: View) -> impl IntoView {
    let entries: Vec<PageEntry> = ctx
        .page
        .iter()
        .filter_map(|item| {
            let v = Rating::view_of(item.prompt.clone()).ok()?;
            Some(PageEntry {
                position: item.position,
                item_id: item.item_id.clone(),
                output: v.output,
                statements: v.statements.map(|s| *s).unwrap_or_default(),
                answered: item.answered,
                error_labels: v.error_labels,
            })
        })
        .collect();
    let open = entries.iter().filter(|e| !e.answered).count();
    // The acknowledgements of this page's explanations, handed to the runner together once
    // every one is saved (the one carrying the completion code last: it ends the batch).
    let acks = RwSignal::new(Vec::<(usize, SubmitAnswerResponse)>::new());
    let on_ack = ctx.on_ack;
    let on_saved = Callback::new(move |ack: (usize, SubmitAnswerResponse)| {
        if acks.with_untracked(|a| a.iter().any(|(p, _)| *p == ack.0)) {
            return;
        }
        acks.update_untracked(|a| a.push(ack));
        if acks.with_untracked(Vec::len) >= open {
            let mut all = acks.get_untracked();
            all.sort_by_key(|(_, a)| a.completion_code.is_some());
            for ack in all {
                on_ack.run(ack);
            }
        }
    });
    let comic = is_comic(&view.subject);
    let session_id = ctx.session_id.clone();
    view! {
        <section
            class="card question judging-question"
            data-testid="question"
            data-kind="rating"
            data-protocol="accuracy"
            data-page="subject"
            data-position=ctx.position.to_string()
        >
            {question_head(&ctx)}
            <Subject subject=view.subject.clone() />
            {view.reference.clone().map(|r| view! { <ReferenceBlock reference=r /> })}
            <p class="muted small">{Texts::text(|t| t.page_note)}</p>
            {entries
                .into_iter()
                .enumerate()
                .map(|(index, entry)| {
                    view! {
                        <PageOutput
                            entry=entry
                            index=index
                            session_id=session_id.clone()
                            comic=comic
                            on_saved=on_saved
                        />
                    }
                })
                .collect_view()}
        </section>
    }
}

/// One explanation of the page: its verdicts and its own save button.
#[component]
fn PageOutput(
    entry: PageEntry,
    /// 0-based place on the page.
    index: usize,
    session_id: String,
    comic: bool,
    on_saved: Callback<(usize, SubmitAnswerResponse)>,
) -> impl IntoView {
    let i18n = use_i18n();
    let PageEntry {
        position,
        item_id,
        output,
        statements,
        answered,
        error_labels,
    } = entry;
    let sender = use_answer_sender(&session_id, &item_id);
    Effect::new(move |_| {
        if let Some(ack) = sender.recorded() {
            on_saved.run((position, ack));
        }
    });
    let saved = Signal::derive(move || answered || sender.recorded().is_some());
    let locked = Signal::derive(move || saved.get() || sender.locked());
    let verdicts = Verdicts::new(&output);
    let answer = move || verdicts.answer();
    let submit = move || {
        if let Some(a) = untrack(answer) {
            sender.send(AnswerInput::Rating(a));
        }
    };
    // Verdicts only for an explanation not stored before the page was shown.
    let groups = (!answered).then(|| {
        let group = format!("{position}-{item_id}");
        view! {
            {verdicts.groups(statements, &group, locked)}
            {verdicts.error_tags(error_labels, &group, locked)}
        }
    });
    let heading_id = format!("page-output-{position}");
    view! {
        <section
            class="card judged-explanation"
            data-testid="page-output"
            data-position=position.to_string()
            aria-labelledby=heading_id.clone()
        >
            <h2 id=heading_id.clone()>{move || (i18n.table::<Texts>().page_output)(index + 1)}</h2>
            <OutputFields output=output comic=comic />
            <form
                class="judging-form"
                on:submit=move |ev| {
                    ev.prevent_default();
                    submit();
                }
            >
                {groups}
                <AnswerError sender=sender on_retry=Callback::new(move |()| submit()) />
                {move || {
                    if saved.get() {
                        view! {
                            <p class="saved" data-testid="page-output-saved">
                                "✓ " {Texts::text(|t| t.saved)}
                            </p>
                        }
                        .into_any()
                    } else {
                        view! {
                            <div class="actions">
                                <button
                                    type="submit"
                                    class="button primary"
                                    data-testid="page-output-save"
                                    disabled=move || sender.locked() || answer().is_none()
                                >
                                    {move || {
                                        let s = i18n.table::<SharedTexts>();
                                        if sender.locked() { s.saving } else { s.submit }
                                    }}
                                </button>
                            </div>
                        }
                        .into_any()
                    }
                }}
            </form>
        </section>
    }
}
