//! Multi-panel memes end to end through the API: the manifest importer (good and broken
//! manifests, nothing stored on error, ids kept on re-import), both quizzes (one fixed display
//! for everyone, exactly-once answers, nothing of the canonical order or the type leaked,
//! panel URLs included), media serving (content type, ranges, immutable caching), model
//! inputs with the archive and checksums, and boards with model, human and baseline rows.

use crate::draws::test_key;
use crate::helpers::{
    detail, expand_route, files_reader, jsonl_item_ids, start_body, test_settings, Db, Reply,
    TestApp,
};
use crate::on_both_databases;
use axum::http::{Method, StatusCode};
use memeboard_core::kinds::panels::reads_in_order;
use memeboard_core::kinds::{panel_order, panel_type};
use memeboard_core::tasks::ItemGold;
use memeboard_server::import::ImportError;
use memeboard_server::import_panels::{import_panels, parse_panels, PanelsSpec};
use memeboard_server::media::is_media_name;
use serde_json::{json, Value};
use std::collections::{HashMap, HashSet};

const ADMIN: &str = "admin-secret-for-tests";

use crate::helpers::blank_png as png;

/// Twelve comics: `c0`–`c8` enter order recovery (strong, non-parallel, groups), `c9` is
/// parallel, `c10` weak, `c11` has no groups. Panel files are `cK-N.png`.
fn manifest() -> (String, HashMap<String, Vec<u8>>) {
    let mut files = HashMap::new();
    let mut lines = Vec::new();
    let types = ["narrative", "progressive", "conversational", "comparison"];
    for k in 0..12u32 {
        let n = 2 + (k as usize % 7); // 2..=8 panels
        let panels: Vec<String> = (1..=n).map(|p| format!("c{k}-{p}.png")).collect();
        for (p, name) in panels.iter().enumerate() {
            files.insert(name.clone(), png(100 + k, 100 + p as u32));
        }
        let mut groups: Vec<Vec<usize>> = (1..=n).map(|p| vec![p]).collect();
        if n >= 4 && k % 2 == 0 {
            groups = vec![vec![1], vec![2, 3]];
            groups.extend((4..=n).map(|p| vec![p]));
        }
        let mut line = json!({
            "id": format!("c{k}"), "panels": panels, "type": types[k as usize % 4],
            "ordering_dependency": "strong", "order_groups": groups,
            "context": {"title": format!("标题 {k} · Title {k}"), "comments": ["哈哈 · lol"]},
            "relation": "complementary",
        });
        match k {
            9 => line["type"] = json!("parallel"),
            10 => line["ordering_dependency"] = json!("weak"),
            11 => {
                line.as_object_mut().unwrap().remove("order_groups");
            }
            _ => {}
        }
        lines.push(line.to_string());
    }
    (lines.join("\n") + "\n", files)
}

fn spec() -> PanelsSpec {
    PanelsSpec {
        slug: "t".into(),
        title: "Test comics".into(),
        description: "test".into(),
        batch_size: 6,
        dev_percent: 50,
        quiz_open: true,
    }
}

async fn app_with_comics(db: Db) -> TestApp {
    let (mut settings, dir) = test_settings(db, false).await;
    settings.admin.token = ADMIN.into();
    settings.leaderboard.min_category_items = 1;
    // A few comics answered by two people: crowd figures counted at once, exact (their
    // public bounds are tested in `disclosure`).
    crate::export::exact_crowd(&mut settings);
    let app = TestApp::with_settings(settings, dir).await;
    let (text, files) = manifest();
    let read = files_reader(&files);
    let summary = import_panels(app.storage(), &spec(), "manifest.jsonl", &text, &read)
        .await
        .expect("import");
    assert_eq!(summary.comics, 12);
    assert_eq!(summary.order_items, 9);
    assert_eq!(summary.type_items, 12);
    app
}

/// Problems of a broken manifest (the in-memory files of [`manifest`], changed by `edit`).
fn problems(edit: impl Fn(&mut Vec<Value>, &mut HashMap<String, Vec<u8>>)) -> Vec<String> {
    let (text, mut files) = manifest();
    let mut lines: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    edit(&mut lines, &mut files);
    let text: String = lines.iter().map(|l| l.to_string() + "\n").collect();
    let read = |name: &str| {
        files
            .get(name)
            .cloned()
            .ok_or_else(|| std::io::Error::new(std::io::ErrorKind::NotFound, "No such file"))
    };
    match parse_panels(&spec(), &test_key(), "m.jsonl", &text, &read) {
        Err(ImportError { problems }) => problems,
        Ok(_) => Vec::new(),
    }
}

