-- Answers recorded per session, raised by the answer transaction under the session's row lock:
-- the last answer of a batch sees it reach the batch size (completion decided in the same
-- transaction) without counting the session's answers, and a replay reads progress from it.
ALTER TABLE sessions ADD COLUMN answered BIGINT NOT NULL DEFAULT 0;
UPDATE sessions SET answered = (SELECT COUNT(*) FROM answers a WHERE a.session_id = sessions.id);
