//! `memeboard`: run the site (`serve`, the default), manage data (`import chime`, `import panels`, `import clips`,
//! `delete-participant`, `study create-task`, `study create`, `secret export`/`import`), recompute human rows from a raw-data export (`stats --export`) or
//! upload a prediction file to a running server (`submit`).

use anyhow::Context;
use clap::{Parser, Subcommand};
use memeboard_server::config::Settings;
use memeboard_server::distractors;
use memeboard_server::draws;
use memeboard_server::export::delete_participant;
use memeboard_server::export::stats::{render, stats_from_export, StatsOptions};
use memeboard_server::import::{import_chime_with, BenchmarkSpec};
use memeboard_server::import_clips::{import_clips_with, ClipsSpec};
use memeboard_server::import_guard::TestToDev;
use memeboard_server::import_panels::{import_panels_with, PanelsSpec};
use memeboard_server::inference::EmbeddingService;
use memeboard_server::judging::{self, JudgingTaskSpec};
use memeboard_server::startup::Application;
use memeboard_server::storage::Storage;
use memeboard_server::submit_cli::{self, SubmitArgs};
use memeboard_server::telemetry;
use std::path::PathBuf;

/// mimalloc instead of glibc's allocator: about a tenth less CPU per quiz answer under load
/// (alternating runs of `cargo bench -p memeboard-server --bench answers`).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[derive(Parser)]
#[command(
    name = "memeboard",
    version,
    about = "Crowd baselines and leaderboards for meme-understanding benchmarks"
)]
struct Cli {
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
        format: ImportFormat,
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
    /// Manage owners (researchers running a benchmark's quizzes).
    Owner {
        #[command(subcommand)]
        action: OwnerAction,
    },
    /// Human evaluation studies: judging tasks where people rate or rank model outputs.
    Study {
        #[command(subcommand)]
        action: StudyAction,
    },
    /// The secret key of the draws that hide gold (panel displays, clip model orders), to
    /// reproduce a benchmark's draws on another installation (docs/panels.md).
    Secret {
        #[command(subcommand)]
        action: draws::SecretAction,
    },
}

#[derive(Subcommand)]
enum StudyAction {
    /// Create a judging task (kind `rating` or `ranking`) from a JSON spec: benchmark (id or
    /// slug), slug, title, description, kind, batch_size, optional invite_hash / study_id /
    /// categories, and the items with their batch (format: docs/human-evaluation.md).
    ///
    /// Example: memeboard study create-task --spec rating.json --invite SECRET
    CreateTask {
        /// The `JudgingTaskSpec` JSON file.
        #[arg(long)]
        spec: PathBuf,
        /// Make the task invitation-only with this secret (stored as its SHA-256; overrides
        /// the spec's `invite_hash`). Raters open /quiz/SLUG?invite=SECRET.
        #[arg(long)]
        invite: Option<String>,
    },
    /// Create a human-evaluation study from an explanation board: plans it (submissions, items
    /// per category, batches, planted checks) and creates its judging tasks, as the owner
    /// console does (docs/human-evaluation.md, "Running a study").
    ///
    /// Example: memeboard study create --task demo-explain --slug pilot --protocol accuracy
    ///   --top 3 --items-per-category 5 --batch-size 10 --raters 3 --planted-checks
    Create {
        /// The board's task slug (an explanation or comic-explanation task).
        #[arg(long)]
        task: String,
        /// The study's slug (its tasks are SLUG-rate and, for cmpm, SLUG-rank).
        #[arg(long)]
        slug: String,
        /// `accuracy` (CHIME, meme explanations) or `cmpm` (comic explanations).
        #[arg(long)]
        protocol: String,
        /// Judge the best K submissions by the board's primary score.
        #[arg(long, conflicts_with = "submissions")]
        top: Option<usize>,
        /// Judge exactly these submission ids (comma-separated).
        #[arg(long, value_delimiter = ',')]
        submissions: Vec<String>,
        /// Source items drawn per category.
        #[arg(long)]
        items_per_category: usize,
        /// Judging pages per batch.
        #[arg(long)]
        batch_size: usize,
        /// Raters wanted per batch.
        #[arg(long)]
        raters: usize,
        /// `dev` (default) or `test` (needs --invitation-only).
        #[arg(long, default_value = "dev")]
        split: String,
        /// Reached only through a secret link (printed once).
        #[arg(long)]
        invitation_only: bool,
        /// Plant outputs of known quality and exclude raters who judge them the wrong way.
        #[arg(long)]
        planted_checks: bool,
        /// Minimum time per page (ms).
        #[arg(long)]
        min_item_ms: Option<u64>,
        /// Seed of the sample (default: random).
        #[arg(long)]
        seed: Option<u64>,
        /// Title shown to raters.
        #[arg(long)]
        title: Option<String>,
    },
}

