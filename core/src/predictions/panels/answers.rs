//! Reading one answer: a reading order over panel numbers, or a structure type named in a text.

use crate::kinds::panels::{check_permutation, StructureType};

/// Reads a reading order over displayed panel numbers for an item of `num_panels` panels, so
/// that every way models commonly write one scores the same; `None` unless it is a permutation
/// of `1..=num_panels` in one of the forms of the module docs' table.
///
/// ```
/// use memeboard_core::predictions::panels::parse_order;
/// let want = Some(vec![3, 1, 2, 4]);
/// for text in ["3,1,2,4", "3, 1, 2, 4", "3 1 2 4", "[3,1,2,4]", "3-1-2-4", "3>1>2>4",
///              "3→1→2→4", "3 -> 1 -> 2 -> 4", "3，1，2，4", "3、1、2、4", " 3,1,2,4. "] {
///     assert_eq!(parse_order(text, 4), want, "{text}");
/// }
/// for text in ["1,2", "1,2,3,4,5", "1,1,2,3", "0,1,2,3", "3,,1,2,4", "panel 3 first", ""] {
///     assert_eq!(parse_order(text, 4), None, "{text}");
/// }
/// ```
pub fn parse_order(text: &str, num_panels: usize) -> Option<Vec<usize>> {
    let mut t = text.trim();
    t = t.strip_suffix(['.', '。']).unwrap_or(t).trim_end();
    for (open, close) in [('[', ']'), ('(', ')')] {
        if let Some(inner) = t.strip_prefix(open).and_then(|s| s.strip_suffix(close)) {
            t = inner.trim();
            break;
        }
    }
    let mut order = Vec::with_capacity(num_panels);
    let mut rest = t;
    loop {
        let digits = rest.len() - rest.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        if digits == 0 {
            return None;
        }
        order.push(rest[..digits].parse::<usize>().ok()?);
        rest = &rest[digits..];
        if rest.is_empty() {
            break;
        }
        rest = skip_separator(rest)?;
    }
    check_permutation(&order, num_panels).ok()?;
    Some(order)
}

/// The text after one separator between two numbers (spaces, at most one mark, spaces), or
/// None when there is none or two marks in a row.
fn skip_separator(text: &str) -> Option<&str> {
    const MARKS: [&str; 9] = ["->", "=>", "→", ",", "，", "、", ";", "-", ">"];
    let after_spaces = text.trim_start();
    let spaced = after_spaces.len() < text.len();
    let after_mark = MARKS
        .iter()
        .find_map(|m| after_spaces.strip_prefix(m))
        .map(str::trim_start);
    match after_mark {
        Some(rest) => Some(rest),
        None if spaced => Some(after_spaces),
        None => None,
    }
}

/// Reads a structure-type answer, so that a model answering "Type: Narrative" is read as
/// narrative: [`StructureType::parse`] first, else the one type that occurs in the text (keys
/// as whole words in any case, Chinese names anywhere); `None` when none or several occur.
///
/// ```
/// use memeboard_core::kinds::panels::StructureType::*;
/// use memeboard_core::predictions::panels::parse_structure;
/// assert_eq!(parse_structure(" Narrative. "), Some(Narrative));
/// assert_eq!(parse_structure("对比"), Some(Comparison));
/// assert_eq!(parse_structure("Type: Narrative"), Some(Narrative));
/// assert_eq!(parse_structure("The structure is PARALLEL (并列)."), Some(Parallel));
/// assert_eq!(parse_structure("这是一个递进结构"), Some(Progressive));
/// assert_eq!(parse_structure("narrative or parallel"), None);
/// assert_eq!(parse_structure("narratives"), None);
/// assert_eq!(parse_structure("a story"), None);
/// ```
pub fn parse_structure(text: &str) -> Option<StructureType> {
    if let Some(t) = StructureType::parse(text) {
        return Some(t);
    }
    let lower = text.to_lowercase();
    let mut found = StructureType::ALL
        .into_iter()
        .filter(|t| contains_word(&lower, t.key()) || lower.contains(t.name_zh()));
    let first = found.next()?;
    found.next().is_none().then_some(first)
}

/// Whether `word` occurs in `text` not touching an ASCII letter, digit or `_`.
fn contains_word(text: &str, word: &str) -> bool {
    let is_word_char = |c: char| c.is_ascii_alphanumeric() || c == '_';
    text.match_indices(word).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + word.len()..].chars().next();
        !before.is_some_and(is_word_char) && !after.is_some_and(is_word_char)
    })
}
