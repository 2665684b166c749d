-- Balanced assignment reads one counter per item instead of counting every past session's
-- items on each start (expand step: a column with a default, backfilled here; kept up to date
-- in the transaction that creates a session).
ALTER TABLE items ADD COLUMN exposures BIGINT NOT NULL DEFAULT 0;
UPDATE items SET exposures = (SELECT COUNT(*) FROM session_items si WHERE si.item_id = items.id);
