-- Portable SQL: runs unchanged on SQLite and PostgreSQL (see docs/architecture.md).
-- Booleans are BIGINT 0/1 and timestamps BIGINT milliseconds since the Unix epoch, so the
-- same queries decode the same way through sqlx's Any driver on both backends.

CREATE TABLE benchmarks (
    id TEXT PRIMARY KEY,
    slug TEXT NOT NULL UNIQUE,
    title TEXT NOT NULL,
    description TEXT NOT NULL,
    family TEXT NOT NULL,
    created_at BIGINT NOT NULL
);

CREATE TABLE memes (
    id TEXT PRIMARY KEY,
    benchmark_id TEXT NOT NULL REFERENCES benchmarks (id),
    phrase TEXT NOT NULL,
    meaning TEXT NOT NULL,
    origin TEXT,
    examples_json TEXT NOT NULL,
    category TEXT NOT NULL,
    profanity BIGINT NOT NULL,
    offense BIGINT NOT NULL,
    UNIQUE (benchmark_id, phrase)
);

CREATE TABLE tasks (
    id TEXT PRIMARY KEY,
    benchmark_id TEXT NOT NULL REFERENCES benchmarks (id),
    slug TEXT NOT NULL UNIQUE,
    kind TEXT NOT NULL,
    title TEXT NOT NULL,
    description TEXT NOT NULL,
    categories_json TEXT NOT NULL,
    batch_size BIGINT NOT NULL,
    quiz_open BIGINT NOT NULL,
    created_at BIGINT NOT NULL
);

CREATE TABLE items (
    id TEXT PRIMARY KEY,
    task_id TEXT NOT NULL REFERENCES tasks (id),
    ordinal BIGINT NOT NULL,
    category TEXT NOT NULL,
    prompt_json TEXT NOT NULL,
    gold_json TEXT NOT NULL,
    flagged BIGINT NOT NULL,
    meme_id TEXT REFERENCES memes (id)
);
CREATE INDEX items_task ON items (task_id, ordinal);

CREATE TABLE participants (
    id TEXT PRIMARY KEY,
    created_at BIGINT NOT NULL
);

CREATE TABLE sessions (
    id TEXT PRIMARY KEY,
    participant_id TEXT NOT NULL REFERENCES participants (id),
    task_id TEXT NOT NULL REFERENCES tasks (id),
    seed BIGINT NOT NULL,
    survey_json TEXT NOT NULL,
    prolific_pid TEXT,
    study_id TEXT,
    recruitment_session_id TEXT,
    batch_size BIGINT NOT NULL,
    created_at BIGINT NOT NULL,
    completed_at BIGINT,
    completion_code TEXT
);
CREATE INDEX sessions_task ON sessions (task_id, completed_at);

CREATE TABLE session_items (
    session_id TEXT NOT NULL REFERENCES sessions (id),
    position BIGINT NOT NULL,
    item_id TEXT NOT NULL REFERENCES items (id),
    PRIMARY KEY (session_id, position),
    UNIQUE (session_id, item_id)
);
CREATE INDEX session_items_item ON session_items (item_id);

CREATE TABLE answers (
    id TEXT PRIMARY KEY,
    session_id TEXT NOT NULL REFERENCES sessions (id),
    item_id TEXT NOT NULL REFERENCES items (id),
    idempotency_key TEXT NOT NULL,
    answer_json TEXT NOT NULL,
    option_order_json TEXT NOT NULL,
    choice BIGINT,
    score DOUBLE PRECISION,
    response_ms BIGINT NOT NULL,
    created_at BIGINT NOT NULL,
    UNIQUE (session_id, item_id),
    UNIQUE (session_id, idempotency_key)
);
