//! The first paint (issue 32: real content on screen within 2.5 s on a slow phone): the home
//! and quiz pages come with their content inside the shell's `#boot`, in the reader's language
//! (the app's stored choice, then `Accept-Language`), escaped, and without the consent card
//! for a visitor a start would refuse; anything unknown gets the plain shell. A judging
//! quiz's pages come in the boards bundle's shell.

use crate::helpers::{test_settings, Db, TestApp};
use crate::on_both_databases;
use crate::owners::{set, ADMIN};
use axum::body::Body;
use axum::http::{Request, StatusCode};
use memeboard_core::kinds::{text_mcq::TextMcq, Kind};
use memeboard_core::page_text::board::{BOARD_EN, BOARD_ZH};
use memeboard_core::page_text::{EN, ZH};
use serde_json::json;
use tower::ServiceExt;

/// The shape of the built shell (index.html): a boot `<main>` with a loading note.
const SHELL: &str = "<!DOCTYPE html>\n<html lang=\"zh-CN\">\n<head><title>memeboard</title>\
    </head>\n<body>\n<div id=\"boot\" class=\"boot\"><header class=\"site-header\"></header>\
    <main class=\"wrap\"><p class=\"boot-note\" role=\"status\">Loading… 加载中…</p></main>\
    </div>\n</body>\n</html>\n";

/// The demo app with [`SHELL`] built, and its database URL.
/// The boards bundle's shell, told apart by its title.
const BOARDS_SHELL: &str = "<!DOCTYPE html>\n<html lang=\"zh-CN\">\n<head><title>memeboard</title>\
    <meta name=\"bundle\" content=\"boards\"></head>\n<body>\n<div id=\"boot\"><main \
    class=\"wrap\"><p>Loading…</p></main></div>\n</body>\n</html>\n";

async fn app_with_shell(db: Db) -> (TestApp, String) {
    let (mut settings, dir) = test_settings(db, true).await;
    let url = settings.database_url();
    settings.admin.token = ADMIN.into();
    let dist = dir.path().join("dist");
    std::fs::create_dir_all(&dist).unwrap();
    std::fs::write(dist.join("index.html"), SHELL).unwrap();
    std::fs::create_dir_all(dist.join("boards-app")).unwrap();
    std::fs::write(dist.join("boards-app/index.html"), BOARDS_SHELL).unwrap();
    settings.server.static_dir = dist;
    (TestApp::with_settings(settings, dir).await, url)
}

/// `GET path` with the given headers: status, content type and body.
async fn page(app: &TestApp, path: &str, headers: &[(&str, &str)]) -> (StatusCode, String) {
    let mut request = Request::get(path);
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    let response = app
        .app
        .router()
        .oneshot(request.body(Body::empty()).unwrap())
        .await
        .unwrap();
    let status = response.status();
    let bytes = axum::body::to_bytes(response.into_body(), usize::MAX)
        .await
        .unwrap();
    (status, String::from_utf8(bytes.to_vec()).unwrap())
}

async fn home_and_quiz_pages_come_with_their_content(db: Db) {
    let (app, _) = app_with_shell(db).await;
    // A Chinese reader: the home page's words and every open quiz, in Chinese only.
    let (status, html) = page(&app, "/", &[("accept-language", "zh-CN,zh;q=0.9,en;q=0.8")]).await;
    assert_eq!(status, StatusCode::OK);
    assert!(html.contains("<html lang=\"zh-CN\">"), "{html}");
    assert!(html.contains("data-first-paint"), "{html}");
    assert!(!html.contains("Loading…"), "the note is replaced: {html}");
    assert!(html.contains(ZH.home_title), "{html}");
    assert!(html.contains("href=\"/quiz/demo-mcq\""), "{html}");
    assert!(
        html.contains("中文网络梗（演示）"),
        "the demo title's Chinese part: {html}"
    );
    assert!(
        !html.contains("Chinese text memes"),
        "one language at a time: {html}"
    );
    let (_, quizzes) = app.get("/api/quizzes").await;
    let cards = html.matches("class=\"card quiz-card\"").count();
    assert_eq!(
        cards,
        quizzes.as_array().unwrap().len(),
        "one card per open quiz"
    );

    // The stored choice wins over the browser's languages.
    let (_, html) = page(
        &app,
        "/",
        &[
            ("accept-language", "zh-CN"),
            ("cookie", "x=1; memeboard_lang=en"),
        ],
    )
    .await;
    assert!(
        html.contains("<html lang=\"en\">") && html.contains(EN.home_title),
        "{html}"
    );
    assert!(html.contains("<title>Meme understanding: human baselines · memeboard</title>"));

    // A quiz page: heading, batch note, the kind's instructions and the rules, in English.
    let (status, html) = page(&app, "/quiz/demo-mcq", &[("accept-language", "en-GB")]).await;
    assert_eq!(status, StatusCode::OK);
    assert!(
        html.contains(&(EN.batch_note)(12)) || html.contains("You will answer"),
        "{html}"
    );
    assert!(html.contains(TextMcq::INSTRUCTIONS[0]), "{html}");
    assert!(
        html.contains(EN.rules[0]) && html.contains(EN.consent_label),
        "{html}"
    );

    // Unknown pages get the plain shell, whose app says what is wrong.
    let (status, html) = page(&app, "/quiz/no-such-quiz", &[]).await;
    assert_eq!((status, html.as_str()), (StatusCode::OK, SHELL));
}

