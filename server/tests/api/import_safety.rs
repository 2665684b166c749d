//! Imports stay inside their media folder and within their caps: links out of it, a link to
//! `/dev/zero`, a FIFO, an image claiming 100000×100000 pixels, garbage named `.png`, a PNG
//! that does not decode and over-long text are each refused with the file, record and field
//! named, and nothing is stored. A re-import that would move hidden test items to the dev
//! split is refused unless the owner allows it.

use crate::helpers::{test_settings, Db, TestApp};
use crate::on_both_databases;
use memeboard_server::import::files::MediaFolder;
use memeboard_server::import::guard::TestToDev;
use memeboard_server::import::ImportError;
use memeboard_server::import_panels::{
    import_panels, import_panels_with, parse_panels, PanelsSpec,
};
use serde_json::json;
use std::path::Path;

use crate::helpers::blank_png as png;

/// A PNG signature and header claiming `width`×`height`, with no image data.
fn png_header(width: u32, height: u32) -> Vec<u8> {
    let mut b = b"\x89PNG\r\n\x1a\n\0\0\0\x0dIHDR".to_vec();
    b.extend_from_slice(&width.to_be_bytes());
    b.extend_from_slice(&height.to_be_bytes());
    b.extend_from_slice(&[8, 6, 0, 0, 0, 0, 0, 0, 0]);
    b
}

fn spec(dev_percent: u8) -> PanelsSpec {
    PanelsSpec {
        slug: "s".into(),
        title: "Safety".into(),
        description: "test".into(),
        batch_size: 4,
        dev_percent,
        quiz_open: true,
    }
}

/// `n` two-panel comics, panels `cK-1.png`, `cK-2.png` written into `dir`.
fn good_media(dir: &Path, n: u32) -> String {
    let mut lines = String::new();
    for k in 0..n {
        for p in 1..=2u32 {
            std::fs::write(dir.join(format!("c{k}-{p}.png")), png(20 + k, 20 + p)).unwrap();
        }
        let line = json!({
            "id": format!("c{k}"), "panels": [format!("c{k}-1.png"), format!("c{k}-2.png")],
            "type": "narrative", "ordering_dependency": "strong",
        });
        lines.push_str(&format!("{line}\n"));
    }
    lines
}

fn problems_of(spec: &PanelsSpec, dir: &Path, manifest: &str) -> Vec<String> {
    let folder = MediaFolder::open(dir).unwrap();
    let read = folder.image_reader();
    match parse_panels(spec, &crate::draws::test_key(), "m.jsonl", manifest, &read) {
        Err(ImportError { problems }) => problems,
        Ok(_) => Vec::new(),
    }
}

#[test]
fn hostile_media_and_text_are_refused_with_file_and_field() {
    let outside = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let good = good_media(dir.path(), 1);
    std::fs::write(outside.path().join("secret.png"), png(30, 30)).unwrap();
    std::os::unix::fs::symlink(
        outside.path().join("secret.png"),
        dir.path().join("out.png"),
    )
    .unwrap();
    std::os::unix::fs::symlink("/dev/zero", dir.path().join("zero.png")).unwrap();
    let fifo = std::process::Command::new("mkfifo")
        .arg(dir.path().join("pipe.png"))
        .status()
        .unwrap();
    assert!(fifo.success());
    std::fs::write(dir.path().join("bomb.png"), png_header(100_000, 100_000)).unwrap();
    std::fs::write(
        dir.path().join("garbage.png"),
        b"\x13\x37 not an image at all",
    )
    .unwrap();
    let mut cut = png(64, 64);
    cut.truncate(cut.len() / 2);
    std::fs::write(dir.path().join("cut.png"), cut).unwrap();

    let comic = |name: &str| {
        json!({"id": name, "panels": ["c0-1.png", name], "type": "narrative",
               "ordering_dependency": "strong"})
        .to_string()
            + "\n"
    };
    let cases = [
        ("out.png", "outside the media folder"),
        ("zero.png", "outside the media folder"),
        (
            "pipe.png",
            "is a FIFO (named pipe), expected a regular file",
        ),
        (
            "bomb.png",
            "100000×100000 pixels, expected at most 8192 on each side",
        ),
        ("garbage.png", "is not an image"),
        ("cut.png", "does not decode as PNG"),
    ];
    for (name, expected) in cases {
        let p = problems_of(&spec(10), dir.path(), &(good.clone() + &comic(name)));
        assert_eq!(p.len(), 1, "{name}: {p:?}");
        assert!(
            p[0].starts_with("m.jsonl line 2, field `panels[1]`") && p[0].contains(expected),
            "{name}: {p:?}"
        );
    }

    let long = "梗".repeat(5_001);
    let line = json!({"id": "c9", "panels": ["c0-1.png", "c0-2.png"], "type": "narrative",
                      "ordering_dependency": "strong",
                      "context": {"title": "ok", "comments": ["fine", long]}});
    let p = problems_of(&spec(10), dir.path(), &format!("{line}\n"));
    assert!(
        p.iter().any(
            |x| x.contains("m.jsonl line 1, field `context.comments[1]`")
                && x.contains("is 5001 characters long, expected at most 5000")
        ),
        "{p:?}"
    );
    let mut titled = spec(10);
    titled.title = "t".repeat(501);
    let p = problems_of(&titled, dir.path(), &good);
    assert_eq!(
        p,
        ["--title: is 501 characters long, expected at most 500"],
        "{p:?}"
    );
}

