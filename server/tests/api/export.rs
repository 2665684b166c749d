//! Raw data: the answer-level export (CSV with BOM and header, JSON Lines; columns = the data
//! dictionary = docs/data-export.md), `memeboard stats --export` reproducing the site's human
//! rows exactly (library and binary), the exclusion column, and deleting a participant's data
//! on request.

use crate::helpers::{detail, start_body, test_settings, Db, TestApp};
use crate::on_both_databases;
use axum::body::Body;
use axum::http::{Method, Request, StatusCode};
use memeboard_server::export::stats::{read_export, stats_from_export, StatsOptions, StatsReport};
use memeboard_server::export::COLUMNS;
use serde_json::{json, Value};
use std::collections::{BTreeSet, HashMap};
use tower::ServiceExt;

const ADMIN: &str = "admin-secret-for-tests";
pub(crate) const OPTIONS: StatsOptions = StatsOptions {
    resamples: 200,
    min_category_items: 1,
};

async fn app(db: Db) -> TestApp {
    let (mut settings, dir) = test_settings(db, true).await;
    settings.admin.token = ADMIN.into();
    settings.leaderboard.min_category_items = OPTIONS.min_category_items;
    exact_crowd(&mut settings);
    TestApp::with_settings(settings, dir).await
}

/// The site's crowd figures unbounded (every participant at once, unrounded), so that the
/// owner's exact export can be compared with them; the public bounds are tested in
/// `disclosure`.
pub(crate) fn exact_crowd(settings: &mut memeboard_server::config::Settings) {
    settings.quiz.min_crowd_participants = 1;
    settings.quiz.min_crowd_items = 1;
    settings.quiz.crowd_snapshot_step = 1;
    settings.quiz.crowd_noise = 0.0;
    settings.quiz.crowd_grid = 0.0;
}

/// A request with or without the admin token: status, content type and raw body.
pub(crate) async fn raw(
    app: &TestApp,
    method: Method,
    path: &str,
    admin: bool,
) -> (StatusCode, String, Vec<u8>) {
    let reply = app
        .send_as(method, path, admin.then_some(ADMIN), None, Body::empty())
        .await;
    let content_type = reply.header("content-type");
    (reply.status, content_type, reply.bytes)
}

pub(crate) async fn admin_post(app: &TestApp, path: &str, body: Value) {
    let req = Request::post(path)
        .header("authorization", format!("Bearer {ADMIN}"))
        .header("content-type", "application/json")
        .body(Body::from(body.to_string()))
        .unwrap();
    assert_eq!(
        app.app.router().oneshot(req).await.unwrap().status(),
        StatusCode::OK
    );
}