#[test]
fn broken_manifests_report_every_problem_with_line_field_found_and_expected() {
    let p = problems(|_, files| {
        files.remove("c0-2.png");
    });
    assert_eq!(
        p,
        ["m.jsonl line 1, field `panels[1]`: cannot read \"c0-2.png\": No such file"]
    );
    let p = problems(|_, files| {
        files.insert("c1-1.png".into(), b"GIF89a\x10\0\x10\0\0\0\0".to_vec());
        files.insert(
            "c1-2.png".into(),
            b"\xff\xd8\xff\xe0\0\x10JFIF\0\x01\x01\0\0\x01\0\x01\0\0".to_vec(),
        );
        files.insert("c2-1.png".into(), b"hello".to_vec());
        files.insert("c2-2.png".into(), b"\x89PNG\r\n\x1a\n".to_vec());
    });
    assert_eq!(p.len(), 4, "{p:#?}");
    assert!(
        p[0].contains("line 2, field `panels[0]`")
            && p[0].contains("is a GIF image, expected PNG, JPEG or WebP"),
        "{}",
        p[0]
    );
    assert!(
        p[1].contains("holds a JPG image but is named .png, expected .jpg or .jpeg"),
        "{}",
        p[1]
    );
    assert!(
        p[2].contains("line 3, field `panels[0]`") && p[2].contains("is not an image"),
        "{}",
        p[2]
    );
    assert!(p[3].contains("unreadable"), "{}", p[3]);

    let p = problems(|lines, _| {
        lines[0]["order_groups"] = json!([[1], [1]]);
        lines[1]["order_groups"] = json!([[1]]);
        lines[2]["type"] = json!("story");
        lines[3]["ordering_dependency"] = json!(1);
        lines[4]["id"] = json!("c0");
        lines[5]["colour"] = json!("red");
        lines[6]["relation"] = json!("ironic");
        lines[7]["context"] = json!({"title": 3});
    });
    let expected = [
        "m.jsonl line 1, field `order_groups`: expected blocks of panel numbers such as [[1],[2,3],[4]] covering 1 to 2 once each, found [[1],[1]]: panel(s) 1 appear more than once",
        "m.jsonl line 2, field `order_groups`: expected blocks of panel numbers such as [[1],[2,3],[4]] covering 1 to 3 once each, found [[1]]: panel(s) 2, 3 missing",
        "m.jsonl line 3, field `type`: unknown label \"story\", expected one of \"narrative\", \"progressive\", \"conversational\", \"parallel\", \"comparison\"",
        "m.jsonl line 4, field `ordering_dependency`: expected one of \"strong\", \"weak\", found the number 1",
        "m.jsonl line 5, field `id`: duplicate id \"c0\" (first on line 1)",
        "m.jsonl line 6, field `colour`: unknown field (expected one of id, panels, type, ordering_dependency, order_groups, context, relation, alt, content_warning)",
        "m.jsonl line 7, field `relation`: unknown label \"ironic\", expected one of \"image_dominant\", \"text_dominant\", \"complementary\", \"sarcastic_conflict\", \"unclear\"",
        "m.jsonl line 8, field `context`: `title`: expected text, found the number 3",
    ];
    assert_eq!(p, expected);
    let p = problems(|lines, _| {
        lines[0]["panels"] = json!(["../etc/passwd", "c0-2.png"]);
    });
    assert_eq!(p, ["m.jsonl line 1, field `panels[0]`: expected a file name inside the media folder, found \"../etc/passwd\""]);
}

async fn a_rejected_import_stores_nothing_and_a_reimport_keeps_ids(db: Db) {
    let (settings, dir) = test_settings(db, false).await;
    let app = TestApp::with_settings(settings, dir).await;
    let (text, files) = manifest();
    let broken = text.replace("\"strong\"", "\"strongest\"");
    let read = |name: &str| {
        files
            .get(name)
            .cloned()
            .ok_or_else(|| std::io::Error::other("missing"))
    };
    let err = import_panels(app.storage(), &spec(), "m.jsonl", &broken, &read)
        .await
        .unwrap_err();
    assert!(err.to_string().contains("nothing was stored"), "{err}");
    for table in ["benchmarks", "tasks", "items", "media", "media_blobs"] {
        assert_eq!(app.count(table).await, 0, "{table}");
    }
    import_panels(app.storage(), &spec(), "m.jsonl", &text, &read)
        .await
        .unwrap();
    let ids = |items: Vec<memeboard_server::storage::TaskItemRow>| -> Vec<String> {
        items.into_iter().map(|i| i.id).collect()
    };
    let before = ids(app.task_rows("t-order").await);
    let media_before = app.count("media").await;
    import_panels(app.storage(), &spec(), "m.jsonl", &text, &read)
        .await
        .unwrap();
    assert_eq!(ids(app.task_rows("t-order").await), before);
    assert_eq!(app.count("media").await, media_before);
    // One blob per distinct image; one name per image and task that shows it.
    assert_eq!(app.count("media_blobs").await, files.len() as i64);
}

