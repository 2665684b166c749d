-- Run conditions of a submission (zero- or one-shot, audio only or with the video…): the
-- JSON object of its condition values, every condition its task's kind declares with the
-- defaults filled in. NULL: uploaded before conditions existed, i.e. every default.
ALTER TABLE submissions ADD COLUMN conditions_json TEXT;
