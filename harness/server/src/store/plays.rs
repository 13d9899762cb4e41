//! Games people play on the play page (crate::domain::play), each under its random id: how it
//! was started and its moves so far. A move is kept only over the moves it was played after,
//! so two answers to the same position (two tabs, a request sent twice) never both count.

use sqlx::Row;

use super::{db, matches::now, Store, StoreError};

/// A played game as kept: how it started and its moves, in the project's notation.
#[derive(Clone, Debug, PartialEq, Eq)]
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
}

impl Store {
    /// Keeps a new game with its first moves (a level's, when it begins).
    pub async fn add_play(&self, row: &PlayRow) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO plays (id, mode, rules, start, person, moves, plies, seed, created, updated) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9)",
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
        .execute(&self.pool)
        .await
        .map_err(db)?;
        Ok(())
    }

    /// The game with this id.
    pub async fn play(&self, id: &str) -> Result<Option<PlayRow>, StoreError> {
        let row = sqlx::query(
            "SELECT id, mode, rules, start, person, moves, seed FROM plays WHERE id = $1",
        )
        .bind(id)
        .fetch_optional(&self.pool)
        .await
        .map_err(db)?;
        Ok(row.map(|r| play_row(&r)))
    }

    /// Every game, the oldest first.
    pub async fn plays(&self) -> Result<Vec<PlayRow>, StoreError> {
        let rows = sqlx::query(
            "SELECT id, mode, rules, start, person, moves, seed FROM plays ORDER BY created, id",
        )
        .fetch_all(&self.pool)
        .await
        .map_err(db)?;
        Ok(rows.iter().map(play_row).collect())
    }

    /// Sets the game's moves to `moves`, if it still has the `after` moves it had when they
    /// were chosen: whether they were kept.
    pub async fn extend_play(
        &self,
        id: &str,
        after: usize,
        moves: &[String],
    ) -> Result<bool, StoreError> {
        let done = sqlx::query(
            "UPDATE plays SET moves = $1, plies = $2, updated = $3 WHERE id = $4 AND plies = $5",
        )
        .bind(moves.join(","))
        .bind(moves.len() as i64)
        .bind(now())
        .bind(id)
        .bind(after as i64)
        .execute(&self.pool)
        .await
        .map_err(db)?;
        Ok(done.rows_affected() == 1)
    }
}

/// A game's row as kept.
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
    }
}
