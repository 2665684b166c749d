//! `memeboard submit`: upload a prediction file to a running server from the command line.
//!
//! The file is the raw request body of `POST {server}/api/tasks/{task}/submissions` and the
//! model's metadata goes in the query, exactly as the submit page does it. The client speaks
//! plain HTTP/1.1 (hyper over a tokio TCP stream): for an `https://` server use `curl` (the
//! submit page shows the command) or reach it through an `http://` proxy or port forward.

use anyhow::{bail, Context};
use http_body_util::{BodyExt, Full};
use hyper::body::Bytes;
use hyper::header::{AUTHORIZATION, CONTENT_TYPE, HOST, USER_AGENT};
use hyper::{Method, Request, StatusCode};
use hyper_util::rt::TokioIo;
use memeboard_core::api::{ApiErrorBody, SubmissionStatus, SubmitPredictionsResponse};
use memeboard_core::leaderboard::CategoryEstimate;
use std::fmt::Write as _;
use std::path::PathBuf;
use std::time::Duration;
use tokio::net::TcpStream;

/// How long to wait for the TCP connection.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(30);
/// How long the whole upload (send, validate, score, answer) may take.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(600);

/// Arguments of `memeboard submit`.
#[derive(Debug, Clone, clap::Args)]
pub struct SubmitArgs {
    /// Base URL of the server (http:// only; for https use curl or a proxy).
    #[arg(long, default_value = "http://127.0.0.1:3000")]
    pub server: String,
    /// Submission token (from the account page or `POST /api/authors`).
    #[arg(long, env = "MEMEBOARD_TOKEN", hide_env_values = true)]
    pub token: String,
    /// Task slug, e.g. `demo-mcq`.
    #[arg(long)]
    pub task: String,
    /// Model name shown on the board.
    #[arg(long)]
    pub model: String,
    /// Organisation (defaults to the token's).
    #[arg(long)]
    pub organisation: Option<String>,
    /// Model size, e.g. `7B`.
    #[arg(long)]
    pub parameters: Option<String>,
    /// Open or closed weights (the server's default is closed).
    #[arg(long, value_parser = ["open", "closed"])]
    pub weights: Option<String>,
    /// Paper or code URL (http/https).
    #[arg(long)]
    pub link: Option<String>,
    /// Free-text description.
    #[arg(long)]
    pub description: Option<String>,
    /// Run conditions, `name=value` pairs separated by commas (e.g. `options=with_meanings`;
    /// `memeboard`'s `GET /api/tasks` lists each task's); a condition not named takes its
    /// default.
    #[arg(long)]
    pub conditions: Option<String>,
    /// The prediction file: JSON Lines, or CSV when it ends in `.csv`.
    pub file: PathBuf,
}

/// What the server answered.
#[derive(Debug, Clone, PartialEq)]
pub enum SubmitOutcome {
    /// 201: stored and scored.
    Accepted(SubmitPredictionsResponse),
    /// Any other status, with every `errors[].detail` line (or the raw body if it had none).
    Rejected {
        /// HTTP status.
        status: u16,
        /// One line per problem, in the server's order.
        details: Vec<String>,
    },
}

impl SubmitOutcome {
    /// Whether the upload was accepted.
    pub fn is_accepted(&self) -> bool {
        matches!(self, Self::Accepted(_))
    }

    /// The report printed by the CLI (to stdout when accepted, stderr when rejected).
    pub fn render(&self) -> String {
        match self {
            Self::Accepted(r) => render_accepted(r),
            Self::Rejected { status, details } => {
                let reason = StatusCode::from_u16(*status)
                    .ok()
                    .and_then(|s| s.canonical_reason())
                    .unwrap_or("error");
                let mut out = format!("upload rejected: HTTP {status} {reason}\n");
                for d in details {
                    let _ = writeln!(out, "  {d}");
                }
                out
            }
        }
    }
}

fn fmt_estimate(e: &CategoryEstimate) -> String {
    match &e.estimate {
        Some(est) => format!(
            "{:.3} (95% CI {:.3}–{:.3}, {} item(s))",
            est.value, est.ci_low, est.ci_high, e.items
        ),
        None if e.suppressed => format!(
            "not shown: too few items on this board half ({} item(s))",
            e.items
        ),
        None => format!("– ({} item(s))", e.items),
    }
}

