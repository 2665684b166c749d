//! Recording one answer exactly once: checked against what the participant was shown,
//! scored where the kind can, with the kind's feedback and the completion hand-off.

use super::{handoff_ids, session_fieldwork, MAX_KEY_LEN};
use crate::error::{ApiError, ApiResult};
use crate::explain::inference::EmbeddingService;
use crate::ids::time_ordered_id;
use crate::kinds::{typed_item, FeedbackContext, ServerKind, TypedItem};
use crate::storage::{NewAnswer, RecordOutcome, SessionRow, Storage, TaskItemRow};
use anyhow::Context;
use memeboard_core::api::{SubmitAnswerRequest, SubmitAnswerResponse};
use memeboard_core::fieldwork::completion_handoff;
use memeboard_core::human_eval::training::practice_page_of;
use memeboard_core::kinds::{Kind, Scoring};
use memeboard_core::{msg, with_kind};

/// A completion code for recruitment platforms: 8 characters, no look-alikes.
fn completion_code() -> anyhow::Result<String> {
    const ALPHABET: &[u8] = b"ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
    let mut buf = [0u8; 8];
    getrandom::fill(&mut buf).map_err(|e| anyhow::anyhow!("OS randomness unavailable: {e}"))?;
    Ok(buf
        .iter()
        .map(|b| ALPHABET[usize::from(*b) % ALPHABET.len()] as char)
        .collect())
}

/// What scores an answer that needs a model, and for whom.
#[derive(Clone, Copy)]
pub struct Scorer<'a> {
    /// The embedding model.
    pub embeddings: &'a EmbeddingService,
    /// Each client's share of scoring on the request path.
    pub admission: &'a crate::explain::admission::ScoringAdmission,
    /// The answering client (its address, or its /64 for IPv6).
    pub client: &'a str,
}

/// Checks an answer against what the participant was shown and scores it where the kind
/// can (nothing is stored here).
fn accept<K: Kind>(
    session: &SessionRow,
    item: &TypedItem<K>,
    key: &str,
    request: &SubmitAnswerRequest,
) -> ApiResult<NewAnswer> {
    let (prompt, gold) = (&item.prompt, &item.gold);
    let input = K::input_of(request.answer.clone())
        .map_err(|_| ApiError::BadRequest(msg!("answer.wrong_kind", expected = K::INPUT_TAG)))?;
    let order = K::present(prompt, session.seed as u64, &item.row.id).order;
    let answer =
        K::accept(prompt, &order, input).map_err(|e| ApiError::BadRequest(e.to_message()))?;
    let score = match K::score(gold, &answer) {
        Scoring::Scored(outcome) => Some(K::primary(&outcome)),
        Scoring::Pending | Scoring::Unscored => None,
    };
    let choice = K::choice(&answer).and_then(|c| i64::try_from(c).ok());
    Ok(NewAnswer {
        id: time_ordered_id(12)?,
        session_id: session.id.clone(),
        item_id: request.item_id.clone(),
        idempotency_key: key.to_owned(),
        answer_json: serde_json::to_string(&K::wire_answer(answer)).context("encode answer")?,
        option_order_json: serde_json::to_string(&order).context("encode order")?,
        choice,
        score,
        response_ms: i64::try_from(request.response_ms).unwrap_or(i64::MAX),
    })
}

/// Records one answer exactly once, or refuses it with the reason (nothing is stored then).
/// Explanations are stored first and scored afterwards: a scoring failure never loses the
/// answer, it is reported in `feedback.scoring_error`.
pub async fn submit_answer(
    storage: &Storage,
    scorer: Scorer<'_>,
    session_id: &str,
    request: SubmitAnswerRequest,
) -> ApiResult<(SubmitAnswerResponse, bool)> {
    let key = request.idempotency_key.trim();
    if key.is_empty() || key.len() > MAX_KEY_LEN {
        return Err(ApiError::BadRequest(msg!(
            "field.key_chars",
            field = "idempotency_key",
            max = MAX_KEY_LEN
        )));
    }
    if let Some(page) = practice_page_of(&request.item_id) {
        return super::practice::submit_practice(storage, session_id, page, key, &request).await;
    }
    // One read: the session and the answered item (the batch's other items are not needed).
    let target = storage
        .answer_target(session_id, &request.item_id)
        .await?
        .ok_or_else(|| ApiError::NotFound(msg!("session.not_found", id = session_id)))?;
    if target.session.screen_reason.is_some() {
        return Err(ApiError::Conflict(msg!("quiz.screened_out")));
    }
    let item = target.item.ok_or_else(|| {
        ApiError::Unprocessable(msg!("session.item_not_in_batch", item = request.item_id))
    })?;
    let session = target.session;
    with_kind!(session.task_kind, K => {
        answer_as::<K>(storage, scorer, &session, item, target.preface.is_some(), key, &request)
            .await
    })
}

/// [`submit_answer`] once the item is found: the item is decoded once as its kind, the answer
/// checked, recorded exactly once, and the kind's feedback built.
async fn answer_as<K: ServerKind>(
    storage: &Storage,
    scorer: Scorer<'_>,
    session: &SessionRow,
    row: TaskItemRow,
    has_preface: bool,
    key: &str,
    request: &SubmitAnswerRequest,
) -> ApiResult<(SubmitAnswerResponse, bool)> {
    if K::PREFACE.is_some() && !has_preface {
        return Err(ApiError::Conflict(msg!(
            "preface.first",
            item = request.item_id,
            session = session.id
        )));
    }
    if K::JUDGED.is_some() {
        super::practice::ensure_trained(storage, session).await?;
    }
    let item = typed_item::<K>(row)?;
    let new = accept::<K>(session, &item, key, request)?;
    let code = completion_code()?;
    let total = usize::try_from(session.batch_size).unwrap_or(0);
    let (answered, completion_code, replayed) = match storage.record_answer(new, code).await? {
        RecordOutcome::Recorded {
            answered,
            completion_code,
        } => (answered, completion_code, false),
        RecordOutcome::Replayed {
            answered,
            completion_code,
        } => (answered, completion_code, true),
        RecordOutcome::AlreadyAnswered => {
            return Err(ApiError::Conflict(msg!(
                "answer.duplicate",
                item = request.item_id
            )))
        }
        RecordOutcome::KeyReused => {
            return Err(ApiError::Conflict(msg!("answer.key_reused", key = key)))
        }
        RecordOutcome::KeyReusedWithAnotherAnswer => {
            return Err(ApiError::Conflict(msg!(
                "answer.key_reused_other_answer",
                key = key
            )))
        }
    };
    let ctx = FeedbackContext {
        storage,
        embeddings: scorer.embeddings,
        task_id: &session.task_id,
        session_id: &session.id,
        item_id: &item.row.id,
        admission: scorer.admission,
        client: scorer.client,
    };
    let feedback = K::feedback(ctx, &item).await?;
    // The completion hand-off goes out with the acknowledgement of the last answer (after
    // COMMIT), so the app can follow it at once.
    let (redirect_url, redirect_code) = match &completion_code {
        Some(code) => {
            let study = session_fieldwork(storage, session).await?;
            let mut ids = handoff_ids(session);
            ids.completion_code = Some(code.as_str());
            completion_handoff(&study.handoff, &ids).unzip()
        }
        None => (None, None),
    };
    let response = SubmitAnswerResponse {
        redirect_url,
        redirect_code,
        recorded: true,
        replayed,
        answered: usize::try_from(answered).unwrap_or(0),
        total,
        completion_code,
        feedback,
        practice: None,
        screen_out: None,
    };
    Ok((response, !replayed))
}
