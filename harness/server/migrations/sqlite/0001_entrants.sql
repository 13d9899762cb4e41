-- Entrants, their API tokens, invites, and the versions of their bots.
CREATE TABLE entrants (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    created TEXT NOT NULL DEFAULT (datetime('now'))
);

-- A token is kept as its SHA-256 only.
CREATE TABLE tokens (
    hash TEXT PRIMARY KEY,
    entrant_id INTEGER NOT NULL REFERENCES entrants(id),
    created TEXT NOT NULL DEFAULT (datetime('now'))
);

-- An invite code, kept as its SHA-256; used once.
CREATE TABLE invites (
    hash TEXT PRIMARY KEY,
    used_by INTEGER REFERENCES entrants(id),
    created TEXT NOT NULL DEFAULT (datetime('now'))
);

-- Every upload is a new version; its files are the blob named by `digest`.
CREATE TABLE versions (
    id INTEGER PRIMARY KEY,
    entrant_id INTEGER NOT NULL REFERENCES entrants(id),
    number INTEGER NOT NULL,
    digest TEXT NOT NULL,
    files INTEGER NOT NULL,
    bytes INTEGER NOT NULL,
    status TEXT NOT NULL,
    created TEXT NOT NULL DEFAULT (datetime('now')),
    UNIQUE (entrant_id, number)
);
