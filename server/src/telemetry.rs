//! Structured logging set-up (`tracing`), filtered by `RUST_LOG`.

use tracing_subscriber::EnvFilter;

/// Installs the global subscriber once; later calls are no-ops (tests call it repeatedly).
pub fn init() {
    let filter = EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| EnvFilter::new("info,sqlx=warn,tower_http=info"));
    // A second initialisation (tests) returns an error we deliberately ignore: one is enough.
    if tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_target(false)
        .try_init()
        .is_err()
    {
        tracing::trace!("tracing already initialised");
    }
}
