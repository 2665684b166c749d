//! Reading sessions back: the session, its batch with answers, and what an answer is checked
//! against.

use crate::storage::*;
use memeboard_core::api::BoardSplit;
use memeboard_core::predictions::Split;

/// A stored session.
#[derive(Debug, Clone)]
pub struct SessionRow {
    /// Session id.
    pub id: String,
    /// Participant id.
    pub participant_id: String,
    /// Task id.
    pub task_id: String,
    /// Quiz slug.
    pub quiz_slug: String,
    /// Quiz title.
    pub quiz_title: String,
    /// The task's kind.
    pub task_kind: memeboard_core::kinds::TaskKind,
    /// Presentation seed.
    pub seed: i64,
    /// Batch size.
    pub batch_size: i64,
    /// Completion code once complete.
    pub completion_code: Option<String>,
    /// Recruitment ids of the start.
    pub prolific_pid: Option<String>,
    /// `STUDY_ID`.
    pub study_id: Option<String>,
    /// `SESSION_ID`.
    pub recruitment_session_id: Option<String>,
    /// Why the session was ended early (`ExclusionReason` JSON), if it was.
    pub screen_reason: Option<String>,
    /// Attention checks planned at the start.
    pub attention_checks: i64,
}

/// One item of a session with the participant's answer, if any.
#[derive(Debug, Clone)]
pub struct SessionItemRow {
    /// Position.
    pub position: i64,
    /// Item id.
    pub item_id: String,
    /// Category.
    pub category: String,
    /// Prompt JSON.
    pub prompt_json: String,
    /// Gold JSON (server-side use only).
    pub gold_json: String,
    /// Content warning.
    pub flagged: bool,
    /// Meaning of the source meme (review only).
    pub meaning: Option<String>,
    /// The split of the items holding that meaning as their gold (explanation items of the
    /// meme): `test` when any is test, so the review must not show it.
    pub meaning_split: Option<Split>,
    /// Canonical option chosen, when answered.
    pub choice: Option<i64>,
    /// Whether answered.
    pub answered: bool,
    /// The stored answer (`AnswerValue` JSON), when answered.
    pub answer_json: Option<String>,
    /// Scores computed after the answer was stored (kinds scored later), if any.
    pub scores_json: Option<String>,
    /// Open dev item or hidden test item.
    pub split: Split,
    /// The board half that scores it (test items).
    pub board_half: BoardSplit,
    /// The stored preface answer (familiarity key), for kinds with a preface.
    pub preface: Option<String>,
}

/// What an answer is checked against (see [`Storage::answer_target`]).
#[derive(Debug, Clone)]
pub struct AnswerTarget {
    /// The session.
    pub session: SessionRow,
    /// The answered item, when it is in the session's batch.
    pub item: Option<TaskItemRow>,
    /// The item's stored preface answer (familiarity key), for kinds with a preface.
    pub preface: Option<String>,
}

/// The text of [`SESSION_COLUMNS`], for statements built with `concat!`.
macro_rules! session_columns {
    () => {
        "s.id, s.participant_id, s.task_id, s.seed, s.batch_size, s.completion_code, \
         s.prolific_pid, s.study_id, s.recruitment_session_id, s.screen_reason, \
         s.attention_checks, t.slug, t.title, t.kind"
    };
}

/// The columns [`session_from_row`] reads (sessions `s` joined with their task `t`).
const SESSION_COLUMNS: &str = session_columns!();

fn session_from_row(r: &impl NamedColumns) -> Result<SessionRow, sqlx::Error> {
    Ok(SessionRow {
        id: r.column("id")?,
        participant_id: r.column("participant_id")?,
        task_id: r.column("task_id")?,
        quiz_slug: r.column("slug")?,
        quiz_title: r.column("title")?,
        task_kind: decode_kind(&r.column::<String>("kind")?)?,
        seed: r.column("seed")?,
        batch_size: r.column("batch_size")?,
        completion_code: r.column("completion_code")?,
        prolific_pid: r.column("prolific_pid")?,
        study_id: r.column("study_id")?,
        recruitment_session_id: r.column("recruitment_session_id")?,
        screen_reason: r.column("screen_reason")?,
        attention_checks: r.column::<Option<i64>>("attention_checks")?.unwrap_or(0),
    })
}

/// The session, its answered item and the item's preface answer, in one read: `$1` the
/// session, `$2` the item (decoded by `AnswerTarget`'s [`FromNamedRow`]).
const ANSWER_TARGET_SQL: &str = concat!(
    "SELECT ",
    session_columns!(),
    ", i.id AS item_id, i.category, i.prompt_json, i.gold_json, i.split, i.board_half, \
     p.familiarity AS preface \
     FROM sessions s JOIN tasks t ON t.id = s.task_id \
     LEFT JOIN session_items si ON si.session_id = s.id AND si.item_id = $2 \
     LEFT JOIN items i ON i.id = si.item_id \
     LEFT JOIN prefaces p ON p.session_id = s.id AND p.item_id = si.item_id \
     WHERE s.id = $1"
);

