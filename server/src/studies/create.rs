//! Creating a study ([`create_study`]): the source board checked and read, the plan, and
//! its judging tasks stored with the study in one transaction.

use super::{encode, links, MAX_MIN_ITEM_MS, MAX_SLUG};
use crate::error::{ApiError, ApiResult};
use crate::ids::random_hex;
use crate::judging::{self, JudgingItem, JudgingTaskSpec};
use crate::kinds::{typed_item, ServerKind};
use crate::owners::{self, Actor};
use crate::state::AppState;
use crate::storage::{
    self, BoardTaskRow, NewOwnerAction, NewStudyTask, Storage, StudyInsert, StudyRecord,
};
use anyhow::Context;
use axum::http::HeaderMap;
use memeboard_core::fieldwork::{FieldworkSettings, MAX_BATCHES_PER_RATER};
use memeboard_core::human_eval::error_labels::validate_error_labels;
use memeboard_core::human_eval::study::{
    plan_study, BoardSubmission, CreateStudyRequest, CreateStudyResponse, PlanRequest, SourceItem,
    StudyPlan, StudyProtocol, StudyTaskLink,
};
use memeboard_core::human_eval::training::Training;
use memeboard_core::kinds::{ranking, rating, ItemGold, ItemPrompt, Kind, TaskKind};
use memeboard_core::leaderboard::CategoryEstimate;
use memeboard_core::msg;
use memeboard_core::tasks::CategoryInfo;
use memeboard_core::with_kind;
use std::collections::BTreeMap;

/// The source items of a board that studies can draw from (explanations of memes or comics),
/// each given by its kind.
pub(super) fn source_items(
    kind: TaskKind,
    rows: Vec<storage::TaskItemRow>,
) -> ApiResult<Vec<SourceItem>> {
    with_kind!(kind, K => {
        let source = K::STUDY_SOURCE.ok_or_else(|| {
            ApiError::Unexpected(anyhow::anyhow!("{} items are not a study's source", K::KEY))
        })?;
        rows.into_iter()
            .map(|r| Ok(source.source_item(typed_item::<K>(r)?)))
            .collect()
    })
}

/// The overall public-board score of a submission, for "top k".
fn primary_score(public_summary_json: &str) -> Option<f64> {
    let rows: Vec<CategoryEstimate> = serde_json::from_str(public_summary_json).ok()?;
    rows.iter()
        .find(|r| r.category.is_none())
        .and_then(|r| r.estimate)
        .map(|e| e.value)
}

fn check_request(req: &CreateStudyRequest) -> ApiResult<()> {
    let slug_ok = (1..=MAX_SLUG).contains(&req.slug.len())
        && req
            .slug
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
    if !slug_ok {
        return Err(ApiError::BadRequest(msg!("study.slug", found = req.slug)));
    }
    if let Some(ms) = req.min_item_ms {
        if ms > MAX_MIN_ITEM_MS {
            return Err(ApiError::BadRequest(msg!("study.min_item_ms", found = ms)));
        }
    }
    if let Some(statements) = &req.statements {
        if req.protocol != StudyProtocol::Accuracy {
            return Err(ApiError::BadRequest(msg!("study.statements_protocol")));
        }
        statements.validate().map_err(ApiError::BadRequest)?;
    }
    if let Some(labels) = &req.error_labels {
        validate_error_labels(labels).map_err(ApiError::BadRequest)?;
    }
    if req.one_page_per_subject && req.protocol != StudyProtocol::Accuracy {
        return Err(ApiError::BadRequest(msg!("study.one_page_protocol")));
    }
    Ok(())
}

/// What the planner is asked, from the owner's request and the seed used.
pub(super) fn plan_request(req: &CreateStudyRequest, seed: u64) -> PlanRequest {
    PlanRequest {
        protocol: req.protocol,
        submissions: req.submissions.clone(),
        items_per_category: req.items_per_category,
        split: req.split,
        invitation_only: req.invitation_only,
        batch_size: req.batch_size,
        raters_per_batch: req.raters_per_batch,
        planted_checks: req.planted_checks,
        one_category_batches: req.one_category_batches,
        one_page_per_subject: req.one_page_per_subject,
        seed,
    }
}

