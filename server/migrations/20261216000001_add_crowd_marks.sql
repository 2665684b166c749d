-- Which sessions' crowd data changed, in the order the changes were committed, so that a
-- server keeps its copy of a task's crowd answers up to date by reading only the sessions
-- changed since it last read (issue 28): the crowd statistics' recomputation read every
-- answer of the task each time before.
--
-- `tasks.crowd_seq` rises with every change to a completed, non-pilot session's crowd data (its
-- completion, a score, a check answer) in the transaction that makes it, and never falls (a
-- deletion bumps `crowd_version` instead, after which a copy is read again whole). The tasks
-- row is locked by that update until the commit, so changes commit in the order of their
-- numbers: a reader that sees number n sees every change numbered below n.
ALTER TABLE tasks ADD COLUMN crowd_seq BIGINT NOT NULL DEFAULT 0;

-- A session's latest change number (one row per session). Sessions completed before this
-- migration have none: a whole read (the first of each server) covers them.
CREATE TABLE crowd_marks (
    session_id TEXT PRIMARY KEY,
    task_id TEXT NOT NULL,
    seq BIGINT NOT NULL
);
CREATE INDEX crowd_marks_task_seq ON crowd_marks (task_id, seq);
