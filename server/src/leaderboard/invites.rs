//! Author invitations: codes the site owner issues (`memeboard invite-author`) that admit one
//! new author token past the daily token caps, so that a flood of new tokens can never lock
//! out someone the owner invited.
//!
//! A code is `mbi_<expiry day>_<nonce>_<mac>`, signed with the configured admin token: nothing
//! is stored when it is issued. It is used once: the new author's id is derived from the
//! nonce, so a second token from the same code collides with the first author and is refused.
//! Changing the admin token invalidates every open invitation.

use sha2::{Digest, Sha256};

/// Prefix of an invitation code (author tokens start with `mb_`).
pub const INVITE_PREFIX: &str = "mbi_";

/// Longest validity of an invitation, in days.
pub const MAX_INVITE_DAYS: i64 = 30;

fn mac(secret: &str, expires_day: i64, nonce: &str) -> String {
    // The secret comes last: no length extension yields another valid code.
    let digest = Sha256::digest(format!("memeboard-invite:{expires_day}:{nonce}:{secret}"));
    digest.iter().take(16).map(|b| format!("{b:02x}")).collect()
}

/// A new invitation valid through UTC day `expires_day` (days since the epoch), signed with
/// `secret`, or `None` when no admin token is configured.
pub fn mint(secret: &str, expires_day: i64) -> anyhow::Result<Option<String>> {
    if secret.is_empty() {
        return Ok(None);
    }
    let nonce = crate::ids::random_hex(8)?;
    Ok(Some(format!(
        "{INVITE_PREFIX}{expires_day}_{nonce}_{}",
        mac(secret, expires_day, &nonce)
    )))
}

/// The nonce of a valid, unexpired invitation (`today` in UTC days), else `None`.
pub fn verify(secret: &str, code: &str, today: i64) -> Option<String> {
    if secret.is_empty() {
        return None;
    }
    let mut parts = code.strip_prefix(INVITE_PREFIX)?.split('_');
    let (day, nonce, given) = (parts.next()?, parts.next()?, parts.next()?);
    if parts.next().is_some() || nonce.len() != 16 || !nonce.bytes().all(|b| b.is_ascii_hexdigit())
    {
        return None;
    }
    let expires_day: i64 = day.parse().ok()?;
    if expires_day < today || expires_day > today + MAX_INVITE_DAYS {
        return None;
    }
    // Compared as hashes, so the comparison time says nothing about the expected value.
    let expected = mac(secret, expires_day, nonce);
    (super::hash_token(given) == super::hash_token(&expected)).then(|| nonce.to_owned())
}

/// The author id an invitation creates (one per invitation: its single use).
pub fn author_id(nonce: &str) -> String {
    let digest = Sha256::digest(format!("memeboard-invited-author:{nonce}"));
    let hex: String = digest.iter().take(6).map(|b| format!("{b:02X}")).collect();
    format!("A-{hex}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn invitations_verify_only_unaltered_unexpired_and_with_the_secret() {
        let code = mint("s3cret", 100).unwrap().unwrap();
        let nonce = verify("s3cret", &code, 95).expect("valid");
        assert_eq!(verify("s3cret", &code, 100), Some(nonce.clone()));
        assert_eq!(verify("s3cret", &code, 101), None, "expired");
        assert_eq!(verify("other", &code, 95), None, "another secret");
        assert_eq!(verify("", &code, 95), None, "no admin token");
        let later = code.replacen("mbi_100_", "mbi_120_", 1);
        assert_eq!(verify("s3cret", &later, 95), None, "expiry changed");
        assert_eq!(verify("s3cret", &format!("{code}_x"), 95), None);
        assert_eq!(mint("", 100).unwrap(), None);
        assert_eq!(author_id(&nonce), author_id(&nonce));
        assert!(author_id(&nonce).starts_with("A-") && author_id(&nonce).len() == 14);
    }
}
