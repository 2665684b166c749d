//! Multi-panel structure typing in the browser: the comic's panels in reading order, then the
//! five structure types as a radio group, each with a one-line description and an example;
//! its review card, "k / n" scores, and the submit page's help, file check and dev preview.

use super::cards::{use_acked_sender, withheld_dd, OutcomeCard, QuestionCard, SubmitActions};
use super::panels::{
    correctness_summary, help_notes, panel_file_check, ContextBlock, DevLine, ReadingStrip,
    ReviewStrip,
};
use super::{PredictionFiles, QuestionContext, ReviewContext, UiKind, ValidFile};
use crate::api;
use crate::i18n::board::BoardStrings;
use crate::i18n::{use_i18n, Lang, StringTable};
use leptos::prelude::*;
use memeboard_core::api::{AnswerInput, ResultsResponse};
use memeboard_core::kinds::panel_type::{Input, PanelType, Review, View};
use memeboard_core::kinds::panels::StructureType;
use memeboard_core::predictions::panels::validate_types;
use memeboard_core::predictions::{FileFormat, Limits, TaskManifest};
use memeboard_core::tasks::CategoryInfo;
use serde::Deserialize;

/// What a structure type is, for people: its name, a one-line description and an example.
#[derive(Debug)]
struct TypeText {
    /// The type's name.
    name: &'static str,
    /// What makes a comic this type.
    description: &'static str,
    /// A small example.
    example: &'static str,
}

/// This kind's interface strings (the generic ones are in [`crate::i18n`]).
#[derive(Debug)]
struct Texts {
    /// The kind in words.
    name: &'static str,
    /// Question: legend of the choices.
    legend: &'static str,
    /// The toggle of the types' descriptions (open on the first comic only).
    descriptions: &'static str,
    /// Before an example.
    example: &'static str,
    /// The five types, in [`StructureType::ALL`] order.
    types: [TypeText; 5],
    /// Submit button.
    submit: &'static str,
    /// Submit button while sending.
    saving: &'static str,
    /// Shown while nothing is chosen.
    choose_first: &'static str,
    /// Review: the participant's type.
    your_type: &'static str,
    /// Review: the annotated type.
    gold_type: &'static str,
    /// Results: after "3 / 5".
    score_suffix: &'static str,
}

impl StringTable for Texts {
    const EN: &'static Self = &EN;
    const ZH: &'static Self = &ZH;
}

static ZH: Texts = Texts {
    name: "漫画结构类型（多格漫画）",
    legend: "这则漫画是哪种结构？",
    descriptions: "各类型的说明和例子",
    example: "例：",
    types: [
        TypeText {
            name: "叙事",
            description: "逐格讲一个故事：铺垫、发展、笑点。",
            example: "猫盯上蛋糕，悄悄靠近，结果被主人逮个正着。",
        },
        TypeText {
            name: "递进",
            description: "同一件事一步步升级或变化。",
            example: "一株植物从种子长成大树。",
        },
        TypeText {
            name: "对话",
            description: "各格是一段对话中的来回发言。",
            example: "两个朋友你一句我一句，最后一句是笑点。",
        },
        TypeText {
            name: "并列",
            description: "几种变体并排摆放，先后顺序无关紧要。",
            example: "四个星座遇到下雨天的不同反应。",
        },
        TypeText {
            name: "对比",
            description: "两种（或多种）状态的反差：之前/之后、期望/现实。",
            example: "宣传册上的假期和实际过上的假期。",
        },
    ],
    submit: "提交",
    saving: "保存中…",
    choose_first: "请先选择一种类型。",
    your_type: "你的选择",
    gold_type: "标注的类型",
    score_suffix: " 答对",
};

static EN: Texts = Texts {
    name: "Panel structure type (multi-panel comics)",
    legend: "Which structure does this comic have?",
    descriptions: "What each type means, with an example",
    example: "Example: ",
    types: [
        TypeText {
            name: "Narrative",
            description: "a story told panel by panel: set-up, development, punchline.",
            example: "a cat eyes a cake, sneaks up on it, and gets caught.",
        },
        TypeText {
            name: "Progressive",
            description: "the same thing escalates or changes step by step.",
            example: "a plant grows from seed to tree.",
        },
        TypeText {
            name: "Conversational",
            description: "the panels are turns of a dialogue.",
            example: "two friends trade replies; the last one is the punchline.",
        },
        TypeText {
            name: "Parallel",
            description: "variations side by side, in no necessary order.",
            example: "how four star signs react to rain.",
        },
        TypeText {
            name: "Comparison",
            description: "two (or more) states contrasted: before/after, expectation/reality.",
            example: "the holiday in the brochure vs. the holiday you got.",
        },
    ],
    submit: "Submit",
    saving: "Saving…",
    choose_first: "Choose a type first.",
    your_type: "Your answer",
    gold_type: "Annotated type",
    score_suffix: " right",
};

