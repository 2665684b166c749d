//! Reading one clip answer in any of the documented forms (letters, numbers, option texts) as a
//! lettered position, or saying what was expected.

use super::option_letter;
use crate::messages::Message;
use crate::msg;
use crate::predictions::shorten;
use serde_json::Value;

/// Reads one answer against an item's lettered options (`options` in model order) in any form
/// of the module docs' table, so that the ways models commonly write a choice all score the
/// same. Returns the 0-based lettered position, or a message saying what was found and what
/// was expected (the validator reports it for field `answer`).
///
/// ```
/// use memeboard_core::predictions::clips::parse_clip_answer;
/// use serde_json::json;
/// let options = ["Rickroll", "Nyan Cat", "Trololo", "Numa Numa"].map(String::from);
/// for answer in [json!("B"), json!("b"), json!("(B)"), json!("B."), json!("B)"), json!("B) Nyan Cat"),
///                json!("Option B"), json!("选项B"), json!("答案：B"), json!(2), json!("2"),
///                json!("Nyan Cat"), json!(" nyan cat ")] {
///     assert_eq!(parse_clip_answer(&answer, &options), Ok(1), "{answer}");
/// }
/// assert_eq!(parse_clip_answer(&json!("E"), &options), Err(
///     "expected a letter A to D, a number 1 to 4 or the text of one option, found \"E\"".into()));
/// assert_eq!(parse_clip_answer(&json!("B) Trololo"), &options), Err(
///     "\"B) Trololo\" names option B but then gives the text of option C".into()));
/// ```
pub fn parse_clip_answer(answer: &Value, options: &[String]) -> Result<usize, String> {
    read_clip_answer(answer, options).map_err(|m| m.to_string())
}

/// [`parse_clip_answer`] with the problem as a catalogue message (shown in either language).
pub fn read_clip_answer(answer: &Value, options: &[String]) -> Result<usize, Message> {
    match answer {
        Value::String(text) => parse_text(text, options, || shorten(&answer.to_string())),
        Value::Number(k) => k
            .as_u64()
            .and_then(|k| usize::try_from(k).ok())
            .filter(|k| (1..=options.len()).contains(k))
            .map(|k| k - 1)
            .ok_or_else(|| expected(options.len(), &shorten(&answer.to_string()))),
        other => Err(expected(options.len(), &shorten(&other.to_string()))),
    }
}

/// A text answer: its letter-or-number reading and its option-text reading, which must agree
/// when both exist. `shown` quotes the answer for messages.
pub(super) fn parse_text(
    text: &str,
    options: &[String],
    shown: impl Fn() -> String,
) -> Result<usize, Message> {
    let t = text.trim();
    let by_text = option_text(t, options, &shown)?;
    let by_mark = match marked(t, options, &shown) {
        // "A.I. voice" as an option's text is that option, not "A" followed by a remark.
        Ok(Some((_, true))) | Err(_) if by_text.is_some() => None,
        Ok(mark) => mark.map(|(p, _)| p),
        Err(e) => return Err(e),
    };
    match (by_mark, by_text) {
        (Some(a), Some(b)) if a != b => Err(msg!(
            "file.clip_ambiguous",
            found = shown(),
            mark = letter(a),
            text = letter(b)
        )),
        (Some(p), _) | (None, Some(p)) => Ok(p),
        (None, None) => Err(expected(options.len(), &shown())),
    }
}

/// "expected a letter A to D, a number 1 to 4 or the text of one option, found …".
fn expected(n: usize, found: &str) -> Message {
    if n == 0 {
        return msg!("file.clip_no_options", found = found);
    }
    msg!(
        "file.clip_expected",
        last = letter(n.min(26) - 1),
        n = n,
        found = found
    )
}

/// The letter of a position, or `?` past `Z` (not reached: positions come from letters or
/// are below 26 where shown).
fn letter(position: usize) -> char {
    option_letter(position).unwrap_or('?')
}

