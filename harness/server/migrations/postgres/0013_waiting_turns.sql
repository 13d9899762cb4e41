-- Bots' turns waiting for a worker (issue 49), found without reading every game people have
-- played: the server's worker of turns and each remote worker's claim look for them often.
CREATE INDEX plays_waiting_turns ON plays (updated, id) WHERE turn_at IS NOT NULL;
