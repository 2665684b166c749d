-- Changes to a task's crowd data other than a completion, kept by the transactions that make
-- them: a score written to an answer of a completed session (explanations are scored after
-- they are stored), an attention-check answer stored for a completed session. With
-- `completed_sessions` (raised by the completing transaction) and `crowd_version` (raised by
-- deletions) it makes the crowd fingerprint one row's read: the fingerprint counted every
-- answer of the task before, on crowd-facing requests, so their cost grew with the crowd.
ALTER TABLE tasks ADD COLUMN crowd_changes BIGINT NOT NULL DEFAULT 0;
