-- Prolific ids are stored in their canonical form (`memeboard_core::recruitment::
-- normalize_prolific_id`: no spaces or zero-width characters, lower case), so that one
-- participation per id holds whatever the link carried. Ids stored by earlier versions are
-- brought to that form here (the removed characters: space, U+200B, U+200C, U+200D, U+2060,
-- U+FEFF, U+00A0, U+3000; Prolific's ids are ASCII, which LOWER folds on both databases).
UPDATE sessions SET prolific_pid = LOWER(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(prolific_pid, ' ', ''), '​', ''), '‌', ''), '‍', ''), '⁠', ''), '﻿', ''), ' ', ''), '　', ''))
    WHERE prolific_pid IS NOT NULL;
UPDATE sessions SET prolific_pid = NULL WHERE prolific_pid = '';
