//! `memeboard submit` against a real server on a real socket: the upload lands on the board,
//! and a rejected file comes back as the server's error lines.

use crate::helpers::{test_settings, Db};
use axum::body::Body;
use axum::http::{Method, Request, StatusCode};
use axum::Router;
use http_body_util::BodyExt;
use memeboard_server::startup::Application;
use memeboard_server::submit_cli::{submit, SubmitArgs, SubmitOutcome};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use tower::ServiceExt;

const TASK: &str = "demo-mcq";

/// A server listening on a free port, plus its router for set-up requests.
struct Running {
    server: String,
    router: Router,
    dir: tempfile::TempDir,
}

async fn start() -> Running {
    let (settings, dir) = test_settings(Db::Sqlite, true).await;
    memeboard_server::telemetry::init();
    let app = Application::build(settings).await.unwrap();
    let server = format!("http://127.0.0.1:{}", app.port());
    let router = app.router();
    tokio::spawn(app.run_until(std::future::pending()));
    Running {
        server,
        router,
        dir,
    }
}

impl Running {
    async fn call(&self, method: Method, path: &str, body: Option<Value>) -> (StatusCode, Value) {
        let request = Request::builder()
            .method(method)
            .uri(path)
            .header("content-type", "application/json")
            .body(body.map_or_else(Body::empty, |b| Body::from(b.to_string())))
            .unwrap();
        let response = self.router.clone().oneshot(request).await.unwrap();
        let status = response.status();
        let bytes = response.into_body().collect().await.unwrap().to_bytes();
        (
            status,
            serde_json::from_slice(&bytes).unwrap_or(Value::Null),
        )
    }

    async fn token(&self) -> String {
        let (status, body) = self
            .call(
                Method::POST,
                "/api/authors",
                Some(json!({"name": "CLI tester", "organisation": "Lab"})),
            )
            .await;
        assert_eq!(status, StatusCode::CREATED, "{body}");
        body["token"].as_str().unwrap().to_owned()
    }

    async fn item_ids(&self) -> Vec<String> {
        let (status, body) = self
            .call(Method::GET, &format!("/api/tasks/{TASK}/manifest"), None)
            .await;
        assert_eq!(status, StatusCode::OK, "{body}");
        body["items"]
            .as_array()
            .unwrap()
            .iter()
            .map(|i| i["id"].as_str().unwrap().to_owned())
            .collect()
    }

    fn write(&self, name: &str, text: &str) -> PathBuf {
        let path = self.dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        path
    }

    fn args(&self, token: &str, model: &str, file: &Path) -> SubmitArgs {
        SubmitArgs {
            server: self.server.clone(),
            token: token.to_owned(),
            task: TASK.into(),
            model: model.into(),
            organisation: None,
            parameters: None,
            weights: None,
            link: None,
            description: None,
            conditions: None,
            file: file.to_owned(),
        }
    }
}

