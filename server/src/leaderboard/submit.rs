//! Uploads: query metadata, format detection, validate → score (the kind's `ServerKind`) →
//! per-half summaries → one counted, quota-checked insert. A rejected file stores nothing.

use super::summaries::half_summaries;
use super::*;
use crate::config::Settings;
use crate::error::{ApiError, ApiResult};
use crate::explain::inference::EmbeddingService;
use crate::ids::random_hex;
use crate::kinds::capabilities::{self, subset_names};
use crate::kinds::{self, FilesOf, PredictionFiles, ScoredFile, ServerKind};
use crate::storage::{
    self, AuthorRecord, BoardTaskRow, ScopeLimit, Storage, StoredFile, SubmissionRecord,
    TaskItemRow,
};
use anyhow::Context;
use axum::http::HeaderMap;
use memeboard_core::api::{
    ErrorDetail, ModelInfo, SubmissionStatus, SubmitPredictionsResponse, Weights,
};
use memeboard_core::conditions::{parse_conditions, resolve, Conditions};
use memeboard_core::kinds::TaskKind;
use memeboard_core::leaderboard::{CategoryEstimate, ItemScore};
use memeboard_core::messages::Message;
use memeboard_core::predictions::{file_header, FileFormat, Limits};
use memeboard_core::{msg, with_kind};
use serde::Deserialize;
use std::collections::BTreeMap;

/// Query parameters of an upload (the body is the file itself).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SubmitQuery {
    /// Model name.
    pub model: String,
    /// Organisation (defaults to the author's).
    pub organisation: Option<String>,
    /// Size.
    pub parameters: Option<String>,
    /// `open` or `closed`.
    pub weights: Option<String>,
    /// Paper/code URL.
    pub link: Option<String>,
    /// Free text.
    pub description: Option<String>,
    /// `jsonl` or `csv` (else from the content type or file name).
    pub format: Option<String>,
    /// Original file name (format guess).
    pub filename: Option<String>,
    /// Run conditions, `name=value` pairs separated by commas (e.g. `shot=one_shot`); a
    /// condition not named takes its default.
    pub conditions: Option<String>,
}

/// The upload's run conditions, `stated` in its query and, if its file has a header, in
/// `header` (a condition both name must have one value), checked against the task's
/// (`kind`'s), defaults filled in: a malformed list is a 400, unknown names and values and a
/// conflict a 422 naming what is allowed.
fn run_conditions(
    stated: Option<&str>,
    header: Option<&BTreeMap<String, String>>,
    kind: TaskKind,
) -> ApiResult<Conditions> {
    let mut given = parse_conditions(stated.unwrap_or("")).map_err(ApiError::BadRequest)?;
    for (name, value) in header.into_iter().flatten() {
        match given.get(name) {
            Some(query) if query != value => {
                return Err(ApiError::Invalid(vec![msg!(
                    "condition.conflict",
                    name = name,
                    header = value,
                    query = query
                )]))
            }
            _ => {
                given.insert(name.clone(), value.clone());
            }
        }
    }
    resolve(&kind.conditions(), &given).map_err(ApiError::Invalid)
}

pub(super) fn model_info(
    q: &SubmitQuery,
    author: &AuthorRecord,
    kind: TaskKind,
) -> ApiResult<ModelInfo> {
    let weights = match q.weights.as_deref().map(str::trim) {
        None | Some("") | Some("closed") => Weights::Closed,
        Some("open") => Weights::Open,
        Some(other) => return Err(ApiError::BadRequest(msg!("upload.weights", found = other))),
    };
    let link = match q.link.as_deref().map(str::trim).filter(|l| !l.is_empty()) {
        None => None,
        Some(l)
            if (l.starts_with("https://") || l.starts_with("http://"))
                && l.len() <= 300
                && !l.contains(char::is_whitespace) =>
        {
            Some(l.to_owned())
        }
        Some(l) => {
            return Err(ApiError::BadRequest(msg!(
                "upload.link",
                found = l.chars().take(60).collect::<String>()
            )))
        }
    };
    let organisation = match &q.organisation {
        Some(o) => clean_text("organisation", o, 100, false)?,
        None => author.organisation.clone(),
    };
    Ok(ModelInfo {
        model_name: clean_text("model", &q.model, 100, true)?,
        organisation,
        parameters: Some(clean_text(
            "parameters",
            q.parameters.as_deref().unwrap_or(""),
            40,
            false,
        )?)
        .filter(|p| !p.is_empty()),
        weights,
        link,
        description: clean_text(
            "description",
            q.description.as_deref().unwrap_or(""),
            2000,
            false,
        )?,
        conditions: run_conditions(q.conditions.as_deref(), None, kind)?,
    })
}

