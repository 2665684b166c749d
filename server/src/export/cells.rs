//! How the exports write values a spreadsheet cannot hold as they are: times as ISO 8601 UTC
//! with milliseconds, lists as `;`-separated text, objects as `key=value` pairs separated by
//! `; ` (no JSON inside a CSV cell), and the readers `memeboard stats` uses to take them back.
//!
//! Escaping in lists and pairs: a `\` is written `\\` and a `;` is written `\;` (and, inside a
//! nested list of a pair's value, a `,` is written `\,`), so every cell splits back
//! unambiguously; the values the site writes (subset names, option indices, facet keys,
//! numbers) never need it.

use serde_json::Value;

/// Milliseconds per day.
const DAY_MS: i64 = 86_400_000;

/// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's `days_from_civil`).
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The proleptic Gregorian date of a day count since 1970-01-01 (`civil_from_days`).
fn civil_from_days(z: i64) -> (i64, i64, i64) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (
        if m <= 2 {
            yoe + era * 400 + 1
        } else {
            yoe + era * 400
        },
        m,
        d,
    )
}

/// A stored time (milliseconds since the Unix epoch) as the exports write it: ISO 8601 in
/// UTC with milliseconds, e.g. `2026-12-04T21:05:03.123Z`, which spreadsheets and
/// `pandas.to_datetime` read as a time and which keeps the exact millisecond.
pub fn iso_time(ms: i64) -> String {
    let (days, rest) = (ms.div_euclid(DAY_MS), ms.rem_euclid(DAY_MS));
    let (y, m, d) = civil_from_days(days);
    let (h, rest) = (rest / 3_600_000, rest % 3_600_000);
    let (min, rest) = (rest / 60_000, rest % 60_000);
    let (s, milli) = (rest / 1000, rest % 1000);
    format!("{y:04}-{m:02}-{d:02}T{h:02}:{min:02}:{s:02}.{milli:03}Z")
}

/// Reads back a time written by [`iso_time`] (`YYYY-MM-DDTHH:MM:SS.mmmZ`; the fraction may
/// have 0 to 3 digits): milliseconds since the Unix epoch, or `None` for anything else.
pub fn parse_iso_time(text: &str) -> Option<i64> {
    let b = text.as_bytes();
    let num = |r: std::ops::Range<usize>| -> Option<i64> {
        let part = text.get(r)?;
        part.bytes()
            .all(|c| c.is_ascii_digit())
            .then(|| part.parse().ok())
            .flatten()
    };
    if b.len() < 20 || b[4] != b'-' || b[7] != b'-' || b[10] != b'T' {
        return None;
    }
    if b[13] != b':' || b[16] != b':' || *b.last()? != b'Z' {
        return None;
    }
    let (y, mo, d) = (num(0..4)?, num(5..7)?, num(8..10)?);
    let (h, mi, s) = (num(11..13)?, num(14..16)?, num(17..19)?);
    let fraction = text.get(19..b.len() - 1)?;
    let milli = match fraction.strip_prefix('.') {
        None if fraction.is_empty() => 0,
        Some(f) if (1..=3).contains(&f.len()) => {
            num(20..20 + f.len())? * 10_i64.pow(3 - f.len() as u32)
        }
        _ => return None,
    };
    let days_in_month =
        days_from_civil(y + i64::from(mo == 12), mo % 12 + 1, 1) - days_from_civil(y, mo, 1);
    if !(1..=12).contains(&mo) || d < 1 || d > days_in_month || h > 23 || mi > 59 || s > 59 {
        return None;
    }
    Some(days_from_civil(y, mo, d) * DAY_MS + ((h * 60 + mi) * 60 + s) * 1000 + milli)
}

/// A stored time in an export record: milliseconds since the Unix epoch, written as
/// [`iso_time`] in both formats (the dictionary's `time` type); read back from that text or,
/// for files exported before times were ISO text, from the integer milliseconds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct ExportTime(pub i64);

impl serde::Serialize for ExportTime {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&iso_time(self.0))
    }
}

