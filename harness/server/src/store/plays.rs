//! Games people play on the play page (crate::domain::play), each under its random id: how it
//! was started and its moves so far. A move is kept only over the moves it was played after,
//! so two answers to the same position (two tabs, a request sent twice) never both count.
//! A game against an entrant's bot waits, while the bot is to move, for a worker to claim the
//! turn (with a lease, as a match is claimed) and answer it.

use sqlx::Row;

use super::{db, matches::now, matches::params, Store, StoreError};

/// A kept game's columns, in [`play_row`]'s order.
const COLUMNS: &str =
    "id, mode, rules, start, person, moves, seed, bot, forfeit, turn_at, clock, spent, since";

/// A played game as kept: how it started and its moves, in the project's notation.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayRow {
    pub id: String,
    /// `level-N`, `two` or `puzzle`.
    pub mode: String,
    /// The rules spec.
    pub rules: String,
    /// The starting position.
    pub start: String,
    /// The seat the person plays (`first` or `second`), or `both` for two people.
    pub person: String,
    pub moves: Vec<String>,
    pub seed: u64,
    /// Against an entrant's bot: the version's row.
    pub bot: Option<i64>,
    /// Why the bot lost, if it lost by a fault of its own (`timeout: no move within …`).
    pub forfeit: Option<String>,
    /// Whether the bot's turn waits for a worker.
    pub waiting: bool,
    /// The game's clock as asked (`5m+2s`), if it has one.
    pub clock: Option<String>,
    /// The milliseconds each move was charged.
    pub spent: Vec<f64>,
    /// When the side to move began, in milliseconds since 1970.
    pub since: i64,
}

/// Now, in milliseconds since 1970.
pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

/// Each move's milliseconds as kept: comma-separated, each read back as it was.
fn spent_text(spent: &[f64]) -> String {
    spent
        .iter()
        .map(|ms| format!("{ms}"))
        .collect::<Vec<_>>()
        .join(",")
}

impl Store {
    /// Keeps a new game with its first moves (a level's, when it begins).
    pub async fn add_play(&self, row: &PlayRow) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO plays (id, mode, rules, start, person, moves, plies, seed, created, updated, bot, turn_at, clock, spent, since) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9, $10, $11, $12, $13, $14)",
        )
        .bind(&row.id)
        .bind(&row.mode)
        .bind(&row.rules)
        .bind(&row.start)
        .bind(&row.person)
        .bind(row.moves.join(","))
        .bind(row.moves.len() as i64)
        .bind(row.seed as i64)
        .bind(now())
        .bind(row.bot)
        .bind(row.waiting.then_some(row.moves.len() as i64))
        .bind(&row.clock)
        .bind(spent_text(&row.spent))
        .bind(row.since)
        .execute(&self.pool)
        .await
        .map_err(db)?;
        Ok(())
    }

    /// The game with this id.
    pub async fn play(&self, id: &str) -> Result<Option<PlayRow>, StoreError> {
        let row = sqlx::query(&format!("SELECT {COLUMNS} FROM plays WHERE id = $1"))
            .bind(id)
            .fetch_optional(&self.pool)
            .await
            .map_err(db)?;
        Ok(row.map(|r| play_row(&r)))
    }

    /// Every game, the oldest first.
    pub async fn plays(&self) -> Result<Vec<PlayRow>, StoreError> {
        let rows = sqlx::query(&format!("SELECT {COLUMNS} FROM plays ORDER BY created, id"))
            .fetch_all(&self.pool)
            .await
            .map_err(db)?;
        Ok(rows.iter().map(play_row).collect())
    }

    /// Sets the game's moves to `moves`, if it still has the `after` moves it had when they
    /// were chosen and no bot's turn waits: whether they were kept. With `waiting`, the bot's
    /// turn then waits for a worker.
    pub async fn extend_play(
        &self,
        id: &str,
        after: usize,
        moves: &[String],
        spent: &[f64],
        waiting: bool,
    ) -> Result<bool, StoreError> {
        let done = sqlx::query(
            "UPDATE plays SET moves = $1, plies = $2, updated = $3, turn_at = $6, spent = $7, \
               since = $8 \
             WHERE id = $4 AND plies = $5 AND turn_at IS NULL",
        )
        .bind(moves.join(","))
        .bind(moves.len() as i64)
        .bind(now())
        .bind(id)
        .bind(after as i64)
        .bind(waiting.then_some(moves.len() as i64))
        .bind(spent_text(spent))
        .bind(now_ms())
        .execute(&self.pool)
        .await
        .map_err(db)?;
        Ok(done.rows_affected() == 1)
    }
}

