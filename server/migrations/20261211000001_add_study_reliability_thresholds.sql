-- The study owner's reliability thresholds (`ReliabilityThresholds` JSON: minimum planted-check
-- pass rate, minimum Dawid–Skene competence, maximum leave-one-out gain). Raters failing one
-- are left out of every table of the study. NULL (every study stored before this version):
-- no threshold, nobody left out.
ALTER TABLE studies ADD COLUMN reliability_json TEXT;
