//! `memeboard serve` (the default): the web site, until Ctrl-C or SIGTERM.

use memeboard_server::startup::Application;
use std::path::Path;

/// Builds the application from the settings and runs it until a shutdown signal.
pub(super) async fn run(config_dir: &Path) -> anyhow::Result<()> {
    let app = Application::build(super::settings(config_dir)?).await?;
    app.run_until(shutdown_signal()).await
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
