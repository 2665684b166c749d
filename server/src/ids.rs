//! Random identifiers and secrets from the operating system's generator: tokens, session and
//! participant ids, nonces. A module of its own so that every feature can mint ids without
//! importing the quiz protocol.

/// Random hex string of `bytes` random bytes (OS randomness).
pub fn random_hex(bytes: usize) -> anyhow::Result<String> {
    let mut buf = vec![0u8; bytes];
    getrandom::fill(&mut buf).map_err(|e| anyhow::anyhow!("OS randomness unavailable: {e}"))?;
    Ok(buf.iter().map(|b| format!("{b:02x}")).collect())
}

/// An id of `bytes` bytes in hex that sorts by creation time: 6 bytes of Unix milliseconds,
/// then `bytes - 6` random bytes (OS randomness), e.g. `019ad9f3c2a1` + `5e0b…`.
///
/// Why: rows keyed by random ids land on random pages of every index that starts with the
/// id, so as the database grows each write touches pages no longer cached; time-ordered ids
/// append at the end of those indexes. The random part keeps the id unguessable (80 bits for a
/// 16-byte session id); the time part reveals only when the row was made, never an answer.
pub fn time_ordered_id(bytes: usize) -> anyhow::Result<String> {
    let ms = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as u64)
        .unwrap_or(0);
    let random = random_hex(bytes.saturating_sub(6))?;
    Ok(format!("{:012x}{random}", ms & 0xffff_ffff_ffff))
}
