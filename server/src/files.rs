//! Plain-text file formats the site writes: CSV fields (RFC 4180 quoting, spreadsheet-formula
//! neutralisation for user text) and prediction-file templates, built with serializers so
//! any id or name stays one field.

use memeboard_core::predictions::FileFormat;

pub use memeboard_core::csv::{csv_field, csv_text};

/// A template file: one row per item id with empty answer columns (JSON Lines: the first
/// column as `null`). Built with serializers, so any id (quotes, commas) stays one field.
pub fn template_file<'a>(
    ids: impl Iterator<Item = &'a str>,
    columns: &[&str],
    format: FileFormat,
) -> String {
    let mut out = String::new();
    match format {
        FileFormat::JsonLines => {
            for id in ids {
                let mut line = serde_json::Map::new();
                line.insert("item_id".into(), serde_json::Value::String(id.to_owned()));
                if let Some(first) = columns.first() {
                    line.insert((*first).to_owned(), serde_json::Value::Null);
                }
                out.push_str(&serde_json::Value::Object(line).to_string());
                out.push('\n');
            }
        }
        FileFormat::Csv => {
            out.push_str("item_id");
            for c in columns {
                out.push(',');
                out.push_str(&csv_field(c));
            }
            out.push('\n');
            for id in ids {
                out.push_str(&csv_field(id));
                out.push_str(&",".repeat(columns.len()));
                out.push('\n');
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{csv_text, template_file};
    use memeboard_core::predictions::FileFormat;

    #[test]
    fn user_text_cannot_become_a_spreadsheet_formula() {
        assert_eq!(csv_text("=HYPERLINK(\"x\")"), "\"'=HYPERLINK(\"\"x\"\")\"");
        for bad in ["+1", "-1+2", "@SUM(A1)", "\tx", "\rx"] {
            assert!(
                csv_text(bad).trim_start_matches('"').starts_with('\''),
                "{bad}"
            );
        }
        assert_eq!(csv_text("GPT-4o"), "GPT-4o");
        assert_eq!(csv_text("a, b"), "\"a, b\"");
    }

    #[test]
    fn templates_keep_odd_ids_in_one_field() {
        let ids = ["mcq-1", "we\"ird,id"];
        let jsonl = template_file(ids.into_iter(), &["answer"], FileFormat::JsonLines);
        let lines: Vec<serde_json::Value> = jsonl
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(lines[1]["item_id"], "we\"ird,id");
        assert!(lines[1]["answer"].is_null());
        let csv = template_file(
            ids.into_iter(),
            &["meaning", "origin", "example"],
            FileFormat::Csv,
        );
        assert_eq!(
            csv,
            "item_id,meaning,origin,example\nmcq-1,,,\n\"we\"\"ird,id\",,,\n"
        );
    }
}
