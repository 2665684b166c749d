//! The quiz protocol: start a session (consent + survey + balanced batch), serve it without
//! gold, record each answer once, and build results and crowd statistics.

use crate::error::{ApiError, ApiResult};
use crate::storage::{
    self, NewAnswer, NewSession, QuizRow, RecordOutcome, SessionItemRow, SessionRow, Storage,
};
use anyhow::Context;
use memeboard_core::api::{
    AnswerInput, CategoryScore, CrowdStatsResponse, PromptView, QuizSummary, ResultsResponse,
    ReviewItem, SessionItem, SessionResponse, SessionStatus, StartSessionRequest,
    SubmitAnswerRequest, SubmitAnswerResponse,
};
use memeboard_core::assign::{assign_balanced, option_order, Candidate};
use memeboard_core::crowd::{choice_agreement, crowd_rows, CrowdAnswer};
use memeboard_core::scoring::score_answer;
use memeboard_core::tasks::{AnswerValue, CategoryInfo, ItemGold, ItemPrompt, TaskKind};
use std::collections::BTreeMap;

/// Longest accepted idempotency key / recruitment id.
const MAX_KEY_LEN: usize = 128;
/// Seed of the bootstrap (fixed so the same data always shows the same interval).
const BOOTSTRAP_SEED: u64 = 0x6d65_6d65_626f_6172;

/// Random hex string of `bytes` random bytes (OS randomness).
pub fn random_hex(bytes: usize) -> anyhow::Result<String> {
    let mut buf = vec![0u8; bytes];
    getrandom::fill(&mut buf).map_err(|e| anyhow::anyhow!("OS randomness unavailable: {e}"))?;
    Ok(buf.iter().map(|b| format!("{b:02x}")).collect())
}

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
    })
}

/// Finds an open quiz or answers 404 naming the slug.
pub async fn find_quiz(storage: &Storage, slug: &str) -> ApiResult<QuizRow> {
    storage
        .find_open_quiz(slug)
        .await?
        .ok_or_else(|| ApiError::NotFound(format!("no open quiz named `{slug}`")))
}

fn check_optional_id(field: &str, value: &Option<String>) -> ApiResult<()> {
    match value {
        Some(v) if v.len() > MAX_KEY_LEN || v.chars().any(char::is_control) => {
            Err(ApiError::BadRequest(format!(
                "`{field}`: expected at most {MAX_KEY_LEN} printable characters"
            )))
        }
        _ => Ok(()),
    }
}

/// Starts a participant session: checks consent and survey, assigns a balanced batch
/// (least-exposed items first, flagged items skipped on request), and stores it.
pub async fn start_session(
    storage: &Storage,
    slug: &str,
    request: StartSessionRequest,
) -> ApiResult<SessionResponse> {
    let quiz = find_quiz(storage, slug).await?;
    if !request.consent {
        return Err(ApiError::BadRequest(
            "`consent`: the instructions and consent must be accepted (true) before starting"
                .into(),
        ));
    }
    request.survey.validate().map_err(ApiError::BadRequest)?;
    check_optional_id(
        "recruitment.prolific_pid",
        &request.recruitment.prolific_pid,
    )?;
    check_optional_id("recruitment.study_id", &request.recruitment.study_id)?;
    check_optional_id("recruitment.session_id", &request.recruitment.session_id)?;

    let (participant_id, new_participant) = match request.participant_id {
        Some(id) if storage.participant_exists(&id).await? => (id, false),
        _ => (format!("P-{}", random_hex(6)?.to_uppercase()), true),
    };

    let categories: Vec<String> = categories_of(&quiz)?.into_iter().map(|c| c.key).collect();
    let candidates: Vec<Candidate> = storage
        .assignment_candidates(&quiz.task.id)
        .await?
        .into_iter()
        .map(|c| Candidate {
            id: c.id,
            category: c.category,
            exposures: u64::try_from(c.exposures).unwrap_or(0),
            flagged: c.flagged,
        })
        .collect();
    let skip_flagged = request.survey.skip_flagged;
    let eligible = candidates
        .iter()
        .filter(|c| !(skip_flagged && c.flagged))
        .count();
    let batch_size = usize::try_from(quiz.task.batch_size)
        .unwrap_or(0)
        .min(eligible);
    if batch_size == 0 {
        return Err(ApiError::Conflict(format!(
            "quiz `{slug}` has no items to answer"
        )));
    }
    let seed = random_u64()?;
    let items = assign_balanced(&candidates, &categories, batch_size, skip_flagged, seed)
        .map_err(|e| ApiError::Conflict(format!("cannot assign a batch: {e}")))?;
    let session = NewSession {
        id: random_hex(16)?,
        participant_id,
        task_id: quiz.task.id.clone(),
        seed: seed as i64,
        survey_json: serde_json::to_string(&request.survey).context("encode survey")?,
        prolific_pid: request.recruitment.prolific_pid,
        study_id: request.recruitment.study_id,
        recruitment_session_id: request.recruitment.session_id,
        items,
    };
    storage.create_session(&session, new_participant).await?;
    get_session(storage, &session.id).await
}

