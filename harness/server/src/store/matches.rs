//! The matches: queued by the ladder (or by an entrant, a test match), taken by a worker with
//! a lease its heartbeat renews, finished with their games in one transaction (only by the
//! worker that still holds the lease, so no game is counted twice), rerun and cancelled.

use sqlx::Row;

use super::{db, Store, StoreError};

/// The host's switch that stops workers taking ladder matches (test matches still run).
pub const LADDER_PAUSED: &str = "ladder_paused";
/// Why a match given to workers twice, and lost by both, is not given a third time.
const LOST_TWICE: &str = "its worker was lost twice while playing it";

/// A match as a worker takes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchJob {
    pub id: i64,
    /// The two versions' rows, the first seat of game 1 first.
    pub first: i64,
    pub second: i64,
    /// Their entrants' names.
    pub first_name: String,
    pub second_name: String,
    /// Their packs' digests.
    pub first_digest: String,
    pub second_digest: String,
    /// The variant, as a rules spec.
    pub rules: String,
    pub seed: u64,
}

/// A match is ladder or test.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Ladder,
    Test,
}

impl Kind {
    pub(super) fn word(self) -> &'static str {
        match self {
            Kind::Ladder => "ladder",
            Kind::Test => "test",
        }
    }
}

/// Seconds since the Unix epoch.
pub fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}

impl Store {
    /// Queues a match between two versions: its id (also its seed).
    pub async fn queue_match(
        &self,
        first: i64,
        second: i64,
        kind: Kind,
        rules: &str,
        requested_by: Option<i64>,
    ) -> Result<i64, StoreError> {
        let row = match sqlx::query(
            "INSERT INTO matches (first, second, state, kind, rules, requested_by) \
             VALUES ($1, $2, 'queued', $3, $4, $5) RETURNING id",
        )
        .bind(first)
        .bind(second)
        .bind(kind.word())
        .bind(rules)
        .bind(requested_by)
        .fetch_one(&self.pool)
        .await
        {
            Ok(row) => row,
            // The index `one_test_match`: the check and the queueing are one statement.
            Err(sqlx::Error::Database(e)) if e.is_unique_violation() => {
                return Err(StoreError::TestPending)
            }
            Err(e) => return Err(db(e)),
        };
        let id: i64 = row.get(0);
        sqlx::query("UPDATE matches SET seed = $1 WHERE id = $1")
            .bind(id)
            .execute(&self.pool)
            .await
            .map_err(db)?;
        Ok(id)
    }

    /// How many matches of this kind wait for a worker.
    pub async fn queued(&self, kind: Kind) -> Result<i64, StoreError> {
        let row = sqlx::query("SELECT COUNT(*) FROM matches WHERE kind = $1 AND state = 'queued'")
            .bind(kind.word())
            .fetch_one(&self.pool)
            .await
            .map_err(db)?;
        Ok(row.get(0))
    }

    /// The test match an entrant asked for that is not played yet, if any.
    pub async fn pending_test(&self, entrant: i64) -> Result<Option<i64>, StoreError> {
        let row = sqlx::query(
            "SELECT id FROM matches WHERE kind = 'test' AND requested_by = $1 AND state IN ('queued', 'running')",
        )
        .bind(entrant)
        .fetch_optional(&self.pool)
        .await
        .map_err(db)?;
        Ok(row.map(|r| r.get(0)))
    }

