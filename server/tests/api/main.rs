//! API and storage tests, run in-process against a fresh database each: SQLite always,
//! PostgreSQL when `MEMEBOARD_TEST_POSTGRES_URL` points at a server (the test command starts
//! one and sets `MEMEBOARD_REQUIRE_POSTGRES=1` so that these tests cannot silently skip).

#![expect(
    clippy::unwrap_used,
    reason = "a test fails loudly on an unexpected value"
)]

mod abuse_limits;
mod admission;
mod architecture;
mod attacker;
mod author_tokens;
mod cli;
mod clips;
mod clips_published;
mod cmpm_tables;
mod conditions;
mod cross_gold;
mod cross_task;
mod crowd_reads;
mod demo_clip_content;
mod demo_content;
mod device_check;
mod disclosure;
mod distractors;
mod draws;
mod error_labels;
mod explanation_adversarial;
mod explanation_board;
mod explanation_quiz;
mod export;
mod familiarity_table;
mod first_paint;
mod group_commit;
mod helpers;
mod http_hardening;
mod import;
mod import_safety;
mod inference;
mod integrity;
mod invitations;
mod judging;
mod kind_names;
mod leaderboard;
mod messages;
mod openapi;
mod outputs;
mod owners;
mod panels;
mod paper_figures;
mod paper_tables;
mod participation;
mod pilot;
mod quiz_flow;
mod quiz_rules;
mod rater_training;
mod reliability;
mod reliability_thresholds;
mod rescoring;
mod static_files;
mod studies;
mod study_designs;
mod whole_split;
mod write_faults;
