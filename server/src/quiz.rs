//! The quiz protocol: start a session (consent + survey + balanced batch), serve it without
//! gold, record each answer once, and build results and crowd statistics.

use crate::config::QuizSettings;
use crate::crowd_cache::CrowdCache;
use crate::error::{ApiError, ApiResult};
use crate::ids::{random_hex, time_ordered_id};
use crate::inference::EmbeddingService;
use crate::kinds::{typed_item, FeedbackContext, ServerKind, TypedItem};
use crate::quality;
use crate::storage::{
    self, NewAnswer, NewSession, QuizRow, RecordOutcome, SessionItemRow, SessionRow, Storage,
    TaskItemRow,
};
use anyhow::Context;
use memeboard_core::api::{
    BaselineLevel, CategoryScore, CrowdStatsResponse, QuizSummary, ResultsResponse, ReviewItem,
    SessionItem, SessionResponse, SessionStatus, StartSessionRequest, SubmitAnswerRequest,
    SubmitAnswerResponse, SubmitPrefaceRequest, SubmitPrefaceResponse,
};
use memeboard_core::assign::{assign_balanced, Candidate};
use memeboard_core::crowd::{agreement_by_dimension, category_rows, CrowdObservation, Rating};
use memeboard_core::kinds::{
    ItemPrompt, Kind, PromptView, ReviewDetail, ReviewInput, ScoreScale, Scoring, TaskKind,
};
use memeboard_core::messages::Message;
use memeboard_core::predictions::Split;
use memeboard_core::stats::AlphaLevel;
use memeboard_core::study::{
    completion_handoff, plan_checks, screenout_handoff, ExclusionReason, FlaggedPolicy, HandoffIds,
    ScreenOut, SessionCheck, SessionFacts, StudySettings, SubmitCheckRequest, SubmitCheckResponse,
};
use memeboard_core::tasks::{label_key, CategoryInfo, Familiarity};
use memeboard_core::{msg, with_kind};
use std::collections::BTreeMap;

/// Longest accepted idempotency key / recruitment id.
const MAX_KEY_LEN: usize = 128;
/// Seed of the quiz statistics' bootstrap (fixed so the same data always shows the same
/// interval; `memeboard stats --export` uses it too).
pub const BOOTSTRAP_SEED: u64 = 0x6d65_6d65_626f_6172;

fn random_u64() -> anyhow::Result<u64> {
    let mut buf = [0u8; 8];
    getrandom::fill(&mut buf).map_err(|e| anyhow::anyhow!("OS randomness unavailable: {e}"))?;
    Ok(u64::from_le_bytes(buf))
}

/// A completion code for recruitment platforms: 8 characters, no look-alikes.
fn completion_code() -> anyhow::Result<String> {
    const ALPHABET: &[u8] = b"ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
    let mut buf = [0u8; 8];
    getrandom::fill(&mut buf).map_err(|e| anyhow::anyhow!("OS randomness unavailable: {e}"))?;
    Ok(buf
        .iter()
        .map(|b| ALPHABET[usize::from(*b) % ALPHABET.len()] as char)
        .collect())
}

fn categories_of(quiz: &QuizRow) -> ApiResult<Vec<CategoryInfo>> {
    Ok(storage::decode_json(
        "tasks.categories_json",
        &quiz.task.categories_json,
    )?)
}

/// The public summary of a quiz.
pub fn summarize(quiz: &QuizRow) -> ApiResult<QuizSummary> {
    Ok(QuizSummary {
        slug: quiz.task.slug.clone(),
        title: quiz.task.title.clone(),
        description: quiz.task.description.clone(),
        benchmark: quiz.benchmark_title.clone(),
        task_kind: TaskKind::parse(&quiz.task.kind)
            .with_context(|| format!("unknown task kind `{}`", quiz.task.kind))?,
        batch_size: usize::try_from(quiz.task.batch_size).unwrap_or(0),
        item_count: usize::try_from(quiz.item_count).unwrap_or(0),
        categories: categories_of(quiz)?,
        completed_participants: usize::try_from(quiz.completed_participants).unwrap_or(0),
        open_percent: (quiz.item_count > 0).then(|| {
            u8::try_from((quiz.dev_count * 100 + quiz.item_count / 2) / quiz.item_count)
                .unwrap_or(100)
        }),
        allow_retake: quiz.allow_retake,
        full: target_reached(quiz)?.is_some(),
        invitation_only: quiz.invite_hash.is_some(),
    })
}

/// The quizzes listed on the home page: open tasks except judging tasks (raters come through
/// a study link, never the public list).
pub async fn public_quizzes(storage: &Storage) -> ApiResult<Vec<QuizSummary>> {
    let mut out = Vec::new();
    for quiz in storage.list_open_quizzes().await? {
        let summary = summarize(&quiz)?;
        if !summary.task_kind.is_judging() {
            out.push(summary);
        }
    }
    Ok(out)
}

/// The participant target when the quiz has reached it (completed sessions, see
/// `StudySettings::participant_target`).
fn target_reached(quiz: &QuizRow) -> ApiResult<Option<u32>> {
    let study = quality::study_settings(quiz.study_json.as_deref())?;
    Ok(study
        .participant_target
        .filter(|&t| quiz.completed_sessions >= i64::from(t)))
}

/// The ids a hand-off URL is filled with, from a stored session.
fn handoff_ids(session: &SessionRow) -> HandoffIds<'_> {
    HandoffIds {
        participant_id: &session.participant_id,
        prolific_pid: session.prolific_pid.as_deref(),
        study_id: session.study_id.as_deref(),
        session_id: session.recruitment_session_id.as_deref(),
        completion_code: session.completion_code.as_deref(),
    }
}

/// The study settings of a session's task.
async fn session_study(storage: &Storage, session: &SessionRow) -> ApiResult<StudySettings> {
    let json = storage
        .task_quality_switches(&session.task_id)
        .await?
        .and_then(|(json, _)| json);
    quality::study_settings(json.as_deref())
}

