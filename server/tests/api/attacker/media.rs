//! Attack 2: match media across tasks. Every public task's inputs are read and every media
//! file they name is downloaded; a panel of the shuffled order task whose bytes (or length and
//! image size) match a panel of another task that shows the comic in reading order (the
//! canonical-display variants, the typing and explanation tasks) gives its display position
//! away, and with all panels of a comic, its reading order.

use super::draws::{display_rule_chance, finding, reads_in_order};
use super::seed::benchmark_of;
use super::{Attacker, Finding, Hidden};
use memeboard_core::ids::fnv1a64;
use memeboard_core::kinds::TaskKind;
use serde_json::Value;
use std::collections::{BTreeMap, HashMap};

/// The attacks of this module.
pub async fn all(a: &Attacker<'_>) -> Vec<Finding> {
    let files = public_media(a).await;
    vec![
        cross_task_media(a, &files, Key::Bytes).await,
        cross_task_media(a, &files, Key::Size).await,
    ]
}

/// What two files are matched by.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Key {
    /// Identical bytes.
    Bytes,
    /// Same length and the same image width and height.
    Size,
}

/// One served file of one item: task, item, position in the item's list of files.
#[derive(Debug, Clone)]
struct Served {
    slug: String,
    item: String,
    position: usize,
    bytes_key: (u64, usize),
    size_key: (usize, u32, u32),
}

/// Every media file named by every public task's inputs (fetched with an author token, as a
/// model would), in each item's order.
async fn public_media(a: &Attacker<'_>) -> Vec<Served> {
    let (_, tasks) = a.get_json("/api/tasks").await;
    let mut out = Vec::new();
    let mut cache: HashMap<String, Vec<u8>> = HashMap::new();
    for task in tasks.as_array().into_iter().flatten() {
        let slug = task["slug"].as_str().unwrap_or_default().to_owned();
        // The task's archive (inputs and every file, one request), as a model would fetch it.
        let (status, tar) = a
            .get_bytes(&format!("/api/tasks/{slug}/media.tar"), true)
            .await;
        if status.is_success() {
            for (name, bytes) in untar(&tar) {
                if let Some((_, file)) = name.split_once("/media/") {
                    cache.insert(format!("/media/{file}"), bytes);
                }
            }
        }
        for line in a.inputs(&slug).await {
            let item = line["item_id"].as_str().unwrap_or_default().to_owned();
            let mut urls = Vec::new();
            media_urls(&line, &mut urls);
            for (position, url) in urls.into_iter().enumerate() {
                if !cache.contains_key(&url) {
                    let (_, bytes) = a.get_bytes(&url, false).await;
                    cache.insert(url.clone(), bytes);
                }
                let bytes = &cache[&url];
                out.push(Served {
                    slug: slug.clone(),
                    item: item.clone(),
                    position,
                    bytes_key: (fnv1a64(bytes), bytes.len()),
                    size_key: (bytes.len(), be32(bytes, 16), be32(bytes, 20)),
                });
            }
        }
    }
    out
}

/// The files of a ustar archive, path → bytes.
fn untar(tar: &[u8]) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    let mut at = 0;
    while at + 512 <= tar.len() && tar[at] != 0 {
        let header = &tar[at..at + 512];
        let name: Vec<u8> = header[..100]
            .iter()
            .take_while(|&&b| b != 0)
            .copied()
            .collect();
        let size = std::str::from_utf8(&header[124..135])
            .ok()
            .and_then(|s| {
                usize::from_str_radix(s.trim_matches(|c: char| c == '\0' || c == ' '), 8).ok()
            })
            .unwrap_or(0);
        let end = (at + 512 + size).min(tar.len());
        out.push((
            String::from_utf8_lossy(&name).into_owned(),
            tar[at + 512..end].to_vec(),
        ));
        at += 512 + size.div_ceil(512) * 512;
    }
    out
}

/// A big-endian u32 at `at` (a PNG's width and height), 0 when the file is shorter.
fn be32(b: &[u8], at: usize) -> u32 {
    b.get(at..at + 4)
        .map_or(0, |s| u32::from_be_bytes([s[0], s[1], s[2], s[3]]))
}

/// Every `/media/…` URL in a JSON value, in document order.
fn media_urls(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::String(s) if s.starts_with("/media/") => out.push(s.clone()),
        Value::Array(items) => items.iter().for_each(|i| media_urls(i, out)),
        Value::Object(map) => map.values().for_each(|i| media_urls(i, out)),
        _ => {}
    }
}

/// Channel "panel order: the canonical-display variants serve the same image bytes as the
/// shuffled task (and closed variants still publish inputs and media)". For each test comic
/// of the main order task, another task's item holding all its panels in another arrangement
/// is taken to be the reading order.
async fn cross_task_media(a: &Attacker<'_>, files: &[Served], key: Key) -> Finding {
    let slug = benchmark_of(TaskKind::PanelOrder);
    let k = |s: &Served| match key {
        Key::Bytes => (s.bytes_key.0, s.bytes_key.1, 0u32),
        Key::Size => (s.size_key.0 as u64, s.size_key.1 as usize, s.size_key.2),
    };
    let mut index: HashMap<(u64, usize, u32), Vec<&Served>> = HashMap::new();
    for s in files.iter().filter(|s| s.slug != slug) {
        index.entry(k(s)).or_default().push(s);
    }
    let mut shown: BTreeMap<&str, Vec<&Served>> = BTreeMap::new();
    for s in files.iter().filter(|s| s.slug == slug) {
        shown.entry(s.item.as_str()).or_default().push(s);
    }
    let hidden = Hidden::of(a.app, slug).await;
    let (mut hits, mut trials, mut chance) = (0, 0, 0.0);
    for (id, panels) in shown {
        let Some(item) = hidden.test_item(id) else {
            continue;
        };
        trials += 1;
        chance += display_rule_chance(&item.gold);
        if let Some(order) = recovered_order(&panels, &index, k) {
            hits += usize::from(reads_in_order(&item.gold, &order));
        }
    }
    let channel = match key {
        Key::Bytes => "media: same bytes across tasks",
        Key::Size => "media: same length+size across tasks",
    };
    finding(channel, TaskKind::PanelOrder, hits, trials, chance)
}

/// The reading order (displayed numbers) implied by another task's item that holds every
/// panel of `panels` in an arrangement other than the display itself.
fn recovered_order(
    panels: &[&Served],
    index: &HashMap<(u64, usize, u32), Vec<&Served>>,
    k: impl Fn(&Served) -> (u64, usize, u32),
) -> Option<Vec<usize>> {
    let mut by_other: BTreeMap<(&str, &str), Vec<Option<usize>>> = BTreeMap::new();
    for (i, p) in panels.iter().enumerate() {
        for o in index.get(&k(p)).into_iter().flatten() {
            by_other
                .entry((o.slug.as_str(), o.item.as_str()))
                .or_insert_with(|| vec![None; panels.len()])[i] = Some(o.position);
        }
    }
    by_other.into_values().find_map(|positions| {
        let positions: Option<Vec<usize>> = positions.into_iter().collect();
        let positions = positions?;
        let identity = positions.iter().enumerate().all(|(i, &p)| i == p);
        if identity {
            return None; // the same shuffled display (a variant with comments)
        }
        let mut order: Vec<usize> = (1..=panels.len()).collect();
        order.sort_by_key(|&d| positions[d - 1]);
        Some(order)
    })
}
