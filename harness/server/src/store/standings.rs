//! The leaderboard's history: fits of the ladder kept as they were (migration 0014).

use sqlx::Row;

use super::{db, Store, StoreError};

/// A fit of the ladder, as it was kept.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Kept {
    /// When it was kept, in milliseconds since 1970.
    pub at: i64,
    /// How many ladder games it fitted, and the highest of their ids (-1: none).
    pub games: i64,
    pub last_game: i64,
    /// The standings as the API gives them (JSON).
    pub body: String,
}

fn kept(r: sqlx::any::AnyRow) -> Kept {
    Kept {
        at: r.get(0),
        games: r.get(1),
        last_game: r.get(2),
        body: r.get(3),
    }
}

impl Store {
    /// Keeps a fit.
    pub async fn keep_standings(&self, k: &Kept) -> Result<(), StoreError> {
        sqlx::query("INSERT INTO standings (at, games, last_game, body) VALUES ($1, $2, $3, $4)")
            .bind(k.at)
            .bind(k.games)
            .bind(k.last_game)
            .bind(&k.body)
            .execute(&self.pool)
            .await
            .map_err(db)?;
        Ok(())
    }

    /// The last fit kept at or before `at` (milliseconds since 1970).
    pub async fn standings_at(&self, at: i64) -> Result<Option<Kept>, StoreError> {
        let row = sqlx::query(
            "SELECT at, games, last_game, body FROM standings WHERE at <= $1 \
             ORDER BY at DESC, id DESC LIMIT 1",
        )
        .bind(at)
        .fetch_optional(&self.pool)
        .await
        .map_err(db)?;
        Ok(row.map(kept))
    }

    /// Every fit kept, the oldest first.
    pub async fn standings_history(&self) -> Result<Vec<Kept>, StoreError> {
        let rows = sqlx::query("SELECT at, games, last_game, body FROM standings ORDER BY at, id")
            .fetch_all(&self.pool)
            .await
            .map_err(db)?;
        Ok(rows.into_iter().map(kept).collect())
    }

    /// Each of an entrant's versions that played on the ladder: its number and the id of its
    /// first ladder game counted.
    pub async fn version_starts(&self, entrant: i64) -> Result<Vec<(i64, i64)>, StoreError> {
        let rows = sqlx::query(
            "SELECT v.number, MIN(g.id) FROM versions v \
             JOIN matches m ON m.first = v.id OR m.second = v.id \
             JOIN games g ON g.match_id = m.id \
             WHERE v.entrant_id = $1 AND m.kind = 'ladder' AND m.state = 'done' \
             GROUP BY v.number ORDER BY v.number",
        )
        .bind(entrant)
        .fetch_all(&self.pool)
        .await
        .map_err(db)?;
        Ok(rows.into_iter().map(|r| (r.get(0), r.get(1))).collect())
    }
}
