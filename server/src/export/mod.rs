//! Raw data for a task's owner: the answer-level export (CSV and JSON Lines, streamed from the
//! database page by page) with its data dictionary, pseudonyms, the exclusion flag, deleting
//! a participant's data on request, and (in [`stats`]) recomputing the site's human rows
//! from an export alone (`memeboard stats --export`).
//!
//! Documented for readers in `docs/data-export.md`.

pub mod cells;
mod delete;
mod dictionary;
pub mod stats;

pub use cells::ExportTime;
pub use delete::{delete_participant, delete_participant_request};
pub use dictionary::{dictionary, dictionary_for, ColumnType, COLUMNS};

pub use crate::pseudonym::{crowd_order, pseudonym};

use crate::error::{ApiError, ApiResult};
use crate::files::{csv_field, csv_text};
use crate::kinds::capabilities::{in_subset, subset_names};
use crate::kinds::{self, ServerKind};
use crate::state::AppState;
use crate::storage::{BoardTaskRow, ExportAnswerRow, ExportCursor, Storage};
use axum::body::{Body, Bytes};
use axum::http::HeaderMap;
use memeboard_core::fieldwork::{ExclusionCode, ExclusionReason};
use memeboard_core::kinds::{AnswerValue, Scoring, TaskKind};
use memeboard_core::predictions::{FileFormat, Split};
use memeboard_core::{msg, with_kind};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

/// Answers read from the database per page of the export.
const PAGE: i64 = 500;

/// Who may read a task's raw data and delete from it: the admin token or an owner token of
/// the task's benchmark ([`crate::owners::authorize`]); every export and deletion is logged
/// on the owner's console.
async fn authorize(
    state: &AppState,
    headers: &HeaderMap,
    task_slug: &str,
) -> ApiResult<crate::owners::Actor> {
    crate::owners::authorize(state, headers, task_slug).await
}

/// Every excluded session of a task with its reason, by session id: the owner's quality rules
/// and the board's headphone switch, decided by [`crate::crowd::quality::exclusion`] exactly as the
/// human rows decide it, so `memeboard stats --export` drops exactly the rows flagged here.
async fn exclusions(
    storage: &Storage,
    task: &BoardTaskRow,
) -> ApiResult<BTreeMap<String, ExclusionReason>> {
    let Some((study_json, exclude_failed_checks)) =
        storage.task_quality_switches(&task.task.id).await?
    else {
        return Ok(BTreeMap::new());
    };
    let fieldwork = crate::crowd::quality::fieldwork_settings(study_json.as_deref())?;
    let data = storage.fieldwork_data(&task.task.id).await?;
    Ok(crate::crowd::quality::exclusions_of(
        &data,
        &fieldwork,
        exclude_failed_checks,
    ))
}

/// One row of the export (a JSON Lines object; a CSV row in [`COLUMNS`] order). Read back by
/// [`stats`] from either format.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(missing_docs)]
pub struct ExportRecord {
    pub task: String,
    pub task_kind: String,
    pub participant: String,
    pub session: String,
    pub prolific_pid: Option<String>,
    pub study_id: Option<String>,
    pub recruitment_session_id: Option<String>,
    pub session_started_at: ExportTime,
    pub session_completed_at: Option<ExportTime>,
    pub position: i64,
    pub item_id: String,
    pub category: String,
    pub split: String,
    pub board_half: Option<String>,
    pub subsets: Vec<String>,
    pub facets: BTreeMap<String, String>,
    pub familiarity: Option<String>,
    pub num_options: Option<i64>,
    pub option_order: Vec<usize>,
    pub answer_position: Option<i64>,
    pub answer_text: Option<String>,
    pub answer_canonical: Value,
    pub choice: Option<i64>,
    pub correct: Option<i64>,
    pub score: Option<f64>,
    pub score_details: Option<Value>,
    pub response_ms: i64,
    pub plays: Option<i64>,
    pub answered_at: ExportTime,
    pub survey_age_range: Option<String>,
    pub survey_native_language: Option<String>,
    pub survey_online_time: Option<String>,
    pub survey_meme_familiarity: Option<i64>,
    pub survey_skip_flagged: Option<i64>,
    pub headphone_trials: Option<i64>,
    pub headphone_correct: Option<i64>,
    pub headphone_passed: Option<i64>,
    pub excluded: i64,
    pub exclusion_reason: Option<String>,
    pub exclusion_detail: Option<String>,
    pub pilot: i64,
}

