//! AVMeme Exam's tables: accuracy by question type on meme-full and meme-main (Table 1) and
//! by sound type and language (Table 2), each with the audio-only, "+ visual input" and
//! text-only rows; the input modalities side by side with their Δ; the hint ablations
//! (Table 3), the thinking levels (Table 5), the models inside the crowd's familiarity groups
//! (Figure 4), and accuracy by the visual hint on screen (Figure 7) and by the meme's year
//! (Figure 8).

use crate::paper_tables::spec::{ColumnSpec, TableSpec, ValueColumn};

/// A table of the clip task over all of meme-full with one column per value of a condition.
const fn by_condition(
    id: &'static str,
    paper: &'static str,
    (title_en, title_zh): (&'static str, &'static str),
    condition: &'static str,
    values: &'static [ValueColumn],
    deltas: bool,
) -> TableSpec {
    TableSpec {
        id,
        paper,
        title_en,
        title_zh,
        task: "clips",
        subset: "full",
        conditions: &[],
        row_condition: None,
        columns: ColumnSpec::ConditionValues {
            condition,
            values,
            percent: true,
            deltas,
        },
        delta_against: None,
        reference_rows: false,
    }
}

/// One column value.
const fn value(value: &'static str, label_en: &'static str, label_zh: &'static str) -> ValueColumn {
    ValueColumn {
        value,
        label_en,
        label_zh,
    }
}

/// Columns per facet value (accuracies as percentages): the board's figures whose key starts
/// with one of `prefixes`, headed by `labels` (other keys are their own header).
const fn facets(
    prefixes: &'static [&'static str],
    labels: &'static [(&'static str, &'static str, &'static str)],
) -> ColumnSpec {
    ColumnSpec::Facets {
        prefixes,
        labels,
        percent: true,
    }
}

/// A table by question type or by facet, over one subset, with a row per input modality.
const fn by_type(
    id: &'static str,
    paper: &'static str,
    (title_en, title_zh): (&'static str, &'static str),
    subset: &'static str,
    columns: ColumnSpec,
) -> TableSpec {
    TableSpec {
        id,
        paper,
        title_en,
        title_zh,
        task: "clips",
        subset,
        conditions: &[],
        row_condition: Some("input"),
        columns,
        delta_against: None,
        reference_rows: true,
    }
}

/// AVMeme Exam Tables 1, 2, 3 and 5, Figures 4, 7 and 8, and the input comparison of Tables
/// 1–2.
pub(in crate::kinds) const TABLES: &[TableSpec] = &[
    by_type(
        "avmeme-table-1-full",
        "AVMeme Exam Table 1 (meme-full)",
        (
            "Accuracy by question type, meme-full",
            "各题型准确率（meme-full）",
        ),
        "full",
        ColumnSpec::Categories { percent: true },
    ),
    by_type(
        "avmeme-table-1-main",
        "AVMeme Exam Table 1 (meme-main)",
        (
            "Accuracy by question type, meme-main",
            "各题型准确率（meme-main）",
        ),
        "main",
        ColumnSpec::Categories { percent: true },
    ),
    by_type(
        "avmeme-table-2",
        "AVMeme Exam Table 2 (meme-full)",
        (
            "Accuracy by sound type and language",
            "各声音类型与语言的准确率",
        ),
        "full",
        facets(&["sound:", "lang:"], &[]),
    ),
    TableSpec {
        id: "avmeme-figure-4",
        paper: "AVMeme Exam Figure 4",
        title_en: "Models and people by the people's familiarity with the meme: the crowd's \
                   accuracy in each group, and each model's accuracy over the same answers \
                   (every clip counted as often as people in the group answered it; model rows \
                   on the private half and the whole test split only, once revealed; n = \
                   answers)",
        title_zh: "按参与者对梗的熟悉程度分组的模型与人类对比：众包在各组的准确率，以及各模型在\
                   同一批作答上的准确率（每个片段按该组参与者作答次数计权；模型行仅在私有半集与\
                   完整测试集公开后显示；n 为作答数）",
        task: "clips",
        subset: "full",
        conditions: &[],
        row_condition: None,
        columns: ColumnSpec::FamiliarityGroups {
            groups: &[
                value("familiar", "Familiar", "熟悉"),
                value("seen_not_familiar", "Seen, not familiar", "见过但不熟悉"),
                value("unseen", "Never seen", "没见过"),
            ],
            percent: true,
        },
        delta_against: None,
        reference_rows: false,
    },
    by_type(
        "avmeme-figure-7",
        "AVMeme Exam Figure 7 (meme-main)",
        (
            "Accuracy by the strongest text hint on screen",
            "按画面中最强文字提示分组的准确率",
        ),
        "main",
        facets(
            &["hint:"],
            &[
                (
                    "hint:visual_contains_solution",
                    "Visual contains the solution",
                    "画面含答案",
                ),
                (
                    "hint:title_name",
                    "Title, name or keywords",
                    "标题、名称或关键词",
                ),
                ("hint:transcription", "Transcription", "字幕转写"),
                ("hint:irrelevant_text", "Irrelevant text", "无关文字"),
                ("hint:no_text", "No text", "无文字"),
            ],
        ),
    ),
    by_type(
        "avmeme-figure-8",
        "AVMeme Exam Figure 8 (meme-main)",
        (
            "Accuracy by the meme's original year",
            "按梗的原始年份分组的准确率",
        ),
        "main",
        facets(
            &["year:"],
            &[
                ("year:before_2000", "Before 2000", "2000 年前"),
                ("year:2000_2009", "2000–2009", "2000–2009"),
                ("year:2010_2014", "2010–2014", "2010–2014"),
                ("year:2015_2019", "2015–2019", "2015–2019"),
                ("year:2020_later", "2020 and later", "2020 年及以后"),
                ("year:none", "Year unknown", "年份不详"),
            ],
        ),
    ),
    by_condition(
        "avmeme-inputs",
        "AVMeme Exam Tables 1–2 (inputs)",
        (
            "Audio only, + visual input, text only",
            "仅音频、加视觉输入、仅文本",
        ),
        "input",
        &[
            value("audio", "Audio only", "仅音频"),
            value("audio_visual", "+ visual input", "加视觉输入"),
            value("text_only", "Text only (no audio)", "仅文本（无音频）"),
        ],
        true,
    ),
    by_condition(
        "avmeme-table-3",
        "AVMeme Exam Table 3",
        (
            "Hints: the meme's name, \"this is a meme\", visual cheat allowed",
            "提示消融：梗名、“这是一个梗”、允许视觉线索",
        ),
        "hint",
        &[
            value("none", "No hint", "无提示"),
            value("meme_name", "Meme name given", "给出梗名"),
            value("is_meme", "\"This is a meme\"", "“这是一个梗”"),
            value(
                "visual_cheat_allowed",
                "Visual cheat allowed",
                "允许视觉线索",
            ),
        ],
        true,
    ),
    by_condition(
        "avmeme-table-5",
        "AVMeme Exam Table 5",
        ("Thinking levels", "思考强度"),
        "thinking",
        &[
            value("default", "Default", "默认"),
            value("minimal", "Minimal", "最少"),
            value("low", "Low", "低"),
            value("high", "High", "高"),
        ],
        false,
    ),
];
