//! Ratings in the browser. **Accuracy** (CHIME): the reference meaning, origin and examples
//! first, then the model's explanation, then one Disagree / Neutral / Agree group per field the
//! explanation has, on the study's statement for it (the paper's by default). **Dimensions**
//! (CMPM): the comic and the explanation, then five 1–3 groups with a one-line description
//! each (context handling only when the comic has text context). The rater never sees which
//! model wrote the explanation.

use super::cards::{question_head, use_acked_sender, SubmitActions};
use super::judging::{
    is_comic, recorded_summary, submit_words, OutputFields, ReferenceBlock, Subject,
    Texts as SharedTexts,
};
use super::{NoFiles, QuestionContext, ReviewContext, UiKind};
use crate::i18n::{use_i18n, Lang, StringTable};
use leptos::prelude::*;
use memeboard_core::api::{AnswerInput, ResultsResponse};
use memeboard_core::human_eval::accuracy::Verdict3;
use memeboard_core::human_eval::dimensions::{Dimension, DimensionScores, MIN_SCORE};
use memeboard_core::human_eval::error_labels::ErrorLabel;
use memeboard_core::human_eval::outputs::ExplainedOutput;
use memeboard_core::human_eval::statements::{AccuracyStatements, Statement};
use memeboard_core::kinds::rating::{Answer, Rating, RatingProtocol, Review, View};

mod errors;
mod page;
mod texts;

use texts::{DimensionText, Texts};

fn verdict_key(v: Verdict3) -> &'static str {
    match v {
        Verdict3::Disagree => "disagree",
        Verdict3::Neutral => "neutral",
        Verdict3::Agree => "agree",
    }
}

fn dimension_text(lang: Lang, d: Dimension) -> &'static DimensionText {
    let i = Dimension::ALL.iter().position(|x| *x == d).unwrap_or(0);
    &lang.table::<Texts>().dimension_texts[i]
}

impl UiKind for Rating {
    type Files = NoFiles;

    fn name(lang: Lang) -> &'static str {
        lang.table::<Texts>().name
    }

    fn results_note(lang: Lang, _open_percent: Option<u8>) -> String {
        lang.table::<Texts>().results_note.to_owned()
    }

    fn question(ctx: QuestionContext, view: View) -> AnyView {
        if ctx.page.is_empty() {
            view! { <RatingQuestion ctx=ctx view=view /> }.into_any()
        } else {
            view! { <page::SubjectPage ctx=ctx view=view /> }.into_any()
        }
    }

    /// CHIME's design: the accuracy pages of one meme share a page.
    fn page_key(view: &View) -> Option<String> {
        (view.one_page_per_subject && view.protocol == RatingProtocol::Accuracy)
            .then(|| memeboard_core::kinds::rating::subject_name(&view.subject))
    }

    fn review_card(ctx: ReviewContext, review: Review) -> AnyView {
        view! { <RatingReview ctx=ctx review=review /> }.into_any()
    }

    fn score_summary(results: &ResultsResponse) -> AnyView {
        recorded_summary(results)
    }
}

