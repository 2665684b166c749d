//! Owners of benchmarks (researchers): owner tokens scoped to one benchmark, the
//! authorization every owner endpoint goes through, the action log, and the console
//! (settings, exclusions, hand-off) and live-progress views of a quiz.
//!
//! The folder `owners/` holds the console's view (`console`) and the rescoring of a task's
//! uploads that owners ask for or a re-import of corrected gold starts ([`rescore`]).

use crate::crowd::quality::{self, fieldwork_settings};
use crate::error::{ApiError, ApiResult};
use crate::ids::random_hex;
use crate::leaderboard::{bearer, hash_token, is_admin};
use crate::state::AppState;
use crate::storage::{
    FieldworkData, FieldworkTaskRow, FieldworkUpdate, NewOwnerAction, OwnerRecord, Storage,
};
use anyhow::Context;
use axum::http::HeaderMap;
use memeboard_core::crowd::{agreement_by_dimension, CrowdObservation};
use memeboard_core::fieldwork::{
    histogram, median, CategoryProgress, ConsoleSettings, CreateOwnerRequest, CreateOwnerResponse,
    DropPoint, ItemProgress, OwnedTask, ProgressResponse, DROP_AFTER_MS,
};
use memeboard_core::msg;
use memeboard_core::tasks::CategoryInfo;
use std::collections::{BTreeMap, HashMap};

mod console;
pub mod rescore;
pub use console::console;

/// Who is acting on a task: the admin (owner of every benchmark) or an owner of the task's
/// benchmark.
#[derive(Debug, Clone)]
pub struct Actor {
    /// The owner id; `None` for the admin token.
    pub owner_id: Option<String>,
    /// `admin` or the owner's name (for the action log).
    pub name: String,
    /// The task acted on, with its settings.
    pub task: FieldworkTaskRow,
}

/// The token holder behind a request, before any task is known.
enum Holder {
    Admin,
    Owner(OwnerRecord),
}

async fn holder(state: &AppState, headers: &HeaderMap) -> ApiResult<Holder> {
    if is_admin(&state.settings, headers) {
        return Ok(Holder::Admin);
    }
    let token =
        bearer(headers).ok_or_else(|| ApiError::Unauthorized(msg!("owner.missing_token")))?;
    state
        .storage
        .find_owner_by_token_hash(&hash_token(token))
        .await?
        .map(Holder::Owner)
        .ok_or_else(|| ApiError::Unauthorized(msg!("owner.unknown_token")))
}

/// Authorizes a request on a task: the admin token, or an owner token of the task's
/// benchmark. 401 without a known token, 404 for an unknown task, 403 for an owner of another
/// benchmark. Every owner endpoint (and the board switches, and the answer-level export)
/// calls this first.
pub async fn authorize(state: &AppState, headers: &HeaderMap, task_slug: &str) -> ApiResult<Actor> {
    let holder = holder(state, headers).await?;
    let task = state
        .storage
        .find_fieldwork_task(task_slug)
        .await?
        .ok_or_else(|| ApiError::NotFound(msg!("task.not_found", slug = task_slug)))?;
    match holder {
        Holder::Admin => Ok(Actor {
            owner_id: None,
            name: "admin".into(),
            task,
        }),
        Holder::Owner(owner) if owner.benchmark_id == task.task.benchmark_id => Ok(Actor {
            owner_id: Some(owner.id),
            name: owner.name,
            task,
        }),
        Holder::Owner(owner) => Err(ApiError::Forbidden(msg!(
            "owner.other_benchmark",
            owned = owner.benchmark_slug,
            slug = task_slug,
            benchmark = task.benchmark_slug
        ))),
    }
}

/// Logs an action of `actor` on its task (who, what, when, details), listed on the console.
pub async fn log_action(
    storage: &Storage,
    actor: &Actor,
    action: &str,
    detail: &serde_json::Value,
) -> ApiResult<()> {
    storage
        .log_owner_action(&action_row(actor, action, &detail.to_string()))
        .await?;
    Ok(())
}

fn action_row<'a>(actor: &'a Actor, action: &'a str, detail_json: &'a str) -> NewOwnerAction<'a> {
    NewOwnerAction {
        owner_id: actor.owner_id.as_deref(),
        actor_name: &actor.name,
        benchmark_id: &actor.task.task.benchmark_id,
        task_id: Some(&actor.task.task.id),
        action,
        detail_json,
    }
}

