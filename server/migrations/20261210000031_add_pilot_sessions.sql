-- Pilot sessions: sessions started while the quiz's owner had pilot mode on
-- (`StudySettings::pilot`, the console's switch for testing a study end to end). They are
-- stored like any other but never counted: not in crowd figures, the completion counters (and
-- so the participant target), nor the assignment counters; the export marks them. Sessions
-- stored before this version are real ones.
ALTER TABLE sessions ADD COLUMN pilot BIGINT NOT NULL DEFAULT 0;
