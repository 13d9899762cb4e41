//! The pipeline's jobs, one per version to check: claimed by a checker under its name (a claim
//! asked again is given the same job), ended with the version's verdict, and at start those a
//! stop cut off queued again once. Ending a check early is in [`super::checks`].

use sqlx::Row;

use super::{db, Store, StoreError};

/// A job of the pipeline, claimed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Job {
    pub id: i64,
    /// The version's row.
    pub version_id: i64,
    pub entrant: String,
    pub version: i64,
    pub digest: String,
}

impl Store {
    /// Claims the oldest queued job for `holder` (one of the pipeline's checkers, which holds
    /// one job at a time), marking it and its version as running. A holder that asks while it
    /// holds a running job is given that job again: its earlier claim was committed but the
    /// answer lost, and the claim may be repeated safely.
    pub async fn claim(&self, holder: &str) -> Result<Option<Job>, StoreError> {
        let mut tx = self.write_tx().await?;
        // A write that changes nothing, not a read: on SQLite a transaction that reads first
        // cannot wait for the write lock when it then writes (it fails at once as busy).
        let held = sqlx::query(
            "UPDATE jobs SET holder = $1 WHERE state = 'running' AND holder = $1 RETURNING id, version_id",
        )
        .bind(holder)
        .fetch_optional(&mut *tx)
        .await
        .map_err(db)?;
        let row = match held {
            Some(row) => Some(row),
            None => {
                let sql = format!(
                    "UPDATE jobs SET state = 'running', attempts = attempts + 1, holder = $1 \
                     WHERE state = 'queued' AND id = (SELECT id FROM jobs WHERE state = 'queued' ORDER BY id LIMIT 1{}) \
                     RETURNING id, version_id",
                    self.backend.skip_locked()
                );
                sqlx::query(&sql)
                    .bind(holder)
                    .fetch_optional(&mut *tx)
                    .await
                    .map_err(db)?
            }
        };
        let Some(row) = row else {
            return Ok(None);
        };
        let (id, version): (i64, i64) = (row.get(0), row.get(1));
        sqlx::query("UPDATE versions SET status = 'checking' WHERE id = $1")
            .bind(version)
            .execute(&mut *tx)
            .await
            .map_err(db)?;
        let row = sqlx::query(
            "SELECT e.name, v.number, v.digest FROM versions v JOIN entrants e ON e.id = v.entrant_id WHERE v.id = $1",
        )
        .bind(version)
        .fetch_one(&mut *tx)
        .await
        .map_err(db)?;
        tx.commit().await.map_err(db)?;
        Ok(Some(Job {
            id,
            version_id: version,
            entrant: row.get(0),
            version: row.get(1),
            digest: row.get(2),
        }))
    }

    /// Ends a job with its version's verdict: whether it was written (not when the check was
    /// superseded or cancelled meanwhile: the version keeps saying so). The same verdict given
    /// again counts as written, so a write whose answer was lost may be tried again.
    pub async fn finish(&self, job: i64, status: &str, reason: &str) -> Result<bool, StoreError> {
        let mut tx = self.write_tx().await?;
        sqlx::query("UPDATE jobs SET state = 'done' WHERE id = $1")
            .bind(job)
            .execute(&mut *tx)
            .await
            .map_err(db)?;
        let written = sqlx::query(
            "UPDATE versions SET status = $1, reason = $2 WHERE id = (SELECT version_id FROM jobs WHERE id = $3) AND (status IN ('checking', 'queued') OR (status = $1 AND reason = $2))",
        )
        .bind(status)
        .bind(reason)
        .bind(job)
        .execute(&mut *tx)
        .await
        .map_err(db)?;
        tx.commit().await.map_err(db)?;
        Ok(written.rows_affected() == 1)
    }

