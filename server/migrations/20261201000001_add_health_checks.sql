-- One row that /healthz rewrites on every check, so that a database that can be read but no
-- longer written (a full disk, a read-only file) is reported, not "ok".
CREATE TABLE health_checks (
    id BIGINT PRIMARY KEY,
    checked_at BIGINT NOT NULL
);
