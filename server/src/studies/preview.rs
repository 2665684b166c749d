//! Previewing a study ([`preview_study`]): the plan a request would make, computed like the
//! real one from the same board and items but stored nowhere, with each category's eligible
//! items on both splits and what drawing from test would expose.

use super::create::{plan_request, source_items, study_source};
use crate::error::{ApiError, ApiResult};
use crate::owners;
use crate::state::AppState;
use axum::http::HeaderMap;
use memeboard_core::human_eval::study::{
    eligible_per_category, plan_study, CategoryAvailability, CreateStudyRequest, PlanRequest,
    StudyPreview,
};
use memeboard_core::predictions::Split;
use std::collections::BTreeSet;

/// The seed a request without one is previewed with (the real study draws its own).
const PREVIEW_SEED: u64 = 1;

/// `POST /api/owner/tasks/{slug}/studies/preview`: what [`super::create_study`] would make
/// of the request (its problems answered the same way, 422), without storing anything.
pub async fn preview_study(
    state: &AppState,
    headers: &HeaderMap,
    source_slug: &str,
    req: CreateStudyRequest,
) -> ApiResult<StudyPreview> {
    owners::authorize(state, headers, source_slug).await?;
    let storage = &state.storage;
    let (task, board) = study_source(storage, source_slug, &req).await?;
    let items = source_items(
        task.task.task_kind()?,
        storage.task_items(&task.task.id).await?,
    )?;
    let (items, _) = super::strata::stratified(storage, &task, &req, items).await?;
    let request = plan_request(&req, req.seed.unwrap_or(PREVIEW_SEED));
    let plan = plan_study(&request, &board, &items, 0)
        .map_err(|e| ApiError::Unprocessable(e.message()))?;
    let count =
        |split| eligible_per_category(req.protocol, &board, &plan.submissions, &items, split);
    let (dev, test) = (count(Split::Dev), count(Split::Test));
    let on_test = PlanRequest {
        split: Split::Test,
        invitation_only: true,
        ..request.clone()
    };
    let exposed_if_test = plan_study(&on_test, &board, &items, 0)
        .ok()
        .map(|p| p.exposed_test_items.len());
    let keys: BTreeSet<&String> = dev
        .keys()
        .chain(test.keys())
        .chain(plan.per_category.keys())
        .collect();
    let categories = keys
        .into_iter()
        .map(|k| CategoryAvailability {
            category: k.clone(),
            dev: dev.get(k).copied().unwrap_or(0),
            test: test.get(k).copied().unwrap_or(0),
            drawn: plan.per_category.get(k).copied().unwrap_or(0),
        })
        .collect();
    let raters = u32::try_from(req.raters_per_batch).unwrap_or(u32::MAX);
    Ok(StudyPreview {
        categories,
        source_items: plan.source_items.len(),
        rating_pages: plan.ratings.len(),
        rating_batches: plan.rating_batches,
        ranking_pages: plan.rankings.len(),
        ranking_batches: plan.ranking_batches,
        raters_wanted: plan.rating_batches.saturating_mul(raters),
        planted_groups: plan.planted_groups,
        unplanted_batches: plan.unplanted_batches,
        exposed_test_items: plan.exposed_test_items.len(),
        exposed_if_test,
        submissions: plan.submissions,
    })
}
