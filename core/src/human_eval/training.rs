//! Rubric training and qualification of raters (issue 31): before the first real page of a
//! judging task, a rater reads the owner's rubric and judges a few **practice pages** whose
//! expected answers the owner marked. Each practice answer is stored like any answer, and only
//! then does the server send its feedback (the expected answer per field, the owner's note).
//! With a **pass mark**, a rater whose practice answers agree with the expected ones on fewer
//! than that share of fields is screened out with the study's hand-off code, before any real
//! page.
//!
//! The expected answers stay on the server ([`Training`]); a session carries only the pages
//! as its rater sees them and the feedback of pages already answered ([`TrainingView`]).

use super::outputs::ExplainedOutput;
use crate::kinds::{rating, AnswerValue, ItemPrompt, PromptView};
use crate::messages::Message;
use crate::msg;
use serde::{Deserialize, Serialize};

/// Item ids of practice pages start with this (`practice-1`, `practice-2`, …); the ids of
/// judging items are random hex and never do.
pub const PRACTICE_PREFIX: &str = "practice-";
/// Most practice pages of one task.
pub const MAX_PRACTICE_PAGES: usize = 10;
/// Longest rubric, in characters.
pub const MAX_RUBRIC_CHARS: usize = 8_000;
/// Longest note of a practice page, in characters.
pub const MAX_NOTE_CHARS: usize = 2_000;

/// The owner's training of a study's raters (part of the study request): the rubric, the
/// practice pages with their expected answers, and the optional pass mark. The rating task
/// of the study gets it (its practice pages are rating pages of the study's protocol).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct TrainingRequest {
    /// What raters read before the practice (plain text; blank lines separate paragraphs).
    pub rubric: String,
    /// The practice pages, in the order raters see them (at most [`MAX_PRACTICE_PAGES`]).
    #[serde(default)]
    pub practice: Vec<PracticePageRequest>,
    /// Percentage of practice fields (0–100) a rater must answer as expected to go on;
    /// `None`: practice only, nobody is screened out.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pass_percent: Option<u8>,
}

/// One practice page of a study: a dev item of the source board as the subject (with its
/// reference), an output the owner wrote, and the answer the owner expects.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct PracticePageRequest {
    /// Id of a dev item of the study's source board (a test item's reference is hidden).
    pub source_item: String,
    /// The output to judge, written by the owner (e.g. one with a wrong origin).
    pub output: ExplainedOutput,
    /// The expected judgement, in the study's protocol.
    pub expected: rating::Answer,
    /// Why this is the expected judgement, shown with the feedback.
    #[serde(default)]
    pub note: String,
}

/// A task's training as stored on the server (`task_training.training_json`): never sent to
/// a browser as is, since it holds the expected answers.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Training {
    /// What raters read before the practice.
    pub rubric: String,
    /// The practice pages in order.
    pub pages: Vec<PracticePage>,
    /// Percentage of practice fields to answer as expected (see
    /// [`TrainingRequest::pass_percent`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pass_percent: Option<u8>,
}

/// One stored practice page: a page of the task's kind and its expected answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct PracticePage {
    /// The page, as a page of the task's kind.
    pub prompt: ItemPrompt,
    /// The expected answer, in the kind's canonical terms.
    pub expected: AnswerValue,
    /// Why, shown with the feedback.
    #[serde(default)]
    pub note: String,
}

/// A session's training as its rater sees it: the rubric, the pages (without expected
/// answers), the feedback of the pages already answered, and the outcome once all are.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct TrainingView {
    /// The rubric.
    pub rubric: String,
    /// The practice pages in order.
    pub pages: Vec<PracticePageView>,
    /// The pass mark in percent, if any (public: raters are told the bar).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pass_percent: Option<u8>,
    /// Set once every practice page is answered.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outcome: Option<Qualification>,
}

/// One practice page in a session.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct PracticePageView {
    /// The id answers name (`practice-1`, …).
    pub item_id: String,
    /// The page as shown.
    pub prompt: PromptView,
    /// The feedback, once this page's answer is stored.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub feedback: Option<PracticeFeedback>,
}

