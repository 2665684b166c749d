//! The study page's CMPM Table 7 per annotator and the rankings' pairwise win matrix, checked
//! cell by cell against a hand count of what the test raters submitted: three raters score
//! every page of one batch (two alike, one contrary), two raters rank every page; the contrary
//! rater, left out by a reliability threshold, keeps their row, marked; the figures stay on the
//! owner's page (never on the public board). Table 8 (context ablation) appears only when a
//! model's comic explanations were judged both with the comic's context and from the image only.

use crate::helpers::Db;
use crate::on_both_databases;
use crate::studies::{
    as_admin, cmpm_request, comic_outputs, rate_all, raw, study_app, three_rater_study, COMICS,
};
use axum::http::{Method, StatusCode};
use serde_json::{json, Value};
use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};

const PAGE: &str = "/api/owner/studies/t7";

/// The model (first word of its name) that wrote an output, from its text.
fn writer(output: &Value) -> String {
    let text = output["meaning"].as_str().unwrap();
    text.split(' ').next().unwrap().to_owned()
}

/// Alpha 3, Bravo 2, Charlie 1.
fn quality(writer: &str) -> u8 {
    match writer {
        "Alpha" => 3,
        "Bravo" => 2,
        _ => 1,
    }
}

/// The scores a rater of `kind` gives an output, in page order (context `None` without
/// context): `careful` scores every dimension by the writer; `contrary` the reverse, panel
/// coherence always 1.
fn scores(kind: &str, writer: &str, context: bool) -> [Option<u8>; 5] {
    let q = quality(writer);
    let (v, panel) = if kind == "careful" {
        (q, q)
    } else {
        (4 - q, 1)
    };
    [Some(v), Some(panel), Some(v), context.then_some(v), Some(v)]
}

/// The ranks a ranker of `kind` gives a page's candidates (display order): `first` puts
/// Alpha first and ties the others; `second` ranks Bravo, Charlie, Alpha.
fn ranks(kind: &str, writers: &[String]) -> Vec<u8> {
    writers
        .iter()
        .map(|w| match (kind, w.as_str()) {
            ("first", "Alpha") => 1,
            ("first", _) => 2,
            (_, "Bravo") => 1,
            (_, "Charlie") => 2,
            _ => 3,
        })
        .collect()
}

/// Every page each rater kind scored.
type Scored = BTreeMap<&'static str, Vec<[Option<u8>; 5]>>;
/// Per ordered pair of writers: (comparisons, wins, ties, losses) of the first.
type Pairs = BTreeMap<(String, String), (u64, u64, u64, u64)>;

/// The expected Table 7 row of a rater kind: per dimension (mean, n), then Core4's.
fn expected_row(pages: &[[Option<u8>; 5]]) -> Vec<(Option<f64>, u64)> {
    let mut out: Vec<(Option<f64>, u64)> = (0..5)
        .map(|d| {
            let given: Vec<f64> = pages.iter().filter_map(|p| p[d]).map(f64::from).collect();
            let n = given.len();
            (
                (n > 0).then(|| given.iter().sum::<f64>() / n as f64),
                n as u64,
            )
        })
        .collect();
    let core4: Vec<f64> = pages
        .iter()
        .map(|p| {
            [0, 1, 2, 4]
                .iter()
                .map(|&d| f64::from(p[d].unwrap()))
                .sum::<f64>()
                / 4.0
        })
        .collect();
    let n = core4.len();
    out.push((Some(core4.iter().sum::<f64>() / n as f64), n as u64));
    out
}

/// A page row as (mean, n) per cell, dimensions then Core4.
fn page_row(row: &Value) -> Vec<(Option<f64>, u64)> {
    let cell = |c: &Value| (c["mean"].as_f64(), c["n"].as_u64().unwrap());
    let mut out: Vec<_> = row["dimensions"]
        .as_array()
        .unwrap()
        .iter()
        .map(cell)
        .collect();
    out.push(cell(&row["core4"]));
    out
}

