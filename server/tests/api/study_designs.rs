//! The papers' study designs on a real server: the dense design (CMPM §5.3), where every
//! rater judges every page of a task, one fixed batch after another as resumable parts, never
//! the same batch twice, and is refused once every part is done (without it a rater judges
//! one batch); batches of one category each (CHIME App. C.4); CHIME's page of one meme with
//! every model's explanation, whose batches hold whole memes; and CMPM's sample by structure
//! type, read from the panel-type task's dev gold.

use crate::helpers::{detail, models_installed, Db};
use crate::judging::start;
use crate::on_both_databases;
use crate::studies::{
    as_admin, cmpm_request, comic_outputs, comic_rater, judge_item, study_app, upload_models,
    COMICS, MEMES,
};
use axum::http::{Method, StatusCode};
use serde_json::{json, Value};
use std::collections::{BTreeMap, BTreeSet};

/// The study settings of judging task `slug`, as its console shows them.
async fn fieldwork_settings(app: &crate::helpers::TestApp, slug: &str) -> Value {
    let path = format!("/api/owner/tasks/{slug}/console");
    let (status, console) = as_admin(app, Method::GET, &path, None).await;
    assert_eq!(status, StatusCode::OK, "{console}");
    console["settings"]["study"].clone()
}

async fn a_dense_study_gives_every_rater_every_page(db: Db) {
    let app = study_app(db).await;
    let subs = comic_outputs(&app).await;
    let path = format!("/api/owner/tasks/{COMICS}/studies");
    let mut request = cmpm_request("dense", false, &subs);
    request["dense"] = json!(true);
    let (status, created) = as_admin(&app, Method::POST, &path, Some(request)).await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    let rate = &created["tasks"][0];
    assert_eq!(rate["slug"], "dense-rate");
    let (pages, batches) = (
        rate["items"].as_u64().unwrap(),
        rate["batches"].as_u64().unwrap(),
    );
    assert!(batches >= 2, "{created}");
    assert_eq!(
        fieldwork_settings(&app, "dense-rate").await["batches_per_rater"],
        batches
    );
    let (_, quiz) = app.get("/api/quizzes/dense-rate").await;
    assert_eq!(
        quiz["allow_retake"], true,
        "the page offers the next part: {quiz}"
    );
    // The ranking task is one batch here: nothing to split.
    assert_eq!(created["tasks"][1]["batches"], 1);
    assert!(fieldwork_settings(&app, "dense-rank").await["batches_per_rater"].is_null());

    // One rater, part after part: every page once, then refused.
    let judge = comic_rater(true);
    let mut who: Option<(String, String)> = None;
    let mut seen = BTreeSet::new();
    for part in 0..batches {
        let me = who.as_ref().map(|(p, s)| (p.as_str(), s.as_str()));
        let (status, s) = start(&app, "dense-rate", me).await;
        assert_eq!(status, StatusCode::CREATED, "part {part}: {s}");
        who.get_or_insert_with(|| {
            (
                s["participant_id"].as_str().unwrap().to_owned(),
                s["participant_secret"].as_str().unwrap().to_owned(),
            )
        });
        let id = s["session_id"].as_str().unwrap();
        for item in s["items"].as_array().unwrap() {
            let item_id = item["item_id"].as_str().unwrap();
            assert!(seen.insert(item_id.to_owned()), "{item_id} judged twice");
            judge_item(&app, id, item_id, judge(item)).await;
        }
    }
    assert_eq!(seen.len() as u64, pages, "every page of the task, once");
    let me = who.as_ref().map(|(p, s)| (p.as_str(), s.as_str()));
    let (status, body) = start(&app, "dense-rate", me).await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert!(detail(&body).contains("already finished judging"), "{body}");
    // The quiz page of the finished rater hears it before offering another part; a rater
    // with parts left (or unknown) is not refused.
    let participant = &who.as_ref().unwrap().0;
    let (status, body) = app
        .get(&format!(
            "/api/quizzes/dense-rate?admission&participant={participant}"
        ))
        .await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert!(detail(&body).contains("already finished judging"), "{body}");
    let (status, body) = app
        .get("/api/quizzes/dense-rate?admission&participant=p-unknown")
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");

    // Without the dense design, one batch per rater.
    let plain = cmpm_request("plain", false, &subs);
    let (status, created) = as_admin(&app, Method::POST, &path, Some(plain)).await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    assert!(fieldwork_settings(&app, "plain-rate").await["batches_per_rater"].is_null());
}