/// Words that may come before a letter or number ("Option B", "答案：B"); compared ignoring
/// ASCII case.
const PREFIXES: [&str; 5] = ["option", "answer", "choice", "选项", "答案"];
/// Marks that may follow a bare letter (then any text may follow).
const AFTER_LETTER: [char; 7] = ['.', ')', ':', '：', '、', '．', '）'];
/// Brackets around a letter.
const BRACKETS: [(char, char); 3] = [('(', ')'), ('[', ']'), ('（', '）')];

/// The letter-or-number reading of a trimmed text and whether text follows the letter:
/// `Ok(None)` when it is in none of those forms (or names a letter or number outside the
/// options), an error when the text after a letter is another option's text.
fn marked(
    t: &str,
    options: &[String],
    shown: &impl Fn() -> String,
) -> Result<Option<(usize, bool)>, Message> {
    if let Some(p) = number(t, options.len()) {
        return Ok(Some((p, false)));
    }
    let rest = PREFIXES
        .iter()
        .find_map(|p| {
            t.get(..p.len())
                .filter(|head| head.eq_ignore_ascii_case(p))
                .map(|_| &t[p.len()..])
        })
        .map(|rest| {
            let rest = rest.trim_start();
            rest.strip_prefix([':', '：']).unwrap_or(rest).trim_start()
        });
    if let Some(rest) = rest {
        if let Some(p) = number(rest, options.len()) {
            return Ok(Some((p, false)));
        }
    }
    let Some((p, after)) = lettered(rest.unwrap_or(t), options.len()) else {
        return Ok(None);
    };
    let after = after.trim();
    if let Ok(Some(other)) = option_text(after, options, shown) {
        if other != p {
            return Err(msg!(
                "file.clip_mark_and_text",
                found = shown(),
                mark = letter(p),
                text = letter(other)
            ));
        }
    }
    Ok(Some((p, !after.is_empty())))
}

/// A 1-based option number written in ASCII digits, as a lettered position.
fn number(t: &str, n: usize) -> Option<usize> {
    if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    t.parse::<usize>()
        .ok()
        .filter(|k| (1..=n).contains(k))
        .map(|k| k - 1)
}

/// A letter (bare with a mark or nothing after it, or in brackets) at the start of `t`: its
/// position and the text after it; `None` when `t` does not start so or the letter is past
/// the options.
fn lettered(t: &str, n: usize) -> Option<(usize, &str)> {
    let position = |c: char| {
        c.is_ascii_alphabetic()
            .then(|| usize::from(c.to_ascii_uppercase() as u8 - b'A'))
            .filter(|&p| p < n)
    };
    let mut chars = t.chars();
    let first = chars.next()?;
    if let Some(&(_, close)) = BRACKETS.iter().find(|(open, _)| *open == first) {
        let p = position(chars.next()?)?;
        let rest = chars.as_str().strip_prefix(close)?;
        return Some((p, rest));
    }
    let p = position(first)?;
    let rest = chars.as_str();
    match rest.chars().next() {
        None => Some((p, rest)),
        Some(c) if AFTER_LETTER.contains(&c) => Some((p, &rest[c.len_utf8()..])),
        Some(_) => None,
    }
}

/// The position of the option whose text `t` is (trimmed): case-sensitive first, then up to
/// letter case when exactly one option matches so; an error when several do.
fn option_text(
    t: &str,
    options: &[String],
    shown: &impl Fn() -> String,
) -> Result<Option<usize>, Message> {
    if t.is_empty() {
        return Ok(None);
    }
    if let Some(p) = options.iter().position(|o| o.trim() == t) {
        return Ok(Some(p));
    }
    let lower = t.to_lowercase();
    let matching: Vec<usize> = options
        .iter()
        .enumerate()
        .filter(|(_, o)| o.trim().to_lowercase() == lower)
        .map(|(p, _)| p)
        .collect();
    match matching.as_slice() {
        [] => Ok(None),
        [p] => Ok(Some(*p)),
        several => Err(msg!(
            "file.clip_case_ambiguous",
            found = shown(),
            letters = several
                .iter()
                .map(|&p| letter(p).to_string())
                .collect::<Vec<_>>()
                .join(" and ")
        )),
    }
}