async fn find_session(storage: &Storage, id: &str) -> ApiResult<SessionRow> {
    storage
        .find_session(id)
        .await?
        .ok_or_else(|| ApiError::NotFound(format!("no session with id `{id}`")))
}

fn text_mcq(row: &SessionItemRow) -> ApiResult<(String, Vec<String>)> {
    match storage::decode_json::<ItemPrompt>("items.prompt_json", &row.prompt_json)? {
        ItemPrompt::TextMcq { sentence, options } => Ok((sentence, options)),
        other => Err(ApiError::Unexpected(anyhow::anyhow!(
            "item {} has kind {:?}, not supported by the quiz runner yet",
            row.item_id,
            other.kind()
        ))),
    }
}

fn display_options(
    seed: u64,
    row: &SessionItemRow,
) -> ApiResult<(String, Vec<String>, Vec<usize>)> {
    let (sentence, options) = text_mcq(row)?;
    let order = option_order(seed, &row.item_id, options.len());
    let shown = order.iter().map(|&i| options[i].clone()).collect();
    Ok((sentence, shown, order))
}

/// A session as the participant sees it: the batch with options in their shuffled order and
/// answered flags — never gold, never right/wrong.
pub async fn get_session(storage: &Storage, id: &str) -> ApiResult<SessionResponse> {
    let session = find_session(storage, id).await?;
    let rows = storage.session_items(id).await?;
    let seed = session.seed as u64;
    let mut items = Vec::with_capacity(rows.len());
    for row in &rows {
        let (sentence, options, _) = display_options(seed, row)?;
        items.push(SessionItem {
            position: usize::try_from(row.position).unwrap_or(0),
            item_id: row.item_id.clone(),
            category: row.category.clone(),
            content_warning: row.flagged,
            prompt: PromptView::TextMcq { sentence, options },
            answered: row.answered,
        });
    }
    let answered = items.iter().filter(|i| i.answered).count();
    Ok(SessionResponse {
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
    })
}

/// Records one answer exactly once, or refuses it with the reason (nothing is stored then).
pub async fn submit_answer(
    storage: &Storage,
    session_id: &str,
    request: SubmitAnswerRequest,
) -> ApiResult<(SubmitAnswerResponse, bool)> {
    let key = request.idempotency_key.trim();
    if key.is_empty() || key.len() > MAX_KEY_LEN {
        return Err(ApiError::BadRequest(format!(
            "`idempotency_key`: expected 1 to {MAX_KEY_LEN} characters"
        )));
    }
    let session = find_session(storage, session_id).await?;
    let rows = storage.session_items(session_id).await?;
    let row = rows
        .iter()
        .find(|r| r.item_id == request.item_id)
        .ok_or_else(|| {
            ApiError::Unprocessable(format!(
                "item `{}` is not in this session's batch; nothing was recorded",
                request.item_id
            ))
        })?;
    let (_, shown, order) = display_options(session.seed as u64, row)?;
    let AnswerInput::Choice { position } = request.answer;
    if position >= shown.len() {
        return Err(ApiError::BadRequest(format!(
            "`answer.position`: expected a displayed option position from 0 to {}, found {position}",
            shown.len() - 1
        )));
    }
    let answer = AnswerValue::Choice {
        option: order[position],
    };
    let gold: ItemGold = storage::decode_json("items.gold_json", &row.gold_json)?;
    let score = score_answer(&gold, &answer).context("scoring answer")?;
    let new = NewAnswer {
        id: random_hex(12)?,
        session_id: session_id.to_owned(),
        item_id: request.item_id.clone(),
        idempotency_key: key.to_owned(),
        answer_json: serde_json::to_string(&answer).context("encode answer")?,
        option_order_json: serde_json::to_string(&order).context("encode order")?,
        choice: Some(order[position] as i64),
        score,
        response_ms: i64::try_from(request.response_ms).unwrap_or(i64::MAX),
    };
    let code = completion_code()?;
    let total = usize::try_from(session.batch_size).unwrap_or(0);
    let to_response =
        |answered: i64, completion_code: Option<String>, replayed| SubmitAnswerResponse {
            recorded: true,
            replayed,
            answered: usize::try_from(answered).unwrap_or(0),
            total,
            completion_code,
        };
    match storage.record_answer(&new, session.batch_size, &code).await? {
        RecordOutcome::Recorded { answered, completion_code } => Ok((to_response(answered, completion_code, false), true)),
        RecordOutcome::Replayed { answered, completion_code } => Ok((to_response(answered, completion_code, true), false)),
        RecordOutcome::AlreadyAnswered => Err(ApiError::Conflict(format!(
            "item `{}` is already answered in this session; the first answer stands and nothing new was recorded",
            request.item_id
        ))),
        RecordOutcome::KeyReused => Err(ApiError::Conflict(format!(
            "idempotency key `{key}` was already used for another item; nothing was recorded"
        ))),
    }
}

