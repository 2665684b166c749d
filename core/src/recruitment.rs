//! Recruitment ids as the server compares them: one participation per Prolific id holds only
//! if ids that differ in case, spaces or invisible characters count as the same id.

/// Zero-width characters that survive copy and paste invisibly: ZERO WIDTH SPACE, ZERO WIDTH
/// NON-JOINER, ZERO WIDTH JOINER, WORD JOINER and the byte-order mark.
pub const ZERO_WIDTH: [char; 5] = ['\u{200B}', '\u{200C}', '\u{200D}', '\u{2060}', '\u{FEFF}'];

/// The canonical form of a Prolific id (`PROLIFIC_PID`): every white space and zero-width
/// character removed (at the ends and inside) and the rest case-folded to lower case, so that
/// `" ABC\u{200B}"` and `"abc"` are one participant. Prolific's own ids are 24 lower-case hex
/// digits, which this leaves unchanged. Empty when nothing visible remains (no id).
///
/// ```
/// use memeboard_core::recruitment::normalize_prolific_id;
/// assert_eq!(normalize_prolific_id(" ABC\u{200B}"), "abc");
/// assert_eq!(normalize_prolific_id("5f3a 9B\u{FEFF}"), "5f3a9b");
/// assert_eq!(normalize_prolific_id("\u{2060} "), "");
/// ```
pub fn normalize_prolific_id(raw: &str) -> String {
    raw.chars()
        .filter(|c| !c.is_whitespace() && !ZERO_WIDTH.contains(c))
        .flat_map(char::to_lowercase)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn case_spaces_and_invisible_characters_do_not_make_a_new_id() {
        let canonical = normalize_prolific_id("abc");
        for variant in [
            " ABC\u{200B}",
            "abc",
            "A B C",
            "\u{FEFF}aBc\u{2060}",
            "a\u{200C}b\u{200D}c",
            "\tabc\u{3000}",
            "abc\u{00A0}",
        ] {
            assert_eq!(normalize_prolific_id(variant), canonical, "{variant:?}");
        }
        assert_ne!(normalize_prolific_id("abd"), canonical);
    }

    #[test]
    fn prolific_ids_are_left_as_they_are() {
        let pid = "5f3a9b2c7d1e4f6a8b0c2d3e";
        assert_eq!(normalize_prolific_id(pid), pid);
        assert_eq!(normalize_prolific_id(&pid.to_uppercase()), pid);
    }

    #[test]
    fn an_id_of_only_invisible_characters_is_empty() {
        assert_eq!(normalize_prolific_id(""), "");
        assert_eq!(normalize_prolific_id(" \u{200B}\u{FEFF} "), "");
    }
}
