-- The ladder: each entrant's active version (its last admitted one), the matches played
-- between versions, and their games' records (as games.jsonl holds them).
ALTER TABLE entrants ADD COLUMN active INTEGER REFERENCES versions(id);

CREATE TABLE matches (
    id INTEGER PRIMARY KEY,
    first INTEGER NOT NULL REFERENCES versions(id),
    second INTEGER NOT NULL REFERENCES versions(id),
    created TEXT NOT NULL DEFAULT (datetime('now'))
);

CREATE TABLE games (
    id INTEGER PRIMARY KEY,
    match_id INTEGER NOT NULL REFERENCES matches(id),
    record TEXT NOT NULL
);
