//! The study page's CMPM Table 7 per annotator and the rankings' pairwise win matrix, checked
//! cell by cell against a hand count of what the test raters submitted: three raters score
//! every page of one batch (two alike, one contrary), two raters rank every page; the contrary
//! rater, left out by a reliability threshold, keeps their row, marked; the figures stay on the
//! owner's page (never on the public board).

use crate::helpers::Db;
use crate::on_both_databases;
use crate::studies::{as_admin, cmpm_request, comic_outputs, rate_all, study_app, COMICS};
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
    let mut request = cmpm_request("t7", false, subs);
    request["items_per_category"] = json!(1);
    request["batch_size"] = json!(30);
    request["raters_per_batch"] = json!(3);
    let path = format!("/api/owner/tasks/{COMICS}/studies");
    let (status, created) = as_admin(app, Method::POST, &path, Some(request)).await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
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
