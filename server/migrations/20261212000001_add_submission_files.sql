-- Every accepted prediction file, as scored (after any conditions header line; its format is
-- the submission's `file_format`), written in the submission's own transaction, so that a
-- corrected re-import of the gold or a rescoring on the console scores every upload again
-- through the upload's own path. Never served.
-- Submissions stored before this version have no row: explanation files are rebuilt from
-- their stored outputs, other files are reported as not rescorable.
CREATE TABLE submission_files (
    submission_id TEXT PRIMARY KEY REFERENCES submissions (id),
    body TEXT NOT NULL
);

-- Each rescoring of a task's uploads, for the board's history: when, why, how many uploads
-- were scored again and how many could not be (no stored file).
CREATE TABLE task_rescorings (
    id TEXT PRIMARY KEY,
    task_id TEXT NOT NULL REFERENCES tasks (id),
    at BIGINT NOT NULL,
    reason TEXT NOT NULL,
    rescored BIGINT NOT NULL,
    skipped BIGINT NOT NULL
);
CREATE INDEX task_rescorings_task ON task_rescorings (task_id, at);
