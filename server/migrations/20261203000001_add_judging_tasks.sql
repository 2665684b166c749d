-- Judging tasks (kinds `rating` and `ranking`): items come in fixed batches that one rater
-- judges whole, a task may be invitation-only (SHA-256 of the study link's secret), and a
-- judging task may belong to a human-evaluation study.
-- Expand step: nullable columns only.
ALTER TABLE items ADD COLUMN batch_no BIGINT;
ALTER TABLE tasks ADD COLUMN invite_hash TEXT;
ALTER TABLE tasks ADD COLUMN study_id TEXT;
CREATE INDEX items_task_batch ON items (task_id, batch_no);
