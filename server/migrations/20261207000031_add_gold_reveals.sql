-- Cross-task gold: a row says that the public inputs of `task_id` reveal the hidden gold of
-- `hidden_task_id` for the same sources (e.g. a variant showing the comics' panels in reading
-- order reveals the shuffled order task's answers). Until the owner reveals the hidden task's
-- test gold (`tasks.test_gold_revealed`), the revealing task withholds every item whose source
-- is a test item of the hidden task: from its public files, quiz batches and media.
CREATE TABLE task_gold_reveals (
    task_id TEXT NOT NULL,
    hidden_task_id TEXT NOT NULL,
    PRIMARY KEY (task_id, hidden_task_id)
);
CREATE INDEX task_gold_reveals_hidden ON task_gold_reveals (hidden_task_id);
ALTER TABLE tasks ADD COLUMN test_gold_revealed BIGINT NOT NULL DEFAULT 0;