/// The screen-out of a session ended early: reason, redirect and code.
fn screen_out_of(session: &SessionRow, study: &StudySettings) -> ApiResult<Option<ScreenOut>> {
    let Some(json) = &session.screen_reason else {
        return Ok(None);
    };
    let reason: ExclusionReason = storage::decode_json("sessions.screen_reason", json)?;
    let (redirect_url, code) =
        screenout_handoff(&study.handoff, &handoff_ids(session)).unwrap_or_default();
    Ok(Some(ScreenOut {
        reason,
        redirect_url,
        code,
    }))
}

fn quiz_kind(quiz: &QuizRow) -> ApiResult<TaskKind> {
    TaskKind::parse(&quiz.task.kind).ok_or_else(|| {
        ApiError::Unexpected(anyhow::anyhow!("unknown task kind `{}`", quiz.task.kind))
    })
}

/// Finds an open quiz or answers 404 naming the slug.
pub async fn find_quiz(storage: &Storage, slug: &str) -> ApiResult<QuizRow> {
    storage
        .find_open_quiz(slug)
        .await?
        .ok_or_else(|| ApiError::NotFound(msg!("quiz.not_found", slug = slug)))
}

fn check_optional_id(field: &str, value: &Option<String>) -> ApiResult<()> {
    match value {
        Some(v) if v.len() > MAX_KEY_LEN || v.chars().any(char::is_control) => {
            Err(ApiError::BadRequest(msg!(
                "field.at_most_printable",
                field = field,
                max = MAX_KEY_LEN
            )))
        }
        _ => Ok(()),
    }
}

/// Starts a participant session: checks consent and survey, assigns a balanced batch
/// (least-exposed items first, flagged items skipped on request), and stores it. Returns the
/// session and whether it is new (`false`: a resent start, answered with its session).
pub async fn start_session(
    storage: &Storage,
    slug: &str,
    mut request: StartSessionRequest,
) -> ApiResult<(SessionResponse, bool)> {
    let quiz = find_quiz(storage, slug).await?;
    check_optional_id("invite", &request.invite)?;
    // Invitation-only studies admit only holders of the study link's secret.
    if let Some(stored) = &quiz.invite_hash {
        if !crate::judging::invite_matches(stored, request.invite.as_deref()) {
            return Err(ApiError::Forbidden(msg!(
                "judging.invite_required",
                slug = slug
            )));
        }
    }
    let kind = quiz_kind(&quiz)?;
    if !request.consent {
        return Err(ApiError::BadRequest(msg!("quiz.consent_required")));
    }
    request.survey.validate().map_err(ApiError::BadRequest)?;
    check_optional_id(
        "recruitment.prolific_pid",
        &request.recruitment.prolific_pid,
    )?;
    check_optional_id("recruitment.study_id", &request.recruitment.study_id)?;
    check_optional_id("recruitment.session_id", &request.recruitment.session_id)?;

    check_optional_id("participant_id", &request.participant_id)?;
    check_optional_id("participant_secret", &request.participant_secret)?;
    check_optional_id("start_key", &request.start_key)?;
    if request
        .start_key
        .as_deref()
        .is_some_and(|k| k.trim().is_empty())
    {
        return Err(ApiError::BadRequest(msg!("quiz.empty_start_key")));
    }
    // A resent start (same key): the session it created, not a second one.
    if let Some(key) = &request.start_key {
        if let Some((session_id, participant)) = storage.find_session_by_start_key(key).await? {
            let session = replay_start(storage, &quiz, &request, &session_id, &participant).await?;
            return Ok((session, false));
        }
    }
    let study = quality::study_settings(quiz.study_json.as_deref())?;
    // Prolific ids are stored and compared in their canonical form (case, spaces and
    // zero-width characters do not make a new participant).
    request.recruitment.prolific_pid = crate::participation::canonical_pid(
        request.recruitment.prolific_pid.as_deref(),
        &study,
        slug,
    )?;
    // Reusing a participant id needs the secret minted with it (ids are shown to participants
    // and are not secrets). Unknown ids, and ids created before secrets existed (nobody can
    // prove ownership of those), get a fresh participant; a wrong or missing secret for an id
    // that has one is refused.
    let existing = match &request.participant_id {
        Some(id) => match storage.participant_secret_hash(id).await? {
            Some(Some(stored)) => {
                let presented = request.participant_secret.as_deref().map(secret_hash);
                if presented.as_deref() != Some(stored.as_str()) {
                    return Err(ApiError::Forbidden(msg!("quiz.wrong_participant_secret")));
                }
                Some(id.clone())
            }
            Some(None) | None => None,
        },
        None => None,
    };
    // One participation per Prolific id (unless the owner allows more): an unfinished session
    // is resumed only by the participant who holds its secret, a finished or screened-out one
    // refused.
    if let Some(open) = crate::participation::prolific_resume(
        storage,
        &quiz,
        &study,
        request.recruitment.prolific_pid.as_deref(),
        existing.as_deref(),
        request.start_key.as_deref(),
    )
    .await?
    {
        let mut session = get_session(storage, &open).await?;
        session.participant_secret = None;
        return Ok((session, false));
    }
    if let Some(target) = target_reached(&quiz)? {
        return Err(ApiError::Conflict(msg!(
            "quiz.target_reached",
            slug = slug,
            target = target
        )));
    }
    // Judging tasks: one participation per rater, so that nobody judges an output twice (the
    // unfinished session is resumed, a finished one refused).
    if let (Some(id), true) = (&existing, kind.is_judging()) {
        if let Some(open) = crate::judging::earlier_participation(storage, id, &quiz).await? {
            let mut session = get_session(storage, &open).await?;
            session.participant_secret = None;
            return Ok((session, false));
        }
    }
    // A participant who finished this quiz sees their results instead of a second batch,
    // unless the owner allows retakes.
    if let Some(id) = &existing {
        if !quiz.allow_retake && storage.has_completed(id, &quiz.task.id).await? {
            return Err(ApiError::Conflict(msg!(
                "quiz.no_retake",
                participant = id,
                slug = slug
            )));
        }
    }
    let (participant_id, new_secret) = match existing {
        Some(id) => (id, None),
        None => (
            format!("P-{}", random_hex(6)?.to_uppercase()),
            Some(random_hex(16)?),
        ),
    };

    let needs_check = with_kind!(kind, K => K::NEEDS_HEADPHONE_CHECK);
    let headphone_json = if needs_check {
        Some(crate::headphones::score(storage, &quiz, request.headphone_check.take()).await?)
    } else {
        None
    };
    // A failed headphone check ends the session at once when the owner screens them out.
    let screen_reason = match &headphone_json {
        Some(json) if study.quality.screen_out_failed_headphones && study.has_screenout() => {
            let facts = SessionFacts {
                headphone_passed: serde_json::from_str::<serde_json::Value>(json)
                    .ok()
                    .and_then(|v| v["passed"].as_bool()),
                ..SessionFacts::default()
            };
            memeboard_core::study::exclusion(&study.quality, true, &facts)
                .map(|r| serde_json::to_string(&r).context("encode screen-out reason"))
                .transpose()?
        }
        _ => None,
    };
    let seed = random_u64()?;
    let items = if kind.is_judging() {
        crate::judging::assign_batch(storage, &quiz, &study, seed).await?
    } else {
        balanced_batch(storage, &quiz, &study, &request, kind, seed).await?
    };
    let session = NewSession {
        id: time_ordered_id(16)?,
        participant_id,
        task_id: quiz.task.id.clone(),
        seed: seed as i64,
        survey_json: serde_json::to_string(&request.survey).context("encode survey")?,
        prolific_pid: request.recruitment.prolific_pid.clone(),
        study_id: request.recruitment.study_id.clone(),
        recruitment_session_id: request.recruitment.session_id.clone(),
        items,
        start_key: request.start_key.clone(),
        headphone_json,
        attention_checks: i64::from(study.attention_checks),
        screen_reason,
    };
    let new_hash = new_secret.as_deref().map(secret_hash);
    if let Some(existing) = storage
        .create_session(&session, new_hash.as_deref())
        .await
        .map_err(start_not_stored)?
    {
        // A concurrent resend of this start won the race: answer with its session.
        let participant = get_session(storage, &existing).await?.participant_id;
        let session = replay_start(storage, &quiz, &request, &existing, &participant).await?;
        return Ok((session, false));
    }
    // The new session's answer is built from what the start holds (the session as stored,
    // the study settings read above, no checks answered yet); only the batch's items are read.
    let stored = session.stored_row(&quiz.task.slug, &quiz.task.title, kind);
    let rows = storage.session_items(&session.id).await?;
    let mut response = session_response(stored, &rows, &study, &[])?;
    response.participant_secret = new_secret;
    Ok((response, true))
}

