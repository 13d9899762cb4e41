-- Matches become jobs of their own, taken by workers with a lease: queued, running (held by
-- `worker` until `lease`, a Unix time the worker's heartbeat moves on), then done, failed or
-- cancelled with the reason. A match is a ladder match or a test match an entrant asked for
-- (which does not count in the ratings); its variant and seed are fixed when it is queued,
-- so that a rerun and a local `quads match` play the same games.
ALTER TABLE matches ADD COLUMN state TEXT NOT NULL DEFAULT 'done';
ALTER TABLE matches ADD COLUMN kind TEXT NOT NULL DEFAULT 'ladder';
ALTER TABLE matches ADD COLUMN rules TEXT NOT NULL DEFAULT 'quads';
ALTER TABLE matches ADD COLUMN seed INTEGER NOT NULL DEFAULT 0;
ALTER TABLE matches ADD COLUMN attempts INTEGER NOT NULL DEFAULT 0;
ALTER TABLE matches ADD COLUMN worker TEXT;
ALTER TABLE matches ADD COLUMN lease INTEGER;
ALTER TABLE matches ADD COLUMN reason TEXT NOT NULL DEFAULT '';
ALTER TABLE matches ADD COLUMN requested_by INTEGER REFERENCES entrants(id);
UPDATE matches SET seed = id;
CREATE INDEX matches_state ON matches (state, kind, id);
CREATE INDEX games_match ON games (match_id);

-- A version the ladder stopped playing (it lost games in a row by faults of its own), and an
-- entrant the host disabled: the reason, shown to the owner.
ALTER TABLE versions ADD COLUMN paused TEXT;
ALTER TABLE entrants ADD COLUMN disabled TEXT;

-- The event's switches the host flips: `frozen` (no uploads), `ladder_paused`.
CREATE TABLE switches (
    name TEXT PRIMARY KEY,
    value INTEGER NOT NULL
);
