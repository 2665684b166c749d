-- Human-evaluation studies: one row per study made from an explanation board. Its judging
-- tasks (rating; CMPM also ranking) point back with tasks.study_id (added with the judging
-- kinds). The plan's hidden parts (which submission wrote which output) live in the judging
-- items' gold like any answer key; this row keeps what the study page and the board need.
CREATE TABLE studies (
    id TEXT PRIMARY KEY,
    slug TEXT NOT NULL UNIQUE,
    benchmark_id TEXT NOT NULL REFERENCES benchmarks (id),
    source_task_id TEXT NOT NULL REFERENCES tasks (id),
    protocol TEXT NOT NULL,
    -- The owner's CreateStudyRequest (with the seed used).
    request_json TEXT NOT NULL,
    -- Judged submission ids in pick order (JSON array).
    submissions_json TEXT NOT NULL,
    -- Source item ids drawn (JSON array) and the test items among them whose gold raters see.
    source_items_json TEXT NOT NULL,
    exposed_items_json TEXT NOT NULL,
    -- SHA-256 of the invitation secret (invitation-only studies); the secret is never stored.
    invite_hash TEXT,
    created_by TEXT NOT NULL,
    created_at BIGINT NOT NULL
);
CREATE INDEX studies_source ON studies (source_task_id, created_at);
