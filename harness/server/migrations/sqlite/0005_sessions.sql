-- A browser's session after logging in on the pages (by its API token, or the host's), kept as
-- the SHA-256 of the cookie's secret; `entrant_id` NULL is the host. `expires` is a Unix time.
CREATE TABLE sessions (
    hash TEXT PRIMARY KEY,
    entrant_id INTEGER REFERENCES entrants(id),
    expires INTEGER NOT NULL,
    created TEXT NOT NULL DEFAULT (datetime('now'))
);
