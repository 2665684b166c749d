//! Comic explanations in the browser: the comic's panels in reading order with its title and
//! caption, then a text box (the same input as meme explanations) for what it means. Nothing
//! is scored: the review card shows the comic and what was written, and the results page says
//! that explanations are judged by people. Also the submit page's help and file check (no
//! dev preview: there is no gold).

use super::cards::QuestionCard;
use super::free_text::{missing_note, AnswerBox, NextButton, SendButton};
use super::panels::{ContextBlock, ReadingStrip, ReviewStrip};
use super::{KindPanel, PredictionFiles, QuestionContext, ReviewContext, UiKind, ValidFile};
use crate::components::answer::{use_answer_sender, AnswerError};
use crate::i18n::{Lang, StringTable};
use leptos::prelude::*;
use memeboard_core::api::{AnswerInput, ResultsResponse};
use memeboard_core::kinds::panel_explanation::{Input, PanelExplanation, Review, View};
use memeboard_core::predictions::{validate_comic_explanations, FileFormat, Limits, TaskManifest};
use memeboard_core::tasks::CategoryInfo;

/// This kind's interface strings (the generic ones are in [`crate::i18n`]).
#[derive(Debug)]
struct Texts {
    /// The kind in words.
    name: &'static str,
    /// Consent page: what the end of the batch shows.
    results_note: &'static str,
    /// Question: the prompt above the comic.
    prompt: &'static str,
    /// Question: label of the text box.
    your_explanation: &'static str,
    /// Question: submit button.
    submit: &'static str,
    /// Question: submit button while sending.
    saving: &'static str,
    /// After an answer is stored.
    stored: &'static str,
    /// The button to the next comic.
    next: &'static str,
    /// Results: what happens to the explanations.
    judged_note: &'static str,
}

impl StringTable for Texts {
    const EN: &'static Self = &EN;
    const ZH: &'static Self = &ZH;
}

static ZH: Texts = Texts {
    name: "漫画解读（多格漫画）",
    results_note: "结束后你会看到自己写下的解读。解读不自动计分，之后由人工评判。",
    prompt: "这则漫画想表达什么？笑点在哪里？",
    your_explanation: "你的解读",
    submit: "提交",
    saving: "保存中…",
    stored: "已保存。",
    next: "下一题",
    judged_note: "漫画解读不自动计分：它们会与模型的解读一起由人工评判。",
};

static EN: Texts = Texts {
    name: "Comic explanation (multi-panel comics)",
    results_note: "At the end you see the explanations you wrote. They are not scored automatically; people judge them later.",
    prompt: "What does this comic mean, and what makes it funny?",
    your_explanation: "Your explanation",
    submit: "Submit",
    saving: "Saving…",
    stored: "Saved.",
    next: "Next",
    judged_note: "Comic explanations are not scored automatically: people judge them, together with the models' explanations.",
};

/// This kind's submit-page strings (the file help, the file check and preview), apart from [`Texts`] so that the quiz
/// bundle, which shows `Texts` on its pages, does not carry it.
#[derive(Debug)]
struct HelpTexts {
    /// Submit help: JSON Lines.
    help_jsonl: &'static str,
    /// Submit help: CSV.
    help_csv: &'static str,
    /// Submit help: not scored.
    help_unscored: &'static str,
    /// Submit page: a valid file.
    check_note: &'static str,
}

impl StringTable for HelpTexts {
    const EN: &'static Self = &HELP_EN;
    const ZH: &'static Self = &HELP_ZH;
}

static HELP_ZH: HelpTexts = HelpTexts {
    help_jsonl: "JSON Lines：每行一个对象，给出题目编号和解读（也可以用 meaning 作为字段名）：",
    help_csv: "CSV：首行为表头 item_id,explanation，之后每行一条解读：",
    help_unscored: "漫画解读没有标准答案，不自动计分：文件会被检查并保存，榜单上标为“仅人工评判”，由人工评测来排名。没有解读的漫画不参与评测。",
    check_note: "文件有效。漫画解读不自动计分，上传后由人工评判。",
};

static HELP_EN: HelpTexts = HelpTexts {
    help_jsonl: "JSON Lines: one object per line with the item id and the explanation (the field may also be called meaning):",
    help_csv: "CSV: a header row item_id,explanation, then one explanation per row:",
    help_unscored: "Comic explanations have no gold and are not scored automatically: the file is checked and stored, listed on the board as \"judged by people only\", and ranked by human evaluation. Comics without an explanation are left out of it.",
    check_note: "The file is valid. Comic explanations are not scored automatically; people judge them after the upload.",
};

impl UiKind for PanelExplanation {
    type Files = Self;

