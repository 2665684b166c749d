//! Security headers on pages and API responses, and one JSON error envelope for every refusal
//! under `/api` (405, 414, query, path and body rejections, unknown endpoints).

use crate::helpers::{test_settings, Db, TestApp};
use axum::body::Body;
use axum::http::{HeaderMap, Request, StatusCode};
use serde_json::Value;
use sha2::{Digest, Sha256};

async fn send(app: &TestApp, request: Request<Body>) -> (StatusCode, HeaderMap, Value) {
    let reply = app.send(request).await;
    let body = reply.json();
    (reply.status, reply.headers, body)
}

fn get(path: &str) -> Request<Body> {
    Request::get(path).body(Body::empty()).unwrap()
}

fn header<'a>(headers: &'a HeaderMap, name: &str) -> &'a str {
    headers
        .get(name)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
}

/// Trunk's loader as it writes it into each shell (an inline module script).
fn shell(bundle: &str) -> String {
    format!(
        "<!DOCTYPE html><html><head><link rel=\"modulepreload\" href=\"/{bundle}-0123456789abcdef.js\">\
         <script type=\"module\">\nimport init, * as bindings from '/{bundle}-0123456789abcdef.js';\n\
         const wasm = await init({{ module_or_path: '/{bundle}-0123456789abcdef_bg.wasm' }});\n\
         </script></head><body></body></html>"
    )
}

fn loader_hash(bundle: &str) -> String {
    let html = shell(bundle);
    let start = html.find("<script type=\"module\">").unwrap() + "<script type=\"module\">".len();
    let end = html.find("</script>").unwrap();
    let digest = Sha256::digest(&html.as_bytes()[start..end]);
    // Standard base64 (the CSP form), written out here independently of the server's.
    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let bits: String = digest.iter().map(|b| format!("{b:08b}")).collect();
    let mut out: String = bits
        .as_bytes()
        .chunks(6)
        .map(|c| {
            let s = format!("{:0<6}", std::str::from_utf8(c).unwrap());
            ALPHABET[usize::from_str_radix(&s, 2).unwrap()] as char
        })
        .collect();
    while !out.len().is_multiple_of(4) {
        out.push('=');
    }
    format!("'sha256-{out}'")
}

/// A CI check that would break with this policy is the e2e suite (tests/e2e): every page there
/// loads its wasm under it.
#[tokio::test]
async fn pages_and_api_responses_carry_security_headers() {
    let (mut settings, dir) = test_settings(Db::Sqlite, true).await;
    let dist = dir.path().join("dist");
    for (folder, bundle) in [
        ("", "memeboard-app"),
        ("boards-app", "memeboard-boards"),
        ("studio", "memeboard-studio"),
    ] {
        std::fs::create_dir_all(dist.join(folder)).unwrap();
        std::fs::write(dist.join(folder).join("index.html"), shell(bundle)).unwrap();
    }
    settings.server.static_dir = dist;
    let app = TestApp::with_settings(settings, dir).await;

    for (path, bundle) in [
        ("/", "memeboard-app"),
        ("/boards/demo-mcq", "memeboard-boards"),
        ("/console", "memeboard-studio"),
    ] {
        let (status, headers, _) = send(&app, get(path)).await;
        assert_eq!(status, StatusCode::OK, "{path}");
        let csp = header(&headers, "content-security-policy");
        for part in [
            "default-src 'self'",
            "'wasm-unsafe-eval'",
            "frame-ancestors 'none'",
            "object-src 'none'",
            "base-uri 'none'",
            "media-src 'self' blob:",
        ] {
            assert!(csp.contains(part), "{path}: {part} missing from {csp}");
        }
        let script_src = csp
            .split(';')
            .find(|d| d.trim().starts_with("script-src"))
            .unwrap();
        assert!(
            script_src.contains(&loader_hash(bundle)),
            "{path}: its loader's hash missing from {script_src}"
        );
        assert!(!script_src.contains("'unsafe-inline'"), "{script_src}");
        assert!(!script_src.contains(" 'unsafe-eval'"), "{script_src}");
        assert_eq!(header(&headers, "x-content-type-options"), "nosniff");
        assert_eq!(header(&headers, "referrer-policy"), "no-referrer");
        assert_eq!(header(&headers, "x-frame-options"), "DENY");
    }

    let (status, headers, _) = send(&app, get("/api/quizzes")).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(header(&headers, "x-content-type-options"), "nosniff");
    assert_eq!(header(&headers, "referrer-policy"), "no-referrer");
    assert_eq!(
        header(&headers, "content-security-policy"),
        "default-src 'none'; frame-ancestors 'none'"
    );
    let (_, headers, _) = send(&app, get("/healthz")).await;
    assert_eq!(header(&headers, "x-content-type-options"), "nosniff");
}

