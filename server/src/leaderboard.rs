//! The leaderboard pipeline: author tokens and quotas, task manifests and templates, upload →
//! validate → score → store in one request, boards with human and baseline rows, model pages
//! and the per-item human–model gap view.

use crate::config::Settings;
use crate::error::{ApiError, ApiResult};
use crate::files::csv_text;
use crate::inference::EmbeddingService;
use crate::kinds::{self, ScoredFile, ServerKind};
use crate::quiz::random_hex;
use crate::storage::{
    self, AuthorRecord, BoardTaskRow, ScopeLimit, Storage, SubmissionRecord, TaskItemRow,
};
use anyhow::Context;
use axum::http::HeaderMap;
use memeboard_core::api::{
    BoardResponse, BoardRow, BoardSettingsRequest, BoardSplit, CreateAuthorRequest,
    CreateAuthorResponse, ItemGap, MeResponse, ModelInfo, Quota, RowKind, SubmissionDetail,
    SubmissionStatus, SubmitPredictionsResponse, TaskSummary, Weights,
};
use memeboard_core::crowd::{crowd_rows, CrowdAnswer};
use memeboard_core::kinds::Kind;
use memeboard_core::leaderboard::{summarize, CategoryEstimate, ItemScore};
use memeboard_core::predictions::{FileFormat, Limits, Split, TaskManifest};
use memeboard_core::stats::Estimate;
use memeboard_core::tasks::{CategoryInfo, TaskKind};
use memeboard_core::with_kind;
use serde::Deserialize;
use sha2::{Digest, Sha256};
use std::collections::{BTreeMap, HashMap};

/// Seed of the model-row bootstrap intervals.
const BOOTSTRAP_SEED: u64 = 0x6c65_6164_6572_626f;
const MS_PER_DAY: i64 = 86_400_000;

fn hash_token(token: &str) -> String {
    Sha256::digest(token.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

fn clean_text(field: &str, value: &str, max_chars: usize, required: bool) -> ApiResult<String> {
    let v = value.trim();
    if required && v.is_empty() {
        return Err(ApiError::BadRequest(format!(
            "`{field}`: required, expected 1 to {max_chars} characters"
        )));
    }
    if v.chars().count() > max_chars {
        return Err(ApiError::BadRequest(format!(
            "`{field}`: expected at most {max_chars} characters, found {}",
            v.chars().count()
        )));
    }
    if v.chars().any(|c| c.is_control() && c != '\n') {
        return Err(ApiError::BadRequest(format!(
            "`{field}`: control characters are not allowed"
        )));
    }
    Ok(v.to_owned())
}

/// Where a request comes from, for the per-address limit on new tokens.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClientAddress {
    /// The client's IP address (TCP peer, or the configured proxy header).
    Ip(std::net::IpAddr),
    /// Not known: requests served without connection info (in-process calls, e.g. tests)
    /// all share one bucket.
    Unknown,
}

impl ClientAddress {
    /// The client address of a request: the `client_ip_header` set by a trusted proxy when
    /// configured and parsable, else the TCP peer address, else [`ClientAddress::Unknown`].
    pub fn of(
        settings: &Settings,
        headers: &HeaderMap,
        peer: Option<std::net::SocketAddr>,
    ) -> Self {
        let header = settings.leaderboard.client_ip_header.trim();
        let from_header = (!header.is_empty())
            .then(|| headers.get(header))
            .flatten()
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.split(',').next_back())
            .and_then(|v| v.trim().parse::<std::net::IpAddr>().ok());
        match from_header.or(peer.map(|p| p.ip())) {
            Some(ip) => Self::Ip(ip),
            None => Self::Unknown,
        }
    }

    /// The network counted as one client: the IPv4 address, or the IPv6 /64 (one end site
    /// usually holds a whole /64, so single IPv6 addresses would be free to rotate).
    fn network(self) -> String {
        use std::net::IpAddr;
        match self {
            Self::Ip(IpAddr::V6(v6)) => match v6.to_ipv4_mapped() {
                Some(v4) => v4.to_string(),
                None => {
                    let s = v6.segments();
                    format!("{:x}:{:x}:{:x}:{:x}::/64", s[0], s[1], s[2], s[3])
                }
            },
            Self::Ip(IpAddr::V4(v4)) => v4.to_string(),
            Self::Unknown => "unknown".into(),
        }
    }
}

fn utc_day(now_ms: i64) -> i64 {
    now_ms.div_euclid(MS_PER_DAY)
}

