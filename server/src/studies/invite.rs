//! Reissuing a study's invitation: an invitation-only study's secret is shown once, at
//! creation; an owner who lost it, or whose links leaked, gets a new one here. The old links
//! stop admitting new raters at once; raters who started keep their sessions.

use super::{authorized_study, links};
use crate::error::{ApiError, ApiResult};
use crate::ids::random_hex;
use crate::judging;
use crate::state::AppState;
use crate::storage::NewOwnerAction;
use axum::http::HeaderMap;
use memeboard_core::human_eval::study::{InvitationResponse, RaterLink};
use memeboard_core::msg;

/// `POST /api/owner/studies/{slug}/invitation`: a new invitation secret for an
/// invitation-only study (409 for a study open to anyone), with its rater links; only the
/// secret's hash is stored, and the reissue is logged as `reissue_invitation`.
pub async fn reissue_invitation(
    state: &AppState,
    headers: &HeaderMap,
    slug: &str,
) -> ApiResult<InvitationResponse> {
    let (study, actor) = authorized_study(state, headers, slug).await?;
    if study.invite_hash.is_none() {
        return Err(ApiError::Conflict(msg!("study.open_to_all", slug = slug)));
    }
    let secret = random_hex(16)?;
    let detail = serde_json::json!({ "study": study.slug }).to_string();
    let action = NewOwnerAction {
        owner_id: actor.owner_id.as_deref(),
        actor_name: &actor.name,
        benchmark_id: &study.benchmark_id,
        task_id: Some(&actor.task.task.id),
        action: "reissue_invitation",
        detail_json: &detail,
    };
    state
        .storage
        .replace_study_invitation(&study.id, &judging::invite_hash(&secret), &action)
        .await?;
    let mut task_links = Vec::new();
    for task in state.storage.study_tasks(&study.id).await? {
        let (link, prolific_link) = links(&task.slug, Some(&secret));
        task_links.push(RaterLink {
            task: task.slug,
            link,
            prolific_link,
        });
    }
    tracing::info!(study = %study.slug, "study invitation reissued");
    Ok(InvitationResponse {
        study: study.slug,
        invite: secret,
        links: task_links,
    })
}
