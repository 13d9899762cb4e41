-- The pipeline: each version is built and checked by a job; its verdict stays on the version.
ALTER TABLE versions ADD COLUMN reason TEXT NOT NULL DEFAULT '';

-- One job per version. `running` jobs found at start were cut off by a stop: they run again,
-- once (`attempts`).
CREATE TABLE jobs (
    id INTEGER PRIMARY KEY,
    version_id INTEGER NOT NULL REFERENCES versions(id),
    state TEXT NOT NULL DEFAULT 'queued',
    attempts INTEGER NOT NULL DEFAULT 0,
    created TEXT NOT NULL DEFAULT (datetime('now'))
);
