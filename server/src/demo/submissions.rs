//! The demo models' submissions: four meme explanation files and four comic explanation files
//! of graded quality, written for memeboard from its own demo content
//! (`server/demo/submissions/`, made by `make.py` there). They are submitted once, in the
//! background after start-up, under the demo author, through the ordinary upload path
//! (validation, scoring, the submission and its outputs in one transaction), so the demo
//! boards and human evaluation studies have models to show.
//!
//! Demo lines name memes by phrase and comics by manifest id; here they become item ids. Each
//! demo submission has a fixed id, so loading is idempotent (a model already on its board, or
//! withdrawn, is not submitted again) even when several server instances start at once. The
//! meme explanation files need the embedding model: without it they are skipped with a warning
//! naming what is missing, and submitted at a later start once it is installed.

use crate::config::Settings;
use crate::demo::PANEL_DEMO;
use crate::explain::inference::EmbeddingService;
use crate::import_panels::explanation_item_id;
use crate::leaderboard::{admit_trusted_upload, submit, SubmitQuery};
use crate::storage::{AuthorRecord, Storage};
use anyhow::Context;
use memeboard_core::ids::stable_id;
use memeboard_core::kinds::ItemPrompt;
use serde_json::{Map, Value};
use std::collections::HashMap;

/// The demo author's id (its token is random and never kept, so nobody can upload as it).
pub const DEMO_AUTHOR: &str = "A-DEMO";

/// One demo model's file.
#[derive(Debug, Clone, Copy)]
pub struct DemoModel {
    /// Task slug.
    pub task: &'static str,
    /// Model name on the board.
    pub model: &'static str,
    /// What the model does (the board's description).
    pub description: &'static str,
    /// The file: JSON Lines with `meme` (phrase) or `comic` (manifest id) instead of `item_id`.
    pub lines: &'static str,
    /// Scored with the embedding model (meme explanations): waits until it is installed.
    pub needs_model: bool,
}

/// The eight demo models, meme explanations first.
pub const DEMO_MODELS: [DemoModel; 8] = [
    DemoModel {
        task: "demo-explain",
        model: "demo-faithful",
        description: "Demo model: paraphrases each reference meaning, with origin and example.",
        needs_model: true,
        lines: include_str!("../../demo/submissions/demo-explain/faithful.jsonl"),
    },
    DemoModel {
        task: "demo-explain",
        model: "demo-vague",
        description: "Demo model: says only what kind of meme it is, without its meaning.",
        needs_model: true,
        lines: include_str!("../../demo/submissions/demo-explain/vague.jsonl"),
    },
    DemoModel {
        task: "demo-explain",
        model: "demo-shifted",
        description: "Demo model: gives a fluent explanation of a different meme.",
        needs_model: true,
        lines: include_str!("../../demo/submissions/demo-explain/shifted.jsonl"),
    },
    DemoModel {
        task: "demo-explain",
        model: "demo-echo",
        description: "Demo model: repeats the meme phrase as its meaning.",
        needs_model: true,
        lines: include_str!("../../demo/submissions/demo-explain/echo.jsonl"),
    },
    DemoModel {
        task: "demo-panel-explain",
        model: "demo-insight",
        description: "Demo model: explains what makes each comic funny.",
        needs_model: false,
        lines: include_str!("../../demo/submissions/demo-panel-explain/insight.jsonl"),
    },
    DemoModel {
        task: "demo-panel-explain",
        model: "demo-literal",
        description: "Demo model: describes the panels one by one, without the joke.",
        needs_model: false,
        lines: include_str!("../../demo/submissions/demo-panel-explain/literal.jsonl"),
    },
    DemoModel {
        task: "demo-panel-explain",
        model: "demo-mixup",
        description: "Demo model: explains a different comic.",
        needs_model: false,
        lines: include_str!("../../demo/submissions/demo-panel-explain/mixup.jsonl"),
    },
    DemoModel {
        task: "demo-panel-explain",
        model: "demo-vague",
        description: "Demo model: one generic sentence for every comic.",
        needs_model: false,
        lines: include_str!("../../demo/submissions/demo-panel-explain/vague.jsonl"),
    },
];

/// What one loading run did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DemoSubmissionsReport {
    /// `task/model` submitted now.
    pub submitted: Vec<String>,
    /// `task/model` already there (or withdrawn), or whose task is not loaded.
    pub present: Vec<String>,
    /// `task/model` skipped because the embedding model is missing.
    pub waiting_for_model: Vec<String>,
}

/// The fixed submission id of a demo model.
pub fn demo_submission_id(m: &DemoModel) -> String {
    format!(
        "S-DEMO-{}",
        stable_id("demo-submission", &[m.task, m.model])
            .trim_start_matches("demo-submission-")
            .to_uppercase()
    )
}