/// The format the uploader declared: `format=`, a `text/csv` content type, or a `.csv` /
/// `.jsonl` file name; `None` when nothing says (the content decides, see `submit`).
pub(super) fn declared_format(
    q: &SubmitQuery,
    headers: &HeaderMap,
) -> ApiResult<Option<FileFormat>> {
    match q.format.as_deref() {
        Some("jsonl") | Some("json_lines") => return Ok(Some(FileFormat::JsonLines)),
        Some("csv") => return Ok(Some(FileFormat::Csv)),
        Some(other) => return Err(ApiError::BadRequest(msg!("upload.format", found = other))),
        None => {}
    }
    let content_type = headers
        .get(axum::http::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    if content_type.starts_with("text/csv") {
        return Ok(Some(FileFormat::Csv));
    }
    Ok(q.filename.as_deref().map(FileFormat::from_file_name))
}

/// An upload that may be read: its author authenticated, its task found, its metadata valid
/// and quota left. Checked *before* the body is read, so an unauthenticated or over-quota
/// request never makes the server buffer a large file.
pub struct AdmittedUpload {
    author: AuthorRecord,
    task: BoardTaskRow,
    info: ModelInfo,
    format: Option<FileFormat>,
    scopes: Vec<UploadScope>,
    slug: String,
    /// The conditions the upload's query states (a file header may add to them).
    stated_conditions: Option<String>,
    /// A fixed submission id (trusted in-process uploads: a second attempt with the same id
    /// stores nothing), else a random one.
    fixed_id: Option<String>,
}

/// Everything about an upload that can be checked from its headers and query alone.
pub async fn admit_upload(
    storage: &Storage,
    settings: &Settings,
    headers: &HeaderMap,
    slug: &str,
    query: &SubmitQuery,
) -> ApiResult<AdmittedUpload> {
    let author = authenticate(storage, headers).await?;
    let task = find_task(storage, slug).await?;
    let info = model_info(query, &author, task.task.task_kind()?)?;
    let format = declared_format(query, headers)?;
    // A cheap early refusal before reading and scoring the file; the authoritative count is
    // taken in the transaction that stores the submission (see `submit`).
    let scopes = upload_scopes(
        settings,
        &author,
        Some((task.task.id.as_str(), info.model_name.as_str())),
    );
    for (scope, used) in scopes.iter().zip(scope_usage(storage, &scopes).await?) {
        if used >= scope.limit.limit {
            return Err(quota_refusal(scope, used));
        }
    }
    Ok(AdmittedUpload {
        author,
        task,
        info,
        format,
        scopes,
        slug: slug.to_owned(),
        stated_conditions: query.conditions.clone(),
        fixed_id: None,
    })
}

/// An upload by an in-process author (the demo models): no token
/// and no quota counted, a fixed submission id; then validated, scored and stored by
/// [`submit`] exactly like any other upload.
pub async fn admit_trusted_upload(
    storage: &Storage,
    author: AuthorRecord,
    slug: &str,
    query: &SubmitQuery,
    submission_id: String,
) -> ApiResult<AdmittedUpload> {
    let task = find_task(storage, slug).await?;
    let info = model_info(query, &author, task.task.task_kind()?)?;
    Ok(AdmittedUpload {
        author,
        task,
        info,
        format: Some(FileFormat::JsonLines),
        scopes: Vec::new(),
        slug: slug.to_owned(),
        stated_conditions: query.conditions.clone(),
        fixed_id: Some(submission_id),
    })
}

/// Validates, scores and stores an admitted upload's file in one request. A rejected file
/// stores nothing and uses no quota.
pub async fn submit(
    storage: &Storage,
    settings: &Settings,
    embeddings: &EmbeddingService,
    upload: AdmittedUpload,
    body: &[u8],
) -> ApiResult<SubmitPredictionsResponse> {
    let AdmittedUpload {
        author,
        task,
        mut info,
        format,
        scopes,
        slug,
        stated_conditions,
        fixed_id,
    } = upload;
    let slug = slug.as_str();
    let limits = Limits {
        max_bytes: settings.leaderboard.max_upload_bytes,
        max_rows: settings.leaderboard.max_rows,
    };
    let text = upload_text(body, limits)?;
    let (format, format_note) = read_format(format, text);
    // Conditions written into the file join the upload's; the header line is left blank.
    let header = file_header(text, format).map_err(ApiError::BadRequest)?;
    let text = match &header {
        Some(h) => {
            info.conditions = run_conditions(
                stated_conditions.as_deref(),
                Some(&h.conditions),
                task.task.task_kind()?,
            )?;
            h.rest.as_str()
        }
        None => text,
    };
    let (scored, public, private, auto_scored) = with_kind!(task.task.task_kind()?, K => {
        score_as::<K>(storage, settings, embeddings, &task, text, format, limits).await?
    });
    let ScoredFile {
        scores,
        extra,
        num_lines,
        num_missing,
        orders_json: orders,
        warnings,
        outputs,
    } = scored;
    let record = SubmissionRecord {
        id: match fixed_id {
            Some(id) => id,
            None => format!("S-{}", random_hex(8)?.to_uppercase()),
        },
        task_id: task.task.id.clone(),
        author_id: author.id.clone(),
        model_name: info.model_name.clone(),
        organisation: info.organisation.clone(),
        parameters: info.parameters.clone(),
        weights: match info.weights {
            Weights::Open => "open",
            Weights::Closed => "closed",
        }
        .into(),
        link: info.link.clone(),
        description: info.description.clone(),
        file_format: format.key().into(),
        num_lines: num_lines as i64,
        num_missing: num_missing as i64,
        orders_json: orders,
        item_scores_json: serde_json::to_string(&scores).context("encode scores")?,
        public_summary_json: serde_json::to_string(&public).context("encode summary")?,
        private_summary_json: serde_json::to_string(&private).context("encode summary")?,
        extra_json: extra.map(|e| e.to_string()),
        conditions_json: if info.conditions.is_empty() {
            None
        } else {
            Some(serde_json::to_string(&info.conditions).context("encode conditions")?)
        },
        created_at: storage::now_ms(),
        withdrawn_at: None,
    };
    // Counted and stored in one transaction: concurrent uploads cannot exceed any limit, and
    // a refused upload stores nothing and uses no quota.
    let limits: Vec<ScopeLimit> = scopes.iter().map(|s| s.limit.clone()).collect();
    // The file as scored, kept so that a corrected gold can score it again (`rescore`).
    let file = StoredFile {
        body: text.to_owned(),
    };
    if let Err(exceeded) = storage
        .insert_submission_within(
            &record,
            &file,
            &outputs,
            &limits,
            utc_day(record.created_at),
        )
        .await?
    {
        return Err(quota_refusal(&scopes[exceeded.index], exceeded.used));
    }
    tracing::info!(submission = %record.id, task = slug, lines = num_lines, "scored upload");
    let visible = board_visible(&task);
    // Rounded to what the half supports, and the Ladder's answer: the author's previous best
    // unless this upload beats it by the margin (see `ladder`).
    let public_scores = if visible && auto_scored {
        let shown = super::ladder::shown_submissions(storage, &settings.leaderboard, &task).await?;
        Some(super::ladder::public_scores_of(
            &shown,
            &record,
            &settings.leaderboard,
        )?)
    } else {
        None
    };
    let notes: Vec<Message> = format_note.into_iter().chain(warnings).collect();
    Ok(SubmitPredictionsResponse {
        submission_id: record.id,
        task: slug.to_owned(),
        status: if !auto_scored {
            SubmissionStatus::Unscored
        } else if visible {
            SubmissionStatus::Scored
        } else {
            SubmissionStatus::Received
        },
        lines: num_lines,
        warnings: notes.iter().map(ToString::to_string).collect(),
        notes: notes.iter().map(ErrorDetail::of).collect(),
        public_scores,
        quota: quota_of(storage, &scopes).await?,
        conditions: info.conditions,
    })
}

/// The upload's text: refused when over the size limit or not UTF-8 (naming the line of the
/// first bad byte).
fn upload_text(body: &[u8], limits: Limits) -> ApiResult<&str> {
    if body.len() > limits.max_bytes {
        return Err(ApiError::PayloadTooLarge(msg!(
            "file.too_large",
            size = body.len(),
            limit = limits.max_bytes
        )));
    }
    std::str::from_utf8(body).map_err(|e| {
        let line = body[..e.valid_up_to()]
            .iter()
            .filter(|&&b| b == b'\n')
            .count()
            + 1;
        ApiError::Invalid(vec![
            msg!("file.at_line", line = line).with_message("problem", msg!("file.not_utf8"))
        ])
    })
}

/// The format the file is read as. Undeclared: read as the content shows (JSON Lines when it
/// shows nothing), and say so.
fn read_format(format: Option<FileFormat>, text: &str) -> (FileFormat, Option<Message>) {
    match format {
        Some(f) => (f, None),
        None => match FileFormat::sniff(text) {
            Some(FileFormat::Csv) => (FileFormat::Csv, Some(msg!("file.read_as_csv"))),
            _ => (FileFormat::JsonLines, None),
        },
    }
}

/// Scores the file as kind `K` on the task's offered items: the scored file, its public and
/// private half summaries (the whole test split's and every item's, and per-subset summaries for kinds with
/// item subsets, in its extra figures), and whether the kind scores automatically. Also used to score stored
/// explanation files again (`kinds::explanation::rescore`).
pub(crate) async fn score_as<K: ServerKind>(
    storage: &Storage,
    settings: &Settings,
    embeddings: &EmbeddingService,
    task: &BoardTaskRow,
    text: &str,
    format: FileFormat,
    limits: Limits,
) -> ApiResult<(
    ScoredFile,
    Vec<CategoryEstimate>,
    Vec<CategoryEstimate>,
    bool,
)> {
    let items = kinds::offered_items::<K>(storage, task).await?;
    let ctx = kinds::FileContext {
        storage,
        embeddings,
        task,
        text,
        format,
        limits,
    };
    let scored = FilesOf::<K>::score_file(ctx, &items).await?;
    let halves = half_summaries(task, items.iter().map(|i| &i.row), &scored.scores, settings)?;
    // Kinds with item subsets (clips: `main`) get summaries per subset too, for the
    // board's switch.
    let mut scored = scored;
    let mut by_subset = serde_json::Map::new();
    for subset in subset_names::<K>().iter().filter(|s| **s != "full") {
        let in_subset: Vec<&TaskItemRow> = items
            .iter()
            .filter(|i| capabilities::in_subset(i, subset))
            .map(|i| &i.row)
            .collect();
        let ids: std::collections::HashSet<&str> =
            in_subset.iter().map(|r| r.id.as_str()).collect();
        let scores: Vec<ItemScore> = scored
            .scores
            .iter()
            .filter(|s| ids.contains(s.item_id.as_str()))
            .cloned()
            .collect();
        let of_subset = half_summaries(task, in_subset.into_iter(), &scores, settings)?;
        by_subset.insert(
            (*subset).to_owned(),
            serde_json::json!({
                "public": of_subset.public,
                "private": of_subset.private,
                "whole": of_subset.whole,
                "all": of_subset.all,
            }),
        );
    }
    if !by_subset.is_empty() {
        let extra = scored.extra.get_or_insert_with(|| serde_json::json!({}));
        extra["subset_scores"] = serde_json::Value::Object(by_subset);
    }
    store_view_summaries(&mut scored.extra, &halves);
    Ok((
        scored,
        halves.public,
        halves.private,
        crate::kinds::capabilities::auto_scored::<K>(),
    ))
}
