//! AVMeme Exam's tables: accuracy by question type on meme-full and meme-main (Table 1) and
//! by sound type and language (Table 2), each with the audio-only, "+ visual input" and
//! text-only rows; the input modalities side by side with their Δ; the hint ablations
//! (Table 3) and the thinking levels (Table 5).

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

/// AVMeme Exam Tables 1, 2, 3 and 5, and the input comparison of Tables 1–2.
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
        ColumnSpec::Facets {
            prefixes: &["sound:", "lang:"],
            percent: true,
        },
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