/// Submits every demo model not yet submitted (see the module docs). Errors of one model are
/// logged and do not stop the others.
pub async fn load(
    storage: &Storage,
    settings: &Settings,
    embeddings: &EmbeddingService,
) -> anyhow::Result<DemoSubmissionsReport> {
    let mut report = DemoSubmissionsReport::default();
    let author = demo_author(storage).await?;
    let mine: Vec<String> = storage
        .author_submissions(&author.id)
        .await?
        .into_iter()
        .map(|s| s.id)
        .collect();
    let mut missing_model = None;
    for m in &DEMO_MODELS {
        let name = format!("{}/{}", m.task, m.model);
        let id = demo_submission_id(m);
        let Some(task) = storage.find_board_task(m.task).await? else {
            report.present.push(name);
            continue;
        };
        if mine.contains(&id) {
            report.present.push(name);
            continue;
        }
        if m.needs_model {
            if let Err(e) = embeddings.model_name() {
                missing_model.get_or_insert_with(|| e.to_string());
                report.waiting_for_model.push(name);
                continue;
            }
        }
        let text = with_item_ids(storage, &task.task.id, m)
            .await
            .with_context(|| format!("demo submission {name}"))?;
        let query = SubmitQuery {
            model: m.model.into(),
            organisation: Some("memeboard demo".into()),
            parameters: None,
            weights: Some("open".into()),
            link: None,
            description: Some(m.description.into()),
            format: Some("jsonl".into()),
            filename: None,
            conditions: None,
        };
        let upload = async {
            let admitted =
                admit_trusted_upload(storage, author.clone(), m.task, &query, id.clone()).await?;
            submit(storage, settings, embeddings, admitted, text.as_bytes()).await
        };
        match upload.await {
            Ok(_) => report.submitted.push(name),
            // Another instance may have stored it first (the fixed id is then taken).
            Err(e) => match storage.find_submission(&id).await {
                Ok(Some(_)) => report.present.push(name),
                _ => tracing::warn!(model = %name, error = %e, "demo submission not stored"),
            },
        }
    }
    if let Some(reason) = missing_model {
        tracing::warn!(
            models = report.waiting_for_model.join(", "),
            "the demo meme explanation submissions need the embedding model ({reason}); install \
             it (scripts/setup.sh) and they are submitted at the next start"
        );
    }
    if !report.submitted.is_empty() {
        tracing::info!(
            submitted = report.submitted.join(", "),
            "demo submissions loaded"
        );
    }
    Ok(report)
}

/// The demo author, created on first use with a token nobody knows.
async fn demo_author(storage: &Storage) -> anyhow::Result<AuthorRecord> {
    if let Some(a) = storage.find_author(DEMO_AUTHOR).await? {
        return Ok(a);
    }
    let author = AuthorRecord {
        id: DEMO_AUTHOR.into(),
        name: "memeboard demo".into(),
        organisation: "memeboard demo".into(),
        // A hash of 32 random bytes that are thrown away: no token matches it.
        token_hash: crate::ids::random_hex(32)?,
        daily_quota: 0,
    };
    if let Err(e) = storage.create_author(&author).await {
        // Another instance created it at the same moment.
        return storage
            .find_author(DEMO_AUTHOR)
            .await?
            .ok_or_else(|| anyhow::anyhow!("creating the demo author: {e}"));
    }
    Ok(author)
}

/// The demo file as an ordinary prediction file: each line's `meme` or `comic` replaced by the
/// item id it names.
async fn with_item_ids(storage: &Storage, task_id: &str, m: &DemoModel) -> anyhow::Result<String> {
    let mut by_phrase: HashMap<String, String> = HashMap::new();
    // A comic the task withholds (its order is hidden test gold elsewhere) gets no line: the
    // demo models answer only what the task offers, like every author.
    let offered: std::collections::HashSet<String> = storage
        .offered_task_items(task_id)
        .await?
        .into_iter()
        .map(|r| r.id)
        .collect();
    for row in storage.task_items(task_id).await? {
        if let Ok(ItemPrompt::Explanation(p)) = serde_json::from_str(&row.prompt_json) {
            by_phrase.insert(p.meme, row.id.clone());
        }
    }
    let mut out = String::new();
    for (n, line) in m
        .lines
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
    {
        let mut obj: Map<String, Value> = serde_json::from_str(line)
            .with_context(|| format!("line {}: not a JSON object", n + 1))?;
        let id = match (obj.remove("meme"), obj.remove("comic")) {
            (Some(Value::String(phrase)), None) => by_phrase
                .get(&phrase)
                .cloned()
                .with_context(|| format!("line {}: no item for the meme `{phrase}`", n + 1))?,
            (None, Some(Value::String(comic))) => {
                explanation_item_id(PANEL_DEMO, &stable_id("comic", &[PANEL_DEMO, &comic]))
            }
            _ => anyhow::bail!("line {}: expected a `meme` or a `comic` field", n + 1),
        };
        if !offered.contains(&id) {
            continue;
        }
        obj.insert("item_id".into(), Value::String(id));
        out.push_str(&Value::Object(obj).to_string());
        out.push('\n');
    }
    Ok(out)
}
