-- Completed sessions and distinct participants with a completed session, per task, kept by the
-- transaction that completes a session (and recounted by the one that deletes participants):
-- every quiz listing and session start read them, and counting them over the sessions table
-- made a start cost grow with the task's history.
ALTER TABLE tasks ADD COLUMN completed_sessions BIGINT NOT NULL DEFAULT 0;
ALTER TABLE tasks ADD COLUMN completed_participants BIGINT NOT NULL DEFAULT 0;
UPDATE tasks SET
    completed_sessions = (SELECT COUNT(*) FROM sessions s
        WHERE s.task_id = tasks.id AND s.completed_at IS NOT NULL),
    completed_participants = (SELECT COUNT(DISTINCT s.participant_id) FROM sessions s
        WHERE s.task_id = tasks.id AND s.completed_at IS NOT NULL);
-- A participant's sessions in a task: the first-completion check above, the no-retake check at
-- a start and the deletion of a participant's data no longer scan the task's sessions.
CREATE INDEX sessions_participant ON sessions (participant_id, task_id);
