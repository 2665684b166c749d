-- Authors withdraw their own rows; boards show one row per model (best or latest, the
-- owner's choice); owners decide whether a finished participant may take a quiz again.
-- Expand step: nullable or defaulted columns only.
ALTER TABLE submissions ADD COLUMN withdrawn_at BIGINT;
ALTER TABLE tasks ADD COLUMN board_attempts TEXT NOT NULL DEFAULT 'best';
ALTER TABLE tasks ADD COLUMN allow_retake BIGINT NOT NULL DEFAULT 0;
-- Baseline rows a kind computes with the embedding model (explanations: the similarity of
-- the prompt itself to each reference meaning), cached per task as JSON.
ALTER TABLE tasks ADD COLUMN reference_json TEXT;
