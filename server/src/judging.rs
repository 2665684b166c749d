//! Judging tasks: people rate or rank model outputs (kinds `rating` and `ranking`). A study
//! creates one with [`create_judging_task`]; raters then go through the ordinary quiz protocol
//! with four differences, all decided here:
//!
//! - **fixed batches**: every item carries a batch number; a new session gets *all* items of the
//!   batch with the fewest sessions (completed ones, and unfinished ones started within
//!   [`ABANDONED_AFTER_MS`] that were not screened out; ties → the lowest batch number), in a
//!   seeded random order recorded as the session's item order ([`assign_batch`]);
//! - **one participation per rater**: a returning participant resumes their unfinished session
//!   and is refused once they finished, so nobody judges the same output twice
//!   ([`earlier_participation`]);
//! - **invitation-only** when the task has an invitation hash: a start must present the study
//!   link's secret (`invite`), compared by hash in constant time ([`invite_matches`]);
//! - **hidden**: judging tasks are not on the public quiz list and have no board, model inputs,
//!   templates, dev gold or prediction files (their gold names the submissions behind the
//!   outputs, which never leaves the server).
//!
//! The folder `judging/` holds the judging tasks' rater training ([`training`]).

use crate::error::{ApiError, ApiResult};
use crate::kinds::ServerKind;
use crate::storage::{ItemRecord, QuizRow, Storage, TaskRecord};
use memeboard_core::assign::option_order;
use memeboard_core::fieldwork::FieldworkSettings;
use memeboard_core::kinds::{ItemGold, ItemPrompt, Kind, TaskKind};
use memeboard_core::messages::Message;
use memeboard_core::msg;
use memeboard_core::predictions::Split;
use memeboard_core::tasks::CategoryInfo;
use memeboard_core::with_kind;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

pub mod training;

/// An unfinished session older than this (ms) no longer holds its batch: the batch goes to the
/// next rater as if nobody had it (the old session may still be finished; it then counts again).
pub const ABANDONED_AFTER_MS: i64 = 24 * 60 * 60 * 1000;

/// Longest item id of a judging task.
const MAX_ITEM_ID: usize = 128;

/// A judging task to create: what a study (or `memeboard study create-task --spec FILE`)
/// hands over. Items carry their batch; ids are random and opaque, never derived from
/// submission ids (an id is sent to raters).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JudgingTaskSpec {
    /// The benchmark the task belongs to (its id).
    pub benchmark_id: String,
    /// URL slug of the new task (its quiz).
    pub slug: String,
    /// Title shown to raters.
    pub title: String,
    /// Description shown to raters.
    pub description: String,
    /// `rating` or `ranking`.
    pub kind: TaskKind,
    /// Nominal items per batch; the stored batch size is the largest batch's item count (a
    /// batch may carry planted outputs on top).
    pub batch_size: usize,
    /// SHA-256 (64 lowercase hex digits, see [`invite_hash`]) of the invitation secret;
    /// `None`: anyone with the quiz link may take part.
    #[serde(default)]
    pub invite_hash: Option<String>,
    /// The study the task belongs to, if any.
    #[serde(default)]
    pub study_id: Option<String>,
    /// Labels of the items' categories (empty: the keys are the labels).
    #[serde(default)]
    pub categories: Vec<CategoryInfo>,
    /// The items.
    pub items: Vec<JudgingItem>,
    /// Rater training before the first page: rubric, practice pages of the task's kind with
    /// their expected answers, pass mark (see `core::human_eval::training`).
    #[serde(default)]
    pub training: Option<memeboard_core::human_eval::training::Training>,
}

/// One item of a judging task: one output to rate, or the candidates of one subject to rank.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JudgingItem {
    /// Random opaque id (never derived from submission ids).
    pub id: String,
    /// The source item's category (meme type, structure type).
    pub category: String,
    /// The source item's split.
    pub split: Split,
    /// Public part (a [`rating::Prompt`] or [`ranking::Prompt`]).
    pub prompt: ItemPrompt,
    /// Hidden part: which submission wrote what.
    pub gold: ItemGold,
    /// The fixed batch the item belongs to.
    pub batch: u32,
}

