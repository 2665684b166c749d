-- Daily counters for abuse limits (new table; nothing existing changes).
-- One row per (scope, UTC day): e.g. uploads of a token, of an author name, of a model name on
-- a task, or new tokens from one client network. Scope keys hold ids or SHA-256 hashes only,
-- never a client address or a name in clear. A limit check increments the row with
-- INSERT … ON CONFLICT … DO UPDATE … RETURNING inside the transaction that stores the counted
-- thing, and rolls back when the limit is exceeded, so concurrent requests cannot overshoot.
CREATE TABLE quota_counters (
    scope_key TEXT NOT NULL,
    day BIGINT NOT NULL,
    used BIGINT NOT NULL,
    PRIMARY KEY (scope_key, day)
);

-- Today's uploads made before this version keep counting against their token.
INSERT INTO quota_counters (scope_key, day, used)
SELECT 'token:' || author_id, created_at / 86400000, COUNT(*)
FROM submissions
GROUP BY author_id, created_at / 86400000;