async fn batches_of_one_category_hold_one_category_each(db: Db) {
    let app = study_app(db).await;
    let subs = comic_outputs(&app).await;
    let path = format!("/api/owner/tasks/{COMICS}/studies");
    let mut request = cmpm_request("typed", true, &subs);
    request["one_category_batches"] = json!(true);
    let (status, created) = as_admin(&app, Method::POST, &path, Some(request)).await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    let task = app
        .storage()
        .find_board_task("typed-rate")
        .await
        .unwrap()
        .unwrap();
    let rows = app.storage().task_items(&task.task.id).await.unwrap();
    let mut categories: BTreeMap<u64, BTreeSet<String>> = BTreeMap::new();
    for row in &rows {
        let gold: Value = serde_json::from_str(&row.gold_json).unwrap();
        categories
            .entry(gold["batch"].as_u64().unwrap())
            .or_default()
            .insert(row.category.clone());
    }
    assert_eq!(
        categories.len() as u64,
        created["tasks"][0]["batches"].as_u64().unwrap()
    );
    assert!(categories.values().all(|c| c.len() == 1), "{categories:?}");
    let all: BTreeSet<&String> = categories.values().flatten().collect();
    assert!(
        all.len() >= 2,
        "the demo comics span several categories: {all:?}"
    );
}

async fn one_page_per_meme_keeps_each_memes_explanations_in_one_batch(db: Db) {
    if !models_installed() {
        return;
    }
    let app = study_app(db).await;
    let models = ["Alpha", "Bravo", "Charlie"];
    let subs = upload_models(&app, MEMES, &models, |model, id| {
        json!({"item_id": id, "meaning": format!("{model} reads it as a saying"), "origin": "forums"})
    })
    .await;
    let path = format!("/api/owner/tasks/{MEMES}/studies");
    // 5 pages asked, 3 per meme: a batch still takes one whole meme (a cut at 5 would split
    // the second), beside its planted group of 3.
    let mut request = json!({
        "slug": "paged", "protocol": "accuracy", "submissions": {"pick": "ids", "ids": subs.keys().collect::<Vec<_>>()},
        "items_per_category": 2, "batch_size": 5, "raters_per_batch": 1, "planted_checks": true,
        "one_page_per_subject": true
    });
    let (status, created) = as_admin(&app, Method::POST, &path, Some(request.clone())).await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    let task = app
        .storage()
        .find_board_task("paged-rate")
        .await
        .unwrap()
        .unwrap();
    let rows = app.storage().task_items(&task.task.id).await.unwrap();
    // (batch, subject) → pages: every meme, planted groups included, has all three of its
    // pages in one batch.
    let mut pages: BTreeMap<(u64, String), usize> = BTreeMap::new();
    for row in &rows {
        let prompt: Value = serde_json::from_str(&row.prompt_json).unwrap();
        assert_eq!(prompt["one_page_per_subject"], true, "{prompt}");
        let gold: Value = serde_json::from_str(&row.gold_json).unwrap();
        let subject = prompt["subject"]["phrase"].as_str().unwrap().to_owned();
        *pages
            .entry((gold["batch"].as_u64().unwrap(), subject))
            .or_default() += 1;
    }
    assert!(pages.len() >= 4, "{pages:?}");
    assert!(pages.values().all(|n| *n == models.len()), "{pages:?}");
    let subjects: BTreeSet<&String> = pages.keys().map(|(_, s)| s).collect();
    assert_eq!(subjects.len(), pages.len(), "no meme in two batches");
    // The rater's pages say so (the browser shows them together).
    let (status, s) = start(&app, "paged-rate", None).await;
    assert_eq!(status, StatusCode::CREATED, "{s}");
    let items = s["items"].as_array().unwrap();
    assert_eq!(items.len(), 6, "one meme and its planted group: {s}");
    assert!(items
        .iter()
        .all(|i| i["prompt"]["one_page_per_subject"] == true));

    // A CMPM study rates one explanation per page.
    request["slug"] = json!("paged-cmpm");
    request["protocol"] = json!("cmpm");
    let (status, body) = as_admin(&app, Method::POST, &path, Some(request)).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    assert!(detail(&body).contains("only an accuracy study"), "{body}");
}