/// This kind's submit-page strings (the file help), apart from [`Texts`] so that the quiz
/// bundle, which shows `Texts` on its pages, does not carry it.
#[derive(Debug)]
struct HelpTexts {
    /// Submit help: JSON Lines.
    help_jsonl: &'static str,
    /// Submit help: CSV.
    help_csv: &'static str,
    /// Submit help: accepted labels.
    help_labels: &'static str,
}

impl StringTable for HelpTexts {
    const EN: &'static Self = &HELP_EN;
    const ZH: &'static Self = &HELP_ZH;
}

static HELP_ZH: HelpTexts = HelpTexts {
    help_jsonl: "JSON Lines：每行一个对象，给出题目编号和结构类型：",
    help_csv: "CSV：首行为表头 item_id,structure，之后每行一条预测：",
    help_labels: "类型写作 narrative、progressive、conversational、parallel、comparison（大小写不限），或中文名 叙事、递进、对话、并列、对比。",
};

static HELP_EN: HelpTexts = HelpTexts {
    help_jsonl: "JSON Lines: one object per line with the item id and the structure type:",
    help_csv: "CSV: a header row item_id,structure, then one prediction per row:",
    help_labels: "Types are narrative, progressive, conversational, parallel or comparison (any letter case), or the Chinese names 叙事, 递进, 对话, 并列, 对比.",
};

/// A structure type's name in `lang` (boards name types in their figures).
pub fn structure_name(lang: Lang, t: StructureType) -> &'static str {
    type_text(lang, t).name
}

/// A type's words in `lang`.
fn type_text(lang: Lang, t: StructureType) -> &'static TypeText {
    &lang.table::<Texts>().types[t.index()]
}

/// A dev gold line of a typing task.
#[derive(Debug, Clone, Deserialize)]
pub struct TypeGold {
    item_id: String,
    category: String,
    structure: StructureType,
}

impl DevLine for TypeGold {
    type Value = StructureType;

    fn item_id(&self) -> &str {
        &self.item_id
    }

    fn category(&self) -> &str {
        &self.category
    }

    fn is_right(&self, structure: &StructureType) -> bool {
        *structure == self.structure
    }
}

impl UiKind for PanelType {
    type Files = Self;

    fn memes_noun(lang: Lang) -> &'static str {
        super::panels::memes_noun(lang)
    }

    /// A structure type's figure (accuracy on the comics of one type, on the order and
    /// typing boards).
    fn figure_name(lang: Lang, name: &str) -> Option<String> {
        StructureType::parse(name).map(|s| {
            (lang.table::<BoardStrings>().metric_accuracy_of_type)(structure_name(lang, s))
        })
    }

    fn class_name(lang: Lang, key: &str) -> Option<&'static str> {
        StructureType::parse(key).map(|s| structure_name(lang, s))
    }

    fn name(lang: Lang) -> &'static str {
        lang.table::<Texts>().name
    }

    fn question(ctx: QuestionContext, view: View) -> AnyView {
        view! { <TypeQuestion ctx=ctx view=view /> }.into_any()
    }

    fn review_card(ctx: ReviewContext, review: Review) -> AnyView {
        view! { <ReviewCard ctx=ctx review=review /> }.into_any()
    }

    fn score_summary(results: &ResultsResponse) -> AnyView {
        correctness_summary(results, |lang| lang.table::<Texts>().score_suffix)
    }
}

impl PredictionFiles for PanelType {
    type DevGold = Vec<TypeGold>;

    fn submit_help() -> AnyView {
        view! {
            <div data-testid="help-panel-type">
                <p>{HelpTexts::text(|t| t.help_jsonl)}</p>
                <pre><code>"{\"item_id\": \"ITEM_ID\", \"structure\": \"narrative\"}"</code></pre>
                <p>{HelpTexts::text(|t| t.help_csv)}</p>
                <pre><code>"item_id,structure\nITEM_ID,narrative"</code></pre>
                <p>{HelpTexts::text(|t| t.help_labels)}</p>
                {help_notes()}
            </div>
        }
        .into_any()
    }

    /// Without dev gold the file is still checked; the preview just has no score.
    async fn load_dev_gold(slug: String) -> Vec<TypeGold> {
        api::dev_gold_lines(&slug).await.unwrap_or_default()
    }

    fn check_file(
        text: &str,
        format: FileFormat,
        manifest: &TaskManifest,
        dev: &Vec<TypeGold>,
        categories: &[CategoryInfo],
    ) -> Result<ValidFile, Vec<String>> {
        let valid = validate_types(text, format, manifest, Limits::default())
            .map_err(|report| report.lines_in(crate::i18n::current_lang().locale()))?;
        Ok(panel_file_check(&valid, manifest, dev, categories))
    }
}

