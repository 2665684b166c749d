//! The study form's error labels (issue 31): whether raters tag wrong explanations with error
//! types, the paper's for the study's protocol (CHIME's three, CMPM's three) or the owner's
//! own, written one a line as `key | English | 中文`. The server checks them
//! (`validate_error_labels`) and names the label that is wrong.

use crate::i18n::{text, use_i18n, StringTable};
use leptos::prelude::*;
use memeboard_core::human_eval::error_labels::{
    error_label_lines, paper_error_labels, parse_error_labels, ErrorLabel,
};
use memeboard_core::human_eval::study::StudyProtocol;

/// The control's strings.
struct Texts {
    title: &'static str,
    enable: &'static str,
    paper: &'static str,
    list: &'static str,
    help: &'static str,
}

static EN: Texts = Texts {
    title: "Error labels",
    enable: "Raters tag explanations they judge wrong with error types",
    paper: "Use the paper's error types for this protocol",
    list: "Error types, one a line: key | English | 中文",
    help: "Keys are a-z, 0-9 and _ (1 to 12 labels). A rater sees the labels once they disagree with a statement (accuracy) or score a dimension 1 (CMPM); the study page then counts the error types per model and the raters' agreement on each.",
};

static ZH: Texts = Texts {
    title: "错误标签",
    enable: "评分者为判为有误的解释标注错误类型",
    paper: "使用论文中该评测方案的错误类型",
    list: "错误类型，每行一个：key | English | 中文",
    help: "键由 a-z、0-9 和 _ 组成（1 到 12 个标签）。评分者对某项陈述选择“不同意”（准确性）或给某个维度打 1 分（CMPM）后才会看到这些标签；研究页面随后按模型统计错误类型，并给出评分者在每个标签上的一致性。",
};

impl StringTable for Texts {
    const EN: &'static Self = &EN;
    const ZH: &'static Self = &ZH;
}

/// The form's state: on or off, the paper's or the owner's list.
#[derive(Debug, Clone, Copy)]
pub(super) struct ErrorLabelsForm {
    /// Whether the study has error labels.
    on: RwSignal<bool>,
    /// Whether they are the paper's.
    paper: RwSignal<bool>,
    /// The owner's list, one label a line.
    text: RwSignal<String>,
    /// The study's protocol (whose paper's labels).
    protocol: StudyProtocol,
}

impl ErrorLabelsForm {
    /// Off, the paper's labels ready in the list.
    pub(super) fn new(protocol: StudyProtocol) -> Self {
        Self {
            on: RwSignal::new(false),
            paper: RwSignal::new(true),
            text: RwSignal::new(error_label_lines(&paper_error_labels(protocol))),
            protocol,
        }
    }

    /// The request's `error_labels`: `None` when off; a list that does not parse is sent
    /// empty, so the server's answer says what a study needs (the form shows the line at fault).
    pub(super) fn request(self) -> Option<Vec<ErrorLabel>> {
        if !self.on.get_untracked() {
            return None;
        }
        if self.paper.get_untracked() {
            return Some(paper_error_labels(self.protocol));
        }
        Some(parse_error_labels(&self.text.get_untracked()).unwrap_or_default())
    }
}

/// The checkboxes and the list.
#[component]
pub(super) fn ErrorLabelsFields(form: ErrorLabelsForm) -> impl IntoView {
    let i18n = use_i18n();
    let t = text::<Texts>;
    let problem = move || {
        let lang = i18n.lang();
        parse_error_labels(&form.text.get())
            .err()
            .map(|m| m.render(lang.locale()))
    };
    let ErrorLabelsForm {
        on, paper, text, ..
    } = form;
    view! {
        <fieldset class="stack" data-testid="study-error-labels-fields">
            <legend>{t(|t| t.title)}</legend>
            <div class="field check">
                <input
                    id="study-error-labels"
                    type="checkbox"
                    data-testid="study-error-labels"
                    prop:checked=move || on.get()
                    on:change=move |ev| on.set(event_target_checked(&ev))
                />
                <label for="study-error-labels">{t(|t| t.enable)}</label>
            </div>
            <div class="field check">
                <input
                    id="study-error-labels-paper"
                    type="checkbox"
                    data-testid="study-error-labels-paper"
                    prop:checked=move || paper.get()
                    prop:disabled=move || !on.get()
                    on:change=move |ev| {
                        let use_paper = event_target_checked(&ev);
                        if use_paper {
                            text.set(error_label_lines(&paper_error_labels(form.protocol)));
                        }
                        paper.set(use_paper);
                    }
                />
                <label for="study-error-labels-paper">{t(|t| t.paper)}</label>
            </div>
            <div class="field">
                <label for="study-error-labels-list">{t(|t| t.list)}</label>
                <textarea
                    id="study-error-labels-list"
                    rows="4"
                    data-testid="study-error-labels-list"
                    prop:value=move || text.get()
                    prop:readonly=move || !on.get() || paper.get()
                    on:input=move |ev| text.set(event_target_value(&ev))
                />
            </div>
            {move || problem().map(|p| view! { <p class="notice error" role="alert">{p}</p> })}
            <p class="muted small">{t(|t| t.help)}</p>
        </fieldset>
    }
}
