//! One prediction line per manifest item: what the per-item file readers (clips, comic
//! explanations, explanations, multi-panel answers) share: the item lookup, the duplicate
//! check naming an item's first line, and placing the lines' values at their manifest
//! positions.

use super::records::{FieldError, Record};
use super::{shorten, ItemIndex, TaskManifest};

/// The item lookup and the first line read for each item, so a second line for an item is
/// reported as a duplicate naming the first.
pub(super) struct OneLinePerItem<'m> {
    items: ItemIndex<'m>,
    /// First line of each item; 0 = none yet.
    first_line: Vec<usize>,
}

impl<'m> OneLinePerItem<'m> {
    /// No line read yet for any of `manifest`'s items.
    pub(super) fn new(manifest: &'m TaskManifest) -> Self {
        Self {
            items: ItemIndex::new(manifest),
            first_line: vec![0; manifest.items.len()],
        }
    }

    /// The line's manifest position and its id as written (the `item_id` errors first).
    pub(super) fn item<'r>(&mut self, r: &Record<'r>) -> Result<(usize, &'r str), FieldError> {
        let id = r.required_text("item_id")?;
        let i = self.items.find(id)?;
        Ok((i, id))
    }

    /// Records item `i`'s line, or the duplicate error naming its first line (checked after
    /// the line's other fields, so that their errors come first).
    pub(super) fn first(&mut self, i: usize, id: &str, line: usize) -> Result<(), FieldError> {
        if self.first_line[i] != 0 {
            return Err(FieldError::new(
                "item_id",
                crate::msg!(
                    "file.duplicate",
                    id = shorten(id.trim()),
                    first = self.first_line[i]
                ),
            ));
        }
        self.first_line[i] = line;
        Ok(())
    }
}

/// A valid file's lines at their manifest positions.
pub(super) struct ByItem<T> {
    /// Item ids in manifest order.
    pub(super) item_ids: Vec<String>,
    /// The value read for each item (`None` = no line for it).
    pub(super) values: Vec<Option<T>>,
    /// Items without a line.
    pub(super) missing: Vec<String>,
}

/// Puts the lines' values (`(manifest position, value)`) at their manifest positions and
/// names the items without one.
pub(super) fn by_item<T>(manifest: &TaskManifest, lines: Vec<(usize, T)>) -> ByItem<T> {
    let mut values: Vec<Option<T>> = std::iter::repeat_with(|| None)
        .take(manifest.items.len())
        .collect();
    for (i, value) in lines {
        values[i] = Some(value);
    }
    let missing = manifest
        .items
        .iter()
        .zip(&values)
        .filter(|(_, v)| v.is_none())
        .map(|(it, _)| it.id.clone())
        .collect();
    ByItem {
        item_ids: manifest.items.iter().map(|i| i.id.clone()).collect(),
        values,
        missing,
    }
}