fn render_accepted(r: &SubmitPredictionsResponse) -> String {
    let status = match r.status {
        SubmissionStatus::Scored => "scored",
        SubmissionStatus::Received => "received",
        SubmissionStatus::Unscored => "stored unscored (judged by people only)",
    };
    let mut out = format!(
        "submission {} accepted for `{}`: {status}, {} line(s) read\n",
        r.submission_id, r.task, r.lines
    );
    if !r.conditions.is_empty() {
        let pairs: Vec<String> = r
            .conditions
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect();
        let _ = writeln!(out, "run conditions: {}", pairs.join(", "));
    }
    for w in &r.warnings {
        let _ = writeln!(out, "warning: {w}");
    }
    match r.public_scores.as_deref() {
        Some(scores) if !scores.is_empty() => {
            out.push_str("public board:\n");
            for s in scores {
                let name = s.category.as_deref().unwrap_or("overall");
                let _ = writeln!(out, "  {name:<24} {}", fmt_estimate(s));
            }
        }
        Some(_) => out.push_str("public board: no scores\n"),
        None => out.push_str(
            "public board: scores are hidden until the organisers reveal this blind board\n",
        ),
    }
    let _ = writeln!(
        out,
        "quota: {} of {} left today (resets at 00:00 UTC)",
        r.quota.remaining, r.quota.daily_limit
    );
    out
}

/// Percent-encodes a query value: everything but RFC 3986 unreserved characters, as UTF-8.
pub fn percent_encode(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for b in value.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~') {
            out.push(char::from(b));
        } else {
            let _ = write!(out, "%{b:02X}");
        }
    }
    out
}

/// Where to connect and what to send as `Host` and the path prefix.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Target {
    host: String,
    port: u16,
    authority: String,
    base_path: String,
}

fn parse_server(server: &str) -> anyhow::Result<Target> {
    let server = server.trim();
    if server.starts_with("https://") {
        bail!(
            "`{server}`: https is not supported by `memeboard submit` (it speaks plain HTTP); \
             upload with curl instead (the submit page shows the command), or reach the server \
             through an http:// proxy or port forward"
        );
    }
    let Some(rest) = server.strip_prefix("http://") else {
        bail!(
            "`{server}`: expected a server URL starting with http://, e.g. http://127.0.0.1:3000"
        );
    };
    let (authority, path) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
    if authority.is_empty() || authority.contains('@') {
        bail!("`{server}`: expected http://HOST[:PORT][/PATH]");
    }
    let (host, port) = if let Some(v6) = authority.strip_prefix('[') {
        let (h, after) = v6
            .split_once(']')
            .with_context(|| format!("`{server}`: unclosed `[` in the host"))?;
        (h, after.strip_prefix(':'))
    } else {
        match authority.rsplit_once(':') {
            Some((h, p)) => (h, Some(p)),
            None => (authority, None),
        }
    };
    let port = match port {
        Some(p) => p
            .parse::<u16>()
            .with_context(|| format!("`{server}`: invalid port `{p}`"))?,
        None => 80,
    };
    if host.is_empty() {
        bail!("`{server}`: no host name");
    }
    Ok(Target {
        host: host.to_owned(),
        port,
        authority: authority.to_owned(),
        base_path: path.trim_end_matches('/').to_owned(),
    })
}

/// The upload's path and query (`/api/tasks/{task}/submissions?model=…`).
fn upload_path(base_path: &str, args: &SubmitArgs, filename: &str) -> String {
    let mut query = vec![("model", args.model.as_str())];
    let optional = [
        ("organisation", &args.organisation),
        ("parameters", &args.parameters),
        ("weights", &args.weights),
        ("link", &args.link),
        ("description", &args.description),
        ("conditions", &args.conditions),
    ];
    query.extend(
        optional
            .iter()
            .filter_map(|(k, v)| v.as_deref().map(|v| (*k, v))),
    );
    query.push(("filename", filename));
    let query: Vec<String> = query
        .iter()
        .map(|(k, v)| format!("{k}={}", percent_encode(v)))
        .collect();
    format!(
        "{base_path}/api/tasks/{}/submissions?{}",
        percent_encode(&args.task),
        query.join("&")
    )
}

/// Reads the file, uploads it and returns what the server said. Errors are for problems
/// before an answer arrives (unreadable file, bad URL, no connection).
pub async fn submit(args: &SubmitArgs) -> anyhow::Result<SubmitOutcome> {
    let target = parse_server(&args.server)?;
    let file = tokio::fs::read(&args.file)
        .await
        .with_context(|| format!("reading {}", args.file.display()))?;
    let filename = args
        .file
        .file_name()
        .map(|f| f.to_string_lossy().into_owned())
        .unwrap_or_default();
    let content_type = if filename.to_ascii_lowercase().ends_with(".csv") {
        "text/csv"
    } else {
        "application/x-ndjson"
    };
    let request = Request::builder()
        .method(Method::POST)
        .uri(upload_path(&target.base_path, args, &filename))
        .header(HOST, &target.authority)
        .header(AUTHORIZATION, format!("Bearer {}", args.token.trim()))
        .header(CONTENT_TYPE, content_type)
        .header(
            USER_AGENT,
            concat!("memeboard-cli/", env!("CARGO_PKG_VERSION")),
        )
        .body(Full::new(Bytes::from(file)))
        .context("building the request (check the token and the arguments)")?;

    let address = format!("{}:{}", target.host, target.port);
    let stream = tokio::time::timeout(
        CONNECT_TIMEOUT,
        TcpStream::connect((target.host.as_str(), target.port)),
    )
    .await
    .with_context(|| format!("connecting to {address}: timed out"))?
    .with_context(|| format!("connecting to {address}"))?;
    let (mut sender, connection) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
        .await
        .with_context(|| format!("HTTP handshake with {address}"))?;
    let driver = tokio::spawn(connection);
    let exchange = async {
        let response = sender.send_request(request).await?;
        let status = response.status();
        let body = response.into_body().collect().await?.to_bytes();
        Ok::<_, hyper::Error>((status, body))
    };
    let result = tokio::time::timeout(REQUEST_TIMEOUT, exchange).await;
    driver.abort();
    let (status, body) = result
        .with_context(|| format!("no answer from {address} within {REQUEST_TIMEOUT:?}"))?
        .with_context(|| format!("uploading to {address}"))?;
    interpret(status, &body)
}

