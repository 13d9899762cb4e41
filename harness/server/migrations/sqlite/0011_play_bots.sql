-- Games against an entrant's bot (issue 49): the version played against, and its turn while
-- it waits for a worker. `turn_at` is the number of moves after which the bot is to move (none
-- while the person is); a worker holds the turn as `turn_holder` until `turn_until` (a lease:
-- a worker that dies leaves the turn to another). A bot that fails (a crash, a timeout, an
-- illegal move) loses the game: `forfeit` says why, as the referee's record would.
ALTER TABLE plays ADD COLUMN bot INTEGER;
ALTER TABLE plays ADD COLUMN turn_at INTEGER;
ALTER TABLE plays ADD COLUMN turn_holder TEXT;
ALTER TABLE plays ADD COLUMN turn_until INTEGER;
ALTER TABLE plays ADD COLUMN forfeit TEXT;
