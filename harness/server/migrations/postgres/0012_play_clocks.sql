-- A game's clock (issue 49): `clock` as asked (`5m+2s`: each side's time and what a move
-- adds), none for a game without one; `spent` the milliseconds each move was charged (a
-- person's from the server's own time, a level's or a bot's its thinking), comma-separated;
-- `since` when the side to move began, in milliseconds since 1970, so that its clock runs
-- while nobody looks and a reload shows it as it is.
ALTER TABLE plays ADD COLUMN clock TEXT;
ALTER TABLE plays ADD COLUMN spent TEXT NOT NULL DEFAULT '';
ALTER TABLE plays ADD COLUMN since BIGINT NOT NULL DEFAULT 0;
