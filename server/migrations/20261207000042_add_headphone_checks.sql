-- Headphone checks scored by the server: the tone order of every trial is drawn from OS
-- randomness and kept here (`key_json`); the page gets only opaque sounds. The participant's
-- answers are stored once (`answers_json`), so a check cannot be probed with other answers.
CREATE TABLE headphone_checks (
    id TEXT PRIMARY KEY,
    task_id TEXT NOT NULL,
    key_json TEXT NOT NULL,
    answers_json TEXT,
    created_at BIGINT NOT NULL,
    answered_at BIGINT
);
