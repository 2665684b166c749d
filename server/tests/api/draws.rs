//! Draws that hide gold are keyed by the installation's secret, tested as an attacker would:
//! recomputing the panel displays and the clip model orders from public data with the seeds
//! of earlier versions recovers no more than chance on benchmarks of 120 items; re-imports
//! keep the draws, and a benchmark key carried to another installation reproduces them; the
//! start-up upgrade re-draws public draws nothing refers to and reports the others; and no
//! public response carries the secret or a benchmark key.

use crate::helpers::{files_reader, start_body, test_settings, Db, TestApp};
use crate::on_both_databases;
use axum::http::StatusCode;
use memeboard_core::kinds::panels::{fixed_display, legacy_display_seed, reorder_shown};
use memeboard_core::kinds::{ItemGold, ItemPrompt};
use memeboard_core::predictions::clips::legacy_model_option_order;
use memeboard_server::demo::raster::svg_to_png;
use memeboard_server::draws::{self, Key};
use memeboard_server::import_clips::{import_clips, ClipsSpec};
use memeboard_server::import_panels::{import_panels, PanelsSpec};
use serde_json::{json, Value};
use std::collections::HashMap;

/// A fixed key for tests that parse without storage.
pub(crate) fn test_key() -> Key {
    Key::from_hex(&"5a".repeat(32)).unwrap()
}

const COMICS: usize = 120;
const PANELS: usize = 5;
const SLUG: &str = "scratch";

fn panels_spec() -> PanelsSpec {
    PanelsSpec {
        slug: SLUG.into(),
        title: "Scratch comics".into(),
        description: "attacker test".into(),
        batch_size: 10,
        dev_percent: 0,
        quiz_open: true,
    }
}

/// 120 comics of five panels in a strict reading order; every panel a distinct small PNG.
fn comics() -> (String, HashMap<String, Vec<u8>>) {
    let mut files = HashMap::new();
    let mut text = String::new();
    for k in 0..COMICS {
        let panels: Vec<String> = (1..=PANELS).map(|p| format!("c{k}-{p}.png")).collect();
        for (p, name) in panels.iter().enumerate() {
            let svg = format!(
                r##"<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"><rect width="4" height="4" fill="#{:02x}{:02x}40"/></svg>"##,
                k,
                p * 40
            );
            files.insert(name.clone(), svg_to_png(svg.as_bytes()).unwrap());
        }
        let groups: Vec<Vec<usize>> = (1..=PANELS).map(|p| vec![p]).collect();
        let line = json!({
            "id": format!("c{k}"), "panels": panels, "type": "narrative",
            "ordering_dependency": "strong", "order_groups": groups,
            "context": {"comments": ["lol"]},
        });
        text.push_str(&format!("{line}\n"));
    }
    (text, files)
}

async fn import_comics(app: &TestApp) {
    let (text, files) = comics();
    let read = files_reader(&files);
    import_panels(app.storage(), &panels_spec(), "m.jsonl", &text, &read)
        .await
        .expect("import");
}

async fn app(db: Db, demo: bool) -> TestApp {
    let (settings, dir) = test_settings(db, demo).await;
    TestApp::with_settings(settings, dir).await
}

/// The order task's items: (id, source id, prompt, gold).
async fn order_items(
    app: &TestApp,
    slug: &str,
) -> Vec<(
    String,
    String,
    memeboard_core::kinds::panel_order::Prompt,
    memeboard_core::kinds::panel_order::Gold,
)> {
    let task = app.storage().find_board_task(slug).await.unwrap().unwrap();
    app.storage()
        .draw_items(&task.task.id)
        .await
        .unwrap()
        .into_iter()
        .map(|r| {
            let (ItemPrompt::PanelOrder(p), ItemGold::PanelOrder(g)) = (
                serde_json::from_str(&r.prompt_json).unwrap(),
                serde_json::from_str(&r.gold_json).unwrap(),
            ) else {
                panic!("panel order item expected")
            };
            (r.id, r.source_id.unwrap(), p, g)
        })
        .collect()
}

