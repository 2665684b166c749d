-- Secondary metrics of a submission per board half (expand step: nullable), e.g. for
-- explanation files: rescaled cosine, BERTScore-F1, origin cosine.
ALTER TABLE submissions ADD COLUMN extra_json TEXT;
