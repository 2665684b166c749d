//! The clip files: each checked with `ffprobe` (decodable, an audio stream, a video stream for
//! video formats, 1–30 s long) and read, video tracks stripped where the picture gives the
//! answer away.

use super::{Clip, AUDIO, DURATION_MS, VIDEO};
use memeboard_core::kinds::clip_mcq::{MediaKind, VisualHint};
use serde_json::Value;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;

/// What `ffprobe` says about a file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Probe {
    /// Length in milliseconds.
    pub duration_ms: u32,
    /// Has a video stream (cover art in audio files does not count).
    pub video: bool,
    /// Has an audio stream.
    pub audio: bool,
}

/// Runs `ffprobe` on a file; the error says why it cannot be read as media.
pub fn probe(path: &Path) -> Result<Probe, String> {
    let out = Command::new("ffprobe")
        .args([
            "-v",
            "error",
            "-show_entries",
            "format=duration:stream=codec_type:stream_disposition=attached_pic",
            "-of",
            "json",
        ])
        .arg(path)
        .output()
        .map_err(|e| format!("cannot run ffprobe ({e}); install ffmpeg (scripts/setup.sh does)"))?;
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        let last = err
            .lines()
            .last()
            .unwrap_or("unknown error")
            .trim()
            .to_owned();
        return Err(format!("not decodable media ({last})"));
    }
    let v: Value = serde_json::from_slice(&out.stdout)
        .map_err(|e| format!("unreadable ffprobe output: {e}"))?;
    let duration = v["format"]["duration"]
        .as_str()
        .and_then(|d| d.parse::<f64>().ok())
        .ok_or("no duration (not decodable media)")?;
    let streams = v["streams"].as_array().cloned().unwrap_or_default();
    let has = |kind: &str| {
        streams.iter().any(|s| {
            s["codec_type"] == kind && s["disposition"]["attached_pic"].as_i64().unwrap_or(0) == 0
        })
    };
    Ok(Probe {
        duration_ms: (duration * 1000.0).round().clamp(0.0, f64::from(u32::MAX)) as u32,
        video: has("video"),
        audio: has("audio"),
    })
}

/// Copies the sound of a video into an audio-only file (`-vn -c:a copy`: the sound is not
/// re-encoded): webm stays webm, mp4 becomes m4a. Returns the bytes and the extension.
pub fn strip_video(path: &Path, extension: &str) -> Result<(Vec<u8>, &'static str), String> {
    let (ext, format) = match extension {
        "mp4" => ("m4a", "mp4"),
        _ => ("webm", "webm"),
    };
    static COUNTER: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let out: PathBuf =
        std::env::temp_dir().join(format!("memeboard-audio-{}-{n}.{ext}", std::process::id()));
    let status = Command::new("ffmpeg")
        .args(["-v", "error", "-y", "-i"])
        .arg(path)
        .args([
            "-vn",
            "-c:a",
            "copy",
            "-map_metadata",
            "-1",
            "-fflags",
            "+bitexact",
            "-f",
            format,
        ])
        .arg(&out)
        .output()
        .map_err(|e| format!("cannot run ffmpeg ({e}); install ffmpeg (scripts/setup.sh does)"))?;
    if !status.status.success() {
        let err = String::from_utf8_lossy(&status.stderr);
        return Err(format!(
            "ffmpeg could not take the sound out of it: {}",
            err.lines().last().unwrap_or("unknown error")
        ));
    }
    let bytes = std::fs::read(&out).map_err(|e| format!("reading the audio-only copy: {e}"));
    let _ = std::fs::remove_file(&out);
    Ok((bytes?, ext))
}

/// At most this many `ffprobe` runs at once.
const MAX_PROBES: usize = 4;

