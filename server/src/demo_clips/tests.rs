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

fn probe(args: &[&str], file: &Path) -> String {
    let output = Command::new("ffprobe")
        .args(["-v", "error"])
        .args(args)
        .arg(file)
        .output()
        .expect("ffprobe runs");
    assert!(output.status.success(), "ffprobe {}", file.display());
    String::from_utf8_lossy(&output.stdout).trim().to_string()
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
    let mut total = 0;
    let mut sizes = BTreeMap::new();
    for clip in &clips {
        let path = dir.path().join(&clip.file);
        let bytes = std::fs::metadata(&path).expect("clip exists").len();
        assert!(bytes > 0, "{} is empty", clip.file);
        total += bytes;
        let duration: f64 = probe(
            &["-show_entries", "format=duration", "-of", "csv=p=0"],
            &path,
        )
        .parse()
        .expect("duration");
        assert!(
            (1.0..=30.0).contains(&duration),
            "{}: {duration} s",
            clip.file
        );
        let streams = probe(
            &["-show_entries", "stream=codec_type", "-of", "csv=p=0"],
            &path,
        );
        let kinds: Vec<&str> = streams.lines().collect();
        assert!(kinds.contains(&"audio"), "{}: {kinds:?}", clip.file);
        assert_eq!(
            kinds.contains(&"video"),
            clip.is_video(),
            "{}: {kinds:?}",
            clip.file
        );
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

    // To listen to the clips: MEMEBOARD_DEMO_CLIPS_OUT=<folder> keeps a copy.
    if let Some(out) = std::env::var_os("MEMEBOARD_DEMO_CLIPS_OUT") {
        generate(Path::new(&out)).expect("clips kept");
    }
}

#[test]
fn generation_is_deterministic() {
    if !tools_ready() {
        return;
    }
    let a = tempfile::tempdir().expect("temp dir");
    let b = tempfile::tempdir().expect("temp dir");
    let names = generate(a.path()).expect("first");
    generate(b.path()).expect("second");
    let differing: Vec<&String> = names
        .iter()
        .filter(|n| std::fs::read(a.path().join(n)).ok() != std::fs::read(b.path().join(n)).ok())
        .collect();
    assert!(
        differing.is_empty(),
        "not byte-identical across runs: {differing:?}"
    );
}
