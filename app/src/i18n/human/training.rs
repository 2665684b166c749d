//! Rater training's words in both languages: the rubric and practice pages a rater meets
//! before a judging task's first page, the feedback after each practice answer, the outcome,
//! and the study form's training fields.

use crate::i18n::{Lang, StringTable};
use memeboard_core::human_eval::accuracy::ExplanationField;
use memeboard_core::human_eval::dimensions::Dimension;

/// The strings of rater training, one set per language.
pub struct TrainingStrings {
    /// Heading of the rubric card.
    pub rubric_title: &'static str,
    /// Under the rubric: what comes next, with the number of practice pages.
    pub practice_intro: fn(usize) -> String,
    /// The pass mark, in percent.
    pub pass_line: fn(u8) -> String,
    /// Button from the rubric to the first practice page.
    pub start_practice: &'static str,
    /// Label above a practice page: "Practice page k of n".
    pub practice_label: fn(usize, usize) -> String,
    /// The rubric, folded, above each practice page.
    pub rubric_again: &'static str,
    /// Heading of the feedback card.
    pub feedback_title: &'static str,
    /// Table heads: what, your answer, expected.
    pub col_field: &'static str,
    /// Column: the rater's answer.
    pub col_yours: &'static str,
    /// Column: the expected answer.
    pub col_expected: &'static str,
    /// Marks of a row.
    pub matched: &'static str,
    /// A row that differs.
    pub differs: &'static str,
    /// The owner's note, introduced.
    pub why: &'static str,
    /// "You answered m of n as expected (p%)".
    pub outcome_line: fn(usize, usize) -> String,
    /// Button to the next practice page.
    pub next_practice: &'static str,
    /// Button from the last feedback to the real pages.
    pub start_study: &'static str,
    /// Button from the last feedback of a rater below the pass mark.
    pub go_on: &'static str,
    /// A candidate of a ranking, by display letter.
    pub candidate: fn(&str) -> String,
    /// Verdict words.
    pub agree: &'static str,
    /// Verdict words.
    pub neutral: &'static str,
    /// Verdict words.
    pub disagree: &'static str,
    /// Study form: the switch.
    pub form_train: &'static str,
    /// Study form: the rubric.
    pub form_rubric: &'static str,
    /// Study form: the pass mark.
    pub form_pass: &'static str,
    /// Study form: the practice pages.
    pub form_practice: &'static str,
    /// Study form: the practice pages' format.
    pub form_practice_help: &'static str,
    /// Study form: a practice line that does not parse.
    pub form_practice_error: fn(usize, &str) -> String,
}

/// `m` of `n` in whole percent, rounded half up (0 of nothing is 0).
fn percent(m: usize, n: usize) -> usize {
    (m * 100 + n / 2).checked_div(n).unwrap_or(0)
}

const EN: TrainingStrings = TrainingStrings {
    rubric_title: "How to judge",
    practice_intro: |n| {
        format!("Before the real pages, {n} practice pages: after each you see the expected judgement and why.")
    },
    pass_line: |p| {
        format!("To go on, about {p}% of your practice judgements need to match the expected ones.")
    },
    start_practice: "Start the practice",
    practice_label: |k, n| format!("Practice page {k} of {n}"),
    rubric_again: "How to judge (the rubric)",
    feedback_title: "Your practice judgement and the expected one",
    col_field: "Question",
    col_yours: "Yours",
    col_expected: "Expected",
    matched: "✓ same",
    differs: "✗ differs",
    why: "Why: ",
    outcome_line: |m, n| format!("You judged {m} of {n} as expected ({}%).", percent(m, n)),
    next_practice: "Next practice page",
    start_study: "Start the real pages",
    go_on: "Continue",
    candidate: |letter| format!("Candidate {letter}"),
    agree: "Agree",
    neutral: "Neutral",
    disagree: "Disagree",
    form_train: "Train raters first (rubric and practice pages with feedback)",
    form_rubric: "Rubric raters read first",
    form_pass: "Pass mark in % (empty: practice only, nobody is screened out)",
    form_practice: "Practice pages, one JSON object per line",
    form_practice_help: r#"{"source_item": "<dev item id>", "output": {"meaning": "…", "origin": "…"}, "expected": {"protocol": "accuracy", "meaning": "disagree", "origin": "agree"}, "note": "why"}"#,
    form_practice_error: |line, e| format!("practice line {line}: {e}"),
};

