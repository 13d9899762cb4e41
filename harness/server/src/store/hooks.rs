//! Word to entrants and the host: each entrant's webhook and the queue of messages the
//! sender sends (migration 0015, crate::hooks).

use sqlx::Row;

use super::{db, Store, StoreError};

/// A message waiting to be sent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hook {
    pub id: i64,
    pub url: String,
    /// The JSON sent.
    pub body: String,
    /// How often it was tried.
    pub tries: i64,
}

impl Store {
    /// Sets (or, with none, removes) an entrant's webhook: whether there is such an entrant.
    pub async fn set_webhook(&self, entrant: &str, url: Option<&str>) -> Result<bool, StoreError> {
        let done = sqlx::query("UPDATE entrants SET webhook = $1 WHERE name = $2")
            .bind(url)
            .bind(entrant)
            .execute(&self.pool)
            .await
            .map_err(db)?;
        Ok(done.rows_affected() == 1)
    }

    /// An entrant's webhook, if it set one.
    pub async fn webhook(&self, entrant: &str) -> Result<Option<String>, StoreError> {
        let row = sqlx::query("SELECT webhook FROM entrants WHERE name = $1")
            .bind(entrant)
            .fetch_optional(&self.pool)
            .await
            .map_err(db)?;
        Ok(row.and_then(|r| r.get::<Option<String>, _>(0)))
    }

    /// Every entrant's webhook that is set (none of a disabled entrant's).
    pub async fn webhooks(&self) -> Result<Vec<String>, StoreError> {
        let rows = sqlx::query(
            "SELECT webhook FROM entrants WHERE webhook IS NOT NULL AND disabled IS NULL \
             ORDER BY id",
        )
        .fetch_all(&self.pool)
        .await
        .map_err(db)?;
        Ok(rows.into_iter().map(|r| r.get(0)).collect())
    }

    /// Queues `body` for `url`, due at `now` (milliseconds since 1970).
    pub async fn queue_hook(&self, url: &str, body: &str, now: i64) -> Result<(), StoreError> {
        sqlx::query("INSERT INTO hooks (url, body, due) VALUES ($1, $2, $3)")
            .bind(url)
            .bind(body)
            .bind(now)
            .execute(&self.pool)
            .await
            .map_err(db)?;
        Ok(())
    }

    /// The messages due by `now`, the oldest first, at most `limit`.
    pub async fn due_hooks(&self, now: i64, limit: i64) -> Result<Vec<Hook>, StoreError> {
        let rows = sqlx::query(
            "SELECT id, url, body, tries FROM hooks \
             WHERE sent IS NULL AND given_up IS NULL AND due <= $1 ORDER BY due, id LIMIT $2",
        )
        .bind(now)
        .bind(limit)
        .fetch_all(&self.pool)
        .await
        .map_err(db)?;
        Ok(rows
            .into_iter()
            .map(|r| Hook {
                id: r.get(0),
                url: r.get(1),
                body: r.get(2),
                tries: r.get(3),
            })
            .collect())
    }

    /// Message `id` was taken by its hook at `now`.
    pub async fn hook_sent(&self, id: i64, now: i64) -> Result<(), StoreError> {
        sqlx::query("UPDATE hooks SET sent = $1, tries = tries + 1 WHERE id = $2")
            .bind(now)
            .bind(id)
            .execute(&self.pool)
            .await
            .map_err(db)?;
        Ok(())
    }

    /// Message `id` failed (`error`): tried again at `due`, or given up when none.
    pub async fn hook_failed(
        &self,
        id: i64,
        error: &str,
        due: Option<i64>,
        now: i64,
    ) -> Result<(), StoreError> {
        let query = match due {
            Some(due) => sqlx::query(
                "UPDATE hooks SET tries = tries + 1, error = $1, due = $2 WHERE id = $3",
            )
            .bind(error)
            .bind(due)
            .bind(id),
            None => sqlx::query(
                "UPDATE hooks SET tries = tries + 1, error = $1, given_up = $2 WHERE id = $3",
            )
            .bind(error)
            .bind(now)
            .bind(id),
        };
        query.execute(&self.pool).await.map_err(db)?;
        Ok(())
    }

    /// The last `limit` messages, the newest first, for the host.
    pub async fn hooks_log(&self, limit: i64) -> Result<Vec<HookState>, StoreError> {
        let rows = sqlx::query(
            "SELECT id, url, body, tries, sent, given_up, error FROM hooks ORDER BY id DESC \
             LIMIT $1",
        )
        .bind(limit)
        .fetch_all(&self.pool)
        .await
        .map_err(db)?;
        Ok(rows
            .into_iter()
            .map(|r| HookState {
                id: r.get(0),
                url: r.get(1),
                body: r.get(2),
                tries: r.get(3),
                sent: r.get(4),
                given_up: r.get(5),
                error: r.get(6),
            })
            .collect())
    }
}

/// A message as the host sees it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct HookState {
    pub id: i64,
    pub url: String,
    pub body: String,
    pub tries: i64,
    pub sent: Option<i64>,
    pub given_up: Option<i64>,
    pub error: String,
}
