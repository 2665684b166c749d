//! `memeboard stats --export`: a task's human rows recomputed from an answer-level export.

use anyhow::Context;
use memeboard_server::config::Settings;
use memeboard_server::export::stats::{render, stats_from_export, StatsOptions};
use std::path::Path;

/// Prints the report (tables, or JSON with `json`); the options default to the settings'.
pub(super) fn run(
    config_dir: &Path,
    export: &Path,
    json: bool,
    resamples: Option<usize>,
    min_category_items: Option<usize>,
) -> anyhow::Result<()> {
    let settings = Settings::load(config_dir)?;
    let text =
        std::fs::read_to_string(export).with_context(|| format!("reading {}", export.display()))?;
    let options = StatsOptions {
        resamples: resamples.unwrap_or(settings.quiz.bootstrap_resamples),
        min_category_items: min_category_items.unwrap_or(settings.leaderboard.min_category_items),
    };
    let report =
        stats_from_export(&text, options).with_context(|| format!("{}", export.display()))?;
    if json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        print!("{}", render(&report));
    }
    Ok(())
}