const ZH: TrainingStrings = TrainingStrings {
    rubric_title: "评判方法",
    practice_intro: |n| format!("正式评判前有 {n} 页练习：每页作答后会显示预期评判及原因。"),
    pass_line: |p| format!("练习评判中约 {p}% 与预期一致才能继续。"),
    start_practice: "开始练习",
    practice_label: |k, n| format!("练习第 {k} / {n} 页"),
    rubric_again: "评判方法（评分细则）",
    feedback_title: "你的练习评判与预期评判",
    col_field: "问题",
    col_yours: "你的",
    col_expected: "预期",
    matched: "✓ 一致",
    differs: "✗ 不同",
    why: "原因：",
    outcome_line: |m, n| format!("你有 {m} / {n} 项评判与预期一致（{}%）。", percent(m, n)),
    next_practice: "下一页练习",
    start_study: "开始正式评判",
    go_on: "继续",
    candidate: |letter| format!("候选 {letter}"),
    agree: "同意",
    neutral: "中立",
    disagree: "不同意",
    form_train: "先培训评审员（评分细则和带反馈的练习页）",
    form_rubric: "评审员先阅读的评分细则",
    form_pass: "合格线（%，留空：只练习，不筛除任何人）",
    form_practice: "练习页，每行一个 JSON 对象",
    form_practice_help: r#"{"source_item": "<开发集题目编号>", "output": {"meaning": "…", "origin": "…"}, "expected": {"protocol": "accuracy", "meaning": "disagree", "origin": "agree"}, "note": "原因"}"#,
    form_practice_error: |line, e| format!("练习第 {line} 行：{e}"),
};

impl StringTable for TrainingStrings {
    const EN: &'static Self = &EN;
    const ZH: &'static Self = &ZH;
}

/// A practice field's name: an explanation field, a dimension, or a ranking candidate.
pub fn practice_field_name(lang: Lang, key: &str) -> String {
    let fields = [
        ("meaning", ExplanationField::Meaning),
        ("origin", ExplanationField::Origin),
        ("example", ExplanationField::Example),
    ];
    if let Some((_, f)) = fields.iter().find(|(k, _)| *k == key) {
        return super::field_name(lang, *f).to_owned();
    }
    if let Some(d) = Dimension::ALL.into_iter().find(|d| d.key() == key) {
        return super::dimension_name(lang, d).to_owned();
    }
    (lang.table::<TrainingStrings>().candidate)(key)
}

/// A practice value in words: a verdict's name, else the value (a score, a rank).
pub fn practice_value(lang: Lang, value: &str) -> String {
    let t = lang.table::<TrainingStrings>();
    match value {
        "agree" => t.agree.to_owned(),
        "neutral" => t.neutral.to_owned(),
        "disagree" => t.disagree.to_owned(),
        "" => "—".to_owned(),
        other => other.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_and_values_read_in_both_languages() {
        assert_eq!(practice_field_name(Lang::En, "meaning"), "Meaning");
        assert_eq!(practice_field_name(Lang::En, "B"), "Candidate B");
        assert_eq!(practice_value(Lang::Zh, "disagree"), "不同意");
        assert_eq!(practice_value(Lang::En, "2"), "2");
        for s in [&EN, &ZH] {
            assert!((s.outcome_line)(2, 3).contains("67"));
            assert!((s.practice_label)(1, 4).contains('4'));
        }
    }
}
