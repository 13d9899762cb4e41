-- The ladder's changes in the order they were committed, so that the leaderboard reads only
-- what changed since it last looked (crate::ladder::board): a match whose games start counting
-- (done) or stop (rerun) is stamped with the next value of the `ladder` counter in the same
-- transaction. Taking the value locks the counter's row until the commit, so stamps are
-- committed in their order and a reader that saw stamp N has seen every stamp below it.
CREATE TABLE counters (
    name TEXT PRIMARY KEY,
    value INTEGER NOT NULL
);
INSERT INTO counters (name, value) VALUES ('ladder', 0);
ALTER TABLE matches ADD COLUMN changed INTEGER;
-- The matches done before this migration, all at stamp 0 (a first read takes every stamp).
UPDATE matches SET changed = 0 WHERE state = 'done';
CREATE INDEX matches_changed ON matches (changed);
