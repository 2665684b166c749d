//! `memeboard secret export|import`: the secret key of the draws that hide gold.

use memeboard_server::draws;
use memeboard_server::storage::Storage;
use std::path::Path;

/// Exports or imports the key (see [`draws::cli`]).
pub(super) async fn run(config_dir: &Path, action: draws::SecretAction) -> anyhow::Result<()> {
    let settings = super::settings(config_dir)?;
    let storage = Storage::connect(&settings.database_url(), 2).await?;
    memeboard_server::upgrade::run(&storage, settings.quiz.bootstrap_resamples).await?;
    draws::cli(&storage, action).await?;
    storage.close().await;
    Ok(())
}
