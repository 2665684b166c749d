-- Meaning identification grades near-ties (cosines within 0.001 earn a linear share of the
-- pair instead of 0, 1/2 or 1), so that the browser's and the server's numbers agree.
-- Stored explanation answer scores are cleared: the background scorer scores them again
-- within seconds. Explanation files are scored again at start-up (scoring version 3).
UPDATE answers SET score = NULL, scores_json = NULL
WHERE item_id IN (SELECT i.id FROM items i JOIN tasks t ON t.id = i.task_id WHERE t.kind = 'explanation');
