//! A study's rater training ([`TrainingRequest`]) made into its rating task's training: each
//! practice page built from a dev item of the source board (its subject and reference) with
//! the owner's output, in the study's protocol and wording ([`super::wording::PageWording`]),
//! and every problem reported at once.

use crate::error::{ApiError, ApiResult};
use crate::judging::training::training_problems;
use memeboard_core::human_eval::study::{CreateStudyRequest, SourceItem};
use memeboard_core::human_eval::training::{PracticePage, Training};
use memeboard_core::kinds::{AnswerValue, ItemPrompt, TaskKind};
use memeboard_core::msg;
use memeboard_core::predictions::Split;

/// The study's training for its rating task (`None` without one), or 422 with every problem
/// (`items`: the source board's items, of which practice pages may use dev ones).
pub(super) fn study_training(
    req: &CreateStudyRequest,
    items: &[SourceItem],
) -> ApiResult<Option<Training>> {
    let Some(request) = &req.training else {
        return Ok(None);
    };
    let mut problems = request.problems();
    let wording = super::wording::PageWording::of(req);
    let mut pages = Vec::new();
    for (at, page) in request.practice.iter().enumerate() {
        let id = page.source_item.trim();
        // Dev items only: a test item's reference is hidden gold.
        let Some(source) = items.iter().find(|i| i.id == id && i.split == Split::Dev) else {
            if !id.is_empty() {
                problems.push(msg!("training.page_unknown_item", page = at + 1, item = id));
            }
            continue;
        };
        pages.push(PracticePage {
            prompt: ItemPrompt::Rating(wording.prompt(
                &source.subject,
                source.reference.as_ref(),
                &page.output,
                source.has_context,
            )),
            expected: AnswerValue::Rating(page.expected.clone()),
            note: page.note.trim().to_owned(),
        });
    }
    let training = Training {
        rubric: request.rubric.trim().to_owned(),
        pages,
        pass_percent: request.pass_percent,
    };
    if problems.is_empty() {
        problems = training_problems(TaskKind::Rating, &training);
    }
    if !problems.is_empty() {
        return Err(ApiError::Invalid(problems));
    }
    Ok(Some(training))
}
