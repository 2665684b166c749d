//! Tests of the demo clips: the manifest's checks and coverage, and (with the media tools)
//! the generated files' lengths and determinism.

use super::*;
use std::collections::BTreeMap;
use std::time::Instant;

/// Whether the media tests can run: they skip when a tool is missing, unless
/// `MEMEBOARD_REQUIRE_MEDIA_TOOLS=1` makes that a failure (CI with the packages).
fn tools_ready() -> bool {
    let missing = tools_missing();
    if missing.is_empty() {
        return true;
    }
    if std::env::var("MEMEBOARD_REQUIRE_MEDIA_TOOLS").as_deref() == Ok("1") {
        panic!("MEMEBOARD_REQUIRE_MEDIA_TOOLS=1 but {missing:?} not on PATH");
    }
    eprintln!("skipping demo clip media test: {missing:?} not on PATH (scripts/setup.sh)");
    false
}

#[test]
fn manifest_lines_are_complete_and_valid() {
    let clips = demo_clips().expect("manifest is valid");
    assert_eq!(
        clips.len(),
        DEMO_CLIPS_MANIFEST
            .lines()
            .filter(|l| !l.trim().is_empty())
            .count()
    );
    for line in DEMO_CLIPS_MANIFEST.lines() {
        let value: serde_json::Value = serde_json::from_str(line).expect("JSON line");
        let keys: Vec<&String> = value.as_object().expect("object").keys().collect();
        assert_eq!(keys.len(), MANIFEST_FIELDS.len(), "{line}");
    }
    for clip in &clips {
        assert!(clip.choices.contains(&clip.answer), "{}", clip.id);
        assert_eq!(Some(clip.id.as_str()), clip.file.split('.').next());
        assert!(
            clip.question.chars().count() <= 80,
            "{}: long question",
            clip.id
        );
    }
}

#[test]
fn manifest_rejects_bad_lines() {
    let good = DEMO_CLIPS_MANIFEST.lines().next().expect("a line");
    let missing_year = good.replace("\"year\": 2019, ", "");
    assert!(parse_manifest(&missing_year).is_err());
    let bad_answer = good.replace("\"answer\": \"难过\"", "\"answer\": \"悲伤\"");
    assert!(parse_manifest(&bad_answer).is_err());
    let old_year = good.replace("\"year\": 2019", "\"year\": 1839");
    assert!(
        parse_manifest(&old_year).is_err(),
        "the importer takes 1900–2100"
    );
    let bad_label = good.replace("\"sad\"", "\"melancholy\"");
    assert!(parse_manifest(&bad_label).is_err());
    assert!(parse_manifest(&format!("{good}\n{good}")).is_err());
}

#[test]
fn manifest_covers_the_quiz_design() {
    let clips = demo_clips().expect("manifest is valid");
    assert!(clips.len() >= 16);
    let count = |f: &dyn Fn(&DemoClip) -> bool| clips.iter().filter(|c| f(c)).count();
    for qt in QUESTION_TYPES {
        let n = count(&|c| c.question_type == qt);
        let least = if ["audio_analysis", "language_analysis", "emotion"].contains(&qt) {
            2
        } else {
            1
        };
        assert!(n >= least, "{qt}: {n} clips");
    }
    for language in LANGUAGES {
        let n = count(&|c| c.language.as_deref() == Some(language) && c.sound_type == "speech");
        assert!(n >= 3, "{language}: {n} speech clips");
    }
    assert!(count(&|c| c.language.is_none()) >= 4);
    for sound in SOUND_TYPES {
        assert!(count(&|c| c.sound_type == sound) >= 2, "{sound}");
    }
    assert!(count(&|c| c.is_video()) >= 4);
    assert!(count(&|c| c.file.ends_with(".mp4")) >= 1);
    assert!(count(&|c| c.file.ends_with(".webm")) >= 1);
    assert!(count(&|c| c.file.ends_with(".ogg")) >= 1);
    assert!(count(&|c| c.file.ends_with(".wav")) >= 1);
    assert!(count(&|c| c.visual_hint == "visual_contains_solution" && c.is_video()) >= 2);
    assert!(count(&|c| c.text_cheat) >= 3);
    assert!(count(&|c| !c.sensitivity.is_empty()) >= 2);
    let choice_counts: std::collections::BTreeSet<usize> =
        clips.iter().map(|c| c.choices.len()).collect();
    assert!(choice_counts.len() >= 2, "vary the number of choices");
}

