//! `memeboard delete-participant`: delete a participant's data on request.

use memeboard_server::export::delete_participant;
use memeboard_server::storage::Storage;
use std::path::Path;

/// Deletes everything of `who` in the benchmark of `task` and says what went.
pub(super) async fn delete(config_dir: &Path, task: &str, who: &str) -> anyhow::Result<()> {
    let settings = super::settings(config_dir)?;
    let storage = Storage::connect(&settings.database_url(), 2).await?;
    memeboard_server::upgrade::run(&storage, settings.quiz.bootstrap_resamples).await?;
    let deleted = delete_participant(&storage, task, who)
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
