//! The outputs of explanation prediction files (`submission_outputs`): written with their
//! submission in one transaction, read back by human evaluation studies. Never served on a
//! public route (model outputs are the author's; studies show them to raters blind).

use super::*;
use memeboard_core::human_eval::outputs::{ExplainedOutput, OutputScores};
use sqlx::Row;

/// One model output of a stored submission: what the file said for one item, and its
/// automatic scores where the kind has them (meme explanations; `None` for comics).
#[derive(Debug, Clone, PartialEq)]
pub struct StoredOutput {
    /// The item answered.
    pub item_id: String,
    /// The explanation as the file gave it.
    pub output: ExplainedOutput,
    /// Cosine, rescaled cosine and BERTScore-F1 against the reference (meme explanations).
    pub scores: Option<OutputScores>,
}

/// An output's scores as stored (`submission_outputs.scores_json`).
fn scores_json(o: &StoredOutput) -> Result<Option<String>, StorageError> {
    o.scores
        .as_ref()
        .map(serde_json::to_string)
        .transpose()
        .map_err(|source| StorageError::CorruptJson {
            what: "submission_outputs.scores_json",
            source,
        })
}

impl Storage {
    /// Writes a submission's outputs inside the transaction that stores the submission.
    pub(super) async fn insert_outputs_in(
        tx: &mut sqlx::Transaction<'_, sqlx::Any>,
        submission_id: &str,
        outputs: &[StoredOutput],
    ) -> Result<(), StorageError> {
        for o in outputs {
            let output_json =
                serde_json::to_string(&o.output).map_err(|source| StorageError::CorruptJson {
                    what: "submission_outputs.output_json",
                    source,
                })?;
            let scores_json = scores_json(o)?;
            sqlx::query(
                "INSERT INTO submission_outputs (submission_id, item_id, output_json, scores_json) \
                 VALUES ($1, $2, $3, $4)",
            )
            .bind(submission_id)
            .bind(&o.item_id)
            .bind(output_json)
            .bind(scores_json)
            .execute(&mut **tx)
            .await?;
        }
        Ok(())
    }

    /// The stored outputs of a submission, by item id (empty for kinds that store none, and
    /// for unknown submissions). For studies and the submission's owner only.
    pub async fn submission_outputs(
        &self,
        submission_id: &str,
    ) -> Result<Vec<StoredOutput>, StorageError> {
        let rows = sqlx::query(
            "SELECT item_id, output_json, scores_json FROM submission_outputs \
             WHERE submission_id = $1 ORDER BY item_id",
        )
        .bind(submission_id)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                let output: String = r.try_get("output_json")?;
                let scores: Option<String> = r.try_get("scores_json")?;
                Ok(StoredOutput {
                    item_id: r.try_get("item_id")?,
                    output: decode_json("submission_outputs.output_json", &output)?,
                    scores: scores
                        .map(|s| decode_json("submission_outputs.scores_json", &s))
                        .transpose()?,
                })
            })
            .collect()
    }

    /// Replaces a submission's scores (per item, both summaries, extra figures) and its
    /// outputs' automatic scores in one transaction: an explanation file scored again from its
    /// stored outputs after the primary score changed.
    pub async fn rescore_submission(
        &self,
        rewrite: &SubmissionRewrite,
        outputs: &[StoredOutput],
    ) -> Result<(), StorageError> {
        let mut tx = self.pool.begin().await?;
        Self::rewrite_submission_in(&mut tx, rewrite).await?;
        for o in outputs {
            let scores_json = scores_json(o)?;
            sqlx::query(
                "UPDATE submission_outputs SET scores_json = $1 \
                 WHERE submission_id = $2 AND item_id = $3",
            )
            .bind(scores_json)
            .bind(&rewrite.id)
            .bind(&o.item_id)
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        Ok(())
    }
}
