-- Leaderboard (expand step: new columns have defaults, so existing rows stay valid).
-- Items get a split (dev gold is public by design; test gold never leaves the server) and,
-- for test items, the board half that scores them (public board / private board).
ALTER TABLE items ADD COLUMN split TEXT NOT NULL DEFAULT 'test';
ALTER TABLE items ADD COLUMN board_half TEXT NOT NULL DEFAULT 'public';

-- Board switches, flipped by an admin.
ALTER TABLE tasks ADD COLUMN private_revealed BIGINT NOT NULL DEFAULT 0;
ALTER TABLE tasks ADD COLUMN blind BIGINT NOT NULL DEFAULT 0;
ALTER TABLE tasks ADD COLUMN blind_revealed BIGINT NOT NULL DEFAULT 0;

-- Model authors: only a hash of their token is stored.
CREATE TABLE authors (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    organisation TEXT NOT NULL,
    token_hash TEXT NOT NULL UNIQUE,
    daily_quota BIGINT NOT NULL,
    created_at BIGINT NOT NULL
);

-- One accepted prediction file, scored at upload. Rejected files are never stored.
CREATE TABLE submissions (
    id TEXT PRIMARY KEY,
    task_id TEXT NOT NULL REFERENCES tasks (id),
    author_id TEXT NOT NULL REFERENCES authors (id),
    model_name TEXT NOT NULL,
    organisation TEXT NOT NULL,
    parameters TEXT,
    weights TEXT NOT NULL,
    link TEXT,
    description TEXT NOT NULL,
    file_format TEXT NOT NULL,
    num_lines BIGINT NOT NULL,
    num_missing BIGINT NOT NULL,
    orders_json TEXT NOT NULL,
    item_scores_json TEXT NOT NULL,
    public_summary_json TEXT NOT NULL,
    private_summary_json TEXT NOT NULL,
    created_at BIGINT NOT NULL
);
CREATE INDEX submissions_task ON submissions (task_id, created_at);
CREATE INDEX submissions_author ON submissions (author_id, created_at);