/// One radio group of three verdicts on one field: how far the rater agrees with the study's
/// statement on it.
#[component]
fn VerdictGroup(
    /// `meaning`, `origin` or `example`.
    field: &'static str,
    /// The field's name.
    label: fn(&'static SharedTexts) -> &'static str,
    /// The statement to agree or disagree with.
    statement: Statement,
    /// The chosen verdict.
    chosen: RwSignal<Option<Verdict3>>,
    /// Unique radio name.
    group: String,
    /// Whether inputs are locked.
    locked: Signal<bool>,
) -> impl IntoView {
    let i18n = use_i18n();
    let options = Verdict3::ALL
        .into_iter()
        .map(|v| {
            let group = group.clone();
            view! {
                <label
                    class="option verdict-option"
                    class:selected=move || chosen.get() == Some(v)
                >
                    <input
                        type="radio"
                        name=group
                        value=verdict_key(v)
                        data-testid="verdict"
                        data-field=field
                        data-value=verdict_key(v)
                        prop:checked=move || chosen.get() == Some(v)
                        prop:disabled=move || locked.get()
                        on:change=move |_| chosen.set(Some(v))
                    />
                    <span>{move || i18n.table::<Texts>().verdicts[v.index()]}</span>
                </label>
            }
        })
        .collect_view();
    view! {
        <fieldset class="judging-group verdict-group" data-testid="verdict-group" data-field=field>
            <legend>
                <strong>{move || label(i18n.table::<SharedTexts>())}</strong>
                " — "
                <span data-testid="statement">
                    {move || match i18n.lang() {
                        Lang::Zh => statement.zh.clone(),
                        Lang::En => statement.en.clone(),
                    }}
                </span>
            </legend>
            <div class="judging-choices">{options}</div>
        </fieldset>
    }
}

/// One radio group of 1–3 on one dimension, with its description.
#[component]
fn DimensionGroup(
    dimension: Dimension,
    chosen: RwSignal<Option<u8>>,
    group: String,
    locked: Signal<bool>,
) -> impl IntoView {
    let i18n = use_i18n();
    let desc_id = format!("{group}-desc");
    let options = (1u8..=3)
        .map(|score| {
            let group = group.clone();
            view! {
                <label class="option verdict-option" class:selected=move || chosen.get() == Some(score)>
                    <input
                        type="radio"
                        name=group
                        value=score.to_string()
                        data-testid="dimension-score"
                        data-dimension=dimension.key()
                        data-value=score.to_string()
                        prop:checked=move || chosen.get() == Some(score)
                        prop:disabled=move || locked.get()
                        on:change=move |_| chosen.set(Some(score))
                    />
                    <span>{move || i18n.table::<Texts>().scores[usize::from(score - 1)]}</span>
                </label>
            }
        })
        .collect_view();
    view! {
        <fieldset
            class="judging-group dimension-group"
            data-testid="dimension-group"
            data-dimension=dimension.key()
            aria-describedby=desc_id.clone()
        >
            <legend>{move || dimension_text(i18n.lang(), dimension).name}</legend>
            <p class="muted small" id=desc_id.clone()>
                {move || dimension_text(i18n.lang(), dimension).description}
            </p>
            <div class="judging-choices">{options}</div>
        </fieldset>
    }
}

/// One rating page.
#[component]
fn RatingQuestion(ctx: QuestionContext, view: View) -> impl IntoView {
    let i18n = use_i18n();
    let View {
        protocol,
        subject,
        reference,
        output,
        has_context,
        statements,
        error_labels,
        ..
    } = view;
    let statements = statements.map(|s| *s).unwrap_or_default();
    let comic = is_comic(&subject);
    let position = ctx.position;
    let sender = use_acked_sender(&ctx);
    let locked = Signal::derive(move || sender.locked());
    let group = |name: &str| format!("{name}-{position}-{}", ctx.item_id);
    // Accuracy verdicts, and which fields the output has.
    let verdicts = Verdicts::new(&output);
    // Dimension scores, in Dimension::ALL order.
    let scores: [RwSignal<Option<u8>>; 5] = std::array::from_fn(|_| RwSignal::new(None));
    let dimensions: Vec<Dimension> = Dimension::ALL
        .into_iter()
        .filter(|d| *d != Dimension::ContextHandling || has_context)
        .collect();
    let score_of = move |d: Dimension| {
        let i = Dimension::ALL.iter().position(|x| *x == d).unwrap_or(0);
        scores[i]
    };
    // Error tags: offered once a verdict is Disagree or a dimension scored 1.
    let ticked = RwSignal::new(Vec::<String>::new());
    let wrong = Signal::derive(move || match protocol {
        RatingProtocol::Accuracy => verdicts.wrong(),
        RatingProtocol::Dimensions => scores.iter().any(|s| s.get() == Some(MIN_SCORE)),
    });
    let answer = move || -> Option<Answer> {
        match protocol {
            RatingProtocol::Accuracy => verdicts.answer(),
            RatingProtocol::Dimensions => dimension_answer(
                has_context,
                |d| score_of(d).get(),
                errors::tags_if_wrong(wrong.get(), ticked),
            ),
        }
    };
    let submit = move || {
        if let Some(a) = untrack(answer) {
            sender.send(AnswerInput::Rating(a));
        }
    };
    let error_tags = match protocol {
        RatingProtocol::Accuracy => {
            verdicts.error_tags(error_labels, &format!("{position}-{}", ctx.item_id), locked)
        }
        RatingProtocol::Dimensions => view! {
            <errors::ErrorTags
                labels=error_labels
                wrong=wrong
                ticked=ticked
                group=format!("{position}-{}", ctx.item_id)
                locked=locked
            />
        }
        .into_any(),
    };
    let questions = match protocol {
        RatingProtocol::Accuracy => {
            verdicts.groups(statements, &format!("{position}-{}", ctx.item_id), locked)
        }
        RatingProtocol::Dimensions => view! {
            <p class="judging-dimensions-head">{Texts::text(|t| t.dimensions)}</p>
            {dimensions
                .into_iter()
                .map(|d| {
                    view! {
                        <DimensionGroup
                            dimension=d
                            chosen=score_of(d)
                            group=group(d.key())
                            locked=locked
                        />
                    }
                })
                .collect_view()}
        }
        .into_any(),
    };
    let protocol_key = match protocol {
        RatingProtocol::Accuracy => "accuracy",
        RatingProtocol::Dimensions => "dimensions",
    };
    view! {
        <section
            class="card question judging-question"
            data-testid="question"
            data-kind="rating"
            data-protocol=protocol_key
            data-position=position.to_string()
            data-item-id=ctx.item_id.clone()
        >
            {question_head(&ctx)}
            <Subject subject=subject />
            {reference.map(|r| view! { <ReferenceBlock reference=r /> })}
            <section class="card judged-explanation" data-testid="rating-output" aria-labelledby="rating-output-h">
                <h2 id="rating-output-h">{Texts::text(|t| t.output)}</h2>
                <OutputFields output=output comic=comic />
            </section>
            <form
                class="judging-form"
                on:submit=move |ev| {
                    ev.prevent_default();
                    submit();
                }
            >
                {questions}
                {error_tags}
                <p class="muted small" aria-live="polite">
                    {move || answer().is_none().then(|| i18n.table::<Texts>().incomplete)}
                </p>
                <SubmitActions
                    sender=sender
                    submit=Callback::new(move |()| submit())
                    testid="rating-submit"
                    incomplete=move || answer().is_none()
                    words=submit_words
                    in_form=true
                />
            </form>
        </section>
    }
}

/// One explanation's accuracy verdicts: a choice per field the output has, its answer once
/// all are given, and its radio groups (the rating page and CHIME's page of one meme share it).
#[derive(Debug, Clone, Copy)]
struct Verdicts {
    meaning: RwSignal<Option<Verdict3>>,
    origin: RwSignal<Option<Verdict3>>,
    example: RwSignal<Option<Verdict3>>,
    has_origin: bool,
    has_example: bool,
    /// The error labels ticked (kept only while some verdict is Disagree).
    errors: RwSignal<Vec<String>>,
}

impl Verdicts {
    /// Nothing chosen yet, for `output`'s fields.
    fn new(output: &ExplainedOutput) -> Self {
        Self {
            meaning: RwSignal::new(None),
            origin: RwSignal::new(None),
            example: RwSignal::new(None),
            has_origin: output.origin.is_some(),
            has_example: output.example.is_some(),
            errors: RwSignal::new(Vec::new()),
        }
    }

    /// Whether some verdict given is Disagree: the explanation may then be tagged.
    fn wrong(self) -> bool {
        [self.meaning, self.origin, self.example]
            .iter()
            .any(|v| v.get() == Some(Verdict3::Disagree))
    }

    /// The error labels' checkboxes, shown while some verdict is Disagree.
    fn error_tags(self, labels: Vec<ErrorLabel>, group: &str, locked: Signal<bool>) -> AnyView {
        view! {
            <errors::ErrorTags
                labels=labels
                wrong=Signal::derive(move || self.wrong())
                ticked=self.errors
                group=group.to_owned()
                locked=locked
            />
        }
        .into_any()
    }

    /// The verdicts as an answer, once every field the output has is judged.
    fn answer(self) -> Option<Answer> {
        let m = self.meaning.get()?;
        let o = self.origin.get();
        let e = self.example.get();
        if (self.has_origin && o.is_none()) || (self.has_example && e.is_none()) {
            return None;
        }
        Some(Answer::Accuracy {
            meaning: m,
            origin: o.filter(|_| self.has_origin),
            example: e.filter(|_| self.has_example),
            errors: errors::tags_if_wrong(self.wrong(), self.errors),
        })
    }

    /// One radio group per field, on the study's statements; radio names start with
    /// `group` (unique per page).
    fn groups(self, statements: AccuracyStatements, group: &str, locked: Signal<bool>) -> AnyView {
        let name = |field: &str| format!("{field}-{group}");
        let mut groups = vec![view! {
            <VerdictGroup field="meaning" label=|t| t.meaning statement=statements.meaning chosen=self.meaning group=name("meaning") locked=locked />
        }
        .into_any()];
        if self.has_origin {
            groups.push(view! {
                <VerdictGroup field="origin" label=|t| t.origin statement=statements.origin chosen=self.origin group=name("origin") locked=locked />
            }
            .into_any());
        }
        if self.has_example {
            groups.push(view! {
                <VerdictGroup field="example" label=|t| t.example statement=statements.example chosen=self.example group=name("example") locked=locked />
            }
            .into_any());
        }
        groups.collect_view().into_any()
    }
}

/// The dimension scores as an answer, once every shown dimension is scored (`get` reads
/// one dimension's score), with the error labels ticked.
fn dimension_answer(
    has_context: bool,
    get: impl Fn(Dimension) -> Option<u8>,
    errors: Vec<String>,
) -> Option<Answer> {
    let context = if has_context {
        Some(get(Dimension::ContextHandling)?)
    } else {
        None
    };
    Some(Answer::Dimensions {
        scores: DimensionScores {
            visual_correctness: get(Dimension::VisualCorrectness)?,
            panel_coherence: get(Dimension::PanelCoherence)?,
            humour_comprehension: get(Dimension::HumourComprehension)?,
            context_handling: context,
            faithfulness: get(Dimension::Faithfulness)?,
        },
        errors,
    })
}

/// A rated explanation on the results page: what was judged and the rater's judgement.
#[component]
fn RatingReview(ctx: ReviewContext, review: Review) -> impl IntoView {
    let i18n = use_i18n();
    let category = ctx.category_label();
    let judgement = move || {
        let t = i18n.table::<Texts>();
        let s = i18n.table::<SharedTexts>();
        let tags = review.answer.errors();
        let tagged = if tags.is_empty() {
            String::new()
        } else {
            format!(" · {}: {}", t.errors_tagged, tags.join(", "))
        };
        let given = match &review.answer {
            Answer::Accuracy {
                meaning,
                origin,
                example,
                ..
            } => {
                let mut parts = vec![format!("{}: {}", s.meaning, t.verdicts[meaning.index()])];
                if let Some(o) = origin {
                    parts.push(format!("{}: {}", s.origin, t.verdicts[o.index()]));
                }
                if let Some(e) = example {
                    parts.push(format!("{}: {}", s.example, t.verdicts[e.index()]));
                }
                parts.join(" · ")
            }
            Answer::Dimensions { scores, .. } => Dimension::ALL
                .into_iter()
                .filter_map(|d| {
                    scores
                        .get(d)
                        .map(|v| format!("{} {v}", dimension_text(i18n.lang(), d).name))
                })
                .collect::<Vec<_>>()
                .join(" · "),
        };
        given + &tagged
    };
    let subject = memeboard_core::kinds::rating::subject_name(&review.subject);
    view! {
        <li class="card review-item" data-testid="review-item" data-position=ctx.position.to_string()>
            <p class="review-head">
                <strong lang="zh-CN">{subject}</strong>
                " "
                <span class="muted">{category}</span>
            </p>
            <OutputFields output=review.output.clone() comic=is_comic(&review.subject) />
            <p>
                <span class="muted small">{Texts::text(|t| t.your_judgement)} ": "</span>
                <span data-testid="your-judgement">{judgement}</span>
            </p>
        </li>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_dimension_and_verdict_has_words_in_both_languages() {
        for lang in [Lang::En, Lang::Zh] {
            for d in Dimension::ALL {
                let w = dimension_text(lang, d);
                assert!(!w.name.is_empty() && !w.description.is_empty());
            }
            assert!(lang.table::<Texts>().verdicts.iter().all(|v| !v.is_empty()));
        }
        assert_eq!(
            dimension_text(Lang::En, Dimension::Faithfulness).name,
            "Faithfulness"
        );
    }
}
