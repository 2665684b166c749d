//! Rater training in a session (see [`memeboard_core::human_eval::training`]): the practice
//! pages as the rater sees them, each practice answer stored exactly once before its
//! feedback is sent, the qualification once all are answered (a rater below the pass mark is
//! screened out with the study's hand-off), and the gate that keeps real pages closed until
//! then.
//!
//! Practice pages are answered through the answers endpoint under their `practice-N` ids and
//! stored apart from real answers (`practice_answers`), so no statistic ever counts one. A
//! rater practises once per task: the answers are kept per task and rater, so the later parts
//! of a dense study open straight onto their real pages. Expected answers never leave the
//! server before the page's own answer is stored.

use super::{find_session, screen_out_of, session_fieldwork};
use crate::error::{ApiError, ApiResult};
use crate::judging::training::task_training;
use crate::kinds::ServerKind;
use crate::storage::{self, NewPracticeAnswer, PracticeAnswerRow, SessionRow, Storage};
use anyhow::Context;
use memeboard_core::api::{SubmitAnswerRequest, SubmitAnswerResponse};
use memeboard_core::fieldwork::failed_qualification;
use memeboard_core::human_eval::training::{
    practice_item_id, PracticeFeedback, PracticeField, PracticePageView, Qualification, Training,
    TrainingView,
};
use memeboard_core::kinds::{Kind, TaskKind};
use memeboard_core::{msg, with_kind};

/// One practice answer beside its page's expected answer, in the display order it was
/// given in.
fn practice_fields(
    kind: TaskKind,
    training: &Training,
    page: usize,
    answer: &memeboard_core::kinds::AnswerValue,
    order: &[usize],
) -> ApiResult<Vec<PracticeField>> {
    let practice = training
        .pages
        .get(page)
        .ok_or_else(|| ApiError::Unexpected(anyhow::anyhow!("practice page {page} is gone")))?;
    with_kind!(kind, K => {
        let judged = K::JUDGED.ok_or_else(|| {
            ApiError::Unexpected(anyhow::anyhow!("{} tasks have no training", K::KEY))
        })?;
        let decode = |e: String| ApiError::Unexpected(anyhow::anyhow!("practice page {page}: {e}"));
        let prompt = K::prompt_of(practice.prompt.clone()).map_err(|e| decode(e.to_string()))?;
        let expected = K::answer_of(practice.expected.clone()).map_err(|e| decode(e.to_string()))?;
        let given = K::answer_of(answer.clone()).map_err(|e| decode(e.to_string()))?;
        judged
            .practice_fields(&prompt, &expected, &given, order)
            .map_err(|m| ApiError::Unexpected(anyhow::anyhow!("practice page {page}: {m:?}")))
    })
}

/// The feedback of a stored practice answer.
fn feedback_of(
    session: &SessionRow,
    training: &Training,
    row: &PracticeAnswerRow,
) -> ApiResult<PracticeFeedback> {
    let page = usize::try_from(row.page).unwrap_or(usize::MAX);
    let answer = storage::decode_json("practice_answers.answer_json", &row.answer_json)?;
    let order: Vec<usize> =
        storage::decode_json("practice_answers.option_order_json", &row.option_order_json)?;
    Ok(PracticeFeedback {
        page,
        fields: practice_fields(session.task_kind, training, page, &answer, &order)?,
        note: training
            .pages
            .get(page)
            .map(|p| p.note.clone())
            .unwrap_or_default(),
        outcome: None,
    })
}

/// The outcome once every practice page is answered (`None` before).
fn outcome(training: &Training, answers: &[PracticeAnswerRow]) -> Option<Qualification> {
    (answers.len() >= training.pages.len()).then(|| {
        let pages: Vec<(usize, usize)> = answers
            .iter()
            .map(|r| {
                (
                    usize::try_from(r.matched).unwrap_or(0),
                    usize::try_from(r.total).unwrap_or(0),
                )
            })
            .collect();
        Qualification::of(&pages, training.pass_percent)
    })
}