#[tokio::test]
async fn submit_uploads_over_a_socket_and_the_model_appears_on_the_board() {
    let running = start().await;
    let token = running.token().await;
    let ids = running.item_ids().await;
    let jsonl = format!(
        "{}\n{}\n",
        json!({"item_id": ids[0], "answer": 1}),
        json!({"item_id": ids[1], "answer": 2})
    );
    let file = running.write("preds.jsonl", &jsonl);
    let model = "CLI model ü & co/7B?";
    let args = SubmitArgs {
        organisation: Some("Org with spaces".into()),
        parameters: Some("7B".into()),
        weights: Some("open".into()),
        link: Some("https://example.org/paper?x=1&y=2".into()),
        description: Some("uploaded by `memeboard submit`: 100% CLI".into()),
        conditions: Some("options=with_meanings".into()),
        ..running.args(&token, model, &file)
    };
    let outcome = submit(&args).await.unwrap();
    let SubmitOutcome::Accepted(response) = &outcome else {
        panic!("rejected: {}", outcome.render());
    };
    assert_eq!(response.task, TASK);
    assert_eq!(response.lines, 2);
    assert!(
        response
            .warnings
            .iter()
            .any(|w| w.contains("no prediction")),
        "{:?}",
        response.warnings
    );
    assert_eq!(response.quota.used_today, 1);
    let report = outcome.render();
    assert!(report.contains(&response.submission_id), "{report}");
    assert!(report.contains("overall"), "{report}");
    assert_eq!(response.conditions["options"], "with_meanings");
    assert!(
        report.contains("run conditions: options=with_meanings"),
        "{report}"
    );
    assert!(
        report.contains(&format!(
            "{} of {} left today",
            response.quota.remaining, response.quota.daily_limit
        )),
        "{report}"
    );

    // A CSV file goes up as text/csv.
    let csv = running.write("preds.csv", &format!("item_id,answer\n{},3\n", ids[2]));
    let outcome = submit(&running.args(&token, "CLI csv model", &csv))
        .await
        .unwrap();
    let SubmitOutcome::Accepted(csv_response) = &outcome else {
        panic!("rejected: {}", outcome.render());
    };
    assert_eq!(csv_response.lines, 1);

    let (status, board) = running
        .call(Method::GET, &format!("/api/boards/{TASK}"), None)
        .await;
    assert_eq!(status, StatusCode::OK, "{board}");
    let rows = board["rows"].as_array().unwrap();
    let row = rows
        .iter()
        .find(|r| r["label"] == model)
        .unwrap_or_else(|| panic!("no row for the model: {board}"));
    assert_eq!(row["kind"], "model");
    assert_eq!(row["submission_id"], response.submission_id.as_str());
    assert_eq!(row["model"]["organisation"], "Org with spaces");
    assert_eq!(row["model"]["parameters"], "7B");
    assert_eq!(row["model"]["weights"], "open");
    assert_eq!(row["model"]["link"], "https://example.org/paper?x=1&y=2");
    assert_eq!(
        row["model"]["description"],
        "uploaded by `memeboard submit`: 100% CLI"
    );
    assert!(
        rows.iter().any(|r| r["label"] == "CLI csv model"),
        "{board}"
    );
}

#[tokio::test]
async fn submit_reports_the_servers_error_lines_for_a_bad_file() {
    let running = start().await;
    let token = running.token().await;
    let ids = running.item_ids().await;
    let bad = format!(
        "{}\nnot json\n{}\n",
        json!({"item_id": "no-such-item", "answer": 1}),
        json!({"item_id": ids[0], "answer": 99})
    );
    let file = running.write("bad.jsonl", &bad);
    let outcome = submit(&running.args(&token, "Bad model", &file))
        .await
        .unwrap();
    let SubmitOutcome::Rejected { status, details } = &outcome else {
        panic!("accepted a bad file: {outcome:?}");
    };
    assert_eq!(*status, 422);
    assert!(details.len() >= 3, "{details:?}");
    for line in ["line 1", "line 2", "line 3"] {
        assert!(
            details.iter().any(|d| d.starts_with(line)),
            "{line} missing from {details:?}"
        );
    }
    let report = outcome.render();
    assert!(report.contains("HTTP 422"), "{report}");
    for d in details {
        assert!(report.contains(d.as_str()), "{report}");
    }
    // Nothing was stored: the board has no row for it.
    let (_, board) = running
        .call(Method::GET, &format!("/api/boards/{TASK}"), None)
        .await;
    assert!(!board["rows"]
        .as_array()
        .unwrap()
        .iter()
        .any(|r| r["label"] == "Bad model"));

    // An unknown token is the server's 401 line.
    let good = running.write(
        "good.jsonl",
        &format!("{}\n", json!({"item_id": ids[0], "answer": 1})),
    );
    let outcome = submit(&running.args("mb_not-a-token", "M", &good))
        .await
        .unwrap();
    let SubmitOutcome::Rejected { status, details } = &outcome else {
        panic!("accepted an unknown token: {outcome:?}");
    };
    assert_eq!(*status, 401);
    assert!(details[0].contains("unknown token"), "{details:?}");

    // https is refused before connecting, pointing at curl.
    let https = SubmitArgs {
        server: "https://example.org".into(),
        ..running.args(&token, "M", &good)
    };
    let err = submit(&https).await.unwrap_err().to_string();
    assert!(err.contains("curl"), "{err}");
}
