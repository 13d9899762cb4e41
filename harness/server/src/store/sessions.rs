//! The pages' sessions: a cookie's secret kept as its SHA-256, for an entrant or the host,
//! until it expires or its holder logs out.

use sqlx::Row;

use super::{db, matches::now, Entrant, Store, StoreError};

/// Who a session is for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SessionOf {
    Entrant(Entrant),
    Host,
}

impl Store {
    /// Keeps a session (by hash) for `entrant` (`None`: the host) for `seconds`.
    pub async fn add_session(
        &self,
        hash: &str,
        entrant: Option<i64>,
        seconds: i64,
    ) -> Result<(), StoreError> {
        // Expired sessions go as new ones come: the table holds only live ones and a few more.
        sqlx::query("DELETE FROM sessions WHERE expires <= $1")
            .bind(now())
            .execute(&self.pool)
            .await
            .map_err(db)?;
        sqlx::query("INSERT INTO sessions (hash, entrant_id, expires) VALUES ($1, $2, $3)")
            .bind(hash)
            .bind(entrant)
            .bind(now() + seconds)
            .execute(&self.pool)
            .await
            .map_err(db)?;
        Ok(())
    }

    /// The live session with this hash.
    pub async fn session(&self, hash: &str) -> Result<Option<SessionOf>, StoreError> {
        let row = sqlx::query(
            "SELECT s.entrant_id, e.name, e.disabled FROM sessions s \
             LEFT JOIN entrants e ON e.id = s.entrant_id WHERE s.hash = $1 AND s.expires > $2",
        )
        .bind(hash)
        .bind(now())
        .fetch_optional(&self.pool)
        .await
        .map_err(db)?;
        Ok(row.map(|r| match r.get::<Option<i64>, _>(0) {
            None => SessionOf::Host,
            Some(id) => SessionOf::Entrant(Entrant {
                id,
                name: r.get(1),
                disabled: r.get(2),
            }),
        }))
    }

    /// Ends the session with this hash.
    pub async fn drop_session(&self, hash: &str) -> Result<(), StoreError> {
        sqlx::query("DELETE FROM sessions WHERE hash = $1")
            .bind(hash)
            .execute(&self.pool)
            .await
            .map_err(db)?;
        Ok(())
    }
}