fn to_crowd_answers(rows: Vec<storage::CrowdResponseRow>) -> Vec<CrowdAnswer> {
    rows.into_iter()
        .map(|r| CrowdAnswer {
            participant: r.participant_id,
            item: r.item_id,
            category: r.category,
            choice: r.choice.and_then(|c| usize::try_from(c).ok()),
            score: r.score,
        })
        .collect()
}

fn build_crowd_stats(
    quiz: &QuizRow,
    answers: &[CrowdAnswer],
    resamples: usize,
) -> ApiResult<CrowdStatsResponse> {
    let categories: Vec<String> = categories_of(quiz)?.into_iter().map(|c| c.key).collect();
    let rows = crowd_rows(answers, &categories, resamples, BOOTSTRAP_SEED);
    const TEXT_MCQ_OPTIONS: usize = 5;
    let (fleiss_kappa, krippendorff_alpha) = choice_agreement(answers, TEXT_MCQ_OPTIONS);
    Ok(CrowdStatsResponse {
        quiz_slug: quiz.task.slug.clone(),
        completed_participants: rows.first().map_or(0, |r| r.participants),
        rows,
        chance: 1.0 / TEXT_MCQ_OPTIONS as f64,
        fleiss_kappa,
        krippendorff_alpha,
    })
}

/// The crowd baseline of a quiz (completed batches only; no gold).
pub async fn crowd_stats(
    storage: &Storage,
    slug: &str,
    resamples: usize,
) -> ApiResult<CrowdStatsResponse> {
    let quiz = find_quiz(storage, slug).await?;
    let answers = to_crowd_answers(storage.crowd_responses(&quiz.task.id).await?);
    build_crowd_stats(&quiz, &answers, resamples)
}

/// Results of a finished batch: own scores, crowd rows, and the per-item review with gold.
/// Refused (409) while any item of the batch is unanswered.
pub async fn results(
    storage: &Storage,
    session_id: &str,
    resamples: usize,
) -> ApiResult<ResultsResponse> {
    let session = find_session(storage, session_id).await?;
    let rows = storage.session_items(session_id).await?;
    let unanswered = rows.iter().filter(|r| !r.answered).count();
    let Some(completion_code) = session.completion_code.clone().filter(|_| unanswered == 0) else {
        return Err(ApiError::Conflict(format!(
            "results are shown once the whole batch is answered: {unanswered} of {} item(s) still unanswered",
            rows.len()
        )));
    };
    let quiz = find_quiz(storage, &session.quiz_slug).await?;
    let crowd_answers = to_crowd_answers(storage.crowd_responses(&quiz.task.id).await?);
    let crowd = build_crowd_stats(&quiz, &crowd_answers, resamples)?;

    let mut per_item: BTreeMap<&str, (f64, f64)> = BTreeMap::new();
    for a in &crowd_answers {
        let e = per_item.entry(a.item.as_str()).or_default();
        e.0 += a.score;
        e.1 += 1.0;
    }
    let seed = session.seed as u64;
    let mut review = Vec::with_capacity(rows.len());
    let mut tally: BTreeMap<Option<String>, (usize, usize)> = BTreeMap::new();
    for row in &rows {
        let (sentence, options, order) = display_options(seed, row)?;
        let gold: ItemGold = storage::decode_json("items.gold_json", &row.gold_json)?;
        let ItemGold::Choice { correct } = gold else {
            return Err(ApiError::Unexpected(anyhow::anyhow!(
                "item {} has non-choice gold",
                row.item_id
            )));
        };
        let position_of =
            |canonical: usize| order.iter().position(|&o| o == canonical).unwrap_or(0);
        let chosen = row
            .choice
            .and_then(|c| usize::try_from(c).ok())
            .unwrap_or(usize::MAX);
        let right = usize::from(chosen == correct);
        for key in [None, Some(row.category.clone())] {
            let t = tally.entry(key).or_default();
            t.0 += right;
            t.1 += 1;
        }
        let withheld = row.split != "dev";
        review.push(ReviewItem {
            position: usize::try_from(row.position).unwrap_or(0),
            item_id: row.item_id.clone(),
            category: row.category.clone(),
            sentence,
            options,
            chosen_position: position_of(chosen),
            correct_position: (!withheld).then(|| position_of(correct)),
            meaning: row.meaning.clone().filter(|_| !withheld),
            gold_withheld: withheld,
            crowd_accuracy: per_item.get(row.item_id.as_str()).map(|(s, n)| s / n),
        });
    }
    let categories = categories_of(&quiz)?;
    let mut you = Vec::new();
    for key in std::iter::once(None).chain(categories.iter().map(|c| Some(c.key.clone()))) {
        if let Some((correct, answered)) = tally.get(&key) {
            you.push(CategoryScore {
                category: key,
                correct: *correct,
                answered: *answered,
                accuracy: *correct as f64 / (*answered).max(1) as f64,
            });
        }
    }
    Ok(ResultsResponse {
        session_id: session.id,
        participant_id: session.participant_id,
        quiz_slug: session.quiz_slug,
        completion_code,
        you,
        crowd,
        review,
    })
}
