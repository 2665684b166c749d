//! The HTTP layer around the handlers (the routes themselves are in `routes/`): a deadline
//! for reading request bodies, the security headers of every response, the per-client rate
//! limits, and the app's HTML shells that pages are served in.

pub mod body_deadline;
pub mod html_shell;
pub mod rate_limit;
pub mod security_headers;
