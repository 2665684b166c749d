//! Opaque names for served media (panel images, audio and video clips).
//!
//! A media URL must reveal nothing about the item it belongs to: not a panel's canonical
//! position, not which option is right, not even which item it is. Names are therefore derived
//! from the file's bytes alone (content addressing), which also makes them safe to cache
//! forever: a changed file gets a new name.

use crate::ids::fnv1a64;

/// The served file name of a media file: 32 hex digits from two independent 64-bit FNV-1a
/// hashes of the content, then the extension (lower-cased, letters and digits only).
///
/// ```
/// use memeboard_core::media::opaque_media_name;
/// let a = opaque_media_name(b"\x89PNG panel one", "PNG");
/// assert_eq!(a, opaque_media_name(b"\x89PNG panel one", "png")); // stable
/// assert_ne!(a, opaque_media_name(b"\x89PNG panel two", "png"));
/// assert!(a.ends_with(".png") && a.len() == 32 + 4);
/// ```
pub fn opaque_media_name(content: &[u8], extension: &str) -> String {
    let first = fnv1a64(content);
    let mut salted = Vec::with_capacity(content.len() + 8);
    salted.extend_from_slice(b"memeboard/media/");
    salted.extend_from_slice(content);
    let second = fnv1a64(&salted);
    let ext: String = extension
        .chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_lowercase())
        .collect();
    format!("{first:016x}{second:016x}.{ext}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_do_not_depend_on_position_or_item() {
        // The same panel used at two positions of two items is one name: nothing about where
        // it is shown can be read from it.
        let panel = b"same bytes";
        assert_eq!(
            opaque_media_name(panel, "webp"),
            opaque_media_name(panel, "webp")
        );
        let name = opaque_media_name(panel, "webp");
        assert!(name
            .trim_end_matches(".webp")
            .chars()
            .all(|c| c.is_ascii_hexdigit()));
    }

    #[test]
    fn odd_extensions_cannot_escape_the_name() {
        assert!(opaque_media_name(b"x", "../../etc").ends_with(".etc"));
    }
}
