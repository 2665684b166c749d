//! Attack 1: recompute every seeded draw from public data. The draws are reimplemented here
//! as core made them before issue 27 (SplitMix64 seeded by a constant XOR the FNV-1a hash of a
//! public id), so this keeps compiling and keeps attacking the old derivation whatever core's
//! signatures become: a sealed system keys its draws by a secret and these guesses fall to
//! chance.

use super::seed::{benchmark_of, comic_id, COMICS, PANELS};
use super::{Attacker, Finding, Hidden};
use memeboard_core::ids::fnv1a64;
use memeboard_core::kinds::TaskKind;
use memeboard_core::rng::SplitMix64;
use serde_json::Value;
use std::collections::HashMap;

/// The attacks of this module.
pub async fn all(a: &Attacker<'_>) -> Vec<Finding> {
    vec![fixed_panel_display(a).await, clip_option_order(a).await]
}

/// `stable_id` as core mints public ids: `prefix-` and the FNV-1a hash of the parts.
pub fn stable_id(prefix: &str, parts: &[&str]) -> String {
    format!("{prefix}-{:016x}", fnv1a64(parts.join("\u{1f}").as_bytes()))
}

/// The pre-issue-27 fixed display of a comic: seed 42 XOR the hash of its source id, shuffled
/// until it is not the reading order (the attacker does not know the groups and assumes
/// single panels).
fn old_display(source_id: &str, n: usize) -> Vec<usize> {
    let mut rng = SplitMix64::new(42 ^ fnv1a64(source_id.as_bytes()));
    let mut display: Vec<usize> = (1..=n).collect();
    let identity: Vec<usize> = (1..=n).collect();
    for _ in 0..64 {
        rng.shuffle(&mut display);
        if display != identity {
            break;
        }
    }
    display
}

/// The pre-issue-27 option order models saw: seed `"avmeme"` XOR the hash of the item id.
fn old_model_order(item_id: &str, n: usize) -> Vec<usize> {
    let mut order: Vec<usize> = (0..n).collect();
    SplitMix64::new(0x6176_6d65_6d65 ^ fnv1a64(item_id.as_bytes())).shuffle(&mut order);
    order
}

/// Whether `order` (displayed panel numbers, 1-based, in claimed reading order) reads the
/// comic right, judged with the stored gold's display mapping and order groups.
pub fn reads_in_order(gold: &Value, order: &[usize]) -> bool {
    let display: Vec<usize> = serde_json::from_value(gold["display"].clone()).unwrap_or_default();
    let groups: Vec<Vec<usize>> =
        serde_json::from_value(gold["order_groups"].clone()).unwrap_or_default();
    if order.len() != display.len() || order.iter().any(|&d| d == 0 || d > display.len()) {
        return false;
    }
    let canonical: Vec<usize> = order.iter().map(|&d| display[d - 1]).collect();
    let at = |c: usize| canonical.iter().position(|&x| x == c);
    let mut last = None;
    for group in &groups {
        let positions: Option<Vec<usize>> = group.iter().map(|&c| at(c)).collect();
        let Some(positions) = positions else {
            return false;
        };
        let (lo, hi) = (
            *positions.iter().min().unwrap_or(&0),
            *positions.iter().max().unwrap_or(&0),
        );
        if last.is_some_and(|l| lo <= l) {
            return false;
        }
        last = Some(hi);
    }
    true
}

/// The chance of a guess that knows only the display rule (a display is never a reading order)
/// reading right: with L = ∏|g|! reading orders among n! orders, and the display uniform over
/// the n! − L others, a guess other than the display is right with probability L / (n! − L).
/// A two-panel comic of two groups thus has chance 1: its display can only be the reverse.
pub fn display_rule_chance(gold: &Value) -> f64 {
    let groups: Vec<Vec<usize>> =
        serde_json::from_value(gold["order_groups"].clone()).unwrap_or_default();
    let fact = |k: usize| (1..=k).map(|x| x as f64).product::<f64>();
    let n: usize = groups.iter().map(Vec::len).sum();
    let valid = groups.iter().map(|g| fact(g.len())).product::<f64>();
    (valid / (fact(n) - valid)).min(1.0)
}

