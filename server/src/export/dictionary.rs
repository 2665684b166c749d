//! The export's data dictionary: every column with its type and meaning ([`COLUMNS`]) and
//! the notes that go with them.

use super::{authorize, find_task};
use crate::error::ApiResult;
use crate::state::AppState;
use axum::http::HeaderMap;
use memeboard_core::api::{DataDictionary, DictionaryColumn};

/// How a column's values are written (the `type` of the data dictionary): CSV cells hold
/// plain text a spreadsheet shows as it is, never JSON; JSON Lines keeps lists and objects
/// as JSON values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ColumnType {
    /// A string.
    Text,
    /// An integer (flags are 0/1).
    Integer,
    /// A decimal number, written with the shortest digits that read back exactly.
    Number,
    /// A time: ISO 8601 in UTC with milliseconds (`2026-12-04T21:05:03.123Z`), in both
    /// formats ([`super::cells::iso_time`]).
    Time,
    /// A list: items separated by `;` in CSV (`full;main`), a JSON array in JSON Lines.
    List,
    /// An object: `key=value` pairs separated by `; ` in CSV (`language=chinese;
    /// sound_type=speech`), a JSON object in JSON Lines.
    Pairs,
}

impl ColumnType {
    fn name(self) -> &'static str {
        match self {
            Self::Text => "text",
            Self::Integer => "integer",
            Self::Number => "number",
            Self::Time => "time",
            Self::List => "list",
            Self::Pairs => "pairs",
        }
    }
}

/// Every column of the export in file order, with its type and meaning: the data dictionary
/// (served, and mirrored in `docs/data-export.md`; tests keep the three in step).
pub const COLUMNS: &[(&str, ColumnType, &str)] = &[
    ("task", ColumnType::Text, "Task slug."),
    ("task_kind", ColumnType::Text, "Task kind, by its storage key (text_mcq, clip_mcq, rating, …: docs/architecture.md lists every kind)."),
    ("participant", ColumnType::Text, "Participant pseudonym: first 16 hex digits of SHA-256 over a tag, the benchmark id and the participant id; the same in every task of the benchmark."),
    ("session", ColumnType::Text, "Session pseudonym (the same construction over the session id); a participant who retakes a quiz has several."),
    ("prolific_pid", ColumnType::Text, "Prolific PROLIFIC_PID given at the start, if any (identifies the participant on Prolific)."),
    ("study_id", ColumnType::Text, "Prolific STUDY_ID, if any."),
    ("recruitment_session_id", ColumnType::Text, "Prolific SESSION_ID, if any."),
    ("session_started_at", ColumnType::Time, "When the session started (UTC, to the millisecond)."),
    ("session_completed_at", ColumnType::Time, "When the last answer of the batch was stored; empty while the batch is unfinished. Human rows count completed sessions only."),
    ("position", ColumnType::Integer, "Position of the item in the participant's batch (0-based)."),
    ("item_id", ColumnType::Text, "Item id (as in the task's inputs.jsonl)."),
    ("category", ColumnType::Text, "Item category key (meme type, question type, structure type…)."),
    ("split", ColumnType::Text, "dev (gold public) or test (gold hidden)."),
    ("board_half", ColumnType::Text, "For test items, the board that scores them: public or private; empty for dev items."),
    ("subsets", ColumnType::List, "Item subsets the boards can switch to, e.g. `full;main` (clips answerable from text alone are not in main)."),
    ("facets", ColumnType::Pairs, "Kind-dependent public facets of the item, e.g. a clip's `language=chinese; question_type=…; sound_type=…; text_cheat=false`; empty for kinds without."),
    ("familiarity", ColumnType::Text, "Answer to the familiarity question asked before the item (clip quizzes): familiar, seen_not_familiar or unseen."),
    ("num_options", ColumnType::Integer, "Number of options of a choice item (the categories of the agreement statistics)."),
    ("option_order", ColumnType::List, "The option order shown: canonical option indices (0-based) by displayed position, e.g. `2;0;1;3`; empty for kinds without options."),
    ("answer_position", ColumnType::Integer, "The answer in display terms: the displayed position chosen (1-based), for choice items."),
    ("answer_text", ColumnType::Text, "The answer as text: the chosen option, the explanation written, the structure label or the panel order."),
    ("answer_canonical", ColumnType::Pairs, "The answer in canonical terms, as stored (independent of the display order), kind first: e.g. `kind=choice; option=2` or `kind=order; order=2,0,1`."),
    ("choice", ColumnType::Integer, "Canonical option chosen (0-based), for choice items."),
    ("correct", ColumnType::Integer, "1 right, 0 wrong, for kinds with right and wrong answers; empty for similarity kinds and unscored answers."),
    ("score", ColumnType::Number, "The answer's primary score as the human rows average it: 1/0 for choices, the panel-order score, the meaning identification for explanations (0.5 = chance); empty while unscored."),
    ("score_details", ColumnType::Pairs, "Secondary scores, if any (explanations: model, identification, cosine = raw cosine, rescaled = rescaled cosine, baseline = its random-pair baseline, bert_f1 = BERTScore-F1, non_answer)."),
    ("response_ms", ColumnType::Integer, "Time from showing the item to the answer (ms, as measured by the browser)."),
    ("plays", ColumnType::Integer, "Clip quizzes: times the clip was started (replays = plays - 1)."),
    ("answered_at", ColumnType::Time, "When the answer was stored (UTC, to the millisecond)."),
    ("survey_age_range", ColumnType::Text, "Survey: age range (18-24, 25-34, 35-44, 45-54, 55+, prefer_not_to_say)."),
    ("survey_native_language", ColumnType::Text, "Survey: native language (chinese, english, spanish, french, german, japanese, korean, other)."),
    ("survey_online_time", ColumnType::Text, "Survey: daily time online (under_one_hour, one_to_three_hours, three_to_six_hours, over_six_hours)."),
    ("survey_meme_familiarity", ColumnType::Integer, "Survey: self-rated familiarity with the kind of meme the quiz asks about (Chinese internet memes; Chinese multi-panel comic memes; internet memes in video and audio clips), 1 (none) to 5."),
    ("survey_skip_flagged", ColumnType::Integer, "Survey: 1 if the participant opted out of items flagged for profanity or offence."),
    ("headphone_trials", ColumnType::Integer, "Clip quizzes: headphone-check trials presented."),
    ("headphone_correct", ColumnType::Integer, "Clip quizzes: headphone-check trials answered right."),
    ("headphone_passed", ColumnType::Integer, "Clip quizzes: 1 if the headphone check was passed (at least 5 of 6 right)."),
    ("excluded", ColumnType::Integer, "1 if the session is left out of the human rows by the task's quality rules or as a pilot session; the site and `memeboard stats --export` drop these rows."),
    ("exclusion_reason", ColumnType::Text, "Why the session is excluded, as a code (e.g. failed_headphone_check, pilot); empty if not."),
    ("exclusion_detail", ColumnType::Text, "The same in words."),
    ("pilot", ColumnType::Integer, "1 if the session was started while the quiz was in pilot mode (the owner's test run): always excluded, with exclusion_reason pilot, whatever the mode is now."),
];