/// A session's training as its rater sees it: the pages shown with the session's draw, the
/// feedback of those answered, the outcome once all are (`None`: the task has no training).
pub(super) async fn training_view(
    storage: &Storage,
    session: &SessionRow,
) -> ApiResult<Option<TrainingView>> {
    if !session.task_kind.is_judging() {
        return Ok(None);
    }
    let Some(training) = task_training(storage, &session.task_id).await? else {
        return Ok(None);
    };
    let answers = storage
        .practice_answers(&session.task_id, &session.participant_id)
        .await?;
    let mut pages = Vec::with_capacity(training.pages.len());
    for (at, page) in training.pages.iter().enumerate() {
        let item_id = practice_item_id(at);
        let prompt = with_kind!(session.task_kind, K => {
            let prompt = K::prompt_of(page.prompt.clone())
                .map_err(|e| ApiError::Unexpected(anyhow::anyhow!("practice page {at}: {e}")))?;
            K::wire_view(K::present(&prompt, session.seed as u64, &item_id).view)
        });
        let feedback = answers
            .iter()
            .find(|r| r.page == i64::try_from(at).unwrap_or(-1))
            .map(|row| feedback_of(session, &training, row))
            .transpose()?;
        pages.push(PracticePageView {
            item_id,
            prompt,
            feedback,
        });
    }
    Ok(Some(TrainingView {
        outcome: outcome(&training, &answers),
        rubric: training.rubric,
        pages,
        pass_percent: training.pass_percent,
    }))
}

/// Adds a session's training to its response; a rater found below the pass mark whose
/// session is not yet screened out (a later part of a dense study, or a crash between the
/// last practice answer and its screen-out) is screened out now, and the response says so.
pub(super) async fn with_training(
    storage: &Storage,
    session: &SessionRow,
    fieldwork: &memeboard_core::fieldwork::FieldworkSettings,
    response: &mut memeboard_core::api::SessionResponse,
) -> ApiResult<()> {
    let training = training_view(storage, session).await?;
    if let Some(q) = training
        .as_ref()
        .and_then(|t| t.outcome)
        .filter(|q| !q.passed)
    {
        if session.screen_reason.is_none() && session.completion_code.is_none() {
            screen_out_failed(storage, session, &q).await?;
            let session = find_session(storage, &session.id).await?;
            response.screen_out = screen_out_of(&session, fieldwork)?;
        }
    }
    response.training = training;
    Ok(())
}

/// Screens a session out for a failed qualification (once; a screened session stays so).
async fn screen_out_failed(
    storage: &Storage,
    session: &SessionRow,
    outcome: &Qualification,
) -> ApiResult<()> {
    if session.screen_reason.is_none() && session.completion_code.is_none() {
        let json = serde_json::to_string(&failed_qualification(outcome))
            .context("encode screen-out reason")?;
        storage.screen_out(&session.id, &json).await?;
    }
    Ok(())
}

/// The gate before a real answer of a judging task with training: every practice page
/// answered and the pass mark reached. A session found below the pass mark here (its last
/// practice answer was stored but the screen-out was not, e.g. a crash in between) is
/// screened out now.
pub(super) async fn ensure_trained(storage: &Storage, session: &SessionRow) -> ApiResult<()> {
    if !session.task_kind.is_judging() {
        return Ok(());
    }
    let Some(training) = task_training(storage, &session.task_id).await? else {
        return Ok(());
    };
    let answers = storage
        .practice_answers(&session.task_id, &session.participant_id)
        .await?;
    match outcome(&training, &answers) {
        None => Err(ApiError::Conflict(msg!(
            "training.first",
            answered = answers.len(),
            pages = training.pages.len()
        ))),
        Some(q) if !q.passed => {
            screen_out_failed(storage, session, &q).await?;
            Err(ApiError::Conflict(msg!("quiz.screened_out")))
        }
        Some(_) => Ok(()),
    }
}

