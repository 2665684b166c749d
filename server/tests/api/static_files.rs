//! The built front end is served with the right content types and caching, with the SPA
//! fallback for client-side routes, while unknown API paths stay JSON errors.

use crate::helpers::{test_settings, Db, TestApp};
use axum::body::Body;
use axum::http::{Request, StatusCode};
use tower::ServiceExt;

async fn fetch(app: &TestApp, path: &str) -> (StatusCode, String, String) {
    let reply = app.get_reply(path).await;
    (
        reply.status,
        reply.header("content-type"),
        reply.header("cache-control"),
    )
}

#[tokio::test]
async fn front_end_is_served_with_types_caching_and_spa_fallback() {
    let (mut settings, dir) = test_settings(Db::Sqlite, true).await;
    let dist = dir.path().join("dist");
    std::fs::create_dir_all(&dist).unwrap();
    std::fs::write(
        dist.join("index.html"),
        "<!doctype html><title>memeboard</title>",
    )
    .unwrap();
    std::fs::write(
        dist.join("memeboard-app-0123456789abcdef_bg.wasm"),
        b"\0asm\x01\0\0\0",
    )
    .unwrap();
    std::fs::write(dist.join("favicon.svg"), "<svg/>").unwrap();
    settings.server.static_dir = dist;
    let app = TestApp::with_settings(settings, dir).await;

    let (status, ct, cache) = fetch(&app, "/").await;
    assert_eq!(
        (status, ct.as_str(), cache.as_str()),
        (StatusCode::OK, "text/html; charset=utf-8", "no-cache")
    );

    let (status, ct, cache) = fetch(&app, "/memeboard-app-0123456789abcdef_bg.wasm").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(ct, "application/wasm");
    assert_eq!(cache, "public, max-age=31536000, immutable");

    let (_, ct, cache) = fetch(&app, "/favicon.svg").await;
    assert_eq!(
        (ct.as_str(), cache.as_str()),
        ("image/svg+xml", "public, max-age=3600")
    );

    // A client-side route falls back to the app shell.
    let (status, ct, cache) = fetch(&app, "/no-such-page/abc").await;
    assert_eq!(
        (status, ct.as_str(), cache.as_str()),
        (StatusCode::OK, "text/html", "no-cache")
    );

    // …but an unknown API path is a JSON 404, never the HTML shell.
    let (status, ct, _) = fetch(&app, "/api/session/abc").await;
    assert_eq!(
        (status, ct.as_str()),
        (StatusCode::NOT_FOUND, "application/json")
    );
}

#[tokio::test]
async fn only_the_browser_copy_of_the_model_is_downloadable() {
    let (mut settings, dir) = test_settings(Db::Sqlite, false).await;
    let model = dir.path().join("models/m");
    std::fs::create_dir_all(&model).unwrap();
    std::fs::write(
        model.join("browser.json"),
        r#"{"weights":"model.f16.safetensors"}"#,
    )
    .unwrap();
    std::fs::write(model.join("model.onnx"), b"secret-ish").unwrap();
    settings.model.dir = "models/m".into();
    settings.model.name = "m".into();
    let app = TestApp::with_settings(settings, dir).await;
    let (status, info) = app.get("/api/embedding-model").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(info["name"], "m");
    assert_eq!(
        info["server_available"], false,
        "no model.onnx runtime here"
    );
    assert_eq!(info["browser_manifest"], "/model-files/browser.json");
    let (status, ct, cache) = fetch(&app, "/model-files/browser.json").await;
    assert_eq!(
        (status, ct.as_str(), cache.as_str()),
        (StatusCode::OK, "application/json", "public, max-age=3600")
    );
    let (status, _, _) = fetch(&app, "/model-files/model.onnx").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (status, _, _) = fetch(&app, "/model-files/..%2Fmodel.onnx").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

/// Precompressed copies (`scripts/compress-dist.sh`) go to browsers that accept them, with
/// the original content type; others get the file itself.
#[tokio::test]
async fn precompressed_assets_are_sent_to_browsers_that_accept_them() {
    let (mut settings, dir) = test_settings(Db::Sqlite, false).await;
    let dist = dir.path().join("dist");
    std::fs::create_dir_all(&dist).unwrap();
    std::fs::write(dist.join("index.html"), "<!doctype html>").unwrap();
    std::fs::write(dist.join("index.html.br"), "brotli index").unwrap();
    let wasm = "memeboard-app-0123456789abcdef_bg.wasm";
    std::fs::write(dist.join(wasm), b"\0asm\x01\0\0\0").unwrap();
    std::fs::write(dist.join(format!("{wasm}.br")), b"brotli bytes").unwrap();
    std::fs::write(dist.join(format!("{wasm}.gz")), b"gzip bytes").unwrap();
    settings.server.static_dir = dist;
    let app = TestApp::with_settings(settings, dir).await;
    let get = |path: String, encoding: Option<&'static str>| {
        let mut request = Request::get(path);
        if let Some(e) = encoding {
            request = request.header("accept-encoding", e);
        }
        app.app
            .router()
            .oneshot(request.body(Body::empty()).unwrap())
    };
    use http_body_util::BodyExt;
    for (encoding, expected, body) in [
        (Some("br, gzip"), "br", &b"brotli bytes"[..]),
        (Some("gzip"), "gzip", &b"gzip bytes"[..]),
        (None, "", &b"\0asm\x01\0\0\0"[..]),
    ] {
        let response = get(format!("/{wasm}"), encoding).await.unwrap();
        assert_eq!(response.status(), StatusCode::OK);
        let header = |n: &str| {
            response
                .headers()
                .get(n)
                .and_then(|v| v.to_str().ok())
                .unwrap_or_default()
                .to_owned()
        };
        assert_eq!(header("content-encoding"), expected, "{encoding:?}");
        assert_eq!(header("content-type"), "application/wasm");
        let bytes = response.into_body().collect().await.unwrap().to_bytes();
        assert_eq!(&bytes[..], body);
    }
    // The SPA fallback too (the home, quiz and session pages are written per request:
    // first_paint).
    let response = get("/no-such-page/abc".into(), Some("br")).await.unwrap();
    assert_eq!(response.headers()["content-encoding"], "br");
}

