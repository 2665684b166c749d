//! The panel demo is large enough to show every figure under the default settings (issue 32
//! §7): counted on the records the importer makes (splits and halves from `split_of`, the
//! typing and explanation tasks without the comics they withhold while the order task's test
//! gold is hidden).

use super::*;
use crate::draws::Key;
use crate::import_panels::parse_panels;
use crate::storage::ItemRecord;
use memeboard_core::kinds::panels::PANEL_BUCKETS;
use std::collections::{BTreeMap, BTreeSet};

/// Items per (category, split, board half).
fn counts<'a>(items: impl Iterator<Item = &'a ItemRecord>) -> BTreeMap<(String, String), usize> {
    let mut out = BTreeMap::new();
    for it in items {
        let half = if it.split == "dev" {
            "dev".to_owned()
        } else {
            it.board_half.clone()
        };
        *out.entry((it.category.clone(), half)).or_default() += 1;
    }
    out
}

/// The demo's tasks by slug suffix, as imported.
fn demo_tasks() -> BTreeMap<String, Vec<ItemRecord>> {
    let pngs = demo_panel_pngs().expect("the demo panels rasterise");
    let read = |name: &str| {
        pngs.get(name)
            .cloned()
            .ok_or_else(|| std::io::Error::new(std::io::ErrorKind::NotFound, "no such panel"))
    };
    let key = Key::from_hex(&"5a".repeat(32)).expect("a key");
    let spec = panel_demo_spec();
    let parsed = parse_panels(&spec, &key, "manifest", DEMO_PANELS_MANIFEST, &read)
        .unwrap_or_else(|e| panic!("{:?}", e.problems));
    parsed
        .tasks
        .into_iter()
        .map(|(task, items)| (task.slug[spec.slug.len() + 1..].to_owned(), items))
        .collect()
}

/// The structure type of a typing item's gold.
fn structure(item: &ItemRecord) -> String {
    let gold: serde_json::Value = serde_json::from_str(&item.gold_json).expect("gold JSON");
    gold["structure"].as_str().expect("a structure").to_owned()
}

/// The default smallest category a board publishes.
fn min_category_items() -> usize {
    crate::config::Settings::defaults()
        .expect("defaults")
        .leaderboard
        .min_category_items
}

/// Source ids of the comics whose order is test gold: the reading-order tasks withhold them
/// until the order task's test gold is revealed (`storage::reveals`).
fn order_test_sources(tasks: &BTreeMap<String, Vec<ItemRecord>>) -> BTreeSet<&str> {
    tasks["order"]
        .iter()
        .filter(|it| it.split == "test")
        .map(|it| it.source_id.as_str())
        .collect()
}

#[test]
fn every_bucket_fills_both_board_halves_of_every_panel_task() {
    let min = min_category_items();
    let tasks = demo_tasks();
    // The other tasks' boards count without the comics whose order is test gold.
    let hidden = order_test_sources(&tasks);
    for task in ["order", "type", "explain"] {
        let offered = tasks[task]
            .iter()
            .filter(|it| task == "order" || !hidden.contains(it.source_id.as_str()));
        let counts = counts(offered);
        for bucket in PANEL_BUCKETS {
            let n = |half: &str| {
                counts
                    .get(&(bucket.key.to_owned(), half.to_owned()))
                    .copied()
                    .unwrap_or(0)
            };
            for half in ["public", "private"] {
                assert!(
                    n(half) >= min,
                    "{task}: {} has {} test items on the {half} half",
                    bucket.key,
                    n(half)
                );
            }
            assert!(n("dev") >= 1, "{task}: {} has no dev item", bucket.key);
        }
    }
}

#[test]
fn the_typing_board_has_a_confusion_matrix_over_balanced_types() {
    let min = min_category_items();
    let tasks = demo_tasks();
    let hidden = order_test_sources(&tasks);
    let per_type = |withheld: bool| {
        let mut out: BTreeMap<(String, String), usize> = BTreeMap::new();
        for it in tasks["type"].iter().filter(|it| it.split == "test") {
            if withheld && hidden.contains(it.source_id.as_str()) {
                continue;
            }
            *out.entry((it.board_half.clone(), structure(it)))
                .or_default() += 1;
        }
        out
    };
    // The matrix is published for a half with at least `min` items (the private half once
    // revealed: `leaderboard::board::disclosure`); here, with the order gold hidden (the
    // demo's default) and revealed.
    for (withheld, types) in [
        (
            true,
            &["narrative", "conversational", "parallel", "comparison"][..],
        ),
        (
            false,
            &[
                "narrative",
                "progressive",
                "conversational",
                "parallel",
                "comparison",
            ][..],
        ),
    ] {
        let counts = per_type(withheld);
        for half in ["public", "private"] {
            let total: usize = counts
                .iter()
                .filter(|((h, _), _)| h == half)
                .map(|(_, n)| n)
                .sum();
            assert!(total >= min, "{half}: {total} typing items");
            // Balanced: every type a comic outside the order task can have (the order task
            // takes no `parallel` comic and every strong `progressive` one) holds at least
            // half of `min` items on each half.
            for t in types {
                let n = counts
                    .get(&(half.to_owned(), (*t).to_owned()))
                    .copied()
                    .unwrap_or(0);
                assert!(
                    n >= min / 2,
                    "{half}, order gold hidden: {withheld}: {t} {n}"
                );
            }
        }
    }
}