/// Scores a stored answer against the item's gold: `Some(right)` for kinds with right and
/// wrong answers.
type Correctness = Arc<dyn Fn(&AnswerValue) -> Option<bool> + Send + Sync>;

/// What the export needs to know of one item (decoded once per export).
struct ItemFacts {
    category: String,
    split: Split,
    board_half: &'static str,
    subsets: Vec<String>,
    facets: BTreeMap<String, String>,
    num_options: Option<i64>,
    /// Option texts in canonical order (choice kinds whose view lists options).
    options: Vec<String>,
    /// 1/0 correctness of a stored answer, for kinds with right and wrong answers.
    correct: Correctness,
}

/// Everything fixed for one export.
struct ExportContext {
    slug: String,
    kind: TaskKind,
    benchmark_id: String,
    exclusions: BTreeMap<String, ExclusionReason>,
    items: HashMap<String, ItemFacts>,
}

fn item_facts<K: ServerKind>(item: kinds::TypedItem<K>) -> ItemFacts
where
    K::Gold: Send + Sync + 'static,
{
    let subsets = match subset_names::<K>() {
        [] => vec!["full".to_owned()],
        names => names
            .iter()
            .filter(|s| in_subset(&item, s))
            .map(|s| (*s).to_owned())
            .collect(),
    };
    let presented = K::present(&item.prompt, 0, &item.row.id);
    let shown: Vec<String> = serde_json::to_value(&presented.view)
        .ok()
        .and_then(|v| serde_json::from_value(v["options"].clone()).ok())
        .unwrap_or_default();
    let mut options = vec![String::new(); presented.order.len()];
    if shown.len() == presented.order.len() {
        for (text, &c) in shown.into_iter().zip(&presented.order) {
            if let Some(slot) = options.get_mut(c) {
                *slot = text;
            }
        }
    } else {
        options.clear();
    }
    let gold = item.gold.clone();
    ItemFacts {
        category: item.row.category.clone(),
        split: item.row.split,
        board_half: item.row.board_half.as_str(),
        subsets,
        facets: K::export_facets(&item).into_iter().collect(),
        num_options: K::num_choices(&item.prompt).and_then(|n| i64::try_from(n).ok()),
        options,
        correct: Arc::new(move |a: &AnswerValue| {
            let answer = K::answer_of(a.clone()).ok()?;
            match K::score(&gold, &answer) {
                Scoring::Scored(o) => K::correct(&o),
                Scoring::Pending | Scoring::Unscored => None,
            }
        }),
    }
}

async fn find_task(storage: &Storage, slug: &str) -> ApiResult<BoardTaskRow> {
    storage
        .find_board_task(slug)
        .await?
        .ok_or_else(|| ApiError::NotFound(msg!("task.not_found", slug = slug)))
}

async fn context(storage: &Storage, task: &BoardTaskRow) -> ApiResult<ExportContext> {
    let kind = task.task.task_kind()?;
    let items: HashMap<String, ItemFacts> = with_kind!(kind, K => {
        kinds::typed_items::<K>(storage, task)
            .await?
            .into_iter()
            .map(|i| (i.row.id.clone(), item_facts::<K>(i)))
            .collect()
    });
    Ok(ExportContext {
        slug: task.task.slug.clone(),
        kind,
        benchmark_id: task.task.benchmark_id.clone(),
        exclusions: exclusions(storage, task).await?,
        items,
    })
}

fn flag(b: bool) -> i64 {
    i64::from(b)
}

/// The answer as text: the chosen option, or the answer's one field (explanation text,
/// structure label, panel order), or its fields as `key=value` pairs ([`cells::pairs_cell`]).
fn answer_text(answer: &Value, choice: Option<i64>, facts: Option<&ItemFacts>) -> Option<String> {
    if let (Some(c), Some(f)) = (choice, facts) {
        if let Some(text) = usize::try_from(c).ok().and_then(|c| f.options.get(c)) {
            return Some(text.clone());
        }
    }
    let mut fields = answer.as_object()?.clone();
    fields.remove("kind");
    fields.remove("plays");
    if fields.len() != 1 {
        return Some(cells::pairs_cell(&Value::Object(fields)));
    }
    let (_, v) = fields.into_iter().next()?;
    Some(match v {
        Value::String(s) => s,
        Value::Array(a) => a
            .iter()
            .map(|x| x.as_str().map_or_else(|| x.to_string(), str::to_owned))
            .collect::<Vec<_>>()
            .join(","),
        v @ Value::Object(_) => cells::pairs_cell(&v),
        other => other.to_string(),
    })
}

