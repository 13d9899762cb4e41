//! Each entrant's quotas (crate::config::Quotas): what it has used, and the clause that lets
//! an upload in only within them, part of the one statement that records the version
//! (crate::store::Store::add_version), so that a burst of uploads sent at once cannot pass a
//! bound that each would pass alone.

use serde::Serialize;
use sqlx::Row;

use super::{db, Backend, Store};
use crate::{ApiError, Quotas};

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

impl Store {
    /// What entrant `entrant` uses of its quotas.
    pub async fn usage(&self, entrant: i64) -> Result<Usage, ApiError> {
        let b = self.backend;
        let sql = format!(
            "SELECT (SELECT COUNT(*) FROM versions WHERE entrant_id = $1 AND created > {hour}), \
             (SELECT CAST(COALESCE(SUM(bytes), 0) AS BIGINT) FROM versions WHERE entrant_id = $1), \
             (SELECT COUNT(*) FROM versions WHERE entrant_id = $1), \
             (SELECT COALESCE({until}, 0) FROM versions WHERE entrant_id = $1 AND created > {hour})",
            hour = b.hour_ago(),
            until = b.until_an_hour_after("MIN(created)"),
        );
        let row = sqlx::query(&sql)
            .bind(entrant)
            .fetch_one(&self.pool)
            .await
            .map_err(db)?;
        Ok(Usage {
            uploads_this_hour: row.get(0),
            stored_bytes: row.get(1),
            versions: row.get(2),
            next_upload_in: row.get::<Option<i64>, _>(3).unwrap_or(0).max(0),
        })
    }
}

/// Why an upload of `bytes` was refused when it did not fit `quotas`, as `usage` says.
pub fn refusal(quotas: &Quotas, usage: &Usage, bytes: i64) -> ApiError {
    use axum::http::StatusCode;
    if usage.uploads_this_hour >= i64::from(quotas.uploads_per_hour) {
        return ApiError::too_many(
            format!(
                "you uploaded {} versions in the last hour: the event allows {} an hour",
                usage.uploads_this_hour, quotas.uploads_per_hour
            ),
            usage.next_upload_in.max(1) as u64,
        );
    }
    if usage.versions >= i64::from(quotas.versions) {
        return ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!(
                "you have {} versions: the event keeps {} per entrant",
                usage.versions, quotas.versions
            ),
        );
    }
    if usage.stored_bytes + bytes > quotas.stored_bytes as i64 {
        return ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!(
                "your versions hold {} bytes and this one {bytes}: the event keeps {} bytes per entrant",
                usage.stored_bytes, quotas.stored_bytes
            ),
        );
    }
    // Within every quota now: an upload of the same moment took the room.
    ApiError::too_many("another upload of yours took the room: try again", 1)
}