/// Notes every data dictionary carries.
const NOTES: &[&str] = &[
    "One row per recorded answer, sessions in start order, items in batch order. CSV: UTF-8 with a byte-order mark, a header row, RFC 4180 quoting; text cells starting with = + - @ tab or carriage return get a leading ' so spreadsheets do not run them as formulas. JSON Lines: one object per answer with the same keys.",
    "Types: time = ISO 8601 in UTC with milliseconds (2026-12-04T21:05:03.123Z), in both formats. No cell of the CSV holds JSON: list = items separated by ; (full;main); pairs = key=value pairs separated by ; and a space (kind=choice; option=2), nested keys joined by . and list values by , (a \\ escapes a ; or , inside a value); an empty cell is an empty list or object. JSON Lines keeps lists and objects as JSON arrays and objects.",
    "Pseudonyms replace participant and session ids (which act as the participant on the site); Prolific ids are kept as given, so remove the prolific_pid, study_id and recruitment_session_id columns before publishing the file.",
    "The correct and score columns of test items reveal the hidden gold: publish them only when the test split is retired.",
    "Judgements of human-evaluation studies (ratings and rankings of model outputs) have an export of their own, one row per field, dimension or ranked candidate with the submission judged: GET /api/owner/studies/{slug}/judgements.csv or .jsonl (docs/human-evaluation.md).",
    "Human rows count the answers of completed sessions (session_completed_at set) that are not excluded; `memeboard stats --export FILE` recomputes them from this file alone.",
];

/// The data dictionary of a task's export.
pub fn dictionary(task: &str) -> DataDictionary {
    DataDictionary {
        task: task.to_owned(),
        columns: COLUMNS
            .iter()
            .map(|(name, t, meaning)| DictionaryColumn {
                name: (*name).to_owned(),
                value_type: t.name().to_owned(),
                meaning: (*meaning).to_owned(),
            })
            .collect(),
        notes: NOTES.iter().map(|n| (*n).to_owned()).collect(),
    }
}

/// The data dictionary, for the task's owner.
pub async fn dictionary_for(
    state: &AppState,
    headers: &HeaderMap,
    slug: &str,
) -> ApiResult<DataDictionary> {
    authorize(state, headers, slug).await?;
    let task = find_task(&state.storage, slug).await?;
    Ok(dictionary(&task.task.slug))
}