fn record(ctx: &ExportContext, row: ExportAnswerRow) -> ApiResult<ExportRecord> {
    let facts = ctx.items.get(&row.item_id);
    let answer: Value = crate::storage::decode_json("answers.answer_json", &row.answer_json)?;
    let order: Vec<usize> =
        crate::storage::decode_json("answers.option_order_json", &row.option_order_json)?;
    let survey: Value = crate::storage::decode_json("sessions.survey_json", &row.survey_json)?;
    let headphone: Option<Value> = row
        .headphone_json
        .as_deref()
        .map(|j| crate::storage::decode_json("sessions.headphone_json", j))
        .transpose()?;
    let correct = facts.and_then(|f| {
        serde_json::from_value::<AnswerValue>(answer.clone())
            .ok()
            .and_then(|a| (f.correct)(&a))
    });
    let answer_position = row.choice.and_then(|c| {
        order
            .iter()
            .position(|&o| i64::try_from(o) == Ok(c))
            .map(|p| p as i64 + 1)
    });
    let excluded = ctx.exclusions.get(&row.session_id);
    let text = |v: &Value| v.as_str().map(str::to_owned);
    let hp = |k: &str| headphone.as_ref().and_then(|h| h[k].as_i64());
    Ok(ExportRecord {
        task: ctx.slug.clone(),
        task_kind: ctx.kind.as_str().to_owned(),
        participant: pseudonym(&ctx.benchmark_id, "participant", &row.participant_id),
        session: pseudonym(&ctx.benchmark_id, "session", &row.session_id),
        prolific_pid: row.prolific_pid,
        study_id: row.study_id,
        recruitment_session_id: row.recruitment_session_id,
        session_started_at: ExportTime(row.session_created_at),
        session_completed_at: row.session_completed_at.map(ExportTime),
        position: row.position,
        category: facts.map_or_else(String::new, |f| f.category.clone()),
        split: match facts.map(|f| f.split) {
            Some(Split::Dev) => "dev".into(),
            _ => "test".into(),
        },
        board_half: facts
            .filter(|f| f.split == Split::Test)
            .map(|f| f.board_half.to_owned()),
        subsets: facts.map_or_else(Vec::new, |f| f.subsets.clone()),
        facets: facts.map_or_else(BTreeMap::new, |f| f.facets.clone()),
        familiarity: row.familiarity,
        num_options: facts.and_then(|f| f.num_options),
        option_order: order,
        answer_position,
        answer_text: answer_text(&answer, row.choice, facts),
        plays: answer["plays"].as_i64(),
        answer_canonical: answer,
        choice: row.choice,
        correct: correct.map(flag),
        score: row.score,
        score_details: row
            .scores_json
            .as_deref()
            .map(|j| crate::storage::decode_json("answers.scores_json", j))
            .transpose()?,
        response_ms: row.response_ms,
        answered_at: ExportTime(row.answered_at),
        survey_age_range: text(&survey["age_range"]),
        survey_native_language: text(&survey["native_language"]),
        survey_online_time: text(&survey["online_time"]),
        survey_meme_familiarity: survey["meme_familiarity"].as_i64(),
        survey_skip_flagged: survey["skip_flagged"].as_bool().map(flag),
        headphone_trials: hp("trials"),
        headphone_correct: hp("correct"),
        headphone_passed: headphone
            .as_ref()
            .and_then(|h| h["passed"].as_bool())
            .map(flag),
        excluded: flag(excluded.is_some()),
        exclusion_reason: excluded.map(|r| r.code.as_str().to_owned()),
        exclusion_detail: excluded.map(|r| r.en.clone()),
        // A pilot session's exclusion is always `pilot` (the first rule, see `exclusion`).
        pilot: flag(excluded.is_some_and(|r| r.code == ExclusionCode::Pilot)),
        item_id: row.item_id,
    })
}