/// The body of `GET path`, as text.
async fn body_of(app: &TestApp, path: &str) -> String {
    app.get_reply(path).await.text()
}

#[tokio::test]
async fn each_page_gets_the_smallest_bundle_that_has_it() {
    let (mut settings, dir) = test_settings(Db::Sqlite, true).await;
    let dist = dir.path().join("dist");
    std::fs::create_dir_all(dist.join("studio")).unwrap();
    std::fs::create_dir_all(dist.join("boards-app")).unwrap();
    std::fs::write(dist.join("index.html"), "quiz").unwrap();
    std::fs::write(dist.join("boards-app/index.html"), "boards").unwrap();
    std::fs::write(dist.join("studio/index.html"), "studio").unwrap();
    std::fs::write(
        dist.join("studio/memeboard-studio-0123456789abcdef_bg.wasm"),
        b"\0asm\x01\0\0\0",
    )
    .unwrap();
    settings.server.static_dir = dist;
    let app = TestApp::with_settings(settings, dir).await;

    let expected = [
        ("/", "quiz"),
        ("/quiz/demo-mcq", "quiz"),
        ("/session/abc", "quiz"),
        ("/session/abc/results", "quiz"),
        ("/accounts", "quiz"),
        ("/submitted", "quiz"),
        ("/boards", "boards"),
        ("/boards/demo-mcq", "boards"),
        ("/boards/demo-mcq?split=private", "boards"),
        ("/models/S-1", "boards"),
        ("/console", "studio"),
        ("/console/demo-mcq", "studio"),
        ("/console/studies/s1", "studio"),
        ("/submit", "studio"),
        ("/submit?task=demo-mcq", "studio"),
        ("/account", "studio"),
    ];
    for (path, bundle) in expected {
        assert_eq!(body_of(&app, path).await, bundle, "{path}");
        let (status, ct, cache) = fetch(&app, path).await;
        // The home and quiz pages are written per request (first_paint), with a charset.
        assert_eq!(
            (status, ct.split(';').next(), cache.as_str()),
            (StatusCode::OK, Some("text/html"), "no-cache"),
            "{path}"
        );
    }
    let (status, ct, cache) =
        fetch(&app, "/studio/memeboard-studio-0123456789abcdef_bg.wasm").await;
    assert_eq!(
        (status, ct.as_str(), cache.as_str()),
        (
            StatusCode::OK,
            "application/wasm",
            "public, max-age=31536000, immutable"
        )
    );
}

#[tokio::test]
async fn without_the_bigger_bundles_every_page_gets_the_quiz_bundle() {
    let (mut settings, dir) = test_settings(Db::Sqlite, true).await;
    let dist = dir.path().join("dist");
    std::fs::create_dir_all(&dist).unwrap();
    std::fs::write(dist.join("index.html"), "quiz").unwrap();
    settings.server.static_dir = dist;
    let app = TestApp::with_settings(settings, dir).await;
    for path in [
        "/console/studies/s1",
        "/submit",
        "/boards/demo-mcq",
        "/models/S-1",
    ] {
        assert_eq!(body_of(&app, path).await, "quiz", "{path}");
    }
}