/// A random 64-bit number from the OS.
fn random_u64() -> ApiResult<u64> {
    let hex = random_hex(8)?;
    u64::from_str_radix(&hex, 16)
        .map_err(|e| ApiError::Unexpected(anyhow::anyhow!("random seed: {e}")))
}

/// Whether a judging task has planted outputs of known quality among its pages.
fn planted_pages(spec: &JudgingTaskSpec) -> bool {
    spec.items
        .iter()
        .any(|i| matches!(&i.gold, ItemGold::Rating(g) if g.planted.is_some()))
}

/// The judging tasks of a plan, ready to store.
fn task_specs(
    benchmark_id: &str,
    req: &CreateStudyRequest,
    plan: &StudyPlan,
    categories: &[CategoryInfo],
    training: Option<&Training>,
) -> Vec<(JudgingTaskSpec, u32)> {
    let wording = super::wording::PageWording::of(req);
    let title = req
        .title
        .clone()
        .unwrap_or_else(|| "Rate explanations".into());
    let mut specs = vec![(
        JudgingTaskSpec {
            benchmark_id: benchmark_id.to_owned(),
            slug: format!("{}-rate", req.slug),
            title: title.clone(),
            description: String::new(),
            kind: TaskKind::Rating,
            batch_size: req.batch_size,
            invite_hash: None,
            study_id: None,
            categories: categories.to_vec(),
            training: training.cloned(),
            items: plan
                .ratings
                .iter()
                .map(|r| JudgingItem {
                    id: r.id.clone(),
                    category: r.category.clone(),
                    split: r.split,
                    prompt: ItemPrompt::Rating(rating::Prompt {
                        one_page_per_subject: req.one_page_per_subject,
                        ..wording.prompt(&r.subject, r.reference.as_ref(), &r.output, r.has_context)
                    }),
                    gold: ItemGold::Rating(rating::Gold {
                        submission_id: r.submission_id.clone(),
                        source_item: r.source_item.clone(),
                        planted: r.planted,
                        batch: r.batch,
                    }),
                    batch: r.batch,
                })
                .collect(),
        },
        plan.rating_batches,
    )];
    if !plan.rankings.is_empty() {
        specs.push((
            JudgingTaskSpec {
                benchmark_id: benchmark_id.to_owned(),
                slug: format!("{}-rank", req.slug),
                title: req
                    .title
                    .as_ref()
                    .map_or_else(|| "Rank explanations".into(), |t| format!("{t} (ranking)")),
                description: String::new(),
                kind: TaskKind::Ranking,
                batch_size: req.batch_size,
                invite_hash: None,
                study_id: None,
                categories: categories.to_vec(),
                training: None,
                items: plan
                    .rankings
                    .iter()
                    .map(|r| JudgingItem {
                        id: r.id.clone(),
                        category: r.category.clone(),
                        split: r.split,
                        prompt: ItemPrompt::Ranking(ranking::Prompt {
                            subject: r.subject.clone(),
                            reference: None,
                            candidates: r.candidates.clone(),
                        }),
                        gold: ItemGold::Ranking(ranking::Gold {
                            submissions: r.submissions.clone(),
                            source_item: r.source_item.clone(),
                            batch: r.batch,
                        }),
                        batch: r.batch,
                    })
                    .collect(),
            },
            plan.ranking_batches,
        ));
    }
    specs
}

/// The board task of `source_slug`, checked against the request's protocol, and its board:
/// each submission's primary score and outputs.
pub(super) async fn study_source(
    storage: &Storage,
    source_slug: &str,
    req: &CreateStudyRequest,
) -> ApiResult<(BoardTaskRow, Vec<BoardSubmission>)> {
    let task = storage
        .find_board_task(source_slug)
        .await?
        .ok_or_else(|| ApiError::NotFound(msg!("task.not_found", slug = source_slug)))?;
    let kind = task.task.task_kind()?;
    let expected = kind.study_protocol().ok_or_else(|| {
        ApiError::Unprocessable(msg!(
            "study.source_kind",
            slug = source_slug,
            kind = kind.as_str()
        ))
    })?;
    if req.protocol != expected {
        return Err(ApiError::Unprocessable(msg!(
            "study.protocol_kind",
            protocol = req.protocol.as_str(),
            kind = kind.as_str(),
            expected = expected.as_str()
        )));
    }
    let mut board = Vec::new();
    let mut names = BTreeMap::new();
    for s in storage.task_submissions(&task.task.id).await? {
        let outputs = storage
            .submission_outputs(&s.id)
            .await?
            .into_iter()
            .map(|o| (o.item_id, o.output))
            .collect();
        names.insert(s.id.clone(), s.model_name.clone());
        board.push(BoardSubmission {
            score: primary_score(&s.public_summary_json),
            id: s.id,
            outputs,
        });
    }
    Ok((task, board))
}

