//! The database: entrants, their tokens, invites and versions, behind typed calls. SQLite
//! here (one file, WAL, foreign keys on); the schema is `migrations/`, embedded and applied
//! at start.

use std::str::FromStr;

use axum::http::StatusCode;
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions};
use sqlx::{Row, SqlitePool};

use crate::{ApiError, ServerError};

/// The schema's migrations.
static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("./migrations");

/// An entrant, as a token names it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entrant {
    pub id: i64,
    pub name: String,
}

/// One upload of an entrant's.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Version {
    /// 1 for the first upload, then 2, …
    pub version: i64,
    /// The SHA-256 of its files as the server packs them (docs/server.md).
    pub digest: String,
    pub files: i64,
    pub bytes: i64,
    /// `uploaded` (next: built, checked, placed, active, failed).
    pub status: String,
}

#[derive(Clone)]
pub struct Store {
    pool: SqlitePool,
}

fn db(e: sqlx::Error) -> ApiError {
    ApiError::internal(format!("database: {e}"))
}

impl Store {
    /// Opens (creating if needed) and migrates the database at `url`.
    pub async fn open(url: &str) -> Result<Store, ServerError> {
        let fail = |why: String| ServerError::Database {
            url: url.to_owned(),
            why,
        };
        let options = SqliteConnectOptions::from_str(url)
            .map_err(|e| fail(e.to_string()))?
            .create_if_missing(true)
            .journal_mode(SqliteJournalMode::Wal)
            .foreign_keys(true);
        let pool = SqlitePoolOptions::new()
            .max_connections(4)
            .connect_with(options)
            .await
            .map_err(|e| fail(e.to_string()))?;
        MIGRATOR.run(&pool).await.map_err(|e| fail(e.to_string()))?;
        Ok(Store { pool })
    }

    /// Keeps an invite's hash.
    pub async fn add_invite(&self, hash: &str) -> Result<(), ApiError> {
        sqlx::query("INSERT INTO invites (hash) VALUES (?)")
            .bind(hash)
            .execute(&self.pool)
            .await
            .map_err(db)?;
        Ok(())
    }

    /// Makes entrant `name` with a token (by hash), using the invite (by hash) if given: all
    /// or nothing.
    pub async fn sign_up(
        &self,
        name: &str,
        invite: Option<&str>,
        token: &str,
    ) -> Result<(), ApiError> {
        let mut tx = self.pool.begin().await.map_err(db)?;
        let id: i64 = match sqlx::query("INSERT INTO entrants (name) VALUES (?) RETURNING id")
            .bind(name)
            .fetch_one(&mut *tx)
            .await
        {
            Ok(row) => row.get(0),
            Err(sqlx::Error::Database(e)) if e.is_unique_violation() => {
                return Err(ApiError::new(
                    StatusCode::CONFLICT,
                    format!("the name `{name}` is taken"),
                ))
            }
            Err(e) => return Err(db(e)),
        };
        if let Some(invite) = invite {
            let used =
                sqlx::query("UPDATE invites SET used_by = ? WHERE hash = ? AND used_by IS NULL")
                    .bind(id)
                    .bind(invite)
                    .execute(&mut *tx)
                    .await
                    .map_err(db)?;
            if used.rows_affected() != 1 {
                return Err(ApiError::new(
                    StatusCode::FORBIDDEN,
                    "this invite is not one, or was used",
                ));
            }
        }
        sqlx::query("INSERT INTO tokens (hash, entrant_id) VALUES (?, ?)")
            .bind(token)
            .bind(id)
            .execute(&mut *tx)
            .await
            .map_err(db)?;
        tx.commit().await.map_err(db)
    }

    /// The entrant whose token has this hash.
    pub async fn entrant_of(&self, token: &str) -> Result<Option<Entrant>, ApiError> {
        let row = sqlx::query(
            "SELECT e.id, e.name FROM tokens t JOIN entrants e ON e.id = t.entrant_id WHERE t.hash = ?",
        )
        .bind(token)
        .fetch_optional(&self.pool)
        .await
        .map_err(db)?;
        Ok(row.map(|r| Entrant {
            id: r.get(0),
            name: r.get(1),
        }))
    }

    /// Records a new version of the entrant's: its number.
    pub async fn add_version(
        &self,
        entrant: i64,
        digest: &str,
        files: i64,
        bytes: i64,
        status: &str,
    ) -> Result<i64, ApiError> {
        // One statement: SQLite runs writes one at a time, so two uploads at once get two
        // numbers.
        let row = sqlx::query(
            "INSERT INTO versions (entrant_id, number, digest, files, bytes, status) \
             SELECT ?1, COALESCE(MAX(number), 0) + 1, ?2, ?3, ?4, ?5 FROM versions WHERE entrant_id = ?1 \
             RETURNING number",
        )
        .bind(entrant)
        .bind(digest)
        .bind(files)
        .bind(bytes)
        .bind(status)
        .fetch_one(&self.pool)
        .await
        .map_err(db)?;
        Ok(row.get(0))
    }

    /// The entrant's versions, oldest first.
    pub async fn versions(&self, entrant: i64) -> Result<Vec<Version>, ApiError> {
        let rows = sqlx::query(
            "SELECT number, digest, files, bytes, status FROM versions WHERE entrant_id = ? ORDER BY number",
        )
        .bind(entrant)
        .fetch_all(&self.pool)
        .await
        .map_err(db)?;
        Ok(rows.iter().map(version_of).collect())
    }

    /// One of the entrant's versions.
    pub async fn version(&self, entrant: i64, number: i64) -> Result<Option<Version>, ApiError> {
        let row = sqlx::query(
            "SELECT number, digest, files, bytes, status FROM versions WHERE entrant_id = ? AND number = ?",
        )
        .bind(entrant)
        .bind(number)
        .fetch_optional(&self.pool)
        .await
        .map_err(db)?;
        Ok(row.as_ref().map(version_of))
    }
}

fn version_of(r: &sqlx::sqlite::SqliteRow) -> Version {
    Version {
        version: r.get(0),
        digest: r.get(1),
        files: r.get(2),
        bytes: r.get(3),
        status: r.get(4),
    }
}
