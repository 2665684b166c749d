//! Human-evaluation studies: an owner makes one from an explanation board (which submissions,
//! which items, batches, raters per batch, protocol); the study's judging tasks (`rating`,
//! and for CMPM `ranking`) are created in one transaction with the study; the study page shows
//! progress and agreement; every judgement can be exported; and the board gets the
//! human-judged columns and the metric-validity panel, computed off the request path once per
//! state of the judgements (see `crowd_cache`).
//!
//! The planning and the statistics are pure (`memeboard_core::human_eval::{study, board}`);
//! this module reads and writes, and decides who may. Documented in
//! `docs/human-evaluation.md` ("Running a study").

use crate::error::{ApiError, ApiResult};
use crate::files::csv_text;
use crate::ids::random_hex;
use crate::judging::{self, JudgingItem, JudgingTaskSpec};
use crate::owners::{self, Actor};
use crate::pseudonym::pseudonym;
use crate::state::AppState;
use crate::storage::{
    self, BoardTaskRow, NewOwnerAction, NewStudyTask, Storage, StudyInsert, StudyRecord,
};
use crate::study_tables::{combined_fingerprint, study_data, task_judgements, TaskJudgements};
use anyhow::Context;
use axum::http::HeaderMap;
use memeboard_core::human_eval::board::{
    study_summary, study_tables, HumanEvalSummary, HumanTables,
};
use memeboard_core::human_eval::outputs::{RatedSubject, Reference};
use memeboard_core::human_eval::study::{
    plan_study, BatchProgress, BoardSubmission, CreateStudyRequest, CreateStudyResponse,
    PlanRequest, SourceItem, StudyPage, StudyPlan, StudyProtocol, StudySubmission, StudyTaskLink,
    StudyTaskProgress,
};
use memeboard_core::human_eval::{HUMAN_EVAL_RESAMPLES, HUMAN_EVAL_SEED};
use memeboard_core::kinds::{ranking, rating, AnswerValue, ItemGold, ItemPrompt, TaskKind};
use memeboard_core::leaderboard::CategoryEstimate;
use memeboard_core::msg;
use memeboard_core::predictions::FileFormat;
use memeboard_core::study::StudySettings;
use std::collections::{BTreeMap, BTreeSet};

/// Longest study slug (its tasks add `-rate` / `-rank`).
const MAX_SLUG: usize = 50;
/// Longest minimum time per page an owner may set (ms).
const MAX_MIN_ITEM_MS: u64 = 600_000;

/// Prolific's URL parameters, appended to a rater link for a Prolific study.
pub const PROLIFIC_PARAMS: &str =
    "PROLIFIC_PID={{%PROLIFIC_PID%}}&STUDY_ID={{%STUDY_ID%}}&SESSION_ID={{%SESSION_ID%}}";

/// The stored kind of a task.
fn kind_of(task: &BoardTaskRow) -> ApiResult<TaskKind> {
    TaskKind::parse(&task.task.kind).ok_or_else(|| {
        ApiError::Unexpected(anyhow::anyhow!("unknown stored kind `{}`", task.task.kind))
    })
}

/// The rater link of a task: the quiz page, with the invitation secret when known.
fn links(task_slug: &str, invite: Option<&str>) -> (String, String) {
    let link = match invite {
        Some(secret) => format!("/quiz/{task_slug}?invite={secret}"),
        None => format!("/quiz/{task_slug}"),
    };
    let sep = if link.contains('?') { '&' } else { '?' };
    let prolific = format!("{link}{sep}{PROLIFIC_PARAMS}");
    (link, prolific)
}

