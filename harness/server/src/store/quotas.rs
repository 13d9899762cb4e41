//! Each entrant's quotas (crate::config::Quotas): what it has used, and the clause that lets
//! an upload in only within them, part of the one statement that records the version
//! (crate::store::Store::add_version), so that a burst of uploads sent at once cannot pass a
//! bound that each would pass alone.

use std::collections::HashMap;

use serde::Serialize;
use sqlx::Row;

use super::OverQuota;
use super::{db, Backend, Store, StoreError};
use crate::Quotas;

/// What an entrant uses of its quotas.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Usage {
    /// Versions uploaded in the last hour.
    pub uploads_this_hour: i64,
    /// Its versions' files, unpacked, all told.
    pub stored_bytes: i64,
    /// Versions kept.
    pub versions: i64,
    /// Seconds until the oldest upload of the last hour leaves it (0 with none).
    pub next_upload_in: i64,
}

impl Backend {
    /// The time an hour ago, as the `created` columns write it.
    fn hour_ago(self) -> &'static str {
        match self {
            Backend::Sqlite => "datetime('now', '-1 hour')",
            Backend::Postgres => {
                "to_char(now() AT TIME ZONE 'UTC' - interval '1 hour', 'YYYY-MM-DD HH24:MI:SS')"
            }
        }
    }

    /// Seconds from now until `created`-text `at` is an hour old.
    fn until_an_hour_after(self, at: &str) -> String {
        match self {
            Backend::Sqlite => format!(
                "CAST(strftime('%s', {at}) AS INTEGER) + 3600 - CAST(strftime('%s', 'now') AS INTEGER)"
            ),
            Backend::Postgres => format!(
                "CAST(EXTRACT(EPOCH FROM (CAST({at} AS timestamp) + interval '1 hour' - (now() AT TIME ZONE 'UTC'))) AS BIGINT)"
            ),
        }
    }

    /// The condition, over `$1` the entrant and `$4` the new version's bytes, and `$5`, `$6`,
    /// `$7` the quotas (uploads an hour, stored bytes, versions), that an upload keeps within
    /// them.
    pub(super) fn within_quotas(self) -> String {
        format!(
            "(SELECT COUNT(*) FROM versions WHERE entrant_id = $1 AND created > {}) < $5 \
             AND (SELECT COALESCE(SUM(bytes), 0) FROM versions WHERE entrant_id = $1) + $4 <= $6 \
             AND (SELECT COUNT(*) FROM versions WHERE entrant_id = $1) < $7",
            self.hour_ago()
        )
    }
}

impl Backend {
    /// The select list of an entrant's [`Usage`], the entrant's id being `entrant` (an SQL
    /// expression): uploads this hour, stored bytes, versions, seconds to the next upload.
    fn usage_columns(self, entrant: &str) -> String {
        let hour = self.hour_ago();
        let mine = format!("FROM versions WHERE entrant_id = {entrant}");
        format!(
            "(SELECT COUNT(*) {mine} AND created > {hour}), \
             (SELECT CAST(COALESCE(SUM(bytes), 0) AS BIGINT) {mine}), \
             (SELECT COUNT(*) {mine}), \
             (SELECT COALESCE({until}, 0) {mine} AND created > {hour})",
            until = self.until_an_hour_after("MIN(created)"),
        )
    }
}

/// A [`Usage`] from the columns [`Backend::usage_columns`] lists, from column `at` on.
fn usage_at(row: &sqlx::any::AnyRow, at: usize) -> Usage {
    Usage {
        uploads_this_hour: row.get(at),
        stored_bytes: row.get(at + 1),
        versions: row.get(at + 2),
        next_upload_in: row.get::<Option<i64>, _>(at + 3).unwrap_or(0).max(0),
    }
}

impl Store {
    /// What entrant `entrant` uses of its quotas.
    pub async fn usage(&self, entrant: i64) -> Result<Usage, StoreError> {
        let sql = format!("SELECT {}", self.backend.usage_columns("$1"));
        let row = sqlx::query(&sql)
            .bind(entrant)
            .fetch_one(&self.pool)
            .await
            .map_err(db)?;
        Ok(usage_at(&row, 0))
    }

    /// What every entrant uses of its quotas, by name, in one query.
    pub async fn usages(&self) -> Result<HashMap<String, Usage>, StoreError> {
        let sql = format!(
            "SELECT e.name, {} FROM entrants e",
            self.backend.usage_columns("e.id")
        );
        let rows = sqlx::query(&sql).fetch_all(&self.pool).await.map_err(db)?;
        Ok(rows.iter().map(|r| (r.get(0), usage_at(r, 1))).collect())
    }
}

/// The quota an upload of `bytes` by an entrant that uses `usage` would pass; `None` when it
/// fits them all.
pub fn over(quotas: &Quotas, usage: &Usage, bytes: i64) -> Option<OverQuota> {
    if usage.uploads_this_hour >= i64::from(quotas.uploads_per_hour) {
        return Some(OverQuota::Hourly {
            uploads: usage.uploads_this_hour,
            allowed: quotas.uploads_per_hour,
            retry_after: usage.next_upload_in.max(1) as u64,
        });
    }
    if usage.versions >= i64::from(quotas.versions) {
        return Some(OverQuota::Versions {
            have: usage.versions,
            kept: quotas.versions,
        });
    }
    if usage.stored_bytes + bytes > quotas.stored_bytes as i64 {
        return Some(OverQuota::Bytes {
            held: usage.stored_bytes,
            this: bytes,
            kept: quotas.stored_bytes,
        });
    }
    None
}
