//! The quiz protocol: start a session (consent + survey + balanced batch), serve it without
//! gold, record each answer once, and build results and crowd statistics.

use crate::error::{ApiError, ApiResult};
use crate::explain;
use crate::inference::EmbeddingService;
use crate::storage::{
    self, NewAnswer, NewSession, QuizRow, RecordOutcome, SessionItemRow, SessionRow, Storage,
};
use anyhow::Context;
use memeboard_core::api::{
    AnswerInput, CategoryScore, CrowdStatsResponse, ExplanationFeedback, ExplanationReference,
    ExplanationReview, ExplanationScore, PromptView, QuizSummary, ResultsResponse, ReviewItem,
    SessionItem, SessionResponse, SessionStatus, StartSessionRequest, SubmitAnswerRequest,
    SubmitAnswerResponse,
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

    check_optional_id("participant_id", &request.participant_id)?;
    check_optional_id("participant_secret", &request.participant_secret)?;
    // Reusing a participant id needs the secret minted with it (ids are shown to participants
    // and are not secrets). Unknown ids, and ids created before secrets existed (nobody can
    // prove ownership of those), get a fresh participant; a wrong or missing secret for an id
    // that has one is refused.
    let existing = match &request.participant_id {
        Some(id) => match storage.participant_secret_hash(id).await? {
            Some(Some(stored)) => {
                let presented = request.participant_secret.as_deref().map(secret_hash);
                if presented.as_deref() != Some(stored.as_str()) {
                    return Err(ApiError::Forbidden(
                        "`participant_secret`: missing or wrong for this participant id; start without `participant_id` to take part under a new id".into(),
                    ));
                }
                Some(id.clone())
            }
            Some(None) | None => None,
        },
        None => None,
    };
    let (participant_id, new_secret) = match existing {
        Some(id) => (id, None),
        None => (
            format!("P-{}", random_hex(6)?.to_uppercase()),
            Some(random_hex(16)?),
        ),
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
    let new_hash = new_secret.as_deref().map(secret_hash);
    storage
        .create_session(&session, new_hash.as_deref())
        .await?;
    let mut response = get_session(storage, &session.id).await?;
    response.participant_secret = new_secret;
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
        .ok_or_else(|| ApiError::NotFound(format!("no session with id `{id}`")))
}

/// How an item is shown to one participant, and (for choice items) the option order.
fn prompt_view(seed: u64, row: &SessionItemRow) -> ApiResult<(PromptView, Vec<usize>)> {
    match storage::decode_json::<ItemPrompt>("items.prompt_json", &row.prompt_json)? {
        ItemPrompt::TextMcq { sentence, options } => {
            let order = option_order(seed, &row.item_id, options.len());
            let shown = order.iter().map(|&i| options[i].clone()).collect();
            Ok((
                PromptView::TextMcq {
                    sentence,
                    options: shown,
                },
                order,
            ))
        }
        ItemPrompt::Explanation { meme } => Ok((PromptView::Explanation { meme }, Vec::new())),
        other => Err(ApiError::Unexpected(anyhow::anyhow!(
            "item {} has kind {:?}, which the quiz runner does not show yet",
            row.item_id,
            other.kind()
        ))),
    }
}

fn gold_reference(row: &SessionItemRow) -> ApiResult<Option<ExplanationReference>> {
    Ok(
        match storage::decode_json::<ItemGold>("items.gold_json", &row.gold_json)? {
            ItemGold::Explanation { meaning, origin } => {
                Some(ExplanationReference { meaning, origin })
            }
            _ => None,
        },
    )
}

/// Longest accepted explanation, in characters.
const MAX_EXPLANATION_CHARS: usize = 1000;

/// A session as the participant sees it: the batch with options in their shuffled order and
/// answered flags — never gold, never right/wrong.
pub async fn get_session(storage: &Storage, id: &str) -> ApiResult<SessionResponse> {
    let session = find_session(storage, id).await?;
    let rows = storage.session_items(id).await?;
    let seed = session.seed as u64;
    let mut items = Vec::with_capacity(rows.len());
    for row in &rows {
        let (prompt, _) = prompt_view(seed, row)?;
        items.push(SessionItem {
            position: usize::try_from(row.position).unwrap_or(0),
            item_id: row.item_id.clone(),
            category: row.category.clone(),
            content_warning: row.flagged,
            prompt,
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
    let (prompt, order) = prompt_view(session.seed as u64, row)?;
    let gold: ItemGold = storage::decode_json("items.gold_json", &row.gold_json)?;
    let (answer, choice) = match (&prompt, request.answer) {
        (PromptView::TextMcq { options, .. }, AnswerInput::Choice { position }) => {
            if position >= options.len() {
                return Err(ApiError::BadRequest(format!(
                    "`answer.position`: expected a displayed option position from 0 to {}, found {position}",
                    options.len() - 1
                )));
            }
            (
                AnswerValue::Choice {
                    option: order[position],
                },
                Some(order[position] as i64),
            )
        }
        (PromptView::Explanation { .. }, AnswerInput::Text { text }) => {
            let text = text.trim().to_owned();
            let chars = text.chars().count();
            if chars == 0 || chars > MAX_EXPLANATION_CHARS {
                return Err(ApiError::BadRequest(format!(
                    "`answer.text`: expected 1 to {MAX_EXPLANATION_CHARS} characters, found {chars}"
                )));
            }
            (AnswerValue::Text { text }, None)
        }
        (PromptView::TextMcq { .. }, _) => {
            return Err(ApiError::BadRequest(
                "`answer.kind`: this item expects `choice`".into(),
            ))
        }
        (PromptView::Explanation { .. }, _) => {
            return Err(ApiError::BadRequest(
                "`answer.kind`: this item expects `text`".into(),
            ))
        }
    };
    let score = score_answer(&gold, &answer).context("scoring answer")?;
    let new = NewAnswer {
        id: random_hex(12)?,
        session_id: session_id.to_owned(),
        item_id: request.item_id.clone(),
        idempotency_key: key.to_owned(),
        answer_json: serde_json::to_string(&answer).context("encode answer")?,
        option_order_json: serde_json::to_string(&order).context("encode order")?,
        choice,
        score,
        response_ms: i64::try_from(request.response_ms).unwrap_or(i64::MAX),
    };
    let code = completion_code()?;
    let total = usize::try_from(session.batch_size).unwrap_or(0);
    let (answered, completion_code, replayed) = match storage.record_answer(&new, session.batch_size, &code).await? {
        RecordOutcome::Recorded { answered, completion_code } => (answered, completion_code, false),
        RecordOutcome::Replayed { answered, completion_code } => (answered, completion_code, true),
        RecordOutcome::AlreadyAnswered => return Err(ApiError::Conflict(format!(
            "item `{}` is already answered in this session; the first answer stands and nothing new was recorded",
            request.item_id
        ))),
        RecordOutcome::KeyReused => return Err(ApiError::Conflict(format!(
            "idempotency key `{key}` was already used for another item; nothing was recorded"
        ))),
    };
    let feedback = match gold_reference(row)? {
        Some(reference) => {
            Some(explanation_feedback(storage, embeddings, &session, row, reference).await?)
        }
        None => None,
    };
    let response = SubmitAnswerResponse {
        recorded: true,
        replayed,
        answered: usize::try_from(answered).unwrap_or(0),
        total,
        completion_code,
        feedback,
    };
    Ok((response, !replayed))
}

/// Scores a stored explanation (once; a replay reuses the stored scores) and builds what the
/// participant sees: the server score, the crowd's scores, and the reference where allowed.
async fn explanation_feedback(
    storage: &Storage,
    embeddings: &EmbeddingService,
    session: &SessionRow,
    row: &SessionItemRow,
    reference: ExplanationReference,
) -> ApiResult<ExplanationFeedback> {
    let (answer_json, scores_json) = storage
        .find_answer(&session.id, &row.item_id)
        .await?
        .ok_or_else(|| ApiError::Unexpected(anyhow::anyhow!("recorded answer vanished")))?;
    let mut scoring_error = None;
    let server_score = match scores_json {
        Some(json) => Some(storage::decode_json::<ExplanationScore>(
            "answers.scores_json",
            &json,
        )?),
        None => {
            let AnswerValue::Text { text } =
                storage::decode_json("answers.answer_json", &answer_json)?
            else {
                return Err(ApiError::Unexpected(anyhow::anyhow!(
                    "explanation answer is not text"
                )));
            };
            match explain::score_pairs(
                storage,
                embeddings,
                &session.task_id,
                &[text],
                std::slice::from_ref(&reference.meaning),
            )
            .await
            {
                Ok(mut scores) => {
                    let score = scores.remove(0);
                    let json = serde_json::to_string(&score).context("encode scores")?;
                    storage
                        .set_answer_scores(&session.id, &row.item_id, score.cosine, &json)
                        .await?;
                    Some(score)
                }
                Err(e) => {
                    scoring_error = Some(format!("not scored on the server: {e}"));
                    None
                }
            }
        }
    };
    let withheld = row.split != "dev";
    if withheld {
        // Hidden test item: the score is stored for the crowd baseline and the results, but
        // nothing derived from the reference goes back now. Otherwise every answer (and
        // sessions restart freely) would be a similarity oracle on the hidden meaning.
        return Ok(ExplanationFeedback {
            reference: None,
            gold_withheld: true,
            server_score: None,
            scoring_error,
            crowd_scores: Vec::new(),
            scores_with_results: true,
        });
    }
    Ok(ExplanationFeedback {
        reference: Some(reference),
        gold_withheld: false,
        server_score,
        scoring_error,
        crowd_scores: storage.item_scores(&row.item_id).await?,
        scores_with_results: false,
    })
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

/// The number of options of every choice item of a task (items of other kinds are left out).
pub async fn option_counts(storage: &Storage, task_id: &str) -> ApiResult<Vec<usize>> {
    let mut out = Vec::new();
    for row in storage.task_items(task_id).await? {
        if let ItemPrompt::TextMcq { options, .. } =
            storage::decode_json("items.prompt_json", &row.prompt_json)?
        {
            out.push(options.len());
        }
    }
    Ok(out)
}

fn build_crowd_stats(
    quiz: &QuizRow,
    answers: &[CrowdAnswer],
    resamples: usize,
    chance_level: Option<f64>,
    option_counts: &[usize],
) -> ApiResult<CrowdStatsResponse> {
    let categories: Vec<String> = categories_of(quiz)?.into_iter().map(|c| c.key).collect();
    let rows = crowd_rows(answers, &categories, resamples, BOOTSTRAP_SEED);
    let is_choice = quiz.task.kind == TaskKind::TextMcq.as_str();
    // Each item's real option count: agreement over as many categories as the largest item
    // has (an item with fewer options never uses the others), chance = mean of 1/n over
    // items, as on the board.
    let max_options = option_counts.iter().copied().max().unwrap_or(0);
    let (fleiss_kappa, krippendorff_alpha) = if is_choice && max_options >= 2 {
        choice_agreement(answers, max_options)
    } else {
        (None, None)
    };
    let min_options = option_counts.iter().copied().min().unwrap_or(0);
    let choice_chance = if option_counts.is_empty() {
        0.0
    } else if min_options == max_options {
        // Exactly 1/n when every item has n options (no rounding from summing).
        1.0 / max_options.max(1) as f64
    } else {
        option_counts
            .iter()
            .map(|&n| 1.0 / n.max(1) as f64)
            .sum::<f64>()
            / option_counts.len() as f64
    };
    Ok(CrowdStatsResponse {
        quiz_slug: quiz.task.slug.clone(),
        completed_participants: rows.first().map_or(0, |r| r.participants),
        rows,
        // For explanations the "chance" level is the random-pair similarity baseline.
        chance: if is_choice {
            choice_chance
        } else {
            chance_level.unwrap_or(0.0)
        },
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
    let baseline = storage.task_baseline(&quiz.task.id).await?.map(|(b, _)| b);
    let options = option_counts(storage, &quiz.task.id).await?;
    build_crowd_stats(&quiz, &answers, resamples, baseline, &options)
}

/// Results of a finished batch: own scores, crowd rows, and the per-item review with gold.
/// Refused (409) while any item of the batch is unanswered.
pub async fn results(
    storage: &Storage,
    session_id: &str,
    resamples: usize,
    min_item_crowd: usize,
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
    let baseline = storage.task_baseline(&quiz.task.id).await?.map(|(b, _)| b);
    let options = option_counts(storage, &quiz.task.id).await?;
    let crowd = build_crowd_stats(&quiz, &crowd_answers, resamples, baseline, &options)?;

    // Per-item crowd figures: other participants only (the viewer's own answer in the mean
    // would reveal its correctness), and only with enough of them; test items never (see
    // `item_crowd`).
    // (sum of scores, answers, distinct participants) per item.
    type ItemCrowd<'a> = (f64, f64, std::collections::BTreeSet<&'a str>);
    let mut per_item: BTreeMap<&str, ItemCrowd> = BTreeMap::new();
    for a in crowd_answers
        .iter()
        .filter(|a| a.participant != session.participant_id)
    {
        let e = per_item.entry(a.item.as_str()).or_default();
        e.0 += a.score;
        e.1 += 1.0;
        e.2.insert(a.participant.as_str());
    }
    let item_crowd = |row: &storage::SessionItemRow| -> Option<f64> {
        per_item
            .get(row.item_id.as_str())
            .filter(|(_, _, who)| row.split == "dev" && who.len() >= min_item_crowd.max(1))
            .map(|(s, n, _)| s / n)
    };
    let seed = session.seed as u64;
    let mut review = Vec::with_capacity(rows.len());
    // Per category: (sum of item scores, correct choices, answers).
    let mut tally: BTreeMap<Option<String>, (f64, usize, usize)> = BTreeMap::new();
    // Explanation scores of hidden test items: (sum, count), shown only as one rounded mean.
    let mut hidden = (0.0f64, 0usize);
    for row in &rows {
        let withheld = row.split != "dev";
        let (prompt, order) = prompt_view(seed, row)?;
        let gold: ItemGold = storage::decode_json("items.gold_json", &row.gold_json)?;
        if let (PromptView::Explanation { meme }, ItemGold::Explanation { meaning, origin }) =
            (&prompt, &gold)
        {
            let (answer_json, scores_json) = storage
                .find_answer(&session.id, &row.item_id)
                .await?
                .ok_or_else(|| ApiError::Unexpected(anyhow::anyhow!("answer missing")))?;
            let AnswerValue::Text { text } =
                storage::decode_json("answers.answer_json", &answer_json)?
            else {
                return Err(ApiError::Unexpected(anyhow::anyhow!(
                    "explanation answer is not text"
                )));
            };
            let score: Option<ExplanationScore> = scores_json
                .map(|j| storage::decode_json("answers.scores_json", &j))
                .transpose()?;
            // Hidden test items: no per-item score, no per-item crowd figure, not in `you`
            // (one category holds one item of a batch); only the batch mean over hidden
            // items, rounded to one decimal. Anything finer would let repeated sessions
            // hill-climb towards the hidden reference meaning.
            let score = match score {
                Some(sc) if withheld => {
                    hidden.0 += sc.cosine;
                    hidden.1 += 1;
                    None
                }
                other => other,
            };
            if let Some(sc) = &score {
                for key in [None, Some(row.category.clone())] {
                    let t = tally.entry(key).or_default();
                    t.0 += sc.cosine;
                    t.2 += 1;
                }
            }
            review.push(ReviewItem {
                position: usize::try_from(row.position).unwrap_or(0),
                item_id: row.item_id.clone(),
                category: row.category.clone(),
                sentence: meme.clone(),
                options: Vec::new(),
                chosen_position: 0,
                correct_position: None,
                meaning: None,
                gold_withheld: withheld,
                crowd_accuracy: item_crowd(row),
                explanation: Some(ExplanationReview {
                    answer: text,
                    score,
                    reference: (!withheld).then(|| ExplanationReference {
                        meaning: meaning.clone(),
                        origin: origin.clone(),
                    }),
                }),
            });
            continue;
        }
        let (PromptView::TextMcq { sentence, options }, ItemGold::Choice { correct }) =
            (prompt, gold)
        else {
            return Err(ApiError::Unexpected(anyhow::anyhow!(
                "item {} has mismatched prompt and gold",
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
            t.0 += right as f64;
            t.1 += right;
            t.2 += 1;
        }
        review.push(ReviewItem {
            position: usize::try_from(row.position).unwrap_or(0),
            item_id: row.item_id.clone(),
            category: row.category.clone(),
            sentence,
            options,
            chosen_position: position_of(chosen),
            correct_position: (!withheld).then(|| position_of(correct)),
            // The meaning is the gold of the meme's explanation item: shown only when that
            // item is dev too (a dev question's meme may be a test explanation item).
            meaning: row
                .meaning
                .clone()
                .filter(|_| !withheld && row.meaning_split.as_deref() != Some("test")),
            gold_withheld: withheld,
            crowd_accuracy: item_crowd(row),
            explanation: None,
        });
    }
    let categories = categories_of(&quiz)?;
    let mut you = Vec::new();
    for key in std::iter::once(None).chain(categories.iter().map(|c| Some(c.key.clone()))) {
        if let Some((sum, correct, answered)) = tally.get(&key) {
            you.push(CategoryScore {
                category: key,
                correct: *correct,
                answered: *answered,
                accuracy: sum / (*answered).max(1) as f64,
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
        hidden_items: (hidden.1 > 0).then(|| CategoryScore {
            category: None,
            correct: 0,
            answered: hidden.1,
            accuracy: (hidden.0 / hidden.1 as f64 * 10.0).round() / 10.0,
        }),
    })
}
