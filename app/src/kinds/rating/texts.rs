//! The rating kind's interface strings in both languages: verdicts, dimensions and their
//! descriptions, CHIME's page of one meme, and the error labels' question.

use crate::i18n::StringTable;

/// A dimension in words: its name and what a rater looks for.
#[derive(Debug)]
pub(super) struct DimensionText {
    /// Name.
    pub(super) name: &'static str,
    /// One line on what it means.
    pub(super) description: &'static str,
}

/// This kind's interface strings.
#[derive(Debug)]
pub(super) struct Texts {
    /// The kind in words.
    pub(super) name: &'static str,
    /// Consent page: what the end shows.
    pub(super) results_note: &'static str,
    /// Heading of the explanation to judge.
    pub(super) output: &'static str,
    /// The three verdicts, in scale order.
    pub(super) verdicts: [&'static str; 3],
    /// Heading of the dimension groups.
    pub(super) dimensions: &'static str,
    /// The five dimensions, in `Dimension::ALL` order.
    pub(super) dimension_texts: [DimensionText; 5],
    /// The three scores.
    pub(super) scores: [&'static str; 3],
    /// Shown while something is missing.
    pub(super) incomplete: &'static str,
    /// Review: your judgement.
    pub(super) your_judgement: &'static str,
    /// One page per meme: the heading of the n-th explanation (1-based).
    pub(super) page_output: fn(usize) -> String,
    /// One page per meme: an explanation whose verdicts are stored.
    pub(super) saved: &'static str,
    /// One page per meme: how the page works.
    pub(super) page_note: &'static str,
    /// Error labels: the question over the checkboxes.
    pub(super) errors_legend: &'static str,
    /// Error labels: under the question.
    pub(super) errors_help: &'static str,
    /// Review: the error labels tagged.
    pub(super) errors_tagged: &'static str,
}

static ZH: Texts = Texts {
    name: "人工评判：为模型的解释打分",
    results_note: "结束时会显示你保存了多少条评判；评判没有对错之分，因此不显示得分。",
    output: "待评判的解释",
    verdicts: ["不同意", "中立", "同意"],
    dimensions: "请为每个维度打分（1 = 差，2 = 部分做到，3 = 好）",
    dimension_texts: [
        DimensionText {
            name: "画面正确性",
            description: "对各格画面内容的描述是否正确？",
        },
        DimensionText {
            name: "分格连贯性",
            description: "是否按正确顺序把各格串成一个完整的故事？",
        },
        DimensionText {
            name: "幽默理解",
            description: "是否理解了笑点？",
        },
        DimensionText {
            name: "文字信息运用",
            description: "是否用好了标题、配文和评论？",
        },
        DimensionText {
            name: "忠实性",
            description: "是否没有编造画面中没有的东西？",
        },
    ],
    scores: ["1 差", "2 部分做到", "3 好"],
    incomplete: "请先完成每一组选择。",
    your_judgement: "你的评判",
    page_output: |n| format!("解释 {n}"),
    saved: "已保存",
    page_note: "逐条保存每个解释的评判；全部保存后进入下一个梗。",
    errors_legend: "这个解释错在哪里？",
    errors_help: "勾选你看到的每一种错误（可不选）。",
    errors_tagged: "错误类型",
};

static EN: Texts = Texts {
    name: "Human judging: rate a model's explanation",
    results_note: "At the end you see how many judgements were recorded; judgements have no right or wrong answers, so there is no score.",
    output: "Explanation to judge",
    verdicts: ["Disagree", "Neutral", "Agree"],
    dimensions: "Score each dimension (1 = poor, 2 = partly, 3 = good)",
    dimension_texts: [
        DimensionText {
            name: "Visual correctness",
            description: "Does it describe what the panels show correctly?",
        },
        DimensionText {
            name: "Panel coherence",
            description: "Does it connect the panels, in the right order, into one story?",
        },
        DimensionText {
            name: "Humour comprehension",
            description: "Does it get the joke?",
        },
        DimensionText {
            name: "Context handling",
            description: "Does it use the title, caption and comments well?",
        },
        DimensionText {
            name: "Faithfulness",
            description: "Does it avoid inventing things that are not there?",
        },
    ],
    scores: ["1 poor", "2 partly", "3 good"],
    incomplete: "Complete every group first.",
    your_judgement: "Your judgement",
    page_output: |n| format!("Explanation {n}"),
    saved: "Saved",
    page_note: "Save each explanation's verdicts; the next meme follows once all are saved.",
    errors_legend: "What is wrong with this explanation?",
    errors_help: "Tick every error you see (optional).",
    errors_tagged: "Errors",
};

impl StringTable for Texts {
    const EN: &'static Self = &EN;
    const ZH: &'static Self = &ZH;
}
