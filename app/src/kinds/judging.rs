//! What the two judging kinds (rating, ranking) share in the browser: the subject (a meme
//! phrase, or a comic's panels in reading order with the panel kinds' image markup), the
//! reference block read first, an explanation's fields, the results line ("your judgements
//! are recorded"), and the submit page's note that judging tasks take no files (shown by
//! `NoFiles`, in `files.rs`).

use super::panels::{panel_label, ContextBlock, ReadingStrip};
use crate::i18n::{use_i18n, Lang, StringTable};
use leptos::prelude::*;
use memeboard_core::api::ResultsResponse;
use memeboard_core::human_eval::outputs::{ExplainedOutput, RatedSubject, Reference};
use memeboard_core::kinds::panels::PanelContext;
use memeboard_core::tasks::MediaRef;

/// Strings both judging kinds use.
#[derive(Debug)]
pub(super) struct Texts {
    /// Heading of the reference block.
    pub reference: &'static str,
    /// Under the reference heading: read it first.
    pub reference_note: &'static str,
    /// Field names.
    pub meaning: &'static str,
    /// The label of a comic's explanation (one text).
    pub explanation: &'static str,
    /// Field names.
    pub origin: &'static str,
    /// Field names.
    pub example: &'static str,
    /// Field names.
    pub examples: &'static str,
    /// The meme phrase's label.
    pub meme: &'static str,
    /// Results: the judgements are recorded (count).
    pub recorded: fn(usize) -> String,
    /// Submit page: judging tasks take no files.
    pub no_files: &'static str,
    /// Submit button.
    pub submit: &'static str,
    /// Submit button while sending.
    pub saving: &'static str,
    /// Results: "done".
    pub thanks: &'static str,
}

static ZH: Texts = Texts {
    reference: "参考解释",
    reference_note: "请先阅读参考解释，再评判下面的解释。",
    meaning: "含义",
    explanation: "解释",
    origin: "出处",
    example: "例句",
    examples: "例句",
    meme: "梗",
    recorded: |n| format!("你的 {n} 条评判已保存。"),
    no_files: "这是人工评判任务：不接收预测文件。模型的解释由研究者从排行榜上的提交中选出。",
    submit: "提交评判",
    saving: "保存中…",
    thanks: "感谢参与！评判没有对错之分，因此这里不显示得分。",
};

static EN: Texts = Texts {
    reference: "Reference explanation",
    reference_note: "Read the reference first, then judge the explanation below.",
    meaning: "Meaning",
    explanation: "Explanation",
    origin: "Origin",
    example: "Example",
    examples: "Examples",
    meme: "Meme",
    recorded: |n| format!("Your {n} judgements are recorded."),
    no_files: "This is a human-judging task: it takes no prediction files. The explanations people judge are chosen by the researchers from submissions on the boards.",
    submit: "Submit judgement",
    saving: "Saving…",
    thanks: "Thank you! Judgements have no right or wrong answers, so there is no score here.",
};

impl StringTable for Texts {
    const EN: &'static Self = &EN;
    const ZH: &'static Self = &ZH;
}

/// The judging kinds' submit button words: idle, then while the judgement is saved.
pub(super) fn submit_words(lang: Lang) -> [&'static str; 2] {
    let t = lang.table::<Texts>();
    [t.submit, t.saving]
}

/// What the explanations explain: the meme phrase, or the comic's title, caption and panels in
/// reading order.
#[component]
pub(super) fn Subject(subject: RatedSubject) -> impl IntoView {
    let i18n = use_i18n();
    match subject {
        RatedSubject::Meme { phrase } => view! {
            <p class="meme" lang="zh-CN" data-testid="judged-meme">
                <span class="visually-hidden">{Texts::text(|t| t.meme)} ": "</span>
                {phrase}
            </p>
        }
        .into_any(),
        RatedSubject::Comic {
            panels,
            title,
            caption,
        } => {
            let context = PanelContext {
                title,
                caption,
                comments: Vec::new(),
            };
            let panels = panels
                .into_iter()
                .enumerate()
                .map(|(i, url)| MediaRef {
                    url,
                    alt: panel_label(i18n.lang_untracked(), i + 1),
                })
                .collect();
            view! {
                <ContextBlock context=Some(context) />
                <ReadingStrip panels=panels testid="judged-comic" />
            }
            .into_any()
        }
    }
}

/// The reference explanation, read first (accuracy ratings; rankings where the study shows
/// it).
#[component]
pub(super) fn ReferenceBlock(reference: Reference) -> impl IntoView {
    let Reference {
        meaning,
        origin,
        examples,
    } = reference;
    view! {
        <section class="card judging-reference" data-testid="judging-reference" aria-labelledby="judging-reference-h">
            <h2 id="judging-reference-h">{Texts::text(|t| t.reference)}</h2>
            <p class="muted small">{Texts::text(|t| t.reference_note)}</p>
            <dl class="review-grid">
                <dt>{Texts::text(|t| t.meaning)}</dt>
                <dd data-testid="reference-meaning">{meaning}</dd>
                {origin.map(|o| view! { <dt>{Texts::text(|t| t.origin)}</dt> <dd>{o}</dd> })}
                {(!examples.is_empty())
                    .then(|| {
                        view! {
                            <dt>{Texts::text(|t| t.examples)}</dt>
                            <dd>
                                <ul class="context-comments">
                                    {examples.into_iter().map(|e| view! { <li>{e}</li> }).collect_view()}
                                </ul>
                            </dd>
                        }
                    })}
            </dl>
        </section>
    }
}

/// Whether `subject` is a comic: its explanation is one text, not a meme's meaning.
pub(super) fn is_comic(subject: &RatedSubject) -> bool {
    matches!(subject, RatedSubject::Comic { .. })
}

/// An explanation's fields as a definition list; a comic's (`comic`) is labelled an
/// explanation, a meme's first field its meaning.
#[component]
pub(super) fn OutputFields(output: ExplainedOutput, comic: bool) -> impl IntoView {
    let ExplainedOutput {
        meaning,
        origin,
        example,
    } = output;
    let i18n = use_i18n();
    let label = move || {
        let t = i18n.table::<Texts>();
        if comic {
            t.explanation
        } else {
            t.meaning
        }
    };
    view! {
        <dl class="review-grid judged-output">
            <dt>{label}</dt>
            <dd data-testid="output-meaning">{meaning}</dd>
            {origin.map(|o| view! { <dt>{Texts::text(|t| t.origin)}</dt> <dd data-testid="output-origin">{o}</dd> })}
            {example.map(|e| view! { <dt>{Texts::text(|t| t.example)}</dt> <dd data-testid="output-example">{e}</dd> })}
        </dl>
    }
}

/// The results line of a judging batch: how many judgements are recorded (no score).
pub(super) fn recorded_summary(results: &ResultsResponse) -> AnyView {
    let i18n = use_i18n();
    let n = results.review.len();
    view! {
        <p class="score" data-testid="your-score" data-state="judged">
            {move || (i18n.table::<Texts>().recorded)(n)}
        </p>
        <p class="muted small">{Texts::text(|t| t.thanks)}</p>
    }
    .into_any()
}