/// [`probe`] of every checked path (`None` where the path was refused), on up to
/// [`MAX_PROBES`] threads (no more than the machine's cores): one run takes about 0.1 s, most
/// of it ffprobe's start-up, and a manifest may name hundreds of clips.
fn probe_all(paths: &[Result<PathBuf, String>]) -> Vec<Option<Result<Probe, String>>> {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let workers = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .clamp(1, MAX_PROBES);
    let next = AtomicUsize::new(0);
    let work = || {
        let mut done = Vec::new();
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            let Some(path) = paths.get(i) else {
                return done;
            };
            if let Ok(path) = path {
                done.push((i, probe(path)));
            }
        }
    };
    let mut probes: Vec<Option<Result<Probe, String>>> = vec![None; paths.len()];
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..workers).map(|_| scope.spawn(work)).collect();
        for handle in handles {
            // A worker that panicked leaves its paths to be probed again, one by one.
            for (i, probed) in handle.join().unwrap_or_default() {
                probes[i] = Some(probed);
            }
        }
    });
    probes
}

/// The stored bytes of each clip (by clip id): bytes, extension, media kind and length in
/// milliseconds. Every problem with a file is added to `problems`.
pub(super) fn clip_files(
    manifest_name: &str,
    media_dir: &Path,
    clips: &[Clip],
    problems: &mut Vec<String>,
) -> HashMap<String, (Vec<u8>, &'static str, MediaKind, u32)> {
    // The files, once every line is known good or reported; only regular files inside the
    // media folder (import/files.rs).
    let folder = crate::import::files::MediaFolder::open(media_dir);
    let checked: Vec<Result<PathBuf, String>> = clips
        .iter()
        .map(|clip| match &folder {
            Ok(folder) => folder.checked_path(&clip.file, crate::import::files::MAX_CLIP_BYTES),
            Err(e) => Err(e.clone()),
        })
        .collect();
    let mut probes = probe_all(&checked).into_iter();
    let mut files: HashMap<String, (Vec<u8>, &'static str, MediaKind, u32)> = HashMap::new();
    for (clip, checked) in clips.iter().zip(checked) {
        let probed = probes.next().flatten();
        let at = format!(
            "{manifest_name} line {}, field `{}`",
            clip.line, clip.file_field
        );
        let path = match checked {
            Ok(path) => path,
            Err(e) => {
                problems.push(format!("{at}: {e}"));
                continue;
            }
        };
        let ext = clip
            .file
            .rsplit_once('.')
            .map(|(_, e)| e.to_ascii_lowercase())
            .unwrap_or_default();
        let probed = match probed.unwrap_or_else(|| probe(&path)) {
            Ok(p) => p,
            Err(e) => {
                problems.push(format!("{at}: \"{}\": {e}", clip.file));
                continue;
            }
        };
        if !DURATION_MS.contains(&probed.duration_ms) {
            problems.push(format!(
                "{at}: \"{}\" lasts {:.1} s, expected 1 to 30 s",
                clip.file,
                f64::from(probed.duration_ms) / 1000.0
            ));
            continue;
        }
        if !probed.audio {
            problems.push(format!(
                "{at}: \"{}\" has no sound track, expected audio",
                clip.file
            ));
            continue;
        }
        let is_video = VIDEO.contains(&ext.as_str());
        if is_video && !probed.video {
            problems.push(format!(
                "{at}: \"{}\" is a .{ext} without pictures, expected a video stream",
                clip.file
            ));
            continue;
        }
        let audio_only = is_video && clip.visual_hint == VisualHint::VisualContainsSolution;
        let stored = if audio_only {
            strip_video(&path, &ext).map(|(b, e)| (b, e, MediaKind::Audio))
        } else {
            crate::import::files::read_bounded(&path, crate::import::files::MAX_CLIP_BYTES).map(
                |b| {
                    (
                        b,
                        ext_static(&ext),
                        if is_video {
                            MediaKind::Video
                        } else {
                            MediaKind::Audio
                        },
                    )
                },
            )
        };
        match stored {
            Ok((bytes, ext, kind)) => {
                files.insert(clip.id.clone(), (bytes, ext, kind, probed.duration_ms));
            }
            Err(e) => problems.push(format!("{at}: \"{}\": {e}", clip.file)),
        }
    }
    files
}

fn ext_static(ext: &str) -> &'static str {
    AUDIO
        .iter()
        .chain(VIDEO)
        .find(|e| **e == ext)
        .copied()
        .unwrap_or("bin")
}