#[derive(Subcommand)]
enum OwnerAction {
    /// Create an owner token for a benchmark; the token is printed once (only its hash is
    /// stored). Example: memeboard owner create --benchmark demo --name "Lab of X".
    Create {
        /// Benchmark slug (e.g. `demo`).
        #[arg(long)]
        benchmark: String,
        /// Who the token is for (shown in the console's action log).
        #[arg(long)]
        name: String,
    },
}

#[derive(Subcommand)]
enum ImportFormat {
    /// CHIME: `chime_full.json` (memes) and `chime_mcq.json` (fill-in-the-blank questions).
    Chime {
        /// The memes file (upstream `chime_full.json` format).
        #[arg(long)]
        memes: PathBuf,
        /// The questions file (upstream `chime_mcq.json` format).
        #[arg(long)]
        mcq: PathBuf,
        /// Benchmark slug; ids are minted under it, so keep it across re-imports.
        #[arg(long, default_value = "chime")]
        slug: String,
        /// Benchmark title.
        #[arg(long, default_value = "CHIME: Chinese internet meme fill-in-the-blank")]
        title: String,
        /// Do not list the quiz publicly.
        #[arg(long)]
        closed: bool,
        /// Percent of questions in the open dev split (gold downloadable); the rest is the
        /// hidden test split, halved into the public and private boards.
        #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u8).range(0..=100))]
        dev_percent: u8,
        /// Allow this import to move items from the hidden test split to the open dev split
        /// (publishing their gold), e.g. after raising --dev-percent; refused otherwise.
        #[arg(long)]
        allow_test_to_dev: bool,
    },
    /// Audio-visual meme clips (AVMeme-style): a JSON Lines manifest and a folder of audio
    /// and video clips (format: docs/clips.md; needs ffprobe and ffmpeg). Creates the quiz
    /// `<slug>-clips`; everything is checked first and nothing is stored on any problem.
    Clips {
        /// The manifest (one clip per line).
        manifest: PathBuf,
        /// The folder the manifest's file names are relative to.
        #[arg(long)]
        media: PathBuf,
        /// Benchmark slug; ids are minted under it, so keep it across re-imports.
        #[arg(long, default_value = "avmeme")]
        slug: String,
        /// Benchmark title.
        #[arg(long, default_value = "Audio-visual memes: clips and questions")]
        title: String,
        /// Do not list the quiz publicly.
        #[arg(long)]
        closed: bool,
        /// Percent of clips in the open dev split.
        #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u8).range(0..=100))]
        dev_percent: u8,
        /// Allow this import to move items from the hidden test split to the open dev split
        /// (publishing their gold), e.g. after raising --dev-percent; refused otherwise.
        #[arg(long)]
        allow_test_to_dev: bool,
        /// Clips per participant batch.
        #[arg(long, default_value_t = 30)]
        batch_size: usize,
    },
    /// Multi-panel comics (CMPM-style): a JSON Lines manifest and a folder of panel images
    /// (format: docs/panels.md). Creates `<slug>-order` and `<slug>-type` and their context
    /// variants; everything is checked first and nothing is stored on any problem.
    Panels {
        /// The manifest (one comic per line).
        manifest: PathBuf,
        /// The folder the manifest's panel file names are relative to.
        #[arg(long)]
        media: PathBuf,
        /// Benchmark slug; ids are minted under it, so keep it across re-imports.
        #[arg(long, default_value = "cmpm")]
        slug: String,
        /// Benchmark title.
        #[arg(long, default_value = "Multi-panel memes: reading order and structure")]
        title: String,
        /// Do not list the two main quizzes publicly (variants always start closed).
        #[arg(long)]
        closed: bool,
        /// Percent of comics in the open dev split.
        #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u8).range(0..=100))]
        dev_percent: u8,
        /// Allow this import to move items from the hidden test split to the open dev split
        /// (publishing their gold), e.g. after raising --dev-percent; refused otherwise.
        #[arg(long)]
        allow_test_to_dev: bool,
        /// Comics per participant batch.
        #[arg(long, default_value_t = 10)]
        batch_size: usize,
    },
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    // Server commands log and read settings; the `submit` client needs neither.
    let settings = || {
        telemetry::init();
        Settings::load(&cli.config_dir)
    };
    match cli.command.unwrap_or(Command::Serve) {
        Command::Submit(args) => submit(&args).await,
        Command::InviteAuthor { days } => {
            let settings = settings()?;
            let today = memeboard_server::storage::now_ms().div_euclid(86_400_000);
            let code = memeboard_server::leaderboard::invites::mint(
                &settings.admin.token,
                today + days,
            )?
            .context("no admin token: set admin.token (MEMEBOARD__ADMIN__TOKEN), which signs invitations")?;
            println!("{code}");
            eprintln!(
                "valid for {days} day(s), for one author token: POST /api/authors with \
                 `Authorization: Bearer {code}`"
            );
            Ok(())
        }
        Command::Distractors { benchmark, out } => {
            let settings = settings()?;
            let storage = Storage::connect(&settings.database_url(), 2).await?;
            memeboard_server::upgrade::run(&storage, settings.quiz.bootstrap_resamples).await?;
            let embeddings = EmbeddingService::load(&settings.model, &settings.data.dir);
            let file = distractors::regenerate(&storage, &embeddings, &benchmark).await?;
            let text = serde_json::to_string_pretty(&file)? + "\n";
            if out.as_os_str() == "-" {
                print!("{text}");
            } else {
                std::fs::write(&out, text).with_context(|| format!("writing {}", out.display()))?;
                eprintln!(
                    "wrote {} questions to {}",
                    file.as_array().map_or(0, Vec::len),
                    out.display()
                );
            }
            storage.close().await;
            Ok(())
        }
        Command::Stats {
            export,
            json,
            resamples,
            min_category_items,
        } => {
            let settings = Settings::load(&cli.config_dir)?;
            let text = std::fs::read_to_string(&export)
                .with_context(|| format!("reading {}", export.display()))?;
            let options = StatsOptions {
                resamples: resamples.unwrap_or(settings.quiz.bootstrap_resamples),
                min_category_items: min_category_items
                    .unwrap_or(settings.leaderboard.min_category_items),
            };
            let report = stats_from_export(&text, options)
                .with_context(|| format!("{}", export.display()))?;
            if json {
                println!("{}", serde_json::to_string_pretty(&report)?);
            } else {
                print!("{}", render(&report));
            }
            Ok(())
        }
        Command::DeleteParticipant { task, who } => {
            let settings = settings()?;
            let storage = Storage::connect(&settings.database_url(), 2).await?;
            memeboard_server::upgrade::run(&storage, settings.quiz.bootstrap_resamples).await?;
            let deleted = delete_participant(&storage, &task, &who)
                .await
                .map_err(|e| anyhow::anyhow!("{e}"))?;
            println!(
                "deleted {} session(s) and {} answer(s) of {} participant(s) named `{}` in {}",
                deleted.sessions,
                deleted.answers,
                deleted.participants,
                deleted.who,
                deleted.tasks.join(", ")
            );
            storage.close().await;
            Ok(())
        }
        Command::Secret { action } => {
            let settings = settings()?;
            let storage = Storage::connect(&settings.database_url(), 2).await?;
            memeboard_server::upgrade::run(&storage, settings.quiz.bootstrap_resamples).await?;
            draws::cli(&storage, action).await?;
            storage.close().await;
            Ok(())
        }
        Command::Owner {
            action: OwnerAction::Create { benchmark, name },
        } => {
            let settings = settings()?;
            if settings.database.url.trim().is_empty() {
                std::fs::create_dir_all(&settings.data.dir)?;
            }
            let storage = Storage::connect(&settings.database_url(), 2).await?;
            let request = memeboard_core::study::CreateOwnerRequest { benchmark, name };
            let owner = memeboard_server::owners::create_owner(&storage, &request, "cli")
                .await
                .map_err(|e| anyhow::anyhow!("{e}"))?;
            println!(
                "owner {} ({}) of benchmark `{}`; token (shown once, keep it): {}",
                owner.owner_id, owner.name, owner.benchmark, owner.token
            );
            storage.close().await;
            Ok(())
        }
        Command::Study {
            action: StudyAction::CreateTask { spec, invite },
        } => {
            let settings = settings()?;
            let text = std::fs::read_to_string(&spec)
                .with_context(|| format!("reading {}", spec.display()))?;
            let mut parsed: JudgingTaskSpec = serde_json::from_str(&text)
                .with_context(|| format!("{}: not a judging task spec", spec.display()))?;
            if let Some(secret) = &invite {
                parsed.invite_hash = Some(judging::invite_hash(secret));
            }
            if settings.database.url.trim().is_empty() {
                std::fs::create_dir_all(&settings.data.dir)?;
            }
            let storage = Storage::connect(&settings.database_url(), 2).await?;
            memeboard_server::upgrade::run(&storage, settings.quiz.bootstrap_resamples).await?;
            // The benchmark may be named by its slug.
            if !storage.benchmark_exists(&parsed.benchmark_id).await? {
                if let Some(id) = storage.benchmark_id(&parsed.benchmark_id).await? {
                    parsed.benchmark_id = id;
                }
            }
            let id = judging::create_judging_task(&storage, &parsed)
                .await
                .map_err(|e| anyhow::anyhow!("{}: {e}", spec.display()))?;
            let link = match &invite {
                Some(secret) => format!("/quiz/{}?invite={secret}", parsed.slug),
                None => format!("/quiz/{}", parsed.slug),
            };
            println!(
                "created judging task `{}` ({id}, {} items); raters open {link}",
                parsed.slug,
                parsed.items.len()
            );
            storage.close().await;
            Ok(())
        }
        Command::Study {
            action:
                StudyAction::Create {
                    task,
                    slug,
                    protocol,
                    top,
                    submissions,
                    items_per_category,
                    batch_size,
                    raters,
                    split,
                    invitation_only,
                    planted_checks,
                    min_item_ms,
                    seed,
                    title,
                },
        } => {
            use memeboard_core::human_eval::study::{
                CreateStudyRequest, StudyProtocol, SubmissionPick,
            };
            let protocol = StudyProtocol::parse(&protocol).ok_or_else(|| {
                anyhow::anyhow!("--protocol: expected accuracy or cmpm, found `{protocol}`")
            })?;
            let split = match split.as_str() {
                "dev" => memeboard_core::predictions::Split::Dev,
                "test" => memeboard_core::predictions::Split::Test,
                other => anyhow::bail!("--split: expected dev or test, found `{other}`"),
            };
            let pick = match (top, submissions.is_empty()) {
                (Some(k), _) => SubmissionPick::Top { k },
                (None, false) => SubmissionPick::Ids { ids: submissions },
                (None, true) => anyhow::bail!("give --top K or --submissions ID,ID,…"),
            };
            let mut request = CreateStudyRequest {
                slug,
                title,
                protocol,
                submissions: pick,
                items_per_category,
                split,
                invitation_only,
                batch_size,
                raters_per_batch: raters,
                planted_checks,
                min_item_ms,
                seed,
            };
            let settings = settings()?;
            if settings.database.url.trim().is_empty() {
                std::fs::create_dir_all(&settings.data.dir)?;
            }
            let storage = Storage::connect(&settings.database_url(), 2).await?;
            memeboard_server::upgrade::run(&storage, settings.quiz.bootstrap_resamples).await?;
            let task_row = storage
                .find_study_task(&task)
                .await?
                .ok_or_else(|| anyhow::anyhow!("no task named `{task}`"))?;
            let actor = memeboard_server::owners::Actor {
                owner_id: None,
                name: "cli".into(),
                task: task_row,
            };
            let created =
                memeboard_server::studies::create_study_as(&storage, &actor, &task, &mut request)
                    .await
                    .map_err(|e| anyhow::anyhow!("{e}"))?;
            println!(
                "created study `{}` (seed {}): {} submissions, {} source items, {} test items exposed",
                created.study,
                created.seed,
                created.submissions.len(),
                created.source_items,
                created.exposed_test_items
            );
            for t in &created.tasks {
                println!(
                    "  {} `{}`: {} pages in {} batches, {} raters wanted; raters open {} (Prolific: {})",
                    t.kind, t.slug, t.items, t.batches, t.raters_target, t.link, t.prolific_link
                );
            }
            if created.invite.is_some() {
                println!(
                    "  invitation-only: the links above carry the secret; it is not shown again"
                );
            }
            storage.close().await;
            Ok(())
        }
        Command::Serve => {
            let app = Application::build(settings()?).await?;
            app.run_until(shutdown_signal()).await
        }
        Command::Import {
            format:
                ImportFormat::Clips {
                    manifest,
                    media,
                    slug,
                    title,
                    closed,
                    dev_percent,
                    batch_size,
                    allow_test_to_dev,
                },
        } => {
            let settings = settings()?;
            let text = std::fs::read_to_string(&manifest)
                .with_context(|| format!("reading {}", manifest.display()))?;
            anyhow::ensure!(
                media.is_dir(),
                "--media {}: not a folder (expected the folder holding the clips)",
                media.display()
            );
            if settings.database.url.trim().is_empty() {
                std::fs::create_dir_all(&settings.data.dir)?;
            }
            let storage = Storage::connect(&settings.database_url(), 2).await?;
            memeboard_server::upgrade::run(&storage, settings.quiz.bootstrap_resamples).await?;
            let spec = ClipsSpec {
                description: format!("Imported from {}", file_name(&manifest)),
                task_slug: format!("{slug}-clips"),
                slug,
                title,
                batch_size,
                dev_percent,
                quiz_open: !closed,
            };
            let n = import_clips_with(
                &storage,
                &spec,
                &file_name(&manifest),
                &text,
                &media,
                test_to_dev(allow_test_to_dev),
            )
            .await?;
            println!(
                "imported {n} clips into benchmark `{}` (quiz `{}`)",
                spec.slug, spec.task_slug
            );
            storage.close().await;
            Ok(())
        }
        Command::Import {
            format:
                ImportFormat::Panels {
                    manifest,
                    media,
                    slug,
                    title,
                    closed,
                    dev_percent,
                    batch_size,
                    allow_test_to_dev,
                },
        } => {
            let settings = settings()?;
            let text = std::fs::read_to_string(&manifest)
                .with_context(|| format!("reading {}", manifest.display()))?;
            anyhow::ensure!(
                media.is_dir(),
                "--media {}: not a folder (expected the folder holding the panel images)",
                media.display()
            );
            if settings.database.url.trim().is_empty() {
                std::fs::create_dir_all(&settings.data.dir)?;
            }
            let storage = Storage::connect(&settings.database_url(), 2).await?;
            memeboard_server::upgrade::run(&storage, settings.quiz.bootstrap_resamples).await?;
            let spec = PanelsSpec {
                description: format!("Imported from {}", file_name(&manifest)),
                slug,
                title,
                batch_size,
                dev_percent,
                quiz_open: !closed,
            };
            // Only regular files inside the folder, each capped (import_files).
            let folder = memeboard_server::import_files::MediaFolder::open(&media)
                .map_err(anyhow::Error::msg)?;
            let read = folder.image_reader();
            let moves = test_to_dev(allow_test_to_dev);
            let summary =
                import_panels_with(&storage, &spec, &file_name(&manifest), &text, &read, moves)
                    .await?;
            println!(
                "imported {} comics into benchmark `{}`: {} in order recovery, {} in structure typing; tasks {}",
                summary.comics,
                spec.slug,
                summary.order_items,
                summary.type_items,
                summary.tasks.join(", ")
            );
            storage.close().await;
            Ok(())
        }
        Command::Import {
            format:
                ImportFormat::Chime {
                    memes,
                    mcq,
                    slug,
                    title,
                    closed,
                    dev_percent,
                    allow_test_to_dev,
                },
        } => {
            let settings = settings()?;
            let read = |p: &PathBuf| {
                std::fs::read_to_string(p).with_context(|| format!("reading {}", p.display()))
            };
            let (memes_json, mcq_json) = (read(&memes)?, read(&mcq)?);
            if settings.database.url.trim().is_empty() {
                std::fs::create_dir_all(&settings.data.dir)?;
            }
            let storage = Storage::connect(&settings.database_url(), 2).await?;
            memeboard_server::upgrade::run(&storage, settings.quiz.bootstrap_resamples).await?;
            let spec = BenchmarkSpec {
                description: format!(
                    "Imported from {} and {}",
                    file_name(&memes),
                    file_name(&mcq)
                ),
                slug,
                title,
                batch_size: settings.quiz.batch_size,
                quiz_open: !closed,
                dev_percent,
                explain_batch_size: settings.quiz.explain_batch_size,
            };
            let moves = test_to_dev(allow_test_to_dev);
            let (n_memes, n_items) =
                import_chime_with(&storage, &spec, &memes_json, &mcq_json, moves).await?;
            println!("imported {n_memes} memes and {n_items} questions into benchmark `{}` (quiz `{}-mcq`)", spec.slug, spec.slug);
            storage.close().await;
            Ok(())
        }
    }
}

