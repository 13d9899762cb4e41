//! Remote workers: their names and their tokens' hashes.

use sqlx::Row;

use super::{db, Store, StoreError};

impl Store {
    /// Makes worker `name` with a token (by hash).
    pub async fn add_worker(&self, name: &str, token: &str) -> Result<(), StoreError> {
        match sqlx::query("INSERT INTO workers (name, hash) VALUES ($1, $2)")
            .bind(name)
            .bind(token)
            .execute(&self.pool)
            .await
        {
            Ok(_) => Ok(()),
            Err(sqlx::Error::Database(e)) if e.is_unique_violation() => {
                Err(StoreError::WorkerTaken(name.to_owned()))
            }
            Err(e) => Err(db(e)),
        }
    }

    /// The worker whose token has this hash: its name.
    pub async fn worker_of(&self, token: &str) -> Result<Option<String>, StoreError> {
        let row = sqlx::query("SELECT name FROM workers WHERE hash = $1")
            .bind(token)
            .fetch_optional(&self.pool)
            .await
            .map_err(db)?;
        Ok(row.map(|r| r.get(0)))
    }

    /// Every worker's name, oldest first.
    pub async fn workers(&self) -> Result<Vec<String>, StoreError> {
        let rows = sqlx::query("SELECT name FROM workers ORDER BY id")
            .fetch_all(&self.pool)
            .await
            .map_err(db)?;
        Ok(rows.iter().map(|r| r.get(0)).collect())
    }

    /// The running matches and who holds each: (match, holder).
    pub async fn holders(&self) -> Result<Vec<(i64, String)>, StoreError> {
        let rows =
            sqlx::query("SELECT id, worker FROM matches WHERE state = 'running' ORDER BY id")
                .fetch_all(&self.pool)
                .await
                .map_err(db)?;
        Ok(rows.iter().map(|r| (r.get(0), r.get(1))).collect())
    }
}