pub(crate) async fn export_text(app: &TestApp, slug: &str, ext: &str) -> String {
    let (status, content_type, body) = raw(
        app,
        Method::GET,
        &format!("/api/owner/tasks/{slug}/export.{ext}"),
        true,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{}", String::from_utf8_lossy(&body));
    assert!(content_type.contains("charset=utf-8"), "{content_type}");
    String::from_utf8(body).unwrap()
}

/// A JSON value as it reads after the API's text round trip (so floats compare exactly).
fn wire<T: serde::Serialize>(v: &T) -> Value {
    serde_json::from_str(&serde_json::to_string(v).unwrap()).unwrap()
}

fn by_category(rows: &Value) -> HashMap<Value, Value> {
    rows.as_array()
        .unwrap()
        .iter()
        .map(|r| (r["category"].clone(), r.clone()))
        .collect()
}

/// Every human figure the report has equals the site's: quiz statistics (rows, agreement),
/// and the human rows and familiarity rows of every board half and subset.
pub(crate) async fn assert_same_as_site(app: &TestApp, slug: &str, report: &StatsReport) -> usize {
    let (status, stats) = app.get(&format!("/api/quizzes/{slug}/stats")).await;
    assert_eq!(status, StatusCode::OK, "{stats}");
    assert_eq!(
        stats["completed_participants"],
        json!(report.quiz.completed_participants)
    );
    let ours = by_category(&wire(&report.quiz.rows));
    for row in stats["rows"].as_array().unwrap() {
        match ours.get(&row["category"]) {
            Some(mine) => assert_eq!(mine, row, "quiz row"),
            None => assert_eq!(row["participants"], 0, "{row}"),
        }
    }
    assert_eq!(stats["agreement"], wire(&report.quiz.agreement));
    let mut compared = 0;
    for b in &report.boards {
        let path = format!("/api/boards/{slug}?split={}&subset={}", b.split, b.subset);
        let (status, board) = app.get(&path).await;
        assert_eq!(status, StatusCode::OK, "{board}");
        // Boards leave out an empty familiarity list.
        let familiarity = match &board["familiarity"] {
            Value::Null => json!([]),
            v => v.clone(),
        };
        assert_eq!(familiarity, wire(&b.familiarity), "{path}");
        for (kind, scores) in [
            ("human_average", &b.human_average),
            ("human_best", &b.human_best),
        ] {
            let Some(row) = board["rows"]
                .as_array()
                .unwrap()
                .iter()
                .find(|r| r["kind"] == kind)
            else {
                assert_eq!(b.participants, 0, "{path}: no {kind} row on the site");
                continue;
            };
            assert_eq!(row["participants"], json!(b.participants), "{path}");
            let ours = by_category(&wire(scores));
            for s in row["scores"].as_array().unwrap() {
                match ours.get(&s["category"]) {
                    Some(mine) => {
                        assert_eq!(mine, s, "{path} {kind}");
                        compared += 1;
                    }
                    None => assert!(s["estimate"].is_null(), "{path}: {s}"),
                }
            }
        }
    }
    compared
}

/// Starts a demo MCQ session with a Prolific id and answers `n` items: the item's display
/// position is `(k + shift) % 5`, so participants differ.
async fn take_mcq(app: &TestApp, pid: &str, shift: usize, n: usize) -> String {
    let mut body = start_body(false);
    body["recruitment"]["prolific_pid"] = json!(pid);
    let (status, s) = app.post("/api/quizzes/demo-mcq/sessions", body).await;
    assert_eq!(status, StatusCode::CREATED, "{s}");
    let id = s["session_id"].as_str().unwrap().to_owned();
    for (k, item) in s["items"].as_array().unwrap().iter().take(n).enumerate() {
        let item = item["item_id"].as_str().unwrap();
        let position = (k * (shift + 1) + shift) % 5;
        let (status, b) = app.answer(&id, item, position, &format!("{pid}-{k}")).await;
        assert!(status.is_success(), "{b}");
    }
    id
}

fn header(csv: &str) -> Vec<String> {
    csv.trim_start_matches('\u{feff}')
        .lines()
        .next()
        .unwrap()
        .split(',')
        .map(str::to_owned)
        .collect()
}

fn column_names() -> Vec<String> {
    COLUMNS.iter().map(|(n, _, _)| (*n).to_owned()).collect()
}

/// The export's CSV rows after the header (BOM dropped), cells unquoted (RFC 4180).
pub(crate) fn csv_cells(csv: &str) -> Vec<Vec<String>> {
    let (mut rows, mut row, mut cell) = (Vec::new(), Vec::new(), String::new());
    let mut chars = csv.trim_start_matches('\u{feff}').chars().peekable();
    let mut quoted = false;
    while let Some(c) = chars.next() {
        match c {
            '"' if quoted && chars.peek() == Some(&'"') => {
                chars.next();
                cell.push('"');
            }
            '"' if quoted || cell.is_empty() => quoted = !quoted,
            ',' if !quoted => row.push(std::mem::take(&mut cell)),
            '\r' if !quoted => {}
            '\n' if !quoted => {
                row.push(std::mem::take(&mut cell));
                rows.push(std::mem::take(&mut row));
            }
            c => cell.push(c),
        }
    }
    assert!(
        cell.is_empty() && row.is_empty() && !quoted,
        "the CSV ends a row"
    );
    rows.remove(0);
    rows
}

/// A JSON Lines value as the CSV writes it: times as the same ISO text, lists `;`-separated,
/// objects as `key=value` pairs (kind first).
fn plain(v: &Value) -> String {
    use memeboard_server::export::cells::{list_cell, pairs_cell};
    match v {
        Value::Null => String::new(),
        Value::String(s) => s.clone(),
        Value::Array(items) => list_cell(items),
        Value::Object(_) => pairs_cell(v),
        v => v.to_string(),
    }
}

/// Readable CSV cells (export issue 32 §6): no cell holds JSON (a list or an object), time
/// columns are ISO 8601 UTC with milliseconds (never integer milliseconds) within `[from,
/// to]` ms, and every cell says what the JSON Lines row says.
pub(crate) fn assert_readable_csv(csv: &str, lines: &[Value], from: i64, to: i64) {
    use memeboard_server::export::cells::parse_iso_time;
    use memeboard_server::export::ColumnType;
    let rows = csv_cells(csv);
    assert_eq!(rows.len(), lines.len());
    for (row, line) in rows.iter().zip(lines) {
        assert_eq!(row.len(), COLUMNS.len(), "{row:?}");
        for (cell, (name, t, _)) in row.iter().zip(COLUMNS) {
            let json = serde_json::from_str::<Value>(cell);
            assert!(
                !json.as_ref().is_ok_and(|v| v.is_array() || v.is_object()),
                "column {name}: JSON in a CSV cell: {cell}"
            );
            if *t == ColumnType::Time && !cell.is_empty() {
                assert!(cell.parse::<i64>().is_err(), "{name}: integer time {cell}");
                let ms = parse_iso_time(cell).unwrap_or_else(|| panic!("{name}: {cell}"));
                assert_eq!(cell.len(), "2026-12-04T21:05:03.123Z".len(), "{cell}");
                assert!(
                    (from..=to).contains(&ms),
                    "{name}: {cell} not in the test's time"
                );
            }
            // Formula-neutralised text has a `'` before it.
            let cell = match cell.strip_prefix('\'') {
                Some(rest) if rest.starts_with(['=', '+', '-', '@', '\t', '\r']) => rest,
                _ => cell,
            };
            assert_eq!(cell, plain(&line[*name]), "column {name}");
        }
    }
}

/// Milliseconds since the Unix epoch now (to bound the export's times).
pub(crate) fn now_ms() -> i64 {
    let since = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap();
    i64::try_from(since.as_millis()).unwrap()
}

/// The export as the format before ISO times and plain-text cells wrote it (integer
/// milliseconds, compact JSON lists and objects), from its JSON Lines rows.
fn old_format(lines: &[Value]) -> (String, String) {
    use memeboard_server::export::cells::parse_iso_time;
    use memeboard_server::export::ColumnType;
    let mut csv = format!("\u{feff}{}", column_names().join(","));
    let mut jsonl = String::new();
    for line in lines {
        let mut old = line.clone();
        csv.push_str("\r\n");
        let mut cells = Vec::new();
        for (name, t, _) in COLUMNS {
            let v = &line[*name];
            if *t == ColumnType::Time && !v.is_null() {
                old[*name] = json!(parse_iso_time(v.as_str().unwrap()).unwrap());
            }
            cells.push(match &old[*name] {
                Value::Null => String::new(),
                Value::String(s) => memeboard_core::csv::csv_text(s),
                v => memeboard_core::csv::csv_field(&v.to_string()),
            });
        }
        csv.push_str(&cells.join(","));
        jsonl.push_str(&old.to_string());
        jsonl.push('\n');
    }
    csv.push_str("\r\n");
    (csv, jsonl)
}

async fn export_has_the_dictionary_columns_and_reproduces_the_site(db: Db) {
    let app = app(db).await;
    let from = now_ms();
    // Owners only; unknown tasks are named.
    let (status, _, _) = raw(
        &app,
        Method::GET,
        "/api/owner/tasks/demo-mcq/export.csv",
        false,
    )
    .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    let (status, _, body) = raw(&app, Method::GET, "/api/owner/tasks/nope/export.csv", true).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(String::from_utf8_lossy(&body).contains("no task named `nope`"));

    let mut sessions = Vec::new();
    for (n, pid) in ["pa", "pb", "pc", "pd"].iter().enumerate() {
        sessions.push(take_mcq(&app, pid, n, usize::MAX).await);
    }
    // Unfinished: exported, not counted.
    sessions.push(take_mcq(&app, "pe", 4, 3).await);
    admin_post(
        &app,
        "/api/admin/tasks/demo-mcq/board",
        json!({"private_revealed": true}),
    )
    .await;

    let csv = export_text(&app, "demo-mcq", "csv").await;
    assert!(csv.starts_with('\u{feff}'), "CSV starts with a BOM");
    assert_eq!(header(&csv), column_names());
    let jsonl = export_text(&app, "demo-mcq", "jsonl").await;
    let lines: Vec<Value> = jsonl
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 4 * 24 + 3);
    for l in &lines {
        let keys: Vec<String> = l.as_object().unwrap().keys().cloned().collect();
        let mut expected = column_names();
        expected.sort();
        let mut keys = keys;
        keys.sort();
        assert_eq!(keys, expected);
    }
    // Capabilities never leave: no session id (nor participant id) appears.
    for s in &sessions {
        assert!(!csv.contains(s.as_str()) && !jsonl.contains(s.as_str()));
    }
    let first = &lines[0];
    assert_eq!(first["task_kind"], "text_mcq");
    assert_eq!(first["prolific_pid"], "pa");
    assert_eq!(first["num_options"], 5);
    assert_eq!(first["option_order"].as_array().unwrap().len(), 5);
    assert!(first["answer_text"].is_string() && first["answer_position"].is_i64());
    assert!(first["correct"] == 0 || first["correct"] == 1, "{first}");
    assert_eq!(first["survey_meme_familiarity"], 4);
    assert_eq!(first["excluded"], 0);
    assert_eq!(first["participant"].as_str().unwrap().len(), 16);
    // Times are ISO text in both formats; lists and objects plain text in the CSV.
    assert!(
        first["answered_at"].as_str().unwrap().ends_with('Z'),
        "{first}"
    );
    assert!(first["session_completed_at"].is_string(), "{first}");
    assert_readable_csv(&csv, &lines, from, now_ms());
    let rows = csv_cells(&csv);
    let cell = |name: &str| {
        let i = COLUMNS.iter().position(|(n, _, _)| *n == name).unwrap();
        rows[0][i].clone()
    };
    assert_eq!(cell("subsets"), "full");
    assert_eq!(cell("facets"), "");
    let order: Vec<String> = first["option_order"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o.as_u64().unwrap().to_string())
        .collect();
    assert_eq!(cell("option_order"), order.join(";"));
    assert_eq!(
        cell("answer_canonical"),
        format!("kind=choice; option={}", first["choice"])
    );
    // The same rows whichever format, and from files of the old format (integer
    // milliseconds, JSON cells).
    assert_eq!(read_export(&csv).unwrap(), read_export(&jsonl).unwrap());
    let (old_csv, old_jsonl) = old_format(&lines);
    assert!(old_csv.contains(",\"[\"\"full\"\"]\","), "{old_csv}");
    assert_eq!(read_export(&old_csv).unwrap(), read_export(&csv).unwrap());
    assert_eq!(read_export(&old_jsonl).unwrap(), read_export(&csv).unwrap());

    // The dictionary lists every column with a type and a meaning, as the docs do.
    let (status, _, body) = raw(
        &app,
        Method::GET,
        "/api/owner/tasks/demo-mcq/export-dictionary",
        true,
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let dictionary: Value = serde_json::from_slice(&body).unwrap();
    let names: Vec<String> = dictionary["columns"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            let types = ["text", "integer", "number", "time", "list", "pairs"];
            assert!(types.contains(&c["type"].as_str().unwrap()), "{c}");
            assert!(!c["meaning"].as_str().unwrap().is_empty());
            c["name"].as_str().unwrap().to_owned()
        })
        .collect();
    assert_eq!(names, header(&csv));

    // The CLI's computation gives the site's numbers, from either file.
    let report = stats_from_export(&csv, OPTIONS).unwrap();
    assert_eq!(report.answers_in_file, 99);
    assert_eq!(report.answers_counted, 96);
    assert_eq!(report.quiz.completed_participants, 4);
    assert_eq!(report, stats_from_export(&jsonl, OPTIONS).unwrap());
    assert!(assert_same_as_site(&app, "demo-mcq", &report).await > 0);

    if db == Db::Sqlite {
        // The binary prints the same report.
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("answers.csv");
        std::fs::write(&file, &csv).unwrap();
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_memeboard"))
            .args([
                "stats",
                "--json",
                "--resamples",
                "200",
                "--min-category-items",
                "1",
            ])
            .arg("--export")
            .arg(&file)
            .env("MEMEBOARD_CONFIG_DIR", dir.path())
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let printed: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(printed, wire(&report));
        let tables = std::process::Command::new(env!("CARGO_BIN_EXE_memeboard"))
            .args(["stats", "--resamples", "200", "--export"])
            .arg(&file)
            .env("MEMEBOARD_CONFIG_DIR", dir.path())
            .output()
            .unwrap();
        let text = String::from_utf8(tables.stdout).unwrap();
        assert!(
            text.contains("Quiz statistics") && text.contains("Board public / full"),
            "{text}"
        );
    }

    // Deleting one participant on request.
    let records = read_export(&csv).unwrap();
    let pseudonym_of = |pid: &str| {
        let session = lines.iter().find(|l| l["prolific_pid"] == pid).unwrap();
        session["participant"].as_str().unwrap().to_owned()
    };
    let (b_id, c_id) = (pseudonym_of("pb"), pseudonym_of("pc"));
    let task = app.board_task("demo-mcq").await;
    let exposures = || async {
        app.storage()
            .assignment_candidates(&task.task.id, false)
            .await
            .unwrap()
            .iter()
            .map(|c| c.exposures)
            .sum::<i64>()
    };
    let before_exposures = exposures().await;
    let participants_before = app.count("participants").await;
    let path = |who: &str| format!("/api/owner/tasks/demo-mcq/participants/{who}");
    let (status, _, _) = raw(&app, Method::DELETE, &path(&b_id), false).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    let (status, body) = {
        let (s, _, b) = raw(&app, Method::DELETE, &path("nobody-at-all"), true).await;
        (s, serde_json::from_slice::<Value>(&b).unwrap())
    };
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(
        detail(&body).contains("no participant with pseudonym or Prolific id `nobody-at-all`"),
        "{body}"
    );
    let (status, _, body) = raw(&app, Method::DELETE, &path(&b_id), true).await;
    assert_eq!(status, StatusCode::OK, "{}", String::from_utf8_lossy(&body));
    let deleted: Value = serde_json::from_slice(&body).unwrap();
    assert_eq!(
        (
            &deleted["participants"],
            &deleted["sessions"],
            &deleted["answers"]
        ),
        (&json!(1), &json!(1), &json!(24))
    );
    assert_eq!(deleted["tasks"], json!(["demo-mcq"]));
    assert_eq!(exposures().await, before_exposures - 24);
    assert_eq!(app.count("participants").await, participants_before - 1);
    // By Prolific id, too.
    let (status, _, body) = raw(&app, Method::DELETE, &path("pc"), true).await;
    assert_eq!(status, StatusCode::OK, "{}", String::from_utf8_lossy(&body));
    let (status, _, _) = raw(&app, Method::DELETE, &path(&b_id), true).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "already deleted");

    let after_csv = export_text(&app, "demo-mcq", "csv").await;
    assert!(!after_csv.contains(&b_id) && !after_csv.contains(&c_id));
    // Everyone else's rows are untouched.
    let kept: Vec<_> = records
        .iter()
        .filter(|r| r.participant != b_id && r.participant != c_id)
        .cloned()
        .collect();
    assert_eq!(read_export(&after_csv).unwrap(), kept);
    let after = stats_from_export(&after_csv, OPTIONS).unwrap();
    assert_eq!(after.quiz.completed_participants, 2);
    assert_ne!(after.quiz.rows, report.quiz.rows);
    // The site recomputed its rows (the cache saw the deletion) and still agrees.
    assert!(assert_same_as_site(&app, "demo-mcq", &after).await > 0);
    let participants: BTreeSet<String> = read_export(&after_csv)
        .unwrap()
        .into_iter()
        .map(|r| r.participant)
        .collect();
    assert_eq!(participants.len(), 3, "PA, PD and the unfinished PE remain");
}

