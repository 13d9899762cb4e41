//! Ending checks before their verdict: a version superseded by its entrant's newer upload,
//! the versions of an entrant the host disables, one the host cancels. Each is one
//! transaction: the versions' status and their jobs change together, so a check the pipeline
//! is running finds its version no longer `checking` and its verdict is not written over it
//! (crate::store::Store::finish), and a server that restarts never runs it again.

use sqlx::{Any, Row, Transaction};

use super::{db, Store, StoreError};

/// A version whose entrant uploaded a newer one before its check was done.
pub const SUPERSEDED: &str = "superseded";
/// A version whose check the host ended, or whose entrant the host disabled.
pub const CANCELLED: &str = "cancelled";

/// What a version may be while its check is to come or running.
const PENDING: &str = "status IN ('queued', 'checking')";

/// A version waiting for its check or in it: (entrant, version, status).
pub type Pending = (String, i64, String);

impl Store {
    /// Every version waiting for its check or in it, oldest upload first.
    pub async fn pending_checks(&self) -> Result<Vec<Pending>, StoreError> {
        let rows = sqlx::query(&format!(
            "SELECT e.name, v.number, v.status FROM versions v JOIN entrants e ON e.id = v.entrant_id WHERE v.{PENDING} ORDER BY v.id"
        ))
        .fetch_all(&self.pool)
        .await
        .map_err(db)?;
        Ok(rows
            .iter()
            .map(|r| (r.get(0), r.get(1), r.get(2)))
            .collect())
    }

    /// Cancels version `number` of entrant `name`'s check, if still to come or running: the
    /// job ids the pipeline should stop (the running ones), or `None` when there is no such
    /// version pending.
    pub async fn cancel_version(
        &self,
        entrant: i64,
        number: i64,
        reason: &str,
    ) -> Result<Option<Vec<i64>>, StoreError> {
        let mut tx = self.write_tx().await?;
        let filter = format!("entrant_id = $1 AND number = $2 AND {PENDING}");
        let stopped = end(&mut tx, &filter, entrant, number, CANCELLED, reason).await?;
        tx.commit().await.map_err(db)?;
        Ok(stopped)
    }

    /// Cancels every pending check of an entrant's (it was disabled): the running jobs.
    pub async fn cancel_entrant(&self, name: &str, reason: &str) -> Result<Vec<i64>, StoreError> {
        let Some(entrant) = self.entrant_named(name).await? else {
            return Ok(Vec::new());
        };
        let mut tx = self.write_tx().await?;
        // $2 is not used by this filter but bound all the same (one helper for all three).
        let filter = format!("entrant_id = $1 AND $2 = $2 AND {PENDING} AND {NOT_ACTIVE}");
        let stopped = end(&mut tx, &filter, entrant.id, 0, CANCELLED, reason).await?;
        tx.commit().await.map_err(db)?;
        Ok(stopped.unwrap_or_default())
    }
}

/// Never the entrant's active version (queued again when the server restarts: its check is
/// the ladder's, not the entrant's).
const NOT_ACTIVE: &str =
    "id NOT IN (SELECT active FROM entrants WHERE id = $1 AND active IS NOT NULL)";

/// In `tx`: the entrant's versions below `number` still pending, superseded by it: the jobs
/// running their checks.
pub(super) async fn supersede(
    tx: &mut Transaction<'static, Any>,
    entrant: i64,
    number: i64,
) -> Result<Vec<i64>, StoreError> {
    let filter = format!("entrant_id = $1 AND number < $2 AND {PENDING} AND {NOT_ACTIVE}");
    let reason = format!("superseded by version {number} before its check was done");
    let stopped = end(tx, &filter, entrant, number, SUPERSEDED, &reason).await?;
    Ok(stopped.unwrap_or_default())
}

/// Ends the checks of the versions `filter` picks (over `$1` the entrant, `$2` a number):
/// their status and reason set, their jobs done; the running jobs, or `None` when it picked
/// no version.
async fn end(
    tx: &mut Transaction<'static, Any>,
    filter: &str,
    entrant: i64,
    number: i64,
    status: &str,
    reason: &str,
) -> Result<Option<Vec<i64>>, StoreError> {
    let picked = sqlx::query(&format!("SELECT id FROM versions WHERE {filter}"))
        .bind(entrant)
        .bind(number)
        .fetch_all(&mut **tx)
        .await
        .map_err(db)?;
    if picked.is_empty() {
        return Ok(None);
    }
    let mut running = Vec::new();
    for row in picked {
        let version: i64 = row.get(0);
        let jobs = sqlx::query("SELECT id FROM jobs WHERE version_id = $1 AND state = 'running'")
            .bind(version)
            .fetch_all(&mut **tx)
            .await
            .map_err(db)?;
        running.extend(jobs.iter().map(|j| j.get::<i64, _>(0)));
        sqlx::query("UPDATE jobs SET state = 'done' WHERE version_id = $1")
            .bind(version)
            .execute(&mut **tx)
            .await
            .map_err(db)?;
        sqlx::query("UPDATE versions SET status = $1, reason = $2 WHERE id = $3")
            .bind(status)
            .bind(reason)
            .bind(version)
            .execute(&mut **tx)
            .await
            .map_err(db)?;
    }
    Ok(Some(running))
}
