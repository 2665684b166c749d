//! memeboard server library: configuration, storage, importers, quiz protocol and HTTP API.
//! The `memeboard` binary is a thin CLI over this crate, and the tests use it in-process.

pub mod config;
pub mod crowd;
pub mod crowd_cache;
pub mod demo;
pub mod draws;
pub mod error;
pub mod explain;
pub mod export;
pub mod files;
pub mod first_paint;
pub mod http;
pub mod ids;
pub mod import;
pub mod judging;
pub mod kinds;
pub mod leaderboard;
pub mod media;
pub mod owners;
pub mod pseudonym;
pub mod quiz;
pub mod routes;
pub mod startup;
pub mod state;
pub mod storage;
pub mod studies;
pub mod study_tables;
pub mod submit_cli;
pub mod task_slots;
pub mod telemetry;
pub mod upgrade;

/// The clip importer under its earlier path (it lives in [`import::clips`]).
pub use import::clips as import_clips;
/// The panel importer under its earlier path (it lives in [`import::panels`]).
pub use import::panels as import_panels;