    /// Takes the oldest queued match whose two versions are in `ready` (test matches first;
    /// ladder matches only if `ladder`) for `worker`, with a lease of `lease` seconds.
    ///
    /// A worker (one slot of it) plays one match at a time, so one that asks while it holds a
    /// running match lost the answer to its claim, or was restarted: it is given that match
    /// again, its lease renewed, rather than a second one while the first waits for its lease
    /// to run out. Each giving counts as an attempt, as a lease run out does
    /// ([`Store::reap`]): a match held at its second attempt fails instead, so a match that
    /// brings its worker down is not played forever.
    pub async fn claim_match(
        &self,
        worker: &str,
        ready: &[i64],
        ladder: bool,
        lease: i64,
    ) -> Result<Option<MatchJob>, StoreError> {
        // One statement (a claim is on every match's path): the slot's held match given again
        // with its lease renewed, or failed if this would be its third attempt. The CASEs read
        // the row as it was; RETURNING gives it as it is now.
        let held = sqlx::query(
            "UPDATE matches SET \
               state = CASE WHEN attempts >= 2 THEN 'failed' ELSE state END, \
               reason = CASE WHEN attempts >= 2 THEN $1 ELSE reason END, \
               lease = CASE WHEN attempts >= 2 THEN NULL ELSE $2 END, \
               worker = CASE WHEN attempts >= 2 THEN NULL ELSE worker END, \
               attempts = CASE WHEN attempts >= 2 THEN attempts ELSE attempts + 1 END \
             WHERE worker = $3 AND state = 'running' RETURNING id, first, second, rules, seed, state",
        )
        .bind(LOST_TWICE)
        .bind(now() + lease)
        .bind(worker)
        .fetch_optional(&self.pool)
        .await
        .map_err(db)?
        .filter(|row| row.get::<String, _>(5) == "running");
        if let Some(row) = held {
            return self.job(&row).await.map(Some);
        }
        if ready.is_empty() {
            return Ok(None);
        }
        // The versions as parameters $4, $5, …; on PostgreSQL, a match another worker is
        // taking at this moment is skipped, not waited for. The host's pause is read by this
        // statement itself: a worker that read the switch a moment before the host set it
        // takes no ladder match once the pause is written.
        let ready_list = params(4, ready.len());
        let sql = format!(
            "UPDATE matches SET state = 'running', attempts = attempts + 1, worker = $1, lease = $2 \
             WHERE state = 'queued' AND id = (SELECT id FROM matches WHERE state = 'queued' \
               AND first IN ({ready_list}) AND second IN ({ready_list}) \
               AND (kind = 'test' OR ($3 AND NOT EXISTS (SELECT 1 FROM switches \
                 WHERE name = '{LADDER_PAUSED}' AND value <> 0))) \
               ORDER BY kind = 'ladder', id LIMIT 1{}) \
             RETURNING id, first, second, rules, seed",
            self.backend.skip_locked()
        );
        let mut query = sqlx::query(&sql)
            .bind(worker)
            .bind(now() + lease)
            .bind(ladder);
        for v in ready {
            query = query.bind(*v);
        }
        let row = query.fetch_optional(&self.pool).await.map_err(db)?;
        match row {
            Some(row) => self.job(&row).await.map(Some),
            None => Ok(None),
        }
    }

    /// The match `worker` holds as `id`, if it still does.
    pub async fn running_match(
        &self,
        id: i64,
        worker: &str,
    ) -> Result<Option<MatchJob>, StoreError> {
        let row = sqlx::query(
            "SELECT id, first, second, rules, seed FROM matches WHERE id = $1 AND worker = $2 AND state = 'running'",
        )
        .bind(id)
        .bind(worker)
        .fetch_optional(&self.pool)
        .await
        .map_err(db)?;
        match row {
            Some(row) => self.job(&row).await.map(Some),
            None => Ok(None),
        }
    }

    /// A match as a worker takes it, from its row's (id, first, second, rules, seed).
    async fn job(&self, row: &sqlx::any::AnyRow) -> Result<MatchJob, StoreError> {
        let (id, first, second): (i64, i64, i64) = (row.get(0), row.get(1), row.get(2));
        let names = sqlx::query(
            "SELECT ea.name, eb.name, va.digest, vb.digest FROM versions va JOIN entrants ea ON ea.id = va.entrant_id, \
             versions vb JOIN entrants eb ON eb.id = vb.entrant_id WHERE va.id = $1 AND vb.id = $2",
        )
        .bind(first)
        .bind(second)
        .fetch_one(&self.pool)
        .await
        .map_err(db)?;
        Ok(MatchJob {
            id,
            first,
            second,
            first_name: names.get(0),
            second_name: names.get(1),
            first_digest: names.get(2),
            second_digest: names.get(3),
            rules: row.get(3),
            seed: row.get::<i64, _>(4) as u64,
        })
    }

    /// Renews `worker`'s lease on a match: false if it is no longer its own.
    pub async fn heartbeat(&self, id: i64, worker: &str, lease: i64) -> Result<bool, StoreError> {
        let done = sqlx::query(
            "UPDATE matches SET lease = $1 WHERE id = $2 AND worker = $3 AND state = 'running'",
        )
        .bind(now() + lease)
        .bind(id)
        .bind(worker)
        .execute(&self.pool)
        .await
        .map_err(db)?;
        Ok(done.rows_affected() == 1)
    }

    /// Ends a match with its games, all or none, if `worker` still holds it: whether it did.
    pub async fn finish_match(
        &self,
        id: i64,
        worker: &str,
        records: &[String],
    ) -> Result<bool, StoreError> {
        let mut tx = self.write_tx().await?;
        let held = sqlx::query(
            "UPDATE matches SET state = 'done', lease = NULL WHERE id = $1 AND worker = $2 AND state = 'running'",
        )
        .bind(id)
        .bind(worker)
        .execute(&mut *tx)
        .await
        .map_err(db)?;
        if held.rows_affected() != 1 {
            return Ok(false);
        }
        for r in records {
            sqlx::query("INSERT INTO games (match_id, record) VALUES ($1, $2)")
                .bind(id)
                .bind(r)
                .execute(&mut *tx)
                .await
                .map_err(db)?;
        }
        stamp(&mut tx, id).await?;
        tx.commit().await.map_err(db)?;
        Ok(true)
    }