/// The reading order (displayed numbers) that a guessed display implies.
pub fn order_from_display(display: &[usize]) -> Vec<usize> {
    (1..=display.len())
        .filter_map(|c| display.iter().position(|&d| d == c).map(|p| p + 1))
        .collect()
}

/// Channel "panel order: the fixed display is seeded by 42 and a hash of the comic id, which
/// follows from the public item id". The attacker matches each public item id to a dataset
/// comic id, redraws the display, and answers with its inverse.
async fn fixed_panel_display(a: &Attacker<'_>) -> Finding {
    let slug = benchmark_of(TaskKind::PanelOrder);
    let suffix = slug.trim_start_matches(&format!("{PANELS}-"));
    let by_item: HashMap<String, String> = (0..COMICS)
        .map(|k| {
            let cid = comic_id(k);
            (
                stable_id("panel", &[PANELS, suffix, &cid]),
                stable_id("comic", &[PANELS, &cid]),
            )
        })
        .collect();
    let hidden = Hidden::of(a.app, slug).await;
    let (mut hits, mut trials, mut chance) = (0, 0, 0.0);
    for line in a.inputs(slug).await {
        let id = line["item_id"].as_str().unwrap_or_default();
        let n = line["panels"].as_array().map_or(0, Vec::len);
        let (Some(item), Some(source)) = (hidden.test_item(id), by_item.get(id)) else {
            continue;
        };
        let guess = order_from_display(&old_display(source, n));
        trials += 1;
        chance += display_rule_chance(&item.gold);
        hits += usize::from(reads_in_order(&item.gold, &guess));
    }
    finding(
        "draw: fixed panel display",
        TaskKind::PanelOrder,
        hits,
        trials,
        chance,
    )
}

/// Channel "clip MCQ: the canonical choice order follows from the public id, and the demo
/// lists the answer first". The attacker undoes the public-seed lettering of each item's
/// choices in inputs.jsonl and answers with the choice listed first.
async fn clip_option_order(a: &Attacker<'_>) -> Finding {
    let slug = benchmark_of(TaskKind::ClipMcq);
    let hidden = Hidden::of(a.app, slug).await;
    let (mut hits, mut trials, mut chance) = (0, 0, 0.0);
    for line in a.inputs(slug).await {
        let id = line["item_id"].as_str().unwrap_or_default();
        let Some(item) = hidden.test_item(id) else {
            continue;
        };
        let choices: Vec<String> = line["choices"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|c| c["text"].as_str().or(c.as_str()).map(str::to_owned))
            .collect();
        if choices.is_empty() {
            continue;
        }
        let order = old_model_order(id, choices.len());
        let first = order.iter().position(|&c| c == 0).unwrap_or(0);
        trials += 1;
        chance += 1.0 / choices.len() as f64;
        hits += usize::from(choices[first] == clip_answer(&item.prompt, &item.gold));
    }
    finding(
        "draw: clip model option order",
        TaskKind::ClipMcq,
        hits,
        trials,
        chance,
    )
}

/// The stored answer text of a clip item.
pub fn clip_answer(prompt: &Value, gold: &Value) -> String {
    let k = gold["correct"].as_u64().unwrap_or(u64::MAX) as usize;
    prompt["choices"][k].as_str().unwrap_or("\u{0}").to_owned()
}

/// A share-of-items finding with the mean chance and the standard margin.
pub fn finding(
    channel: &'static str,
    kind: TaskKind,
    hits: usize,
    trials: usize,
    chance_sum: f64,
) -> Finding {
    let n = trials.max(1) as f64;
    Finding {
        channel,
        kind,
        rate: hits as f64 / n,
        chance: chance_sum / n,
        margin: 0.15,
        trials,
    }
}