/// Gold of the order task's items, by id.
async fn order_gold(app: &TestApp, slug: &str) -> HashMap<String, panel_order::Gold> {
    app.task_rows(slug)
        .await
        .into_iter()
        .map(|r| {
            let ItemGold::PanelOrder(g) = serde_json::from_str(&r.gold_json).unwrap() else {
                panic!("order gold expected")
            };
            (r.id, g)
        })
        .collect()
}

/// A right reading order (displayed numbers) for `gold`.
fn right_order(gold: &panel_order::Gold) -> Vec<usize> {
    gold.order_groups
        .iter()
        .flatten()
        .map(|c| gold.display.iter().position(|d| d == c).unwrap() + 1)
        .collect()
}

async fn answer(
    app: &TestApp,
    session: &str,
    item: &str,
    answer: Value,
    key: &str,
) -> (StatusCode, Value) {
    app.post(
        &format!("/api/sessions/{session}/answers"),
        json!({"item_id": item, "idempotency_key": key, "answer": answer, "response_ms": 900}),
    )
    .await
}

async fn order_quiz_shows_one_display_and_records_answers_exactly_once(db: Db) {
    let app = app_with_comics(db).await;
    let (status, quizzes) = app.get("/api/quizzes").await;
    assert_eq!(status, StatusCode::OK);
    let slugs: Vec<&str> = quizzes
        .as_array()
        .unwrap()
        .iter()
        .map(|q| q["slug"].as_str().unwrap())
        .collect();
    // Main tasks are listed; the ablation variants start closed.
    assert_eq!(slugs, ["t-order", "t-type"]);

    let (status, a) = app
        .post("/api/quizzes/t-order/sessions", start_body(false))
        .await;
    assert_eq!(status, StatusCode::CREATED, "{a}");
    let (_, b) = app
        .post("/api/quizzes/t-order/sessions", start_body(false))
        .await;
    let views = |s: &Value| -> HashMap<String, Value> {
        s["items"]
            .as_array()
            .unwrap()
            .iter()
            .map(|i| {
                (
                    i["item_id"].as_str().unwrap().to_owned(),
                    i["prompt"].clone(),
                )
            })
            .collect()
    };
    let (va, vb) = (views(&a), views(&b));
    let shared: Vec<&String> = va.keys().filter(|k| vb.contains_key(*k)).collect();
    assert!(!shared.is_empty());
    for id in shared {
        assert_eq!(va[id], vb[id], "every participant sees the same display");
    }
    let gold = order_gold(&app, "t-order").await;
    let session = a["session_id"].as_str().unwrap();
    let items: Vec<String> = va.keys().cloned().collect();
    let first = &items[0];
    let n = va[first]["panels"].as_array().unwrap().len();
    // Not a permutation of the displayed numbers: refused, naming the field.
    let (status, body) = answer(
        &app,
        session,
        first,
        json!({"kind": "order", "order": [1, 1]}),
        "bad",
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    assert!(detail(&body).contains("answer.order"), "{body}");
    let right = right_order(&gold[first]);
    assert_eq!(right.len(), n);
    let send_right = || {
        answer(
            &app,
            session,
            first,
            json!({"kind": "order", "order": right}),
            "k1",
        )
    };
    let (status, first_ack) = send_right().await;
    assert_eq!(status, StatusCode::CREATED, "{first_ack}");
    // A resend is the same answer, once; another answer to the item is refused.
    let (status, again) = send_right().await;
    assert_eq!(status, StatusCode::OK, "{again}");
    assert_eq!(again["answered"], first_ack["answered"]);
    let display: Vec<usize> = (1..=n).collect();
    let (status, _) = answer(
        &app,
        session,
        first,
        json!({"kind": "order", "order": display}),
        "k2",
    )
    .await;
    assert_eq!(status, StatusCode::CONFLICT);
    // The rest: the display order (wrong by construction).
    let mut last = Value::Null;
    for (k, item) in items.iter().enumerate().skip(1) {
        let n = va[item]["panels"].as_array().unwrap().len();
        let shown: Vec<usize> = (1..=n).collect();
        assert!(!reads_in_order(
            &gold[item].display,
            &gold[item].order_groups,
            &shown
        ));
        let (status, body) = answer(
            &app,
            session,
            item,
            json!({"kind": "order", "order": shown}),
            &format!("key{k}"),
        )
        .await;
        assert_eq!(status, StatusCode::CREATED, "{body}");
        last = body;
    }
    assert!(last["completion_code"].is_string(), "{last}");
    let (status, results) = app.get(&format!("/api/sessions/{session}/results")).await;
    assert_eq!(status, StatusCode::OK, "{results}");
    assert_eq!(results["task_kind"], "panel_order");
    for review in results["review"].as_array().unwrap() {
        let d = &review["detail"];
        assert_eq!(d["kind"], "panel_order");
        if review["gold_withheld"] == true {
            assert!(
                d["correct"].is_null() && d["reading_groups"].is_null(),
                "{review}"
            );
        } else {
            assert!(d["reading_groups"].is_array(), "{review}");
        }
    }
}

/// Everything a client is sent for a comic must be free of gold: no canonical order, no
/// groups, no type; panel URLs are opaque and unrelated across tasks.
async fn nothing_of_the_canonical_order_or_the_type_leaks(db: Db) {
    let app = app_with_comics(db).await;
    let mut urls_by_task: HashMap<&str, HashSet<String>> = HashMap::new();
    for slug in ["t-order", "t-type"] {
        let (_, s) = app
            .post(&format!("/api/quizzes/{slug}/sessions"), start_body(false))
            .await;
        let text = s.to_string();
        for banned in [
            "order_groups",
            "display\"",
            "\"structure\"",
            "canonical",
            "narrative\"",
            "ordering_dependency",
            "relation",
        ] {
            if slug == "t-type" && banned == "narrative\"" {
                continue; // the five choices are listed
            }
            assert!(
                !text.contains(banned),
                "{slug} session leaks {banned}: {text}"
            );
        }
        for item in s["items"].as_array().unwrap() {
            for panel in item["prompt"]["panels"].as_array().unwrap() {
                let url = panel["url"].as_str().unwrap();
                let name = url.strip_prefix("/media/").unwrap();
                assert!(is_media_name(name), "{url}");
                urls_by_task.entry(slug).or_default().insert(url.to_owned());
            }
        }
        let (_, inputs) = get_text(&app, &format!("/api/tasks/{slug}/inputs.jsonl")).await;
        for banned in [
            "order_groups",
            "\"display\"",
            "\"structure\"",
            "ordering_dependency",
        ] {
            assert!(!inputs.contains(banned), "{slug} inputs leak {banned}");
        }
        assert!(
            !inputs.contains("\"type\""),
            "{slug} inputs leak the type field"
        );
    }
    assert!(
        urls_by_task["t-order"].is_disjoint(&urls_by_task["t-type"]),
        "one image, one URL per task"
    );
    // The typing quiz accepts labels only.
    let (_, s) = app
        .post("/api/quizzes/t-type/sessions", start_body(false))
        .await;
    let id = s["session_id"].as_str().unwrap();
    let item = s["items"][0]["item_id"].as_str().unwrap();
    let (status, body) = answer(
        &app,
        id,
        item,
        json!({"kind": "structure", "structure": "story"}),
        "x",
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    assert!(
        detail(&body).contains("unknown variant `story`, expected one of `narrative`"),
        "{body}"
    );
    let (status, body) = answer(
        &app,
        id,
        item,
        json!({"kind": "structure", "structure": "parallel"}),
        "y",
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    assert!(
        !body.to_string().contains("correct\":"),
        "no correctness before the batch ends: {body}"
    );
}

async fn get_text(app: &TestApp, path: &str) -> (StatusCode, String) {
    let reply = app.get_reply(path).await;
    (reply.status, reply.text())
}

async fn panels_are_served_with_types_ranges_and_immutable_caching(db: Db) {
    let app = app_with_comics(db).await;
    let (_, inputs) = get_text(&app, "/api/tasks/t-type/inputs.jsonl").await;
    let line: Value = serde_json::from_str(inputs.lines().next().unwrap()).unwrap();
    let url = line["panels"][0]["url"].as_str().unwrap().to_owned();
    let Reply {
        status,
        headers,
        bytes,
    } = app.get_range(&url, None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(headers["content-type"], "image/png");
    assert_eq!(
        headers["cache-control"],
        "public, max-age=31536000, immutable"
    );
    assert_eq!(headers["x-content-type-options"], "nosniff");
    assert!(bytes.starts_with(b"\x89PNG"));
    let Reply {
        status,
        headers,
        bytes: part,
    } = app.get_range(&url, Some("bytes=0-3")).await;
    assert_eq!(status, StatusCode::PARTIAL_CONTENT);
    assert_eq!(part, &bytes[..4]);
    assert!(headers["content-range"]
        .to_str()
        .unwrap()
        .starts_with("bytes 0-3/"));
    // Served again from the cache folder, the same bytes.
    assert_eq!(app.get_range(&url, None).await.bytes, bytes);
    let status = app
        .get_range("/media/0123456789abcdef0123456789abcdef.png", None)
        .await
        .status;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let status = app
        .get_range("/media/..%2f..%2fetc%2fpasswd", None)
        .await
        .status;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

async fn inputs_come_with_an_archive_and_checksums(db: Db) {
    let app = app_with_comics(db).await;
    let (status, inputs) = get_text(&app, "/api/tasks/t-order/inputs.jsonl").await;
    assert_eq!(status, StatusCode::OK);
    let first: Value = serde_json::from_str(inputs.lines().next().unwrap()).unwrap();
    assert_eq!(first["panels"][0]["number"], 1);
    assert!(first["types"].as_array().unwrap().len() == 5);
    let Reply {
        status,
        headers,
        bytes: tar,
    } = app.get_range("/api/tasks/t-order/media.tar", None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(headers["content-type"], "application/x-tar");
    let files = untar(&tar);
    assert_eq!(files["t-order/inputs.jsonl"], inputs.as_bytes());
    let sums = String::from_utf8(files["t-order/SHA256SUMS"].clone()).unwrap();
    let mut checked = 0;
    for line in sums.lines() {
        let (sum, name) = line.split_once("  ").unwrap();
        let bytes = &files[&format!("t-order/{name}")];
        assert_eq!(sum, memeboard_server::media::sha256_hex(bytes), "{name}");
        checked += 1;
    }
    // inputs.jsonl plus every panel the inputs name.
    let named: HashSet<&str> = inputs
        .lines()
        .flat_map(|l| {
            serde_json::from_str::<Value>(l).unwrap()["panels"]
                .as_array()
                .unwrap()
                .iter()
                .map(|p| p["file"].as_str().unwrap().to_owned())
                .collect::<Vec<_>>()
        })
        .map(|f| Box::leak(f.into_boxed_str()) as &str)
        .collect();
    assert_eq!(checked, 1 + named.len());
    for f in named {
        assert!(files.contains_key(&format!("t-order/{f}")), "{f}");
    }
    let (_, sums) = get_text(&app, "/api/tasks/t-order/SHA256SUMS").await;
    assert!(
        sums.contains(&format!(
            "{}  t-order-media.tar",
            memeboard_server::media::sha256_hex(&tar)
        )),
        "{sums}"
    );
    assert!(
        sums.contains(&format!(
            "{}  t-order-inputs.jsonl",
            memeboard_server::media::sha256_hex(inputs.as_bytes())
        )),
        "{sums}"
    );
    // Eight at once get the same bytes (one archive on disk, built once), and a range of it.
    let fetches = (0..8).map(|_| app.get_range("/api/tasks/t-order/media.tar", None));
    for Reply {
        status,
        bytes: again,
        ..
    } in futures_util::future::join_all(fetches).await
    {
        assert_eq!(status, StatusCode::OK);
        assert!(again == tar, "a second download differs");
    }
    let archives = app.data.path().join("media-cache/archives");
    let built: Vec<String> = std::fs::read_dir(&archives)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("t-order-") && n.ends_with(".tar"))
        .collect();
    assert_eq!(built.len(), 1, "{built:?}");
    let reply = app
        .get_range("/api/tasks/t-order/media.tar", Some("bytes=0-511"))
        .await;
    assert_eq!(reply.status, StatusCode::PARTIAL_CONTENT);
    let head = reply.bytes;
    assert_eq!(&head[..], &tar[..512]);
}

/// Reads a ustar archive into path → bytes.
fn untar(tar: &[u8]) -> HashMap<String, Vec<u8>> {
    let mut out = HashMap::new();
    let mut at = 0;
    while at + 512 <= tar.len() && tar[at] != 0 {
        let header = &tar[at..at + 512];
        let name = String::from_utf8(
            header[..100]
                .iter()
                .take_while(|&&b| b != 0)
                .copied()
                .collect(),
        )
        .unwrap();
        let size =
            usize::from_str_radix(std::str::from_utf8(&header[124..135]).unwrap(), 8).unwrap();
        out.insert(name, tar[at + 512..at + 512 + size].to_vec());
        at += 512 + size.div_ceil(512) * 512;
    }
    out
}

async fn new_token(app: &TestApp) -> String {
    app.author_token("Ann", "Lab").await
}

async fn upload(
    app: &TestApp,
    token: &str,
    slug: &str,
    model: &str,
    body: &str,
) -> (StatusCode, Value) {
    app.post_file(
        &format!("/api/tasks/{slug}/submissions?model={model}"),
        token,
        body.to_owned(),
    )
    .await
}

fn row<'a>(board: &'a Value, kind: &str) -> &'a Value {
    board["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["kind"] == kind)
        .unwrap_or_else(|| panic!("no {kind} row in {board}"))
}

fn extra(row: &Value, name: &str) -> f64 {
    row["extra"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["name"] == name)
        .unwrap_or_else(|| panic!("no {name} in {row}"))["value"]
        .as_f64()
        .unwrap()
}

async fn order_files_are_scored_beside_baselines(db: Db) {
    let app = app_with_comics(db).await;
    let token = new_token(&app).await;
    let gold = order_gold(&app, "t-order").await;
    // Perfect answers as strings on test items, but one unparseable line and one missing item.
    let mut ids: Vec<&String> = gold.keys().collect();
    ids.sort();
    let mut lines = Vec::new();
    for (k, id) in ids.iter().enumerate() {
        let order = right_order(&gold[*id]);
        match k {
            0 => lines.push(json!({"item_id": id, "order": "I cannot tell"}).to_string()),
            1 => {}
            _ => lines.push(json!({"item_id": id, "order": order.iter().map(usize::to_string).collect::<Vec<_>>().join(",")}).to_string()),
        }
    }
    let (status, body) = upload(
        &app,
        &token,
        "t-order",
        "Orderer",
        &(lines.join("\n") + "\n"),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    let warnings = body["warnings"].to_string();
    assert!(warnings.contains("did not parse"), "{warnings}");
    // A structural error rejects the file and stores nothing.
    let (status, body) = upload(
        &app,
        &token,
        "t-order",
        "Broken",
        "{\"item_id\": \"nope\", \"order\": [1,2]}\n",
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    assert!(
        detail(&body).starts_with("line 1, field `item_id`"),
        "{body}"
    );

    // Two people take the quiz (all right): human rows on the items they answered.
    let mut answered = HashSet::new();
    for p in 0..2 {
        let (_, s) = app
            .post("/api/quizzes/t-order/sessions", start_body(false))
            .await;
        let id = s["session_id"].as_str().unwrap().to_owned();
        for (k, item) in s["items"].as_array().unwrap().iter().enumerate() {
            let item_id = item["item_id"].as_str().unwrap();
            answered.insert(item_id.to_owned());
            let (status, _) = answer(
                &app,
                &id,
                item_id,
                json!({"kind": "order", "order": right_order(&gold[item_id])}),
                &format!("p{p}k{k}"),
            )
            .await;
            assert!(status.is_success());
        }
    }
    let (status, board) = app.get("/api/boards/t-order").await;
    assert_eq!(status, StatusCode::OK, "{board}");
    assert_eq!(board["metric"], "accuracy on parseable answers");
    let public: HashSet<String> = app
        .task_rows("t-order")
        .await
        .into_iter()
        .filter(|r| r.on_board(memeboard_core::api::BoardSplit::Public))
        .map(|r| r.id)
        .collect();
    if !public.is_disjoint(&answered) {
        let human = row(&board, "human_average");
        assert_eq!(human["scores"][0]["estimate"]["value"], 1.0, "{human}");
        // Both took part; the row counts those with answers on this board half.
        let n = human["participants"].as_u64().unwrap();
        assert!((1..=2).contains(&n), "{human}");
    }
    let model = row(&board, "model");
    let on_public: Vec<&String> = ids.iter().copied().filter(|_| true).collect();
    assert!(!on_public.is_empty());
    // Parseable answers were all right.
    let overall = &model["scores"][0]["estimate"]["value"];
    assert!(
        overall.is_null() || overall.as_f64() == Some(1.0),
        "{model}"
    );
    let parse_rate = extra(model, "parse rate");
    assert!(parse_rate <= 1.0);
    for (kind, label_part) in [
        ("display_order", "Display order"),
        ("random_order", "Random order"),
        ("chance", "expected"),
    ] {
        let r = row(&board, kind);
        assert!(r["label"].as_str().unwrap().contains(label_part), "{r}");
    }
    // Display order is wrong everywhere by construction; the expected value is exact.
    assert_eq!(
        row(&board, "display_order")["scores"][0]["estimate"]["value"],
        0.0
    );
    let items = board["items"].as_u64().unwrap() as usize;
    if items > 0 {
        let rows = app.task_rows("t-order").await;
        let expected: Vec<f64> = rows
            .iter()
            .filter(|r| r.on_board(memeboard_core::api::BoardSplit::Public))
            .map(|r| {
                memeboard_core::kinds::panels::random_order_expectation(&gold[&r.id].order_groups)
            })
            .collect();
        let mean = expected.iter().sum::<f64>() / expected.len() as f64;
        let got = row(&board, "chance")["scores"][0]["estimate"]["value"]
            .as_f64()
            .unwrap();
        assert!((got - mean).abs() < 1e-12, "{got} vs {mean}");
    }
}

async fn type_files_get_f1_a_confusion_matrix_and_baselines(db: Db) {
    let app = app_with_comics(db).await;
    let token = new_token(&app).await;
    let task = app.board_task("t-type").await;
    let lines: String = app
        .storage()
        .offered_task_items(&task.task.id)
        .await
        .unwrap()
        .iter()
        .map(|r| {
            let ItemGold::PanelType(panel_type::Gold { structure }) = serde_json::from_str(&r.gold_json).unwrap() else {
                panic!()
            };
            json!({"item_id": r.id, "structure": format!("Type: {}", structure.key().to_uppercase())}).to_string() + "\n"
        })
        .collect();
    // (Only the comics the typing task offers: those whose order is hidden test gold are
    // withheld, see tests/api/cross_gold.rs.)
    let (status, body) = upload(&app, &token, "t-type", "Typer", &lines).await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    let (_, board) = app.get("/api/boards/t-type").await;
    let model = row(&board, "model");
    if board["items"].as_u64().unwrap() > 0 {
        assert_eq!(model["scores"][0]["estimate"]["value"], 1.0, "{model}");
        assert_eq!(extra(model, "macro-F1"), 1.0);
        assert_eq!(extra(model, "parse rate"), 1.0);
        // Exact counts per gold type over the hidden public half would name the types after
        // a few uploads: the matrix is published for the private half once revealed only.
        assert!(model["confusion"].is_null(), "{model}");
        // The baselines are scored on the same hidden gold: their matrices would give the
        // counts per type just the same, and their figures are rounded like a model's.
        let items = board["items"].as_u64().unwrap() as usize;
        let step = memeboard_core::disclosure::item_grid(items, 1.0).unwrap();
        for kind in ["majority_type", "random_type"] {
            let r = row(&board, kind);
            assert!(r["confusion"].is_null(), "{r}");
            let v = r["scores"][0]["estimate"]["value"].as_f64().unwrap();
            assert!(memeboard_core::disclosure::on_grid(v, step), "{r}");
        }
        assert!(
            (row(&board, "chance")["scores"][0]["estimate"]["value"]
                .as_f64()
                .unwrap()
                - 0.2)
                .abs()
                < 1e-12
        );
    }
    // The dev gold names types for dev items only.
    let (_, dev) = get_text(&app, "/api/tasks/t-type/dev-gold.jsonl").await;
    let dev_ids: HashSet<String> = jsonl_item_ids(&dev).into_iter().collect();
    let rows = app.storage().task_items(&task.task.id).await.unwrap();
    for r in rows {
        assert_eq!(
            dev_ids.contains(&r.id),
            r.split == memeboard_core::predictions::Split::Dev
        );
    }
}

async fn an_admin_opens_an_ablation_variant_as_a_quiz(db: Db) {
    let app = app_with_comics(db).await;
    let (status, _) = app
        .post("/api/quizzes/t-order-context/sessions", start_body(false))
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (status, _) = app
        .call(
            Method::POST,
            "/api/admin/tasks/t-order-context/board",
            Some(ADMIN),
            Some(json!({"quiz_open": true})),
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    let (status, s) = app
        .post("/api/quizzes/t-order-context/sessions", start_body(false))
        .await;
    assert_eq!(status, StatusCode::CREATED, "{s}");
    // The variant shows the comments, and the same display as the main task.
    let item = &s["items"][0];
    assert!(item["prompt"]["context"]["comments"].is_array(), "{item}");
}

/// CMPM's context ablation (Table 6) runs on the comment-available comics only: the ablation
/// variants hold just those, and the main order task keeps them as its `cas` subset (in its
/// inputs and as a board subset).
async fn the_context_ablation_holds_only_the_comics_with_comments(db: Db) {
    let (mut settings, dir) = test_settings(db, false).await;
    settings.leaderboard.min_category_items = 1;
    let app = TestApp::with_settings(settings, dir).await;
    let (text, files) = manifest();
    // c1 and c3 (order pool) and c9 (typing only) come without comments.
    let text: String = text
        .lines()
        .map(|l| {
            let mut v: Value = serde_json::from_str(l).unwrap();
            if ["c1", "c3", "c9"].contains(&v["id"].as_str().unwrap()) {
                v["context"] = json!({"title": "no comments"});
            }
            v.to_string() + "\n"
        })
        .collect();
    let read = files_reader(&files);
    import_panels(app.storage(), &spec(), "manifest.jsonl", &text, &read)
        .await
        .expect("import");
    let lines = |slug: &'static str| {
        let app = &app;
        async move {
            let (status, inputs) = get_text(app, &format!("/api/tasks/{slug}/inputs.jsonl")).await;
            assert_eq!(status, StatusCode::OK, "{slug}");
            inputs
                .lines()
                .map(|l| serde_json::from_str::<Value>(l).unwrap())
                .collect::<Vec<Value>>()
        }
    };
    let order = lines("t-order").await;
    assert_eq!(order.len(), 9, "the main task keeps every order-pool comic");
    let cas = order
        .iter()
        .filter(|l| l["subsets"] == json!(["full", "cas"]))
        .count();
    assert_eq!(cas, 7);
    assert_eq!(order.len() - cas, 2, "c1 and c3 are outside `cas`");
    // Stored items (the canonical variants' inputs withhold test items: cross-task gold).
    let stored = |slug: &'static str| {
        let app = &app;
        async move { app.task_rows(slug).await.len() }
    };
    for slug in [
        "t-order-context",
        "t-order-canonical",
        "t-order-canonical-context",
    ] {
        assert_eq!(
            stored(slug).await,
            7,
            "{slug}: the comment-available comics only"
        );
    }
    assert_eq!(stored("t-order").await, 9);
    assert_eq!(stored("t-type").await, 12);
    assert_eq!(stored("t-type-context").await, 9);
    let (status, full) = app.get("/api/boards/t-order").await;
    assert_eq!(status, StatusCode::OK);
    assert!(
        full["subsets"].as_array().unwrap().contains(&json!("cas")),
        "{full}"
    );
    let (status, board) = app.get("/api/boards/t-order?subset=cas").await;
    assert_eq!(status, StatusCode::OK, "{board}");
    assert_eq!(board["subset"], "cas");
    assert!(board["items"].as_u64() <= full["items"].as_u64());
}

on_both_databases!(
    the_context_ablation_holds_only_the_comics_with_comments,
    a_rejected_import_stores_nothing_and_a_reimport_keeps_ids,
    order_quiz_shows_one_display_and_records_answers_exactly_once,
    nothing_of_the_canonical_order_or_the_type_leaks,
    panels_are_served_with_types_ranges_and_immutable_caching,
    inputs_come_with_an_archive_and_checksums,
    order_files_are_scored_beside_baselines,
    type_files_get_f1_a_confusion_matrix_and_baselines,
    an_admin_opens_an_ablation_variant_as_a_quiz,
);

/// Every GET endpoint of the OpenAPI document, for both panel tasks, after finished sessions
/// and uploads (private boards revealed): no response carries a comic's order groups, its
/// hidden display mapping or its type outside the dev split.
async fn no_endpoint_reveals_panel_gold(db: Db) {
    let app = app_with_comics(db).await;
    let gold = order_gold(&app, "t-order").await;
    let token = new_token(&app).await;
    let mut sessions = Vec::new();
    for slug in ["t-order", "t-type"] {
        let (_, s) = app
            .post(&format!("/api/quizzes/{slug}/sessions"), start_body(false))
            .await;
        let id = s["session_id"].as_str().unwrap().to_owned();
        for (k, item) in s["items"].as_array().unwrap().iter().enumerate() {
            let item_id = item["item_id"].as_str().unwrap();
            let answer = if slug == "t-order" {
                json!({"kind": "order", "order": right_order(&gold[item_id])})
            } else {
                json!({"kind": "structure", "structure": "narrative"})
            };
            let (status, _) = answer_to(&app, &id, item_id, answer, k).await;
            assert!(status.is_success());
        }
        sessions.push(id);
        let (_, template) = get_text(&app, &format!("/api/tasks/{slug}/template.jsonl")).await;
        let file: String = template
            .lines()
            .map(|l| {
                let mut v: Value = serde_json::from_str(l).unwrap();
                if slug == "t-order" {
                    v["order"] = json!("1,2");
                } else {
                    v["structure"] = json!("parallel");
                }
                v.to_string() + "\n"
            })
            .collect();
        let (status, body) = upload(&app, &token, slug, "Leaky", &file).await;
        assert_eq!(status, StatusCode::CREATED, "{body}");
        sessions.push(body["submission_id"].as_str().unwrap().to_owned());
        let reply = app
            .send_as(
                Method::POST,
                &format!("/api/admin/tasks/{slug}/board"),
                Some(ADMIN),
                Some("application/json"),
                r#"{"private_revealed": true}"#,
            )
            .await;
        assert_eq!(reply.status, StatusCode::OK);
    }
    let openapi: Value = serde_json::from_str(memeboard_server::routes::OPENAPI_JSON).unwrap();
    let mut checked = 0;
    for (path, ops) in openapi["paths"].as_object().unwrap() {
        if ops.get("get").is_none() || path.contains("{file}") {
            continue;
        }
        let paths = expand_route(
            path,
            &[
                ("{slug}", vec!["t-order".to_owned(), "t-type".to_owned()]),
                ("{id}", sessions.clone()),
            ],
        );
        for p in paths
            .iter()
            .chain([&"/api/boards/t-order?split=private".to_owned()])
        {
            if p.ends_with("dev-gold.jsonl") || p.ends_with("media.tar") {
                continue; // dev gold by design; the archive holds inputs and images only
            }
            let (_, body) = get_text(&app, p).await;
            checked += 1;
            for key in [
                "order_groups\"",
                "\"display\"",
                "\"gold_json",
                "ordering_dependency",
            ] {
                assert!(!body.contains(key), "GET {p} reveals {key}: {body}");
            }
            if p.contains("/results") {
                let v: Value = serde_json::from_str(&body).unwrap();
                for r in v["review"].as_array().into_iter().flatten() {
                    if r["gold_withheld"] == true {
                        let d = &r["detail"];
                        assert!(
                            d["correct"].is_null()
                                && d["reading_groups"].is_null()
                                && d["gold"].is_null(),
                            "{r}"
                        );
                        assert!(r["crowd_accuracy"].is_null(), "{r}");
                    }
                }
            }
        }
    }
    assert!(checked > 20, "{checked}");
}

async fn answer_to(
    app: &TestApp,
    session: &str,
    item: &str,
    answer: Value,
    k: usize,
) -> (StatusCode, Value) {
    self::answer(app, session, item, answer, &format!("k{k}")).await
}

on_both_databases!(no_endpoint_reveals_panel_gold);
