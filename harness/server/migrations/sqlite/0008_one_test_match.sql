-- "One test match at a time" as the database's own rule (issue 46): a unique index over the
-- entrant who asked, on its test matches not yet over. Checking for a pending one and then
-- queueing, in two statements, let ten requests sent at once queue up to nine. Test matches
-- already pending twice (from before this rule) keep the oldest; the others are cancelled.
UPDATE matches SET state = 'cancelled', reason = 'one test match at a time: a later one was cancelled'
WHERE kind = 'test' AND state IN ('queued', 'running')
  AND id NOT IN (
    SELECT MIN(id) FROM matches
    WHERE kind = 'test' AND state IN ('queued', 'running')
    GROUP BY requested_by
  );
CREATE UNIQUE INDEX one_test_match ON matches (requested_by)
WHERE kind = 'test' AND state IN ('queued', 'running');
