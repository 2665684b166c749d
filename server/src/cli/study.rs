//! `memeboard study create-task|create`: judging tasks and human-evaluation studies.

use anyhow::Context;
use clap::Subcommand;
use memeboard_core::human_eval::error_labels::{
    paper_error_labels as paper_labels, parse_error_labels, ErrorLabel,
};
use memeboard_core::human_eval::statements::AccuracyStatements;
use memeboard_core::human_eval::study::{CreateStudyRequest, StudyProtocol, SubmissionPick};
use memeboard_core::human_eval::training::TrainingRequest;
use memeboard_server::judging::{self, JudgingTaskSpec};
use memeboard_server::storage::Storage;
use std::path::{Path, PathBuf};

#[derive(Subcommand)]
// Parsed once per run: the size of the `create` variant's options costs nothing.
#[allow(clippy::large_enum_variant)]
pub(super) enum StudyAction {
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
        /// Rating batches of one category each (CHIME: 20 memes of one type per batch).
        #[arg(long)]
        one_category_batches: bool,
        /// Accuracy studies: a meme and every model's explanation of it on one page (CHIME).
        #[arg(long)]
        one_page_per_subject: bool,
        /// CMPM studies: sample by the labels another task of the benchmark gives the same
        /// comics (its slug, e.g. the structure-type task), dev split only.
        #[arg(long)]
        stratify_by: Option<String>,
        /// The dense design: every rater judges every page, one batch after another.
        #[arg(long)]
        dense: bool,
        /// Accuracy studies: a JSON file with the statements raters judge, `{"meaning":
        /// {"en": …, "zh": …}, "origin": {…}, "example": {…}}` (default: the paper's).
        #[arg(long)]
        statements: Option<PathBuf>,
        /// Rater training: a JSON file `{"rubric": …, "practice": [{"source_item": …,
        /// "output": {…}, "expected": {…}, "note": …}], "pass_percent": 70}` (see
        /// docs/human-evaluation.md, "Rater training").
        #[arg(long)]
        training: Option<PathBuf>,
        /// Error labels raters may tag wrong outputs with: a file of one label a line,
        /// `key | English | 中文` (or a JSON list of `{"key", "en", "zh"}`).
        #[arg(long, conflicts_with = "paper_error_labels")]
        error_labels: Option<PathBuf>,
        /// The paper's error labels for the protocol (CHIME: origin confusion, semantic
        /// shift, cross-type confusion; CMPM: contrast swap, reply misorder, punchline first).
        #[arg(long)]
        paper_error_labels: bool,
    },
}

/// Runs `memeboard study …`; the options of `study create` are checked before the settings
/// are read.
pub(super) async fn run(config_dir: &Path, action: StudyAction) -> anyhow::Result<()> {
    match action {
        StudyAction::CreateTask { spec, invite } => {
            create_task(config_dir, &spec, invite.as_deref()).await
        }
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
            one_category_batches,
            one_page_per_subject,
            stratify_by,
            dense,
            statements,
            training,
            error_labels,
            paper_error_labels,
        } => {
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
            let request = CreateStudyRequest {
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
                one_category_batches,
                one_page_per_subject,
                stratify_by,
                dense,
                statements: statements.as_deref().map(read_statements).transpose()?,
                training: training.as_deref().map(read_training).transpose()?,
                error_labels: match error_labels {
                    Some(path) => Some(read_error_labels(&path)?),
                    None => paper_error_labels.then(|| paper_labels(protocol)),
                },
            };
            create(config_dir, &task, request).await
        }
    }
}

/// The labels file of `study create --error-labels`: one label a line (`key | English |
/// 中文`), or a JSON list.
fn read_error_labels(path: &Path) -> anyhow::Result<Vec<ErrorLabel>> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("--error-labels: cannot read {}", path.display()))?;
    if text.trim_start().starts_with('[') {
        return serde_json::from_str(&text).with_context(|| {
            format!(
                "--error-labels {}: expected [{{\"key\": …, \"en\": …, \"zh\": …}}, …]",
                path.display()
            )
        });
    }
    parse_error_labels(&text).map_err(|m| anyhow::anyhow!("--error-labels {}: {m}", path.display()))
}