impl<'de> serde::Deserialize<'de> for ExportTime {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(serde::Deserialize)]
        #[serde(untagged)]
        enum Raw {
            Millis(i64),
            Text(String),
        }
        match Raw::deserialize(d)? {
            Raw::Millis(ms) => Ok(Self(ms)),
            Raw::Text(t) => parse_iso_time(&t).map(Self).ok_or_else(|| {
                serde::de::Error::custom(format!(
                    "expected a time like 2026-12-04T21:05:03.123Z, found `{t}`"
                ))
            }),
        }
    }
}

/// Deserializes a time column into milliseconds (ISO text, or the old integer milliseconds).
pub fn de_time<'de, D: serde::Deserializer<'de>>(d: D) -> Result<i64, D::Error> {
    <ExportTime as serde::Deserialize>::deserialize(d).map(|t| t.0)
}

/// [`de_time`] for a column that may be empty.
pub fn de_opt_time<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<i64>, D::Error> {
    <Option<ExportTime> as serde::Deserialize>::deserialize(d).map(|t| t.map(|t| t.0))
}

/// `s` with `\` and the given separators escaped by a `\`.
fn escape(s: &str, separators: &[char]) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if c == '\\' || separators.contains(&c) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// A scalar as text: strings as they are, numbers with the shortest digits that read back
/// exactly (as JSON writes them), booleans as `true`/`false`; null as nothing.
fn scalar(v: &Value) -> String {
    match v {
        Value::Null => String::new(),
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// A list as one cell: its items as text, separated by `;` (e.g. `full;main`, `2;0;1;3`);
/// an empty list is an empty cell.
pub fn list_cell(items: &[Value]) -> String {
    items
        .iter()
        .map(|v| match v {
            Value::Array(_) | Value::Object(_) => escape(&pairs_value(v), &[';']),
            v => escape(&scalar(v), &[';']),
        })
        .collect::<Vec<_>>()
        .join(";")
}

/// A pair's value: a scalar as text, a list with its items separated by `,`.
fn pairs_value(v: &Value) -> String {
    match v {
        Value::Array(items) => items
            .iter()
            .map(|x| escape(&scalar(x), &[',']))
            .collect::<Vec<_>>()
            .join(","),
        Value::Object(_) => String::new(),
        v => scalar(v),
    }
}

/// Flattens an object into `(key, value)` pairs: nested objects' keys are joined with `.`
/// (`scores.faithfulness`), lists become `,`-separated values, nulls are left out.
fn flatten(prefix: &str, v: &Value, out: &mut Vec<(String, String)>) {
    match v {
        Value::Object(map) => {
            for (k, x) in map {
                let key = if prefix.is_empty() {
                    k.clone()
                } else {
                    format!("{prefix}.{k}")
                };
                flatten(&key, x, out);
            }
        }
        Value::Null => {}
        v => out.push((prefix.to_owned(), pairs_value(v))),
    }
}

/// An object as one cell: `key=value` pairs separated by `; ` in key order, with `kind`
/// (an answer's kind) first, e.g. `kind=choice; option=2` or
/// `language=chinese; sound_type=speech`; nested objects as dotted keys, lists as
/// `,`-separated values. An empty object is an empty cell; a scalar is written as text.
pub fn pairs_cell(v: &Value) -> String {
    if !v.is_object() {
        return escape(&pairs_value(v), &[';']);
    }
    let mut pairs = Vec::new();
    flatten("", v, &mut pairs);
    pairs.sort_by_key(|(k, _)| k != "kind");
    pairs
        .iter()
        .map(|(k, x)| format!("{}={}", escape(k, &[';', '=']), escape(x, &[';'])))
        .collect::<Vec<_>>()
        .join("; ")
}

/// Splits `text` at unescaped `separator`s, removing the escapes.
fn split_escaped(text: &str, separator: char) -> Vec<String> {
    let mut out = vec![String::new()];
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                if let (Some(next), Some(last)) = (chars.next(), out.last_mut()) {
                    last.push(next);
                }
            }
            c if c == separator => out.push(String::new()),
            c => {
                if let Some(last) = out.last_mut() {
                    last.push(c);
                }
            }
        }
    }
    out
}

/// Reads back a [`list_cell`]: its items as text (an empty cell is an empty list).
pub fn parse_list(cell: &str) -> Vec<String> {
    if cell.is_empty() {
        return Vec::new();
    }
    split_escaped(cell, ';')
}

