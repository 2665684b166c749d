//! Attack 7: the explanation oracle. Scores of explanation uploads are cosines to hidden
//! reference meanings; exact per-upload feedback would let an author read one test item's
//! cosine (1.000 for its reference) by changing only that item. The attacker uploads a base
//! file of filler meanings and then files that replace one public-half test item's meaning
//! with its reference (the best candidate there is), each under a fresh model name so that
//! no Ladder holds the feedback back, and reads whether the published score moved — in the
//! upload response or in the probe's own row on the public board.

use super::seed::benchmark_of;
use super::{author_token, Attacker, Finding, Hidden};
use memeboard_core::disclosure::item_grid;
use memeboard_core::kinds::TaskKind;
use serde_json::{json, Value};

/// Authors the attack creates (each within the daily upload quota of 5: a base and four
/// probes).
const AUTHORS: [&str; 4] = ["Trudy", "Walter", "Oscar", "Peggy"];
/// What every item's meaning says in the base file.
const FILLER: &str = "A picture with some words on it.";

/// The attacks of this module.
pub async fn all(a: &Attacker<'_>) -> Vec<Finding> {
    vec![explanation_oracle(a).await]
}

/// Channel "explanation oracle: uploads give the exact cosine of a test item". Each probe's
/// published public-half score is compared with its author's base: a move says the changed
/// item's meaning was closer to the reference. Rounded to the half's grid, a change of one
/// item's cosine by at most 1 moves a score of `n` items across a grid line with chance at
/// most `1 / (n · grid)`: that is the chance line, and three binomial standard errors (plus
/// 0.05) the margin. Exact feedback would move on every probe.
async fn explanation_oracle(a: &Attacker<'_>) -> Finding {
    let slug = benchmark_of(TaskKind::Explanation);
    let hidden = Hidden::of(a.app, slug).await;
    let ids: Vec<String> = a
        .inputs(slug)
        .await
        .iter()
        .filter_map(|l| l["item_id"].as_str().map(str::to_owned))
        .collect();
    let mut probes = ids.iter().filter_map(|id| {
        let item = hidden.test_item(id).filter(|i| i.public_half)?;
        Some((id.clone(), item.gold["meaning"].as_str()?.to_owned()))
    });
    let file = |probe: Option<&(String, String)>| -> String {
        ids.iter()
            .map(|id| {
                let meaning = match probe {
                    Some((p, reference)) if p == id => reference.as_str(),
                    _ => FILLER,
                };
                json!({"item_id": id, "meaning": meaning}).to_string() + "\n"
            })
            .collect()
    };
    let (mut moved, mut trials, mut items) = (0usize, 0usize, 0usize);
    for (t, name) in AUTHORS.iter().enumerate() {
        let token = author_token(a.app, name).await;
        let (status, base) = a
            .upload(&token, slug, &format!("base{t}"), &file(None))
            .await;
        if !status.is_success() {
            break; // no embedding model here: nothing is scored, nothing to read
        }
        items = base["public_scores"][0]["items"].as_u64().unwrap_or(0) as usize;
        let base_row = board_row(a, slug, &format!("base{t}")).await;
        for j in 0..4 {
            let Some(probe) = probes.next() else { break };
            let model = format!("probe{t}x{j}");
            let (status, body) = a.upload(&token, slug, &model, &file(Some(&probe))).await;
            if !status.is_success() {
                break; // the quota: the attack stays within it
            }
            trials += 1;
            let row = board_row(a, slug, &model).await;
            moved += usize::from(scores(&body) != scores(&base) || row != base_row);
        }
    }
    let grid = item_grid(items, 1.0).unwrap_or(1.0);
    let chance = (1.0 / (items.max(1) as f64 * grid)).min(1.0);
    Finding {
        channel: "figures: explanation oracle",
        kind: TaskKind::Explanation,
        rate: moved as f64 / trials.max(1) as f64,
        chance,
        margin: 3.0 * (chance * (1.0 - chance) / trials.max(1) as f64).sqrt() + 0.05,
        trials,
    }
}

/// The published overall figure of a model's row on the public board (`Null` when absent).
async fn board_row(a: &Attacker<'_>, slug: &str, model: &str) -> Value {
    let (_, board) = a.get_json(&format!("/api/boards/{slug}")).await;
    board["rows"]
        .as_array()
        .and_then(|rows| rows.iter().find(|r| r["label"] == model))
        .map(|r| r["scores"][0]["estimate"].clone())
        .unwrap_or(Value::Null)
}

/// The published overall figure of an upload response (the categories' rows have grids of
/// their own, coarser still).
fn scores(body: &Value) -> Value {
    body["public_scores"][0]["estimate"].clone()
}