/// Items whose reading order the attacker recovers by recomputing the display as earlier
/// versions drew it (42 and a hash of the public source id) and inverting it.
async fn recovered_by_the_public_draw(app: &TestApp, slug: &str) -> usize {
    order_items(app, slug)
        .await
        .iter()
        .filter(|(_, source, _, gold)| {
            let guess = fixed_display(legacy_display_seed(source), &gold.order_groups);
            let reading: Vec<usize> = (1..=PANELS)
                .map(|c| guess.iter().position(|&d| d == c).unwrap() + 1)
                .collect();
            memeboard_core::kinds::panels::reads_in_order(
                &gold.display,
                &gold.order_groups,
                &reading,
            )
        })
        .count()
}

async fn displays(app: &TestApp, slug: &str) -> Vec<Vec<usize>> {
    order_items(app, slug)
        .await
        .into_iter()
        .map(|i| i.3.display)
        .collect()
}

on_both_databases!(
    panel_displays_do_not_follow_public_data_and_survive_reimports,
    public_draws_of_earlier_versions_are_redrawn_or_reported,
    public_responses_never_carry_the_secret,
    clip_model_orders_do_not_follow_public_data,
);

async fn panel_displays_do_not_follow_public_data_and_survive_reimports(db: Db) {
    let app = app(db, false).await;
    import_comics(&app).await;
    let slug = format!("{SLUG}-order");
    // Chance: 1 in 120 per comic (five panels in one order), so about 1 of 120.
    let recovered = recovered_by_the_public_draw(&app, &slug).await;
    assert!(
        recovered <= 6,
        "{recovered} of {COMICS} reading orders recovered from public data"
    );
    let before = displays(&app, &slug).await;
    assert_eq!(before.len(), COMICS);
    // The shuffled variant with context shows the same display.
    assert_eq!(
        displays(&app, &format!("{SLUG}-order-context")).await,
        before
    );

    // A re-import with the same secret keeps every display.
    import_comics(&app).await;
    assert_eq!(displays(&app, &slug).await, before);

    // Another installation draws differently, unless given this benchmark's key.
    let key = draws::export_key(app.storage(), Some(SLUG)).await.unwrap();
    let other = self::app(db, false).await;
    assert_ne!(
        draws::export_key(other.storage(), None).await.unwrap(),
        draws::export_key(app.storage(), None).await.unwrap(),
        "each installation makes its own secret"
    );
    draws::import_key(other.storage(), Some(SLUG), &key)
        .await
        .unwrap();
    import_comics(&other).await;
    assert_eq!(displays(&other, &slug).await, before);
    assert!(draws::import_key(other.storage(), Some(SLUG), "not-a-key")
        .await
        .is_err());
}

