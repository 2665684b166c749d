-- Meaning identification becomes the primary score of explanations (ranked against the open
-- dev meanings of the task). `gold_version` counts imports that rewrote a task's items, so
-- that caches derived from its gold (the open reference pool embedded in memory, the
-- embedding baseline) are rebuilt after a re-import. Stored explanation answer scores are
-- cleared: the background scorer scores them again with identification within seconds.
ALTER TABLE tasks ADD COLUMN gold_version BIGINT NOT NULL DEFAULT 0;
UPDATE answers SET score = NULL, scores_json = NULL
WHERE item_id IN (SELECT i.id FROM items i JOIN tasks t ON t.id = i.task_id WHERE t.kind = 'explanation');
