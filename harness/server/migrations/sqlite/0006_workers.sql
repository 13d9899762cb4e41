-- Remote workers (`quads worker`): each made by the host with a name and a token, kept as the
-- token's SHA-256. A worker's matches name it as `NAME/SLOT` in matches.worker.
CREATE TABLE workers (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    hash TEXT NOT NULL UNIQUE,
    created TEXT NOT NULL DEFAULT (datetime('now'))
);