/// The judging tasks of the plan (`specs`, from [`task_specs`]), ready to store with the
/// study, and their links for the response.
async fn study_tasks(
    storage: &Storage,
    req: &CreateStudyRequest,
    specs: Vec<(JudgingTaskSpec, u32)>,
    study_id: &str,
    invite: Option<&str>,
) -> ApiResult<(Vec<NewStudyTask>, Vec<StudyTaskLink>)> {
    let mut tasks = Vec::new();
    let mut response_tasks = Vec::new();
    let raters = u32::try_from(req.raters_per_batch).unwrap_or(u32::MAX);
    for (mut spec, batches) in specs {
        spec.study_id = Some(study_id.to_owned());
        let (record, rows) = judging::prepare_judging_task(storage, &spec).await?;
        let mut settings = FieldworkSettings {
            participant_target: Some(batches.saturating_mul(raters).max(1)),
            ..FieldworkSettings::default()
        };
        // Planted outputs are rating pages only, so the rule is on where there are some.
        settings.quality.planted_checks = req.planted_checks && planted_pages(&spec);
        settings.quality.min_item_ms = req.min_item_ms;
        if req.dense && batches > 1 {
            settings.batches_per_rater = Some(dense_parts(&spec.slug, batches)?);
        }
        let (link, prolific_link) = links(&spec.slug, invite);
        response_tasks.push(StudyTaskLink {
            slug: spec.slug.clone(),
            kind: spec.kind.as_str().to_owned(),
            items: spec.items.len(),
            batches,
            raters_target: batches.saturating_mul(raters),
            link,
            prolific_link,
        });
        tasks.push(NewStudyTask {
            task: record,
            items: rows,
            study_json: serde_json::to_string(&settings).context("encode fieldwork settings")?,
            training_json: spec.training.as_ref().map(encode).transpose()?,
        });
    }
    Ok((tasks, response_tasks))
}

/// The parts one rater judges in a dense study: every batch of the task, at most
/// [`MAX_BATCHES_PER_RATER`] (larger batches make fewer parts).
fn dense_parts(task: &str, batches: u32) -> ApiResult<u32> {
    if batches > MAX_BATCHES_PER_RATER {
        return Err(ApiError::Unprocessable(msg!(
            "study.dense_parts",
            task = task,
            batches = batches,
            max = MAX_BATCHES_PER_RATER
        )));
    }
    Ok(batches)
}

/// `POST /api/owner/tasks/{slug}/studies`: plans a study from the task's board and creates it
/// with its judging tasks in one transaction (logged as `create_study`). An invitation-only
/// study's secret is in the response once (only its hash is stored).
pub async fn create_study(
    state: &AppState,
    headers: &HeaderMap,
    source_slug: &str,
    mut req: CreateStudyRequest,
) -> ApiResult<CreateStudyResponse> {
    let actor = owners::authorize(state, headers, source_slug).await?;
    create_study_as(&state.storage, &actor, source_slug, &mut req).await
}