/// Reads back a [`pairs_cell`] as `(key, value)` text pairs (`None` when a pair has no `=`).
pub fn parse_pairs(cell: &str) -> Option<Vec<(String, String)>> {
    if cell.is_empty() {
        return Some(Vec::new());
    }
    split_escaped(cell, ';')
        .into_iter()
        .enumerate()
        .map(|(n, pair)| {
            let pair = if n == 0 {
                &pair[..]
            } else {
                pair.strip_prefix(' ')?
            };
            let (k, v) = pair.split_once('=')?;
            Some((k.to_owned(), v.to_owned()))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn times_are_iso_utc_with_milliseconds_and_read_back_exactly() {
        assert_eq!(iso_time(0), "1970-01-01T00:00:00.000Z");
        assert_eq!(iso_time(1_796_418_303_123), "2026-12-04T21:05:03.123Z");
        assert_eq!(iso_time(951_782_400_000), "2000-02-29T00:00:00.000Z");
        assert_eq!(iso_time(-1), "1969-12-31T23:59:59.999Z");
        for ms in [
            0,
            1,
            -1,
            951_782_400_000,
            1_796_418_303_123,
            4_102_444_800_999,
        ] {
            assert_eq!(parse_iso_time(&iso_time(ms)), Some(ms), "{ms}");
        }
        assert_eq!(
            parse_iso_time("2026-12-04T21:05:03Z"),
            Some(1_796_418_303_000)
        );
        assert_eq!(
            parse_iso_time("2026-12-04T21:05:03.1Z"),
            Some(1_796_418_303_100)
        );
        for bad in [
            "1796418303123",
            "2026-12-04 21:05:03.123Z",
            "2026-12-04T21:05:03.123",
            "2026-02-30T00:00:00.000Z",
            "2026-13-01T00:00:00.000Z",
            "2026-12-04T24:00:00.000Z",
            "2026-12-04T21:05:03.1234Z",
            "2026-12-04T21:05:03.+12Z",
        ] {
            assert_eq!(parse_iso_time(bad), None, "{bad}");
        }
    }

    #[test]
    fn lists_and_pairs_are_plain_text_that_splits_back() {
        assert_eq!(list_cell(&[json!("full"), json!("main")]), "full;main");
        assert_eq!(
            list_cell(&[json!(2), json!(0), json!(1), json!(3)]),
            "2;0;1;3"
        );
        assert_eq!(list_cell(&[]), "");
        assert_eq!(parse_list("full;main"), ["full", "main"]);
        assert!(parse_list("").is_empty());
        assert_eq!(
            parse_list(&list_cell(&[json!("a;b\\"), json!("c")])),
            ["a;b\\", "c"]
        );

        let facets = json!({"sound_type": "speech", "language": "chinese", "text_cheat": "false"});
        assert_eq!(
            pairs_cell(&facets),
            "language=chinese; sound_type=speech; text_cheat=false"
        );
        assert_eq!(pairs_cell(&json!({})), "");
        assert_eq!(
            pairs_cell(&json!({"option": 2, "kind": "choice"})),
            "kind=choice; option=2"
        );
        assert_eq!(
            pairs_cell(&json!({"kind": "order", "order": [2, 0, 1]})),
            "kind=order; order=2,0,1"
        );
        assert_eq!(
            pairs_cell(&json!({"kind": "rating", "scores": {"faithfulness": 3, "x": null}})),
            "kind=rating; scores.faithfulness=3"
        );
        assert_eq!(
            pairs_cell(&json!({"model": "m", "cosine": 0.1 + 0.2})),
            "cosine=0.30000000000000004; model=m"
        );
        let text = json!({"kind": "text", "text": "a; b = c\\d"});
        let cell = pairs_cell(&text);
        assert_eq!(cell, "kind=text; text=a\\; b = c\\\\d");
        assert_eq!(
            parse_pairs(&cell).unwrap(),
            [
                ("kind".to_owned(), "text".to_owned()),
                ("text".to_owned(), "a; b = c\\d".to_owned())
            ]
        );
        assert_eq!(parse_pairs("").unwrap(), []);
        assert!(parse_pairs("no pair").is_none());
        for cell in ["full;main", "2;0;1;3", "kind=choice; option=2"] {
            assert!(serde_json::from_str::<Value>(cell).is_err(), "{cell}");
        }
    }
}
