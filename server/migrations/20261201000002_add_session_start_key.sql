-- Session starts are idempotent (expand step: nullable column, unique where set): a client
-- that resends a start after a lost response gets the session it already created, instead of
-- an orphan second one.
ALTER TABLE sessions ADD COLUMN start_key TEXT;
CREATE UNIQUE INDEX sessions_start_key ON sessions (start_key);