/// The structure type (panel-type dev gold) of each comic explanation item, by source id.
async fn structure_of_comic_items(app: &crate::helpers::TestApp) -> BTreeMap<String, String> {
    let storage = app.storage();
    let task_id = |slug: &'static str| async move {
        storage
            .find_board_task(slug)
            .await
            .unwrap()
            .unwrap()
            .task
            .id
    };
    let (types, comics) = (task_id("demo-panel-type").await, task_id(COMICS).await);
    let type_sources: BTreeMap<String, String> = storage
        .task_source_ids(&types)
        .await
        .unwrap()
        .into_iter()
        .collect();
    let mut by_source = BTreeMap::new();
    for row in storage.task_items(&types).await.unwrap() {
        let gold: Value = serde_json::from_str(&row.gold_json).unwrap();
        let structure = gold["structure"].as_str().unwrap().to_owned();
        by_source.insert(type_sources[&row.id].clone(), structure);
    }
    storage
        .task_source_ids(&comics)
        .await
        .unwrap()
        .into_iter()
        .filter_map(|(item, source)| Some((item, by_source.get(&source)?.clone())))
        .collect()
}

async fn a_cmpm_study_samples_comics_by_structure_type(db: Db) {
    let app = study_app(db).await;
    let subs = comic_outputs(&app).await;
    let path = format!("/api/owner/tasks/{COMICS}/studies");
    let mut request = cmpm_request("strata", false, &subs);
    request["items_per_category"] = json!(1);
    request["stratify_by"] = json!("demo-panel-type");
    let (status, created) = as_admin(&app, Method::POST, &path, Some(request.clone())).await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    let structure = structure_of_comic_items(&app).await;
    let task = app
        .storage()
        .find_board_task("strata-rate")
        .await
        .unwrap()
        .unwrap();
    // Category → the comics drawn: one per structure type, each page's category its comic's
    // type, every comic a dev item.
    let mut drawn: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for row in app.storage().task_items(&task.task.id).await.unwrap() {
        let gold: Value = serde_json::from_str(&row.gold_json).unwrap();
        let comic = gold["source_item"].as_str().unwrap().to_owned();
        assert_eq!(structure[&comic], row.category, "{comic}");
        assert_eq!(row.split, memeboard_core::predictions::Split::Dev);
        drawn.entry(row.category.clone()).or_default().insert(comic);
    }
    assert!(drawn.len() >= 2, "several types drawn: {drawn:?}");
    assert!(drawn.values().all(|c| c.len() == 1), "{drawn:?}");
    // Raters and tables read the types in words.
    let (_, quiz) = app.get("/api/quizzes/strata-rate").await;
    for c in quiz["categories"].as_array().unwrap() {
        let key = c["key"].as_str().unwrap();
        assert!(drawn.contains_key(key), "{quiz}");
        assert_eq!(
            c["label_en"].as_str().unwrap().to_lowercase(),
            key,
            "{quiz}"
        );
        assert!(!c["label_zh"].as_str().unwrap().is_empty());
    }

    // Test items' types are hidden gold: refused, as is a task that labels nothing.
    for (slug, change, expected) in [
        (
            "strata-test",
            json!({"split": "test", "invitation_only": true}),
            "dev split only",
        ),
        (
            "strata-order",
            json!({"stratify_by": "demo-panel-order"}),
            "found `demo-panel-order`",
        ),
        (
            "strata-mcq",
            json!({"stratify_by": "demo-mcq"}),
            "found `demo-mcq`",
        ),
    ] {
        let mut wrong = request.clone();
        wrong["slug"] = json!(slug);
        for (k, v) in change.as_object().unwrap() {
            wrong[k] = v.clone();
        }
        let (status, body) = as_admin(&app, Method::POST, &path, Some(wrong)).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{slug}: {body}");
        assert!(detail(&body).contains(expected), "{slug}: {body}");
    }
}

on_both_databases!(
    a_dense_study_gives_every_rater_every_page,
    a_cmpm_study_samples_comics_by_structure_type,
    batches_of_one_category_hold_one_category_each,
    one_page_per_meme_keeps_each_memes_explanations_in_one_batch,
);
