//! Unit tests for `crate::predictions::records`.

use super::*;
use crate::predictions::MAX_LISTED_ERRORS;

/// A small kind for the tests: a required text `id`, an optional whole number `n`.
struct Pairs;

impl RecordParser for Pairs {
    type Line = (String, Option<u64>);
    const COLUMNS: &'static [Column] = &[
        Column::required("id", "expect.text", "\"a\""),
        Column::optional("n", "expect.whole_number", "1"),
    ];
    fn parse(&mut self, r: &Record<'_>) -> Result<Self::Line, FieldError> {
        Ok((r.required_text("id")?.to_owned(), r.uint("n")?))
    }
}

fn read(text: &str, format: FileFormat) -> Result<Records<(String, Option<u64>)>, Vec<String>> {
    read_records(text, format, Limits::default(), &mut Pairs).map_err(|r| r.lines())
}

fn lines(text: &str, format: FileFormat) -> Vec<(String, Option<u64>)> {
    read(text, format).unwrap().lines
}

fn errors(text: &str, format: FileFormat) -> Vec<String> {
    read(text, format).unwrap_err()
}

#[test]
fn json_lines_and_csv_give_the_same_records() {
    let expected = vec![("a".to_owned(), Some(1)), ("b".to_owned(), None)];
    assert_eq!(
        lines(
            "{\"id\":\"a\",\"n\":1}\n{\"id\":\"b\",\"n\":null}\n",
            FileFormat::JsonLines
        ),
        expected
    );
    assert_eq!(lines("ID , n\na,1\n b ,\n", FileFormat::Csv), expected);
    assert_eq!(lines("n,id\n1,a\n,b\n", FileFormat::Csv), expected);
}

#[test]
fn an_unknown_field_is_rejected_in_json_lines_and_an_unknown_column_in_csv() {
    assert_eq!(
        errors("{\"id\":\"a\",\"extra\":1}\n", FileFormat::JsonLines),
        vec!["line 1, field `extra`: unknown field (expected id, n)"]
    );
    assert_eq!(
        errors("id,extra\na,1\n", FileFormat::Csv),
        vec!["line 1, field `extra`: unknown column (expected id, n)"]
    );
    assert_eq!(
        errors("id,n,ID\na,1,b\n", FileFormat::Csv),
        vec!["line 1, field `id`: column appears twice"]
    );
}

#[test]
fn a_missing_required_field_is_named_in_both_formats() {
    assert_eq!(
        errors("{\"n\":1}\n{\"id\":null}\n", FileFormat::JsonLines),
        vec!["line 1, field `id`: missing", "line 2, field `id`: missing"]
    );
    assert_eq!(
        errors("id,n\n,1\n", FileFormat::Csv),
        vec!["line 2, field `id`: missing"]
    );
    assert_eq!(
        errors("n\n1\n", FileFormat::Csv),
        vec!["line 1: expected a header row with columns id (optional: n), found `n`"]
    );
}

#[test]
fn type_errors_say_what_was_expected_and_what_was_found() {
    assert_eq!(
        errors(
            "{\"id\":7}\n{\"id\":\"a\",\"n\":\"2\"}\n{\"id\":\"a\",\"n\":-1}\n",
            FileFormat::JsonLines
        ),
        vec![
            "line 1, field `id`: expected text, found 7",
            "line 2, field `n`: expected a whole number, found \"2\"",
            "line 3, field `n`: expected a whole number, found -1",
        ]
    );
    assert_eq!(
        errors("id,n\na,x\n", FileFormat::Csv),
        vec!["line 2, field `n`: expected a whole number, found `x`"]
    );
}

#[test]
fn bad_json_and_non_objects_are_named_with_their_line() {
    assert_eq!(
        errors("{\"id\":\"a\"\n[1]\n", FileFormat::JsonLines),
        vec![
            "line 1: not valid JSON (column 9): EOF while parsing an object at line 1 column 9",
            "line 2: expected a JSON object like {\"id\": \"a\"}",
        ]
    );
}

#[test]
fn quoted_csv_fields_keep_commas_quotes_and_line_breaks() {
    let text = "id,n\n\"a, \"\"b\"\"\",1\n\"line one\r\nline two\",2\nc,3\n";
    let read = read(text, FileFormat::Csv).unwrap();
    assert_eq!(
        read.lines,
        vec![
            ("a, \"b\"".to_owned(), Some(1)),
            ("line one\nline two".to_owned(), Some(2)),
            ("c".to_owned(), Some(3)),
        ]
    );
    assert_eq!(read.num_lines, 3);
    // Line numbers after a record that spans lines are still the file's.
    assert_eq!(
        errors("id,n\n\"x\ny\",1\nc,z\n", FileFormat::Csv),
        vec!["line 4, field `n`: expected a whole number, found `z`"]
    );
    assert_eq!(
        errors("id,n\na\"b,1\n\"a\"b,1\n\"open,1\n", FileFormat::Csv),
        vec![
            "line 3: not valid CSV: unexpected `b` after a closing quote (quote the whole field)",
            "line 4: not valid CSV: a quoted field is not closed",
        ]
    );
    assert_eq!(
        errors("id,n\na,1,2\n", FileFormat::Csv),
        vec!["line 2: expected 2 fields as in the header, found 3"]
    );
}

#[test]
fn a_byte_order_mark_and_blank_lines_are_ignored_in_both_formats() {
    let json = read(
        "\u{feff}{\"id\":\"a\"}\n\n  \n{\"id\":\"b\"}",
        FileFormat::JsonLines,
    )
    .unwrap();
    assert_eq!(json.num_lines, 2);
    let csv = read("\u{feff}id\n\na\n \nb\n", FileFormat::Csv).unwrap();
    assert_eq!(csv.lines, json.lines);
    assert_eq!(csv.num_lines, 2);
}

#[test]
fn an_empty_file_or_a_lone_header_contains_no_predictions() {
    for (text, format) in [
        ("", FileFormat::JsonLines),
        ("\n \n", FileFormat::JsonLines),
        ("", FileFormat::Csv),
        ("id,n\n", FileFormat::Csv),
    ] {
        assert_eq!(errors(text, format), vec!["file contains no predictions"]);
    }
}

#[test]
fn the_row_limit_counts_data_lines_and_lines_over_it_are_not_parsed() {
    let limits = Limits {
        max_bytes: 1000,
        max_rows: 2,
    };
    let report = read_records("id\na\nb\n,\n7\n", FileFormat::Csv, limits, &mut Pairs).unwrap_err();
    assert_eq!(report.lines(), vec!["file has 4 rows; the limit is 2 rows"]);
    let report = read_records(
        "{\"id\":\"a\"}\n{\"id\":\"b\"}\n",
        FileFormat::JsonLines,
        Limits {
            max_bytes: 10,
            max_rows: 2,
        },
        &mut Pairs,
    )
    .unwrap_err();
    assert_eq!(
        report.lines(),
        vec!["file is 22 bytes; the limit is 10 bytes"]
    );
}

#[test]
fn the_first_twenty_problems_are_listed_then_the_rest_counted() {
    let text: String = (0..25).map(|i| format!("{{\"id\":{i}}}\n")).collect();
    let report =
        read_records(&text, FileFormat::JsonLines, Limits::default(), &mut Pairs).unwrap_err();
    assert_eq!(report.total_errors, 25);
    assert_eq!(report.errors.len(), MAX_LISTED_ERRORS);
    assert_eq!(report.errors[0].line, Some(1));
    assert_eq!(report.errors[19].line, Some(20));
    assert_eq!(
        report.lines().last().map(String::as_str),
        Some("… and 5 more problem(s)")
    );
}
