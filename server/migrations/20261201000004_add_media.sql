-- Media files (panel images now; audio and video clips later), stored in the database so
-- that every server instance of a PostgreSQL deployment serves the same files. `media_blobs`
-- holds each distinct content once; `media` maps the opaque served names to it (the same
-- image may be served under different names in different tasks, so that a URL of one task
-- cannot be matched to a URL of another). BYTEA is SQLite's BLOB by affinity rules.
CREATE TABLE media_blobs (
    id TEXT PRIMARY KEY,
    content_type TEXT NOT NULL,
    size BIGINT NOT NULL,
    sha256 TEXT NOT NULL,
    bytes BYTEA NOT NULL,
    created_at BIGINT NOT NULL
);

CREATE TABLE media (
    name TEXT PRIMARY KEY,
    blob_id TEXT NOT NULL REFERENCES media_blobs (id),
    task_id TEXT NOT NULL REFERENCES tasks (id),
    created_at BIGINT NOT NULL
);
CREATE INDEX media_task ON media (task_id);