async fn a_refused_import_stores_nothing_and_test_items_stay_hidden(db: Db) {
    let (settings, tmp) = test_settings(db, false).await;
    let app = TestApp::with_settings(settings, tmp).await;
    let dir = tempfile::tempdir().unwrap();
    let good = good_media(dir.path(), 30);
    std::os::unix::fs::symlink("/dev/zero", dir.path().join("zero.png")).unwrap();
    let folder = MediaFolder::open(dir.path()).unwrap();
    let read = folder.image_reader();
    let hostile = good.clone()
        + &json!({"id": "z", "panels": ["c0-1.png", "zero.png"], "type": "narrative",
                  "ordering_dependency": "strong"})
        .to_string();
    let err = import_panels(app.storage(), &spec(10), "m.jsonl", &hostile, &read)
        .await
        .unwrap_err();
    assert!(err.to_string().contains("nothing was stored"), "{err}");
    for table in ["benchmarks", "tasks", "items", "media", "media_blobs"] {
        assert_eq!(app.count(table).await, 0, "{table}");
    }

    import_panels(app.storage(), &spec(10), "m.jsonl", &good, &read)
        .await
        .unwrap();
    let splits = || async {
        let task = app
            .storage()
            .find_board_task("s-type")
            .await
            .unwrap()
            .unwrap();
        app.storage()
            .task_items(&task.task.id)
            .await
            .unwrap()
            .into_iter()
            .map(|i| (i.id, i.split))
            .collect::<Vec<_>>()
    };
    let before = splits().await;
    let count = |s: &[(String, memeboard_core::predictions::Split)], want| {
        s.iter().filter(|(_, split)| *split == want).count()
    };
    let test_before = count(&before, memeboard_core::predictions::Split::Test);
    assert!(test_before > 0);
    // The same import again is fine; raising --dev-percent would publish test gold.
    import_panels(app.storage(), &spec(10), "m.jsonl", &good, &read)
        .await
        .unwrap();
    let err = import_panels(app.storage(), &spec(60), "m.jsonl", &good, &read)
        .await
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("would move") && err.contains("--allow-test-to-dev"),
        "{err}"
    );
    assert!(err.contains("in `s-type`"), "{err}");
    assert_eq!(splits().await, before, "nothing changed on refusal");
    // Only when the owner says so.
    import_panels_with(
        app.storage(),
        &spec(60),
        "m.jsonl",
        &good,
        &read,
        TestToDev::Allow,
    )
    .await
    .unwrap();
    let after = splits().await;
    assert!(count(&after, memeboard_core::predictions::Split::Test) < test_before);
}

on_both_databases!(a_refused_import_stores_nothing_and_test_items_stay_hidden);