fn close(a: &[(Option<f64>, u64)], b: &[(Option<f64>, u64)]) -> bool {
    a.len() == b.len()
        && a.iter().zip(b).all(|((x, n), (y, m))| {
            n == m
                && match (x, y) {
                    (Some(x), Some(y)) => (x - y).abs() < 1e-9,
                    (None, None) => true,
                    _ => false,
                }
        })
}

/// Creates the study, lets the raters judge, and returns the hand counts.
async fn judge(app: &crate::helpers::TestApp, subs: &BTreeMap<String, String>) -> (Scored, Pairs) {
    three_rater_study(app, "t7", false, subs).await;
    let scored: RefCell<Scored> = RefCell::default();
    for (tag, kind) in [
        ("careful 1", "careful"),
        ("careful 2", "careful"),
        ("contrary", "contrary"),
    ] {
        let done = rate_all(app, "t7-rate", None, subs, |item: &Value| {
            let p = &item["prompt"];
            let s = scores(
                kind,
                &writer(&p["output"]),
                p["has_context"].as_bool().unwrap(),
            );
            scored.borrow_mut().entry(tag).or_default().push(s);
            json!({"kind": "rating", "protocol": "dimensions", "scores": {
                "visual_correctness": s[0], "panel_coherence": s[1], "humour_comprehension": s[2],
                "context_handling": s[3], "faithfulness": s[4]}})
        })
        .await;
        assert!(done.is_some(), "{kind} rater got a batch");
    }
    let pairs: RefCell<Pairs> = RefCell::default();
    for kind in ["first", "second"] {
        let done = rate_all(app, "t7-rank", None, subs, |item: &Value| {
            let writers: Vec<String> = item["prompt"]["candidates"]
                .as_array()
                .unwrap()
                .iter()
                .map(writer)
                .collect();
            let r = ranks(kind, &writers);
            for (i, a) in writers.iter().enumerate() {
                for (j, b) in writers.iter().enumerate() {
                    if i == j {
                        continue;
                    }
                    let mut e = pairs.borrow_mut();
                    let c = e.entry((a.clone(), b.clone())).or_default();
                    c.0 += 1;
                    match r[i].cmp(&r[j]) {
                        std::cmp::Ordering::Less => c.1 += 1,
                        std::cmp::Ordering::Equal => c.2 += 1,
                        std::cmp::Ordering::Greater => c.3 += 1,
                    }
                }
            }
            json!({"kind": "ranking", "ranks": r})
        })
        .await;
        assert!(done.is_some(), "{kind} ranker got a batch");
    }
    (scored.into_inner(), pairs.into_inner())
}

/// Checks the page's win matrix against the hand count, cell by cell.
fn assert_matrix(page: &Value, subs: &BTreeMap<String, String>, pairs: &Pairs) {
    let m = &page["cmpm_tables"]["win_matrix"];
    let name = |id: &Value| {
        let n = &subs[id.as_str().unwrap()];
        n.split(' ').next().unwrap().to_owned()
    };
    let systems: Vec<String> = m["systems"].as_array().unwrap().iter().map(name).collect();
    assert_eq!(systems.len(), 3, "{m}");
    let rows = m["rows"].as_array().unwrap();
    for (i, row) in rows.iter().enumerate() {
        assert_eq!(name(&row["system"]), systems[i]);
        for (j, cell) in row["cells"].as_array().unwrap().iter().enumerate() {
            if i == j {
                assert!(cell.is_null(), "diagonal {cell}");
                continue;
            }
            let (c, w, t, l) = pairs[&(systems[i].clone(), systems[j].clone())];
            let got = (
                &cell["comparisons"],
                &cell["wins"],
                &cell["ties"],
                &cell["losses"],
            );
            assert_eq!(got, (&json!(c), &json!(w), &json!(t), &json!(l)), "{cell}");
            let rate = (w as f64 + t as f64 / 2.0) / c as f64;
            assert!((cell["win_rate"].as_f64().unwrap() - rate).abs() < 1e-12);
        }
    }
}

