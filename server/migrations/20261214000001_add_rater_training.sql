-- Rater training of a judging task (issue 31): the rubric, the practice pages and their
-- expected answers, and the pass mark, as one JSON document (`core::human_eval::training::
-- Training`). Never served as is: the expected answers leave the server only as the feedback
-- of a practice page already answered.
CREATE TABLE task_training (
    task_id TEXT PRIMARY KEY REFERENCES tasks (id),
    training_json TEXT NOT NULL
);

-- Each practice answer, stored once per rater, task and page (a rater of a dense study
-- practises once, whichever part they start with) before its feedback is sent: the session
-- it was given in, the answer in the kind's canonical terms with the display order it was
-- given in, how many of its fields matched the expected answer, and the idempotency key of
-- the request that stored it (a resend with the same key replays the feedback). Kept apart
-- from `answers`, so that no statistic ever counts one.
CREATE TABLE practice_answers (
    task_id TEXT NOT NULL REFERENCES tasks (id),
    participant_id TEXT NOT NULL,
    page BIGINT NOT NULL,
    session_id TEXT NOT NULL REFERENCES sessions (id),
    idempotency_key TEXT NOT NULL,
    answer_json TEXT NOT NULL,
    option_order_json TEXT NOT NULL,
    matched BIGINT NOT NULL,
    total BIGINT NOT NULL,
    response_ms BIGINT NOT NULL,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (task_id, participant_id, page)
);
