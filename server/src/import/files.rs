//! Reading the media files an import manifest names, without leaving the media folder: only
//! regular files inside it (after following links), each under a size cap, read with a bound;
//! and the caps on images and imported text that keep a manifest from storing (and
//! publishing) what it should not.
//!
//! A link is followed only when its target is inside the folder: a link to `/etc/passwd`,
//! to another folder or to `/dev/zero` is refused, as are FIFOs (which would hang the reader),
//! devices, sockets and folders, before anything is opened. The read is bounded too, so a
//! file that changes under the importer cannot make it read without end.

use std::io::Read;
use std::path::{Path, PathBuf};

/// Largest panel image file (bytes).
pub const MAX_IMAGE_BYTES: u64 = 10 * 1024 * 1024;
/// Largest clip file (bytes): 30 s of video at a generous bit rate.
pub const MAX_CLIP_BYTES: u64 = 64 * 1024 * 1024;
/// Longest side of a panel image (pixels).
pub const MAX_IMAGE_SIDE: usize = 8_192;
/// Most pixels in a panel image (16 megapixels: 64 MiB decoded as RGBA).
pub const MAX_IMAGE_PIXELS: usize = 16 * 1024 * 1024;

/// Longest imported title or question (characters).
pub const MAX_TITLE_CHARS: usize = 500;
/// Longest imported free text: a meaning, context, comment, summary or choice (characters).
pub const MAX_TEXT_CHARS: usize = 5_000;

/// Whether a manifest's file name stays inside the media folder: relative, no `..`, no
/// empty or `.` parts, no backslashes.
pub fn is_safe_relative(name: &str) -> bool {
    !name.is_empty()
        && !name.starts_with('/')
        && !name.contains('\\')
        && name
            .split('/')
            .all(|p| !p.is_empty() && p != "." && p != "..")
}

/// A problem when the benchmark title (`--title`) is longer than
/// [`MAX_TITLE_CHARS`].
pub fn title_problem(title: &str, problems: &mut Vec<String>) {
    if let Err(e) = check_length(title, MAX_TITLE_CHARS) {
        problems.push(format!("--title: {e}"));
    }
}

/// A media folder, resolved once.
#[derive(Debug, Clone)]
pub struct MediaFolder {
    root: PathBuf,
}

impl MediaFolder {
    /// The folder at `dir` (resolved: links in its own path are fine).
    pub fn open(dir: &Path) -> Result<Self, String> {
        let root = dir.canonicalize().map_err(|e| {
            format!(
                "--media {}: cannot open the folder ({e}); expected the folder holding the media",
                dir.display()
            )
        })?;
        if !root.is_dir() {
            return Err(format!(
                "--media {}: not a folder (expected the folder holding the media)",
                dir.display()
            ));
        }
        Ok(Self { root })
    }

    /// The resolved path of `name`, checked: inside the folder after following links, a
    /// regular file, at most `max_bytes` long. The error says which and what was expected.
    pub fn checked_path(&self, name: &str, max_bytes: u64) -> Result<PathBuf, String> {
        if !is_safe_relative(name) {
            return Err(format!(
                "\"{name}\": expected a relative file name inside the media folder"
            ));
        }
        let joined = self.root.join(name);
        if std::fs::symlink_metadata(&joined).is_err() {
            return Err(format!(
                "\"{name}\" does not exist in {}",
                self.root.display()
            ));
        }
        let resolved = joined.canonicalize().map_err(|e| {
            format!("\"{name}\" cannot be resolved ({e}); expected a file inside the media folder")
        })?;
        if !resolved.starts_with(&self.root) {
            return Err(format!(
                "\"{name}\" is a link to {}, outside the media folder; expected a file inside it",
                resolved.display()
            ));
        }
        let meta =
            std::fs::metadata(&resolved).map_err(|e| format!("\"{name}\" cannot be read ({e})"))?;
        if !meta.is_file() {
            return Err(format!(
                "\"{name}\" is {}, expected a regular file",
                kind_of(&meta)
            ));
        }
        if meta.len() > max_bytes {
            return Err(format!(
                "\"{name}\" is {} bytes, more than the limit of {max_bytes} bytes",
                meta.len()
            ));
        }
        Ok(resolved)
    }

    /// The bytes of `name` (see [`Self::checked_path`]), reading at most `max_bytes`.
    pub fn read(&self, name: &str, max_bytes: u64) -> Result<Vec<u8>, String> {
        let path = self.checked_path(name, max_bytes)?;
        read_bounded(&path, max_bytes).map_err(|e| format!("\"{name}\": {e}"))
    }

    /// A reader for `import_panels` (panel images, [`MAX_IMAGE_BYTES`] each).
    pub fn image_reader(&self) -> impl Fn(&str) -> std::io::Result<Vec<u8>> + Sync + '_ {
        move |name: &str| {
            self.read(name, MAX_IMAGE_BYTES)
                .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidInput, e))
        }
    }
}

/// The contents of a regular file at `path`, refused past `max_bytes` (read at most one more).
pub fn read_bounded(path: &Path, max_bytes: u64) -> Result<Vec<u8>, String> {
    let file = std::fs::File::open(path).map_err(|e| format!("cannot open ({e})"))?;
    let meta = file.metadata().map_err(|e| format!("cannot read ({e})"))?;
    if !meta.is_file() {
        return Err(format!("is {}, expected a regular file", kind_of(&meta)));
    }
    let mut bytes = Vec::new();
    file.take(max_bytes + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read ({e})"))?;
    if bytes.len() as u64 > max_bytes {
        return Err(format!("is more than the limit of {max_bytes} bytes"));
    }
    Ok(bytes)
}

/// What a non-regular file is, in words.
fn kind_of(meta: &std::fs::Metadata) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    let t = meta.file_type();
    if t.is_dir() {
        "a folder"
    } else if t.is_fifo() {
        "a FIFO (named pipe)"
    } else if t.is_char_device() || t.is_block_device() {
        "a device"
    } else if t.is_socket() {
        "a socket"
    } else {
        "not a regular file"
    }
}