/// Case- and spacing-insensitive form of a name, for counting quotas by name.
fn name_key(name: &str) -> String {
    name.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

/// Mints a token for a new author. The token is returned once; only its hash is stored.
/// New tokens are limited per client network and for the whole site per UTC day (429).
pub async fn create_author(
    storage: &Storage,
    settings: &Settings,
    req: CreateAuthorRequest,
    client: ClientAddress,
) -> ApiResult<CreateAuthorResponse> {
    let name = clean_text("name", &req.name, 100, true)?;
    let organisation = clean_text("organisation", &req.organisation, 100, false)?;
    let token = format!("mb_{}", random_hex(24)?);
    let author = AuthorRecord {
        id: format!("A-{}", random_hex(6)?.to_uppercase()),
        name: name.clone(),
        organisation: organisation.clone(),
        token_hash: hash_token(&token),
        daily_quota: settings.leaderboard.daily_quota as i64,
    };
    let day = utc_day(storage::now_ms());
    let lb = &settings.leaderboard;
    // Only a hash of the network is stored; the day is part of the hash so that keys of
    // different days cannot be linked. (An IPv4 hash can be reversed by trying all 2^32
    // addresses: this is pseudonymisation, and counters are deleted after a week.)
    let per_address = lb.tokens_per_address_per_day;
    let per_day = lb.tokens_per_day;
    let limits = [
        ScopeLimit {
            key: format!(
                "tokens-from:{}",
                hash_token(&format!("{day}:{}", client.network()))
            ),
            limit: i64::try_from(per_address).unwrap_or(i64::MAX),
        },
        ScopeLimit {
            key: "tokens-all".into(),
            limit: i64::try_from(per_day).unwrap_or(i64::MAX),
        },
    ];
    if let Err(exceeded) = storage.create_author_within(&author, &limits, day).await? {
        return Err(ApiError::TooManyRequests(if exceeded.index == 0 {
            format!(
                "too many new tokens from your network today (limit {per_address} per day); try again after 00:00 UTC"
            )
        } else {
            format!(
                "the site's limit of {per_day} new tokens per day is reached; try again after 00:00 UTC"
            )
        }));
    }
    Ok(CreateAuthorResponse {
        author_id: author.id,
        name,
        organisation,
        token,
        quota: Quota {
            used_today: 0,
            daily_limit: settings.leaderboard.daily_quota,
            remaining: settings.leaderboard.daily_quota,
        },
    })
}

fn bearer(headers: &HeaderMap) -> Option<&str> {
    headers
        .get(axum::http::header::AUTHORIZATION)?
        .to_str()
        .ok()?
        .strip_prefix("Bearer ")
        .map(str::trim)
}

/// The author behind the request's bearer token (401 when missing or unknown).
pub async fn authenticate(storage: &Storage, headers: &HeaderMap) -> ApiResult<AuthorRecord> {
    let token = bearer(headers).ok_or_else(|| {
        ApiError::Unauthorized("missing token: send `Authorization: Bearer <token>` (get a token on the account page, /account)".into())
    })?;
    storage
        .find_author_by_token_hash(&hash_token(token))
        .await?
        .ok_or_else(|| {
            ApiError::Unauthorized(
                "unknown token: check it, or create a new one on the account page (/account)"
                    .into(),
            )
        })
}

/// Whether the request carries the configured admin token.
pub fn is_admin(settings: &Settings, headers: &HeaderMap) -> bool {
    let configured = settings.admin.token.as_str();
    !configured.is_empty()
        && bearer(headers).is_some_and(|t| hash_token(t) == hash_token(configured))
}

fn require_admin(settings: &Settings, headers: &HeaderMap) -> ApiResult<()> {
    if settings.admin.token.is_empty() {
        return Err(ApiError::Forbidden(
            "admin endpoints are disabled: set MEMEBOARD__ADMIN__TOKEN".into(),
        ));
    }
    if is_admin(settings, headers) {
        Ok(())
    } else {
        Err(ApiError::Unauthorized(
            "admin token required: send `Authorization: Bearer <admin token>`".into(),
        ))
    }
}

/// One counted scope of the upload quota and how its refusal reads.
struct UploadScope {
    limit: ScopeLimit,
    /// "daily quota{what} used up: …".
    what: String,
}

/// The scopes an upload counts in: the token, the author name (whatever the token), and,
/// for an upload, the model name on the task (whatever the token or author).
fn upload_scopes(
    settings: &Settings,
    author: &AuthorRecord,
    model: Option<(&str, &str)>,
) -> Vec<UploadScope> {
    let lb = &settings.leaderboard;
    let limit = |n: usize| i64::try_from(n).unwrap_or(i64::MAX);
    let mut scopes = vec![
        UploadScope {
            limit: ScopeLimit {
                key: format!("token:{}", author.id),
                limit: author.daily_quota,
            },
            what: String::new(),
        },
        UploadScope {
            limit: ScopeLimit {
                key: format!("author:{}", hash_token(&name_key(&author.name))),
                limit: limit(lb.daily_quota_per_author),
            },
            what: format!(" of author `{}`", author.name),
        },
    ];
    if let Some((task_id, model)) = model {
        scopes.push(UploadScope {
            limit: ScopeLimit {
                key: format!("model:{task_id}:{}", hash_token(&name_key(model))),
                limit: limit(lb.daily_quota_per_model),
            },
            what: format!(" of model `{model}` on this task"),
        });
    }
    scopes
}

fn quota_refusal(scope: &UploadScope, used: i64) -> ApiError {
    ApiError::TooManyRequests(format!(
        "daily quota{} used up: {used} of {} submissions today; it resets at 00:00 UTC",
        scope.what, scope.limit.limit
    ))
}

/// Today's use of each scope.
async fn scope_usage(storage: &Storage, scopes: &[UploadScope]) -> ApiResult<Vec<i64>> {
    let keys: Vec<String> = scopes.iter().map(|s| s.limit.key.clone()).collect();
    Ok(storage
        .quota_usage(&keys, utc_day(storage::now_ms()))
        .await?)
}

/// The quota as shown: the scope with the least left (the token's on a tie).
async fn quota_of(storage: &Storage, scopes: &[UploadScope]) -> ApiResult<Quota> {
    let used = scope_usage(storage, scopes).await?;
    let shown = scopes
        .iter()
        .zip(&used)
        .map(|(s, &u)| {
            let limit = usize::try_from(s.limit.limit).unwrap_or(usize::MAX);
            let used = usize::try_from(u).unwrap_or(0);
            Quota {
                used_today: used,
                daily_limit: limit,
                remaining: limit.saturating_sub(used),
            }
        })
        .min_by_key(|q| q.remaining);
    Ok(shown.unwrap_or(Quota {
        used_today: 0,
        daily_limit: 0,
        remaining: 0,
    }))
}

async fn quota(storage: &Storage, settings: &Settings, author: &AuthorRecord) -> ApiResult<Quota> {
    quota_of(storage, &upload_scopes(settings, author, None)).await
}

async fn find_task(storage: &Storage, slug: &str) -> ApiResult<BoardTaskRow> {
    storage
        .find_board_task(slug)
        .await?
        .ok_or_else(|| ApiError::NotFound(format!("no task named `{slug}`")))
}

fn categories(task: &BoardTaskRow) -> ApiResult<Vec<CategoryInfo>> {
    Ok(storage::decode_json(
        "tasks.categories_json",
        &task.task.categories_json,
    )?)
}

fn category_keys(task: &BoardTaskRow) -> ApiResult<Vec<String>> {
    Ok(categories(task)?.into_iter().map(|c| c.key).collect())
}

fn kind(task: &BoardTaskRow) -> ApiResult<TaskKind> {
    Ok(TaskKind::parse(&task.task.kind)
        .with_context(|| format!("unknown task kind `{}`", task.task.kind))?)
}

/// All tasks with boards.
pub async fn list_tasks(storage: &Storage) -> ApiResult<Vec<TaskSummary>> {
    let mut out = Vec::new();
    for task in storage.list_board_tasks().await? {
        let items = storage.task_items(&task.task.id).await?;
        let count = |f: &dyn Fn(&TaskItemRow) -> bool| items.iter().filter(|i| f(i)).count();
        out.push(TaskSummary {
            slug: task.task.slug.clone(),
            title: task.task.title.clone(),
            kind: kind(&task)?,
            dev_items: count(&|i| i.split == Split::Dev),
            public_items: count(&|i| i.on_board(BoardSplit::Public)),
            private_items: count(&|i| i.on_board(BoardSplit::Private)),
            submissions: usize::try_from(task.submissions).unwrap_or(0),
            categories: categories(&task)?,
        });
    }
    Ok(out)
}

/// The public manifest (items, categories, splits, options; no gold).
pub async fn manifest(storage: &Storage, slug: &str) -> ApiResult<TaskManifest> {
    let task = find_task(storage, slug).await?;
    with_kind!(kind(&task)?, K => {
        let items = kinds::typed_items::<K>(storage, &task).await?;
        Ok(TaskManifest {
            task: task.task.slug.clone(),
            items: items.iter().map(K::manifest_item).collect(),
        })
    })
}

/// Model inputs as JSON Lines: what a model needs to answer each item (for text MCQs the
/// sentence and its options under all five published orders). No gold.
pub async fn inputs_jsonl(storage: &Storage, slug: &str) -> ApiResult<String> {
    let task = find_task(storage, slug).await?;
    with_kind!(kind(&task)?, K => {
        let items = kinds::typed_items::<K>(storage, &task).await?;
        Ok(items
            .iter()
            .map(|i| K::inputs_line(i).to_string() + "\n")
            .collect())
    })
}

/// A template to fill in: every item id with the kind's fields empty.
pub async fn template(storage: &Storage, slug: &str, format: FileFormat) -> ApiResult<String> {
    let task = find_task(storage, slug).await?;
    with_kind!(kind(&task)?, K => {
        let items = kinds::typed_items::<K>(storage, &task).await?;
        Ok(kinds::template::<K>(&items, format))
    })
}

/// Gold of the open dev split only (public by design), as JSON Lines.
pub async fn dev_gold(storage: &Storage, slug: &str) -> ApiResult<Vec<serde_json::Value>> {
    let task = find_task(storage, slug).await?;
    with_kind!(kind(&task)?, K => {
        let items = kinds::typed_items::<K>(storage, &task).await?;
        Ok(items
            .iter()
            .filter(|i| i.split() == Split::Dev)
            .map(K::dev_gold_line)
            .collect())
    })
}

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
}

