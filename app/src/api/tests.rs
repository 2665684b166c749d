//! Tests of the API client's URLs, queries, error texts and dev gold parsing.

use super::*;
use memeboard_core::api::{BoardSplit, Weights};
use memeboard_core::predictions::FileFormat;

#[test]
fn board_queries_pass_the_subset_through() {
    assert_eq!(
        board_query("clips", BoardSplit::Public, None, false),
        "/api/boards/clips?split=public"
    );
    assert_eq!(
        board_query("clips", BoardSplit::Private, Some("main"), false),
        "/api/boards/clips?split=private&subset=main"
    );
    assert_eq!(
        board_query("a b", BoardSplit::Public, Some(" "), false),
        "/api/boards/a%20b?split=public"
    );
    assert_eq!(
        board_query("clips", BoardSplit::Public, Some("main"), true),
        "/api/boards/clips?split=public&subset=main&attempts=all"
    );
}

#[test]
fn error_body_details_are_joined() {
    let body = r#"{"errors":[{"detail":"survey field `age_range`: missing"},{"detail":"consent must be true"}]}"#;
    assert_eq!(
        error_detail(422, "Unprocessable Entity", body),
        "survey field `age_range`: missing; consent must be true"
    );
}

#[test]
fn coded_errors_show_in_the_reader_language_and_unknown_codes_as_sent() {
    let body = r#"{"errors":[{"detail":"no open quiz named `x`","code":"quiz.not_found","params":{"slug":"x"}},{"detail":"from a newer server","code":"brand.new"}]}"#;
    assert_eq!(
        error_details_in(Lang::Zh, 404, "", body),
        vec![
            "没有名为 `x` 的开放测验".to_owned(),
            "from a newer server".to_owned()
        ]
    );
    assert_eq!(
        error_details_in(Lang::En, 404, "", body)[0],
        "no open quiz named `x`"
    );
}

#[test]
fn non_json_bodies_fall_back_to_status() {
    assert_eq!(error_detail(502, "Bad Gateway", ""), "HTTP 502 Bad Gateway");
    assert_eq!(error_detail(500, "", "<html>oops</html>"), "HTTP 500");
    assert_eq!(error_detail(500, "", "boom"), "HTTP 500: boom");
}

#[test]
fn error_details_keep_one_message_per_problem() {
    let body = r#"{"errors":[{"detail":"line 1, field `item_id`: unknown item id `nope`"},{"detail":"line 2: oops"}]}"#;
    assert_eq!(
        error_details(422, "", body),
        vec![
            "line 1, field `item_id`: unknown item id `nope`".to_owned(),
            "line 2: oops".to_owned()
        ]
    );
    assert_eq!(
        error_details(413, "Payload Too Large", ""),
        vec!["HTTP 413 Payload Too Large".to_owned()]
    );
}

#[test]
fn upload_query_encodes_values_and_skips_empty_ones() {
    let meta = UploadMeta {
        model: " My Model/v2 ".into(),
        organisation: "".into(),
        parameters: "7B".into(),
        weights: Weights::Open,
        link: "https://example.org/a?b=c&d".into(),
        description: "大模型".into(),
        conditions: "options=with_meanings".into(),
        filename: "preds.csv".into(),
        format: FileFormat::Csv,
    };
    assert_eq!(
        submission_query(&meta),
        "model=My%20Model%2Fv2&parameters=7B&weights=open\
         &link=https%3A%2F%2Fexample.org%2Fa%3Fb%3Dc%26d\
         &description=%E5%A4%A7%E6%A8%A1%E5%9E%8B&conditions=options%3Dwith_meanings\
         &filename=preds.csv&format=csv"
    );
}

#[test]
fn urls_of_downloads() {
    assert_eq!(
        task_file_url("demo-mcq", TaskFile::TemplateCsv),
        "/api/tasks/demo-mcq/template.csv"
    );
    assert_eq!(
        board_download_url("demo-mcq", BoardSplit::Private, "json"),
        "/api/boards/demo-mcq/download.json?split=private"
    );
}

#[test]
fn dev_gold_lines_parse() {
    let gold = parse_dev_gold(
        "{\"item_id\":\"a\",\"category\":\"slang\",\"answer\":3}\n\n{\"item_id\":\"b\",\"category\":\"x\",\"answer\":1}\n",
    )
    .unwrap();
    assert_eq!(gold.len(), 2);
    // Numbered from 1 in the file (as prediction files are), 0-based inside.
    assert_eq!((gold[0].correct, gold[1].correct), (2, 0));
    assert!(parse_dev_gold("{}")
        .unwrap_err()
        .starts_with("dev gold line 1"));
}

#[test]
fn server_error_displays_detail() {
    let e = ApiError::Server {
        status: 409,
        detail: "the batch is not complete".into(),
        body: String::new(),
    };
    assert_eq!(e.to_string(), "the batch is not complete");
    assert_eq!(e.status(), Some(409));
}

#[test]
fn a_server_error_is_written_in_the_language_of_the_moment_it_is_shown() {
    let body = r#"{"errors":[{"detail":"no open quiz named `x`","code":"quiz.not_found","params":{"slug":"x"}}]}"#;
    let e = ApiError::Server {
        status: 404,
        detail: "没有名为 `x` 的开放测验".into(),
        body: body.into(),
    };
    // Failed while the page was in Chinese, shown now in English (native tests read English).
    assert_eq!(e.to_string(), "no open quiz named `x`");
}
