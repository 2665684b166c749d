//! Typed, layered settings: compiled-in defaults, an optional per-environment TOML file, then
//! environment variables.

use anyhow::Context;
use serde::Deserialize;
use std::path::{Path, PathBuf};

const DEFAULTS: &str = include_str!("../../config/base.toml");

/// All settings of the server.
#[derive(Debug, Clone, Deserialize)]
pub struct Settings {
    /// HTTP listener and static files.
    pub server: ServerSettings,
    /// Storage.
    pub database: DatabaseSettings,
    /// Data directory and demo content.
    pub data: DataSettings,
    /// Quiz protocol knobs.
    pub quiz: QuizSettings,
    /// Leaderboard limits.
    pub leaderboard: LeaderboardSettings,
    /// Per-client request rate limits.
    pub rate_limits: RateLimitSettings,
    /// Administration.
    pub admin: AdminSettings,
    /// Embedding model for explanation scoring.
    pub model: crate::explain::inference::ModelSettings,
}

/// Leaderboard limits.
#[derive(Debug, Clone, Deserialize)]
pub struct LeaderboardSettings {
    /// Accepted uploads per token per UTC day.
    pub daily_quota: usize,
    /// Accepted uploads per author name (case and spacing ignored) per UTC day, whatever the
    /// token: a new token under the same name gets no fresh quota.
    pub daily_quota_per_author: usize,
    /// Accepted uploads per model name (case and spacing ignored) per task per UTC day,
    /// whatever the token or author.
    pub daily_quota_per_model: usize,
    /// New author tokens per client address per UTC day (IPv6: per /64 network).
    pub tokens_per_address_per_day: usize,
    /// New author tokens per wider network (IPv4 /24, IPv6 /48) per UTC day.
    #[serde(default = "default_tokens_per_network")]
    pub tokens_per_network_per_day: usize,
    /// New author tokens per UTC day, all clients together (invited authors and authors with
    /// an accepted upload are not counted in it).
    pub tokens_per_day: usize,
    /// Fewest items a category needs on a board half for its column to be published (board
    /// rows, upload responses, model pages, downloads); the overall column is always shown.
    pub min_category_items: usize,
    /// Figures over a hidden board half (upload responses, boards, model pages) are rounded
    /// to the smallest nice step no finer than `score_grid_scale / sqrt(items)` (1: the 95%
    /// interval's half-width at its widest); 0 publishes them exact.
    pub score_grid_scale: f64,
    /// The Ladder's margin: an author's new upload is shown only when its overall score beats
    /// the author's shown best by more than this (and never by less than one grid step);
    /// otherwise the response and the board repeat the previous best.
    pub ladder_margin: f64,
    /// Header holding the client address set by a trusted reverse proxy (e.g. `x-real-ip`);
    /// empty: the TCP peer address. Only set it behind a proxy that overwrites the header.
    #[serde(default)]
    pub client_ip_header: String,
    /// Largest upload in bytes.
    pub max_upload_bytes: usize,
    /// Most data lines per upload.
    pub max_rows: usize,
}

/// Requests per client network per minute (0 = unlimited), enforced by the
/// `http::rate_limit` module.
#[derive(Debug, Clone, Copy, Deserialize)]
pub struct RateLimitSettings {
    /// `POST /api/quizzes/{slug}/sessions`.
    pub session_starts_per_minute: u32,
    /// `POST /api/tasks/{slug}/submissions`.
    pub uploads_per_minute: u32,
    /// `POST /api/authors` (besides the daily token limits).
    pub author_creations_per_minute: u32,
}

/// Administration settings.
#[derive(Clone, Deserialize)]
pub struct AdminSettings {
    /// Admin bearer token; empty disables admin endpoints.
    pub token: String,
}

impl std::fmt::Debug for AdminSettings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Never print the secret.
        f.debug_struct("AdminSettings")
            .field(
                "token",
                &if self.token.is_empty() {
                    "(unset)"
                } else {
                    "(set)"
                },
            )
            .finish()
    }
}

/// HTTP listener and static files.
#[derive(Debug, Clone, Deserialize)]
pub struct ServerSettings {
    /// Bind address.
    pub host: String,
    /// Port; 0 picks a free one (tests).
    pub port: u16,
    /// Directory with the built front end (Trunk's `dist/`).
    pub static_dir: PathBuf,
    /// Seconds a client has to send a request's headers before its connection is closed.
    pub header_read_timeout_secs: u64,
    /// Seconds an `/api` request's body may take to arrive, from its headers on; slower ones
    /// are answered 408 and their connection closed (a trickling upload holds a slot and a
    /// handler otherwise).
    pub body_read_timeout_secs: u64,
    /// Open connections at most; more are closed at once.
    pub max_connections: usize,
    /// Open connections at most from one client address (IPv6: one /64), under
    /// `max_connections`; 0: no such cap. Not applied when `client_ip_header` is set (behind
    /// a proxy, every connection comes from the proxy).
    pub max_connections_per_address: usize,
}

