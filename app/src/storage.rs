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

/// Owner token (a researcher's console, `/console`), kept apart from the author token.
pub const OWNER_TOKEN_KEY: &str = "memeboard.owner_token";

/// The stored owner token, if any.
pub fn owner_token() -> Option<String> {
    get(OWNER_TOKEN_KEY)
        .map(|t| t.trim().to_owned())
        .filter(|t| !t.is_empty())
}

/// `on` once the participant chose to score explanations in the browser (the model is then
/// loaded, from the Cache API, without asking again).
pub const BROWSER_MODEL_KEY: &str = "memeboard.browser_model";

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

/// Key of the session id of an unfinished quiz, or of a finished one followed by
/// [`FINISHED`]: `memeboard.session.{slug}`.
pub fn session_key(slug: &str) -> String {
    format!("memeboard.session.{slug}")
}

/// Follows a finished session's id under [`session_key`]: the quiz page then shows the
/// results link instead of "Resume / Start over".
pub const FINISHED: &str = " done";

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

/// The recruitment parameters a study link may carry (Prolific's names).
pub const RECRUITMENT_PARAMS: [&str; 3] = ["PROLIFIC_PID", "STUDY_ID", "SESSION_ID"];

/// sessionStorage key of this visit's recruitment ids.
const RECRUITMENT_KEY: &str = "memeboard.recruitment";

fn session_storage() -> Option<web_sys::Storage> {
    web_sys::window()?.session_storage().ok()?
}

/// Keeps the recruitment ids of the page the visit started on (`?PROLIFIC_PID=…&STUDY_ID=…&
/// SESSION_ID=…`), whichever page the study link opens, for the rest of the visit (this tab):
/// the home page's links do not carry them to the quiz.
pub fn remember_recruitment_from_url() {
    let Some(search) = web_sys::window().and_then(|w| w.location().search().ok()) else {
        return;
    };
    let mut found = serde_json::Map::new();
    for pair in search.trim_start_matches('?').split('&') {
        let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
        let value = js_sys::decode_uri_component(&value.replace('+', " "))
            .ok()
            .and_then(|v| v.as_string())
            .unwrap_or_default();
        let value = value.trim();
        if RECRUITMENT_PARAMS.contains(&name) && !value.is_empty() {
            found.insert(name.to_owned(), serde_json::Value::String(value.to_owned()));
        }
    }
    if !found.is_empty() {
        if let Some(s) = session_storage() {
            let _ = s.set_item(
                RECRUITMENT_KEY,
                &serde_json::Value::Object(found).to_string(),
            );
        }
    }
}

/// A recruitment id remembered for this visit (see [`remember_recruitment_from_url`]).
pub fn recruitment_id(name: &str) -> Option<String> {
    let stored = session_storage()?.get_item(RECRUITMENT_KEY).ok()??;
    let map: serde_json::Map<String, serde_json::Value> = serde_json::from_str(&stored).ok()?;
    map.get(name)?.as_str().map(str::to_owned)
}