/// The source items of an explanation board: memes with their reference, or comics.
fn source_items(rows: &[storage::TaskItemRow]) -> ApiResult<Vec<SourceItem>> {
    rows.iter()
        .map(|r| {
            let prompt: ItemPrompt = storage::decode_json("items.prompt_json", &r.prompt_json)?;
            let gold: ItemGold = storage::decode_json("items.gold_json", &r.gold_json)?;
            let (subject, reference, has_context) = match (prompt, gold) {
                (ItemPrompt::Explanation(p), ItemGold::Explanation(g)) => (
                    RatedSubject::Meme { phrase: p.meme },
                    Some(Reference {
                        meaning: g.meaning,
                        origin: g.origin,
                        examples: Vec::new(),
                    }),
                    false,
                ),
                (ItemPrompt::PanelExplanation(p), _) => {
                    let (title, caption) =
                        p.context.map(|c| (c.title, c.caption)).unwrap_or_default();
                    let has_context = title.is_some() || caption.is_some();
                    (
                        RatedSubject::Comic {
                            panels: p.panels.into_iter().map(|m| m.url).collect(),
                            title,
                            caption,
                        },
                        None,
                        has_context,
                    )
                }
                _ => {
                    return Err(ApiError::Unexpected(anyhow::anyhow!(
                        "item {} is not an explanation item",
                        r.id
                    )))
                }
            };
            Ok(SourceItem {
                id: r.id.clone(),
                category: r.category.clone(),
                split: r.split,
                subject,
                reference,
                has_context,
            })
        })
        .collect()
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
    Ok(())
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
) -> Vec<(JudgingTaskSpec, u32)> {
    let protocol = match plan.protocol {
        StudyProtocol::Accuracy => rating::RatingProtocol::Accuracy,
        StudyProtocol::Cmpm => rating::RatingProtocol::Dimensions,
    };
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
            categories: Vec::new(),
            items: plan
                .ratings
                .iter()
                .map(|r| JudgingItem {
                    id: r.id.clone(),
                    category: r.category.clone(),
                    split: r.split,
                    prompt: ItemPrompt::Rating(rating::Prompt {
                        protocol,
                        subject: r.subject.clone(),
                        reference: r.reference.clone(),
                        output: r.output.clone(),
                        has_context: r.has_context,
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
                categories: Vec::new(),
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
                            submissions: r.submissions.iter().cloned().map(Some).collect(),
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
    let task = storage
        .find_board_task(source_slug)
        .await?
        .ok_or_else(|| ApiError::NotFound(msg!("task.not_found", slug = source_slug)))?;
    let kind = kind_of(&task)?;
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
    let items = source_items(&storage.task_items(&task.task.id).await?)?;
    let seed = match req.seed {
        Some(s) => s,
        None => random_u64()?,
    };
    req.seed = Some(seed);
    let plan_request = PlanRequest {
        protocol: req.protocol,
        submissions: req.submissions.clone(),
        items_per_category: req.items_per_category,
        split: req.split,
        invitation_only: req.invitation_only,
        batch_size: req.batch_size,
        raters_per_batch: req.raters_per_batch,
        planted_checks: req.planted_checks,
        seed,
    };
    let plan = plan_study(&plan_request, &board, &items, random_u64()?)
        .map_err(|e| ApiError::Unprocessable(e.message()))?;

    let invite = if req.invitation_only {
        Some(random_hex(16)?)
    } else {
        None
    };
    let study_id = format!("study-{}", random_hex(8)?);
    let mut tasks = Vec::new();
    let mut response_tasks = Vec::new();
    let raters = u32::try_from(req.raters_per_batch).unwrap_or(u32::MAX);
    for (mut spec, batches) in task_specs(&task.task.benchmark_id, req, &plan) {
        spec.study_id = Some(study_id.clone());
        let (record, rows) = judging::prepare_judging_task(storage, &spec).await?;
        let mut settings = StudySettings {
            participant_target: Some(batches.saturating_mul(raters).max(1)),
            ..StudySettings::default()
        };
        // Planted outputs are rating pages only, so the rule is on where there are some.
        settings.quality.planted_checks = req.planted_checks && planted_pages(&spec);
        settings.quality.min_item_ms = req.min_item_ms;
        let (link, prolific_link) = links(&spec.slug, invite.as_deref());
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
            study_json: serde_json::to_string(&settings).context("encode study settings")?,
        });
    }
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

/// JSON text of a study column.
fn encode<T: serde::Serialize>(value: &T) -> ApiResult<String> {
    serde_json::to_string(value)
        .map_err(|e| ApiError::Unexpected(anyhow::anyhow!("encode study column: {e}")))
}

/// A study and its source task, for an owner of the source task's benchmark (401/403/404 as
/// [`owners::authorize`]).
async fn authorized_study(
    state: &AppState,
    headers: &HeaderMap,
    slug: &str,
) -> ApiResult<(StudyRecord, Actor)> {
    let study = state
        .storage
        .find_study(slug)
        .await?
        .ok_or_else(|| ApiError::NotFound(msg!("study.not_found", slug = slug)))?;
    let source = state
        .storage
        .task_slug(&study.source_task_id)
        .await?
        .ok_or_else(|| ApiError::NotFound(msg!("study.not_found", slug = slug)))?;
    let actor = owners::authorize(state, headers, &source).await?;
    Ok((study, actor))
}

/// `GET /api/owner/studies/{slug}`: the study page (progress per batch, raters and
/// exclusions, κ per batch, α per dimension, the computed tables).
pub async fn study_page(state: &AppState, headers: &HeaderMap, slug: &str) -> ApiResult<StudyPage> {
    let (study, _actor) = authorized_study(state, headers, slug).await?;
    let storage = &state.storage;
    let (data, tasks) = study_data(storage, &study).await?;
    let ids: Vec<String> = tasks.iter().map(|t| t.task.id.clone()).collect();
    let fingerprint = combined_fingerprint(storage, &ids).await?;
    let computed = state
        .study_tables
        .get_or_compute(&format!("study/{}", study.id), fingerprint, move || {
            let summary = study_summary(&data).map_err(|e| e.to_string())?;
            let tables = study_tables(&data, HUMAN_EVAL_RESAMPLES, HUMAN_EVAL_SEED)
                .map_err(|e| e.to_string())?;
            Ok((summary, tables))
        })
        .await
        .context("computing the study's tables")?;
    let (summary, tables): (HumanEvalSummary, HumanTables) = computed
        .as_ref()
        .clone()
        .map_err(|e| ApiError::Unexpected(anyhow::anyhow!("study tables: {e}")))?;
    let request: CreateStudyRequest =
        storage::decode_json("studies.request_json", &study.request_json)?;
    let submission_ids: Vec<String> =
        storage::decode_json("studies.submissions_json", &study.submissions_json)?;
    let source_items: Vec<String> =
        storage::decode_json("studies.source_items_json", &study.source_items_json)?;
    let exposed: Vec<String> =
        storage::decode_json("studies.exposed_items_json", &study.exposed_items_json)?;
    let mut submissions = Vec::new();
    for id in submission_ids {
        let label = storage
            .find_submission(&id)
            .await?
            .map_or_else(|| id.clone(), |s| s.model_name);
        submissions.push(StudySubmission {
            submission_id: id,
            label,
        });
    }
    let raters = u32::try_from(request.raters_per_batch).unwrap_or(u32::MAX);
    let mut progress = Vec::new();
    for t in &tasks {
        let sizes = storage.batch_sizes(&t.task.id).await?;
        let mut completed: BTreeMap<i64, BTreeSet<&str>> = BTreeMap::new();
        let mut excluded: BTreeMap<i64, BTreeSet<&str>> = BTreeMap::new();
        for r in &t.rows {
            let (Some(b), Some(_)) = (r.batch, r.completed_at) else {
                continue;
            };
            completed.entry(b).or_default().insert(&r.session_id);
            if t.excluded.contains_key(&r.session_id) {
                excluded.entry(b).or_default().insert(&r.session_id);
            }
        }
        let batches: Vec<BatchProgress> = sizes
            .iter()
            .map(|&(b, n)| BatchProgress {
                batch: u32::try_from(b).unwrap_or(0),
                items: usize::try_from(n).unwrap_or(0),
                completed: completed.get(&b).map_or(0, BTreeSet::len),
                excluded: excluded.get(&b).map_or(0, BTreeSet::len),
            })
            .collect();
        let n = u32::try_from(batches.len()).unwrap_or(u32::MAX);
        let (link, prolific_link) = links(&t.task.slug, None);
        progress.push(StudyTaskProgress {
            task: StudyTaskLink {
                slug: t.task.slug.clone(),
                kind: t.task.kind.clone(),
                items: batches.iter().map(|b| b.items).sum(),
                batches: n,
                raters_target: n.saturating_mul(raters),
                link,
                prolific_link,
            },
            batches,
        });
    }
    let source_task = storage
        .task_slug(&study.source_task_id)
        .await?
        .unwrap_or_default();
    Ok(StudyPage {
        slug: study.slug,
        source_task,
        protocol: data_protocol(&study.protocol)?,
        created_at: study.created_at,
        created_by: study.created_by,
        invitation_only: study.invite_hash.is_some(),
        request,
        submissions,
        tasks: progress,
        source_items: source_items.len(),
        exposed_test_items: exposed,
        summary,
        tables,
    })
}

fn data_protocol(s: &str) -> ApiResult<StudyProtocol> {
    StudyProtocol::parse(s)
        .ok_or_else(|| ApiError::Unexpected(anyhow::anyhow!("unknown stored protocol `{s}`")))
}

/// The study slugs of a board (for the console's list).
pub async fn studies_of_board(
    state: &AppState,
    headers: &HeaderMap,
    source_slug: &str,
) -> ApiResult<Vec<String>> {
    let actor = owners::authorize(state, headers, source_slug).await?;
    Ok(state
        .storage
        .studies_of_task(&actor.task.task.id)
        .await?
        .into_iter()
        .map(|s| s.slug)
        .collect())
}

/// Every column of the judgement export, in file order, with its meaning.
pub const JUDGEMENT_COLUMNS: &[(&str, &str)] = &[
    ("study", "Study slug."),
    ("task", "Judging task slug (`<study>-rate` or `<study>-rank`)."),
    ("task_kind", "rating or ranking."),
    ("rater", "Rater pseudonym (the same construction as the answer export: per benchmark)."),
    ("session", "Session pseudonym."),
    ("batch", "The fixed batch the page belongs to."),
    ("item", "Judging item (page) id: random and opaque."),
    ("position", "Order shown: the page's position in the rater's batch (0-based)."),
    ("source_item", "The explanation item (meme or comic) judged."),
    ("category", "Its category (meme type, structure type)."),
    ("submission", "The submission whose output is judged; empty for planted outputs."),
    ("model", "That submission's model name."),
    ("planted", "reference or other_meaning for planted quality-check outputs; empty otherwise."),
    ("field", "What the value is about: meaning, origin, example (accuracy), a dimension (visual_correctness, panel_coherence, humour_comprehension, context_handling, faithfulness), or rank (rankings)."),
    ("value", "disagree / neutral / agree (accuracy), 1–3 (dimensions), or the rank given (1 = best, equal = tie)."),
    ("shown_at", "Rankings: the candidate's display position on the page (0-based, the rater's own shuffled order); empty for ratings."),
    ("response_ms", "Time on the page (ms, measured by the browser)."),
    ("answered_at", "When the judgement was stored (ms since the Unix epoch, UTC)."),
    ("completed", "1 when the rater finished the batch (only finished batches count in the tables)."),
    ("excluded", "1 when the rater's session is excluded by the study's quality rules."),
    ("exclusion_reason", "Why, as a code (e.g. failed_planted_checks); empty if not."),
];

/// One export row's values, in [`JUDGEMENT_COLUMNS`] order.
type ExportRow = Vec<serde_json::Value>;

fn export_rows(
    study: &StudyRecord,
    tasks: &[TaskJudgements],
    names: &BTreeMap<String, String>,
) -> ApiResult<Vec<ExportRow>> {
    use serde_json::{json, Value};
    let mut out = Vec::new();
    for t in tasks {
        for row in &t.rows {
            let gold: ItemGold = storage::decode_json("items.gold_json", &row.gold_json)?;
            let answer: AnswerValue =
                storage::decode_json("answers.answer_json", &row.answer_json)?;
            let reason = t.excluded.get(&row.session_id);
            let base = |batch: u32, source: &str, submission: Option<&str>, planted: Value| {
                vec![
                    json!(study.slug),
                    json!(t.task.slug),
                    json!(t.task.kind),
                    json!(pseudonym(
                        &study.benchmark_id,
                        "participant",
                        &row.participant_id
                    )),
                    json!(pseudonym(&study.benchmark_id, "session", &row.session_id)),
                    json!(batch),
                    json!(row.item_id),
                    json!(row.position),
                    json!(source),
                    json!(row.category),
                    json!(submission),
                    json!(submission.and_then(|s| names.get(s))),
                    planted,
                ]
            };
            let tail = |shown_at: Option<usize>| {
                vec![
                    json!(shown_at),
                    json!(row.response_ms),
                    json!(row.answered_at),
                    json!(i64::from(row.completed_at.is_some())),
                    json!(i64::from(reason.is_some())),
                    json!(reason.map(|r| r.code.as_str())),
                ]
            };
            let push = |out: &mut Vec<ExportRow>,
                        mut head: ExportRow,
                        field: &str,
                        value: Value,
                        shown: Option<usize>| {
                head.push(json!(field));
                head.push(value);
                head.extend(tail(shown));
                out.push(head);
            };
            match (gold, answer) {
                (ItemGold::Rating(g), AnswerValue::Rating(a)) => {
                    let planted = json!(g.planted.map(|p| match p {
                        rating::Planted::Reference => "reference",
                        rating::Planted::OtherMeaning => "other_meaning",
                    }));
                    let head = base(g.batch, &g.source_item, g.submission_id.as_deref(), planted);
                    match a {
                        rating::Answer::Accuracy {
                            meaning,
                            origin,
                            example,
                        } => {
                            for (field, v) in [
                                ("meaning", Some(meaning)),
                                ("origin", origin),
                                ("example", example),
                            ] {
                                if let Some(v) = v {
                                    push(
                                        &mut out,
                                        head.clone(),
                                        field,
                                        serde_json::to_value(v).unwrap_or(Value::Null),
                                        None,
                                    );
                                }
                            }
                        }
                        rating::Answer::Dimensions { scores } => {
                            for d in memeboard_core::human_eval::dimensions::Dimension::ALL {
                                if let Some(v) = scores.get(d) {
                                    push(&mut out, head.clone(), d.key(), json!(v), None);
                                }
                            }
                        }
                    }
                }
                (ItemGold::Ranking(g), AnswerValue::Ranking(a)) => {
                    let order: Vec<usize> =
                        serde_json::from_str(&row.option_order_json).unwrap_or_default();
                    for (k, (s, rank)) in g.submissions.iter().zip(&a.ranks).enumerate() {
                        let head = base(g.batch, &g.source_item, s.as_deref(), Value::Null);
                        let shown = order.iter().position(|&c| c == k);
                        push(&mut out, head, "rank", json!(rank), shown);
                    }
                }
                _ => {}
            }
        }
    }
    Ok(out)
}

/// `GET /api/owner/studies/{slug}/judgements.csv|.jsonl`: every judgement of the study, one
/// row per field, dimension or ranked candidate (logged as `export_judgements`).
pub async fn export_judgements(
    state: &AppState,
    headers: &HeaderMap,
    slug: &str,
    format: FileFormat,
) -> ApiResult<String> {
    let (study, actor) = authorized_study(state, headers, slug).await?;
    let storage = &state.storage;
    let mut tasks = Vec::new();
    for t in storage.study_tasks(&study.id).await? {
        tasks.push(task_judgements(storage, t).await?);
    }
    let ids: Vec<String> =
        storage::decode_json("studies.submissions_json", &study.submissions_json)?;
    let mut names = BTreeMap::new();
    for id in ids {
        if let Some(s) = storage.find_submission(&id).await? {
            names.insert(id, s.model_name);
        }
    }
    let rows = export_rows(&study, &tasks, &names)?;
    owners::log_action(
        storage,
        &actor,
        "export_judgements",
        &serde_json::json!({"study": study.slug, "format": match format { FileFormat::Csv => "csv", FileFormat::JsonLines => "jsonl" }, "rows": rows.len()}),
    )
    .await?;
    let mut out = String::new();
    match format {
        FileFormat::Csv => {
            out.push('\u{feff}');
            let header: Vec<&str> = JUDGEMENT_COLUMNS.iter().map(|(c, _)| *c).collect();
            out.push_str(&header.join(","));
            out.push_str("\r\n");
            for row in rows {
                let cells: Vec<String> = row
                    .iter()
                    .map(|v| match v {
                        serde_json::Value::Null => String::new(),
                        serde_json::Value::String(s) => csv_text(s),
                        other => other.to_string(),
                    })
                    .collect();
                out.push_str(&cells.join(","));
                out.push_str("\r\n");
            }
        }
        FileFormat::JsonLines => {
            for row in rows {
                let obj: serde_json::Map<String, serde_json::Value> = JUDGEMENT_COLUMNS
                    .iter()
                    .map(|(c, _)| (*c).to_owned())
                    .zip(row)
                    .collect();
                out.push_str(&serde_json::Value::Object(obj).to_string());
                out.push('\n');
            }
        }
    }
    Ok(out)
}

/// `GET /api/owner/studies/{slug}/tables.json`: the computed tables and the summary.
pub async fn export_tables(
    state: &AppState,
    headers: &HeaderMap,
    slug: &str,
) -> ApiResult<serde_json::Value> {
    let page = study_page(state, headers, slug).await?;
    Ok(serde_json::json!({
        "study": page.slug,
        "protocol": page.protocol,
        "submissions": page.submissions,
        "summary": page.summary,
        "tables": page.tables,
        "bootstrap": {"seed": HUMAN_EVAL_SEED, "resamples": HUMAN_EVAL_RESAMPLES, "unit": "source item"},
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rater_links_carry_the_invitation_and_prolific_parameters() {
        let (link, prolific) = links("s-rate", Some("abc"));
        assert_eq!(link, "/quiz/s-rate?invite=abc");
        assert_eq!(
            prolific,
            "/quiz/s-rate?invite=abc&PROLIFIC_PID={{%PROLIFIC_PID%}}&STUDY_ID={{%STUDY_ID%}}&SESSION_ID={{%SESSION_ID%}}"
        );
        assert!(links("s-rate", None)
            .1
            .starts_with("/quiz/s-rate?PROLIFIC_PID="));
    }

    #[test]
    fn the_export_dictionary_names_every_column_once_and_the_docs_list_them_in_order() {
        let names: BTreeSet<&str> = JUDGEMENT_COLUMNS.iter().map(|(c, _)| *c).collect();
        assert_eq!(names.len(), JUDGEMENT_COLUMNS.len());
        let doc = include_str!("../../docs/human-evaluation.md");
        let documented: Vec<&str> = doc
            .lines()
            .skip_while(|l| !l.starts_with("### Export"))
            .filter_map(|l| l.strip_prefix("| `")?.split('`').next())
            .collect();
        let served: Vec<&str> = JUDGEMENT_COLUMNS.iter().map(|(c, _)| *c).collect();
        assert_eq!(documented, served);
    }
}
