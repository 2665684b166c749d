//! `memeboard distractors`: regenerate a text-meme benchmark's MCQ distractors.

use anyhow::Context;
use memeboard_server::explain::inference::EmbeddingService;
use memeboard_server::import::distractors;
use memeboard_server::storage::Storage;
use std::path::Path;

/// Writes the benchmark's questions with new distractors to `out` (`-`: standard output).
pub(super) async fn run(config_dir: &Path, benchmark: &str, out: &Path) -> anyhow::Result<()> {
    let settings = super::settings(config_dir)?;
    let storage = Storage::connect(&settings.database_url(), 2).await?;
    memeboard_server::upgrade::run(&storage, settings.quiz.bootstrap_resamples).await?;
    let embeddings = EmbeddingService::load(&settings.model, &settings.data.dir);
    let file = distractors::regenerate(&storage, &embeddings, benchmark).await?;
    let text = serde_json::to_string_pretty(&file)? + "\n";
    if out.as_os_str() == "-" {
        print!("{text}");
    } else {
        std::fs::write(out, text).with_context(|| format!("writing {}", out.display()))?;
        eprintln!(
            "wrote {} questions to {}",
            file.as_array().map_or(0, Vec::len),
            out.display()
        );
    }
    storage.close().await;
    Ok(())
}
