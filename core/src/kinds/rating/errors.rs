//! The rating kind's check of error tags (issue 31): a rater may tag an output with the
//! page's error labels, each once, and only when they judged it wrong.

use super::{Answer, Prompt, RatingProtocol};
use crate::kinds::FieldError;
use crate::msg;

/// Checks the answer's error tags against the page: every tag one of the page's label keys,
/// none twice, and tags only on an output the answer judges wrong.
///
/// ```
/// use memeboard_core::human_eval::accuracy::Verdict3::*;
/// use memeboard_core::human_eval::error_labels::chime_error_labels;
/// use memeboard_core::human_eval::outputs::{ExplainedOutput, RatedSubject};
/// use memeboard_core::kinds::rating::{Answer, Prompt, Rating, RatingProtocol};
/// use memeboard_core::kinds::Kind;
/// let p = Prompt {
///     protocol: RatingProtocol::Accuracy,
///     subject: RatedSubject::Meme { phrase: "yyds".into() },
///     reference: None,
///     output: ExplainedOutput { meaning: "the best".into(), origin: None, example: None },
///     has_context: false,
///     statements: None,
///     one_page_per_subject: false,
///     error_labels: chime_error_labels(),
/// };
/// let tagged = |meaning, tag: &str| Answer::Accuracy {
///     meaning, origin: None, example: None, errors: vec![tag.to_owned()],
/// };
/// assert!(Rating::accept(&p, &[], tagged(Disagree, "semantic_shift")).is_ok());
/// let err = Rating::accept(&p, &[], tagged(Agree, "semantic_shift")).unwrap_err();
/// assert_eq!(err.to_string(), "`answer.errors`: error labels are for an explanation judged wrong: disagree with at least one statement first");
/// ```
pub(super) fn check_tags(prompt: &Prompt, answer: &Answer) -> Result<(), FieldError> {
    let tags = answer.errors();
    let error = |message| FieldError {
        field: "answer.errors",
        message,
    };
    for (i, tag) in tags.iter().enumerate() {
        if !prompt.error_labels.iter().any(|l| &l.key == tag) {
            let keys: Vec<&str> = prompt.error_labels.iter().map(|l| l.key.as_str()).collect();
            let keys = if keys.is_empty() {
                "none".to_owned()
            } else {
                keys.join(", ")
            };
            return Err(error(msg!(
                "answer.error_label_unknown",
                key = tag,
                keys = keys
            )));
        }
        if tags[..i].contains(tag) {
            return Err(error(msg!("answer.error_label_twice", key = tag)));
        }
    }
    if !tags.is_empty() && !answer.judged_wrong() {
        let rule = match prompt.protocol {
            RatingProtocol::Accuracy => msg!("answer.error_label_rule_accuracy"),
            RatingProtocol::Dimensions => msg!("answer.error_label_rule_dimensions"),
        };
        return Err(error(
            msg!("answer.error_label_not_wrong").with_message("rule", rule),
        ));
    }
    Ok(())
}