/// Each hostile request is refused with the JSON envelope and its own code.
async fn every_refusal_has_the_json_envelope(db: Db) {
    let app = TestApp::spawn(db).await;
    let long = format!("/api/quizzes?pad={}", "a".repeat(9_000));
    let json_post = |path: &str, content_type: &str, body: &str| {
        Request::post(path)
            .header("content-type", content_type)
            .body(Body::from(body.to_owned()))
            .unwrap()
    };
    let cases: Vec<(&str, Request<Body>, StatusCode, &str)> = vec![
        (
            "DELETE on a GET route",
            Request::delete("/api/quizzes").body(Body::empty()).unwrap(),
            StatusCode::METHOD_NOT_ALLOWED,
            "request.method_not_allowed",
        ),
        (
            "PUT on a POST route",
            Request::put("/api/authors").body(Body::empty()).unwrap(),
            StatusCode::METHOD_NOT_ALLOWED,
            "request.method_not_allowed",
        ),
        (
            "a 9 KB URI",
            get(&long),
            StatusCode::URI_TOO_LONG,
            "request.uri_too_long",
        ),
        (
            "a duplicated query parameter",
            json_post(
                "/api/quizzes/demo-mcq/sessions?invite=a&invite=b",
                "application/json",
                "{}",
            ),
            StatusCode::BAD_REQUEST,
            "request.invalid_query",
        ),
        (
            "a path that is not UTF-8",
            get("/api/sessions/%FF%FE"),
            StatusCode::BAD_REQUEST,
            "request.invalid_path",
        ),
        (
            "an unknown endpoint",
            get("/api/no/such/thing"),
            StatusCode::NOT_FOUND,
            "request.no_endpoint",
        ),
        (
            "a body that is not JSON",
            json_post("/api/authors", "application/json", "{not json"),
            StatusCode::BAD_REQUEST,
            "request.invalid_body",
        ),
        (
            "a body over the limit",
            json_post(
                "/api/authors",
                "application/json",
                &format!("{{\"name\":\"{}\"}}", "x".repeat(1_100_000)),
            ),
            StatusCode::PAYLOAD_TOO_LARGE,
            "request.body_too_large",
        ),
    ];
    for (what, request, status, code) in cases {
        let (got, headers, body) = send(&app, request).await;
        assert_eq!(got, status, "{what}: {body}");
        assert!(
            header(&headers, "content-type").starts_with("application/json"),
            "{what}: not JSON"
        );
        let errors = body["errors"]
            .as_array()
            .unwrap_or_else(|| panic!("{what}: {body}"));
        assert_eq!(errors.len(), 1, "{what}: {body}");
        assert_eq!(errors[0]["code"], code, "{what}: {body}");
        assert!(
            !errors[0]["detail"].as_str().unwrap_or_default().is_empty(),
            "{what}: no detail"
        );
        if status == StatusCode::METHOD_NOT_ALLOWED {
            assert!(!header(&headers, "allow").is_empty(), "{what}: no Allow");
        }
    }
}

crate::on_both_databases!(every_refusal_has_the_json_envelope);
