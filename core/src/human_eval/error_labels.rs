//! Error labels (issue 31): the error types a rater may tag a *wrong* output with, in both
//! languages. The defaults are the papers' error analyses: CHIME's three (§4.3 and App. C.6:
//! origin confusion, semantic shift, cross-type confusion) for accuracy studies and CMPM's
//! three failure modes (§7.4: contrast swap, reply misorder, punchline-first) for CMPM studies;
//! an owner may reword them or define others when creating a study. Every rating page of the
//! study carries the study's labels, and the statistics over the tags are
//! `human_eval::error_tables`.

use super::protocol::StudyProtocol;
use crate::messages::Message;
use crate::msg;
use serde::{Deserialize, Serialize};

/// Most labels a study may define.
pub const MAX_ERROR_LABELS: usize = 12;
/// Longest key, in characters.
pub const MAX_LABEL_KEY: usize = 40;
/// Longest wording of a label, in characters, in either language.
pub const MAX_LABEL_CHARS: usize = 200;

/// One error type: a key (a slug, as the export's `error:<key>` field and the answers store
/// it) and its wording in both languages of the site.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct ErrorLabel {
    /// Slug: 1–40 characters of `a-z`, `0-9` and `_`, starting with a letter.
    pub key: String,
    /// English wording (what raters read beside the checkbox).
    pub en: String,
    /// Chinese wording.
    pub zh: String,
}

impl ErrorLabel {
    fn new(key: &str, en: &str, zh: &str) -> Self {
        Self {
            key: key.to_owned(),
            en: en.to_owned(),
            zh: zh.to_owned(),
        }
    }

    /// The wording in one language (`zh`: Chinese, anything else English).
    pub fn text(&self, zh: bool) -> &str {
        if zh {
            &self.zh
        } else {
            &self.en
        }
    }
}

/// CHIME's three error types (§4.3, "Error Analysis", and App. C.6), in the paper's words,
/// shortened, with our Chinese translation.
pub fn chime_error_labels() -> Vec<ErrorLabel> {
    vec![
        ErrorLabel::new(
            "origin_confusion",
            "Origin confusion: the origin is wrong, or only vague (e.g. \u{201c}it spread on social media\u{201d}) instead of the specific source",
            "出处混淆：出处错误，或只给出笼统的来源（如\u{201c}在社交媒体上流行\u{201d}），而不是具体出处",
        ),
        ErrorLabel::new(
            "semantic_shift",
            "Semantic shift: explains a related concept that sounds similar, or only the literal meaning, missing the wordplay",
            "语义偏移：解释成读音相近的相关概念，或只解释字面意思，没有抓住谐音双关",
        ),
        ErrorLabel::new(
            "cross_type_confusion",
            "Cross-type confusion: mistakes the meme's mechanism for another type (e.g. an abbreviation read as a homophonic pun)",
            "类型混淆：把梗的构成方式误认为另一类型（如把缩写当成谐音梗）",
        ),
    ]
}

/// CMPM's three failure modes (§7.4, Figure 3), in the paper's words, shortened, with our
/// Chinese translation.
pub fn cmpm_error_labels() -> Vec<ErrorLabel> {
    vec![
        ErrorLabel::new(
            "contrast_swap",
            "Contrast swap: reverses the intended progression or contrast between the panels",
            "对比颠倒：把各格之间预期的递进或对比关系弄反了",
        ),
        ErrorLabel::new(
            "reply_misorder",
            "Reply misorder: misorders the turns of a conversation (who replies to whom, and when)",
            "对话错序：把对话的轮次顺序弄错（谁在何时回复谁）",
        ),
        ErrorLabel::new(
            "punchline_first",
            "Punchline first: promotes the salient final panel, reading the punchline before its setup",
            "笑点前置：把显眼的最后一格提前，先讲笑点再讲铺垫",
        ),
    ]
}

/// The paper's labels for a study's protocol.
///
/// ```
/// use memeboard_core::human_eval::error_labels::paper_error_labels;
/// use memeboard_core::human_eval::protocol::StudyProtocol;
/// let keys: Vec<String> = paper_error_labels(StudyProtocol::Cmpm).into_iter().map(|l| l.key).collect();
/// assert_eq!(keys, ["contrast_swap", "reply_misorder", "punchline_first"]);
/// assert_eq!(paper_error_labels(StudyProtocol::Accuracy)[0].key, "origin_confusion");
/// ```
pub fn paper_error_labels(protocol: StudyProtocol) -> Vec<ErrorLabel> {
    match protocol {
        StudyProtocol::Accuracy => chime_error_labels(),
        StudyProtocol::Cmpm => cmpm_error_labels(),
    }
}

/// Whether `key` is a label slug: 1–[`MAX_LABEL_KEY`] characters of `a-z`, `0-9`, `_`,
/// starting with a letter.
fn is_slug(key: &str) -> bool {
    key.len() <= MAX_LABEL_KEY
        && key.chars().next().is_some_and(|c| c.is_ascii_lowercase())
        && key
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
}