/// One field of a practice answer beside the expected value: a verdict (`meaning`), a
/// dimension score (`faithfulness`), a candidate's rank (`B`). Values are short keys
/// (`agree`, `2`) the page puts in words.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct PracticeField {
    /// What the value is about.
    pub field: String,
    /// The rater's value.
    pub given: String,
    /// The owner's expected value.
    pub expected: String,
    /// Whether they are the same.
    pub matched: bool,
}

/// What a rater sees after a practice answer is stored.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct PracticeFeedback {
    /// 0-based practice page.
    pub page: usize,
    /// Each field, the rater's value beside the expected one.
    pub fields: Vec<PracticeField>,
    /// The owner's note on the page.
    #[serde(default)]
    pub note: String,
    /// With the last practice answer: the outcome of the practice.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outcome: Option<Qualification>,
}

/// The outcome of a rater's practice: fields answered as expected, of all, against the pass
/// mark.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Qualification {
    /// Fields answered as expected.
    pub matched: usize,
    /// Fields in all practice pages.
    pub total: usize,
    /// The pass mark in percent, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pass_percent: Option<u8>,
    /// Whether the rater goes on to the real pages (always, without a pass mark).
    pub passed: bool,
}

impl Qualification {
    /// The outcome of practice pages answered with `(matched, total)` fields each: the share
    /// of all fields answered as expected, against `pass_percent` (reached counts as passed).
    ///
    /// Three pages of 3 fields, answered with 3, 2 and 1 fields as expected: 6 of 9 = 67%,
    /// below a pass mark of 70%; 2 of 3 reaches 66% (compared in whole counts:
    /// 100 × matched ≥ percent × total).
    ///
    /// ```
    /// use memeboard_core::human_eval::training::Qualification;
    /// let q = Qualification::of(&[(3, 3), (2, 3), (1, 3)], Some(70));
    /// assert_eq!((q.matched, q.total, q.passed), (6, 9, false));
    /// assert!(Qualification::of(&[(3, 3), (2, 3), (1, 3)], Some(60)).passed);
    /// assert!(Qualification::of(&[(0, 3)], None).passed);
    /// ```
    pub fn of(pages: &[(usize, usize)], pass_percent: Option<u8>) -> Self {
        let matched: usize = pages.iter().map(|p| p.0).sum();
        let total: usize = pages.iter().map(|p| p.1).sum();
        let passed = match pass_percent {
            None => true,
            Some(percent) => matched * 100 >= usize::from(percent) * total,
        };
        Self {
            matched,
            total,
            pass_percent,
            passed,
        }
    }

    /// The share answered as expected (0 when there were no fields).
    pub fn share(&self) -> f64 {
        if self.total == 0 {
            0.0
        } else {
            self.matched as f64 / self.total as f64
        }
    }
}

/// The item id of practice page `page` (0-based): `practice-1` for the first.
///
/// ```
/// use memeboard_core::human_eval::training::{practice_item_id, practice_page_of};
/// assert_eq!(practice_item_id(0), "practice-1");
/// assert_eq!(practice_page_of("practice-1"), Some(0));
/// assert_eq!(practice_page_of("practice-0"), None);
/// assert_eq!(practice_page_of("3fa9c1"), None);
/// ```
pub fn practice_item_id(page: usize) -> String {
    format!("{PRACTICE_PREFIX}{}", page + 1)
}

/// The 0-based practice page an item id names, if it names one.
pub fn practice_page_of(item_id: &str) -> Option<usize> {
    let number: usize = item_id.strip_prefix(PRACTICE_PREFIX)?.parse().ok()?;
    number.checked_sub(1).filter(|p| *p < MAX_PRACTICE_PAGES)
}