/// Records the answer to practice page `page` exactly once (a resend with the same key or
/// the same answer replays the feedback; another answer is refused) and answers with its
/// feedback; with the last page, the outcome, and the screen-out of a rater below the pass
/// mark.
pub(super) async fn submit_practice(
    storage: &Storage,
    session_id: &str,
    page: usize,
    key: &str,
    request: &SubmitAnswerRequest,
) -> ApiResult<(SubmitAnswerResponse, bool)> {
    let session = find_session(storage, session_id).await?;
    let training = match session.task_kind.is_judging() {
        true => task_training(storage, &session.task_id).await?,
        false => None,
    };
    let pages = training.as_ref().map_or(0, |t| t.pages.len());
    let Some(training) = training.filter(|_| page < pages) else {
        return Err(ApiError::Unprocessable(msg!(
            "training.unknown_page",
            item = request.item_id,
            pages = pages
        )));
    };
    let fieldwork = session_fieldwork(storage, &session).await?;
    if let Some(out) = screen_out_of(&session, &fieldwork)? {
        if out.reason.code != memeboard_core::fieldwork::ExclusionCode::FailedQualification {
            return Err(ApiError::Conflict(msg!("quiz.screened_out")));
        }
    }
    let (answer_json, order, fields) = with_kind!(session.task_kind, K => {
        accept_practice::<K>(&session, &training, page, request)?
    });
    let matched = fields.iter().filter(|f| f.matched).count();
    let order_json = serde_json::to_string(&order).context("encode order")?;
    let new = NewPracticeAnswer {
        task_id: &session.task_id,
        participant_id: &session.participant_id,
        session_id,
        page: i64::try_from(page).unwrap_or(i64::MAX),
        idempotency_key: key,
        answer_json: &answer_json,
        option_order_json: &order_json,
        matched: i64::try_from(matched).unwrap_or(0),
        total: i64::try_from(fields.len()).unwrap_or(0),
        response_ms: i64::try_from(request.response_ms).unwrap_or(i64::MAX),
    };
    let (answers, inserted) = storage.record_practice(&new).await?;
    let stored = answers
        .iter()
        .find(|r| r.page == new.page)
        .ok_or_else(|| ApiError::Unexpected(anyhow::anyhow!("practice page {page} not stored")))?;
    if !inserted && stored.answer_json != answer_json {
        return Err(ApiError::Conflict(if stored.idempotency_key == key {
            msg!("answer.key_reused_other_answer", key = key)
        } else {
            msg!("training.already_answered", item = request.item_id)
        }));
    }
    let mut feedback = feedback_of(&session, &training, stored)?;
    feedback.outcome = outcome(&training, &answers);
    let mut screen_out = None;
    if let Some(q) = feedback.outcome.filter(|q| !q.passed) {
        screen_out_failed(storage, &session, &q).await?;
        let session = find_session(storage, session_id).await?;
        screen_out = screen_out_of(&session, &fieldwork)?;
    }
    Ok((
        SubmitAnswerResponse {
            recorded: true,
            replayed: !inserted,
            // Practice comes before every real page (the gate in `ensure_trained`).
            answered: 0,
            total: usize::try_from(session.batch_size).unwrap_or(0),
            completion_code: None,
            feedback: None,
            redirect_url: None,
            redirect_code: None,
            practice: Some(feedback),
            screen_out,
        },
        inserted,
    ))
}

/// A practice answer checked against its page as shown (the kind's own check), in canonical
/// JSON, with the display order and its fields beside the expected answer.
fn accept_practice<K: ServerKind>(
    session: &SessionRow,
    training: &Training,
    page: usize,
    request: &SubmitAnswerRequest,
) -> ApiResult<(String, Vec<usize>, Vec<PracticeField>)> {
    let input = K::input_of(request.answer.clone())
        .map_err(|_| ApiError::BadRequest(msg!("answer.wrong_kind", expected = K::INPUT_TAG)))?;
    let practice = &training.pages[page];
    let prompt = K::prompt_of(practice.prompt.clone())
        .map_err(|e| ApiError::Unexpected(anyhow::anyhow!("practice page {page}: {e}")))?;
    let order = K::present(&prompt, session.seed as u64, &practice_item_id(page)).order;
    let answer =
        K::accept(&prompt, &order, input).map_err(|e| ApiError::BadRequest(e.to_message()))?;
    let wire = K::wire_answer(answer);
    let json = serde_json::to_string(&wire).context("encode practice answer")?;
    let fields = practice_fields(session.task_kind, training, page, &wire, &order)?;
    Ok((json, order, fields))
}