/// The statements file of `study create --statements`.
fn read_statements(path: &Path) -> anyhow::Result<AccuracyStatements> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("--statements: cannot read {}", path.display()))?;
    serde_json::from_str(&text).with_context(|| {
        format!(
            "--statements {}: expected {{\"meaning\": {{\"en\": …, \"zh\": …}}, \"origin\": …, \"example\": …}}",
            path.display()
        )
    })
}

/// The training file of `study create --training`.
fn read_training(path: &Path) -> anyhow::Result<TrainingRequest> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("--training: cannot read {}", path.display()))?;
    serde_json::from_str(&text).with_context(|| {
        format!(
            "--training {}: expected {{\"rubric\": …, \"practice\": [{{\"source_item\": …, \"output\": …, \"expected\": …, \"note\": …}}], \"pass_percent\": …}}",
            path.display()
        )
    })
}

/// `study create-task`: the judging task of the spec file, invitation-only with `invite`.
async fn create_task(config_dir: &Path, spec: &Path, invite: Option<&str>) -> anyhow::Result<()> {
    let settings = super::settings(config_dir)?;
    let text =
        std::fs::read_to_string(spec).with_context(|| format!("reading {}", spec.display()))?;
    let mut parsed: JudgingTaskSpec = serde_json::from_str(&text)
        .with_context(|| format!("{}: not a judging task spec", spec.display()))?;
    if let Some(secret) = invite {
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
    let link = match invite {
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

/// `study create`: the study of `request` on the board of `task`, acting as `cli`.
async fn create(
    config_dir: &Path,
    task: &str,
    mut request: CreateStudyRequest,
) -> anyhow::Result<()> {
    let settings = super::settings(config_dir)?;
    if settings.database.url.trim().is_empty() {
        std::fs::create_dir_all(&settings.data.dir)?;
    }
    let storage = Storage::connect(&settings.database_url(), 2).await?;
    memeboard_server::upgrade::run(&storage, settings.quiz.bootstrap_resamples).await?;
    let task_row = storage
        .find_fieldwork_task(task)
        .await?
        .ok_or_else(|| anyhow::anyhow!("no task named `{task}`"))?;
    let actor = memeboard_server::owners::Actor {
        owner_id: None,
        name: "cli".into(),
        task: task_row,
    };
    let created = memeboard_server::studies::create_study_as(&storage, &actor, task, &mut request)
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
        println!("  invitation-only: the links above carry the secret; it is not shown again");
    }
    storage.close().await;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_statements_file_is_read_or_its_shape_is_named() {
        let dir = tempfile::tempdir().unwrap();
        let good = dir.path().join("good.json");
        std::fs::write(
            &good,
            serde_json::to_string(&AccuracyStatements::default()).unwrap(),
        )
        .unwrap();
        assert_eq!(
            read_statements(&good).unwrap(),
            AccuracyStatements::default()
        );
        let bad = dir.path().join("bad.json");
        std::fs::write(&bad, r#"{"meaning": "one language only"}"#).unwrap();
        let err = format!("{:#}", read_statements(&bad).unwrap_err());
        assert!(
            err.contains("bad.json") && err.contains(r#"{"meaning": {"en""#),
            "{err}"
        );
        let missing = format!(
            "{:#}",
            read_statements(&dir.path().join("no.json")).unwrap_err()
        );
        assert!(
            missing.starts_with("--statements: cannot read"),
            "{missing}"
        );
    }

    #[test]
    fn an_error_labels_file_is_read_as_lines_or_json() {
        let dir = tempfile::tempdir().unwrap();
        let lines = dir.path().join("labels.txt");
        std::fs::write(
            &lines,
            "# mine\nwrong_panel | Describes the wrong panel | 描述错了画面\n\n",
        )
        .unwrap();
        let read = read_error_labels(&lines).unwrap();
        assert_eq!(read.len(), 1);
        assert_eq!(
            (read[0].key.as_str(), read[0].zh.as_str()),
            ("wrong_panel", "描述错了画面")
        );
        let json = dir.path().join("labels.json");
        let paper = paper_labels(StudyProtocol::Cmpm);
        std::fs::write(&json, serde_json::to_string(&paper).unwrap()).unwrap();
        assert_eq!(read_error_labels(&json).unwrap(), paper);
        std::fs::write(&lines, "wrong_panel | only English\n").unwrap();
        let err = format!("{:#}", read_error_labels(&lines).unwrap_err());
        assert!(
            err.contains("labels.txt") && err.contains("line 1: expected `key | English | 中文`"),
            "{err}"
        );
    }
}
