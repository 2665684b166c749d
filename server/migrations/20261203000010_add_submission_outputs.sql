-- The outputs of explanation prediction files (meme explanations and comic explanations),
-- one row per answered item, written in the same transaction as their submission, so that
-- human evaluation studies can show them to raters. `output_json` is the judged output
-- (meaning, origin, example; a comic explanation has only its text, in `meaning`);
-- `scores_json` holds the automatic scores of meme explanations (cosine, rescaled cosine,
-- BERTScore-F1) and is NULL for comic explanations, which are not scored automatically.
-- Never served publicly.
CREATE TABLE submission_outputs (
    submission_id TEXT NOT NULL REFERENCES submissions (id),
    item_id TEXT NOT NULL,
    output_json TEXT NOT NULL,
    scores_json TEXT NULL,
    PRIMARY KEY (submission_id, item_id)
);
