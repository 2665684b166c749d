//! CSV fields as the site writes them: RFC 4180 quoting, and spreadsheet-formula
//! neutralisation for user text. Shared by the server's downloads and the paper tables.

/// One CSV field, quoted when it holds a separator, quote or line break (RFC 4180).
///
/// ```
/// use memeboard_core::csv::csv_field;
/// assert_eq!(csv_field("plain"), "plain");
/// assert_eq!(csv_field("a,\"b\""), "\"a,\"\"b\"\"\"");
/// ```
pub fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_owned()
    }
}

/// A CSV field of user text (model name, organisation, size): a leading `=`, `+`, `-`, `@`,
/// tab or carriage return gets a `'` in front, so spreadsheets show it as text instead of
/// running it as a formula (CSV injection); then quoted as [`csv_field`].
///
/// ```
/// use memeboard_core::csv::csv_text;
/// assert_eq!(csv_text("=SUM(A1)"), "'=SUM(A1)");
/// assert_eq!(csv_text("GPT-4o"), "GPT-4o");
/// ```
pub fn csv_text(s: &str) -> String {
    if s.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        csv_field(&format!("'{s}"))
    } else {
        csv_field(s)
    }
}
