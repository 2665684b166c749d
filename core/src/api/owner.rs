//! Wire types of task owners' data tools: the export's data dictionary and participant deletion.

use serde::{Deserialize, Serialize};

/// One column of the raw-data export, as the data dictionary lists it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct DictionaryColumn {
    /// Column name (the CSV header and the JSON Lines key).
    pub name: String,
    /// Value type: `text`, `integer`, `number`, `time` (ISO 8601 in UTC with milliseconds,
    /// `2026-12-04T21:05:03.123Z`, in both formats), `list` (items separated by `;` in CSV, a
    /// JSON array in JSON Lines) or `pairs` (`key=value` pairs separated by `; ` in CSV, a
    /// JSON object in JSON Lines); no CSV cell holds JSON. Empty CSV cells and JSON `null`
    /// mean "no value".
    #[serde(rename = "type")]
    pub value_type: String,
    /// What the column holds.
    pub meaning: String,
}

/// `GET /api/owner/tasks/{slug}/export-dictionary`: every column of the answer-level export
/// with its type and meaning, so that released data can be read without the site.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct DataDictionary {
    /// The task the export is for.
    pub task: String,
    /// Columns in file order.
    pub columns: Vec<DictionaryColumn>,
    /// How the files are written and what they do not hold (pseudonyms, exclusions,
    /// rating judgements), one note per line.
    pub notes: Vec<String>,
}

/// `DELETE /api/owner/tasks/{slug}/participants/{who}`: what deleting a participant's data
/// removed (every task of the task's benchmark; crowd rows are recomputed).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct DeleteParticipantResponse {
    /// The pseudonym or Prolific id asked for.
    pub who: String,
    /// Participants it named (a Prolific id may have used several browsers).
    pub participants: usize,
    /// Participant rows removed (those left with no session on the site).
    pub participants_removed: i64,
    /// Sessions removed, with their survey answers, recruitment ids and headphone checks.
    pub sessions: i64,
    /// Answers removed.
    pub answers: i64,
    /// Familiarity answers removed.
    pub prefaces: i64,
    /// Tasks whose data changed (their human rows are recomputed).
    pub tasks: Vec<String>,
}