/// The documented dictionary (docs/data-export.md) lists the served columns, in order.
#[test]
fn the_documented_dictionary_matches_the_columns() {
    let doc = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../docs/data-export.md"
    ))
    .unwrap();
    let documented: Vec<(String, String)> = doc
        .lines()
        .filter_map(|l| {
            let cells: Vec<&str> = l.split('|').map(str::trim).collect();
            let name = cells.get(1)?.strip_prefix('`')?.strip_suffix('`')?;
            Some((name.to_owned(), (*cells.get(2)?).to_owned()))
        })
        .filter(|(name, _)| !name.contains(' '))
        .collect();
    let served: Vec<(String, String)> = memeboard_server::export::dictionary("x")
        .columns
        .into_iter()
        .map(|c| (c.name, c.value_type))
        .collect();
    assert_eq!(documented, served);
}

/// The survey columns are every field of the survey.
#[test]
fn every_survey_field_has_a_column() {
    let body = start_body(false);
    for key in body["survey"].as_object().unwrap().keys() {
        let column = format!("survey_{key}");
        assert!(
            COLUMNS.iter().any(|(n, _, _)| *n == column),
            "no column {column}"
        );
    }
}

on_both_databases!(export_has_the_dictionary_columns_and_reproduces_the_site);

/// Clip quizzes: familiarity, plays, facets and the exclusion column in the export, and the
/// stats of every board half and subset (human rows and familiarity rows) equal to the site's
/// with a participant left out for failing the headphone check.
async fn clip_exports_reproduce_familiarity_rows_and_honour_exclusions(db: Db) {
    use crate::clips::{answer, app_with_clips, checked_start_body, preface, tools};
    if !tools() {
        return;
    }
    let (app, _media) = app_with_clips(db).await;
    let from = now_ms();
    let people = [
        (
            (6, 6),
            [
                "familiar",
                "unseen",
                "familiar",
                "seen_not_familiar",
                "unseen",
            ],
            0,
        ),
        (
            (6, 5),
            [
                "unseen",
                "unseen",
                "familiar",
                "familiar",
                "seen_not_familiar",
            ],
            1,
        ),
        (
            (6, 6),
            [
                "seen_not_familiar",
                "familiar",
                "unseen",
                "unseen",
                "familiar",
            ],
            2,
        ),
        (
            (6, 2),
            ["familiar", "familiar", "familiar", "unseen", "unseen"],
            0,
        ),
    ];
    for (n, (check, familiarity, shift)) in people.into_iter().enumerate() {
        let (status, s) = app
            .post(
                "/api/quizzes/av-clips/sessions",
                checked_start_body(&app, "av-clips", "chinese", check.1).await,
            )
            .await;
        assert_eq!(status, StatusCode::CREATED, "{s}");
        let id = s["session_id"].as_str().unwrap();
        for (k, item) in s["items"].as_array().unwrap().iter().enumerate() {
            let item_id = item["item_id"].as_str().unwrap();
            let (status, _) = preface(&app, id, item_id, familiarity[k % 5]).await;
            assert_eq!(status, StatusCode::CREATED);
            let (status, body) =
                answer(&app, id, item_id, (k + shift) % 3, &format!("c{n}k{k}")).await;
            assert!(status.is_success(), "{body}");
        }
    }
    admin_post(
        &app,
        "/api/admin/tasks/av-clips/board",
        json!({"exclude_failed_checks": true, "private_revealed": true}),
    )
    .await;
    let jsonl = export_text(&app, "av-clips", "jsonl").await;
    let lines: Vec<Value> = jsonl
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert!(!lines.is_empty());
    for l in &lines {
        assert!(l["familiarity"].is_string(), "{l}");
        assert_eq!(l["plays"], 2);
        assert_eq!(l["task_kind"], "clip_mcq");
        assert!(l["facets"]["sound_type"].is_string(), "{l}");
        assert!(l["subsets"].as_array().unwrap().contains(&json!("full")));
        let failed = l["headphone_correct"] == 2;
        assert_eq!(l["excluded"], i64::from(failed), "{l}");
        if failed {
            assert_eq!(l["exclusion_reason"], "failed_headphone_check");
            assert_eq!(l["exclusion_detail"], "failed the headphone check");
        } else {
            assert!(l["exclusion_reason"].is_null());
        }
    }
    let csv = export_text(&app, "av-clips", "csv").await;
    assert_readable_csv(&csv, &lines, from, now_ms());
    let facets = COLUMNS.iter().position(|(n, _, _)| *n == "facets").unwrap();
    for row in csv_cells(&csv) {
        let keys: Vec<&str> = row[facets]
            .split("; ")
            .map(|p| p.split_once('=').unwrap().0)
            .collect();
        assert_eq!(
            keys,
            ["language", "question_type", "sound_type", "text_cheat"]
        );
    }
    let report = stats_from_export(&csv, OPTIONS).unwrap();
    assert_eq!(report, stats_from_export(&jsonl, OPTIONS).unwrap());
    assert_eq!(
        report.quiz.completed_participants, 3,
        "the failed check is left out"
    );
    assert_eq!(
        report
            .boards
            .iter()
            .map(|b| (b.split.as_str(), b.subset.as_str()))
            .collect::<Vec<_>>(),
        [
            ("public", "full"),
            ("public", "main"),
            ("private", "full"),
            ("private", "main")
        ]
    );
    assert_same_as_site(&app, "av-clips", &report).await;
    // Familiarity rows were compared on every board (the site always shows all three).
    assert!(report.boards.iter().all(|b| b.familiarity.len() == 3));
}

on_both_databases!(clip_exports_reproduce_familiarity_rows_and_honour_exclusions);
