//! Quizzes and their sessions: the quiz list and stats, starting a batch, answers, clip
//! prefaces, attention checks and results.

use super::{get_json, post_json, segment, with_resends, ApiError};
use memeboard_core::api::{
    CrowdStatsResponse, QuizSummary, ResultsResponse, SessionResponse, StartSessionRequest,
    SubmitAnswerRequest, SubmitAnswerResponse, SubmitPrefaceRequest, SubmitPrefaceResponse,
};

/// `GET /api/quizzes`: the open quizzes.
pub async fn list_quizzes() -> Result<Vec<QuizSummary>, ApiError> {
    get_json("/api/quizzes").await
}

/// `GET /api/quizzes/{slug}{query}`: one quiz, with the refusal the visitor's start would get
/// (`query`: the quiz page's own, with `PROLIFIC_PID` and `invite`).
pub async fn get_quiz(slug: &str, query: &str) -> Result<QuizSummary, ApiError> {
    get_json(&format!("/api/quizzes/{}{query}", segment(slug))).await
}

/// `GET /api/quizzes/{slug}/stats`: the crowd baseline of a quiz.
pub async fn quiz_stats(slug: &str) -> Result<CrowdStatsResponse, ApiError> {
    get_json(&format!("/api/quizzes/{}/stats", segment(slug))).await
}

/// `POST /api/quizzes/{slug}/headphone-checks`: a headphone check drawn by the server.
pub async fn new_headphone_check(
    slug: &str,
) -> Result<memeboard_core::api::HeadphoneCheckStart, ApiError> {
    post_json(
        &format!("/api/quizzes/{}/headphone-checks", segment(slug)),
        &serde_json::json!({}),
    )
    .await
}

/// `POST /api/quizzes/{slug}/sessions`: starts a batch.
pub async fn start_session(
    slug: &str,
    request: &StartSessionRequest,
) -> Result<SessionResponse, ApiError> {
    post_json(&format!("/api/quizzes/{}/sessions", segment(slug)), request).await
}

/// `GET /api/sessions/{id}`: a session with its items.
pub async fn get_session(session_id: &str) -> Result<SessionResponse, ApiError> {
    get_json(&format!("/api/sessions/{}", segment(session_id))).await
}

/// `POST /api/sessions/{id}/answers`: records one answer (idempotent per key).
pub async fn submit_answer(
    session_id: &str,
    request: &SubmitAnswerRequest,
) -> Result<SubmitAnswerResponse, ApiError> {
    post_json(
        &format!("/api/sessions/{}/answers", segment(session_id)),
        request,
    )
    .await
}

/// Waits before the automatic resends of a failed preface (as for answers): an identical
/// resend is answered with the stored preface, so repeating it is safe.
pub const PREFACE_RETRY_DELAYS_MS: [i32; 4] = [1_000, 2_000, 4_000, 8_000];

/// `POST /api/sessions/{id}/prefaces`: stores the familiarity answer of a clip and returns
/// the item with its question. Resent by itself while the failure may be temporary
/// (`before_resend(n)` as in [`with_resends`]): the server stores a preface once and answers
/// an identical resend with `replayed: true`.
pub async fn submit_preface(
    session_id: &str,
    request: &SubmitPrefaceRequest,
    before_resend: impl FnMut(u32) -> bool,
) -> Result<SubmitPrefaceResponse, ApiError> {
    let url = format!("/api/sessions/{}/prefaces", segment(session_id));
    with_resends(
        &PREFACE_RETRY_DELAYS_MS,
        || post_json(&url, request),
        before_resend,
    )
    .await
}

/// `GET /api/sessions/{id}/results`: score, crowd baseline and review (409 until complete).
pub async fn get_results(session_id: &str) -> Result<ResultsResponse, ApiError> {
    get_json(&format!("/api/sessions/{}/results", segment(session_id))).await
}

/// `POST /api/sessions/{id}/checks`: one attention-check answer (stored once), resent by
/// itself while the failure may be temporary (an identical resend is acknowledged).
pub async fn submit_check(
    session_id: &str,
    request: &memeboard_core::fieldwork::SubmitCheckRequest,
) -> Result<memeboard_core::fieldwork::SubmitCheckResponse, ApiError> {
    let url = format!("/api/sessions/{}/checks", segment(session_id));
    with_resends(
        &PREFACE_RETRY_DELAYS_MS,
        || post_json(&url, request),
        |_| true,
    )
    .await
}