/// Creates an owner token for a benchmark (`created_by`: `admin` or `cli`); the token is
/// returned once, only its hash is stored, and the creation is logged.
pub async fn create_owner(
    storage: &Storage,
    request: &CreateOwnerRequest,
    created_by: &str,
) -> ApiResult<CreateOwnerResponse> {
    let name = request.name.trim();
    if name.is_empty() || name.chars().count() > 100 || name.chars().any(char::is_control) {
        return Err(ApiError::BadRequest(msg!(
            "field.at_most_printable",
            field = "name",
            max = 100
        )));
    }
    let benchmark_id = storage
        .benchmark_id(&request.benchmark)
        .await?
        .ok_or_else(|| ApiError::NotFound(msg!("benchmark.not_found", slug = request.benchmark)))?;
    let token = format!("mbo_{}", random_hex(24)?);
    let owner = OwnerRecord {
        id: format!("O-{}", random_hex(6)?.to_uppercase()),
        benchmark_id: benchmark_id.clone(),
        benchmark_slug: request.benchmark.clone(),
        name: name.to_owned(),
        token_hash: hash_token(&token),
        created_by: created_by.to_owned(),
    };
    let detail = serde_json::json!({"owner_id": owner.id, "name": owner.name}).to_string();
    storage
        .create_owner(
            &owner,
            &NewOwnerAction {
                owner_id: None,
                actor_name: created_by,
                benchmark_id: &benchmark_id,
                task_id: None,
                action: "create_owner",
                detail_json: &detail,
            },
        )
        .await?;
    Ok(CreateOwnerResponse {
        owner_id: owner.id,
        benchmark: request.benchmark.clone(),
        name: owner.name,
        token,
    })
}

/// `POST /api/admin/tasks/{task}/board`: the board switches, for the admin or an owner of the
/// task's benchmark; the change is logged.
pub async fn update_board(
    state: &AppState,
    headers: &HeaderMap,
    slug: &str,
    req: memeboard_core::api::BoardSettingsRequest,
) -> ApiResult<memeboard_core::api::BoardSettingsRequest> {
    let actor = authorize(state, headers, slug).await?;
    let now = crate::leaderboard::update_board(&state.storage, slug, &req).await?;
    let detail = serde_json::to_value(&req).context("encode board settings")?;
    log_action(&state.storage, &actor, "update_board", &detail).await?;
    Ok(now)
}

/// `POST /api/admin/owners`: the admin creates an owner token.
pub async fn create_owner_as_admin(
    state: &AppState,
    headers: &HeaderMap,
    request: &CreateOwnerRequest,
) -> ApiResult<CreateOwnerResponse> {
    crate::leaderboard::require_admin(&state.settings, headers)?;
    create_owner(&state.storage, request, "admin").await
}

/// The tasks a token may manage (all for the admin).
pub async fn owned_tasks(state: &AppState, headers: &HeaderMap) -> ApiResult<Vec<OwnedTask>> {
    let benchmark = match holder(state, headers).await? {
        Holder::Admin => None,
        Holder::Owner(o) => Some(o.benchmark_id),
    };
    Ok(state
        .storage
        .list_fieldwork_tasks(benchmark.as_deref())
        .await?
        .into_iter()
        .map(|t| OwnedTask {
            slug: t.task.slug,
            title: t.task.title,
            benchmark: t.benchmark_slug,
            quiz_open: t.task.quiz_open,
        })
        .collect())
}

pub(crate) fn console_settings(task: &FieldworkTaskRow) -> ApiResult<ConsoleSettings> {
    Ok(ConsoleSettings {
        quiz_open: task.task.quiz_open,
        batch_size: u32::try_from(task.task.batch_size).unwrap_or(0),
        allow_retake: task.allow_retake,
        exclude_failed_checks: task.exclude_failed_checks,
        fieldwork: fieldwork_settings(task.study_json.as_deref())?,
    })
}

pub(crate) fn categories(task: &FieldworkTaskRow) -> ApiResult<Vec<CategoryInfo>> {
    Ok(crate::storage::decode_json(
        "tasks.categories_json",
        &task.task.categories_json,
    )?)
}