impl Store {
    /// Whether any bot's turn waits (a cheap look before a claim: it reads an index only).
    pub async fn turn_waits(&self) -> Result<bool, StoreError> {
        let row = sqlx::query("SELECT id FROM plays WHERE turn_at IS NOT NULL LIMIT 1")
            .fetch_optional(&self.pool)
            .await
            .map_err(db)?;
        Ok(row.is_some())
    }

    /// Version `version`'s entrant and pack digest, if it is kept.
    pub async fn version_side(&self, version: i64) -> Result<Option<(String, String)>, StoreError> {
        let row = sqlx::query(
            "SELECT e.name, v.digest FROM versions v JOIN entrants e ON e.id = v.entrant_id WHERE v.id = $1",
        )
        .bind(version)
        .fetch_optional(&self.pool)
        .await
        .map_err(db)?;
        Ok(row.map(|r| (r.get(0), r.get(1))))
    }

    /// A bot's turn for `holder` to answer within `lease` seconds, among the games of the
    /// modes in `ready` (`bot:NAME`, the entrants with a bot ready): the longest waiting
    /// first, a turn whose holder's lease ran out given again, and one `holder` already held
    /// (a restart or a lost answer cut it off) given back.
    pub async fn claim_turn(
        &self,
        holder: &str,
        ready: &[String],
        lease: i64,
    ) -> Result<Option<PlayRow>, StoreError> {
        if ready.is_empty() {
            return Ok(None);
        }
        let free =
            "turn_at IS NOT NULL AND (turn_holder IS NULL OR turn_holder = $1 OR turn_until < $3)";
        let sql = format!(
            "UPDATE plays SET turn_holder = $1, turn_until = $2 \
             WHERE {free} AND id = (SELECT id FROM plays WHERE {free} AND mode IN ({}) \
               ORDER BY updated, id LIMIT 1{}) RETURNING {COLUMNS}",
            params(4, ready.len()),
            self.backend.skip_locked()
        );
        let at = now();
        let mut query = sqlx::query(&sql).bind(holder).bind(at + lease).bind(at);
        for mode in ready {
            query = query.bind(mode);
        }
        let row = query.fetch_optional(&self.pool).await.map_err(db)?;
        Ok(row.map(|r| play_row(&r)))
    }

    /// The bot's answer to the turn `holder` claimed after `after` moves: the game's moves
    /// now, and why the bot lost if it failed. Whether it was kept (the holder still held the
    /// turn).
    pub async fn answer_turn(
        &self,
        id: &str,
        holder: &str,
        after: usize,
        moves: &[String],
        spent: &[f64],
        forfeit: Option<&str>,
    ) -> Result<bool, StoreError> {
        let done = sqlx::query(
            "UPDATE plays SET moves = $1, plies = $2, updated = $3, forfeit = $4, \
               turn_at = NULL, turn_holder = NULL, turn_until = NULL, spent = $8, since = $9 \
             WHERE id = $5 AND turn_holder = $6 AND turn_at = $7",
        )
        .bind(moves.join(","))
        .bind(moves.len() as i64)
        .bind(now())
        .bind(forfeit)
        .bind(id)
        .bind(holder)
        .bind(after as i64)
        .bind(spent_text(spent))
        .bind(now_ms())
        .execute(&self.pool)
        .await
        .map_err(db)?;
        Ok(done.rows_affected() == 1)
    }
}

/// A game's row as kept, read in [`COLUMNS`]' order.
fn play_row(r: &sqlx::any::AnyRow) -> PlayRow {
    let moves: String = r.get(5);
    PlayRow {
        id: r.get(0),
        mode: r.get(1),
        rules: r.get(2),
        start: r.get(3),
        person: r.get(4),
        moves: moves
            .split(',')
            .filter(|m| !m.is_empty())
            .map(str::to_owned)
            .collect(),
        seed: r.get::<i64, _>(6) as u64,
        bot: r.get(7),
        forfeit: r.get(8),
        waiting: r.get::<Option<i64>, _>(9).is_some(),
        clock: r.get(10),
        spent: r
            .get::<String, _>(11)
            .split(',')
            .filter_map(|ms| ms.parse().ok())
            .collect(),
        since: r.get(12),
    }
}