    /// Ends a match `worker` holds as failed, with the reason.
    pub async fn fail_match(&self, id: i64, worker: &str, reason: &str) -> Result<(), StoreError> {
        sqlx::query(
            "UPDATE matches SET state = 'failed', lease = NULL, reason = $1 WHERE id = $2 AND worker = $3 AND state = 'running'",
        )
        .bind(reason)
        .bind(id)
        .bind(worker)
        .execute(&self.pool)
        .await
        .map_err(db)?;
        Ok(())
    }

    /// Matches whose worker's lease ran out (or, `all_of`, held by a worker whose name starts
    /// so: the server's own, at start) run again, once; a second loss fails them. How many.
    pub async fn reap(&self, all_of: Option<&str>) -> Result<u64, StoreError> {
        let prefix = all_of.map(|p| format!("{p}%"));
        // One statement, so that a match taken again meanwhile is not touched.
        let lost = sqlx::query(
            "UPDATE matches SET \
               state = CASE WHEN attempts < 2 THEN 'queued' ELSE 'failed' END, \
               reason = CASE WHEN attempts < 2 THEN '' ELSE $3 END, \
               worker = NULL, lease = NULL \
             WHERE state = 'running' AND (lease < $1 OR worker LIKE $2)",
        )
        .bind(now())
        .bind(prefix.as_deref().unwrap_or(""))
        .bind(LOST_TWICE)
        .execute(&self.pool)
        .await
        .map_err(db)?;
        Ok(lost.rows_affected())
    }

    /// Cancels a match not yet done (its worker's result, if it comes, is dropped): whether
    /// there was one to cancel.
    pub async fn cancel_match(&self, id: i64, reason: &str) -> Result<bool, StoreError> {
        let done = sqlx::query(
            "UPDATE matches SET state = 'cancelled', reason = $1, lease = NULL WHERE id = $2 AND state IN ('queued', 'running')",
        )
        .bind(reason)
        .bind(id)
        .execute(&self.pool)
        .await
        .map_err(db)?;
        Ok(done.rows_affected() == 1)
    }

    /// Plays a match again: the old one is cancelled (its games stop counting) and a new one
    /// with the same versions, variant and seed is queued. The new one's id.
    pub async fn rerun_match(&self, id: i64) -> Result<Option<i64>, StoreError> {
        let mut tx = self.write_tx().await?;
        let row = sqlx::query(
            "INSERT INTO matches (first, second, state, kind, rules, seed, requested_by) \
             SELECT first, second, 'queued', kind, rules, seed, requested_by FROM matches \
             WHERE id = $1 AND state IN ('done', 'failed', 'cancelled') RETURNING id",
        )
        .bind(id)
        .fetch_optional(&mut *tx)
        .await
        .map_err(db)?;
        let Some(row) = row else {
            return Ok(None);
        };
        let new: i64 = row.get(0);
        sqlx::query("UPDATE matches SET state = 'cancelled', reason = $1 WHERE id = $2")
            .bind(format!("rerun as match {new}"))
            .bind(id)
            .execute(&mut *tx)
            .await
            .map_err(db)?;
        stamp(&mut tx, id).await?;
        tx.commit().await.map_err(db)?;
        Ok(Some(new))
    }

    /// Cancels the queued ladder matches of versions no longer on the ladder.
    pub async fn drop_stale(&self, players: &[i64]) -> Result<(), StoreError> {
        let stale = if players.is_empty() {
            "TRUE".to_owned()
        } else {
            let list = params(1, players.len());
            format!("first NOT IN ({list}) OR second NOT IN ({list})")
        };
        let sql = format!(
            "UPDATE matches SET state = 'cancelled', reason = 'a version left the ladder before it was played' \
             WHERE state = 'queued' AND kind = 'ladder' AND ({stale})"
        );
        let mut query = sqlx::query(&sql);
        for v in players {
            query = query.bind(*v);
        }
        query.execute(&self.pool).await.map_err(db)?;
        Ok(())
    }
}

/// `$from, $from+1, …`: `n` parameters for an `IN` list.
pub(super) fn params(from: usize, n: usize) -> String {
    (from..from + n)
        .map(|i| format!("${i}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Stamps match `id` as a change of the ladder (its games start or stop counting), in `tx`,
/// with the `ladder` counter's next value. Taking the value locks the counter's row until `tx`
/// commits, so stamps are committed in their order (migrations/*/0007_ladder_changes.sql) and
/// the leaderboard reads only the stamps after the last it saw.
async fn stamp(tx: &mut sqlx::Transaction<'_, sqlx::Any>, id: i64) -> Result<(), StoreError> {
    let row =
        sqlx::query("UPDATE counters SET value = value + 1 WHERE name = 'ladder' RETURNING value")
            .fetch_one(&mut **tx)
            .await
            .map_err(db)?;
    let n: i64 = row.get(0);
    sqlx::query("UPDATE matches SET changed = $1 WHERE id = $2")
        .bind(n)
        .bind(id)
        .execute(&mut **tx)
        .await
        .map_err(db)?;
    Ok(())
}

#[cfg(test)]
#[path = "matches_tests.rs"]
mod tests;
