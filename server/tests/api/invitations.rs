//! Before and after a study is made: the preview says what a request would draw and expose
//! and stores nothing; reissuing an invitation gives the owner a new secret and links (shown
//! once), the old links stop admitting raters (the quiz page says so before consent), the new
//! ones admit them, and a study open to anyone has no invitation to reissue.

use crate::helpers::{detail, start_body, Db};
use crate::on_both_databases;
use crate::studies::{as_admin, cmpm_request, comic_outputs, study_app};
use axum::http::{Method, StatusCode};
use serde_json::json;

async fn a_lost_invitation_is_reissued_and_the_old_links_stop_working(db: Db) {
    let app = study_app(db).await;
    let subs = comic_outputs(&app).await;
    let path = "/api/owner/tasks/demo-panel-explain/studies";
    let mut request = cmpm_request("invited", false, &subs);
    request["invitation_only"] = json!(true);
    let (status, created) = as_admin(&app, Method::POST, path, Some(request)).await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    let old = created["invite"].as_str().unwrap().to_owned();
    let task = created["tasks"][0]["slug"].as_str().unwrap().to_owned();
    let start = |secret: &str| {
        let mut body = start_body(false);
        body["invite"] = json!(secret);
        body
    };

    // Only the owner may reissue.
    let reissue = "/api/owner/studies/invited/invitation";
    let (status, _) = app.post(reissue, json!({})).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    let (status, fresh) = as_admin(&app, Method::POST, reissue, None).await;
    assert_eq!(status, StatusCode::OK, "{fresh}");
    let new = fresh["invite"].as_str().unwrap().to_owned();
    assert_ne!(new, old);
    let links = fresh["links"].as_array().unwrap();
    assert_eq!(links.len(), created["tasks"].as_array().unwrap().len());
    assert!(links.iter().all(|l| l["link"]
        .as_str()
        .unwrap()
        .ends_with(&format!("?invite={new}"))));
    assert!(links[0]["prolific_link"]
        .as_str()
        .unwrap()
        .contains("PROLIFIC_PID={{%PROLIFIC_PID%}}"));

    // The quiz page says so before consent: without the secret, or with the old one.
    for invite in ["", "&invite=", &format!("&invite={old}")] {
        let (status, body) = app
            .get(&format!("/api/quizzes/{task}?admission{invite}"))
            .await;
        assert_eq!(status, StatusCode::FORBIDDEN, "{invite}: {body}");
        assert_eq!(body["errors"][0]["code"], "judging.invite_required");
    }
    let (status, body) = app
        .get(&format!("/api/quizzes/{task}?admission&invite={new}"))
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");

    // The old secret no longer admits a rater; the new one does.
    let sessions = format!("/api/quizzes/{task}/sessions");
    let (status, _) = app.post(&sessions, start(&old)).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (status, body) = app.post(&sessions, start(&new)).await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    // The study page never shows the secret; the action log records the reissue.
    let (_, page) = as_admin(&app, Method::GET, "/api/owner/studies/invited", None).await;
    assert!(!page.to_string().contains(&new));
    let (_, console) = as_admin(
        &app,
        Method::GET,
        "/api/owner/tasks/demo-panel-explain/console",
        None,
    )
    .await;
    assert!(console["actions"]
        .as_array()
        .unwrap()
        .iter()
        .any(|a| a["action"] == "reissue_invitation" && !a.to_string().contains(&new)));

    // A study open to anyone has no invitation to reissue.
    let (status, open) = as_admin(
        &app,
        Method::POST,
        path,
        Some(cmpm_request("open", false, &subs)),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{open}");
    let (status, body) = as_admin(
        &app,
        Method::POST,
        "/api/owner/studies/open/invitation",
        None,
    )
    .await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert_eq!(
        detail(&body),
        "study `open` is open to anyone with its link: it has no invitation to reissue"
    );
}

async fn a_preview_counts_what_each_split_offers_and_stores_nothing(db: Db) {
    let app = study_app(db).await;
    let subs = comic_outputs(&app).await;
    let preview = "/api/owner/tasks/demo-panel-explain/studies/preview";
    let request = cmpm_request("preview", true, &subs);
    let (status, _) = app.post(preview, request.clone()).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    let (status, body) = as_admin(&app, Method::POST, preview, Some(request.clone())).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    // The same numbers as the study the request then makes (same seed).
    let (status, created) = as_admin(
        &app,
        Method::POST,
        "/api/owner/tasks/demo-panel-explain/studies",
        Some(request),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    assert_eq!(body["source_items"], created["source_items"]);
    assert_eq!(body["planted_groups"], created["planted_groups"]);
    assert_eq!(body["rating_batches"], created["tasks"][0]["batches"]);
    assert_eq!(body["submissions"], created["submissions"]);
    // Per category: what dev and test offer, and what was drawn (two per category, from dev).
    let categories = body["categories"].as_array().unwrap();
    assert!(!categories.is_empty());
    for c in categories {
        let (dev, drawn) = (c["dev"].as_u64().unwrap(), c["drawn"].as_u64().unwrap());
        assert_eq!(drawn, dev.min(2), "{c}");
    }
    let drawn: u64 = categories
        .iter()
        .map(|c| c["drawn"].as_u64().unwrap())
        .sum();
    assert_eq!(body["source_items"].as_u64(), Some(drawn));
    // Comics have no reference to show: drawing from dev exposes nothing.
    assert_eq!(body["exposed_test_items"], 0);
    // A preview stores nothing: only the study created above exists.
    let (_, list) = as_admin(
        &app,
        Method::GET,
        "/api/owner/tasks/demo-panel-explain/studies",
        None,
    )
    .await;
    assert_eq!(list, json!(["preview"]));
    // What cannot be planned is said as creating would say it.
    let mut wrong = cmpm_request("x", false, &subs);
    wrong["submissions"] = json!({"pick": "top", "k": 50});
    let (status, body) = as_admin(&app, Method::POST, preview, Some(wrong)).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
}

on_both_databases!(
    a_lost_invitation_is_reissued_and_the_old_links_stop_working,
    a_preview_counts_what_each_split_offers_and_stores_nothing
);
