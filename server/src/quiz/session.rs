//! A session as the participant sees it (items shown without gold, in their order) and the
//! familiarity preface stored before an item's question.

use super::{find_session, handoff_ids, screen_out_of, session_fieldwork};
use crate::error::{ApiError, ApiResult};
use crate::storage::{self, SessionItemRow, SessionRow, Storage};
use memeboard_core::api::{
    SessionItem, SessionResponse, SessionStatus, SubmitPrefaceRequest, SubmitPrefaceResponse,
};
use memeboard_core::fieldwork::{completion_handoff, plan_checks, FieldworkSettings, SessionCheck};
use memeboard_core::kinds::capabilities::view_before_preface;
use memeboard_core::kinds::{ItemPrompt, Kind, PromptView};
use memeboard_core::tasks::{label_key, Familiarity};
use memeboard_core::{msg, with_kind};

/// How an item is shown to one participant, and the display order (for kinds with options).
/// For kinds with a preface, the question stays out until the preface answer is stored.
fn prompt_view(seed: u64, row: &SessionItemRow) -> ApiResult<(PromptView, Vec<usize>)> {
    let prompt: ItemPrompt = storage::decode_json("items.prompt_json", &row.prompt_json)?;
    with_kind!(prompt.kind(), K => {
        let prompt = K::prompt_of(prompt)
            .map_err(|e| ApiError::Unexpected(anyhow::anyhow!("item {}: {e}", row.item_id)))?;
        let shown = K::present(&prompt, seed, &row.item_id);
        let view = view_before_preface::<K>(shown.view, row.preface.is_some());
        Ok((K::wire_view(view), shown.order))
    })
}

/// A batch item as the participant sees it now.
fn session_item(seed: u64, row: &SessionItemRow) -> ApiResult<SessionItem> {
    let (prompt, _) = prompt_view(seed, row)?;
    Ok(SessionItem {
        position: usize::try_from(row.position).unwrap_or(0),
        item_id: row.item_id.clone(),
        category: row.category.clone(),
        content_warning: row.flagged,
        prompt,
        answered: row.answered,
        preface: row.preface.as_deref().and_then(parse_familiarity),
    })
}

/// A stored familiarity key.
fn parse_familiarity(key: &str) -> Option<Familiarity> {
    serde_json::from_value(serde_json::Value::String(key.to_owned())).ok()
}

/// Stores the familiarity answer of one item before its question is sent, exactly once: a
/// resend of the same answer gets the item again (200), another answer is refused (409).
pub async fn submit_preface(
    storage: &Storage,
    session_id: &str,
    request: SubmitPrefaceRequest,
) -> ApiResult<(SubmitPrefaceResponse, bool)> {
    let session = find_session(storage, session_id).await?;
    let has_preface = with_kind!(session.task_kind, K => K::PREFACE.is_some());
    if !has_preface {
        return Err(ApiError::BadRequest(msg!(
            "preface.none",
            slug = session.quiz_slug
        )));
    }
    let rows = storage.session_items(session_id).await?;
    let row = rows
        .iter()
        .find(|r| r.item_id == request.item_id)
        .ok_or_else(|| {
            ApiError::Unprocessable(msg!("session.item_not_in_batch", item = request.item_id))
        })?;
    let key = label_key(&request.familiarity);
    let (stored, inserted) = storage
        .record_preface(session_id, &request.item_id, &key)
        .await?;
    if stored != key {
        return Err(ApiError::Conflict(msg!(
            "preface.already_answered",
            item = request.item_id,
            stored = stored
        )));
    }
    let mut row = row.clone();
    row.preface = Some(stored);
    let item = session_item(session.seed as u64, &row)?;
    Ok((
        SubmitPrefaceResponse {
            replayed: !inserted,
            item,
        },
        inserted,
    ))
}

/// A session as the participant sees it: the batch with options in their shuffled order and
/// answered flags — never gold, never right/wrong.
pub async fn get_session(storage: &Storage, id: &str) -> ApiResult<SessionResponse> {
    let session = find_session(storage, id).await?;
    let rows = storage.session_items(id).await?;
    let fieldwork = session_fieldwork(storage, &session).await?;
    let answered_checks = storage.session_checks(id).await?;
    let mut response = session_response(session.clone(), &rows, &fieldwork, &answered_checks)?;
    super::practice::with_training(storage, &session, &fieldwork, &mut response).await?;
    Ok(response)
}

/// [`get_session`]'s answer from what was read: the session, its batch, its quiz's fieldwork
/// settings and the attention checks answered so far (`(index, passed)`).
pub(super) fn session_response(
    session: SessionRow,
    rows: &[SessionItemRow],
    fieldwork: &FieldworkSettings,
    answered_checks: &[(i64, bool)],
) -> ApiResult<SessionResponse> {
    let seed = session.seed as u64;
    let items = rows
        .iter()
        .map(|row| session_item(seed, row))
        .collect::<ApiResult<Vec<_>>>()?;
    let answered = items.iter().filter(|i| i.answered).count();
    let checks = plan_checks(
        seed,
        rows.len(),
        u8::try_from(session.attention_checks).unwrap_or(0),
    )
    .into_iter()
    .map(|plan| SessionCheck {
        answered: answered_checks
            .iter()
            .any(|(i, _)| *i == i64::from(plan.index)),
        plan,
    })
    .collect();
    let screen_out = screen_out_of(&session, fieldwork)?;
    let redirect = session
        .completion_code
        .as_ref()
        .and_then(|_| completion_handoff(&fieldwork.handoff, &handoff_ids(&session)));
    let (redirect_url, redirect_code) = redirect.unzip();
    Ok(SessionResponse {
        checks,
        screen_out,
        redirect_url,
        redirect_code,
        session_id: session.id,
        participant_id: session.participant_id,
        quiz_slug: session.quiz_slug,
        quiz_title: session.quiz_title,
        status: if session.completion_code.is_some() {
            SessionStatus::Completed
        } else {
            SessionStatus::InProgress
        },
        next_position: items.iter().find(|i| !i.answered).map(|i| i.position),
        answered,
        items,
        completion_code: session.completion_code,
        participant_secret: None,
        training: None,
    })
}
