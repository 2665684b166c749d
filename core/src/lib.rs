//! Pure domain crate of memeboard: task model, wire types, scoring and statistics.
//!
//! Everything here is plain data in, plain data out, with no IO, so the axum server and the
//! Leptos browser app compute identical numbers from the same code.

pub mod api;
pub mod assign;
pub mod conditions;
pub mod crowd;
pub mod csv;
pub mod disclosure;
pub mod embed;
pub mod fieldwork;
pub mod human_eval;
pub mod ids;
pub mod kinds;
pub mod leaderboard;
pub mod media;
pub mod messages;
pub mod metrics;
pub mod page_text;
pub mod paper_figures;
pub mod paper_tables;
pub mod position_bias;
pub mod predictions;
pub mod recruitment;
pub mod rng;
#[cfg(feature = "schema")]
pub mod schema;
pub mod scoring;
pub mod stats;
pub mod survey;
pub mod tasks;
