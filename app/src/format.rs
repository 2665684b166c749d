//! Pure formatting helpers: accuracies, intervals, option letters and blank splitting.

use memeboard_core::stats::Estimate;

/// Placeholder for a missing number.
pub const DASH: &str = "—";

/// An accuracy with three decimals: `0.812`.
pub fn accuracy(x: f64) -> String {
    format!("{x:.3}")
}

/// The 95% interval of an estimate: `[0.75, 0.87]`.
pub fn interval(e: &Estimate) -> String {
    format!("[{:.2}, {:.2}]", e.ci_low, e.ci_high)
}

/// An estimate with its 95% interval: `0.812 [0.75, 0.87]`.
pub fn estimate(e: &Estimate) -> String {
    format!("{} {}", accuracy(e.value), interval(e))
}

/// An optional estimate, or [`DASH`].
pub fn maybe_estimate(e: Option<&Estimate>) -> String {
    e.map(estimate).unwrap_or_else(|| DASH.to_owned())
}

/// The letter of a display position: 0 → `A`.
pub fn option_letter(position: usize) -> char {
    u8::try_from(position)
        .ok()
        .filter(|p| *p < 26)
        .map(|p| char::from(b'A' + p))
        .unwrap_or('?')
}

/// The option a key press picks: `1`–`9` and `A`–`Z` (either case) map to 0-based positions.
pub fn key_to_option(key: &str) -> Option<usize> {
    let mut chars = key.chars();
    let c = chars.next()?;
    if chars.next().is_some() {
        return None;
    }
    match c {
        '1'..='9' => Some(c as usize - '1' as usize),
        'a'..='z' => Some(c as usize - 'a' as usize),
        'A'..='Z' => Some(c as usize - 'A' as usize),
        _ => None,
    }
}

/// A piece of a fill-in-the-blank sentence.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Segment {
    /// Plain text.
    Text(String),
    /// The blank (a run of three or more underscores, ASCII or full-width).
    Blank,
}

/// Splits a sentence into text and blanks.
pub fn split_blanks(sentence: &str) -> Vec<Segment> {
    fn is_underscore(c: char) -> bool {
        c == '_' || c == '＿'
    }
    let mut out = Vec::new();
    let mut text = String::new();
    let mut run = String::new();
    let flush_run = |run: &mut String, text: &mut String, out: &mut Vec<Segment>| {
        if run.chars().count() >= 3 {
            if !text.is_empty() {
                out.push(Segment::Text(std::mem::take(text)));
            }
            out.push(Segment::Blank);
        } else {
            text.push_str(run);
        }
        run.clear();
    };
    for c in sentence.chars() {
        if is_underscore(c) {
            run.push(c);
        } else {
            if !run.is_empty() {
                flush_run(&mut run, &mut text, &mut out);
            }
            text.push(c);
        }
    }
    if !run.is_empty() {
        flush_run(&mut run, &mut text, &mut out);
    }
    if !text.is_empty() {
        out.push(Segment::Text(text));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn estimates_use_three_then_two_decimals() {
        let e = Estimate {
            value: 0.8125,
            ci_low: 0.75,
            ci_high: 0.8712,
        };
        assert_eq!(estimate(&e), "0.812 [0.75, 0.87]");
        assert_eq!(maybe_estimate(None), DASH);
        assert_eq!(accuracy(0.2), "0.200");
    }

    #[test]
    fn letters() {
        assert_eq!(option_letter(0), 'A');
        assert_eq!(option_letter(4), 'E');
        assert_eq!(option_letter(99), '?');
    }

    #[test]
    fn keys() {
        assert_eq!(key_to_option("1"), Some(0));
        assert_eq!(key_to_option("5"), Some(4));
        assert_eq!(key_to_option("c"), Some(2));
        assert_eq!(key_to_option("E"), Some(4));
        assert_eq!(key_to_option("Enter"), None);
        assert_eq!(key_to_option("0"), None);
    }

    #[test]
    fn blanks_are_found() {
        use Segment::*;
        assert_eq!(
            split_blanks("我真是_____了，a_b"),
            vec![Text("我真是".into()), Blank, Text("了，a_b".into())]
        );
        assert_eq!(split_blanks("______"), vec![Blank]);
        assert_eq!(split_blanks("x ＿＿＿"), vec![Text("x ".into()), Blank]);
    }
}
