//! Reusable view pieces shared by the pages.

pub mod answer;
pub mod board_chart;
pub mod browser_model;
pub mod copy_row;
pub mod export;
pub mod fields;
pub mod header;
pub mod headphone_check;
pub mod human_eval;
pub mod rater_links;
pub mod rater_table;
pub mod reliability_form;
pub mod score;
pub mod sentence;
pub mod status;
pub mod study_preview;
pub mod title;
pub mod withdraw;