/// One comic: context, panels in reading order, the five types, submit.
#[component]
fn TypeQuestion(ctx: QuestionContext, view: View) -> impl IntoView {
    let i18n = use_i18n();
    let View {
        panels,
        context,
        types,
    } = view;
    let position = ctx.position;
    let sender = use_acked_sender(&ctx);
    // A fresh component per item: nothing is chosen when a comic appears.
    let selected = RwSignal::new(None::<StructureType>);
    let submit = move || {
        if let Some(structure) = selected.get_untracked() {
            sender.send(AnswerInput::PanelType(Input { structure }));
        }
    };

    // Unique per item, so the browser cannot carry a choice over from the last comic.
    let group = format!("structure-{position}-{}", ctx.item_id);
    let options = types
        .into_iter()
        .map(|t| {
            let group = group.clone();
            let words = move || type_text(i18n.lang(), t);
            view! {
                <label
                    class="option structure-option"
                    class:selected=move || selected.get() == Some(t)
                    data-testid="structure-option"
                    data-structure=t.key()
                >
                    <input
                        type="radio"
                        name=group
                        value=t.key()
                        prop:checked=move || selected.get() == Some(t)
                        prop:disabled=move || sender.locked()
                        on:change=move |_| selected.set(Some(t))
                    />
                    <span class="structure-text">
                        <strong>{move || words().name}</strong>
                        <span class="structure-desc">
                            " — "
                            {move || words().description}
                            <span class="muted small structure-example">
                                {move || i18n.table::<Texts>().example}
                                {move || words().example}
                            </span>
                        </span>
                    </span>
                </label>
            }
        })
        .collect_view();

    view! {
        <QuestionCard ctx=ctx class="card question panel-question">
            <ContextBlock context=context />
            <ReadingStrip panels=panels />
            <fieldset class="structure-choices">
                <legend>{Texts::text(|t| t.legend)}</legend>
                // Open on the first comic; closed after it, the types fit a phone screen above
                // Submit (the CSS hides the descriptions while it is closed).
                <details class="type-help" open=position == 0 data-testid="type-help">
                    <summary>{Texts::text(|t| t.descriptions)}</summary>
                </details>
                {options}
            </fieldset>
            <p class="muted small" aria-live="polite">
                {move || selected.get().is_none().then(|| i18n.table::<Texts>().choose_first)}
            </p>
            <SubmitActions
                sender=sender
                submit=Callback::new(move |()| submit())
                testid="structure-submit"
                incomplete=move || selected.get().is_none()
                words=|lang| {
                    let t = lang.table::<Texts>();
                    [t.submit, t.saving]
                }
            />
        </QuestionCard>
    }
}

/// One reviewed comic: right/wrong, its panels, your type, the annotated type, the crowd.
#[component]
fn ReviewCard(ctx: ReviewContext, review: Review) -> impl IntoView {
    let i18n = use_i18n();
    let outcome = review.correct.filter(|_| !ctx.gold_withheld);
    let gold = review.gold.filter(|_| !ctx.gold_withheld);
    let chosen = review.chosen;
    let gold_view = match gold {
        Some(g) => view! {
            <dd data-testid="gold-structure" data-structure=g.key()>
                {move || type_text(i18n.lang(), g).name}
            </dd>
        }
        .into_any(),
        None => withheld_dd(),
    };
    let shown = view! { <ReviewStrip panels=review.panels /> }.into_any();
    view! {
        <OutcomeCard ctx=ctx outcome=outcome shown=shown>
            <dt>{Texts::text(|t| t.your_type)}</dt>
            <dd data-structure=chosen.key()>{move || type_text(i18n.lang(), chosen).name}</dd>
            <dt>{Texts::text(|t| t.gold_type)}</dt>
            {gold_view}
        </OutcomeCard>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_type_has_words_in_both_languages() {
        for lang in [Lang::En, Lang::Zh] {
            for t in StructureType::ALL {
                let w = type_text(lang, t);
                assert!(!w.name.is_empty() && !w.description.is_empty() && !w.example.is_empty());
            }
        }
        assert_eq!(type_text(Lang::Zh, StructureType::Comparison).name, "对比");
        assert_eq!(
            type_text(Lang::Zh, StructureType::Parallel).name,
            StructureType::Parallel.name_zh()
        );
    }

    #[test]
    fn dev_gold_lines_name_the_type() {
        let gold: TypeGold =
            serde_json::from_str(r#"{"item_id":"c1","category":"x","structure":"narrative"}"#)
                .expect("dev gold line");
        assert!(gold.is_right(&StructureType::Narrative));
        assert!(!gold.is_right(&StructureType::Parallel));
    }
}