/// Test items per (question type, board half) and dev items per question type among the clips
/// that `keep` keeps, with the split the importer gives each clip (`split_of` of its source id
/// under the demo's `dev_percent`).
type SplitCounts = (BTreeMap<(String, String), usize>, BTreeMap<String, usize>);
fn split_counts(keep: impl Fn(&DemoClip) -> bool) -> SplitCounts {
    let mut halves = BTreeMap::new();
    let mut dev = BTreeMap::new();
    for clip in demo_clips().expect("manifest is valid") {
        if !keep(&clip) {
            continue;
        }
        // As the importer makes them (import/clips.rs, `build_records`).
        let source_id = memeboard_core::ids::stable_id("clip", &[DEMO_SLUG, &clip.id]);
        match crate::import::split_of(&source_id, DEV_PERCENT) {
            ("dev", _) => *dev.entry(clip.question_type).or_default() += 1,
            (_, half) => {
                *halves
                    .entry((clip.question_type, half.to_owned()))
                    .or_default() += 1
            }
        }
    }
    (halves, dev)
}

/// Issue 32 §7: under the default `leaderboard.min_category_items` every question type has
/// enough test items on each board half for its column to show, on the full board and on
/// the `main` subset (without `text_cheat` clips) alike, and a dev item to preview.
#[test]
fn every_question_type_fills_both_board_halves() {
    let min = crate::config::Settings::defaults()
        .expect("default settings")
        .leaderboard
        .min_category_items;
    assert!(min >= 10, "the demo is sized for the default of 10");
    for (subset, keep) in [
        ("full", (|_| true) as fn(&DemoClip) -> bool),
        ("main", |c| !c.text_cheat),
    ] {
        let (halves, dev) = split_counts(keep);
        for qt in QUESTION_TYPES {
            for half in ["public", "private"] {
                let n = halves.get(&(qt.into(), half.into())).copied().unwrap_or(0);
                assert!(
                    n >= min,
                    "{subset}: {qt} has {n} test clips on the {half} half"
                );
            }
            assert!(dev.get(qt).copied().unwrap_or(0) >= 1, "{qt}: no dev clip");
        }
    }
}

/// The first twenty clips (relied on by the end-to-end tests and earlier sites) keep their
/// recipes in code; the data file holds exactly the later clips, each in the manifest.
#[test]
fn data_recipes_match_the_manifest() {
    let clips = demo_clips().expect("manifest is valid");
    let data = recipes::data_recipes().expect("recipes.txt reads");
    let ids: Vec<&str> = clips.iter().map(|c| c.id.as_str()).collect();
    for (id, recipe) in &data {
        assert!(
            ids.contains(id),
            "{id} in recipes.txt but not in the manifest"
        );
        assert!(!recipe.sound.is_empty(), "{id}: no sound");
    }
    for (n, clip) in clips.iter().enumerate() {
        let in_data = data.iter().any(|(id, _)| *id == clip.id);
        assert_eq!(in_data, n >= 20, "{}: recipe in the wrong place", clip.id);
    }
    assert_eq!(
        &ids[..20],
        &(1..=20).map(|n| format!("k{n:02}")).collect::<Vec<_>>()[..]
    );
}