/// The batch of session `$1` in order, each item with the participant's answer and preface
/// answer if any, and `meaning_split`: the split of the meme's explanation item, which decides
/// whether the meme's meaning may be shown (a search of the `items_meme` index per item).
const SESSION_ITEMS_SQL: &str = "SELECT si.position, si.item_id, i.category, i.prompt_json, \
     i.gold_json, i.flagged, i.split, i.board_half, m.meaning, a.choice, a.id AS answer_id, \
     a.answer_json, a.scores_json, p.familiarity AS preface, \
     (SELECT MAX(e.split) FROM items e JOIN tasks et ON et.id = e.task_id \
      WHERE e.meme_id = i.meme_id AND et.kind = 'explanation') AS meaning_split \
     FROM session_items si JOIN items i ON i.id = si.item_id \
     LEFT JOIN memes m ON m.id = i.meme_id \
     LEFT JOIN answers a ON a.session_id = si.session_id AND a.item_id = si.item_id \
     LEFT JOIN prefaces p ON p.session_id = si.session_id AND p.item_id = si.item_id \
     WHERE si.session_id = $1 ORDER BY si.position";

impl FromNamedRow for AnswerTarget {
    /// Decodes a row of [`ANSWER_TARGET_SQL`] (either driver's).
    fn from_named(r: &impl NamedColumns) -> Result<Self, sqlx::Error> {
        let item = match r.column::<Option<String>>("item_id")? {
            Some(id) => Some(TaskItemRow {
                id,
                category: r.column("category")?,
                prompt_json: r.column("prompt_json")?,
                gold_json: r.column("gold_json")?,
                split: decode_split(&r.column::<String>("split")?)?,
                board_half: decode_half(&r.column::<String>("board_half")?)?,
            }),
            None => None,
        };
        Ok(AnswerTarget {
            session: session_from_row(r)?,
            item,
            preface: r.column("preface")?,
        })
    }
}

impl Storage {
    /// A session by id.
    pub async fn find_session(&self, id: &str) -> Result<Option<SessionRow>, StorageError> {
        let row = sqlx::query(&format!(
            "SELECT {SESSION_COLUMNS} FROM sessions s JOIN tasks t ON t.id = s.task_id \
             WHERE s.id = $1"
        ))
        .bind(id)
        .fetch_optional(&self.pool)
        .await?;
        Ok(row.as_ref().map(session_from_row).transpose()?)
    }

    /// What an answer to `item_id` in session `session_id` is checked against, in one read:
    /// the session, and the item with its preface answer when the item is in the batch
    /// (`None`: no such session).
    pub async fn answer_target(
        &self,
        session_id: &str,
        item_id: &str,
    ) -> Result<Option<AnswerTarget>, StorageError> {
        self.read_optional(ANSWER_TARGET_SQL, &[session_id, item_id])
            .await
    }

    /// The batch of a session, in order, with answers joined.
    pub async fn session_items(
        &self,
        session_id: &str,
    ) -> Result<Vec<SessionItemRow>, StorageError> {
        self.read_all(SESSION_ITEMS_SQL, &[session_id]).await
    }
}

impl FromNamedRow for SessionItemRow {
    fn from_named(r: &impl NamedColumns) -> Result<Self, sqlx::Error> {
        Ok(SessionItemRow {
            position: r.column("position")?,
            item_id: r.column("item_id")?,
            category: r.column("category")?,
            prompt_json: r.column("prompt_json")?,
            gold_json: r.column("gold_json")?,
            flagged: r.column::<i64>("flagged")? != 0,
            meaning: r.column("meaning")?,
            meaning_split: r
                .column::<Option<String>>("meaning_split")?
                .as_deref()
                .map(decode_split)
                .transpose()?,
            choice: r.column("choice")?,
            answered: r.column::<Option<String>>("answer_id")?.is_some(),
            answer_json: r.column("answer_json")?,
            scores_json: r.column("scores_json")?,
            split: decode_split(&r.column::<String>("split")?)?,
            board_half: decode_half(&r.column::<String>("board_half")?)?,
            preface: r.column("preface")?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The plan SQLite makes for `sql` with `$1` bound: one `detail` line per step.
    async fn plan(storage: &Storage, sql: &str) -> Vec<String> {
        let rows = sqlx::query(&format!("EXPLAIN QUERY PLAN {sql}"))
            .bind("S-1")
            .fetch_all(&storage.pool)
            .await
            .expect("plan");
        rows.iter()
            .map(|r| r.try_get::<String, _>("detail").expect("detail"))
            .collect()
    }

    /// Every session start and session read runs this; without the `items_meme` index its
    /// per-item question scanned all items of all tasks (24 scans per read), most of a start's
    /// database time and growing with the benchmark.
    #[tokio::test]
    async fn a_session_read_searches_indexes_only() {
        let dir = tempfile::tempdir().expect("temp dir");
        let url = format!("sqlite://{}?mode=rwc", dir.path().join("plan.db").display());
        let storage = Storage::connect(&url, 2).await.expect("storage");
        let steps = plan(&storage, SESSION_ITEMS_SQL).await;
        assert!(
            steps.iter().any(|s| s.contains("USING INDEX items_meme")),
            "{steps:?}"
        );
        assert!(
            !steps.iter().any(|s| s.starts_with("SCAN")),
            "a step scans a table: {steps:?}"
        );
    }
}
