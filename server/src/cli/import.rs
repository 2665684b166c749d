//! `memeboard import chime|clips|panels`: a benchmark from its upstream files.

use anyhow::Context;
use clap::{Args, Subcommand};
use memeboard_server::config::Settings;
use memeboard_server::explain::inference::EmbeddingService;
use memeboard_server::import::guard::TestToDev;
use memeboard_server::import::{import_chime_with, BenchmarkSpec};
use memeboard_server::import_clips::{import_clips_with, ClipsSpec};
use memeboard_server::import_panels::{import_panels_with, PanelsSpec};
use memeboard_server::owners::rescore::{gold_digests, rescore_reimported};
use memeboard_server::storage::Storage;
use std::path::{Path, PathBuf};

#[derive(Subcommand)]
pub(super) enum ImportFormat {
    /// CHIME: `chime_full.json` (memes) and `chime_mcq.json` (fill-in-the-blank questions).
    Chime(ChimeArgs),
    /// Audio-visual meme clips (AVMeme-style): a JSON Lines manifest and a folder of audio
    /// and video clips (format: docs/clips.md; needs ffprobe and ffmpeg). Creates the quiz
    /// `<slug>-clips`; everything is checked first and nothing is stored on any problem.
    Clips(ClipsArgs),
    /// Multi-panel comics (CMPM-style): a JSON Lines manifest and a folder of panel images
    /// (format: docs/panels.md). Creates `<slug>-order` and `<slug>-type` and their context
    /// variants; everything is checked first and nothing is stored on any problem.
    Panels(PanelsArgs),
    /// A paper's published figures (JSON Lines, or CSV when the file ends in `.csv`: task,
    /// model, conditions, metric, category, subset, value, n, source) for a benchmark already
    /// imported from the paper's data; every line is checked against the benchmark and
    /// nothing is stored on any problem. Replaces the benchmark's earlier figures. Examples:
    /// `examples/published/`.
    Published(PublishedArgs),
}

/// Options of `memeboard import published`.
#[derive(Args)]
pub(super) struct PublishedArgs {
    /// The figures file.
    file: PathBuf,
    /// The benchmark the figures belong to.
    #[arg(long)]
    benchmark: String,
}

/// Options of `memeboard import chime`.
#[derive(Args)]
pub(super) struct ChimeArgs {
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
}

/// Options of `memeboard import clips`.
#[derive(Args)]
pub(super) struct ClipsArgs {
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
}

/// Options of `memeboard import panels`.
#[derive(Args)]
pub(super) struct PanelsArgs {
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
}

/// Runs `memeboard import …`.
pub(super) async fn run(config_dir: &Path, format: ImportFormat) -> anyhow::Result<()> {
    match format {
        ImportFormat::Clips(args) => clips(config_dir, args).await,
        ImportFormat::Panels(args) => panels(config_dir, args).await,
        ImportFormat::Chime(args) => chime(config_dir, args).await,
        ImportFormat::Published(args) => published(config_dir, args).await,
    }
}

async fn published(config_dir: &Path, args: PublishedArgs) -> anyhow::Result<()> {
    let text = std::fs::read_to_string(&args.file)
        .with_context(|| format!("reading {}", args.file.display()))?;
    let (_, storage) = open_storage(config_dir).await?;
    let format = memeboard_core::predictions::FileFormat::from_file_name(&file_name(&args.file));
    let done = memeboard_server::import::paper_figures::import_paper_figures(
        &storage,
        &args.benchmark,
        &text,
        format,
    )
    .await?;
    println!(
        "imported {} published figure(s) for `{}`",
        done.figures, args.benchmark
    );
    for (task, n) in done.per_task {
        println!("  {task}: {n}");
    }
    Ok(())
}

async fn clips(config_dir: &Path, args: ClipsArgs) -> anyhow::Result<()> {
    let ClipsArgs {
        manifest,
        media,
        slug,
        title,
        closed,
        dev_percent,
        batch_size,
        allow_test_to_dev,
    } = args;
    let text = read_manifest(&manifest, &media, "the clips")?;
    let source = file_name(&manifest);
    let spec = ClipsSpec {
        description: format!("Imported from {source}"),
        task_slug: format!("{slug}-clips"),
        slug,
        title,
        batch_size,
        dev_percent,
        quiz_open: !closed,
    };
    let moves = test_to_dev(allow_test_to_dev);
    import_and_rescore(config_dir, &spec.slug, &source, async |storage, _| {
        let n = import_clips_with(storage, &spec, &source, &text, &media, moves).await?;
        Ok(format!(
            "imported {n} clips into benchmark `{}` (quiz `{}`)",
            spec.slug, spec.task_slug
        ))
    })
    .await
}

