//! Security headers on every response: `X-Content-Type-Options: nosniff` and a
//! `Referrer-Policy` everywhere, a Content-Security-Policy that the three wasm apps run under
//! on HTML pages, and a deny-all policy on API responses.
//!
//! Trunk writes one inline `<script type="module">` into each HTML shell (it imports the
//! bundle's JS and starts the wasm), whose text names the content-hashed files and so changes
//! with every build. The policy allows exactly those scripts by their SHA-256 hashes, read
//! from the built shells when the router is built; no other inline script runs.
//! `'wasm-unsafe-eval'` lets `WebAssembly.instantiateStreaming` compile the bundles (and the
//! embedder's module under `/embed/`); styles allow `'unsafe-inline'` because the app sets
//! `style` attributes (chart bars, progress).

use axum::extract::Request;
use axum::http::header::{CONTENT_TYPE, REFERRER_POLICY, X_CONTENT_TYPE_OPTIONS, X_FRAME_OPTIONS};
use axum::http::{HeaderName, HeaderValue};
use axum::middleware::Next;
use axum::response::Response;
use sha2::{Digest, Sha256};
use std::path::Path;
use std::sync::Arc;

/// The HTML shells Trunk builds (scripts/build-web.sh), relative to the static folder.
const SHELLS: [&str; 3] = ["index.html", "boards-app/index.html", "studio/index.html"];

/// Policy of non-HTML API responses: nothing may load, nothing may frame them.
pub const API_CSP: &str = "default-src 'none'; frame-ancestors 'none'";

/// The headers added to responses, built once from the static folder.
#[derive(Debug, Clone)]
pub struct SecurityHeaders {
    page_csp: HeaderValue,
}

impl SecurityHeaders {
    /// The page policy for the shells found in `static_dir` (none built: no inline script
    /// is allowed at all).
    pub fn for_static_dir(static_dir: &Path) -> Self {
        let mut hashes: Vec<String> = SHELLS
            .iter()
            .filter_map(|shell| std::fs::read_to_string(static_dir.join(shell)).ok())
            .flat_map(|html| inline_scripts(&html))
            .map(|script| format!("'sha256-{}'", base64(&Sha256::digest(script.as_bytes()))))
            .collect();
        hashes.sort();
        hashes.dedup();
        let policy = page_csp(&hashes);
        Self {
            // Built from ASCII only (base64 and fixed text): always a valid header value.
            page_csp: HeaderValue::from_str(&policy)
                .unwrap_or_else(|_| HeaderValue::from_static("default-src 'self'")),
        }
    }

    /// The page policy, for tests and logs.
    pub fn page_csp(&self) -> &str {
        self.page_csp.to_str().unwrap_or_default()
    }
}

/// The Content-Security-Policy of the HTML pages, allowing the given inline-script hashes.
pub fn page_csp(script_hashes: &[String]) -> String {
    let mut script_src = "'self' 'wasm-unsafe-eval'".to_owned();
    for h in script_hashes {
        script_src.push(' ');
        script_src.push_str(h);
    }
    format!(
        "default-src 'self'; script-src {script_src}; style-src 'self' 'unsafe-inline'; \
         img-src 'self' data: blob:; media-src 'self' blob:; connect-src 'self'; \
         font-src 'self' data:; worker-src 'self' blob:; object-src 'none'; base-uri 'none'; \
         form-action 'self'; frame-ancestors 'none'"
    )
}

/// The text of every `<script>` element without a `src` attribute (Trunk's loader).
fn inline_scripts(html: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = html;
    while let Some(start) = rest.find("<script") {
        let after = &rest[start..];
        let Some(open_end) = after.find('>') else {
            break;
        };
        let tag = &after[..open_end];
        let body_and_rest = &after[open_end + 1..];
        let Some(close) = body_and_rest.find("</script>") else {
            break;
        };
        if !tag.contains(" src=") {
            out.push(body_and_rest[..close].to_owned());
        }
        rest = &body_and_rest[close..];
    }
    out
}

/// Standard base64 with padding (RFC 4648), as CSP hashes are written.
fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            chunk.get(1).copied().unwrap_or(0),
            chunk.get(2).copied().unwrap_or(0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(char::from(ALPHABET[((n >> (18 - 6 * i)) & 63) as usize]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// Middleware: `nosniff` and `Referrer-Policy: no-referrer` on every response; on HTML the
/// page policy and `X-Frame-Options: DENY` (for browsers without `frame-ancestors`); on other
/// `/api/` responses the deny-all policy.
pub async fn add(headers: Arc<SecurityHeaders>, request: Request, next: Next) -> Response {
    let is_api = request.uri().path().starts_with("/api/");
    let mut response = next.run(request).await;
    let is_html = response
        .headers()
        .get(CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|ct| ct.starts_with("text/html"));
    let h = response.headers_mut();
    h.insert(X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    h.insert(REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
    let csp = HeaderName::from_static("content-security-policy");
    if is_html {
        h.insert(csp, headers.page_csp.clone());
        h.insert(X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    } else if is_api {
        h.insert(csp, HeaderValue::from_static(API_CSP));
    }
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_matches_rfc_4648() {
        assert_eq!(base64(b""), "");
        assert_eq!(base64(b"f"), "Zg==");
        assert_eq!(base64(b"fo"), "Zm8=");
        assert_eq!(base64(b"foo"), "Zm9v");
        assert_eq!(base64(b"foobar"), "Zm9vYmFy");
    }

    #[test]
    fn only_inline_scripts_are_hashed() {
        let html = "<head><script src=\"/a.js\"></script><script type=\"module\">\
                    import init from '/app-1.js';\nawait init();</script></head>";
        assert_eq!(
            inline_scripts(html),
            vec!["import init from '/app-1.js';\nawait init();".to_owned()]
        );
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::write(dir.path().join("index.html"), html).expect("write");
        let csp = SecurityHeaders::for_static_dir(dir.path());
        let hash = base64(&Sha256::digest(
            b"import init from '/app-1.js';\nawait init();",
        ));
        assert!(csp.page_csp().contains(&format!("'sha256-{hash}'")));
        assert!(csp.page_csp().contains("'wasm-unsafe-eval'"));
        assert!(!csp.page_csp().contains("'unsafe-eval'"));
    }
}
