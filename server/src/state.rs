//! The state every handler shares. In its own module so that routes and start-up depend on it
//! without depending on each other.

use crate::config::Settings;
use crate::crowd_cache::CrowdCache;
use crate::explain::inference::EmbeddingService;
use crate::storage::Storage;
use memeboard_core::human_eval::board::{BoardHumanEval, HumanEvalSummary, HumanTables};
use memeboard_core::human_eval::cmpm_tables::CmpmTables;
use memeboard_core::human_eval::error_tables::ErrorTables;
use memeboard_core::human_eval::raters::RaterRow;
use memeboard_core::human_eval::thresholds::ExcludedRater;
use std::sync::Arc;

/// A study page's computed summary, tables, per-rater reliability, the raters its
/// reliability thresholds leave out, the CMPM per-annotator table and win matrix and the error
/// labels' tables (or why they could not be computed).
pub type StudyTables = Result<
    (
        HumanEvalSummary,
        HumanTables,
        Vec<RaterRow>,
        Vec<ExcludedRater>,
        CmpmTables,
        Option<ErrorTables>,
    ),
    String,
>;

/// Shared state of every handler.
#[derive(Clone)]
pub struct AppState {
    /// Storage.
    pub storage: Storage,
    /// Settings.
    pub settings: Arc<Settings>,
    /// Sentence embeddings (may be "not installed": the rest of the site works without).
    pub embeddings: EmbeddingService,
    /// Each client's share of explanation scoring on the request path.
    pub scoring_admission: Arc<crate::explain::admission::ScoringAdmission>,
    /// Per-client request counts of the current minute.
    pub rate_limits: Arc<crate::http::rate_limit::RateLimiter>,
    /// Quiz crowd statistics per task, reused while the crowd's data is unchanged.
    pub crowd_stats: Arc<CrowdCache<memeboard_core::api::CrowdStatsResponse>>,
    /// Per task, each item's crowd answers summed per participant (the results' per-item
    /// figures), likewise.
    pub item_crowd: Arc<CrowdCache<crate::crowd::items::ItemCrowdTable>>,
    /// Board crowd rows per task and board half, likewise.
    pub board_crowd: Arc<CrowdCache<Vec<memeboard_core::api::CrowdRow>>>,
    /// A board half's human and familiarity rows as published, likewise (a request that finds
    /// them reads no crowd answer).
    pub board_human_rows: Arc<
        CrowdCache<(
            Vec<memeboard_core::api::BoardRow>,
            Vec<memeboard_core::api::FamiliarityRow>,
        )>,
    >,
    /// Board baseline rows scored by the kind's scorer, per task and half (they change only
    /// when the task's items do).
    pub board_references: Arc<CrowdCache<Vec<memeboard_core::api::BoardRow>>>,
    /// Board human accuracy by familiarity (clip tasks), likewise.
    pub board_familiarity: Arc<CrowdCache<Vec<memeboard_core::api::FamiliarityRow>>>,
    /// The paper tables' model cells by familiarity group (AVMeme Exam Figure 4), per task,
    /// view and table, likewise.
    pub paper_familiarity: Arc<CrowdCache<memeboard_core::paper_tables::ComputedCells>>,
    /// The owner's live progress view per task, computed once per state of its sessions.
    pub progress: Arc<CrowdCache<memeboard_core::fieldwork::ProgressResponse>>,
    /// A study page's summary, tables and per-rater rows, once per state of its judgements.
    pub study_tables: Arc<CrowdCache<StudyTables>>,
    /// A board's human-judged columns and validity panel, once per state of its studies'
    /// judgements.
    pub board_human: Arc<CrowdCache<Result<Option<BoardHumanEval>, String>>>,
    /// The app's HTML shells, which the first paint of the home and quiz pages fills in.
    pub shells: Arc<crate::http::html_shell::Shells>,
    /// The tasks whose uploads are being scored again (one pass per task at a time).
    pub rescorings: crate::task_slots::TaskSlots,
}