fn interpret(status: StatusCode, body: &[u8]) -> anyhow::Result<SubmitOutcome> {
    if status == StatusCode::CREATED {
        let response: SubmitPredictionsResponse = serde_json::from_slice(body)
            .context("the server accepted the upload but its answer is not understood")?;
        return Ok(SubmitOutcome::Accepted(response));
    }
    let details = match serde_json::from_slice::<ApiErrorBody>(body) {
        Ok(b) if !b.errors.is_empty() => b.errors.into_iter().map(|e| e.detail).collect(),
        _ => {
            let text = String::from_utf8_lossy(body);
            let text: String = text.trim().chars().take(500).collect();
            vec![if text.is_empty() {
                "(no details in the answer)".to_owned()
            } else {
                text
            }]
        }
    };
    Ok(SubmitOutcome::Rejected {
        status: status.as_u16(),
        details,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn query_values_are_percent_encoded() {
        assert_eq!(percent_encode("GPT-4o mini_v1.0~"), "GPT-4o%20mini_v1.0~");
        assert_eq!(percent_encode("a&b=c?d/e+f#"), "a%26b%3Dc%3Fd%2Fe%2Bf%23");
        assert_eq!(percent_encode("躺平"), "%E8%BA%BA%E5%B9%B3");
    }

    #[test]
    fn server_urls_are_parsed() {
        let t = parse_server("http://127.0.0.1:3000/").expect("url");
        assert_eq!((t.host.as_str(), t.port), ("127.0.0.1", 3000));
        assert_eq!(
            (t.authority.as_str(), t.base_path.as_str()),
            ("127.0.0.1:3000", "")
        );
        let t = parse_server("http://example.org/board").expect("url");
        assert_eq!(
            (t.host.as_str(), t.port, t.base_path.as_str()),
            ("example.org", 80, "/board")
        );
        let t = parse_server("http://[::1]:8080").expect("url");
        assert_eq!((t.host.as_str(), t.port), ("::1", 8080));
        let https = parse_server("https://example.org").expect_err("https");
        assert!(https.to_string().contains("curl"), "{https}");
        assert!(parse_server("example.org").is_err());
        assert!(parse_server("http://host:notaport").is_err());
    }

    #[test]
    fn upload_path_carries_every_given_field() {
        let args = SubmitArgs {
            server: "http://x".into(),
            token: "t".into(),
            task: "demo-mcq".into(),
            model: "My model".into(),
            organisation: None,
            parameters: Some("7B".into()),
            weights: Some("open".into()),
            link: None,
            description: Some("a & b".into()),
            conditions: Some("options=with_meanings".into()),
            file: PathBuf::from("preds.jsonl"),
        };
        assert_eq!(
            upload_path("", &args, "preds.jsonl"),
            "/api/tasks/demo-mcq/submissions?model=My%20model&parameters=7B&weights=open&description=a%20%26%20b&conditions=options%3Dwith_meanings&filename=preds.jsonl"
        );
    }

    #[test]
    fn error_bodies_give_every_detail_line() {
        let body = br#"{"errors":[{"detail":"line 1: bad"},{"detail":"line 2: worse"}]}"#;
        let outcome = interpret(StatusCode::UNPROCESSABLE_ENTITY, body).expect("outcome");
        assert_eq!(
            outcome,
            SubmitOutcome::Rejected {
                status: 422,
                details: vec!["line 1: bad".into(), "line 2: worse".into()]
            }
        );
        assert!(outcome.render().contains("HTTP 422 Unprocessable Entity"));
        let outcome = interpret(StatusCode::BAD_GATEWAY, b"proxy down").expect("outcome");
        assert_eq!(
            outcome,
            SubmitOutcome::Rejected {
                status: 502,
                details: vec!["proxy down".into()]
            }
        );
    }
}
