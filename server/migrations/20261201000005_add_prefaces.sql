-- Clip quizzes (expand step: new tables and nullable columns only).
-- A preface is the answer given before an item's question is sent (the familiarity check of
-- the clip task): stored once per session and item; the question is released only after it.
CREATE TABLE prefaces (
    session_id TEXT NOT NULL REFERENCES sessions (id),
    item_id TEXT NOT NULL REFERENCES items (id),
    familiarity TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (session_id, item_id)
);
-- The headphone check of a clip quiz's start (JSON: trials, correct, passed).
ALTER TABLE sessions ADD COLUMN headphone_json TEXT;
-- Owners may leave participants who failed the headphone check out of the human rows.
ALTER TABLE tasks ADD COLUMN exclude_failed_checks BIGINT NOT NULL DEFAULT 0;
