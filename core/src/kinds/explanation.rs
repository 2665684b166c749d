//! Explanation (CHIME task B): say what a meme means in free text, scored by sentence-embedding
//! similarity to the reference meaning.
//!
//! Scoring needs the embedding model, so [`Kind::score`] answers [`Scoring::Pending`] here and
//! the server scores stored answers afterwards (`answers.scores_json`). The primary score is
//! meaning identification ([`crate::embed::identification`]: is the explanation closer to its
//! own meme's meaning than to the other meanings of the task's open pool? 0.5 = chance), so
//! that a sentence fitting every meme cannot win; the raw cosine, the rescaled cosine (0 = as
//! similar as two random reference meanings, 1 = identical) and BERTScore are secondary.

use super::{FieldError, Kind, Presented, ReviewInput, ScoreScale, Scoring, TaskKind};
use crate::conditions::ConditionDecl;
use serde::{Deserialize, Serialize};

/// Longest accepted quiz answer, in characters (the server and the page use this one value).
pub const MAX_ANSWER_CHARS: usize = super::free_text::MAX_ANSWER_CHARS;

/// The kind's marker type.
#[derive(Debug, Clone, Copy)]
pub struct Explanation;

/// A meme phrase to explain.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "ExplanationPrompt"))]
pub struct Prompt {
    /// The meme phrase.
    pub meme: String,
}

/// The reference explanation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "ExplanationGold"))]
pub struct Gold {
    /// Gold meaning.
    pub meaning: String,
    /// Gold origin, when the meme has one.
    pub origin: Option<String>,
}

/// What a participant sees: the phrase.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "ExplanationView"))]
pub struct View {
    /// The meme phrase.
    pub meme: String,
}

/// A free-text explanation as sent.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "ExplanationInput"))]
pub struct Input {
    /// What the participant wrote (1 to [`MAX_ANSWER_CHARS`] characters).
    pub text: String,
}

/// The stored explanation (trimmed).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "ExplanationAnswer"))]
pub struct Answer {
    /// What the participant wrote.
    pub text: String,
}

/// Embedding scores of one explanation against its reference meaning.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ExplanationScore {
    /// The embedding model used.
    pub model: String,
    /// Meaning identification, the primary score: the chance that this explanation is closer
    /// to its own meme's meaning than to another meaning of the task's open (dev) pool, ties
    /// half ([`crate::embed::identification::identification`]); 0.5 = chance. Exactly chance
    /// for a non-answer. (Prediction files also credit answers flagged as filler at most
    /// chance: see the server's `kinds::explanation::filler`.)
    #[serde(default = "chance")]
    pub identification: f64,
    /// Raw cosine similarity of the sentence embeddings (the model's scale; compressed).
    pub cosine: f64,
    /// The same, rescaled against the random-pair baseline: 0 = as similar as two random
    /// meanings of this dataset, 1 = identical.
    pub rescaled: f64,
    /// The random-pair baseline used for rescaling.
    pub baseline: f64,
    /// BERTScore F1 (greedy token matching), raw.
    pub bert_f1: f64,
    /// The answer says nothing ("I don't know", "不知道", "?"…): scored at the floor — the
    /// random-pair baseline (rescaled 0) and BERTScore 0 — whatever the model would say.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub non_answer: bool,
}

fn chance() -> f64 {
    crate::embed::identification::CHANCE
}

/// Whether an explanation says nothing about the meaning: a known way of saying "I don't
/// know" (English or Chinese), or fewer than two letters or CJK characters. Such answers are
/// scored at the floor instead of by similarity (which rates "I do not know this one" about as
/// close to a meaning as a real attempt).
///
/// ```
/// use memeboard_core::kinds::explanation::is_non_answer;
/// assert!(is_non_answer("I don't know this one."));
/// assert!(is_non_answer(" 不知道！"));
/// assert!(is_non_answer("??"));
/// assert!(!is_non_answer("形容人很累，不想动"));
/// assert!(!is_non_answer("I don't know why, but it means being tired"));
/// ```
pub fn is_non_answer(text: &str) -> bool {
    const PHRASES: &[&str] = &[
        "idk",
        "i dont know",
        "i do not know",
        "dont know",
        "do not know",
        "i dont know this one",
        "i do not know this one",
        "no idea",
        "not sure",
        "unknown",
        "pass",
        "skip",
        "none",
        "na",
        "n a",
        "nothing",
        "no clue",
        "never heard of it",
        "不知道",
        "不清楚",
        "不懂",
        "没听过",
        "没听说过",
        "不会",
        "跳过",
        "无",
        "不知道这个",
        "我不知道",
        "不了解",
        "不晓得",
    ];
    let normal: String = text
        .chars()
        .map(|c| {
            if is_content(c) {
                c.to_ascii_lowercase()
            } else {
                ' '
            }
        })
        .collect::<String>()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    let meaningful = normal.chars().filter(|&c| is_content(c)).count();
    let squashed = normal.replace(' ', "");
    meaningful < 2 || PHRASES.iter().any(|p| p.replace(' ', "") == squashed)
}