/// The fields that differ between two JSON values, flattened (`study.handoff.x`):
/// `{field: {"from": old, "to": new}}` (the action log's detail).
fn changes(
    prefix: &str,
    old: &serde_json::Value,
    new: &serde_json::Value,
    out: &mut serde_json::Map<String, serde_json::Value>,
) {
    match (old, new) {
        (serde_json::Value::Object(a), serde_json::Value::Object(b)) => {
            for (k, v) in b {
                let key = if prefix.is_empty() {
                    k.clone()
                } else {
                    format!("{prefix}.{k}")
                };
                changes(&key, a.get(k).unwrap_or(&serde_json::Value::Null), v, out);
            }
        }
        _ if old != new => {
            out.insert(
                prefix.to_owned(),
                serde_json::json!({"from": old, "to": new}),
            );
        }
        _ => {}
    }
}

/// Replaces a quiz's settings (all fields), checked first; the change is logged with the
/// fields that changed, in the same transaction (a save that changes nothing writes and logs
/// nothing).
pub async fn update_settings(
    state: &AppState,
    headers: &HeaderMap,
    slug: &str,
    new: ConsoleSettings,
) -> ApiResult<ConsoleSettings> {
    let actor = authorize(state, headers, slug).await?;
    let task = &actor.task;
    new.fieldwork.validate().map_err(ApiError::BadRequest)?;
    let keys: Vec<String> = categories(task)?.into_iter().map(|c| c.key).collect();
    if let Some(unknown) = new.fieldwork.categories.iter().find(|c| !keys.contains(c)) {
        return Err(ApiError::BadRequest(msg!(
            "study.unknown_category",
            category = unknown,
            expected = keys.join(", ")
        )));
    }
    let pool = state
        .storage
        .assignment_candidates(&task.task.id, false)
        .await?;
    if let Some(unknown) = new
        .fieldwork
        .excluded_items
        .iter()
        .find(|i| !pool.iter().any(|c| &c.id == *i))
    {
        return Err(ApiError::BadRequest(msg!(
            "study.unknown_item",
            item = unknown,
            slug = slug
        )));
    }
    let eligible = pool
        .iter()
        .filter(|c| {
            new.fieldwork.categories.is_empty() || new.fieldwork.categories.contains(&c.category)
        })
        .filter(|c| !new.fieldwork.excluded_items.contains(&c.id))
        .count();
    if eligible == 0 {
        return Err(ApiError::BadRequest(msg!("study.no_items_left")));
    }
    if new.batch_size == 0 || new.batch_size as usize > pool.len() {
        return Err(ApiError::BadRequest(msg!(
            "study.batch_size",
            max = pool.len(),
            found = new.batch_size
        )));
    }
    let old = console_settings(task)?;
    let mut changed = serde_json::Map::new();
    changes(
        "",
        &serde_json::to_value(&old).context("encode settings")?,
        &serde_json::to_value(&new).context("encode settings")?,
        &mut changed,
    );
    if changed.is_empty() {
        // Saving the settings as they are changes nothing: no write, no log entry.
        return Ok(new);
    }
    let detail = serde_json::json!({ "changed": changed }).to_string();
    let update = FieldworkUpdate {
        quiz_open: new.quiz_open,
        batch_size: i64::from(new.batch_size),
        allow_retake: new.allow_retake,
        exclude_failed_checks: new.exclude_failed_checks,
        study_json: serde_json::to_string(&new.fieldwork).context("encode fieldwork settings")?,
    };
    state
        .storage
        .update_fieldwork(
            &task.task.id,
            &update,
            &action_row(&actor, "update_settings", &detail),
        )
        .await?;
    Ok(new)
}

/// The live progress of a quiz, computed once per state of its data (and at most once a
/// minute for the idle-time split), off the async executor.
pub async fn progress(
    state: &AppState,
    headers: &HeaderMap,
    slug: &str,
) -> ApiResult<ProgressResponse> {
    let actor = authorize(state, headers, slug).await?;
    let task = actor.task;
    let storage = &state.storage;
    let settings = console_settings(&task)?;
    let now = crate::storage::now_ms();
    let (sessions, answers, checks, latest, version) =
        storage.fieldwork_fingerprint(&task.task.id).await?;
    let rules = memeboard_core::ids::fnv1a64(
        format!(
            "{}\u{1f}{}",
            task.study_json.as_deref().unwrap_or_default(),
            settings.exclude_failed_checks
        )
        .as_bytes(),
    ) as i64;
    let fingerprint = (
        sessions,
        answers,
        checks ^ rules ^ (now / 60_000),
        latest,
        version,
    );
    if let Some(p) = state.progress.stored(&task.task.id, fingerprint) {
        return Ok((*p).clone());
    }
    let (data, pilot) = quality::without_pilot(storage.fieldwork_data(&task.task.id).await?);
    let kind = task.task.task_kind()?;
    let choices = crate::quiz::item_choices(storage, &task.task.id, kind).await?;
    let pool: Vec<(String, String)> = storage
        .assignment_candidates(&task.task.id, false)
        .await?
        .into_iter()
        .map(|c| (c.id, c.category))
        .collect();
    let keys: Vec<String> = categories(&task)?.into_iter().map(|c| c.key).collect();
    let slug = task.task.slug.clone();
    let value = state
        .progress
        .get_or_compute(&task.task.id, fingerprint, move || {
            let mut p = compute_progress(slug, &data, &settings, &pool, &keys, &choices, now);
            (p.pilot_sessions, p.pilot_completed) = pilot;
            p
        })
        .await
        .context("computing quiz progress")?;
    Ok((*value).clone())
}