    fn memes_noun(lang: Lang) -> &'static str {
        super::panels::memes_noun(lang)
    }

    fn condition_text(lang: Lang, key: &str) -> Option<&'static str> {
        let (en, zh) = match key {
            "context" => ("Context", "上下文"),
            "full" => ("with the post text and comments", "含帖子文字与评论"),
            "image_only" => ("image only", "仅图像"),
            _ => return None,
        };
        Some(if lang == Lang::Zh { zh } else { en })
    }

    fn name(lang: Lang) -> &'static str {
        lang.table::<Texts>().name
    }

    fn results_note(lang: Lang, _open_percent: Option<u8>) -> String {
        lang.table::<Texts>().results_note.to_owned()
    }

    fn question(ctx: QuestionContext, view: View) -> AnyView {
        view! { <ComicQuestion ctx=ctx view=view /> }.into_any()
    }

    fn review_card(ctx: ReviewContext, review: Review) -> AnyView {
        view! { <ReviewCard ctx=ctx review=review /> }.into_any()
    }

    fn score_summary(_results: &ResultsResponse) -> AnyView {
        view! { <p class="muted" data-testid="score-meaning">{Texts::text(|t| t.judged_note)}</p> }
            .into_any()
    }
}

impl PredictionFiles for PanelExplanation {
    type DevGold = ();

    fn submit_help() -> AnyView {
        view! {
            <div data-testid="help-panel-explanation">
                <p>{HelpTexts::text(|t| t.help_jsonl)}</p>
                <pre><code>"{\"item_id\": \"ITEM_ID\", \"explanation\": \"…\"}"</code></pre>
                <p>{HelpTexts::text(|t| t.help_csv)}</p>
                <pre><code>"item_id,explanation\nITEM_ID,…"</code></pre>
                <p>
                    <strong>{HelpTexts::text(|t| t.help_unscored)}</strong>
                </p>
            </div>
        }
        .into_any()
    }

    /// No gold, so nothing to load.
    async fn load_dev_gold(_slug: String) {}

    fn check_file(
        text: &str,
        format: FileFormat,
        manifest: &TaskManifest,
        _dev: &(),
        _categories: &[CategoryInfo],
    ) -> Result<ValidFile, Vec<String>> {
        let lang = crate::i18n::current_lang();
        let valid = validate_comic_explanations(text, format, manifest, Limits::default())
            .map_err(|report| report.lines_in(lang.locale()))?;
        let missing = missing_note(lang, "file.missing_unjudged", &valid.missing);
        Ok(ValidFile {
            lines: valid.num_lines,
            missing,
            panel: KindPanel::new(move || {
                view! { <p class="small">{HelpTexts::text(|t| t.check_note)}</p> }.into_any()
            }),
        })
    }
}

/// One comic: context, panels in reading order, text box, submit (idempotent, with retry).
#[component]
fn ComicQuestion(ctx: QuestionContext, view: View) -> impl IntoView {
    let View { panels, context } = view;
    let position = ctx.position;
    let on_ack = ctx.on_ack;
    let text = RwSignal::new(String::new());
    let sender = use_answer_sender(&ctx.session_id, &ctx.item_id);
    let submit = move || {
        let answer = text.get_untracked().trim().to_owned();
        if !answer.is_empty() {
            sender.send(AnswerInput::PanelExplanation(Input { text: answer }));
        }
    };
    view! {
        <QuestionCard ctx=ctx class="card question panel-question explain">
            <ContextBlock context=context />
            <ReadingStrip panels=panels />
            <p class="explain-prompt">{Texts::text(|t| t.prompt)}</p>
            <AnswerBox text=text sender=sender label=Texts::text(|t| t.your_explanation) />
            <AnswerError sender=sender on_retry=Callback::new(move |()| submit()) />
            {move || match sender.recorded() {
                None => view! {
                    <SendButton
                        text=text
                        sender=sender
                        submit=Callback::new(move |()| submit())
                        words=|lang| {
                            let t = lang.table::<Texts>();
                            [t.submit, t.saving]
                        }
                    />
                }
                .into_any(),
                Some(ack) => view! {
                    <p role="status" class="muted small">{Texts::text(|t| t.stored)}</p>
                    <NextButton on_ack=on_ack position=position ack=ack label=Texts::text(|t| t.next) />
                }
                .into_any(),
            }}
        </QuestionCard>
    }
}

/// One reviewed comic: its panels and what the participant wrote.
#[component]
fn ReviewCard(ctx: ReviewContext, review: Review) -> impl IntoView {
    let category = ctx.category_label();
    view! {
        <li
            class="card review-item"
            data-testid="review-item"
            data-position=ctx.position.to_string()
            data-correct="unscored"
        >
            <p class="review-head">
                <span class="muted">{category}</span>
            </p>
            <ReviewStrip panels=review.panels />
            <dl class="review-grid">
                <dt>{Texts::text(|t| t.your_explanation)}</dt>
                <dd>{review.answer}</dd>
            </dl>
        </li>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_languages_say_the_explanations_are_judged_by_people() {
        for lang in [Lang::En, Lang::Zh] {
            let t = lang.table::<Texts>();
            assert!(!t.name.is_empty() && !t.judged_note.is_empty());
            let help = lang.table::<HelpTexts>();
            assert!(!help.help_unscored.is_empty());
        }
        assert_ne!(
            Lang::En.table::<Texts>().prompt,
            Lang::Zh.table::<Texts>().prompt
        );
    }
}