async fn the_study_page_gives_table_7_per_annotator_and_the_win_matrix(db: Db) {
    let app = study_app(db).await;
    let subs = comic_outputs(&app).await;
    let (scored, pairs) = judge(&app, &subs).await;
    // Every page was seen by every scorer and every pair by both rankers.
    let sorted = |tag: &str| {
        let mut pages = scored[tag].clone();
        pages.sort();
        pages
    };
    assert_eq!(sorted("careful 1"), sorted("careful 2"), "the same pages");
    assert_eq!(scored["careful 1"].len(), scored["contrary"].len());
    assert_eq!(scored["contrary"].len() % 3, 0);
    assert!(pairs.values().all(|p| p.0 > 0));
    let (status, page) = as_admin(&app, Method::GET, PAGE, None).await;
    assert_eq!(status, StatusCode::OK, "{page}");
    let per_rater = page["cmpm_tables"]["per_rater"].as_array().unwrap().clone();
    assert_eq!(per_rater.len(), 3, "{page}");
    // The pseudonyms of the reliability rows (and raters.csv), sorted.
    let reliability: BTreeSet<&str> = page["raters"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["scale"] == "dimensions")
        .map(|r| r["rater"].as_str().unwrap())
        .collect();
    let names: Vec<&str> = per_rater
        .iter()
        .map(|r| r["rater"].as_str().unwrap())
        .collect();
    assert_eq!(names, reliability.iter().copied().collect::<Vec<_>>());
    let careful = expected_row(&scored["careful 1"]);
    let contrary = expected_row(&scored["contrary"]);
    // Careful: 2 on every dimension (as many pages per writer); contrary: panel 1.
    assert_eq!(careful[0].0, Some(2.0));
    assert_eq!(contrary[1].0, Some(1.0));
    let kinds: Vec<&str> = per_rater
        .iter()
        .map(|r| {
            let got = page_row(r);
            assert_eq!(r["threshold_excluded"], false, "{r}");
            if close(&got, &careful) {
                "careful"
            } else {
                assert!(close(&got, &contrary), "{got:?} vs {contrary:?}");
                "contrary"
            }
        })
        .collect();
    assert_eq!(kinds.iter().filter(|k| **k == "careful").count(), 2);
    assert_matrix(&page, &subs, &pairs);
    // Every run is under the default condition: no Table 8.
    assert!(
        page["cmpm_tables"].get("context_ablation").is_none(),
        "{page}"
    );

    // A threshold leaves the contrary rater out: still listed, marked; the others not.
    let set = "/api/owner/studies/t7/reliability";
    let (status, body) = as_admin(&app, Method::PUT, set, Some(json!({"max_loo_gain": 0.1}))).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let (_, after) = as_admin(&app, Method::GET, PAGE, None).await;
    let excluded: BTreeSet<&str> = after["threshold_excluded"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["rater"].as_str().unwrap())
        .collect();
    let contrary_name = names[kinds.iter().position(|k| *k == "contrary").unwrap()];
    assert_eq!(excluded, BTreeSet::from([contrary_name]), "{after}");
    let rows = after["cmpm_tables"]["per_rater"].as_array().unwrap();
    assert_eq!(rows.len(), 3);
    for (row, before) in rows.iter().zip(&per_rater) {
        let marked = row["rater"] == contrary_name;
        assert_eq!(row["threshold_excluded"], marked, "{row}");
        assert_eq!(row["core4"], before["core4"]);
    }
    // The two rankers form a group of two (no leave-one-out figure): both kept.
    assert_matrix(&after, &subs, &pairs);
    // tables.json carries the same.
    let (_, file) = as_admin(&app, Method::GET, "/api/owner/studies/t7/tables.json", None).await;
    assert_eq!(file["cmpm_tables"], after["cmpm_tables"]);

    // Owners only: the public board has neither table nor any rater pseudonym.
    let (_, board) = app.get(&format!("/api/boards/{COMICS}")).await;
    let text = board.to_string();
    assert!(
        !text.contains("win_matrix") && !text.contains("per_rater"),
        "{text}"
    );
    for n in &names {
        assert!(!text.contains(n), "pseudonym {n} on the board");
    }
    let (status, _, _) = crate::studies::raw(&app, Method::GET, PAGE, None, None).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
}

