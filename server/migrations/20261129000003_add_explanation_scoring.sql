-- Explanation scoring (expand step; all new columns nullable).
-- Per answer: the embedding scores as JSON (model, cosine, rescaled, BERTScore-F1).
ALTER TABLE answers ADD COLUMN scores_json TEXT;
-- Per task: the random-pair similarity baseline used for rescaling, and the model behind it.
ALTER TABLE tasks ADD COLUMN embedding_baseline DOUBLE PRECISION;
ALTER TABLE tasks ADD COLUMN embedding_model TEXT;
