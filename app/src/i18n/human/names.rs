//! The human-evaluation features' names of things in both languages: protocols, metrics,
//! the human score, dimensions and explanation fields.

use crate::i18n::Lang;
use memeboard_core::human_eval::accuracy::ExplanationField;
use memeboard_core::human_eval::board::{AutoMetric, HumanScore};
use memeboard_core::human_eval::dimensions::Dimension;
use memeboard_core::human_eval::study::StudyProtocol;

/// A protocol's name.
pub fn protocol_name(lang: Lang, p: StudyProtocol) -> &'static str {
    match (lang, p) {
        (Lang::En, StudyProtocol::Accuracy) => "accuracy rating (CHIME)",
        (Lang::Zh, StudyProtocol::Accuracy) => "准确性评分（CHIME）",
        (Lang::En, StudyProtocol::Cmpm) => "dimension rating and ranking (CMPM)",
        (Lang::Zh, StudyProtocol::Cmpm) => "维度评分与排序（CMPM）",
    }
}

/// A metric's name.
pub fn metric_name(lang: Lang, m: AutoMetric) -> &'static str {
    match (lang, m) {
        (Lang::En, AutoMetric::Identification) => "meaning identification (board score)",
        (Lang::Zh, AutoMetric::Identification) => "释义辨识度（排行榜分数）",
        (Lang::En, AutoMetric::Cosine) => "cosine",
        (Lang::Zh, AutoMetric::Cosine) => "余弦相似度",
        (Lang::En, AutoMetric::Rescaled) => "rescaled cosine",
        (Lang::Zh, AutoMetric::Rescaled) => "重标定余弦",
        (_, AutoMetric::BertF1) => "BERTScore-F1",
    }
}

/// The human score's name.
pub fn human_score_name(lang: Lang, h: HumanScore) -> &'static str {
    match (lang, h) {
        (Lang::En, HumanScore::MeaningVerdict) => {
            "the mean meaning verdict (disagree 0, neutral ½, agree 1)"
        }
        (Lang::Zh, HumanScore::MeaningVerdict) => "含义评判的平均值（不同意 0，中立 ½，同意 1）",
        (Lang::En, HumanScore::Core4) => "the mean Core4",
        (Lang::Zh, HumanScore::Core4) => "Core4 平均值",
    }
}

/// A dimension's name.
pub fn dimension_name(lang: Lang, d: Dimension) -> &'static str {
    match (lang, d) {
        (Lang::En, Dimension::VisualCorrectness) => "visual correctness",
        (Lang::Zh, Dimension::VisualCorrectness) => "视觉正确性",
        (Lang::En, Dimension::PanelCoherence) => "panel coherence",
        (Lang::Zh, Dimension::PanelCoherence) => "分格连贯性",
        (Lang::En, Dimension::HumourComprehension) => "humour comprehension",
        (Lang::Zh, Dimension::HumourComprehension) => "幽默理解",
        (Lang::En, Dimension::ContextHandling) => "context handling",
        (Lang::Zh, Dimension::ContextHandling) => "上下文处理",
        (Lang::En, Dimension::Faithfulness) => "faithfulness",
        (Lang::Zh, Dimension::Faithfulness) => "忠实性",
    }
}

/// An explanation field's name (the column groups of CHIME Table 3).
pub fn field_name(lang: Lang, f: ExplanationField) -> &'static str {
    match (lang, f) {
        (Lang::En, ExplanationField::Meaning) => "Meaning",
        (Lang::Zh, ExplanationField::Meaning) => "含义",
        (Lang::En, ExplanationField::Origin) => "Origin",
        (Lang::Zh, ExplanationField::Origin) => "出处",
        (Lang::En, ExplanationField::Example) => "Example",
        (Lang::Zh, ExplanationField::Example) => "例句",
    }
}
