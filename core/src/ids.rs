//! Stable identifiers and hashing.
//!
//! Imported records get ids derived from their content, so re-importing the same file keeps
//! every id (and every answer that points at it) unchanged.

/// 64-bit FNV-1a hash of `bytes`: stable across platforms and Rust versions (unlike `DefaultHasher`).
///
/// ```
/// assert_eq!(memeboard_core::ids::fnv1a64(b""), 0xcbf2_9ce4_8422_2325);
/// assert_eq!(memeboard_core::ids::fnv1a64(b"a"), 0xaf63_dc4c_8601_ec8c);
/// ```
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        hash ^= u64::from(b);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    hash
}

/// A stable id `"{prefix}-{16 hex digits}"` for the given content parts.
///
/// Parts are joined with a unit separator so that `("ab","c")` and `("a","bc")` differ.
///
/// ```
/// let id = memeboard_core::ids::stable_id("meme", &["treetree的"]);
/// assert_eq!(id, memeboard_core::ids::stable_id("meme", &["treetree的"]));
/// assert!(id.starts_with("meme-") && id.len() == 5 + 16);
/// ```
pub fn stable_id(prefix: &str, parts: &[&str]) -> String {
    let joined = parts.join("\u{1f}");
    format!("{prefix}-{:016x}", fnv1a64(joined.as_bytes()))
}
