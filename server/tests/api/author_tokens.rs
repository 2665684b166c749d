//! New author tokens cannot be had by choosing one's own address (`client_ip_header` counts
//! only the proxy's entry), are capped per wider network, and the site-wide cap cannot lock
//! out an invited author or one with an accepted upload.

use crate::helpers::{detail, test_settings, Db, TestApp};
use crate::on_both_databases;
use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::{Request, StatusCode};
use http_body_util::BodyExt;
use memeboard_server::config::Settings;
use serde_json::{json, Value};
use std::net::SocketAddr;
use tower::ServiceExt;

const ADMIN: &str = "admin-secret-for-token-tests";

async fn app_with(db: Db, change: impl FnOnce(&mut Settings)) -> TestApp {
    let (mut settings, dir) = test_settings(db, true).await;
    settings.admin.token = ADMIN.into();
    settings.rate_limits.author_creations_per_minute = 0;
    change(&mut settings);
    TestApp::with_settings(settings, dir).await
}

/// `POST /api/authors` from TCP peer `peer`, with extra `headers` (repeated names allowed).
async fn create(
    app: &TestApp,
    name: &str,
    peer: &str,
    headers: &[(&str, &str)],
) -> (StatusCode, Value) {
    let mut req = Request::post("/api/authors").header("content-type", "application/json");
    for (k, v) in headers {
        req = req.header(*k, *v);
    }
    let mut req = req
        .body(Body::from(json!({"name": name}).to_string()))
        .unwrap();
    req.extensions_mut()
        .insert(ConnectInfo(peer.parse::<SocketAddr>().unwrap()));
    let response = app.app.router().oneshot(req).await.unwrap();
    let status = response.status();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    (
        status,
        serde_json::from_slice(&bytes).unwrap_or(Value::Null),
    )
}

async fn client_cannot_choose_its_address_behind_a_proxy(db: Db) {
    let app = app_with(db, |s| {
        s.leaderboard.client_ip_header = "x-forwarded-for".into();
        s.leaderboard.tokens_per_address_per_day = 2;
    })
    .await;
    let proxy = "10.0.0.1:4000";
    // The client forges a first line (or a first entry); the proxy adds its own.
    for n in 0..2 {
        let forged = format!("198.51.100.{n}");
        let (status, body) = create(
            &app,
            &format!("A{n}"),
            proxy,
            &[
                ("x-forwarded-for", &forged),
                ("x-forwarded-for", "203.0.113.7"),
            ],
        )
        .await;
        assert_eq!(status, StatusCode::CREATED, "{body}");
    }
    let (status, body) = create(
        &app,
        "A2",
        proxy,
        &[
            ("x-forwarded-for", "198.51.100.9"),
            ("x-forwarded-for", "203.0.113.7"),
        ],
    )
    .await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{body}");
    assert_eq!(body["errors"][0]["code"], "auth.tokens_network");
    let (status, body) = create(
        &app,
        "A3",
        proxy,
        &[("x-forwarded-for", "198.51.100.77, 203.0.113.7")],
    )
    .await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{body}");
    // Another real client behind the same proxy is not affected.
    let (status, body) = create(&app, "B0", proxy, &[("x-forwarded-for", "192.0.2.50")]).await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
}

