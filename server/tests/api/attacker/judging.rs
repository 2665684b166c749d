//! Attack 6: checks that only work while raters cannot see them. The attacker passes headphone
//! checks without hearing them, tells planted quality-check pages from real ones with the pages of its own
//! rating sessions alone, and looks for a model's identity on ranking pages.

use super::seed::{benchmark_of, MODEL_MARK};
use super::{Attacker, Finding, Hidden};
use memeboard_core::kinds::TaskKind;
use serde_json::{json, Value};
use std::collections::HashMap;

/// The attacks of this module (`invite`: the study's rater link, which the attacker holds).
pub async fn all(a: &Attacker<'_>, invite: &str) -> Vec<Finding> {
    // The ranking pages the attacker's rater sessions show (both attacks read them).
    let ranked = pages(a, benchmark_of(TaskKind::Ranking), invite).await;
    vec![
        headphone_claim(a).await,
        planted_checks(a, invite, &ranked).await,
        ranking_identity(a, &ranked).await,
    ]
}

/// Checks the headphone attack plays.
const HEADPHONE_CHECKS: usize = 40;

/// Channel "the headphone check is scored by the page (`?e2e_headphones=1` shows the
/// answers)": the attacker draws checks and starts sessions without hearing anything, from
/// what the page has: the check's id and trial count, the sound files' sizes and headers, and
/// a second try with other answers on a check already answered (a probe of its key). Recovered
/// when a stored session counts as having passed; chance is passing by guessing (at least 5
/// of 6 three-way trials right: 13/729), with a margin of four binomial standard errors.
async fn headphone_claim(a: &Attacker<'_>) -> Finding {
    let slug = benchmark_of(TaskKind::ClipMcq);
    let task = a.app.board_task(slug).await;
    let mut rng = memeboard_core::rng::SplitMix64::new(729);
    let (mut passed, mut trials) = (0usize, 0usize);
    for _ in 0..HEADPHONE_CHECKS {
        let (status, check) = a
            .app
            .post(&format!("/api/quizzes/{slug}/headphone-checks"), json!({}))
            .await;
        if !status.is_success() {
            break;
        }
        let id = check["id"].as_str().unwrap_or_default().to_owned();
        // The page's view of each trial: the WAV bytes' length (a tone order that changed the
        // file's size would tell the quiet tone's place).
        let mut sizes = Vec::new();
        for trial in 1..=6u8 {
            let (_, bytes) = super::raw(
                a.app,
                axum::http::Method::GET,
                &format!("/api/headphone-checks/{id}/sounds/{trial}"),
                None,
                Vec::new(),
            )
            .await;
            sizes.push(bytes.len());
        }
        let answers: Vec<u8> = sizes
            .iter()
            .map(|n| {
                if sizes.iter().all(|m| m == n) {
                    rng.below(3) as u8
                } else {
                    0
                }
            })
            .collect();
        let claim = json!({"headphone_check": {"id": id, "answers": answers}});
        let (status, session) = a.start(slug, claim).await;
        // A probe: other answers on the same check (refused when the key cannot be probed).
        let other: Vec<u8> = answers.iter().map(|x| (x + 1) % 3).collect();
        let (probe, _) = a
            .start(
                slug,
                json!({"headphone_check": {"id": id, "answers": other}}),
            )
            .await;
        trials += 1;
        let mut any = false;
        if status.is_success() {
            let sid = session["session_id"].as_str().unwrap_or_default();
            any |= stored_pass(a, &task.task.id, sid).await;
        }
        any |= probe.is_success();
        passed += usize::from(any);
    }
    let chance = 13.0 / 729.0;
    Finding {
        channel: "headphones: passed without hearing",
        kind: TaskKind::ClipMcq,
        rate: passed as f64 / trials.max(1) as f64,
        chance,
        margin: 4.0 * (chance * (1.0 - chance) / trials.max(1) as f64).sqrt(),
        trials,
    }
}

/// Whether the stored session `sid` of task `task` counts as having passed its check.
async fn stored_pass(a: &Attacker<'_>, task: &str, sid: &str) -> bool {
    let data = a.app.storage().fieldwork_data(task).await.unwrap();
    let stored = data.sessions.iter().find(|s| s.id == sid);
    let json: Value = stored
        .and_then(|s| s.headphone_json.as_deref())
        .and_then(|j| serde_json::from_str(j).ok())
        .unwrap_or(Value::Null);
    json["passed"] == true
}

