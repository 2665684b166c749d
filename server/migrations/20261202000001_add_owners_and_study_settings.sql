-- Owners (researchers) of benchmarks with their own tokens, the log of what owners do, the
-- owner's study settings of a task, attention checks, and screen-outs.
-- Expand step: new tables, nullable columns only.
CREATE TABLE owners (
    id TEXT PRIMARY KEY,
    benchmark_id TEXT NOT NULL REFERENCES benchmarks (id),
    name TEXT NOT NULL,
    -- SHA-256 of the token (the token is shown once).
    token_hash TEXT NOT NULL UNIQUE,
    -- `admin` or `cli`.
    created_by TEXT NOT NULL,
    created_at BIGINT NOT NULL
);
CREATE INDEX owners_benchmark ON owners (benchmark_id);

CREATE TABLE owner_actions (
    id TEXT PRIMARY KEY,
    -- NULL for the admin token.
    owner_id TEXT REFERENCES owners (id),
    actor_name TEXT NOT NULL,
    benchmark_id TEXT NOT NULL REFERENCES benchmarks (id),
    task_id TEXT REFERENCES tasks (id),
    action TEXT NOT NULL,
    detail_json TEXT NOT NULL,
    created_at BIGINT NOT NULL
);
CREATE INDEX owner_actions_benchmark ON owner_actions (benchmark_id, created_at);

-- `StudySettings` JSON (participant target, items, content-flag policy, hand-off, quality
-- rules, attention checks); NULL = all defaults.
ALTER TABLE tasks ADD COLUMN study_json TEXT;

-- One answer per attention check of a session (stored exactly once).
CREATE TABLE attention_checks (
    session_id TEXT NOT NULL REFERENCES sessions (id),
    check_index BIGINT NOT NULL,
    choice BIGINT NOT NULL,
    passed BIGINT NOT NULL,
    response_ms BIGINT NOT NULL,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (session_id, check_index)
);

-- Sessions ended early (failed headphone or attention checks with a screen-out set).
ALTER TABLE sessions ADD COLUMN screened_out_at BIGINT;
ALTER TABLE sessions ADD COLUMN screen_reason TEXT;
-- Attention checks planned at the start (the owner may change the number later).
ALTER TABLE sessions ADD COLUMN attention_checks BIGINT;
CREATE INDEX sessions_prolific ON sessions (task_id, prolific_pid);
