//! The command line: [`Cli`] with its subcommands and their help texts, and [`run`], which
//! hands each subcommand to its module.

mod distractors;
mod import;
mod invite;
mod owner;
mod participants;
mod rescore;
mod secret;
mod serve;
mod stats;
mod study;
mod submit;

use clap::{Parser, Subcommand};
use memeboard_server::config::Settings;
use memeboard_server::draws;
use memeboard_server::submit_cli::SubmitArgs;
use memeboard_server::telemetry;
use std::path::{Path, PathBuf};

#[derive(Parser)]
#[command(
    name = "memeboard",
    version,
    about = "Crowd baselines and leaderboards for meme-understanding benchmarks"
)]
pub(crate) struct Cli {
    /// Directory holding `$APP_ENVIRONMENT.toml` overrides.
    #[arg(
        long,
        global = true,
        default_value = "config",
        env = "MEMEBOARD_CONFIG_DIR"
    )]
    config_dir: PathBuf,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Run the web site (default).
    Serve,
    /// Import a benchmark from its upstream files.
    Import {
        #[command(subcommand)]
        format: import::ImportFormat,
    },
    /// Upload a prediction file to a running server (plain http:// only; for https use curl).
    ///
    /// Example: memeboard submit --server http://127.0.0.1:3000 --task demo-mcq --model NAME
    /// preds.jsonl (the token comes from --token or MEMEBOARD_TOKEN).
    Submit(SubmitArgs),
    /// Regenerate a text-meme benchmark's MCQ distractors by embedding similarity (the four
    /// memes nearest to the answer) and write them in the CHIME `chime_mcq.json` format.
    /// Recompute a task's human rows (average, best, pooled, intervals, agreement, per
    /// category, per board half and subset) from an answer-level export alone, with the
    /// site's functions, seeds and settings: the numbers equal the site's.
    ///
    /// Example: memeboard stats --export demo-mcq-answers.csv [--json]
    Stats {
        /// The export (CSV or JSON Lines, as downloaded from
        /// /api/owner/tasks/{slug}/export.csv or .jsonl).
        #[arg(long)]
        export: PathBuf,
        /// Print the report as JSON (full precision) instead of tables.
        #[arg(long)]
        json: bool,
        /// Bootstrap resamples (default: the configuration's `quiz.bootstrap_resamples`,
        /// which the site uses).
        #[arg(long)]
        resamples: Option<usize>,
        /// Categories with fewer items on a board half show no figure (default: the
        /// configuration's `leaderboard.min_category_items`).
        #[arg(long)]
        min_category_items: Option<usize>,
    },
    /// Issue an invitation code for one new author token, which the daily token caps do not
    /// block (send it as the bearer token of `POST /api/authors`). Signed with the admin
    /// token (`admin.token`); nothing is stored.
    InviteAuthor {
        /// Days the code stays valid.
        #[arg(long, default_value_t = 7, value_parser = clap::value_parser!(i64).range(1..=30))]
        days: i64,
    },
    /// Delete a participant's data on request: every session, answer, familiarity answer,
    /// survey and headphone check in the task's benchmark, named by the export's pseudonym
    /// or by Prolific id, in one transaction (human rows are recomputed).
    DeleteParticipant {
        /// A task of the benchmark.
        #[arg(long)]
        task: String,
        /// The participant's pseudonym (the export's `participant` column) or Prolific id.
        who: String,
    },
    Distractors {
        /// Benchmark slug (e.g. `demo` or `chime`).
        #[arg(long, default_value = "demo")]
        benchmark: String,
        /// Output file (`-` for standard output).
        #[arg(long, default_value = "-")]
        out: PathBuf,
    },
    /// Score every upload of a task again through the upload's own scoring path (after a
    /// corrected gold, or to record why its figures changed); the board's history shows when
    /// and why. Re-imports do it by themselves for the tasks whose gold changed.
    ///
    /// Example: memeboard rescore --task demo-mcq --reason "gold of 3 items corrected"
    Rescore {
        /// Task slug.
        #[arg(long)]
        task: String,
        /// Why (shown on the board).
        #[arg(long)]
        reason: String,
    },
    /// Manage owners (researchers running a benchmark's quizzes).
    Owner {
        #[command(subcommand)]
        action: owner::OwnerAction,
    },
    /// Human evaluation studies: judging tasks where people rate or rank model outputs.
    Study {
        #[command(subcommand)]
        action: study::StudyAction,
    },
    /// The secret key of the draws that hide gold (panel displays, clip model orders), to
    /// reproduce a benchmark's draws on another installation (docs/panels.md).
    Secret {
        #[command(subcommand)]
        action: draws::SecretAction,
    },
}

/// Server commands log and read settings; the `submit` client needs neither.
fn settings(config_dir: &Path) -> anyhow::Result<Settings> {
    telemetry::init();
    Settings::load(config_dir)
}

/// Runs the parsed command line (`serve` when no subcommand is given).
pub(crate) async fn run(cli: Cli) -> anyhow::Result<()> {
    let dir = cli.config_dir.as_path();
    match cli.command.unwrap_or(Command::Serve) {
        Command::Submit(args) => submit::run(&args).await,
        Command::InviteAuthor { days } => invite::run(dir, days),
        Command::Distractors { benchmark, out } => distractors::run(dir, &benchmark, &out).await,
        Command::Stats {
            export,
            json,
            resamples,
            min_category_items,
        } => stats::run(dir, &export, json, resamples, min_category_items),
        Command::DeleteParticipant { task, who } => participants::delete(dir, &task, &who).await,
        Command::Secret { action } => secret::run(dir, action).await,
        Command::Owner { action } => owner::run(dir, action).await,
        Command::Rescore { task, reason } => rescore::run(dir, &task, &reason).await,
        Command::Study { action } => study::run(dir, action).await,
        Command::Serve => serve::run(dir).await,
        Command::Import { format } => import::run(dir, format).await,
    }
}