/// A start that could not be stored (a failed group commit, a full disk) is a retryable 503
/// in the start's own words (the browser resends it with its start key); other failures as
/// usual.
fn start_not_stored(e: crate::storage::StorageError) -> ApiError {
    match e {
        crate::storage::StorageError::NotRecorded(cause) => {
            tracing::error!(error = %cause, "session start not stored");
            ApiError::Unavailable(msg!("session.not_stored"))
        }
        other => other.into(),
    }
}

/// A balanced batch for a quiz: the owner's categories and excluded items, the kind's
/// eligibility filter (clip languages), then equal quotas per category, least-exposed items
/// first, flagged items skipped on request.
async fn balanced_batch(
    storage: &Storage,
    quiz: &QuizRow,
    study: &StudySettings,
    request: &StartSessionRequest,
    kind: TaskKind,
    seed: u64,
) -> ApiResult<Vec<String>> {
    let filters = with_kind!(kind, K => K::FILTERS_BY_SURVEY);
    // The owner's item selection: categories (all when none chosen) and excluded items.
    let categories: Vec<String> = categories_of(quiz)?
        .into_iter()
        .map(|c| c.key)
        .filter(|k| study.categories.is_empty() || study.categories.contains(k))
        .collect();
    let mut rows = storage
        .assignment_candidates(&quiz.task.id, filters)
        .await?;
    rows.retain(|c| categories.contains(&c.category) && !study.excluded_items.contains(&c.id));
    if filters {
        // Only the items this participant may get (the clip task: their native language and
        // clips without language).
        let survey = &request.survey;
        let mut kept = Vec::with_capacity(rows.len());
        for c in rows {
            let prompt: ItemPrompt = storage::decode_json(
                "items.prompt_json",
                c.prompt_json.as_deref().unwrap_or_default(),
            )?;
            let eligible = with_kind!(kind, K => K::prompt_of(prompt)
                .map(|p| K::eligible(&p, survey))
                .map_err(|e| ApiError::Unexpected(anyhow::anyhow!("item {}: {e}", c.id)))?);
            if eligible {
                kept.push(c);
            }
        }
        rows = kept;
    }
    let candidates: Vec<Candidate> = rows
        .into_iter()
        .map(|c| Candidate {
            id: c.id,
            category: c.category,
            exposures: u64::try_from(c.exposures).unwrap_or(0),
            flagged: c.flagged,
        })
        .collect();
    let skip_flagged = request.survey.skip_flagged || study.flagged_policy == FlaggedPolicy::Never;
    let eligible = candidates
        .iter()
        .filter(|c| !(skip_flagged && c.flagged))
        .count();
    let batch_size = usize::try_from(quiz.task.batch_size)
        .unwrap_or(0)
        .min(eligible);
    if batch_size == 0 {
        return Err(ApiError::Conflict(msg!(
            "quiz.no_items",
            slug = quiz.task.slug
        )));
    }
    assign_balanced(&candidates, &categories, batch_size, skip_flagged, seed).map_err(|e| {
        ApiError::Conflict(
            Message::new("quiz.cannot_assign").with_message("reason", e.to_message()),
        )
    })
}

