//! Explanation files scored by an earlier version (before meaning identification became the
//! primary score, or before the per-type figures) or by another embedding model than the one
//! installed now: scored again from their stored outputs,
//! in the background at start-up once the embedding model is there, through the upload's own
//! scoring path, so that no board mixes cosines with identification and every file has the
//! figures of CHIME Table 10.

use crate::config::Settings;
use crate::explain::inference::EmbeddingService;
use crate::kinds::explanation::scoring_version::needs_rescoring;
use crate::leaderboard::score_as;
use crate::storage::{Storage, SubmissionRewrite};
use memeboard_core::kinds::explanation::Explanation;
use memeboard_core::kinds::Kind;
use memeboard_core::predictions::{FileFormat, Limits};
use serde_json::{json, Value};

/// Scores again every explanation submission scored by an earlier version (none on a
/// database made by this version); returns how many. Without the model it does nothing (the
/// next start tries again). A submission that cannot be scored is left as it was and logged.
pub async fn rescore_old_files(
    storage: &Storage,
    settings: &Settings,
    embeddings: &EmbeddingService,
) -> anyhow::Result<usize> {
    let Ok(model) = embeddings.model_name() else {
        return Ok(0);
    };
    let limits = Limits {
        max_bytes: usize::MAX,
        max_rows: usize::MAX,
    };
    let mut done = 0;
    for task in storage.list_board_tasks().await? {
        if task.task.kind != Explanation::KEY {
            continue;
        }
        for s in storage.task_submissions_with_items(&task.task.id).await? {
            if !needs_rescoring(s.extra_json.as_deref(), &model) {
                continue;
            }
            let text: String = storage
                .submission_outputs(&s.id)
                .await?
                .into_iter()
                .map(|o| {
                    json!({"item_id": o.item_id, "meaning": o.output.meaning,
                        "origin": o.output.origin, "example": o.output.example})
                    .to_string()
                        + "\n"
                })
                .collect();
            let scored = score_as::<Explanation>(
                storage,
                settings,
                embeddings,
                &task,
                &text,
                FileFormat::JsonLines,
                limits,
            )
            .await;
            let (scored, public, private, _) = match scored {
                Ok(s) => s,
                Err(e) => {
                    tracing::warn!(submission = %s.id, error = %e, "explanation file not scored again");
                    continue;
                }
            };
            let rewrite = SubmissionRewrite {
                id: s.id.clone(),
                item_scores_json: serde_json::to_string(&scored.scores)?,
                public_summary_json: serde_json::to_string(&public)?,
                private_summary_json: serde_json::to_string(&private)?,
                extra_json: scored.extra.as_ref().map(Value::to_string),
            };
            storage
                .rescore_submission(&rewrite, &scored.outputs)
                .await?;
            done += 1;
        }
    }
    if done > 0 {
        tracing::warn!(
            submissions = done,
            model = %model,
            "explanation files scored again (an earlier version's scoring or another embedding model)"
        );
    }
    Ok(done)
}

/// The same, logged instead of returned (the start-up's background task).
pub async fn rescore_in_background(
    storage: Storage,
    settings: Settings,
    embeddings: EmbeddingService,
) {
    if let Err(e) = rescore_old_files(&storage, &settings, &embeddings).await {
        tracing::warn!(error = %e, "explanation files not scored again");
    }
}