fn model_info(q: &SubmitQuery, author: &AuthorRecord) -> ApiResult<ModelInfo> {
    let weights = match q.weights.as_deref().map(str::trim) {
        None | Some("") | Some("closed") => Weights::Closed,
        Some("open") => Weights::Open,
        Some(other) => {
            return Err(ApiError::BadRequest(format!(
                "`weights`: expected `open` or `closed`, found `{other}`"
            )))
        }
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
            return Err(ApiError::BadRequest(format!(
                "`link`: expected an http(s) URL of at most 300 characters, found `{}`",
                l.chars().take(60).collect::<String>()
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
    })
}

fn file_format(q: &SubmitQuery, headers: &HeaderMap) -> ApiResult<FileFormat> {
    match q.format.as_deref() {
        Some("jsonl") | Some("json_lines") => return Ok(FileFormat::JsonLines),
        Some("csv") => return Ok(FileFormat::Csv),
        Some(other) => {
            return Err(ApiError::BadRequest(format!(
                "`format`: expected `jsonl` or `csv`, found `{other}`"
            )))
        }
        None => {}
    }
    let content_type = headers
        .get(axum::http::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    if content_type.starts_with("text/csv") {
        return Ok(FileFormat::Csv);
    }
    Ok(q.filename
        .as_deref()
        .map_or(FileFormat::JsonLines, FileFormat::from_file_name))
}

fn board_visible(task: &BoardTaskRow) -> bool {
    !task.blind || task.blind_revealed
}

/// Validates, scores and stores an upload in one request. A rejected file stores nothing and
/// uses no quota.
pub async fn submit(
    storage: &Storage,
    settings: &Settings,
    embeddings: &EmbeddingService,
    headers: &HeaderMap,
    slug: &str,
    query: SubmitQuery,
    body: &[u8],
) -> ApiResult<SubmitPredictionsResponse> {
    let author = authenticate(storage, headers).await?;
    let task = find_task(storage, slug).await?;
    let info = model_info(&query, &author)?;
    let format = file_format(&query, headers)?;
    // A cheap early refusal before reading and scoring the file; the authoritative count is
    // taken in the transaction that stores the submission (see below).
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
    let limits = Limits {
        max_bytes: settings.leaderboard.max_upload_bytes,
        max_rows: settings.leaderboard.max_rows,
    };
    if body.len() > limits.max_bytes {
        return Err(ApiError::PayloadTooLarge(format!(
            "file is {} bytes; the limit is {} bytes",
            body.len(),
            limits.max_bytes
        )));
    }
    let text = std::str::from_utf8(body).map_err(|e| {
        let line = body[..e.valid_up_to()]
            .iter()
            .filter(|&&b| b == b'\n')
            .count()
            + 1;
        ApiError::Invalid(vec![format!(
            "line {line}: the file is not valid UTF-8 text"
        )])
    })?;
    let (scored, public, private) = with_kind!(kind(&task)?, K => {
        let items = kinds::typed_items::<K>(storage, &task).await?;
        let ctx = kinds::FileContext { storage, embeddings, task: &task };
        let scored = K::score_file(ctx, &items, text, format, limits).await?;
        let (public, private) =
            half_summaries(&task, items.iter().map(|i| &i.row), &scored.scores, settings)?;
        (scored, public, private)
    });
    let ScoredFile {
        scores,
        extra,
        num_lines,
        num_missing,
        orders_json: orders,
        warning,
    } = scored;
    let record = SubmissionRecord {
        id: format!("S-{}", random_hex(8)?.to_uppercase()),
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
        file_format: match format {
            FileFormat::JsonLines => "json_lines",
            FileFormat::Csv => "csv",
        }
        .into(),
        num_lines: num_lines as i64,
        num_missing: num_missing as i64,
        orders_json: orders,
        item_scores_json: serde_json::to_string(&scores).context("encode scores")?,
        public_summary_json: serde_json::to_string(&public).context("encode summary")?,
        private_summary_json: serde_json::to_string(&private).context("encode summary")?,
        extra_json: extra.map(|e| e.to_string()),
        created_at: storage::now_ms(),
    };
    // Counted and stored in one transaction: concurrent uploads cannot exceed any limit, and
    // a refused upload stores nothing and uses no quota.
    let limits: Vec<ScopeLimit> = scopes.iter().map(|s| s.limit.clone()).collect();
    if let Err(exceeded) = storage
        .insert_submission_within(&record, &limits, utc_day(record.created_at))
        .await?
    {
        return Err(quota_refusal(&scopes[exceeded.index], exceeded.used));
    }
    tracing::info!(submission = %record.id, task = slug, lines = num_lines, "scored upload");
    let visible = board_visible(&task);
    Ok(SubmitPredictionsResponse {
        submission_id: record.id,
        task: slug.to_owned(),
        status: if visible {
            SubmissionStatus::Scored
        } else {
            SubmissionStatus::Received
        },
        lines: num_lines,
        warnings: warning.into_iter().collect(),
        public_scores: visible
            .then(|| publishable(public, settings.leaderboard.min_category_items)),
        quota: quota_of(storage, &scopes).await?,
    })
}

fn half_summaries<'a>(
    task: &BoardTaskRow,
    rows: impl Iterator<Item = &'a TaskItemRow>,
    scores: &[ItemScore],
    settings: &Settings,
) -> ApiResult<(Vec<CategoryEstimate>, Vec<CategoryEstimate>)> {
    let halves: HashMap<&str, Option<BoardSplit>> = rows
        .map(|r| {
            let half = (r.split == Split::Test).then_some(r.board_half);
            (r.id.as_str(), half)
        })
        .collect();
    let cats = category_keys(task)?;
    Ok(summaries_by_half(
        &halves,
        scores,
        &cats,
        settings.quiz.bootstrap_resamples,
    ))
}

/// The public- and private-board summaries of per-item scores, given each item's
/// board half (`None` for dev items). Also used by the start-up upgrade to re-derive stored
/// summaries.
pub(crate) fn summaries_by_half(
    halves: &HashMap<&str, Option<BoardSplit>>,
    scores: &[ItemScore],
    cats: &[String],
    resamples: usize,
) -> (Vec<CategoryEstimate>, Vec<CategoryEstimate>) {
    let of_half = |half: BoardSplit| -> Vec<ItemScore> {
        scores
            .iter()
            .filter(|s| halves.get(s.item_id.as_str()) == Some(&Some(half)))
            .cloned()
            .collect()
    };
    (
        summarize(
            &of_half(BoardSplit::Public),
            cats,
            resamples,
            BOOTSTRAP_SEED,
        ),
        summarize(
            &of_half(BoardSplit::Private),
            cats,
            resamples,
            BOOTSTRAP_SEED,
        ),
    )
}

fn model_of(s: &SubmissionRecord) -> ModelInfo {
    ModelInfo {
        model_name: s.model_name.clone(),
        organisation: s.organisation.clone(),
        parameters: s.parameters.clone(),
        weights: if s.weights == "open" {
            Weights::Open
        } else {
            Weights::Closed
        },
        link: s.link.clone(),
        description: s.description.clone(),
    }
}

/// Per-category figures are published only for categories with at least `min_items` items
/// on the board half: with one or two items a handful of uploads (e.g. constant answers per
/// option order) would reveal their answers. The overall entry is always kept.
fn publishable(mut scores: Vec<CategoryEstimate>, min_items: usize) -> Vec<CategoryEstimate> {
    for s in &mut scores {
        s.suppress_below(min_items);
    }
    scores
}

fn detail_of(
    task: &BoardTaskRow,
    s: &SubmissionRecord,
    min_items: usize,
) -> ApiResult<SubmissionDetail> {
    let visible = board_visible(task);
    Ok(SubmissionDetail {
        submission_id: s.id.clone(),
        task: task.task.slug.clone(),
        model: model_of(s),
        submitted_at: s.created_at,
        status: if visible {
            SubmissionStatus::Scored
        } else {
            SubmissionStatus::Received
        },
        lines: usize::try_from(s.num_lines).unwrap_or(0),
        missing_items: usize::try_from(s.num_missing).unwrap_or(0),
        categories: categories(task)?,
        public_scores: if visible {
            publishable(
                storage::decode_json("submissions.public_summary_json", &s.public_summary_json)?,
                min_items,
            )
        } else {
            Vec::new()
        },
        private_scores: if visible && task.private_revealed {
            publishable(
                storage::decode_json("submissions.private_summary_json", &s.private_summary_json)?,
                min_items,
            )
        } else {
            Vec::new()
        },
    })
}

/// The token's author, quota and submissions.
pub async fn me(
    storage: &Storage,
    settings: &Settings,
    headers: &HeaderMap,
) -> ApiResult<MeResponse> {
    let author = authenticate(storage, headers).await?;
    let tasks: HashMap<String, BoardTaskRow> = storage
        .list_board_tasks()
        .await?
        .into_iter()
        .map(|t| (t.task.id.clone(), t))
        .collect();
    let mut submissions = Vec::new();
    for s in storage.author_submissions(&author.id).await? {
        if let Some(task) = tasks.get(&s.task_id) {
            submissions.push(detail_of(
                task,
                &s,
                settings.leaderboard.min_category_items,
            )?);
        }
    }
    Ok(MeResponse {
        quota: quota(storage, settings, &author).await?,
        author_id: author.id,
        name: author.name,
        organisation: author.organisation,
        submissions,
    })
}

/// A model page.
pub async fn submission(
    storage: &Storage,
    settings: &Settings,
    id: &str,
) -> ApiResult<SubmissionDetail> {
    let s = storage
        .find_submission(id)
        .await?
        .ok_or_else(|| ApiError::NotFound(format!("no submission with id `{id}`")))?;
    let task = storage
        .list_board_tasks()
        .await?
        .into_iter()
        .find(|t| t.task.id == s.task_id)
        .ok_or_else(|| {
            ApiError::NotFound(format!("the task of submission `{id}` no longer exists"))
        })?;
    detail_of(&task, &s, settings.leaderboard.min_category_items)
}

async fn crowd_answers(storage: &Storage, task: &BoardTaskRow) -> ApiResult<Vec<CrowdAnswer>> {
    Ok(storage
        .crowd_responses(&task.task.id)
        .await?
        .into_iter()
        .filter_map(|r| {
            // Human rows average scored answers; unscored ones carry no score to average.
            let score = r.score?;
            Some(CrowdAnswer {
                participant: r.participant_id,
                item: r.item_id,
                category: r.category,
                choice: r.choice.and_then(|c| usize::try_from(c).ok()),
                score,
            })
        })
        .collect())
}

/// A board: models, crowd rows and the chance baseline on one half of the test split.
pub async fn board(
    storage: &Storage,
    settings: &Settings,
    slug: &str,
    which: BoardSplit,
) -> ApiResult<BoardResponse> {
    let task = find_task(storage, slug).await?;
    if which == BoardSplit::Private && !task.private_revealed {
        return Err(ApiError::Forbidden(format!(
            "the private board of `{slug}` is not revealed yet"
        )));
    }
    let half = match which {
        BoardSplit::Public => "public",
        BoardSplit::Private => "private",
    };
    let task_kind = kind(&task)?;
    let baseline = storage.task_baseline(&task.task.id).await?;
    let task_baseline = baseline.as_ref().map(|(b, _)| *b);
    // Each item with its baseline level (chance for choices, the random-pair similarity for
    // explanations), and how the kind names its metric and baseline row.
    let (items, metric, missing_policy, baseline_kind, baseline_label) = with_kind!(task_kind, K => {
        let items: Vec<(TaskItemRow, Option<f64>)> = kinds::typed_items::<K>(storage, &task)
            .await?
            .into_iter()
            .map(|i| {
                let level = K::baseline(&i, task_baseline);
                (i.row, level)
            })
            .collect();
        (
            items,
            K::metric_name(baseline.as_ref().map(|(_, m)| m.as_str())),
            K::MISSING_POLICY,
            K::BASELINE_ROW,
            K::BASELINE_LABEL,
        )
    });
    let in_half: HashMap<&str, &(TaskItemRow, Option<f64>)> = items
        .iter()
        .filter(|i| i.0.on_board(which))
        .map(|i| (i.0.id.as_str(), i))
        .collect();
    let cats = categories(&task)?;
    let keys: Vec<String> = cats.iter().map(|c| c.key.clone()).collect();
    let visible = board_visible(&task);

    let mut rows = Vec::new();
    for s in storage.task_submissions(&task.task.id).await? {
        let scores: Vec<CategoryEstimate> = if visible {
            let json = if which == BoardSplit::Public {
                &s.public_summary_json
            } else {
                &s.private_summary_json
            };
            storage::decode_json("submissions.summary_json", json)?
        } else {
            Vec::new()
        };
        let extra = match (&s.extra_json, visible) {
            (Some(json), true) => {
                let v: serde_json::Value = storage::decode_json("submissions.extra_json", json)?;
                serde_json::from_value(v[half].clone()).unwrap_or_default()
            }
            _ => Vec::new(),
        };
        rows.push(BoardRow {
            extra,
            kind: RowKind::Model,
            label: s.model_name.clone(),
            submission_id: Some(s.id.clone()),
            model: Some(model_of(&s)),
            submitted_at: Some(s.created_at),
            status: if visible {
                SubmissionStatus::Scored
            } else {
                SubmissionStatus::Received
            },
            scores,
            participants: None,
        });
    }

    // Crowd rows on the same items.
    let answers: Vec<CrowdAnswer> = crowd_answers(storage, &task)
        .await?
        .into_iter()
        .filter(|a| in_half.contains_key(a.item.as_str()))
        .collect();
    let crowd = crowd_rows(
        &answers,
        &keys,
        settings.quiz.bootstrap_resamples,
        BOOTSTRAP_SEED,
    );
    let participants = crowd.first().map_or(0, |r| r.participants);
    if participants > 0 {
        let items_answered = |cat: Option<&String>| -> usize {
            let mut ids: Vec<&str> = answers
                .iter()
                .filter(|a| cat.is_none_or(|c| &a.category == c))
                .map(|a| a.item.as_str())
                .collect();
            ids.sort_unstable();
            ids.dedup();
            ids.len()
        };
        for (row_kind, label, pick) in [
            (
                RowKind::HumanAverage,
                "Human average (crowd)",
                (|r: &memeboard_core::api::CrowdRow| r.human_average)
                    as fn(&memeboard_core::api::CrowdRow) -> Option<Estimate>,
            ),
            (
                RowKind::HumanBest,
                "Human best (crowd)",
                |r: &memeboard_core::api::CrowdRow| r.human_best,
            ),
        ] {
            rows.push(BoardRow {
                extra: Vec::new(),
                kind: row_kind,
                label: label.into(),
                submission_id: None,
                model: None,
                submitted_at: None,
                status: SubmissionStatus::Scored,
                scores: crowd
                    .iter()
                    .map(|r| CategoryEstimate {
                        category: r.category.clone(),
                        items: items_answered(r.category.as_ref()),
                        estimate: pick(r),
                        suppressed: false,
                    })
                    .collect(),
                participants: Some(participants),
            });
        }
    }

    // Chance: one of the options uniformly at random (1/5 for five options), or for
    // explanations the similarity of a random pair of reference meanings.
    let chance = |subset: Vec<&&(TaskItemRow, Option<f64>)>| -> Option<Estimate> {
        let values: Vec<f64> = subset.iter().filter_map(|i| i.1).collect();
        (!values.is_empty()).then(|| {
            let v = values.iter().sum::<f64>() / values.len() as f64;
            Estimate {
                value: v,
                ci_low: v,
                ci_high: v,
            }
        })
    };
    let mut chance_scores = vec![CategoryEstimate {
        category: None,
        items: in_half.len(),
        estimate: chance(in_half.values().collect()),
        suppressed: false,
    }];
    for k in &keys {
        let subset: Vec<&&(TaskItemRow, Option<f64>)> =
            in_half.values().filter(|i| &i.0.category == k).collect();
        chance_scores.push(CategoryEstimate {
            category: Some(k.clone()),
            items: subset.len(),
            estimate: chance(subset),
            suppressed: false,
        });
    }
    rows.push(BoardRow {
        extra: Vec::new(),
        kind: baseline_kind,
        label: baseline_label.into(),
        submission_id: None,
        model: None,
        submitted_at: None,
        status: SubmissionStatus::Scored,
        scores: chance_scores,
        participants: None,
    });

    // Per-category figures only where the half has enough items in the category (model,
    // human and chance rows alike; the overall column always).
    for row in &mut rows {
        for s in &mut row.scores {
            s.suppress_below(settings.leaderboard.min_category_items);
        }
    }
    let overall = |r: &BoardRow| {
        r.scores
            .first()
            .and_then(|s| s.estimate)
            .map_or(f64::NEG_INFINITY, |e| e.value)
    };
    rows.sort_by(|a, b| {
        overall(b)
            .total_cmp(&overall(a))
            .then(a.submitted_at.cmp(&b.submitted_at))
    });
    Ok(BoardResponse {
        task: slug.to_owned(),
        title: task.task.title.clone(),
        split: which,
        metric,
        missing_policy: missing_policy.into(),
        categories: cats,
        items: in_half.len(),
        private_revealed: task.private_revealed,
        blind: task.blind && !task.blind_revealed,
        rows,
    })
}

/// The board as CSV: one row per board row, value and interval per column.
pub fn board_csv(board: &BoardResponse) -> String {
    let mut header = vec![
        "rank",
        "kind",
        "label",
        "organisation",
        "parameters",
        "weights",
        "submitted_at_ms",
        "participants",
    ]
    .into_iter()
    .map(str::to_owned)
    .collect::<Vec<_>>();
    for c in
        std::iter::once("overall".to_owned()).chain(board.categories.iter().map(|c| c.key.clone()))
    {
        header.extend([c.clone(), format!("{c}_ci_low"), format!("{c}_ci_high")]);
    }
    let mut out = header.join(",");
    out.push('\n');
    for (rank, row) in board.rows.iter().enumerate() {
        let kind = serde_json::to_value(row.kind)
            .ok()
            .and_then(|v| v.as_str().map(str::to_owned))
            .unwrap_or_default();
        let m = row.model.as_ref();
        let mut fields = vec![
            (rank + 1).to_string(),
            kind,
            csv_text(&row.label),
            csv_text(m.map_or("", |m| m.organisation.as_str())),
            csv_text(m.and_then(|m| m.parameters.as_deref()).unwrap_or("")),
            m.map_or(String::new(), |m| match m.weights {
                Weights::Open => "open".into(),
                Weights::Closed => "closed".into(),
            }),
            row.submitted_at.map_or(String::new(), |t| t.to_string()),
            row.participants.map_or(String::new(), |p| p.to_string()),
        ];
        for i in 0..=board.categories.len() {
            match row.scores.get(i).and_then(|s| s.estimate) {
                Some(e) => fields.extend([
                    format!("{:.4}", e.value),
                    format!("{:.4}", e.ci_low),
                    format!("{:.4}", e.ci_high),
                ]),
                None => fields.extend([String::new(), String::new(), String::new()]),
            }
        }
        out.push_str(&fields.join(","));
        out.push('\n');
    }
    out
}

/// Items the model got wrong that most people got right, biggest gap first. Authors see
/// their own submission on dev items only (listing the test items a file got wrong would
/// reveal their gold after a few constant-answer uploads); admins see every item.
pub async fn item_gaps(
    storage: &Storage,
    settings: &Settings,
    headers: &HeaderMap,
    id: &str,
) -> ApiResult<Vec<ItemGap>> {
    let admin = is_admin(settings, headers);
    let s = storage
        .find_submission(id)
        .await?
        .ok_or_else(|| ApiError::NotFound(format!("no submission with id `{id}`")))?;
    if !admin {
        let author = authenticate(storage, headers).await?;
        if author.id != s.author_id {
            return Err(ApiError::Forbidden(
                "only the author of a submission (or an admin) can see its per-item view".into(),
            ));
        }
    }
    let task = storage
        .list_board_tasks()
        .await?
        .into_iter()
        .find(|t| t.task.id == s.task_id)
        .ok_or_else(|| ApiError::NotFound("the submission's task no longer exists".into()))?;
    if !admin && !board_visible(&task) {
        return Err(ApiError::Forbidden(
            "the board is blind: per-item results are shown after the organisers reveal it".into(),
        ));
    }
    // (row, text shown) per item: a sentence, a meme phrase…
    let task_kind = kind(&task)?;
    let items: Vec<(TaskItemRow, String)> = with_kind!(task_kind, K => {
        kinds::typed_items::<K>(storage, &task)
            .await?
            .into_iter()
            .map(|i| {
                let subject = K::subject(&i.prompt);
                (i.row, subject)
            })
            .collect()
    });
    let scores: Vec<ItemScore> =
        storage::decode_json("submissions.item_scores_json", &s.item_scores_json)?;
    let by_id: HashMap<&str, &(TaskItemRow, String)> =
        items.iter().map(|i| (i.0.id.as_str(), i)).collect();
    let mut crowd: BTreeMap<String, (f64, usize)> = BTreeMap::new();
    for a in crowd_answers(storage, &task).await? {
        let e = crowd.entry(a.item).or_default();
        e.0 += a.score;
        e.1 += 1;
    }
    let mut gaps: Vec<ItemGap> = scores
        .iter()
        .filter_map(|sc| {
            let (row, text) = by_id.get(sc.item_id.as_str())?;
            let allowed = admin || row.split == Split::Dev;
            let (sum, n) = crowd.get(&sc.item_id)?;
            let crowd_accuracy = sum / *n as f64;
            // Choices: wrong where most people were right. Explanations: below the crowd.
            let notable = with_kind!(task_kind, K => K::notable_gap(sc.score, crowd_accuracy));
            (allowed && notable).then(|| ItemGap {
                item_id: sc.item_id.clone(),
                category: sc.category.clone(),
                sentence: text.clone(),
                model_score: sc.score,
                crowd_accuracy,
                crowd_answers: *n,
                gap: crowd_accuracy - sc.score,
            })
        })
        .collect();
    gaps.sort_by(|a, b| b.gap.total_cmp(&a.gap).then(a.item_id.cmp(&b.item_id)));
    Ok(gaps)
}

/// Flips board switches (admin only).
pub async fn update_board(
    storage: &Storage,
    settings: &Settings,
    headers: &HeaderMap,
    slug: &str,
    req: BoardSettingsRequest,
) -> ApiResult<BoardSettingsRequest> {
    require_admin(settings, headers)?;
    let task = find_task(storage, slug).await?;
    let private_revealed = req.private_revealed.unwrap_or(task.private_revealed);
    let blind = req.blind.unwrap_or(task.blind);
    let blind_revealed = req.blind_revealed.unwrap_or(task.blind_revealed);
    storage
        .update_board_settings(&task.task.id, private_revealed, blind, blind_revealed)
        .await?;
    Ok(BoardSettingsRequest {
        private_revealed: Some(private_revealed),
        blind: Some(blind),
        blind_revealed: Some(blind_revealed),
    })
}