/// SHA-256 (lowercase hex) of an invitation secret: what [`JudgingTaskSpec::invite_hash`]
/// stores.
///
/// ```
/// let h = memeboard_server::judging::invite_hash("s3cret");
/// assert_eq!(h.len(), 64);
/// assert!(memeboard_server::judging::invite_matches(&h, Some("s3cret")));
/// assert!(!memeboard_server::judging::invite_matches(&h, Some("guess")));
/// assert!(!memeboard_server::judging::invite_matches(&h, None));
/// ```
pub fn invite_hash(secret: &str) -> String {
    use sha2::{Digest, Sha256};
    Sha256::digest(secret.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Refuses a start (or the check before consent) of an invitation-only quiz without the
/// study link's secret (403 `judging.invite_required`); quizzes open to anyone pass.
pub fn require_invite(quiz: &crate::storage::QuizRow, presented: Option<&str>) -> ApiResult<()> {
    match &quiz.invite_hash {
        Some(stored) if !invite_matches(stored, presented) => Err(ApiError::Forbidden(msg!(
            "judging.invite_required",
            slug = quiz.task.slug
        ))),
        _ => Ok(()),
    }
}

/// Whether a presented invitation secret matches the stored hash, comparing the hashes in
/// constant time (every byte is looked at whatever the first difference).
pub fn invite_matches(stored_hash: &str, presented: Option<&str>) -> bool {
    let Some(secret) = presented else {
        return false;
    };
    let (a, b) = (invite_hash(secret), stored_hash.to_ascii_lowercase());
    if a.len() != b.len() {
        return false;
    }
    a.bytes()
        .zip(b.bytes())
        .fold(0u8, |acc, (x, y)| acc | (x ^ y))
        == 0
}

/// A participant's earlier session of a judging task: `Some(session id)` of an unfinished one
/// to resume; `None` when they may judge a new batch (none yet, or fewer finished than the
/// owner's batches per rater); refused with 409 once they have finished as many as allowed,
/// or were screened out.
pub async fn earlier_participation(
    storage: &Storage,
    participant_id: &str,
    quiz: &QuizRow,
    fieldwork: &FieldworkSettings,
) -> ApiResult<Option<String>> {
    let earlier = storage
        .participations(participant_id, &quiz.task.id)
        .await?;
    if let Some(open) = earlier.iter().find(|s| !s.completed && !s.screened_out) {
        return Ok(Some(open.id.clone()));
    }
    let finished = earlier.iter().filter(|s| s.completed).count();
    let screened_out = earlier.iter().any(|s| s.screened_out);
    if screened_out || finished >= fieldwork.rater_batches() as usize {
        return Err(ApiError::Conflict(msg!(
            "judging.already_judged",
            participant = participant_id,
            slug = quiz.task.slug
        )));
    }
    Ok(None)
}

/// The whole batch with the fewest sessions (ties: the lowest batch number), without the
/// owner's excluded items, in the order of the session seed. A returning rater
/// (`participant`) never gets a batch they hold already (409 `judging.already_judged` when
/// they hold every one).
pub async fn assign_batch(
    storage: &Storage,
    quiz: &QuizRow,
    fieldwork: &FieldworkSettings,
    participant: Option<&str>,
    seed: u64,
) -> ApiResult<Vec<String>> {
    let since = crate::storage::now_ms() - ABANDONED_AFTER_MS;
    let batches = storage.judging_batches(&quiz.task.id, since).await?;
    let held = match participant {
        Some(id) => storage.participant_batches(id, &quiz.task.id).await?,
        None => Vec::new(),
    };
    let open: Vec<_> = batches
        .into_iter()
        .map(|mut b| {
            b.items.retain(|i| !fieldwork.excluded_items.contains(i));
            b
        })
        .filter(|b| !b.items.is_empty())
        .collect();
    if open.is_empty() {
        return Err(ApiError::Conflict(msg!(
            "quiz.no_items",
            slug = quiz.task.slug
        )));
    }
    let chosen = open
        .into_iter()
        .filter(|b| !held.contains(&b.batch))
        .min_by_key(|b| (b.sessions, b.batch))
        // They judged every batch already (more batches per rater than batches).
        .ok_or_else(|| {
            ApiError::Conflict(msg!(
                "judging.already_judged",
                participant = participant.unwrap_or_default(),
                slug = quiz.task.slug
            ))
        })?;
    let order = option_order(seed, &format!("batch-{}", chosen.batch), chosen.items.len());
    Ok(order.into_iter().map(|i| chosen.items[i].clone()).collect())
}

/// Every problem of a spec, in item order (nothing is stored when there is one).
fn problems(spec: &JudgingTaskSpec) -> Vec<Message> {
    let mut out = Vec::new();
    if !spec.kind.is_judging() {
        out.push(msg!("judging.kind", found = spec.kind.as_str()));
    }
    let slug_ok = (1..=64).contains(&spec.slug.len())
        && spec
            .slug
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
    if !slug_ok {
        out.push(msg!("judging.slug", found = spec.slug));
    }
    if spec.title.trim().is_empty() {
        out.push(msg!("field.required_chars", field = "title", max = 200));
    }
    if spec.batch_size == 0 {
        out.push(msg!("judging.batch_size"));
    }
    if let Some(h) = &spec.invite_hash {
        if h.len() != 64 || !h.chars().all(|c| c.is_ascii_hexdigit()) {
            out.push(msg!("judging.invite_hash"));
        }
    }
    if spec.items.is_empty() {
        out.push(msg!("judging.empty"));
    }
    if let Some(training) = &spec.training {
        out.extend(training::training_problems(spec.kind, training));
    }
    let mut seen = BTreeSet::new();
    for it in &spec.items {
        let item = it.id.as_str();
        // `practice-N` names a practice page in the answers endpoint.
        let id_ok = !item.is_empty()
            && !item.starts_with(memeboard_core::human_eval::training::PRACTICE_PREFIX)
            && item.len() <= MAX_ITEM_ID
            && !item.chars().any(|c| c.is_whitespace() || c.is_control());
        if !id_ok || !seen.insert(item) {
            out.push(msg!("judging.item_id", item = item, max = MAX_ITEM_ID));
        }
        for (what, found) in [("prompt", it.prompt.kind()), ("gold", it.gold.kind())] {
            if found != spec.kind {
                out.push(msg!(
                    "judging.item_kind",
                    item = item,
                    what = what,
                    found = found.as_str(),
                    expected = spec.kind.as_str()
                ));
            }
        }
        if let Some(b) = it.gold.judged_batch().filter(|&b| b != it.batch) {
            out.push(msg!(
                "judging.item_batch",
                item = item,
                batch = it.batch,
                gold = b
            ));
        }
        out.extend(kind_problems(spec.kind, item, &it.prompt, &it.gold));
    }
    out
}

/// The judging kind's own problems of one page (none when the page is of another kind: that
/// is reported by the shared checks).
fn kind_problems(kind: TaskKind, item: &str, prompt: &ItemPrompt, gold: &ItemGold) -> Vec<Message> {
    with_kind!(kind, K => {
        match (K::JUDGED, K::prompt_of(prompt.clone()), K::gold_of(gold.clone())) {
            (Some(judged), Ok(prompt), Ok(gold)) => judged.item_problems(item, &prompt, &gold),
            _ => Vec::new(),
        }
    })
}

/// Creates a judging task with its batched items in one transaction, open at once
/// (`quiz_open`) but not listed publicly, retakes off. Every problem of the spec is reported
/// at once (422) and nothing is stored; a taken slug is a 409. Returns the new task's id.
pub async fn create_judging_task(storage: &Storage, spec: &JudgingTaskSpec) -> ApiResult<String> {
    let (task, items) = prepare_judging_task(storage, spec).await?;
    let task_id = task.id.clone();
    let created = storage
        .insert_judging_task(
            &task,
            spec.invite_hash
                .as_deref()
                .map(str::to_ascii_lowercase)
                .as_deref(),
            spec.study_id.as_deref(),
            &items,
            spec.training
                .as_ref()
                .map(|t| encode("training", t))
                .transpose()?
                .as_deref(),
        )
        .await?;
    if !created {
        return Err(ApiError::Conflict(msg!(
            "judging.slug_taken",
            slug = spec.slug
        )));
    }
    Ok(task_id)
}

/// A judging task's rows ready to insert: every problem of the spec is reported at once (422);
/// the benchmark must exist (404). [`create_judging_task`] inserts them alone; a study inserts
/// several with its own row in one transaction.
pub async fn prepare_judging_task(
    storage: &Storage,
    spec: &JudgingTaskSpec,
) -> ApiResult<(TaskRecord, Vec<(ItemRecord, i64)>)> {
    let problems = problems(spec);
    if !problems.is_empty() {
        return Err(ApiError::Invalid(problems));
    }
    if !storage.benchmark_exists(&spec.benchmark_id).await? {
        return Err(ApiError::NotFound(msg!(
            "judging.benchmark",
            id = spec.benchmark_id
        )));
    }
    // Categories in first-seen order, labelled from the spec where it has labels.
    let labels: BTreeMap<&str, &CategoryInfo> = spec
        .categories
        .iter()
        .map(|c| (c.key.as_str(), c))
        .collect();
    let mut categories: Vec<CategoryInfo> = Vec::new();
    for it in &spec.items {
        if !categories.iter().any(|c| c.key == it.category) {
            categories.push(match labels.get(it.category.as_str()) {
                Some(c) => (*c).clone(),
                None => CategoryInfo {
                    key: it.category.clone(),
                    label_en: it.category.clone(),
                    label_zh: it.category.clone(),
                },
            });
        }
    }
    let mut per_batch: BTreeMap<u32, usize> = BTreeMap::new();
    for it in &spec.items {
        *per_batch.entry(it.batch).or_default() += 1;
    }
    let largest = per_batch.values().copied().max().unwrap_or(0);
    let mut bytes = [0u8; 8];
    getrandom::fill(&mut bytes)
        .map_err(|e| ApiError::Unexpected(anyhow::anyhow!("OS randomness unavailable: {e}")))?;
    let task_id = format!(
        "judging-{}",
        bytes.iter().map(|b| format!("{b:02x}")).collect::<String>()
    );
    let task = TaskRecord {
        id: task_id.clone(),
        benchmark_id: spec.benchmark_id.clone(),
        slug: spec.slug.clone(),
        kind: spec.kind.as_str().to_owned(),
        title: spec.title.trim().to_owned(),
        description: spec.description.clone(),
        categories_json: encode("categories", &categories)?,
        batch_size: i64::try_from(largest).unwrap_or(i64::MAX),
        quiz_open: true,
    };
    let mut items = Vec::with_capacity(spec.items.len());
    for (ordinal, it) in spec.items.iter().enumerate() {
        let record = ItemRecord {
            id: it.id.clone(),
            task_id: task_id.clone(),
            ordinal: i64::try_from(ordinal).unwrap_or(i64::MAX),
            category: it.category.clone(),
            prompt_json: encode("prompt", &it.prompt)?,
            gold_json: encode("gold", &it.gold)?,
            flagged: false,
            meme_id: None,
            source_id: it.id.clone(),
            split: match it.split {
                Split::Dev => "dev",
                Split::Test => "test",
            }
            .to_owned(),
            board_half: "public".to_owned(),
        };
        items.push((record, i64::from(it.batch)));
    }
    Ok((task, items))
}

/// JSON text of a value about to be stored.
fn encode<T: Serialize>(what: &str, value: &T) -> ApiResult<String> {
    serde_json::to_string(value)
        .map_err(|e| ApiError::Unexpected(anyhow::anyhow!("encode {what}: {e}")))
}
