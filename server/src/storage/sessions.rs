//! Quizzes, participants, sessions and answers: assignment candidates, the exactly-once
//! answer transaction, crowd responses, and the explanation scores stored after an answer.
//!
//! By feature: `quizzes` (quizzes and assignment candidates), `starts` (participants and
//! new sessions), `reads` (sessions and batches read back), `answers` (prefaces, the
//! answer record and stored scores) and `crowd` (crowd responses and task baselines).

mod answers;
mod crowd;
mod crowd_ledger;
mod crowd_rows;
mod kept_session_values;
mod quizzes;
mod reads;
mod starts;

pub use answers::{NewAnswer, RecordOutcome};
pub use crowd::FingerprintMemo;
pub(crate) use crowd::{count_crowd_change, MARK_CROWD_CHANGE_SQL};
pub use crowd_ledger::CrowdLedgers;
pub use crowd_rows::CrowdResponseRow;
pub use kept_session_values::KeptSessionValues;
pub use quizzes::{CandidateRow, QuizRow};
pub use reads::{AnswerTarget, SessionItemRow, SessionRow};
pub use starts::NewSession;

pub(super) use answers::{recorded, StoredRows, STORED_SQL};
pub(super) use starts::{INSERT_PARTICIPANT_SQL, INSERT_SESSION_SQL};