/// The CSV header row (with a line break).
pub fn csv_header() -> String {
    let mut out = COLUMNS
        .iter()
        .map(|(name, _, _)| csv_field(name))
        .collect::<Vec<_>>()
        .join(",");
    out.push_str("\r\n");
    out
}

/// One record as a CSV row in [`COLUMNS`] order (with a line break).
pub fn csv_row(record: &ExportRecord) -> ApiResult<String> {
    let value = serde_json::to_value(record).map_err(|e| ApiError::Unexpected(e.into()))?;
    let mut fields = Vec::with_capacity(COLUMNS.len());
    for (name, t, _) in COLUMNS {
        // Lists and objects as plain text (never JSON in a cell), times as ISO text.
        fields.push(match (&value[*name], t) {
            (Value::Null, _) => String::new(),
            (Value::Array(items), _) => csv_text(&cells::list_cell(items)),
            (v, ColumnType::Pairs) | (v @ Value::Object(_), _) => csv_text(&cells::pairs_cell(v)),
            (Value::String(s), _) => csv_text(s),
            (v, _) => csv_field(&v.to_string()),
        });
    }
    let mut out = fields.join(",");
    out.push_str("\r\n");
    Ok(out)
}

/// The export of a task as a streamed body: pages of [`PAGE`] answers are read and written
/// one after the other, so memory stays flat however large the crowd. CSV starts with a
/// UTF-8 byte-order mark (spreadsheets then read the file as UTF-8) and the header row.
pub async fn export_body(
    state: &AppState,
    headers: &HeaderMap,
    slug: &str,
    format: FileFormat,
) -> ApiResult<Body> {
    let actor = authorize(state, headers, slug).await?;
    let format_name = match format {
        FileFormat::Csv => "csv",
        FileFormat::JsonLines => "jsonl",
    };
    crate::owners::log_action(
        &state.storage,
        &actor,
        "export",
        &serde_json::json!({ "format": format_name }),
    )
    .await?;
    let task = find_task(&state.storage, slug).await?;
    let ctx = Arc::new(context(&state.storage, &task).await?);
    let storage = state.storage.clone();
    let task_id = task.task.id.clone();
    let preamble = match format {
        FileFormat::Csv => format!("\u{feff}{}", csv_header()),
        FileFormat::JsonLines => String::new(),
    };
    // State: (cursor, finished); the first chunk is the preamble.
    let pages = futures_util::stream::unfold(
        (Some(None::<ExportCursor>), preamble),
        move |(cursor, preamble)| {
            let (storage, ctx, task_id) = (storage.clone(), ctx.clone(), task_id.clone());
            async move {
                let after = cursor?;
                if !preamble.is_empty() {
                    return Some((Ok(Bytes::from(preamble)), (Some(after), String::new())));
                }
                match page(&storage, &ctx, &task_id, after.as_ref(), format).await {
                    Ok((text, next)) => {
                        let state = (next, String::new());
                        Some((Ok(Bytes::from(text)), state))
                    }
                    Err(e) => {
                        tracing::error!(error = %e, "export stopped");
                        Some((
                            Err(std::io::Error::other(
                                "the export stopped on a server error",
                            )),
                            (None, String::new()),
                        ))
                    }
                }
            }
        },
    );
    Ok(Body::from_stream(pages))
}

/// One page of the export as text, and where the next one starts (`None`: done).
async fn page(
    storage: &Storage,
    ctx: &ExportContext,
    task_id: &str,
    after: Option<&ExportCursor>,
    format: FileFormat,
) -> ApiResult<(String, Option<Option<ExportCursor>>)> {
    let rows = storage.export_page(task_id, after, PAGE).await?;
    let next = rows
        .last()
        .map(|r| (r.session_created_at, r.session_id.clone(), r.position));
    let full = rows.len() as i64 == PAGE;
    let mut out = String::new();
    for row in rows {
        let record = record(ctx, row)?;
        match format {
            FileFormat::Csv => out.push_str(&csv_row(&record)?),
            FileFormat::JsonLines => {
                out.push_str(
                    &serde_json::to_string(&record).map_err(|e| ApiError::Unexpected(e.into()))?,
                );
                out.push('\n');
            }
        }
    }
    Ok((out, full.then_some(next)))
}