on_both_databases!(the_study_page_gives_table_7_per_annotator_and_the_win_matrix);

/// Uploads Alpha's explanations again under `context=image_only` (the same model name, text
/// "Alpha sees only the panels of …"); returns the submission id.
async fn upload_image_only(app: &crate::helpers::TestApp, alpha: &str) -> String {
    let (_, author) = app.post("/api/authors", json!({"name": "Lab 2"})).await;
    let token = author["token"].as_str().unwrap().to_owned();
    let (_, manifest) = app.get(&format!("/api/tasks/{COMICS}/manifest")).await;
    let file: String = manifest["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| {
            let id = i["id"].as_str().unwrap();
            format!(
                "{}\n",
                json!({"item_id": id, "explanation": format!("Alpha sees only the panels of {id}")})
            )
        })
        .collect();
    let path = format!(
        "/api/tasks/{COMICS}/submissions?model={}&conditions=context=image_only",
        alpha.replace(' ', "%20")
    );
    let (status, _, text) = raw(app, Method::POST, &path, Some(&token), Some(file)).await;
    assert_eq!(status, StatusCode::CREATED, "{text}");
    let body: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(
        body["conditions"],
        json!({"context": "image_only"}),
        "{body}"
    );
    body["submission_id"].as_str().unwrap().to_owned()
}

/// One scored page: (comic, Alpha from the image only, Alpha with context, score).
type Page = (String, bool, bool, u8);

/// Alpha's scores (with context, from the image only) on a comic, by the first hex digit of its
/// first panel's file name (a fixed, arbitrary split of the comics): below 6 context changes
/// nothing (3, 3), below 9 it helps (3, 1), else it hurts (2, 3).
fn alpha_scores(comic: &str) -> (u8, u8) {
    let name = comic.rsplit('/').next().unwrap_or(comic);
    match name
        .chars()
        .next()
        .and_then(|c| c.to_digit(16))
        .unwrap_or(0)
    {
        0..=5 => (3, 3),
        6..=8 => (3, 1),
        _ => (2, 3),
    }
}

/// Two raters score every page: Alpha as [`alpha_scores`], Bravo 2, Charlie 1. Returns the
/// pages.
async fn judge_context(
    app: &crate::helpers::TestApp,
    subs: &BTreeMap<String, String>,
) -> Vec<Page> {
    let mut request = cmpm_request("t8", false, subs);
    request["items_per_category"] = json!(1);
    request["batch_size"] = json!(60);
    request["raters_per_batch"] = json!(2);
    let path = format!("/api/owner/tasks/{COMICS}/studies");
    let (status, created) = as_admin(app, Method::POST, &path, Some(request)).await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    let pages: RefCell<Vec<Page>> = RefCell::default();
    for _ in 0..2 {
        let done = rate_all(app, "t8-rate", None, subs, |item: &Value| {
            let p = &item["prompt"];
            let text = p["output"]["meaning"].as_str().unwrap();
            let comic = p["subject"]["panels"][0].as_str().unwrap().to_owned();
            let image_only = text.contains("only the panels");
            let alpha = writer(&p["output"]) == "Alpha";
            let (full, image) = alpha_scores(&comic);
            let v = match (alpha, image_only) {
                (true, true) => image,
                (true, false) => full,
                _ => quality(&writer(&p["output"])),
            };
            pages
                .borrow_mut()
                .push((comic, alpha && image_only, alpha && !image_only, v));
            crate::studies::dims(v, p["has_context"].as_bool().unwrap())
        })
        .await;
        assert!(done.is_some(), "the rater got a batch");
    }
    pages.into_inner()
}

