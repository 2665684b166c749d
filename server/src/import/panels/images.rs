//! The panel images: each read once and checked to be a PNG, JPEG or WebP image matching its
//! extension, with a readable size.

use super::MediaReader;
use std::sync::Arc;

/// A checked panel image.
#[derive(Debug, Clone)]
pub(super) struct PanelFile {
    /// File extension, as sniffed.
    pub(super) extension: &'static str,
    /// Content type it is served with.
    pub(super) content_type: &'static str,
    /// SHA-256 of the bytes (hex).
    pub(super) sha256: String,
    /// The image.
    pub(super) bytes: Arc<Vec<u8>>,
}

/// Reads a panel file and checks that it is a PNG, JPEG or WebP image matching its extension,
/// with a readable size.
pub(super) fn read_panel(name: &str, read_media: &MediaReader<'_>) -> Result<PanelFile, String> {
    let bytes = read_media(name).map_err(|e| format!("cannot read \"{name}\": {e}"))?;
    let extension = name
        .rsplit_once('.')
        .map(|(_, e)| e.to_ascii_lowercase())
        .unwrap_or_default();
    let (expected_ext, ext, content_type): (&[&str], &'static str, &'static str) =
        match sniff_image(&bytes) {
            Some("png") => (&["png"], "png", "image/png"),
            Some("jpg") => (&["jpg", "jpeg"], "jpg", "image/jpeg"),
            Some("webp") => (&["webp"], "webp", "image/webp"),
            Some(other) => {
                return Err(format!(
                    "\"{name}\" is a {} image, expected PNG, JPEG or WebP",
                    other.to_uppercase()
                ))
            }
            None => {
                return Err(format!(
            "\"{name}\" is not an image ({} bytes of another format), expected PNG, JPEG or WebP",
            bytes.len()
        ))
            }
        };
    if !expected_ext.contains(&extension.as_str()) {
        return Err(format!(
            "\"{name}\" holds a {} image but is named .{extension}, expected .{}",
            ext.to_uppercase(),
            expected_ext.join(" or .")
        ));
    }
    match imagesize::blob_size(&bytes) {
        Ok(size) if size.width > 0 && size.height > 0 => {
            crate::import::files::check_image_size(size.width, size.height)
                .map_err(|e| format!("\"{name}\" {e}"))?;
        }
        _ => {
            return Err(format!(
                "\"{name}\" is unreadable: its {} header is damaged or cut off",
                ext.to_uppercase()
            ))
        }
    }
    // PNG decodes here (the size is capped above); JPEG and WebP are checked by header only
    // (no decoder in the build).
    if ext == "png" {
        crate::import::files::check_png_decodes(&bytes).map_err(|e| format!("\"{name}\" {e}"))?;
    }
    Ok(PanelFile {
        extension: ext,
        content_type,
        sha256: crate::media::sha256_hex(&bytes),
        bytes: Arc::new(bytes),
    })
}

/// The image format by its magic bytes: the accepted three, or a common other one (named in
/// the error), or `None`.
fn sniff_image(bytes: &[u8]) -> Option<&'static str> {
    if bytes.starts_with(b"\x89PNG\r\n\x1a\n") {
        Some("png")
    } else if bytes.starts_with(&[0xff, 0xd8, 0xff]) {
        Some("jpg")
    } else if bytes.len() >= 12 && &bytes[..4] == b"RIFF" && &bytes[8..12] == b"WEBP" {
        Some("webp")
    } else if bytes.starts_with(b"GIF8") {
        Some("gif")
    } else if bytes.starts_with(b"BM") {
        Some("bmp")
    } else if bytes.starts_with(b"<svg") || bytes.starts_with(b"<?xml") {
        Some("svg")
    } else {
        None
    }
}