async fn values_are_escaped_and_refused_visitors_see_no_consent(db: Db) {
    let (app, url) = app_with_shell(db).await;
    sqlx::any::install_default_drivers();
    let pool = sqlx::AnyPool::connect(&url).await.unwrap();
    sqlx::query(
        "UPDATE tasks SET title = '<script>alert(1)</script> & co' WHERE slug = 'demo-mcq'",
    )
    .execute(&pool)
    .await
    .unwrap();
    let (_, html) = page(&app, "/", &[("accept-language", "en")]).await;
    assert!(!html.contains("<script>alert"), "{html}");
    assert!(
        html.contains("&lt;script&gt;alert(1)&lt;/script&gt; &amp; co"),
        "{html}"
    );

    // An owner who requires a Prolific id: a visitor without one gets the heading, not the
    // consent card (the app then shows the refusal); with one, the consent card.
    let (status, body) = set(&app, ADMIN, |s| {
        s["study"]["handoff"]["require_prolific_id"] = json!(true);
    })
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let (_, html) = page(&app, "/quiz/demo-mcq", &[("accept-language", "en")]).await;
    assert!(html.contains("<h1>&lt;script&gt;"), "{html}");
    assert!(
        !html.contains(EN.consent_label),
        "no consent for a refused visitor: {html}"
    );
    let (_, html) = page(
        &app,
        "/quiz/demo-mcq?PROLIFIC_PID=P1&STUDY_ID=S&SESSION_ID=X",
        &[],
    )
    .await;
    assert!(html.contains(EN.consent_label), "{html}");
}

async fn a_board_comes_with_its_table(db: Db) {
    let (app, _) = app_with_shell(db).await;
    let (_, board) = app.get("/api/boards/demo-mcq").await;
    let (status, html) = page(&app, "/boards/demo-mcq", &[("accept-language", "zh")]).await;
    assert_eq!(status, StatusCode::OK);
    assert!(
        html.contains("name=\"bundle\" content=\"boards\""),
        "the boards shell: {html}"
    );
    assert!(html.contains("<table class=\"board\">"), "{html}");
    assert!(
        html.contains(BOARD_ZH.col_rank) && html.contains(BOARD_ZH.row_chance),
        "{html}"
    );
    let rows = html.matches("<tr class=\"board-row").count();
    assert_eq!(
        rows,
        board["rows"].as_array().unwrap().len(),
        "one row per board row"
    );
    assert!(!html.contains(BOARD_EN.overall), "one language: {html}");

    // The list of boards, an unknown board, an unrevealed private half and the whole split
    // before that reveal: the plain shell.
    for path in [
        "/boards",
        "/boards/no-such-board",
        "/boards/demo-mcq?split=private",
        "/boards/demo-mcq?split=whole",
    ] {
        let (status, html) = page(&app, path, &[]).await;
        assert_eq!(
            (status, html.as_str()),
            (StatusCode::OK, BOARDS_SHELL),
            "{path}"
        );
    }
}

/// Judging quizzes' pages come in the boards bundle's shell (the quiz bundle leaves the
/// judging kinds out): the quiz page and its sessions' pages; every other quiz and session,
/// and a session nobody knows, in the quiz bundle's.
async fn judging_pages_come_in_the_boards_bundle(db: Db) {
    let (app, _) = app_with_shell(db).await;
    let boards = |html: &str| html.contains("<meta name=\"bundle\" content=\"boards\">");
    let bench = crate::judging::benchmark(&app).await;
    let items = (0..2)
        .map(|k| crate::judging::accuracy_item(&format!("fp{k}"), 0, None, false))
        .collect();
    let spec = crate::judging::spec(&bench, "judge-fp", "rating", items);
    memeboard_server::judging::create_judging_task(app.storage(), &spec)
        .await
        .unwrap();
    let (status, html) = page(&app, "/quiz/judge-fp", &[]).await;
    assert_eq!(status, StatusCode::OK);
    assert!(boards(&html), "{html}");
    assert!(html.contains("data-first-paint"), "with its intro: {html}");
    let (status, started) = crate::judging::start(&app, "judge-fp", None).await;
    assert_eq!(status, StatusCode::CREATED, "{started}");
    let id = started["session_id"].as_str().unwrap();
    for path in [format!("/session/{id}"), format!("/session/{id}/results")] {
        let (status, html) = page(&app, &path, &[]).await;
        assert_eq!(status, StatusCode::OK, "{path}");
        assert!(boards(&html), "{path}: {html}");
    }

    let (_, html) = page(&app, "/quiz/demo-mcq", &[]).await;
    assert!(
        !boards(&html) && html.contains("data-first-paint"),
        "{html}"
    );
    let (status, started) = crate::judging::start(&app, "demo-mcq", None).await;
    assert_eq!(status, StatusCode::CREATED, "{started}");
    let id = started["session_id"].as_str().unwrap();
    for path in [
        format!("/session/{id}"),
        format!("/session/{id}/results"),
        "/session/no-such-session".to_owned(),
    ] {
        let (status, html) = page(&app, &path, &[]).await;
        assert_eq!(status, StatusCode::OK, "{path}");
        assert!(
            !boards(&html) && html.contains("Loading…"),
            "{path}: {html}"
        );
    }
}

on_both_databases!(
    judging_pages_come_in_the_boards_bundle,
    a_board_comes_with_its_table,
    home_and_quiz_pages_come_with_their_content,
    values_are_escaped_and_refused_visitors_see_no_consent,
);