/// Checks a study's labels: 1 to [`MAX_ERROR_LABELS`], each key a slug used once, each
/// wording one line of 1 to [`MAX_LABEL_CHARS`] characters (spaces around not counted); the
/// message names the label at fault (`error_labels[1].zh`).
///
/// ```
/// use memeboard_core::human_eval::error_labels::{chime_error_labels, validate_error_labels};
/// assert!(validate_error_labels(&chime_error_labels()).is_ok());
/// let mut labels = chime_error_labels();
/// labels[2].key = "origin_confusion".into();
/// let err = validate_error_labels(&labels).unwrap_err();
/// assert_eq!(err.code(), "study.error_label_duplicate");
/// assert_eq!(err.to_string(), "`error_labels[2].key`: `origin_confusion` is used by another label");
/// ```
pub fn validate_error_labels(labels: &[ErrorLabel]) -> Result<(), Message> {
    if labels.is_empty() || labels.len() > MAX_ERROR_LABELS {
        return Err(msg!(
            "study.error_labels_count",
            max = MAX_ERROR_LABELS,
            found = labels.len()
        ));
    }
    for (i, label) in labels.iter().enumerate() {
        if !is_slug(&label.key) {
            return Err(msg!(
                "study.error_label_key",
                field = format!("error_labels[{i}].key"),
                max = MAX_LABEL_KEY,
                found = label.key
            ));
        }
        if labels[..i].iter().any(|l| l.key == label.key) {
            return Err(msg!(
                "study.error_label_duplicate",
                field = format!("error_labels[{i}].key"),
                key = label.key
            ));
        }
        for (lang, text) in [("en", &label.en), ("zh", &label.zh)] {
            let field = format!("error_labels[{i}].{lang}");
            if text.chars().any(char::is_control) {
                return Err(msg!("study.statement_line", field = field));
            }
            let chars = text.trim().chars().count();
            if chars == 0 || chars > MAX_LABEL_CHARS {
                return Err(msg!(
                    "study.error_label_text",
                    field = field,
                    max = MAX_LABEL_CHARS,
                    found = chars
                ));
            }
        }
    }
    Ok(())
}

/// The labels with surrounding spaces trimmed (as stored).
pub fn trimmed_error_labels(labels: &[ErrorLabel]) -> Vec<ErrorLabel> {
    labels
        .iter()
        .map(|l| ErrorLabel::new(l.key.trim(), l.en.trim(), l.zh.trim()))
        .collect()
}

/// Reads labels written one a line as `key | English | 中文` (the study form's box and the
/// command line's `--error-labels` file); blank lines and lines starting with `#` are
/// skipped. The labels are not validated here ([`validate_error_labels`]).
///
/// ```
/// use memeboard_core::human_eval::error_labels::{error_label_lines, parse_error_labels};
/// let labels = parse_error_labels("# mine\nwrong_panel | Wrong panel | 看错画面\n").unwrap();
/// assert_eq!((labels[0].key.as_str(), labels[0].zh.as_str()), ("wrong_panel", "看错画面"));
/// assert_eq!(parse_error_labels(&error_label_lines(&labels)).unwrap(), labels);
/// let err = parse_error_labels("a | b").unwrap_err();
/// assert_eq!(err.to_string(), "`error_labels` line 1: expected `key | English | 中文`, found `a | b`");
/// ```
pub fn parse_error_labels(text: &str) -> Result<Vec<ErrorLabel>, Message> {
    let mut labels = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let parts: Vec<&str> = line.split('|').map(str::trim).collect();
        let [key, en, zh] = parts[..] else {
            return Err(msg!("study.error_label_line", line = i + 1, found = line));
        };
        labels.push(ErrorLabel::new(key, en, zh));
    }
    Ok(labels)
}

/// The labels one a line as `key | English | 中文`, the form [`parse_error_labels`] reads.
pub fn error_label_lines(labels: &[ErrorLabel]) -> String {
    labels
        .iter()
        .map(|l| format!("{} | {} | {}\n", l.key, l.en, l.zh))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_papers_labels_are_valid_and_distinct() {
        for protocol in [StudyProtocol::Accuracy, StudyProtocol::Cmpm] {
            let labels = paper_error_labels(protocol);
            assert_eq!(labels.len(), 3);
            assert!(validate_error_labels(&labels).is_ok());
            assert_eq!(parse_error_labels(&error_label_lines(&labels)), Ok(labels));
        }
        assert!(chime_error_labels()[1].en.starts_with("Semantic shift"));
        assert!(cmpm_error_labels()[2].zh.starts_with("笑点前置"));
    }

    #[test]
    fn each_problem_is_named() {
        type Break = fn(&mut Vec<ErrorLabel>);
        let cases: [(Break, &str, &str); 6] = [
            (|l| l.clear(), "study.error_labels_count", "1 to 12"),
            (
                |l| l.extend(std::iter::repeat_n(l[0].clone(), 10)),
                "study.error_labels_count",
                "found 13",
            ),
            (
                |l| l[1].key = "Semantic-shift".into(),
                "study.error_label_key",
                "error_labels[1].key",
            ),
            (
                |l| l[0].key = "9lives".into(),
                "study.error_label_key",
                "error_labels[0].key",
            ),
            (
                |l| l[2].zh = " ".into(),
                "study.error_label_text",
                "error_labels[2].zh",
            ),
            (
                |l| l[0].en = "x".repeat(MAX_LABEL_CHARS + 1),
                "study.error_label_text",
                "found 201",
            ),
        ];
        for (break_it, code, says) in cases {
            let mut labels = chime_error_labels();
            break_it(&mut labels);
            let err = validate_error_labels(&labels).unwrap_err();
            assert_eq!(err.code(), code);
            assert!(err.to_string().contains(says), "{err}");
        }
        let mut labels = chime_error_labels();
        labels[0].en = "two\nlines".into();
        assert_eq!(
            validate_error_labels(&labels).unwrap_err().code(),
            "study.statement_line"
        );
        labels[0].en = "  spaced  ".into();
        assert!(validate_error_labels(&labels).is_ok());
        assert_eq!(trimmed_error_labels(&labels)[0].en, "spaced");
    }
}