/// The problems a request and a stored training share: the rubric's length, the number of
/// pages, the pass mark, and each note's length.
fn shared_problems<'a>(
    rubric: &str,
    pages: usize,
    pass_percent: Option<u8>,
    notes: impl Iterator<Item = &'a str>,
) -> Vec<Message> {
    let mut problems = Vec::new();
    let rubric = rubric.trim().chars().count();
    if rubric == 0 || rubric > MAX_RUBRIC_CHARS {
        problems.push(msg!(
            "training.rubric",
            max = MAX_RUBRIC_CHARS,
            found = rubric
        ));
    }
    if pages > MAX_PRACTICE_PAGES {
        problems.push(msg!(
            "training.too_many_pages",
            max = MAX_PRACTICE_PAGES,
            found = pages
        ));
    }
    if let Some(percent) = pass_percent {
        if percent > 100 {
            problems.push(msg!("training.pass_mark", found = percent));
        } else if pages == 0 {
            problems.push(msg!("training.pass_mark_without_pages"));
        }
    }
    for (at, note) in notes.enumerate() {
        let found = note.chars().count();
        if found > MAX_NOTE_CHARS {
            problems.push(msg!(
                "training.page_note",
                page = at + 1,
                max = MAX_NOTE_CHARS,
                found = found
            ));
        }
    }
    problems
}

impl TrainingRequest {
    /// Every problem of the request, each naming its field (`training.practice[2].note`).
    pub fn problems(&self) -> Vec<Message> {
        let mut problems = shared_problems(
            &self.rubric,
            self.practice.len(),
            self.pass_percent,
            std::iter::empty(),
        );
        for (at, page) in self.practice.iter().enumerate() {
            if page.source_item.trim().is_empty() {
                problems.push(msg!("training.page_source", page = at + 1));
            }
            if page.output.meaning.trim().is_empty() {
                problems.push(msg!("training.page_output", page = at + 1));
            }
        }
        problems.extend(shared_problems(
            "-",
            0,
            None,
            self.practice.iter().map(|p| p.note.as_str()),
        ));
        problems
    }
}

impl Training {
    /// The problems of a stored training that do not depend on its kind (the pages'
    /// expected answers are checked by the kind).
    pub fn problems(&self) -> Vec<Message> {
        shared_problems(
            &self.rubric,
            self.pages.len(),
            self.pass_percent,
            self.pages.iter().map(|p| p.note.as_str()),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::human_eval::accuracy::Verdict3;

    fn page(source: &str) -> PracticePageRequest {
        serde_json::from_value(serde_json::json!({
            "source_item": source,
            "output": {"meaning": "a wrong meaning"},
            "expected": {"protocol": "accuracy", "meaning": "disagree"},
            "note": "the meaning is another meme's",
        }))
        .expect("a practice page")
    }

    #[test]
    fn a_pass_mark_is_reached_by_whole_counts() {
        assert!(Qualification::of(&[(2, 3)], Some(66)).passed);
        assert!(!Qualification::of(&[(2, 3)], Some(67)).passed);
        assert!(!Qualification::of(&[(1, 3)], Some(50)).passed);
        assert!(Qualification::of(&[], Some(100)).passed);
        assert_eq!(Qualification::of(&[(1, 4)], None).share(), 0.25);
    }

    #[test]
    fn practice_ids_round_trip_and_refuse_other_ids() {
        for p in 0..MAX_PRACTICE_PAGES {
            assert_eq!(practice_page_of(&practice_item_id(p)), Some(p));
        }
        assert_eq!(practice_page_of("practice-11"), None);
        assert_eq!(practice_page_of("practice-x"), None);
        assert_eq!(practice_page_of("practice--1"), None);
    }

    #[test]
    fn every_problem_names_its_page_and_field() {
        let mut request = TrainingRequest {
            rubric: "  ".into(),
            practice: vec![page("dev-1"), page(" ")],
            pass_percent: Some(150),
        };
        request.practice[1].note = "x".repeat(MAX_NOTE_CHARS + 1);
        let codes: Vec<String> = request
            .problems()
            .iter()
            .map(|m| m.code().to_owned())
            .collect();
        assert_eq!(
            codes,
            [
                "training.rubric",
                "training.pass_mark",
                "training.page_source",
                "training.page_note"
            ]
        );
        let ok = TrainingRequest {
            rubric: "Agree when the meaning matches the reference.".into(),
            practice: vec![page("dev-1")],
            pass_percent: Some(50),
        };
        assert!(ok.problems().is_empty());
        assert!(matches!(
            ok.practice[0].expected,
            rating::Answer::Accuracy {
                meaning: Verdict3::Disagree,
                ..
            }
        ));
    }
}
