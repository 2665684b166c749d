//! Unit tests for `crate::predictions::mcq`.

use super::*;
use crate::predictions::{Limits, ManifestItem, Split, MAX_LISTED_ERRORS};

fn manifest(n: usize) -> TaskManifest {
    TaskManifest {
        task: "t".into(),
        items: (0..n)
            .map(|i| ManifestItem {
                id: format!("i{i}"),
                category: "c".into(),
                split: Split::Test,
                options: vec!["甲".into(), "乙".into(), "丙, \"丁\"".into()],
            })
            .collect(),
    }
}

fn errors(text: &str, format: FileFormat) -> Vec<String> {
    validate_predictions(text, format, &manifest(3), Limits::default())
        .unwrap_err()
        .lines()
}

#[test]
fn each_kind_of_bad_line_is_named_with_line_and_field() {
    let text = [
        r#"{"item_id":"i0","answer":1}"#,
        r#"{"item_id":"i1","answer":1"#,
        r#"["i1", 1]"#,
        r#"{"item_id":7,"answer":1}"#,
        r#"{"item_id":"i1","answer":true}"#,
        r#"{"item_id":"i1","answer":0}"#,
        r#"{"item_id":"i1","answer":"戊"}"#,
        r#"{"item_id":"i1","answer":1,"order":5}"#,
        r#"{"item_id":"i1","answer":1,"confidence":0.9}"#,
        r#"{"answer":1}"#,
        r#"{"item_id":"i2"}"#,
    ]
    .join("\n");
    assert_eq!(
            errors(&text, FileFormat::JsonLines),
            vec![
                "line 2: not valid JSON (column 26): EOF while parsing an object at line 1 column 26",
                "line 3: expected a JSON object like {\"item_id\": \"…\", \"answer\": 1}",
                // One problem per line: a wrongly typed id is not also reported missing.
                "line 4, field `item_id`: expected text, found 7",
                "line 5, field `answer`: expected an option number or option text, found true",
                "line 6, field `answer`: expected an option number from 1 to 3 or an option's text, found `0`",
                "line 7, field `answer`: `戊` is not one of this item's options (expected 1 to 3 or an option's exact text)",
                "line 8, field `order`: expected a whole number from 0 to 4, found `5`",
                "line 9, field `confidence`: unknown field (expected item_id, answer, order, sample)",
                "line 10, field `item_id`: missing",
                "line 11, field `answer`: missing",
            ]
        );
}

#[test]
fn the_fast_scanner_agrees_with_serde_or_declines() {
    let lines = [
        r#"{"item_id":"i0","answer":2}"#,
        r#"  { "answer" : "甲" , "item_id" : "i1", "order": 3, "sample": 12 }  "#,
        r#"{"item_id":"i\u0030","answer":2}"#,
        r#"{"item_id":"i0","answer":2.0}"#,
        r#"{"item_id":"i0","answer":-1}"#,
        r#"{"item_id":"i0","answer":02}"#,
        r#"{"item_id":"i0","answer":2,"extra":1}"#,
        r#"{"item_id":"i0","answer":2} trailing"#,
        r#"{"item_id":"i0","item_id":"i1","answer":2}"#,
    ];
    for line in lines {
        let fast = scan_flat_line(line).map(|f| (f.item_id.into_owned(), f.order, f.sample));
        let slow = serde_json::from_str::<FastLine<'_>>(line)
            .ok()
            .map(|f| (f.item_id.into_owned(), f.order, f.sample));
        if let Some(fast) = fast {
            assert_eq!(Some(fast), slow, "{line}");
        }
    }
    assert!(scan_flat_line(lines[0]).is_some() && scan_flat_line(lines[1]).is_some());
    assert!(scan_flat_line(lines[2]).is_none(), "escapes go to serde");
}

#[test]
fn csv_quoting_and_header_are_checked() {
    let ok = validate_predictions(
        "\u{feff}item_id,answer\ni0,\"丙, \"\"丁\"\"\"\ni1,2\n",
        FileFormat::Csv,
        &manifest(3),
        Limits::default(),
    )
    .unwrap();
    assert_eq!(ok.answers_for(&manifest(3), "i0")[0].option, 2);
    assert_eq!(ok.answers_for(&manifest(3), "i1")[0].option, 1);
    assert_eq!(
        ok.missing_warning().as_deref(),
        Some("1 item(s) have no prediction and are scored as wrong: i2")
    );
    assert_eq!(
            errors("id,prediction\ni0,1\n", FileFormat::Csv),
            vec!["line 1: expected a header row with columns item_id,answer (optional: order,sample), found `id,prediction`"]
        );
    assert_eq!(
        errors("item_id,answer\ni0,1,3\ni1,\"2\n", FileFormat::Csv),
        vec![
            "line 2: expected 2 fields as in the header, found 3",
            "line 3: not valid CSV: a quoted field is not closed",
        ]
    );
}

#[test]
fn many_errors_are_listed_up_to_the_limit_then_counted() {
    let text: String = (0..30)
        .map(|i| format!("{{\"item_id\":\"x{i}\",\"answer\":1}}\n"))
        .collect();
    let report = validate_predictions(
        &text,
        FileFormat::JsonLines,
        &manifest(3),
        Limits::default(),
    )
    .unwrap_err();
    assert_eq!(report.total_errors, 30);
    assert_eq!(report.errors.len(), MAX_LISTED_ERRORS);
    assert_eq!(
        report.lines().last().map(String::as_str),
        Some("… and 10 more problem(s)")
    );
}

#[test]
fn size_and_row_limits_have_clear_messages() {
    let limits = Limits {
        max_bytes: 10,
        max_rows: 1,
    };
    let report = validate_predictions(
        "{\"item_id\":\"i0\",\"answer\":1}",
        FileFormat::JsonLines,
        &manifest(1),
        limits,
    )
    .unwrap_err();
    assert_eq!(
        report.lines(),
        vec!["file is 27 bytes; the limit is 10 bytes"]
    );
    let limits = Limits {
        max_bytes: 1000,
        max_rows: 1,
    };
    let report = validate_predictions(
        "item_id,answer\ni0,1\ni1,1\n",
        FileFormat::Csv,
        &manifest(2),
        limits,
    )
    .unwrap_err();
    assert_eq!(report.lines(), vec!["file has 2 rows; the limit is 1 rows"]);
    let report = validate_predictions(
        "\n\n",
        FileFormat::JsonLines,
        &manifest(1),
        Limits::default(),
    )
    .unwrap_err();
    assert_eq!(report.lines(), vec!["file contains no predictions"]);
}
