//! Rater training of judging tasks on the server: the checks of a task's training (each
//! practice page a page of the task's kind, its expected answer an answer to it, said by the
//! kind) and the stored training's look-up. The session's side is `quiz::practice`.

use crate::error::{ApiError, ApiResult};
use crate::kinds::ServerKind;
use crate::storage::{self, Storage};
use memeboard_core::human_eval::training::{practice_item_id, Training};
use memeboard_core::kinds::{Kind, TaskKind};
use memeboard_core::messages::Message;
use memeboard_core::{msg, with_kind};

/// The problems of a judging task's training: the shared ones, then each page's kind and
/// whether its expected answer answers it (said by the kind).
pub fn training_problems(kind: TaskKind, training: &Training) -> Vec<Message> {
    let mut problems = training.problems();
    for (at, page) in training.pages.iter().enumerate() {
        let problem = with_kind!(kind, K => {
            match (K::JUDGED, K::prompt_of(page.prompt.clone()), K::answer_of(page.expected.clone())) {
                (Some(judged), Ok(prompt), Ok(expected)) => {
                    let order = K::present(&prompt, 0, &practice_item_id(at)).order;
                    judged.practice_fields(&prompt, &expected, &expected, &order).err()
                        .map(|m| msg!("training.page_expected", page = at + 1).with_message("problem", m))
                }
                _ => Some(msg!("training.spec_pages", page = at + 1, kind = kind.as_str())),
            }
        });
        problems.extend(problem);
    }
    problems
}

/// A task's training, if it has one.
pub async fn task_training(storage: &Storage, task_id: &str) -> ApiResult<Option<Training>> {
    storage
        .task_training(task_id)
        .await?
        .map(|json| storage::decode_json("task_training.training_json", &json))
        .transpose()
        .map_err(ApiError::from)
}
