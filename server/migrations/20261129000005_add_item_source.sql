-- Item sources (expand step: nullable, backfilled here; the start-up upgrade in
-- server/src/upgrade.rs re-keys text MCQ items minted from gold by earlier versions and
-- recomputes splits and board halves from the source).
-- Every item derived from one public source (a meme phrase, a comic, a clip) shares its
-- source id, and splits are hashed from it, so a source never has dev gold in one task and
-- test gold in another. A CHIME question is its own source: its meme is the answer (gold).
ALTER TABLE items ADD COLUMN source_id TEXT;
UPDATE items SET source_id = meme_id
    WHERE source_id IS NULL AND meme_id IS NOT NULL
      AND task_id IN (SELECT id FROM tasks WHERE kind = 'explanation');
UPDATE items SET source_id = id WHERE source_id IS NULL;
CREATE INDEX items_source ON items (source_id);