async fn wider_networks_are_capped_and_the_site_cap_has_a_grace_path(db: Db) {
    let app = app_with(db, |s| {
        s.leaderboard.tokens_per_address_per_day = 3;
        s.leaderboard.tokens_per_network_per_day = 4;
        s.leaderboard.tokens_per_day = 6;
    })
    .await;
    // One /24: four addresses get a token each, the fifth address is refused.
    for n in 1..=4 {
        let (status, body) =
            create(&app, &format!("N{n}"), &format!("203.0.113.{n}:80"), &[]).await;
        assert_eq!(status, StatusCode::CREATED, "{body}");
    }
    let (status, body) = create(&app, "N5", "203.0.113.5:80", &[]).await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{body}");
    assert_eq!(body["errors"][0]["code"], "auth.tokens_wider_network");
    // IPv6: one /48 counts together, across its /64s.
    for n in 1..=2 {
        let peer = format!("[2001:db8:7:{n}::1]:443");
        let (status, body) = create(&app, &format!("V{n}"), &peer, &[]).await;
        assert_eq!(status, StatusCode::CREATED, "{body}");
    }
    // The site's six are used up: a fresh network is refused…
    let (status, body) = create(&app, "Late", "192.0.2.1:80", &[]).await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{body}");
    assert_eq!(body["errors"][0]["code"], "auth.tokens_site");
    assert!(detail(&body).contains("invitation code"), "{body}");

    // …but an owner's invitation still gets one, once.
    let today = memeboard_server::storage::now_ms().div_euclid(86_400_000);
    let code = memeboard_server::leaderboard::invites::mint(ADMIN, today + 3)
        .unwrap()
        .unwrap();
    let bearer = format!("Bearer {code}");
    let (status, body) = create(
        &app,
        "Invited",
        "192.0.2.1:80",
        &[("authorization", &bearer)],
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    let invited_token = body["token"].as_str().unwrap().to_owned();
    let (status, body) = create(&app, "Again", "192.0.2.2:80", &[("authorization", &bearer)]).await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert_eq!(body["errors"][0]["code"], "auth.invite_used");
    let forged = format!(
        "Bearer {}",
        code.replacen(
            &format!("mbi_{}", today + 3),
            &format!("mbi_{}", today + 4),
            1
        )
    );
    let (status, body) = create(
        &app,
        "Forged",
        "192.0.2.3:80",
        &[("authorization", &forged)],
    )
    .await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{body}");
    assert_eq!(body["errors"][0]["code"], "auth.invite_invalid");

    // An author with an accepted upload proves it with its token and gets a new one.
    let (status, body) = create(
        &app,
        "Fresh",
        "192.0.2.4:80",
        &[("authorization", &format!("Bearer {invited_token}"))],
    )
    .await;
    assert_eq!(
        status,
        StatusCode::TOO_MANY_REQUESTS,
        "no upload yet: {body}"
    );
    assert_eq!(body["errors"][0]["code"], "auth.tokens_site");
    upload_one(&app, &invited_token).await;
    let proof = [("authorization", format!("Bearer {invited_token}"))];
    let proof: Vec<(&str, &str)> = proof.iter().map(|(k, v)| (*k, v.as_str())).collect();
    for n in 0..3 {
        let (status, body) = create(
            &app,
            &format!("P{n}"),
            &format!("192.0.2.{}:80", 10 + n),
            &proof,
        )
        .await;
        assert_eq!(status, StatusCode::CREATED, "{body}");
    }
    let (status, body) = create(&app, "P3", "192.0.2.20:80", &proof).await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{body}");
    assert_eq!(body["errors"][0]["code"], "auth.tokens_proven");
    // An unknown token is no proof.
    let (status, _) = create(
        &app,
        "X",
        "192.0.2.30:80",
        &[("authorization", "Bearer mb_nope")],
    )
    .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
}

/// One accepted upload to the demo MCQ task (every item answered with option 1).
async fn upload_one(app: &TestApp, token: &str) {
    let body: String = app
        .storage()
        .task_items("demo-mcq")
        .await
        .unwrap()
        .into_iter()
        .map(|r| format!("{{\"item_id\":\"{}\",\"answer\":1}}\n", r.id))
        .collect();
    let req = Request::post("/api/tasks/demo-mcq/submissions?model=grace-test")
        .header("authorization", format!("Bearer {token}"))
        .body(Body::from(body))
        .unwrap();
    let response = app.app.router().oneshot(req).await.unwrap();
    let status = response.status();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    assert_eq!(
        status,
        StatusCode::CREATED,
        "{}",
        String::from_utf8_lossy(&bytes)
    );
}

on_both_databases!(
    client_cannot_choose_its_address_behind_a_proxy,
    wider_networks_are_capped_and_the_site_cap_has_a_grace_path,
);