/// Storage settings.
#[derive(Debug, Clone, Deserialize)]
pub struct DatabaseSettings {
    /// Database URL; empty means SQLite in the data dir.
    pub url: String,
    /// Pool size.
    pub max_connections: u32,
}

/// Data directory settings.
#[derive(Debug, Clone, Deserialize)]
pub struct DataSettings {
    /// Where the SQLite file (and later model files) live.
    pub dir: PathBuf,
    /// Load the demo benchmark into an empty database at start-up.
    pub load_demo: bool,
    /// With the demos, make and load the audio-visual demo clips (needs espeak-ng, sox and
    /// ffmpeg; a few seconds on first start).
    pub load_clip_demo: bool,
    /// With the demos, submit the demo models' prediction files (`server/demo/submissions/`)
    /// in the background after start-up, through the ordinary upload path (once).
    #[serde(default = "yes")]
    pub load_demo_submissions: bool,
}

fn default_tokens_per_network() -> usize {
    10
}

fn yes() -> bool {
    true
}

/// Quiz protocol settings.
#[derive(Debug, Clone, Deserialize)]
pub struct QuizSettings {
    /// Items per participant batch.
    pub batch_size: usize,
    /// Memes per batch in the explanation quiz.
    pub explain_batch_size: usize,
    /// Bootstrap resamples for intervals.
    pub bootstrap_resamples: usize,
    /// Per-item crowd figures in a participant's review: only for dev items, counting other
    /// participants only, and only when at least this many of them answered the item.
    pub min_item_crowd: usize,
    /// Crowd figures over hidden test items (`/stats`, results, board human rows) are
    /// published only from at least this many participants …
    pub min_crowd_participants: usize,
    /// … and, per row, at least this many hidden items.
    pub min_crowd_items: usize,
    /// Published crowd figures are a snapshot recomputed only when the participant count
    /// crosses the next multiple of this, so one person's answers never move them alone.
    pub crowd_snapshot_step: usize,
    /// Grid the published crowd figures over hidden items are rounded to (0: exact).
    pub crowd_grid: f64,
    /// Secret-keyed Laplace noise on those figures, in answers' worth: one answer can move a
    /// figure by less than the noise, so no window of sessions reads its own answers off it
    /// (0: none).
    pub crowd_noise: f64,
    /// Seconds a task's crowd fingerprint (which counts its answers) is reused before it is
    /// read again, so that no request counts every answer; with an interval, new completions
    /// are also computed in the background while requests get the stored figures (see
    /// `crowd_cache`). 0: read, and figures computed, on every request that needs them.
    pub crowd_refresh_secs: u64,
}

impl Settings {
    /// The configured model's directory (relative paths are under the data dir).
    pub fn model_dir(&self) -> std::path::PathBuf {
        if self.model.dir.is_absolute() {
            self.model.dir.clone()
        } else {
            self.data.dir.join(&self.model.dir)
        }
    }

    /// Reads the layers: defaults, `config/$APP_ENVIRONMENT.toml` under `config_dir` (if it
    /// exists), `MEMEBOARD__…` variables, and `DATABASE_URL`.
    pub fn load(config_dir: &Path) -> anyhow::Result<Self> {
        let environment = std::env::var("APP_ENVIRONMENT").unwrap_or_else(|_| "local".into());
        let mut builder = config::Config::builder()
            .add_source(config::File::from_str(DEFAULTS, config::FileFormat::Toml))
            .add_source(
                config::File::from(config_dir.join(format!("{environment}.toml"))).required(false),
            )
            .add_source(
                config::Environment::with_prefix("MEMEBOARD")
                    .prefix_separator("__")
                    .separator("__")
                    .try_parsing(true),
            );
        if let Ok(url) = std::env::var("DATABASE_URL") {
            builder = builder.set_override("database.url", url)?;
        }
        builder
            .build()
            .and_then(config::Config::try_deserialize)
            .context("reading settings")
    }

    /// The compiled-in defaults only (tests start from these and override fields).
    pub fn defaults() -> anyhow::Result<Self> {
        config::Config::builder()
            .add_source(config::File::from_str(DEFAULTS, config::FileFormat::Toml))
            .build()
            .and_then(config::Config::try_deserialize)
            .context("reading default settings")
    }

    /// The database URL to connect to: the configured one, or SQLite in the data dir.
    pub fn database_url(&self) -> String {
        if self.database.url.trim().is_empty() {
            format!(
                "sqlite://{}?mode=rwc",
                self.data.dir.join("memeboard.db").display()
            )
        } else {
            self.database.url.clone()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_use_sqlite_in_the_data_dir() {
        let s = Settings::defaults().unwrap();
        assert_eq!(s.server.port, 3000);
        assert_eq!(s.quiz.batch_size, 24);
        assert_eq!(s.database_url(), "sqlite://data/memeboard.db?mode=rwc");
    }
}