/// Whether a character carries content for [`is_non_answer`]: an ASCII letter or digit, or a
/// non-ASCII character that is not a space, punctuation or a symbol (CJK ideographs, kana,
/// other scripts' letters). Written with ranges rather than Unicode tables, which would add
/// 7 KB to the quiz page's bundle (the browser floors non-answers with this same code).
///
/// ```
/// use memeboard_core::kinds::explanation::is_content;
/// assert!(is_content('a') && is_content('7') && is_content('累') && is_content('я'));
/// assert!(!is_content('?') && !is_content('，') && !is_content('…') && !is_content('\u{3000}'));
/// ```
pub fn is_content(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_alphanumeric();
    }
    let u = u32::from(c);
    let not_content: [(u32, u32); 12] = [
        (0x0080, 0x00BF), // Latin-1 controls, punctuation and symbols
        (0x2000, 0x206F), // general punctuation (spaces, dashes, quotes, ellipsis)
        (0x20A0, 0x20CF), // currency symbols
        (0x2190, 0x2BFF), // arrows, mathematical and technical symbols, shapes, dingbats
        (0x2E00, 0x2E7F), // supplemental punctuation
        (0x3000, 0x303F), // CJK symbols and punctuation
        (0xFE30, 0xFE4F), // CJK compatibility forms
        (0xFE50, 0xFE6F), // small form variants
        (0xFF00, 0xFF0F), // fullwidth punctuation
        (0xFF1A, 0xFF20), // fullwidth punctuation
        (0xFF3B, 0xFF40), // fullwidth punctuation
        (0xFF5B, 0xFF65), // fullwidth punctuation
    ];
    !(not_content.iter().any(|&(lo, hi)| (lo..=hi).contains(&u))
        || (0x1F000..=0x1FAFF).contains(&u)) // emoji and pictographs
}

/// The reference explanation of a meme (gold), sent only where allowed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ExplanationReference {
    /// Reference meaning.
    pub meaning: String,
    /// Reference origin, if any.
    pub origin: Option<String>,
}

/// An explanation on the results page.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "ExplanationReview"))]
pub struct Review {
    /// The meme phrase.
    pub meme: String,
    /// What the participant wrote.
    pub answer: String,
    /// Its server score, if scored.
    pub score: Option<ExplanationScore>,
    /// The reference (only where gold may be shown).
    pub reference: Option<ExplanationReference>,
}

impl Kind for Explanation {
    const PAPER_TABLES: &'static [crate::paper_tables::spec::TableSpec] =
        super::tables::explanation::TABLES;
    /// CHIME Table 9: zero-shot (the paper's setting) against one-shot prompts.
    const CONDITIONS: &'static [ConditionDecl] = &[ConditionDecl {
        name: "shot",
        values: &["zero_shot", "one_shot"],
        default: "zero_shot",
    }];
    const KIND: TaskKind = TaskKind::Explanation;
    const KEY: &'static str = "explanation";
    const STUDY_PROTOCOL: Option<crate::human_eval::protocol::StudyProtocol> =
        Some(crate::human_eval::protocol::StudyProtocol::Accuracy);
    const SCALE: ScoreScale = ScoreScale::Similarity;
    const INPUT_TAG: &'static str = "text";
    const INSTRUCTIONS: [&'static str; 2] = [
        "Each question shows a Chinese internet meme. Write in your own words what it means; a sentence or two is enough. A sentence-embedding model scores it: the closer your explanation is to this meme's reference meaning rather than to other memes' meanings, the higher the score; a sentence that fits any meme scores at chance (0.5).",
        "每道题给出一个中文网络梗。请用自己的话写出它的意思，一两句即可。系统会用句向量模型比较：你的解释越贴近这个梗的参考释义、越不像其他梗的释义，得分越高；对哪个梗都适用的套话只能得到随机水平（0.5）。",
    ];

    crate::kind_types_and_wire!(Explanation, ExplanationScore);

    fn present(prompt: &Prompt, _seed: u64, _item_id: &str) -> Presented<View> {
        Presented {
            view: View {
                meme: prompt.meme.clone(),
            },
            order: Vec::new(),
        }
    }

    /// ```
    /// use memeboard_core::kinds::{Kind, explanation::{Explanation, Input, Prompt}};
    /// let p = Prompt { meme: "yyds".into() };
    /// assert_eq!(Explanation::accept(&p, &[], Input { text: "  the best  ".into() }).unwrap().text, "the best");
    /// let err = Explanation::accept(&p, &[], Input { text: " ".into() }).unwrap_err();
    /// assert_eq!(err.to_string(), "`answer.text`: expected 1 to 1000 characters, found 0");
    /// ```
    fn accept(_prompt: &Prompt, _order: &[usize], input: Input) -> Result<Answer, FieldError> {
        Ok(Answer {
            text: super::free_text::accept_text(&input.text)?,
        })
    }

    /// Needs the embedding model: the server scores stored answers afterwards.
    fn score(_gold: &Gold, _answer: &Answer) -> Scoring<ExplanationScore> {
        Scoring::Pending
    }

    fn primary(outcome: &ExplanationScore) -> f64 {
        outcome.identification
    }

    fn subject(prompt: &Prompt) -> String {
        prompt.meme.clone()
    }

    fn review(input: ReviewInput<'_, Self>) -> Review {
        Review {
            meme: input.prompt.meme.clone(),
            answer: input.answer.text.clone(),
            score: input.outcome.cloned(),
            reference: input.gold.map(|g| ExplanationReference {
                meaning: g.meaning.clone(),
                origin: g.origin.clone(),
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_withheld_review_has_no_reference() {
        let p = Prompt {
            meme: "躺平".into(),
        };
        let a = Answer {
            text: "give up".into(),
        };
        let r = Explanation::review(ReviewInput {
            prompt: &p,
            order: &[],
            answer: &a,
            gold: None,
            outcome: None,
            source_note: None,
        });
        assert_eq!(r.reference, None);
        assert_eq!(r.answer, "give up");
    }

    #[test]
    fn explanations_are_scored_later_and_have_no_chance_level() {
        let g = Gold {
            meaning: "m".into(),
            origin: None,
        };
        let a = Answer { text: "x".into() };
        assert_eq!(Explanation::score(&g, &a), Scoring::Pending);
        assert_eq!(Explanation::chance(&Prompt { meme: "x".into() }), None);
    }
}