/// Every page the attacker's rater sessions of `slug` show (starting until every batch is
/// taken, at most four times).
async fn pages(a: &Attacker<'_>, slug: &str, invite: &str) -> Vec<Value> {
    let mut out: Vec<Value> = Vec::new();
    for _ in 0..4 {
        let (status, session) = a.start(slug, json!({"invite": invite})).await;
        if !status.is_success() {
            break;
        }
        for item in session["items"].as_array().into_iter().flatten() {
            if !out.iter().any(|o| o["item_id"] == item["item_id"]) {
                out.push(item.clone());
            }
        }
    }
    out
}

/// Channel "planted checks in rating batches detectable from the page alone": a subject shown
/// on more (or fewer) pages than the usual subject is carrying (or is) a planted check, and so
/// is a subject one of whose output texts is also shown under another subject (a plant is some
/// other item's real output). Either signal flags every page of the subject, so a planted page
/// added to a real subject, a planted subject of its own with an odd page count, or a plant
/// reusing a text the rater sees elsewhere are all caught; so is a subject the rater rates
/// but never ranks (a plant the ranking task leaves out). The rate is the detector's
/// true-positive rate minus its false-positive rate (0 for a guess).
async fn planted_checks(a: &Attacker<'_>, invite: &str, ranked: &[Value]) -> Finding {
    let slug = benchmark_of(TaskKind::Rating);
    let hidden = Hidden::of(a.app, slug).await;
    let pages = pages(a, slug, invite).await;
    let subject = |p: &Value| p["prompt"]["subject"].to_string();
    let output = |p: &Value| p["prompt"]["output"]["meaning"].to_string();
    let mut per_subject: HashMap<String, usize> = HashMap::new();
    let mut subjects_of_output: HashMap<String, Vec<String>> = HashMap::new();
    for p in &pages {
        *per_subject.entry(subject(p)).or_default() += 1;
        subjects_of_output
            .entry(output(p))
            .or_default()
            .push(subject(p));
    }
    let mut counts: Vec<usize> = per_subject.values().copied().collect();
    counts.sort_unstable();
    let usual = counts.get(counts.len() / 2).copied().unwrap_or(0);
    let mut suspect: HashMap<String, bool> = per_subject
        .iter()
        .map(|(s, n)| (s.clone(), *n != usual))
        .collect();
    for p in &pages {
        if subjects_of_output[&output(p)]
            .iter()
            .any(|s| *s != subject(p))
        {
            suspect.insert(subject(p), true);
        }
    }
    // With both invitations (the study's rating and ranking tasks share one), a subject that
    // is rated but never ranked stands out too.
    let ranked: Vec<String> = ranked.iter().map(subject).collect();
    if !ranked.is_empty() {
        for (s, flag) in suspect.iter_mut() {
            *flag |= !ranked.contains(s);
        }
    }
    let (mut tp, mut planted, mut fp, mut real) = (0, 0, 0, 0);
    for p in &pages {
        let flagged = suspect[&subject(p)];
        let id = p["item_id"].as_str().unwrap_or_default();
        let Some(item) = hidden.items.get(id) else {
            continue;
        };
        if item.gold["planted"].is_null() {
            real += 1;
            fp += usize::from(flagged);
        } else {
            planted += 1;
            tp += usize::from(flagged);
        }
    }
    // The seeded study leaves comics out for planted groups: no plant would be no test.
    assert!(planted > 0, "the seeded study places no planted checks");
    let rate = tp as f64 / planted.max(1) as f64 - fp as f64 / real.max(1) as f64;
    Finding {
        channel: "judging: planted-check placement",
        kind: TaskKind::Rating,
        rate,
        chance: 0.0,
        margin: 0.15,
        trials: pages.len(),
    }
}

/// Channel "no model identity reached a rater" (held in issue 27's probe, kept here): a ranking
/// page that names a model or a submission (the gold behind its candidates).
async fn ranking_identity(a: &Attacker<'_>, pages: &[Value]) -> Finding {
    let slug = benchmark_of(TaskKind::Ranking);
    let hidden = Hidden::of(a.app, slug).await;
    let mut named = 0;
    for p in pages {
        let text = p.to_string();
        let id = p["item_id"].as_str().unwrap_or_default();
        let subs: Vec<String> = hidden.items.get(id).map_or_else(Vec::new, |i| {
            i.gold["submissions"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|s| s.as_str().map(str::to_owned))
                .collect()
        });
        named += usize::from(text.contains(MODEL_MARK) || subs.iter().any(|s| text.contains(s)));
    }
    Finding {
        channel: "judging: model named on a ranking",
        kind: TaskKind::Ranking,
        rate: named as f64 / pages.len().max(1) as f64,
        chance: 0.0,
        margin: 0.0,
        trials: pages.len(),
    }
}
