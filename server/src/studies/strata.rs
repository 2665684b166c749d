//! Sampling a study by another task's labels (CMPM §5.3: 64 comics, 12–13 per *structure
//! type*, while the comic explanation items' own categories are strip lengths): with
//! `stratify_by`, each source item's category becomes the class that a labelling task of the
//! same benchmark (a kind with [`GoldStrata`]) gives the same source, so the planner draws
//! `items_per_category` per class and the study's tables break down by it.
//!
//! **Dev items only.** A test item's class is that task's hidden gold: a test study's pages
//! would carry it as their category, and which test comics a per-class draw includes would
//! hint at it (a rare class is drawn whole, a common one in part). So a stratified study
//! draws from dev, whose gold is public, and is refused on test (`study.strata_split`).

use crate::error::{ApiError, ApiResult};
use crate::kinds::{typed_item, ServerKind};
use crate::storage::{BoardTaskRow, Storage};
use memeboard_core::human_eval::study::{CreateStudyRequest, SourceItem};
use memeboard_core::msg;
use memeboard_core::predictions::Split;
use memeboard_core::tasks::CategoryInfo;
use memeboard_core::with_kind;
use std::collections::{BTreeMap, HashMap};

/// The source items re-categorised by the request's `stratify_by` task, and the classes as
/// the judging tasks' categories; the items and `None` without it. Items with no class (test
/// items, sources the labelling task lacks) are left out.
pub(super) async fn stratified(
    storage: &Storage,
    source: &BoardTaskRow,
    req: &CreateStudyRequest,
    items: Vec<SourceItem>,
) -> ApiResult<(Vec<SourceItem>, Option<Vec<CategoryInfo>>)> {
    let Some(slug) = req.stratify_by.as_deref() else {
        return Ok((items, None));
    };
    if req.split != Split::Dev {
        return Err(ApiError::Unprocessable(msg!("study.strata_split")));
    }
    let labels = storage
        .find_board_task(slug)
        .await?
        .filter(|t| t.task.benchmark_id == source.task.benchmark_id);
    let Some(labels) = labels else {
        return Err(ApiError::Unprocessable(msg!(
            "study.strata_task",
            slug = slug
        )));
    };
    let kind = labels.task.task_kind()?;
    // Source id → class, from the labelling task's dev items.
    let mut class_of: HashMap<String, CategoryInfo> = HashMap::new();
    let sources: HashMap<String, String> = storage
        .task_source_ids(&labels.task.id)
        .await?
        .into_iter()
        .collect();
    let rows = storage.task_items(&labels.task.id).await?;
    with_kind!(kind, K => {
        let Some(strata) = K::GOLD_STRATA else {
            return Err(ApiError::Unprocessable(msg!("study.strata_task", slug = slug)));
        };
        for row in rows.into_iter().filter(|r| r.split == Split::Dev) {
            let Some(source_id) = sources.get(&row.id).cloned() else {
                continue;
            };
            let item = typed_item::<K>(row)?;
            class_of.insert(source_id, strata.stratum(&item.gold));
        }
    });
    let own: HashMap<String, String> = storage
        .task_source_ids(&source.task.id)
        .await?
        .into_iter()
        .collect();
    let mut categories = BTreeMap::new();
    let items = items
        .into_iter()
        .filter(|i| i.split == Split::Dev)
        .filter_map(|mut item| {
            let class = class_of.get(own.get(&item.id)?)?;
            item.category = class.key.clone();
            categories.insert(class.key.clone(), class.clone());
            Some(item)
        })
        .collect();
    Ok((items, Some(categories.into_values().collect())))
}
