//! localStorage helpers and the keys the app stores.
//!
//! Every function degrades to "nothing stored" when storage is unavailable (private mode,
//! disabled cookies), so the quiz still works, just without resume (and the leaderboard
//! pages simply forget the author token).

/// Interface language (`zh` or `en`).
pub const LANG_KEY: &str = "memeboard.lang";

/// Anonymous participant id returned by the server, reused for later quizzes.
pub const PARTICIPANT_KEY: &str = "memeboard.participant_id";

/// The secret the server minted with the participant id (sent once); reusing the id needs it.
pub const PARTICIPANT_SECRET_KEY: &str = "memeboard.participant_secret";

/// Leaderboard author token (bearer token for uploads), stored on the account page.
pub const TOKEN_KEY: &str = "memeboard.token";

/// The stored author token, if any (blank values count as none).
pub fn token() -> Option<String> {
    get(TOKEN_KEY)
        .map(|t| t.trim().to_owned())
        .filter(|t| !t.is_empty())
}

/// Key of the start key of a quiz's start in flight (kept until the server answered, so that a
/// resend after a lost response gets the same session): `memeboard.start.{slug}`.
pub fn start_key(slug: &str) -> String {
    format!("memeboard.start.{slug}")
}

/// Key of the session id of an unfinished (or finished) quiz: `memeboard.session.{slug}`.
pub fn session_key(slug: &str) -> String {
    format!("memeboard.session.{slug}")
}

/// Key of the idempotency key of an answer not yet acknowledged:
/// `memeboard.pending.{session}.{item}`.
pub fn pending_key(session_id: &str, item_id: &str) -> String {
    format!("memeboard.pending.{session_id}.{item_id}")
}

fn local_storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok()?
}

/// Reads a value; `None` when absent or when storage is unavailable.
pub fn get(key: &str) -> Option<String> {
    local_storage()?.get_item(key).ok()?
}

/// Writes a value; failures (quota, disabled storage) are ignored.
pub fn set(key: &str, value: &str) {
    if let Some(s) = local_storage() {
        let _ = s.set_item(key, value);
    }
}

/// Removes a value; failures are ignored.
pub fn remove(key: &str) {
    if let Some(s) = local_storage() {
        let _ = s.remove_item(key);
    }
}
