//! Per-client request rate limits: a fixed one-minute window per (route class, client
//! network), kept in memory. Over the limit a request is refused with 429 and a
//! `Retry-After` of the seconds left in the window, before its handler runs (and before an
//! upload's body is read); the middleware is `routes::rate_limited`.
//!
//! The counts are per server instance; with several instances behind a load balancer each
//! enforces its own share (the daily quotas in the database are global).

use crate::config::RateLimitSettings;
use std::collections::HashMap;
use std::sync::Mutex;

/// The routes that are limited, each with its own budget.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum LimitedRoute {
    /// Starting a quiz session.
    SessionStart,
    /// Drawing a headphone check (part of a clip quiz's start; the same budget, counted apart).
    HeadphoneCheck,
    /// Uploading a prediction file.
    Upload,
    /// Creating an author token.
    AuthorCreation,
}

impl LimitedRoute {
    /// The route's budget per client network per minute (0: unlimited).
    pub fn per_minute(self, settings: &RateLimitSettings) -> u32 {
        match self {
            Self::SessionStart | Self::HeadphoneCheck => settings.session_starts_per_minute,
            Self::Upload => settings.uploads_per_minute,
            Self::AuthorCreation => settings.author_creations_per_minute,
        }
    }

    /// What is counted, for the refusal message.
    pub fn what(self) -> memeboard_core::messages::Message {
        match self {
            Self::SessionStart | Self::HeadphoneCheck => {
                memeboard_core::msg!("rate.session_starts")
            }
            Self::Upload => memeboard_core::msg!("rate.uploads"),
            Self::AuthorCreation => memeboard_core::msg!("rate.author_tokens"),
        }
    }
}

/// Counts of the current minute per (route, client network).
#[derive(Debug, Default)]
pub struct RateLimiter {
    windows: Mutex<HashMap<(LimitedRoute, String), (u64, u32)>>,
}

/// Entries kept before expired ones are swept (bounds memory under many clients).
const SWEEP_AT: usize = 10_000;

impl RateLimiter {
    /// Counts one request of `client` on `route` at `now_s` (seconds since the epoch):
    /// `Ok` when within `limit` for the current minute, else the seconds until it ends.
    ///
    /// ```
    /// use memeboard_server::http::rate_limit::{LimitedRoute, RateLimiter};
    /// let limiter = RateLimiter::default();
    /// let at = |s: u64| limiter.check(LimitedRoute::Upload, "10.0.0.1", 2, 120 + s);
    /// assert!(at(0).is_ok() && at(1).is_ok());
    /// assert_eq!(at(20), Err(40)); // third in the minute: wait 40 s
    /// assert!(at(60).is_ok()); // next minute
    /// ```
    pub fn check(
        &self,
        route: LimitedRoute,
        client: &str,
        limit: u32,
        now_s: u64,
    ) -> Result<(), u64> {
        if limit == 0 {
            return Ok(());
        }
        let minute = now_s / 60;
        let mut windows = self
            .windows
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if windows.len() >= SWEEP_AT {
            windows.retain(|_, (m, _)| *m == minute);
        }
        let entry = windows
            .entry((route, client.to_owned()))
            .or_insert((minute, 0));
        if entry.0 != minute {
            *entry = (minute, 0);
        }
        if entry.1 >= limit {
            return Err(60 - now_s % 60);
        }
        entry.1 += 1;
        Ok(())
    }
}
