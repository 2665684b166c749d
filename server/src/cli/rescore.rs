//! `memeboard rescore`: score every upload of a task again on the server's machine (the
//! console's button and `POST /api/owner/tasks/{slug}/rescore` do the same in the server).

use memeboard_server::explain::inference::EmbeddingService;
use memeboard_server::owners::rescore::rescore_task;
use memeboard_server::storage::Storage;
use std::path::Path;

/// Scores the uploads of `task` again and prints what was done.
pub(super) async fn run(config_dir: &Path, task: &str, reason: &str) -> anyhow::Result<()> {
    let settings = super::settings(config_dir)?;
    let storage = Storage::connect(&settings.database_url(), 2).await?;
    memeboard_server::upgrade::run(&storage, settings.quiz.bootstrap_resamples).await?;
    let embeddings = EmbeddingService::load(&settings.model, &settings.data.dir);
    let record = rescore_task(&storage, &settings, &embeddings, task, reason)
        .await
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    println!(
        "{task}: {} upload(s) scored again, {} skipped (stored before files were kept, or no \
         longer valid against the items); the board's history says: {}",
        record.rescored, record.skipped, record.reason
    );
    storage.close().await;
    Ok(())
}
