-- Each of the pipeline's checkers claims its jobs under a name of its own, so that a claim
-- asked again (its answer lost when the database blinked after the commit) is given the job it
-- already took rather than a second one, which would leave the first `running`, and its version
-- `checking`, until the next start (crate::store::Store::claim).
ALTER TABLE jobs ADD COLUMN holder TEXT;