async fn panels(config_dir: &Path, args: PanelsArgs) -> anyhow::Result<()> {
    let PanelsArgs {
        manifest,
        media,
        slug,
        title,
        closed,
        dev_percent,
        batch_size,
        allow_test_to_dev,
    } = args;
    let text = read_manifest(&manifest, &media, "the panel images")?;
    let source = file_name(&manifest);
    let spec = PanelsSpec {
        description: format!("Imported from {source}"),
        slug,
        title,
        batch_size,
        dev_percent,
        quiz_open: !closed,
    };
    let moves = test_to_dev(allow_test_to_dev);
    import_and_rescore(config_dir, &spec.slug, &source, async |storage, _| {
        // Only regular files inside the folder, each capped (import/files.rs).
        let folder = memeboard_server::import::files::MediaFolder::open(&media)
            .map_err(anyhow::Error::msg)?;
        let read = folder.image_reader();
        let summary = import_panels_with(storage, &spec, &source, &text, &read, moves).await?;
        Ok(format!(
            "imported {} comics into benchmark `{}`: {} in order recovery, {} in structure typing; tasks {}",
            summary.comics,
            spec.slug,
            summary.order_items,
            summary.type_items,
            summary.tasks.join(", ")
        ))
    })
    .await
}

async fn chime(config_dir: &Path, args: ChimeArgs) -> anyhow::Result<()> {
    let ChimeArgs {
        memes,
        mcq,
        slug,
        title,
        closed,
        dev_percent,
        allow_test_to_dev,
    } = args;
    let read = |p: &PathBuf| {
        std::fs::read_to_string(p).with_context(|| format!("reading {}", p.display()))
    };
    let (memes_json, mcq_json) = (read(&memes)?, read(&mcq)?);
    let source = format!("{} and {}", file_name(&memes), file_name(&mcq));
    let moves = test_to_dev(allow_test_to_dev);
    let benchmark = slug.clone();
    import_and_rescore(
        config_dir,
        &benchmark,
        &source,
        async |storage, settings| {
            let spec = BenchmarkSpec {
                description: format!("Imported from {source}"),
                slug,
                title,
                batch_size: settings.quiz.batch_size,
                quiz_open: !closed,
                dev_percent,
                explain_batch_size: settings.quiz.explain_batch_size,
            };
            let (n_memes, n_items) =
                import_chime_with(storage, &spec, &memes_json, &mcq_json, moves).await?;
            Ok(format!(
            "imported {n_memes} memes and {n_items} questions into benchmark `{}` (quiz `{}-mcq`)",
            spec.slug, spec.slug
        ))
        },
    )
    .await
}

/// The steps every import shares around its own: open the database, note the benchmark's
/// gold, run `import` (which says what it stored), score again the uploads whose gold it
/// changed, close.
async fn import_and_rescore(
    config_dir: &Path,
    benchmark: &str,
    source: &str,
    import: impl AsyncFnOnce(&Storage, &Settings) -> anyhow::Result<String>,
) -> anyhow::Result<()> {
    let (settings, storage) = open_storage(config_dir).await?;
    let before = gold_digests(&storage, benchmark).await?;
    let done = import(&storage, &settings).await?;
    println!("{done}");
    rescore_changed(&settings, &storage, benchmark, &before, source).await?;
    storage.close().await;
    Ok(())
}

/// A re-import that changed a task's gold (or its splits) scores the task's uploads again,
/// so that no board mixes figures against the old and the new gold (`rescore`).
async fn rescore_changed(
    settings: &Settings,
    storage: &Storage,
    benchmark: &str,
    before: &std::collections::BTreeMap<String, u64>,
    source: &str,
) -> anyhow::Result<()> {
    let reason = format!("gold re-imported from {source}");
    let done = rescore_reimported(
        storage,
        settings,
        || EmbeddingService::load(&settings.model, &settings.data.dir),
        benchmark,
        before,
        &reason,
    )
    .await?;
    for (task, r) in done {
        println!(
            "  {task}: the gold changed; {} upload(s) scored again, {} skipped (stored before files were kept)",
            r.rescored, r.skipped
        );
    }
    Ok(())
}

/// A manifest's text, after checking that `--media` is a folder (holding `what`).
fn read_manifest(manifest: &Path, media: &Path, what: &str) -> anyhow::Result<String> {
    let text = std::fs::read_to_string(manifest)
        .with_context(|| format!("reading {}", manifest.display()))?;
    anyhow::ensure!(
        media.is_dir(),
        "--media {}: not a folder (expected the folder holding {what})",
        media.display()
    );
    Ok(text)
}

/// The settings and the database an import writes to (the default SQLite file's folder made
/// first), brought up to date with `upgrade::run` like a starting server does.
async fn open_storage(config_dir: &Path) -> anyhow::Result<(Settings, Storage)> {
    let settings = super::settings(config_dir)?;
    if settings.database.url.trim().is_empty() {
        std::fs::create_dir_all(&settings.data.dir)?;
    }
    let storage = Storage::connect(&settings.database_url(), 2).await?;
    memeboard_server::upgrade::run(&storage, settings.quiz.bootstrap_resamples).await?;
    Ok((settings, storage))
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
