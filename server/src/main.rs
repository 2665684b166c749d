//! `memeboard`: run the site (`serve`, the default), manage data (`import chime`, `import panels`, `import clips`,
//! `delete-participant`, `study create-task`, `study create`, `secret export`/`import`), recompute human rows from a raw-data export (`stats --export`) or
//! upload a prediction file to a running server (`submit`).

mod cli;

use clap::Parser;

/// mimalloc instead of glibc's allocator: about a tenth less CPU per quiz answer under load
/// (alternating runs of `cargo bench -p memeboard-server --bench answers`).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    cli::run(cli::Cli::parse()).await
}