/// [`create_study`] for an already authorized actor (the CLI acts as the admin).
pub async fn create_study_as(
    storage: &Storage,
    actor: &Actor,
    source_slug: &str,
    req: &mut CreateStudyRequest,
) -> ApiResult<CreateStudyResponse> {
    check_request(req)?;
    let (task, board) = study_source(storage, source_slug, req).await?;
    let items = source_items(
        task.task.task_kind()?,
        storage.task_items(&task.task.id).await?,
    )?;
    let training = super::training::study_training(req, &items)?;
    let (items, strata) = super::strata::stratified(storage, &task, req, items).await?;
    let seed = match req.seed {
        Some(s) => s,
        None => random_u64()?,
    };
    req.seed = Some(seed);
    let plan_request = plan_request(req, seed);
    let plan = plan_study(&plan_request, &board, &items, random_u64()?)
        .map_err(|e| ApiError::Unprocessable(e.message()))?;

    let invite = if req.invitation_only {
        Some(random_hex(16)?)
    } else {
        None
    };
    let study_id = format!("study-{}", random_hex(8)?);
    // The source board's category labels (or the strata's), so that raters read the
    // categories in words.
    let categories: Vec<CategoryInfo> = match strata {
        Some(strata) => strata,
        None => storage::decode_json("tasks.categories_json", &task.task.categories_json)?,
    };
    let specs = task_specs(
        &task.task.benchmark_id,
        req,
        &plan,
        &categories,
        training.as_ref(),
    );
    let (tasks, response_tasks) =
        study_tasks(storage, req, specs, &study_id, invite.as_deref()).await?;
    let record = StudyRecord {
        id: study_id.clone(),
        slug: req.slug.clone(),
        benchmark_id: task.task.benchmark_id.clone(),
        source_task_id: task.task.id.clone(),
        protocol: req.protocol.as_str().to_owned(),
        request_json: encode(req)?,
        submissions_json: encode(&plan.submissions)?,
        source_items_json: encode(&plan.source_items)?,
        exposed_items_json: encode(&plan.exposed_test_items)?,
        invite_hash: invite.as_deref().map(judging::invite_hash),
        created_by: actor.name.clone(),
        created_at: storage::now_ms(),
        reliability_json: None,
    };
    let detail = serde_json::json!({
        "study": req.slug,
        "protocol": req.protocol.as_str(),
        "submissions": plan.submissions,
        "source_items": plan.source_items.len(),
        "split": req.split.as_str(),
        "invitation_only": req.invitation_only,
        "exposed_test_items": plan.exposed_test_items.len(),
        "planted_groups": plan.planted_groups,
        "unplanted_batches": plan.unplanted_batches,
        "tasks": response_tasks.iter().map(|t| t.slug.clone()).collect::<Vec<_>>(),
    })
    .to_string();
    let action = NewOwnerAction {
        owner_id: actor.owner_id.as_deref(),
        actor_name: &actor.name,
        benchmark_id: &task.task.benchmark_id,
        task_id: Some(&task.task.id),
        action: "create_study",
        detail_json: &detail,
    };
    match storage.insert_study(&record, &tasks, &action).await? {
        StudyInsert::Created => {}
        StudyInsert::SlugTaken => {
            return Err(ApiError::Conflict(msg!(
                "study.slug_taken",
                slug = req.slug
            )))
        }
        StudyInsert::TaskSlugTaken(slug) => {
            return Err(ApiError::Conflict(msg!("judging.slug_taken", slug = slug)))
        }
    }
    tracing::info!(study = %req.slug, task = source_slug, "study created");
    Ok(CreateStudyResponse {
        study: req.slug.clone(),
        tasks: response_tasks,
        invite,
        submissions: plan.submissions,
        source_items: plan.source_items.len(),
        exposed_test_items: plan.exposed_test_items.len(),
        planted_groups: plan.planted_groups,
        unplanted_batches: plan.unplanted_batches,
        seed,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_dense_study_gives_a_rater_at_most_the_parts_one_may_judge() {
        assert_eq!(dense_parts("s-rate", 3).ok(), Some(3));
        assert_eq!(
            dense_parts("s-rate", MAX_BATCHES_PER_RATER).ok(),
            Some(MAX_BATCHES_PER_RATER)
        );
        match dense_parts("s-rate", MAX_BATCHES_PER_RATER + 1) {
            Err(ApiError::Unprocessable(m)) => {
                assert_eq!(m.code(), "study.dense_parts");
                assert!(m.to_string().contains("`s-rate` has 101 batches"), "{m}");
            }
            other => panic!("{other:?}"),
        }
    }
}