/// `memeboard submit`: the report on stdout when accepted; every error line on stderr and exit
/// status 1 when the server refuses the file.
async fn submit(args: &SubmitArgs) -> anyhow::Result<()> {
    let outcome = submit_cli::submit(args).await?;
    if outcome.is_accepted() {
        print!("{}", outcome.render());
        Ok(())
    } else {
        eprint!("{}", outcome.render());
        std::process::exit(1);
    }
}

/// The `--allow-test-to-dev` flag as the importers take it.
fn test_to_dev(allow: bool) -> TestToDev {
    if allow {
        TestToDev::Allow
    } else {
        TestToDev::Refuse
    }
}

fn file_name(p: &std::path::Path) -> String {
    p.file_name()
        .map(|f| f.to_string_lossy().into_owned())
        .unwrap_or_default()
}

async fn shutdown_signal() {
    let ctrl_c = async {
        if let Err(e) = tokio::signal::ctrl_c().await {
            tracing::warn!("cannot listen for Ctrl-C: {e}");
            std::future::pending::<()>().await;
        }
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(e) => {
                tracing::warn!("cannot listen for SIGTERM: {e}");
                std::future::pending::<()>().await;
            }
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! { () = ctrl_c => {}, () = terminate => {} }
    tracing::info!("shutdown signal received");
}
