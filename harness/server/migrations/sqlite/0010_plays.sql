-- Games people play on the server's play page (issue 49), each at its own address: against a
-- level, two players on one device, or the puzzle of the day. The id is the address (random,
-- so a game is found only by those given it); the moves are kept as played, in the project's
-- notation, so a game comes back after a reload or a restart and replays at the same address.
CREATE TABLE plays (
    id TEXT PRIMARY KEY,
    mode TEXT NOT NULL,
    rules TEXT NOT NULL,
    start TEXT NOT NULL,
    person TEXT NOT NULL,
    moves TEXT NOT NULL DEFAULT '',
    plies INTEGER NOT NULL DEFAULT 0,
    seed INTEGER NOT NULL,
    created INTEGER NOT NULL,
    updated INTEGER NOT NULL
);
