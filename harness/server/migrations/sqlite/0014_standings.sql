-- The leaderboard's history (issue 50): a fit of the ladder kept as it was, at most one per
-- `history_every` (config.rs) and the last one always, so the standings at any past moment
-- and each entrant's rating over its games can be shown. `at` is when the fit was kept, in
-- milliseconds since 1970; `games` how many ladder games it fitted and `last_game` the
-- highest of their ids; `body` the standings as the API gives them (JSON).
CREATE TABLE standings (
    id INTEGER PRIMARY KEY,
    at BIGINT NOT NULL,
    games BIGINT NOT NULL,
    last_game BIGINT NOT NULL,
    body TEXT NOT NULL
);
CREATE INDEX standings_at ON standings (at);