/// The answer to a resent start: the session the key created. Its participant secret went
/// out only in the first response, which the client may never have received; so unless the
/// request proves it holds the secret already, a new one replaces it and is sent now. Only the
/// client that made the (random, never shown) start key can get here.
async fn replay_start(
    storage: &Storage,
    quiz: &QuizRow,
    request: &StartSessionRequest,
    session_id: &str,
    participant: &str,
) -> ApiResult<SessionResponse> {
    let mut response = get_session(storage, session_id).await?;
    if response.quiz_slug != quiz.task.slug {
        return Err(ApiError::Conflict(msg!("quiz.start_key_other_quiz")));
    }
    let holds_secret = request.participant_id.as_deref() == Some(participant)
        && match (
            storage
                .participant_secret_hash(participant)
                .await?
                .flatten(),
            request.participant_secret.as_deref(),
        ) {
            (Some(stored), Some(presented)) => secret_hash(presented) == stored,
            _ => false,
        };
    if !holds_secret {
        let secret = random_hex(16)?;
        storage
            .set_participant_secret(participant, &secret_hash(&secret))
            .await?;
        response.participant_secret = Some(secret);
    }
    Ok(response)
}

/// SHA-256 (hex) of a participant secret; only this is stored. Comparing digests with `==`
/// leaks nothing useful: timing reveals at most a prefix of a hash of an unknown secret.
fn secret_hash(secret: &str) -> String {
    use sha2::{Digest, Sha256};
    Sha256::digest(secret.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

async fn find_session(storage: &Storage, id: &str) -> ApiResult<SessionRow> {
    storage
        .find_session(id)
        .await?
        .ok_or_else(|| ApiError::NotFound(msg!("session.not_found", id = id)))
}

/// The item row as the kinds' board code sees it.
fn item_row(row: &SessionItemRow) -> TaskItemRow {
    TaskItemRow {
        id: row.item_id.clone(),
        category: row.category.clone(),
        prompt_json: row.prompt_json.clone(),
        gold_json: row.gold_json.clone(),
        split: row.split,
        board_half: row.board_half,
    }
}

/// Checks an answer against what the participant was shown and scores it where the kind
/// can (nothing is stored here).
fn accept<K: Kind>(
    session: &SessionRow,
    item: &TypedItem<K>,
    key: &str,
    request: &SubmitAnswerRequest,
) -> ApiResult<NewAnswer> {
    let (prompt, gold) = (&item.prompt, &item.gold);
    let input = K::input_of(request.answer.clone())
        .map_err(|_| ApiError::BadRequest(msg!("answer.wrong_kind", expected = K::INPUT_TAG)))?;
    let order = K::present(prompt, session.seed as u64, &item.row.id).order;
    let answer =
        K::accept(prompt, &order, input).map_err(|e| ApiError::BadRequest(e.to_message()))?;
    let score = match K::score(gold, &answer) {
        Scoring::Scored(outcome) => Some(K::primary(&outcome)),
        Scoring::Pending | Scoring::Unscored => None,
    };
    let choice = K::choice(&answer).and_then(|c| i64::try_from(c).ok());
    Ok(NewAnswer {
        id: time_ordered_id(12)?,
        session_id: session.id.clone(),
        item_id: request.item_id.clone(),
        idempotency_key: key.to_owned(),
        answer_json: serde_json::to_string(&K::wire_answer(answer)).context("encode answer")?,
        option_order_json: serde_json::to_string(&order).context("encode order")?,
        choice,
        score,
        response_ms: i64::try_from(request.response_ms).unwrap_or(i64::MAX),
    })
}

/// How an item is shown to one participant, and the display order (for kinds with options).
/// For kinds with a preface, the question stays out until the preface answer is stored.
fn prompt_view(seed: u64, row: &SessionItemRow) -> ApiResult<(PromptView, Vec<usize>)> {
    let prompt: ItemPrompt = storage::decode_json("items.prompt_json", &row.prompt_json)?;
    with_kind!(prompt.kind(), K => {
        let prompt = K::prompt_of(prompt)
            .map_err(|e| ApiError::Unexpected(anyhow::anyhow!("item {}: {e}", row.item_id)))?;
        let shown = K::present(&prompt, seed, &row.item_id);
        let view = if K::PREFACE && row.preface.is_none() {
            K::before_preface(shown.view)
        } else {
            shown.view
        };
        Ok((K::wire_view(view), shown.order))
    })
}

/// A batch item as the participant sees it now.
fn session_item(seed: u64, row: &SessionItemRow) -> ApiResult<SessionItem> {
    let (prompt, _) = prompt_view(seed, row)?;
    Ok(SessionItem {
        position: usize::try_from(row.position).unwrap_or(0),
        item_id: row.item_id.clone(),
        category: row.category.clone(),
        content_warning: row.flagged,
        prompt,
        answered: row.answered,
        preface: row.preface.as_deref().and_then(parse_familiarity),
    })
}

/// A stored familiarity key.
fn parse_familiarity(key: &str) -> Option<Familiarity> {
    serde_json::from_value(serde_json::Value::String(key.to_owned())).ok()
}

/// Stores the familiarity answer of one item before its question is sent, exactly once: a
/// resend of the same answer gets the item again (200), another answer is refused (409).
pub async fn submit_preface(
    storage: &Storage,
    session_id: &str,
    request: SubmitPrefaceRequest,
) -> ApiResult<(SubmitPrefaceResponse, bool)> {
    let session = find_session(storage, session_id).await?;
    let has_preface = with_kind!(session.task_kind, K => K::PREFACE);
    if !has_preface {
        return Err(ApiError::BadRequest(msg!(
            "preface.none",
            slug = session.quiz_slug
        )));
    }
    let rows = storage.session_items(session_id).await?;
    let row = rows
        .iter()
        .find(|r| r.item_id == request.item_id)
        .ok_or_else(|| {
            ApiError::Unprocessable(msg!("session.item_not_in_batch", item = request.item_id))
        })?;
    let key = label_key(&request.familiarity);
    let (stored, inserted) = storage
        .record_preface(session_id, &request.item_id, &key)
        .await?;
    if stored != key {
        return Err(ApiError::Conflict(msg!(
            "preface.already_answered",
            item = request.item_id,
            stored = stored
        )));
    }
    let mut row = row.clone();
    row.preface = Some(stored);
    let item = session_item(session.seed as u64, &row)?;
    Ok((
        SubmitPrefaceResponse {
            replayed: !inserted,
            item,
        },
        inserted,
    ))
}

/// A session as the participant sees it: the batch with options in their shuffled order and
/// answered flags — never gold, never right/wrong.
pub async fn get_session(storage: &Storage, id: &str) -> ApiResult<SessionResponse> {
    let session = find_session(storage, id).await?;
    let rows = storage.session_items(id).await?;
    let study = session_study(storage, &session).await?;
    let answered_checks = storage.session_checks(id).await?;
    session_response(session, &rows, &study, &answered_checks)
}

/// [`get_session`]'s answer from what was read: the session, its batch, its quiz's study
/// settings and the attention checks answered so far (`(index, passed)`).
fn session_response(
    session: SessionRow,
    rows: &[SessionItemRow],
    study: &StudySettings,
    answered_checks: &[(i64, bool)],
) -> ApiResult<SessionResponse> {
    let seed = session.seed as u64;
    let items = rows
        .iter()
        .map(|row| session_item(seed, row))
        .collect::<ApiResult<Vec<_>>>()?;
    let answered = items.iter().filter(|i| i.answered).count();
    let checks = plan_checks(
        seed,
        rows.len(),
        u8::try_from(session.attention_checks).unwrap_or(0),
    )
    .into_iter()
    .map(|plan| SessionCheck {
        answered: answered_checks
            .iter()
            .any(|(i, _)| *i == i64::from(plan.index)),
        plan,
    })
    .collect();
    let screen_out = screen_out_of(&session, study)?;
    let redirect = session
        .completion_code
        .as_ref()
        .and_then(|_| completion_handoff(&study.handoff, &handoff_ids(&session)));
    let (redirect_url, redirect_code) = redirect.unzip();
    Ok(SessionResponse {
        checks,
        screen_out,
        redirect_url,
        redirect_code,
        session_id: session.id,
        participant_id: session.participant_id,
        quiz_slug: session.quiz_slug,
        quiz_title: session.quiz_title,
        status: if session.completion_code.is_some() {
            SessionStatus::Completed
        } else {
            SessionStatus::InProgress
        },
        next_position: items.iter().find(|i| !i.answered).map(|i| i.position),
        answered,
        items,
        completion_code: session.completion_code,
        participant_secret: None,
    })
}

/// Records one answer exactly once, or refuses it with the reason (nothing is stored then).
/// Explanations are stored first and scored afterwards: a scoring failure never loses the
/// answer, it is reported in `feedback.scoring_error`.
pub async fn submit_answer(
    storage: &Storage,
    embeddings: &EmbeddingService,
    session_id: &str,
    request: SubmitAnswerRequest,
) -> ApiResult<(SubmitAnswerResponse, bool)> {
    let key = request.idempotency_key.trim();
    if key.is_empty() || key.len() > MAX_KEY_LEN {
        return Err(ApiError::BadRequest(msg!(
            "field.key_chars",
            field = "idempotency_key",
            max = MAX_KEY_LEN
        )));
    }
    // One read: the session and the answered item (the batch's other items are not needed).
    let target = storage
        .answer_target(session_id, &request.item_id)
        .await?
        .ok_or_else(|| ApiError::NotFound(msg!("session.not_found", id = session_id)))?;
    if target.session.screen_reason.is_some() {
        return Err(ApiError::Conflict(msg!("quiz.screened_out")));
    }
    let item = target.item.ok_or_else(|| {
        ApiError::Unprocessable(msg!("session.item_not_in_batch", item = request.item_id))
    })?;
    let session = target.session;
    with_kind!(session.task_kind, K => {
        answer_as::<K>(storage, embeddings, &session, item, target.preface.is_some(), key, &request)
            .await
    })
}

/// [`submit_answer`] once the item is found: the item is decoded once as its kind, the answer
/// checked, recorded exactly once, and the kind's feedback built.
async fn answer_as<K: ServerKind>(
    storage: &Storage,
    embeddings: &EmbeddingService,
    session: &SessionRow,
    row: TaskItemRow,
    has_preface: bool,
    key: &str,
    request: &SubmitAnswerRequest,
) -> ApiResult<(SubmitAnswerResponse, bool)> {
    if K::PREFACE && !has_preface {
        return Err(ApiError::Conflict(msg!(
            "preface.first",
            item = request.item_id,
            session = session.id
        )));
    }
    let item = typed_item::<K>(row)?;
    let new = accept::<K>(session, &item, key, request)?;
    let code = completion_code()?;
    let total = usize::try_from(session.batch_size).unwrap_or(0);
    let (answered, completion_code, replayed) = match storage.record_answer(new, code).await? {
        RecordOutcome::Recorded {
            answered,
            completion_code,
        } => (answered, completion_code, false),
        RecordOutcome::Replayed {
            answered,
            completion_code,
        } => (answered, completion_code, true),
        RecordOutcome::AlreadyAnswered => {
            return Err(ApiError::Conflict(msg!(
                "answer.duplicate",
                item = request.item_id
            )))
        }
        RecordOutcome::KeyReused => {
            return Err(ApiError::Conflict(msg!("answer.key_reused", key = key)))
        }
        RecordOutcome::KeyReusedWithAnotherAnswer => {
            return Err(ApiError::Conflict(msg!(
                "answer.key_reused_other_answer",
                key = key
            )))
        }
    };
    let ctx = FeedbackContext {
        storage,
        embeddings,
        task_id: &session.task_id,
        session_id: &session.id,
        item_id: &item.row.id,
    };
    let feedback = K::feedback(ctx, &item).await?;
    // The completion hand-off goes out with the acknowledgement of the last answer (after
    // COMMIT), so the app can follow it at once.
    let (redirect_url, redirect_code) = match &completion_code {
        Some(code) => {
            let study = session_study(storage, session).await?;
            let mut ids = handoff_ids(session);
            ids.completion_code = Some(code.as_str());
            completion_handoff(&study.handoff, &ids).unzip()
        }
        None => (None, None),
    };
    let response = SubmitAnswerResponse {
        redirect_url,
        redirect_code,
        recorded: true,
        replayed,
        answered: usize::try_from(answered).unwrap_or(0),
        total,
        completion_code,
        feedback,
    };
    Ok((response, !replayed))
}

/// What the crowd statistics need to know about each item of a quiz: its number of choices
/// (agreement categories) and its baseline level (chance, or the random-pair similarity).
struct ItemFacts {
    choices: BTreeMap<String, Option<usize>>,
    baseline: Option<BaselineLevel>,
}

/// The mean of per-item baseline levels; exactly the level when all items share it (1/5 stays
/// 0.2, not a sum's rounding of it).
fn mean_level(levels: &[f64]) -> Option<f64> {
    let first = *levels.first()?;
    if levels.iter().all(|&l| l == first) {
        Some(first)
    } else {
        Some(levels.iter().sum::<f64>() / levels.len() as f64)
    }
}

/// Each item's number of choices (agreement categories), for the owner's progress view.
pub(crate) async fn item_choices(
    storage: &Storage,
    task_id: &str,
    kind: TaskKind,
) -> ApiResult<BTreeMap<String, Option<usize>>> {
    let rows = storage.task_items(task_id).await?;
    with_kind!(kind, K => {
        let mut choices = BTreeMap::new();
        for row in rows {
            let item = typed_item::<K>(row)?;
            choices.insert(item.row.id.clone(), K::num_choices(&item.prompt));
        }
        Ok(choices)
    })
}

async fn item_facts(storage: &Storage, quiz: &QuizRow, kind: TaskKind) -> ApiResult<ItemFacts> {
    let task_baseline = storage.task_baseline(&quiz.task.id).await?.map(|(b, _)| b);
    let rows = storage.task_items(&quiz.task.id).await?;
    with_kind!(kind, K => {
        let mut choices = BTreeMap::new();
        let mut levels = Vec::new();
        for row in rows {
            let item = typed_item::<K>(row)?;
            levels.extend(K::baseline(&item, task_baseline));
            choices.insert(item.row.id.clone(), K::num_choices(&item.prompt));
        }
        let baseline = mean_level(&levels).map(|value| BaselineLevel {
            kind: K::BASELINE_ROW,
            value,
        });
        Ok(ItemFacts { choices, baseline })
    })
}

/// Crowd answers as observations: every answer of a completed batch counts (unscored ones
/// too), and choices feed nominal agreement over the item's real number of options.
fn observations(rows: Vec<storage::CrowdResponseRow>, facts: &ItemFacts) -> Vec<CrowdObservation> {
    rows.into_iter()
        .map(|r| {
            let num_categories = facts.choices.get(&r.item_id).copied().flatten();
            let ratings = r
                .choice
                .and_then(|c| usize::try_from(c).ok())
                .map(|c| Rating {
                    dimension: "choice".into(),
                    level: AlphaLevel::Nominal,
                    value: c as f64,
                    num_categories,
                })
                .into_iter()
                .collect();
            CrowdObservation {
                participant: r.participant_id,
                item: r.item_id,
                category: r.category,
                facets: Vec::new(),
                subsets: Vec::new(),
                score: r.score,
                ratings,
            }
        })
        .collect()
}

/// The crowd table of a quiz: category rows with bootstrap intervals and agreement, bounded
/// as published (see `crate::published`). Pure CPU work (run on the blocking pool); the
/// baseline level and the count of completed participants are set by the caller.
fn crowd_tables(
    slug: String,
    categories: &[String],
    observations: &[CrowdObservation],
    bounds: Option<&crate::published::CrowdBounds>,
    resamples: usize,
) -> CrowdStatsResponse {
    let mut rows = category_rows(observations, categories, None, resamples, BOOTSTRAP_SEED);
    let mut agreement = agreement_by_dimension(observations);
    if let Some(b) = bounds {
        b.apply_rows(&mut rows);
        b.apply_agreement(&mut agreement);
    }
    CrowdStatsResponse {
        quiz_slug: slug,
        completed_participants: 0,
        rows,
        baseline: None,
        agreement,
    }
}

/// The crowd statistics of a quiz, reused while its crowd data is unchanged and otherwise
/// computed once off the executor (see `crowd_cache`). `rows` are the crowd responses if the
/// caller already has them. Over hidden test items the figures are a bounded snapshot (see
/// `crate::published`): they move only when the participant count crosses the next step.
async fn cached_crowd_stats(
    storage: &Storage,
    cache: &CrowdCache<CrowdStatsResponse>,
    quiz: &QuizRow,
    facts: &ItemFacts,
    rows: Option<Vec<storage::CrowdResponseRow>>,
    settings: &QuizSettings,
) -> ApiResult<CrowdStatsResponse> {
    let fingerprint = storage.crowd_fingerprint(&quiz.task.id).await?;
    let key = quiz.task.id.clone();
    let stats = match cache.stored(&key, fingerprint) {
        Some(stats) => stats,
        None => {
            let rows = match rows {
                Some(rows) => rows,
                None => quality::crowd_responses(storage, &quiz.task.id).await?.0,
            };
            let completed = quality::participants(&rows);
            let surface = format!("stats:{}", quiz.task.id);
            let noise = crate::published::surface_noise(storage, surface, settings).await?;
            let snap = crate::published::crowd_snapshot(rows, settings, noise);
            let observations = observations(snap.rows, facts);
            let categories: Vec<String> = categories_of(quiz)?.into_iter().map(|c| c.key).collect();
            let slug = quiz.task.slug.clone();
            let (bounds, resamples) = (snap.bounds, settings.bootstrap_resamples);
            cache
                .get_or_compute(&key, fingerprint, move || {
                    let mut t =
                        crowd_tables(slug, &categories, &observations, bounds.as_ref(), resamples);
                    t.completed_participants = completed;
                    t
                })
                .await
                .context("computing crowd statistics")?
        }
    };
    let mut response = (*stats).clone();
    response.baseline = facts.baseline;
    Ok(response)
}

/// The crowd baseline of a quiz (completed batches only; no gold).
pub async fn crowd_stats(
    storage: &Storage,
    cache: &CrowdCache<CrowdStatsResponse>,
    slug: &str,
    settings: &QuizSettings,
) -> ApiResult<CrowdStatsResponse> {
    let quiz = find_quiz(storage, slug).await?;
    let facts = item_facts(storage, &quiz, quiz_kind(&quiz)?).await?;
    cached_crowd_stats(storage, cache, &quiz, &facts, None, settings).await
}

/// One reviewed item: the kind's review and, when the answer is scored, its primary score and
/// whether it was correct (kinds with right and wrong answers).
type Reviewed = (ReviewDetail, Option<(f64, Option<bool>)>);

fn review_of<K: Kind>(seed: u64, row: &SessionItemRow, withheld: bool) -> ApiResult<Reviewed> {
    let TypedItem { prompt, gold, .. } = typed_item::<K>(item_row(row))?;
    let answer_json = row
        .answer_json
        .as_deref()
        .ok_or_else(|| ApiError::Unexpected(anyhow::anyhow!("answer missing")))?;
    let answer = K::answer_of(storage::decode_json("answers.answer_json", answer_json)?)
        .map_err(|e| ApiError::Unexpected(anyhow::anyhow!("item {}: {e}", row.item_id)))?;
    let order = K::present(&prompt, seed, &row.item_id).order;
    let outcome: Option<K::Outcome> = match K::score(&gold, &answer) {
        Scoring::Scored(o) => Some(o),
        Scoring::Pending => row
            .scores_json
            .as_deref()
            .map(|j| storage::decode_json("answers.scores_json", j))
            .transpose()?,
        Scoring::Unscored => None,
    };
    let review = K::review(ReviewInput {
        prompt: &prompt,
        order: &order,
        answer: &answer,
        gold: (!withheld).then_some(&gold),
        outcome: outcome.as_ref().filter(|_| !withheld),
        // The meaning is the gold of the meme's explanation item: shown only when that item
        // is open too (a dev question's meme may be a hidden explanation item).
        source_note: row
            .meaning
            .as_deref()
            .filter(|_| row.meaning_split != Some(Split::Test)),
    });
    let scored = outcome.as_ref().map(|o| (K::primary(o), K::correct(o)));
    Ok((K::wire_review(review), scored))
}

/// Results of a finished batch: own scores, crowd rows, and the per-item review with gold
/// where it may be shown. Refused (409) while any item of the batch is unanswered.
///
/// Own scores count only the open dev items: a score over hidden test items would let anyone
/// find their answers by retaking the quiz with one answer changed (the held-out count is
/// reported instead).
pub async fn results(
    storage: &Storage,
    cache: &CrowdCache<CrowdStatsResponse>,
    session_id: &str,
    settings: &QuizSettings,
) -> ApiResult<ResultsResponse> {
    let min_item_crowd = settings.min_item_crowd;
    let session = find_session(storage, session_id).await?;
    let rows = storage.session_items(session_id).await?;
    let unanswered = rows.iter().filter(|r| !r.answered).count();
    let Some(completion_code) = session.completion_code.clone().filter(|_| unanswered == 0) else {
        return Err(ApiError::Conflict(msg!(
            "results.unanswered",
            unanswered = unanswered,
            total = rows.len()
        )));
    };
    let quiz = find_quiz(storage, &session.quiz_slug).await?;
    let kind = session.task_kind;
    let facts = item_facts(storage, &quiz, kind).await?;
    let crowd_rows_raw = quality::crowd_responses(storage, &quiz.task.id).await?.0;
    // Per-item crowd figures: other participants only (the viewer's own answer in the mean
    // would reveal its correctness), only with at least `min_item_crowd` of them, and only
    // for open dev items (see below). Per item: (sum of scores, answers, participants).
    type ItemCrowd<'a> = (f64, usize, std::collections::BTreeSet<&'a str>);
    let mut per_item: BTreeMap<&str, ItemCrowd> = BTreeMap::new();
    for r in &crowd_rows_raw {
        if r.participant_id == session.participant_id {
            continue;
        }
        if let Some(score) = r.score {
            let e = per_item.entry(r.item_id.as_str()).or_default();
            e.0 += score;
            e.1 += 1;
            e.2.insert(r.participant_id.as_str());
        }
    }
    let crowd_of = |item: &str| {
        per_item
            .get(item)
            .filter(|(_, _, who)| who.len() >= min_item_crowd.max(1))
            .map(|(s, n, _)| s / *n as f64)
    };
    let per_item_figures: BTreeMap<String, Option<f64>> = rows
        .iter()
        .map(|r| {
            let figure = (r.split == Split::Dev)
                .then(|| crowd_of(&r.item_id))
                .flatten();
            (r.item_id.clone(), figure)
        })
        .collect();
    let crowd = cached_crowd_stats(
        storage,
        cache,
        &quiz,
        &facts,
        Some(crowd_rows_raw),
        settings,
    )
    .await?;

    let seed = session.seed as u64;
    let mut review = Vec::with_capacity(rows.len());
    let mut held_out = 0;
    // Per category: (sum of scores, correct answers, scored answers).
    let mut tally: BTreeMap<Option<String>, (f64, usize, usize)> = BTreeMap::new();
    // Explanation scores of hidden test items: (sum, count), shown only as one rounded mean.
    let mut hidden = (0.0f64, 0usize);
    for row in &rows {
        let withheld = row.split != Split::Dev;
        let (detail, scored) = with_kind!(kind, K => review_of::<K>(seed, row, withheld)?);
        if withheld {
            held_out += 1;
            if let Some((score, _)) = scored {
                hidden.0 += score;
                hidden.1 += 1;
            }
        } else if let Some((score, correct)) = scored {
            for key in [None, Some(row.category.clone())] {
                let t = tally.entry(key).or_default();
                t.0 += score;
                t.1 += usize::from(correct == Some(true));
                t.2 += 1;
            }
        }
        review.push(ReviewItem {
            position: usize::try_from(row.position).unwrap_or(0),
            item_id: row.item_id.clone(),
            category: row.category.clone(),
            gold_withheld: withheld,
            crowd_accuracy: per_item_figures.get(&row.item_id).copied().flatten(),
            detail,
        });
    }
    let scale = with_kind!(kind, K => K::SCALE);
    // Similarity kinds: one mean over the hidden items, rounded to 0.1 — coarse enough that
    // retaking the quiz with one answer changed cannot hill-climb a hidden reference.
    // Correctness kinds get none: their hidden answers are right or wrong, and any mean over
    // them moves by a whole answer.
    let hidden_items = match scale {
        ScoreScale::Similarity => (hidden.1 > 0).then(|| CategoryScore {
            category: None,
            correct: None,
            answered: hidden.1,
            mean: (hidden.0 / hidden.1 as f64 * 10.0).round() / 10.0,
        }),
        ScoreScale::Correctness => None,
    };
    let categories = categories_of(&quiz)?;
    let mut you = Vec::new();
    for key in std::iter::once(None).chain(categories.iter().map(|c| Some(c.key.clone()))) {
        if let Some((sum, correct, answered)) = tally.get(&key) {
            you.push(CategoryScore {
                category: key,
                correct: (scale == ScoreScale::Correctness).then_some(*correct),
                answered: *answered,
                mean: sum / (*answered).max(1) as f64,
            });
        }
    }
    let study = session_study(storage, &session).await?;
    let (redirect_url, redirect_code) =
        completion_handoff(&study.handoff, &handoff_ids(&session)).unzip();
    Ok(ResultsResponse {
        redirect_url,
        redirect_code,
        session_id: session.id,
        participant_id: session.participant_id,
        quiz_slug: session.quiz_slug,
        completion_code,
        task_kind: kind,
        scale,
        held_out,
        you,
        crowd,
        review,
        hidden_items,
    })
}

/// Stores the answer to one attention check exactly once (a resend of the same choice is
/// acknowledged, another choice refused). With a screen-out set and the owner's limit of
/// failed checks reached, the session ends here and the response says where to go.
pub async fn submit_check(
    storage: &Storage,
    session_id: &str,
    request: SubmitCheckRequest,
) -> ApiResult<(SubmitCheckResponse, bool)> {
    let session = find_session(storage, session_id).await?;
    let plan = plan_checks(
        session.seed as u64,
        usize::try_from(session.batch_size).unwrap_or(0),
        u8::try_from(session.attention_checks).unwrap_or(0),
    );
    let check = plan
        .iter()
        .find(|c| c.index == request.index)
        .ok_or_else(|| {
            ApiError::Unprocessable(msg!(
                "check.unknown_index",
                count = plan.len(),
                found = request.index
            ))
        })?;
    if request.choice >= check.num_options {
        return Err(ApiError::BadRequest(msg!(
            "check.choice_range",
            max = check.num_options - 1,
            found = request.choice
        )));
    }
    let study = session_study(storage, &session).await?;
    if session.screen_reason.is_some() {
        return Ok((
            SubmitCheckResponse {
                replayed: true,
                screen_out: screen_out_of(&session, &study)?,
            },
            false,
        ));
    }
    let (stored, inserted) = storage
        .record_check(
            session_id,
            i64::from(request.index),
            i64::from(request.choice),
            request.choice == check.target,
            i64::try_from(request.response_ms).unwrap_or(i64::MAX),
        )
        .await?;
    if stored != i64::from(request.choice) {
        return Err(ApiError::Conflict(msg!(
            "check.already_answered",
            index = request.index
        )));
    }
    // Screen out once the failures reach the owner's limit (unfinished sessions only).
    let mut screen_out = None;
    if session.completion_code.is_none() && study.has_screenout() {
        if let Some(limit) = study.quality.fail_checks_at_least {
            let answers = storage.session_checks(session_id).await?;
            let (_, failed) = quality::check_tally(&answers);
            if failed >= limit as usize {
                let facts = SessionFacts {
                    checks_planned: plan.len(),
                    checks_answered: answers.len(),
                    checks_failed: failed,
                    ..SessionFacts::default()
                };
                if let Some(reason) =
                    memeboard_core::study::exclusion(&study.quality, false, &facts)
                {
                    let json =
                        serde_json::to_string(&reason).context("encode screen-out reason")?;
                    storage.screen_out(session_id, &json).await?;
                    let session = find_session(storage, session_id).await?;
                    screen_out = screen_out_of(&session, &study)?;
                }
            }
        }
    }
    Ok((
        SubmitCheckResponse {
            replayed: !inserted,
            screen_out,
        },
        inserted,
    ))
}
