//! The wording every rating page of a study carries (its protocol's questions, statements and
//! error labels), shared by the study's pages, its planted pages and its practice pages.

use memeboard_core::human_eval::error_labels::{trimmed_error_labels, ErrorLabel};
use memeboard_core::human_eval::outputs::{ExplainedOutput, RatedSubject, Reference};
use memeboard_core::human_eval::statements::AccuracyStatements;
use memeboard_core::human_eval::study::{CreateStudyRequest, StudyProtocol};
use memeboard_core::kinds::rating;

/// What every rating page of a study carries besides its subject and output: the protocol's
/// questions, the study's statements (accuracy: the paper's unless the owner gave others) and
/// its error labels. Each page holds them, so a later change of a default never rewords a
/// running study; planted and practice pages too, so that they look like the others.
pub(super) struct PageWording {
    protocol: rating::RatingProtocol,
    statements: Option<Box<AccuracyStatements>>,
    error_labels: Vec<ErrorLabel>,
}

impl PageWording {
    /// The wording of `req`'s pages.
    pub(super) fn of(req: &CreateStudyRequest) -> Self {
        Self {
            protocol: match req.protocol {
                StudyProtocol::Accuracy => rating::RatingProtocol::Accuracy,
                StudyProtocol::Cmpm => rating::RatingProtocol::Dimensions,
            },
            statements: (req.protocol == StudyProtocol::Accuracy)
                .then(|| Box::new(req.statements.clone().unwrap_or_default().trimmed())),
            error_labels: req
                .error_labels
                .as_deref()
                .map(trimmed_error_labels)
                .unwrap_or_default(),
        }
    }

    /// A rating page of one output of `subject`, shown alone.
    pub(super) fn prompt(
        &self,
        subject: &RatedSubject,
        reference: Option<&Reference>,
        output: &ExplainedOutput,
        has_context: bool,
    ) -> rating::Prompt {
        rating::Prompt {
            protocol: self.protocol,
            subject: subject.clone(),
            reference: reference.cloned(),
            output: output.clone(),
            has_context,
            statements: self.statements.clone(),
            one_page_per_subject: false,
            error_labels: self.error_labels.clone(),
        }
    }
}