    /// Queues a job for every active version (at start: their built copies are gone), which
    /// shows as `queued` until it is checked again.
    pub async fn requeue_actives(&self) -> Result<(), StoreError> {
        let mut tx = self.write_tx().await?;
        sqlx::query(
            "INSERT INTO jobs (version_id) SELECT active FROM entrants e WHERE active IS NOT NULL \
             AND NOT EXISTS (SELECT 1 FROM jobs j WHERE j.version_id = e.active AND j.state = 'queued')",
        )
        .execute(&mut *tx)
        .await
        .map_err(db)?;
        sqlx::query(
            "UPDATE versions SET status = 'queued' WHERE id IN (SELECT active FROM entrants WHERE active IS NOT NULL)",
        )
        .execute(&mut *tx)
        .await
        .map_err(db)?;
        tx.commit().await.map_err(db)
    }

    /// At start: jobs a stop cut off run again, once; a second cut fails the version.
    pub async fn recover(&self) -> Result<(), StoreError> {
        let cut = sqlx::query("SELECT id, attempts FROM jobs WHERE state = 'running'")
            .fetch_all(&self.pool)
            .await
            .map_err(db)?;
        for row in cut {
            let (id, attempts): (i64, i64) = (row.get(0), row.get(1));
            if attempts < 2 {
                sqlx::query("UPDATE jobs SET state = 'queued' WHERE id = $1")
                    .bind(id)
                    .execute(&self.pool)
                    .await
                    .map_err(db)?;
                sqlx::query("UPDATE versions SET status = 'queued' WHERE id = (SELECT version_id FROM jobs WHERE id = $1)")
                    .bind(id)
                    .execute(&self.pool)
                    .await
                    .map_err(db)?;
            } else {
                let _ = self
                    .finish(
                        id,
                        "failed",
                        "the server stopped twice while checking this version: upload it again",
                    )
                    .await?;
            }
        }
        Ok(())
    }

    /// The job of one of the entrant's versions.
    pub async fn job_of(&self, entrant: i64, number: i64) -> Result<Option<i64>, StoreError> {
        let row = sqlx::query(
            "SELECT j.id FROM jobs j JOIN versions v ON v.id = j.version_id WHERE v.entrant_id = $1 AND v.number = $2 ORDER BY j.id DESC LIMIT 1",
        )
        .bind(entrant)
        .bind(number)
        .fetch_optional(&self.pool)
        .await
        .map_err(db)?;
        Ok(row.map(|r| r.get(0)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_claim_asked_again_by_its_checker_is_given_the_same_job() {
        let dir = tempfile::tempdir().unwrap();
        let url = format!("sqlite://{}", dir.path().join("t.db").display());
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        runtime.block_on(async {
            let s = Store::open(&url).await.unwrap();
            for (i, name) in ["a", "b"].iter().enumerate() {
                s.sign_up(name, None, &format!("token-{name}"))
                    .await
                    .unwrap();
                s.add_version(i as i64 + 1, "d", 1, 1, &crate::Quotas::default())
                    .await
                    .unwrap();
            }
            let claim = |holder: &'static str| {
                let s = s.clone();
                async move { s.claim(holder).await.unwrap().map(|j| (j.id, j.entrant)) }
            };
            let (a, b) = ((1, "a".to_owned()), (2, "b".to_owned()));
            // Its answer lost, check-1 asks again: the job it took, not b's.
            assert_eq!(claim("check-1").await, Some(a.clone()));
            assert_eq!(claim("check-1").await, Some(a.clone()));
            assert_eq!(claim("check-2").await, Some(b.clone()));
            assert_eq!(claim("check-3").await, None);
            // Once its verdict is written, the checker holds nothing.
            assert!(s.finish(1, "admitted", "").await.unwrap());
            assert_eq!(claim("check-1").await, None);
            // At start, b's job (cut off by the stop) is queued again for any checker.
            s.recover().await.unwrap();
            assert_eq!(claim("check-1").await, Some(b));
        });
    }
}