async fn table_8_compares_a_models_runs_with_and_without_context(db: Db) {
    let app = study_app(db).await;
    let mut subs = comic_outputs(&app).await;
    let alpha = subs
        .values()
        .find(|n| n.starts_with("Alpha"))
        .unwrap()
        .clone();
    let image_only = upload_image_only(&app, &alpha).await;
    subs.insert(image_only, alpha.clone());
    let pages = judge_context(&app, &subs).await;

    // By hand: per comic, Alpha's scores with context and from the image only.
    let mut by_comic: BTreeMap<&str, (Vec<f64>, Vec<f64>)> = BTreeMap::new();
    for (comic, image, full, v) in &pages {
        let e = by_comic.entry(comic.as_str()).or_default();
        if *full {
            e.0.push(f64::from(*v));
        } else if *image {
            e.1.push(f64::from(*v));
        }
    }
    by_comic.retain(|_, (f, i)| !f.is_empty() && !i.is_empty());
    let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len() as f64;
    let full: Vec<f64> = by_comic.values().flat_map(|(f, _)| f.clone()).collect();
    let image: Vec<f64> = by_comic.values().flat_map(|(_, i)| i.clone()).collect();
    let per_comic: Vec<f64> = by_comic.values().map(|(f, i)| mean(f) - mean(i)).collect();
    let helps = per_comic.iter().filter(|d| **d >= 0.1).count();
    let hurts = per_comic.iter().filter(|d| **d <= -0.1).count();
    let comics = by_comic.len();
    // The demo's comics fall on every side; two raters on each.
    assert!(
        helps > 0 && hurts > 0 && helps + hurts < comics,
        "{by_comic:?}"
    );
    assert_eq!((full.len(), image.len()), (2 * comics, 2 * comics));
    let delta = mean(&full) - mean(&image);
    // On the demo's three comics drawn: (3, 3), (3, 1) and (2, 3) by both raters, so full
    // 16 / 6 ≈ 2.667, image only 14 / 6 ≈ 2.333, Δ = +1/3; per comic 0, +2, −1; a resample of
    // one comic three times (1/27 > 2.5%) gives the interval [−1, +2].
    assert_eq!((comics, helps, hurts), (3, 1, 1), "{by_comic:?}");
    assert!((mean(&full) - 16.0 / 6.0).abs() < 1e-12 && (delta - 1.0 / 3.0).abs() < 1e-12);
    let lowest = per_comic.iter().copied().fold(f64::MAX, f64::min);
    let highest = per_comic.iter().copied().fold(f64::MIN, f64::max);

    let (status, page) = as_admin(&app, Method::GET, "/api/owner/studies/t8", None).await;
    assert_eq!(status, StatusCode::OK, "{page}");
    let t = &page["cmpm_tables"]["context_ablation"];
    let rows = t["rows"].as_array().expect("Table 8");
    assert_eq!(rows.len(), 1, "only Alpha ran under both: {t}");
    assert_eq!(rows[0]["model"], json!(alpha));
    let close = |v: &Value, x: f64| (v.as_f64().unwrap() - x).abs() < 1e-9;
    for cells in [&rows[0]["cells"], &t["overall"]] {
        assert!(close(&cells["full_context"], mean(&full)), "{cells}");
        assert!(close(&cells["image_only"], mean(&image)), "{cells}");
        assert_eq!(cells["full_context_ratings"], json!(full.len()));
        assert_eq!(cells["image_only_ratings"], json!(image.len()));
        assert_eq!(cells["comics"], json!(comics));
        let d = &cells["delta"];
        assert!(close(&d["value"], delta), "{d}");
        let (low, high) = (
            d["ci_low"].as_f64().unwrap(),
            d["ci_high"].as_f64().unwrap(),
        );
        assert!(
            lowest <= low && low <= delta && delta <= high && high <= highest,
            "{d}"
        );
        assert_eq!((low, high), (-1.0, 2.0), "{d}");
    }
    let mixed = comics - helps - hurts;
    assert_eq!(
        t["effects"],
        json!({"helps": helps, "hurts": hurts, "small_or_mixed": mixed})
    );
    // tables.json carries it too.
    let (_, file) = as_admin(&app, Method::GET, "/api/owner/studies/t8/tables.json", None).await;
    assert_eq!(file["cmpm_tables"]["context_ablation"], *t);
}

on_both_databases!(table_8_compares_a_models_runs_with_and_without_context);
