//! Pure formatting helpers: accuracies, intervals, option letters, blank splitting, dates,
//! model sizes and links.

use memeboard_core::stats::Estimate;

/// Placeholder for a missing number.
pub const DASH: &str = "—";

/// An accuracy with three decimals: `0.812`.
pub fn accuracy(x: f64) -> String {
    memeboard_core::page_text::board::score(x)
}

/// The 95% interval of an estimate: `[0.75, 0.87]`.
pub fn interval(e: &Estimate) -> String {
    memeboard_core::page_text::board::interval(e)
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

/// A UTC calendar date `YYYY-MM-DD` from milliseconds since the Unix epoch.
pub fn date(ms: i64) -> String {
    let days = ms.div_euclid(86_400_000);
    // Civil-from-days (H. Hinnant's algorithm), valid for the whole i64 day range we meet.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}")
}

/// Whether a user-supplied link may be rendered as a link: `http://` or `https://` only.
pub fn is_web_link(link: &str) -> bool {
    let lower = link.trim().to_ascii_lowercase();
    (lower.starts_with("https://") && lower.len() > 8)
        || (lower.starts_with("http://") && lower.len() > 7)
}

/// A model size such as `7B`, `1.5T`, `350M` or `70b` as a number of parameters (for
/// sorting); `None` when it does not parse.
pub fn parameter_count(size: &str) -> Option<f64> {
    let s = size.trim().to_ascii_uppercase();
    let (number, scale) = match s.char_indices().last()? {
        (i, 'K') => (&s[..i], 1e3),
        (i, 'M') => (&s[..i], 1e6),
        (i, 'B') | (i, 'G') => (&s[..i], 1e9),
        (i, 'T') => (&s[..i], 1e12),
        _ => (s.as_str(), 1.0),
    };
    let n: f64 = number.trim().parse().ok()?;
    (n.is_finite() && n >= 0.0).then_some(n * scale)
}

/// A share as a whole percentage: 0.374 → `37%`.
pub fn percent(share: f64) -> String {
    format!("{:.0}%", (share * 100.0).clamp(0.0, 100.0))
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
    fn dates_are_utc_days() {
        assert_eq!(date(0), "1970-01-01");
        assert_eq!(date(1_764_374_400_000), "2025-11-29");
        assert_eq!(date(1_709_164_800_000 + 86_399_999), "2024-02-29");
        assert_eq!(date(-1), "1969-12-31");
    }

    #[test]
    fn only_web_links_are_links() {
        assert!(is_web_link("https://example.org/paper"));
        assert!(is_web_link("HTTP://example.org"));
        assert!(!is_web_link("javascript:alert(1)"));
        assert!(!is_web_link("https://"));
        assert!(!is_web_link("ftp://example.org"));
        assert!(!is_web_link(" data:text/html,hi"));
    }

    #[test]
    fn model_sizes_parse() {
        assert_eq!(parameter_count("7B"), Some(7e9));
        assert_eq!(parameter_count(" 1.5t "), Some(1.5e12));
        assert_eq!(parameter_count("350M"), Some(3.5e8));
        assert_eq!(parameter_count("unknown"), None);
        assert_eq!(parameter_count(""), None);
        assert_eq!(percent(0.374), "37%");
        assert_eq!(percent(1.2), "100%");
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