async fn public_draws_of_earlier_versions_are_redrawn_or_reported(db: Db) {
    let app = app(db, false).await;
    import_comics(&app).await;
    let (order, context) = (format!("{SLUG}-order"), format!("{SLUG}-order-context"));
    // Put both shuffled tasks back on the public draw, as earlier versions stored them.
    let mut legacy = Vec::new();
    let mut urls_by_panel: HashMap<(String, usize), String> = HashMap::new();
    for slug in [&order, &context] {
        for (id, source, mut p, mut g) in order_items(&app, slug).await {
            let old = fixed_display(legacy_display_seed(&source), &g.order_groups);
            p.panels = reorder_shown(&p.panels, &g.display, &old).unwrap();
            g.display = old;
            for (url, &c) in p.panels.iter().zip(&g.display) {
                urls_by_panel.insert((id.clone(), c), url.url.clone());
            }
            legacy.push((
                id,
                serde_json::to_string(&ItemPrompt::PanelOrder(p)).unwrap(),
                serde_json::to_string(&ItemGold::PanelOrder(g)).unwrap(),
            ));
        }
    }
    app.storage().rewrite_draws(&legacy).await.unwrap();
    assert_eq!(recovered_by_the_public_draw(&app, &context).await, COMICS);
    // Someone takes the order quiz: its displays are now referred to.
    let (status, _) = app
        .post(&format!("/api/quizzes/{order}/sessions"), start_body(false))
        .await;
    assert_eq!(status, StatusCode::CREATED);

    let report = memeboard_server::upgrade::run(app.storage(), 50)
        .await
        .unwrap();
    assert_eq!(report.draws.compromised, vec![order.clone()]);
    assert!(report.draws.redrawn >= COMICS - 6, "{:?}", report.draws);
    assert_eq!(
        recovered_by_the_public_draw(&app, &order).await,
        COMICS,
        "kept as shown"
    );
    let recovered = recovered_by_the_public_draw(&app, &context).await;
    assert!(recovered <= 6, "{recovered} recovered after the re-draw");
    // Each panel keeps its image: the URL shown for canonical panel c is the one it had.
    for (id, _, p, g) in order_items(&app, &context).await {
        for (url, &c) in p.panels.iter().zip(&g.display) {
            assert_eq!(urls_by_panel[&(id.clone(), c)], url.url);
        }
    }
    // Idempotent.
    let again = memeboard_server::upgrade::run(app.storage(), 50)
        .await
        .unwrap();
    assert_eq!(again.draws.redrawn, 0);
    assert_eq!(again.draws.compromised, vec![order]);
}

/// The body of a GET as text.
async fn get_text(app: &TestApp, path: &str) -> (StatusCode, String) {
    let reply = app.get_reply(path).await;
    (reply.status, reply.lossy_text())
}

