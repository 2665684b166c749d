//! `memeboard owner create`: owner tokens (researchers running a benchmark's quizzes).

use clap::Subcommand;
use memeboard_server::storage::Storage;
use std::path::Path;

#[derive(Subcommand)]
pub(super) enum OwnerAction {
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

/// Runs `memeboard owner …`.
pub(super) async fn run(config_dir: &Path, action: OwnerAction) -> anyhow::Result<()> {
    let OwnerAction::Create { benchmark, name } = action;
    let settings = super::settings(config_dir)?;
    if settings.database.url.trim().is_empty() {
        std::fs::create_dir_all(&settings.data.dir)?;
    }
    let storage = Storage::connect(&settings.database_url(), 2).await?;
    let request = memeboard_core::fieldwork::CreateOwnerRequest { benchmark, name };
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
