-- Word to entrants and the host (issue 50): each entrant's webhook (a URL the event's config
-- allows), and the queue of messages to send. A message is sent by the server's sender task,
-- never by a request: `due` is when it is next tried (milliseconds since 1970), `tries` how
-- often it was, `sent` when a hook took it, `given_up` when the sender stopped trying, with
-- the last `error`.
ALTER TABLE entrants ADD COLUMN webhook TEXT;
CREATE TABLE hooks (
    id INTEGER PRIMARY KEY,
    url TEXT NOT NULL,
    body TEXT NOT NULL,
    tries BIGINT NOT NULL DEFAULT 0,
    due BIGINT NOT NULL,
    sent BIGINT,
    given_up BIGINT,
    error TEXT NOT NULL DEFAULT ''
);
CREATE INDEX hooks_due ON hooks (due) WHERE sent IS NULL AND given_up IS NULL;