async fn public_responses_never_carry_the_secret(db: Db) {
    let app = app(db, true).await;
    import_comics(&app).await;
    let storage = app.storage();
    let mut secrets = vec![draws::export_key(storage, None).await.unwrap()];
    let (_, tasks) = app.get("/api/tasks").await;
    let tasks: Vec<String> = tasks
        .as_array()
        .or_else(|| tasks["tasks"].as_array())
        .expect("task list")
        .iter()
        .filter_map(|t| t["slug"].as_str().map(String::from))
        .collect();
    assert!(tasks.len() >= 8, "{tasks:?}");
    let mut paths = vec!["/api/quizzes".to_owned(), "/api/tasks".to_owned()];
    for slug in &tasks {
        let benchmark = storage
            .find_board_task(slug)
            .await
            .unwrap()
            .unwrap()
            .task
            .benchmark_id;
        secrets.push(draws::export_key(storage, Some(&benchmark)).await.unwrap());
        for file in [
            "manifest",
            "inputs.jsonl",
            "dev-gold.jsonl",
            "SHA256SUMS",
            "template.jsonl",
        ] {
            paths.push(format!("/api/tasks/{slug}/{file}"));
        }
        paths.push(format!("/api/boards/{slug}"));
        paths.push(format!("/api/quizzes/{slug}"));
        paths.push(format!("/api/quizzes/{slug}/stats"));
    }
    let (status, session) = app
        .post(
            &format!("/api/quizzes/{SLUG}-order/sessions"),
            start_body(false),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{session}");
    let mut bodies = vec![session.to_string()];
    if let Some(id) = session["session_id"].as_str().or(session["id"].as_str()) {
        paths.push(format!("/api/sessions/{id}"));
    }
    for path in &paths {
        bodies.push(get_text(&app, path).await.1);
    }
    for body in &bodies {
        for secret in &secrets {
            assert!(
                !body.contains(secret.as_str()),
                "a public response carries a key"
            );
        }
    }
    // No route serves a key: an owner route without a token is refused.
    let (status, _) = get_text(&app, &format!("/api/owner/tasks/{SLUG}-order/console")).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
}

fn clip_spec() -> ClipsSpec {
    ClipsSpec {
        slug: "avx".into(),
        task_slug: "avx-clips".into(),
        title: "Scratch clips".into(),
        description: "attacker test".into(),
        batch_size: 10,
        dev_percent: 0,
        // Closed: its inputs are public, as models need them.
        quiz_open: false,
    }
}

/// Items whose answer the attacker finds in public inputs.jsonl: every manifest lists the
/// answer first, and the letter of canonical choice 0 under the legacy public order is taken.
async fn clip_answers_recovered(app: &TestApp) -> usize {
    let (status, inputs) = get_text(app, "/api/tasks/avx-clips/inputs.jsonl").await;
    assert_eq!(status, StatusCode::OK, "{inputs}");
    inputs
        .lines()
        .filter(|l| !l.trim().is_empty())
        .filter(|line| {
            let v: Value = serde_json::from_str(line).unwrap();
            let id = v["item_id"].as_str().unwrap();
            let choices = v["choices"].as_array().unwrap();
            let guess = legacy_model_option_order(id, choices.len())
                .iter()
                .position(|&c| c == 0)
                .unwrap();
            choices[guess]["text"] == "right"
        })
        .count()
}

async fn clip_model_orders_do_not_follow_public_data(db: Db) {
    if !crate::clips::tools() {
        return;
    }
    let media = tempfile::tempdir().unwrap();
    let tone = media.path().join("t.wav");
    let out = std::process::Command::new("ffmpeg")
        .args([
            "-v",
            "error",
            "-y",
            "-f",
            "lavfi",
            "-i",
            "sine=frequency=440:duration=2",
        ])
        .arg(&tone)
        .output()
        .unwrap();
    assert!(out.status.success());
    let n = 120;
    let manifest: String = (0..n)
        .map(|k| {
            json!({
                "id": format!("q{k}"), "file": "t.wav", "question": format!("Which one? ({k})"),
                "choices": ["right", "wrong a", "wrong b", "wrong c"], "answer": "right",
                "sound_type": "sound_effect", "question_type": "audio_analysis",
                "visual_hint": "no_text", "text_cheat": false,
            })
            .to_string()
                + "\n"
        })
        .collect();
    let app = app(db, false).await;
    let stored = import_clips(
        app.storage(),
        &clip_spec(),
        "m.jsonl",
        &manifest,
        media.path(),
    )
    .await
    .expect("import");
    assert_eq!(stored, n);
    // Chance: a quarter, 30 of 120.
    let recovered = clip_answers_recovered(&app).await;
    assert!(
        recovered <= 52,
        "{recovered} of {n} answers recovered from public data"
    );

    // Items stored by earlier versions (no order of their own) use the public order...
    let task = app
        .storage()
        .find_board_task("avx-clips")
        .await
        .unwrap()
        .unwrap();
    let stripped: Vec<(String, String, String)> = app
        .storage()
        .draw_items(&task.task.id)
        .await
        .unwrap()
        .into_iter()
        .map(|r| {
            let mut gold: Value = serde_json::from_str(&r.gold_json).unwrap();
            assert!(
                gold["model_order"].is_array(),
                "the order is stored with the gold"
            );
            gold.as_object_mut().unwrap().remove("model_order");
            (r.id, r.prompt_json, gold.to_string())
        })
        .collect();
    app.storage().rewrite_draws(&stripped).await.unwrap();
    assert_eq!(clip_answers_recovered(&app).await, n);
    // ...until the start-up upgrade re-draws them (no submission refers to them yet).
    let report = memeboard_server::upgrade::run(app.storage(), 50)
        .await
        .unwrap();
    assert_eq!(report.draws.redrawn, n);
    let recovered = clip_answers_recovered(&app).await;
    assert!(
        recovered <= 52,
        "{recovered} of {n} recovered after the re-draw"
    );
}
