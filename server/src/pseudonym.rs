//! Pseudonyms of participant and session ids, and the order crowd statistics read answers in
//! (a leaf module: storage sorts crowd answers with it, the raw-data export writes it).

use sha2::{Digest, Sha256};

/// A stable pseudonym of a participant or session id: the first 16 hex digits of SHA-256
/// over a version tag, the benchmark id (the salt), what is named and the id. The raw ids are
/// capabilities (with the participant's secret, or alone for a session, they act for the
/// participant), so the export never holds them; the same participant has the same
/// pseudonym in every task of one benchmark and unrelated ones in other benchmarks.
///
/// ```
/// use memeboard_server::pseudonym::pseudonym;
/// let p = pseudonym("bench-1", "participant", "4f1c…");
/// assert_eq!(p.len(), 16);
/// assert_eq!(p, pseudonym("bench-1", "participant", "4f1c…"));
/// assert_ne!(p, pseudonym("bench-2", "participant", "4f1c…"));
/// ```
pub fn pseudonym(benchmark_id: &str, what: &str, id: &str) -> String {
    let digest = Sha256::digest(
        format!("memeboard-pseudonym-v1\u{1f}{benchmark_id}\u{1f}{what}\u{1f}{id}").as_bytes(),
    );
    digest.iter().take(8).map(|b| format!("{b:02x}")).collect()
}

/// The order crowd statistics read answers in (their bootstrap draws follow it): participant
/// pseudonym, item, answer time, session pseudonym — all columns of the export, so that
/// `export::stats` sorts an export into exactly the site's order.
pub fn crowd_order(
    benchmark_id: &str,
    participant_id: &str,
    item_id: &str,
    answered_at: i64,
    session_id: &str,
) -> (String, String, i64, String) {
    (
        pseudonym(benchmark_id, "participant", participant_id),
        item_id.to_owned(),
        answered_at,
        pseudonym(benchmark_id, "session", session_id),
    )
}
