//! Character classes of BERT's normalizer and pre-tokenizer (whitespace, control,
//! CJK, punctuation) and accent stripping, from the Unicode tables in `tables.rs`.

use crate::tables::{MARK_NONSPACING, OTHER, PUNCTUATION, STRIP_ACCENTS};

fn in_ranges(c: char, ranges: &[(u32, u32)]) -> bool {
    let cp = u32::from(c);
    ranges
        .binary_search_by(|&(lo, hi)| {
            if hi < cp {
                std::cmp::Ordering::Less
            } else if lo > cp {
                std::cmp::Ordering::Greater
            } else {
                std::cmp::Ordering::Equal
            }
        })
        .is_ok()
}

/// Whitespace for `clean_text` (tab, newline and carriage return count as whitespace).
pub(super) fn is_whitespace(c: char) -> bool {
    c.is_whitespace()
}

/// Control characters for `clean_text`: Unicode categories Cc, Cf and Co, except tab,
/// newline and carriage return (which are whitespace).
pub(super) fn is_control(c: char) -> bool {
    !matches!(c, '\t' | '\n' | '\r') && !c.is_ascii_graphic() && c != ' ' && in_ranges(c, OTHER)
}

/// The CJK ideograph ranges of BERT's `_is_chinese_char`, as the `tokenizers` crate spells
/// them.
pub(super) fn is_chinese_char(c: char) -> bool {
    matches!(
        u32::from(c),
        0x4E00..=0x9FFF
            | 0x3400..=0x4DBF
            | 0x20000..=0x2A6DF
            | 0x2A700..=0x2B73F
            | 0x2B740..=0x2B81F
            | 0x2B920..=0x2CEAF
            | 0xF900..=0xFAFF
            | 0x2F800..=0x2FA1F
    )
}

/// BERT punctuation: ASCII 33–47, 58–64, 91–96, 123–126, and Unicode categories P*.
pub(super) fn is_punctuation(c: char) -> bool {
    c.is_ascii_punctuation() || (!c.is_ascii() && in_ranges(c, PUNCTUATION))
}

fn is_mark_nonspacing(c: char) -> bool {
    !c.is_ascii() && in_ranges(c, MARK_NONSPACING)
}

/// Appends `c` with its accents stripped: its canonical decomposition (NFD) without
/// non-spacing marks.
pub(super) fn push_stripped(c: char, out: &mut String) {
    const S_BASE: u32 = 0xAC00;
    const S_COUNT: u32 = 11172;
    if c.is_ascii() {
        out.push(c);
        return;
    }
    let cp = u32::from(c);
    if (S_BASE..S_BASE + S_COUNT).contains(&cp) {
        // Hangul syllable → leading consonant, vowel and optional trailing consonant jamo.
        let s = cp - S_BASE;
        let jamo = [0x1100 + s / 588, 0x1161 + (s % 588) / 28, 0x11A7 + s % 28];
        let n = if s % 28 == 0 { 2 } else { 3 };
        out.extend(jamo[..n].iter().filter_map(|&j| char::from_u32(j)));
    } else if let Ok(i) = STRIP_ACCENTS.binary_search_by_key(&c, |&(k, _)| k) {
        out.push_str(STRIP_ACCENTS[i].1);
    } else if !is_mark_nonspacing(c) {
        out.push(c);
    }
}
