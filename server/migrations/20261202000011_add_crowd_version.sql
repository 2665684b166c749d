-- Deleting a participant's data on request (docs/data-export.md) bumps this counter of every
-- task the participant took part in, in the deleting transaction, and the crowd-statistics
-- fingerprint includes it: cached human rows are recomputed after any deletion, whatever the
-- counts (expand step: a column with a default).
ALTER TABLE tasks ADD COLUMN crowd_version BIGINT NOT NULL DEFAULT 0;