/// Checks an image's declared size against [`MAX_IMAGE_SIDE`] and [`MAX_IMAGE_PIXELS`].
pub fn check_image_size(width: usize, height: usize) -> Result<(), String> {
    if width > MAX_IMAGE_SIDE || height > MAX_IMAGE_SIDE {
        return Err(format!(
            "is {width}×{height} pixels, expected at most {MAX_IMAGE_SIDE} on each side"
        ));
    }
    if width.saturating_mul(height) > MAX_IMAGE_PIXELS {
        return Err(format!(
            "is {width}×{height} pixels, expected at most {MAX_IMAGE_PIXELS} pixels in all"
        ));
    }
    Ok(())
}

/// Checks that a PNG decodes whole (after its size was checked): a damaged or truncated
/// stream, or one whose data does not match its header, is refused.
pub fn check_png_decodes(bytes: &[u8]) -> Result<(), String> {
    resvg::tiny_skia::Pixmap::decode_png(bytes)
        .map(|_| ())
        .map_err(|e| format!("does not decode as PNG ({e})"))
}

/// `Err` naming the limit when `text` is longer than `max` characters.
pub fn check_length(text: &str, max: usize) -> Result<(), String> {
    let n = text.chars().count();
    if n > max {
        Err(format!("is {n} characters long, expected at most {max}"))
    } else {
        Ok(())
    }
}

/// Reports every text in a manifest record (in nested arrays and objects too) longer than
/// [`MAX_TEXT_CHARS`], naming the field (`options[2]`, `context.zh`).
pub fn long_texts(
    obj: &serde_json::Map<String, serde_json::Value>,
    at: &dyn Fn(&str) -> String,
    problems: &mut Vec<String>,
) {
    fn walk(
        v: &serde_json::Value,
        path: &str,
        at: &dyn Fn(&str) -> String,
        problems: &mut Vec<String>,
    ) {
        use serde_json::Value;
        match v {
            Value::String(s) => {
                if let Err(e) = check_length(s, MAX_TEXT_CHARS) {
                    problems.push(format!("{}: {e}", at(path)));
                }
            }
            Value::Array(items) => {
                for (i, item) in items.iter().enumerate() {
                    walk(item, &format!("{path}[{i}]"), at, problems);
                }
            }
            Value::Object(fields) => {
                for (k, item) in fields {
                    walk(item, &format!("{path}.{k}"), at, problems);
                }
            }
            _ => {}
        }
    }
    for (k, v) in obj {
        walk(v, k, at, problems);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_out_devices_and_fifos_are_refused_before_reading() {
        let outside = tempfile::tempdir().expect("tempdir");
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::write(outside.path().join("secret.png"), b"secret").expect("write");
        std::fs::write(dir.path().join("ok.png"), b"fine").expect("write");
        std::fs::create_dir(dir.path().join("sub")).expect("mkdir");
        let link = |target: &Path, name: &str| {
            std::os::unix::fs::symlink(target, dir.path().join(name)).expect("symlink")
        };
        link(&outside.path().join("secret.png"), "out.png");
        link(Path::new("/dev/zero"), "zero.png");
        link(&dir.path().join("ok.png"), "inside.png");
        let fifo = std::process::Command::new("mkfifo")
            .arg(dir.path().join("pipe.png"))
            .status()
            .expect("mkfifo");
        assert!(fifo.success());
        std::fs::write(dir.path().join("big.png"), vec![0u8; 2048]).expect("write");

        let folder = MediaFolder::open(dir.path()).expect("folder");
        assert_eq!(folder.read("ok.png", 100).expect("ok"), b"fine");
        assert_eq!(folder.read("inside.png", 100).expect("inside"), b"fine");
        let err = |name: &str| folder.read(name, 1024).expect_err(name);
        assert!(
            err("out.png").contains("outside the media folder"),
            "{}",
            err("out.png")
        );
        assert!(
            err("zero.png").contains("outside the media folder"),
            "{}",
            err("zero.png")
        );
        assert!(err("pipe.png").contains("FIFO"), "{}", err("pipe.png"));
        assert!(err("sub").contains("a folder"), "{}", err("sub"));
        assert!(
            err("big.png").contains("limit of 1024 bytes"),
            "{}",
            err("big.png")
        );
        assert!(
            err("missing.png").contains("does not exist"),
            "{}",
            err("missing.png")
        );
        assert!(err("../x.png").contains("inside the media folder"));
    }

    #[test]
    fn image_and_text_caps_name_the_limit() {
        assert!(check_image_size(320, 320).is_ok());
        assert!(check_image_size(100_000, 100_000)
            .expect_err("huge")
            .contains("at most 8192 on each side"));
        assert!(check_image_size(8_000, 8_000)
            .expect_err("too many pixels")
            .contains("pixels in all"));
        assert!(check_length("short", 10).is_ok());
        assert_eq!(
            check_length("elevenchars", 10),
            Err("is 11 characters long, expected at most 10".into())
        );
    }
}
