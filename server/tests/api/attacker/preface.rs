//! Attack 5: read every public file. Everything a stranger can GET without a token (quiz and
//! task lists, manifests, inputs, templates, dev gold, boards) and the pages of a
//! clip session before any familiarity answer are searched for hidden gold (explanation
//! meanings) and for the clip questions and choices that must come only after the preface.

use super::seed::benchmark_of;
use super::{Attacker, Finding, Hidden};
use memeboard_core::kinds::TaskKind;
use serde_json::{json, Value};

/// The attacks of this module.
pub async fn all(a: &Attacker<'_>) -> Vec<Finding> {
    let corpus = public_corpus(a).await;
    vec![
        meanings_in_public_files(a, &corpus).await,
        no_gold(TaskKind::PanelExplanation),
        clip_question_before_preface(a, &corpus).await,
    ]
}

/// Every public body a stranger can fetch without a token, concatenated.
async fn public_corpus(a: &Attacker<'_>) -> String {
    let mut corpus = String::new();
    let (_, tasks) = a.get_json("/api/tasks").await;
    let (_, quizzes) = a.get_json("/api/quizzes").await;
    corpus.push_str(&tasks.to_string());
    corpus.push_str(&quizzes.to_string());
    let mut slugs: Vec<String> = Vec::new();
    for list in [&tasks, &quizzes] {
        for t in list.as_array().into_iter().flatten() {
            if let Some(s) = t["slug"].as_str() {
                if !slugs.iter().any(|x| x == s) {
                    slugs.push(s.to_owned());
                }
            }
        }
    }
    for slug in slugs {
        for path in [
            format!("/api/quizzes/{slug}"),
            format!("/api/quizzes/{slug}/stats"),
            format!("/api/tasks/{slug}/manifest"),
            format!("/api/tasks/{slug}/inputs.jsonl"),
            format!("/api/tasks/{slug}/template.jsonl"),
            format!("/api/tasks/{slug}/template.csv"),
            format!("/api/tasks/{slug}/dev-gold.jsonl"),
            format!("/api/boards/{slug}"),
        ] {
            let (status, text) = a.get_text(&path, false).await;
            if status.is_success() {
                corpus.push_str(&text);
            }
        }
    }
    corpus
}

/// A kind without hidden gold: nothing to recover, reported so that every kind has a line.
fn no_gold(kind: TaskKind) -> Finding {
    Finding {
        channel: "public files: (kind has no gold)",
        kind,
        rate: 0.0,
        chance: 0.0,
        margin: 0.0,
        trials: 0,
    }
}

/// JSON-escaped form of a text as it appears inside a JSON body (without the quotes).
fn in_json(text: &str) -> String {
    let quoted = Value::String(text.to_owned()).to_string();
    quoted[1..quoted.len() - 1].to_owned()
}

/// Channel "explanation oracle" and cross-task gold, public-file part: the reference meaning
/// of a test meme anywhere in a public body (another task's inputs, dev gold or board).
async fn meanings_in_public_files(a: &Attacker<'_>, corpus: &str) -> Finding {
    let hidden = Hidden::of(a.app, benchmark_of(TaskKind::Explanation)).await;
    let (mut hits, mut trials) = (0, 0);
    for item in hidden.items.values().filter(|i| i.test) {
        let Some(meaning) = item.gold["meaning"].as_str() else {
            continue;
        };
        trials += 1;
        hits += usize::from(corpus.contains(meaning) || corpus.contains(&in_json(meaning)));
    }
    Finding {
        channel: "public files: explanation meanings",
        kind: TaskKind::Explanation,
        rate: hits as f64 / trials.max(1) as f64,
        chance: 0.0,
        margin: 0.0,
        trials,
    }
}

/// Channel "clip question and choices in public `inputs.jsonl` before the familiarity answer":
/// a test clip's question, or all its choices, in a public body, or in the pages of a session
/// that has not answered its familiarity question.
async fn clip_question_before_preface(a: &Attacker<'_>, corpus: &str) -> Finding {
    let slug = benchmark_of(TaskKind::ClipMcq);
    let hidden = Hidden::of(a.app, slug).await;
    let mut pages = String::new();
    for _ in 0..3 {
        // The attacker wears headphones here: it passes the check as a person would (the
        // debug build's key route stands in for listening) and then reads its pages.
        let check = crate::clips::checked_start_body(a.app, slug, "en", 6).await;
        let (status, session) = a
            .start(slug, json!({"headphone_check": check["headphone_check"]}))
            .await;
        if !status.is_success() {
            break; // a changed start protocol: the public files are still searched
        }
        pages.push_str(&session.to_string());
        let id = session["session_id"].as_str().unwrap_or_default();
        pages.push_str(
            &a.get_json(&format!("/api/sessions/{id}"))
                .await
                .1
                .to_string(),
        );
    }
    let found = |text: &str| {
        corpus.contains(text) || corpus.contains(&in_json(text)) || pages.contains(&in_json(text))
    };
    let (mut hits, mut trials) = (0, 0);
    for item in hidden.items.values().filter(|i| i.test) {
        trials += 1;
        let question = item.prompt["question"].as_str().unwrap_or("\u{0}");
        let choices: Vec<&str> = item.prompt["choices"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .collect();
        let all_choices = !choices.is_empty() && choices.iter().all(|c| found(c));
        hits += usize::from(found(question) || all_choices);
    }
    Finding {
        channel: "preface: clip question before it",
        kind: TaskKind::ClipMcq,
        rate: hits as f64 / trials.max(1) as f64,
        chance: 0.0,
        margin: 0.0,
        trials,
    }
}