/// The progress figures from a task's data (pure; see [`ProgressResponse`]).
fn compute_progress(
    task: String,
    data: &FieldworkData,
    settings: &ConsoleSettings,
    pool: &[(String, String)],
    keys: &[String],
    choices: &BTreeMap<String, Option<usize>>,
    now: i64,
) -> ProgressResponse {
    let excluded =
        quality::exclusions_of(data, &settings.fieldwork, settings.exclude_failed_checks);
    let kept = quality::kept_sessions(data, &excluded);
    let mut answered: HashMap<&str, (usize, i64)> = HashMap::new();
    for a in &data.answers {
        let e = answered.entry(a.session_id.as_str()).or_default();
        e.0 += 1;
        e.1 = e.1.max(a.created_at);
    }
    let (mut in_progress, mut dropped, mut screened) = (0, 0, 0);
    let mut dropped_at: BTreeMap<usize, usize> = BTreeMap::new();
    let mut durations = Vec::new();
    for s in &data.sessions {
        if let Some(done) = s.completed_at {
            durations.push(done - s.created_at);
        } else if s.screened_out_at.is_some() {
            screened += 1;
        } else {
            let (n, last) = answered.get(s.id.as_str()).copied().unwrap_or((0, 0));
            if now - last.max(s.created_at) > DROP_AFTER_MS {
                dropped += 1;
                *dropped_at.entry(n).or_default() += 1;
            } else {
                in_progress += 1;
            }
        }
    }
    let mut per_item: HashMap<&str, Vec<u64>> = HashMap::new();
    let mut per_category: HashMap<&str, usize> = HashMap::new();
    let mut observations = Vec::new();
    for a in &data.answers {
        per_item
            .entry(a.item_id.as_str())
            .or_default()
            .push(u64::try_from(a.response_ms).unwrap_or(0));
        *per_category.entry(a.category.as_str()).or_default() += 1;
        if let (Some(participant), Some(choice)) = (kept.get(&a.session_id), a.choice) {
            let options = choices.get(&a.item_id).copied().flatten();
            observations.push(
                CrowdObservation::answer(&**participant, &*a.item_id, &*a.category, None)
                    .with_choice(Some(choice), options),
            );
        }
    }
    let completed = durations.len();
    let excluded_completed = data
        .sessions
        .iter()
        .filter(|s| s.completed_at.is_some() && excluded.contains_key(&s.id))
        .count();
    ProgressResponse {
        task,
        started: data.sessions.len(),
        completed,
        completed_after_exclusions: completed - excluded_completed,
        in_progress,
        dropped,
        screened_out: screened,
        dropped_at: dropped_at
            .into_iter()
            .map(|(position, sessions)| DropPoint { position, sessions })
            .collect(),
        participant_target: settings.fieldwork.participant_target,
        items: pool
            .iter()
            .map(|(id, category)| {
                let times = per_item.get(id.as_str());
                ItemProgress {
                    item_id: id.clone(),
                    category: category.clone(),
                    answers: times.map_or(0, Vec::len),
                    median_ms: times.and_then(|t| median(t)),
                }
            })
            .collect(),
        categories: keys
            .iter()
            .map(|k| CategoryProgress {
                category: k.clone(),
                answers: per_category.get(k.as_str()).copied().unwrap_or(0),
            })
            .collect(),
        agreement: agreement_by_dimension(&observations),
        completion_histogram: histogram(&durations),
        computed_at: now,
        pilot_sessions: 0,
        pilot_completed: 0,
    }
}