#[test]
fn generated_clips_play_for_the_right_length() {
    if !tools_ready() {
        return;
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let start = Instant::now();
    let names = generate(dir.path()).expect("clips generated");
    let took = start.elapsed();
    let clips = demo_clips().expect("manifest is valid");
    assert_eq!(names.len(), clips.len());
    // One ffprobe a clip (as the importer runs it), two at a time.
    let paths: Vec<PathBuf> = clips.iter().map(|c| dir.path().join(&c.file)).collect();
    let probes: Vec<crate::import::clips::Probe> = std::thread::scope(|scope| {
        let halves: Vec<_> = paths
            .chunks(paths.len().div_ceil(2))
            .map(|chunk| {
                scope.spawn(|| {
                    chunk
                        .iter()
                        .map(|p| crate::import::clips::probe(p).expect("ffprobe reads it"))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        halves
            .into_iter()
            .flat_map(|h| h.join().expect("probe thread"))
            .collect()
    });
    let mut total = 0;
    let mut sizes = BTreeMap::new();
    for ((clip, path), probed) in clips.iter().zip(&paths).zip(&probes) {
        let bytes = std::fs::metadata(path).expect("clip exists").len();
        assert!(bytes > 0, "{} is empty", clip.file);
        total += bytes;
        let duration = f64::from(probed.duration_ms) / 1000.0;
        assert!(
            (1.0..=30.0).contains(&duration),
            "{}: {duration} s",
            clip.file
        );
        assert!(probed.audio, "{}: no sound", clip.file);
        assert_eq!(probed.video, clip.is_video(), "{}: video?", clip.file);
        sizes.insert(clip.file.clone(), (bytes, duration));
    }
    let leftovers: Vec<String> = std::fs::read_dir(dir.path())
        .expect("read dir")
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with('.'))
        .collect();
    assert!(leftovers.is_empty(), "temporary files left: {leftovers:?}");
    for (file, (bytes, duration)) in &sizes {
        eprintln!("demo clip {file}: {bytes} bytes, {duration:.2} s");
    }
    eprintln!(
        "demo clips: {} files, {total} bytes ({} bytes per clip), generated in {:.2} s",
        sizes.len(),
        total / sizes.len() as u64,
        took.as_secs_f64()
    );

    // A second run keeps every file as it is.
    let before: Vec<(std::time::SystemTime, Vec<u8>)> = names
        .iter()
        .map(|n| {
            let p = dir.path().join(n);
            let modified = std::fs::metadata(&p)
                .and_then(|m| m.modified())
                .expect("mtime");
            (modified, std::fs::read(&p).expect("read"))
        })
        .collect();
    let start = Instant::now();
    assert_eq!(generate(dir.path()).expect("second run"), names);
    eprintln!(
        "demo clips: second run {:.3} s",
        start.elapsed().as_secs_f64()
    );
    for (n, (modified, bytes)) in names.iter().zip(&before) {
        let p = dir.path().join(n);
        let now = std::fs::metadata(&p)
            .and_then(|m| m.modified())
            .expect("mtime");
        assert_eq!(&now, modified, "{n} rewritten");
        assert_eq!(&std::fs::read(&p).expect("read"), bytes, "{n} changed");
    }

    // A missing file is made again, identical to the first one (deterministic tools).
    let first = dir.path().join(&names[0]);
    std::fs::remove_file(&first).expect("remove");
    generate(dir.path()).expect("third run");
    assert_eq!(std::fs::read(&first).expect("read"), before[0].1);

    // Another folder gets byte-identical clips (one test, so that the suite makes the whole
    // set twice rather than three times).
    let other = tempfile::tempdir().expect("temp dir");
    generate(other.path()).expect("another folder");
    let differing: Vec<&String> = names
        .iter()
        .zip(&before)
        .filter(|(n, (_, bytes))| std::fs::read(other.path().join(n)).ok().as_ref() != Some(bytes))
        .map(|(n, _)| n)
        .collect();
    assert!(
        differing.is_empty(),
        "not byte-identical across runs: {differing:?}"
    );

    // To listen to the clips: MEMEBOARD_DEMO_CLIPS_OUT=<folder> keeps a copy.
    if let Some(out) = std::env::var_os("MEMEBOARD_DEMO_CLIPS_OUT") {
        generate(Path::new(&out)).expect("clips kept");
    }
}
