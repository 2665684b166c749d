//! Attention checks: one answer per check, and the screen-out once failures reach the
//! owner's limit.

use super::{find_session, screen_out_of, session_fieldwork};
use crate::crowd::quality;
use crate::error::{ApiError, ApiResult};
use crate::storage::Storage;
use anyhow::Context;
use memeboard_core::fieldwork::{
    plan_checks, SessionFacts, SubmitCheckRequest, SubmitCheckResponse,
};
use memeboard_core::msg;

/// Stores the answer to one attention check exactly once (a resend of the same choice is
/// acknowledged, another choice refused). With a screen-out set and the owner's limit of
/// failed checks reached, the session ends here and the response says where to go.
pub async fn submit_check(
    storage: &Storage,
    session_id: &str,
    request: SubmitCheckRequest,
) -> ApiResult<(SubmitCheckResponse, bool)> {
    let session = find_session(storage, session_id).await?;
    let plan = plan_checks(
        session.seed as u64,
        usize::try_from(session.batch_size).unwrap_or(0),
        u8::try_from(session.attention_checks).unwrap_or(0),
    );
    let check = plan
        .iter()
        .find(|c| c.index == request.index)
        .ok_or_else(|| {
            ApiError::Unprocessable(msg!(
                "check.unknown_index",
                count = plan.len(),
                found = request.index
            ))
        })?;
    if request.choice >= check.num_options {
        return Err(ApiError::BadRequest(msg!(
            "check.choice_range",
            max = check.num_options - 1,
            found = request.choice
        )));
    }
    let study = session_fieldwork(storage, &session).await?;
    if session.screen_reason.is_some() {
        return Ok((
            SubmitCheckResponse {
                replayed: true,
                screen_out: screen_out_of(&session, &study)?,
            },
            false,
        ));
    }
    let (stored, inserted) = storage
        .record_check(
            session_id,
            i64::from(request.index),
            i64::from(request.choice),
            request.choice == check.target,
            i64::try_from(request.response_ms).unwrap_or(i64::MAX),
        )
        .await?;
    if stored != i64::from(request.choice) {
        return Err(ApiError::Conflict(msg!(
            "check.already_answered",
            index = request.index
        )));
    }
    // Screen out once the failures reach the owner's limit (unfinished sessions only).
    let mut screen_out = None;
    if session.completion_code.is_none() && study.has_screenout() {
        if let Some(limit) = study.quality.fail_checks_at_least {
            let answers = storage.session_checks(session_id).await?;
            let (_, failed) = quality::check_tally(&answers);
            if failed >= limit as usize {
                let facts = SessionFacts {
                    checks_planned: plan.len(),
                    checks_answered: answers.len(),
                    checks_failed: failed,
                    ..SessionFacts::default()
                };
                if let Some(reason) =
                    memeboard_core::fieldwork::exclusion(&study.quality, false, &facts)
                {
                    let json =
                        serde_json::to_string(&reason).context("encode screen-out reason")?;
                    storage.screen_out(session_id, &json).await?;
                    let session = find_session(storage, session_id).await?;
                    screen_out = screen_out_of(&session, &study)?;
                }
            }
        }
    }
    Ok((
        SubmitCheckResponse {
            replayed: !inserted,
            screen_out,
        },
        inserted,
    ))
}
