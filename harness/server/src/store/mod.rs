//! The database: entrants, their tokens, invites, versions and the pipeline's jobs, behind
//! typed calls (the matches are in [`matches`] and [`reads`]), on SQLite (one file, WAL, foreign
//! keys on) or PostgreSQL, through sqlx's Any driver: one set of queries (`$1` parameters, which
//! both take), and a clause or two by [`Backend`]. The schema is `migrations/sqlite` and
//! `migrations/postgres`, embedded and applied at start.

mod checks;
mod error;
mod hooks;
mod jobs;
mod matches;
mod plays;
mod quotas;
mod reads;
pub mod retry;
mod sessions;
mod standings;
mod workers;

pub use checks::CANCELLED;
pub use error::{OverQuota, StoreError};
pub use hooks::Hook;
pub use jobs::Job;
pub use matches::{Kind, MatchJob, LADDER_PAUSED};
pub use plays::{now_ms, PlayRow};
pub use quotas::{over as over_quota, Usage};
pub use reads::MatchRow;
pub use sessions::SessionOf;
pub use standings::Kept as KeptStandings;

use sqlx::any::{AnyPoolOptions, AnyRow};
use sqlx::AnyPool;
use sqlx::{Executor, Row};

use crate::ServerError;

/// The schema's migrations, one folder per backend.
static SQLITE: sqlx::migrate::Migrator = sqlx::migrate!("./migrations/sqlite");
static POSTGRES: sqlx::migrate::Migrator = sqlx::migrate!("./migrations/postgres");

/// An entrant, as a token names it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entrant {
    pub id: i64,
    pub name: String,
    /// Why the host disabled it, if it did.
    pub disabled: Option<String>,
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
    /// `queued`, `checking`, then `admitted` (built and through `quads check`) or `failed`;
    /// `paused` once the ladder stopped playing an admitted version.
    pub status: String,
    /// The check's summary, or why it failed (one line).
    pub reason: String,
    /// Why the ladder stopped playing it, if it did.
    pub paused: Option<String>,
    /// Whether it is its entrant's active version (the one the ladder and the play page play).
    pub active: bool,
    /// Whether its entrant's active version is this one or a later one (an admitted version
    /// is made active just after its verdict is written).
    #[serde(skip)]
    pub reached: bool,
}

/// An entrant's active version, on the ladder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Active {
    pub entrant: String,
    pub version: i64,
}

/// Which database a store is on: the SQL is the same but for a few clauses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    /// One file, WAL, one writer at a time.
    Sqlite,
    /// A server: many writers, rows locked.
    Postgres,
}

impl Backend {
    /// Of a database URL: `sqlite:…` or `postgres://…` (also `postgresql://…`).
    pub fn of(url: &str) -> Option<Backend> {
        if url.starts_with("sqlite:") {
            Some(Backend::Sqlite)
        } else if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            Some(Backend::Postgres)
        } else {
            None
        }
    }

    /// The end of a queue's pick: on PostgreSQL, a row another connection is taking is
    /// skipped, not waited for (SQLite has one writer: its pick and take are one statement
    /// no other write can come between).
    fn skip_locked(self) -> &'static str {
        match self {
            Backend::Sqlite => "",
            Backend::Postgres => " FOR UPDATE SKIP LOCKED",
        }
    }
}

impl Store {
    /// A transaction that writes. On SQLite it takes the write lock at its start (`BEGIN
    /// IMMEDIATE`): one begun with a plain `BEGIN` that reads and then writes fails at once
    /// with "database is locked" when another connection wrote in between (its snapshot is
    /// stale, and SQLite's busy timeout does not wait for that), where this one waits its
    /// turn. PostgreSQL's `BEGIN` locks rows as it goes.
    pub(crate) async fn write_tx(
        &self,
    ) -> Result<sqlx::Transaction<'static, sqlx::Any>, StoreError> {
        let begin = match self.backend {
            Backend::Sqlite => "BEGIN IMMEDIATE",
            Backend::Postgres => "BEGIN",
        };
        self.pool.begin_with(begin).await.map_err(db)
    }
}

/// A database URL as logs may show it: the password, if any, hidden.
pub fn redacted(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_owned();
    };
    let Some((user, host)) = rest.split_once('@') else {
        return url.to_owned();
    };
    match user.split_once(':') {
        Some((name, _)) => format!("{scheme}://{name}:***@{host}"),
        None => url.to_owned(),
    }
}

#[derive(Clone)]
pub struct Store {
    pool: AnyPool,
    backend: Backend,
}

fn db(e: sqlx::Error) -> StoreError {
    StoreError::Database(e)
}

/// Connections a server keeps open to each backend.
const CONNECTIONS: [(Backend, u32); 2] = [(Backend::Sqlite, 4), (Backend::Postgres, 8)];

impl Store {
    /// Opens (creating if needed) and migrates the database at `url`: SQLite (`sqlite:PATH`) or
    /// PostgreSQL (`postgres://USER:PASSWORD@HOST/DATABASE`).
    pub async fn open(url: &str) -> Result<Store, ServerError> {
        let fail = |why: String| ServerError::Database {
            url: redacted(url),
            why,
        };
        sqlx::any::install_default_drivers();
        let backend = Backend::of(url)
            .ok_or_else(|| fail("a database URL starts with sqlite: or postgres://".to_owned()))?;
        let mut target = url.to_owned();
        if backend == Backend::Sqlite && !url.contains('?') {
            target.push_str("?mode=rwc"); // created if missing
        }
        let connections = CONNECTIONS
            .iter()
            .find(|c| c.0 == backend)
            .map_or(4, |c| c.1);
        let pool = AnyPoolOptions::new()
            .max_connections(connections)
            .after_connect(move |conn, _| {
                Box::pin(async move {
                    if backend == Backend::Sqlite {
                        conn.execute("PRAGMA journal_mode = WAL; PRAGMA foreign_keys = ON; PRAGMA busy_timeout = 5000")
                            .await?;
                    }
                    Ok(())
                })
            })
            .connect(&target)
            .await
            .map_err(|e| fail(e.to_string()))?;
        let migrator = match backend {
            Backend::Sqlite => &SQLITE,
            Backend::Postgres => &POSTGRES,
        };
        migrator.run(&pool).await.map_err(|e| fail(e.to_string()))?;
        Ok(Store { pool, backend })
    }

    /// Keeps an invite's hash.
    pub async fn add_invite(&self, hash: &str) -> Result<(), StoreError> {
        sqlx::query("INSERT INTO invites (hash) VALUES ($1)")
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
    ) -> Result<(), StoreError> {
        let mut tx = self.write_tx().await?;
        let id: i64 = match sqlx::query("INSERT INTO entrants (name) VALUES ($1) RETURNING id")
            .bind(name)
            .fetch_one(&mut *tx)
            .await
        {
            Ok(row) => row.get(0),
            Err(sqlx::Error::Database(e)) if e.is_unique_violation() => {
                return Err(StoreError::NameTaken(name.to_owned()))
            }
            Err(e) => return Err(db(e)),
        };
        if let Some(invite) = invite {
            let used =
                sqlx::query("UPDATE invites SET used_by = $1 WHERE hash = $2 AND used_by IS NULL")
                    .bind(id)
                    .bind(invite)
                    .execute(&mut *tx)
                    .await
                    .map_err(db)?;
            if used.rows_affected() != 1 {
                return Err(StoreError::Invite);
            }
        }
        sqlx::query("INSERT INTO tokens (hash, entrant_id) VALUES ($1, $2)")
            .bind(token)
            .bind(id)
            .execute(&mut *tx)
            .await
            .map_err(db)?;
        tx.commit().await.map_err(db)
    }

    /// The entrant whose token has this hash.
    pub async fn entrant_of(&self, token: &str) -> Result<Option<Entrant>, StoreError> {
        let row = sqlx::query(
            "SELECT e.id, e.name, e.disabled FROM tokens t JOIN entrants e ON e.id = t.entrant_id WHERE t.hash = $1",
        )
        .bind(token)
        .fetch_optional(&self.pool)
        .await
        .map_err(db)?;
        Ok(row.map(|r| Entrant {
            id: r.get(0),
            name: r.get(1),
            disabled: r.get(2),
        }))
    }

    /// Records a new version of the entrant's, queued for the pipeline, and supersedes its
    /// versions still waiting for their check or in it: its number, and the jobs running
    /// checks it superseded (the pipeline stops them).
    /// Within the entrant's `quotas`, checked in the same statement: otherwise refused.
    pub async fn add_version(
        &self,
        entrant: i64,
        digest: &str,
        files: i64,
        bytes: i64,
        quotas: &crate::Quotas,
    ) -> Result<(i64, Vec<i64>), StoreError> {
        let mut tx = self.write_tx().await?;
        // One statement: SQLite runs writes one at a time, so two uploads at once get two
        // numbers; PostgreSQL runs them side by side, so the entrant's row is locked first.
        if self.backend == Backend::Postgres {
            sqlx::query("SELECT id FROM entrants WHERE id = $1 FOR UPDATE")
                .bind(entrant)
                .execute(&mut *tx)
                .await
                .map_err(db)?;
        }
        let sql = format!(
            "INSERT INTO versions (entrant_id, number, digest, files, bytes, status) \
             SELECT $1, next.n, $2, $3, $4, 'queued' \
             FROM (SELECT COALESCE(MAX(number), 0) + 1 AS n FROM versions WHERE entrant_id = $1) next \
             WHERE {} RETURNING id, number",
            self.backend.within_quotas()
        );
        let row = sqlx::query(&sql)
            .bind(entrant)
            .bind(digest)
            .bind(files)
            .bind(bytes)
            .bind(i64::from(quotas.uploads_per_hour))
            .bind(quotas.stored_bytes as i64)
            .bind(i64::from(quotas.versions))
            .fetch_optional(&mut *tx)
            .await
            .map_err(db)?;
        let Some(row) = row else {
            drop(tx);
            let usage = self.usage(entrant).await?;
            return Err(quotas::over(quotas, &usage, bytes)
                .unwrap_or(OverQuota::Raced)
                .into());
        };
        let (id, number): (i64, i64) = (row.get(0), row.get(1));
        sqlx::query("INSERT INTO jobs (version_id) VALUES ($1)")
            .bind(id)
            .execute(&mut *tx)
            .await
            .map_err(db)?;
        let stopped = checks::supersede(&mut tx, entrant, number).await?;
        tx.commit().await.map_err(db)?;
        Ok((number, stopped))
    }

    /// Makes a version its entrant's active one.
    pub async fn activate(&self, version: i64) -> Result<(), StoreError> {
        sqlx::query("UPDATE entrants SET active = $1 WHERE id = (SELECT entrant_id FROM versions WHERE id = $1)")
            .bind(version)
            .execute(&self.pool)
            .await
            .map_err(db)?;
        Ok(())
    }

    /// Every entrant's active version, by entrant.
    pub async fn actives(&self) -> Result<Vec<Active>, StoreError> {
        self.active_versions("").await
    }

    /// The versions the ladder plays: the active ones, not paused, of entrants not disabled.
    pub async fn players(&self) -> Result<Vec<Active>, StoreError> {
        self.active_versions("WHERE v.paused IS NULL AND e.disabled IS NULL")
            .await
    }

    /// The active versions `filter` keeps, by entrant.
    async fn active_versions(&self, filter: &str) -> Result<Vec<Active>, StoreError> {
        let rows = sqlx::query(&format!(
            "SELECT e.name, e.active FROM entrants e JOIN versions v ON v.id = e.active {filter} ORDER BY e.id"
        ))
        .fetch_all(&self.pool)
        .await
        .map_err(db)?;
        Ok(rows
            .iter()
            .map(|r| Active {
                entrant: r.get(0),
                version: r.get(1),
            })
            .collect())
    }

    /// Stops the ladder playing a version, with the reason.
    pub async fn pause_version(&self, version: i64, reason: &str) -> Result<bool, StoreError> {
        let done = sqlx::query("UPDATE versions SET paused = $1 WHERE id = $2 AND paused IS NULL")
            .bind(reason)
            .bind(version)
            .execute(&self.pool)
            .await
            .map_err(db)?;
        Ok(done.rows_affected() == 1)
    }

    /// Version row `version`'s number among its entrant's (1 for the first).
    pub async fn version_number(&self, version: i64) -> Result<i64, StoreError> {
        let row = sqlx::query("SELECT number FROM versions WHERE id = $1")
            .bind(version)
            .fetch_one(&self.pool)
            .await
            .map_err(db)?;
        Ok(row.get(0))
    }

    /// Disables an entrant with the reason (`None`: enables it again): whether it exists.
    pub async fn disable(&self, name: &str, reason: Option<&str>) -> Result<bool, StoreError> {
        let done = sqlx::query("UPDATE entrants SET disabled = $1 WHERE name = $2")
            .bind(reason)
            .bind(name)
            .execute(&self.pool)
            .await
            .map_err(db)?;
        Ok(done.rows_affected() == 1)
    }

    /// Every entrant: (name, its active version's number, why it is disabled), by sign-up.
    pub async fn entrants(&self) -> Result<Vec<(String, Option<i64>, Option<String>)>, StoreError> {
        let rows = sqlx::query(
            "SELECT e.name, v.number, e.disabled FROM entrants e LEFT JOIN versions v ON v.id = e.active ORDER BY e.id",
        )
        .fetch_all(&self.pool)
        .await
        .map_err(db)?;
        Ok(rows
            .iter()
            .map(|r| (r.get(0), r.get(1), r.get(2)))
            .collect())
    }

    /// The entrant named so.
    pub async fn entrant_named(&self, name: &str) -> Result<Option<Entrant>, StoreError> {
        let row = sqlx::query("SELECT id, name, disabled FROM entrants WHERE name = $1")
            .bind(name)
            .fetch_optional(&self.pool)
            .await
            .map_err(db)?;
        Ok(row.map(|r| Entrant {
            id: r.get(0),
            name: r.get(1),
            disabled: r.get(2),
        }))
    }

    /// The row of an entrant's active version.
    pub async fn active_of(&self, entrant: i64) -> Result<Option<i64>, StoreError> {
        let row = sqlx::query("SELECT active FROM entrants WHERE id = $1")
            .bind(entrant)
            .fetch_optional(&self.pool)
            .await
            .map_err(db)?;
        Ok(row.and_then(|r| r.get(0)))
    }

    /// The entrant's versions, oldest first.
    pub async fn versions(&self, entrant: i64) -> Result<Vec<Version>, StoreError> {
        let rows = sqlx::query(&format!(
            "SELECT {VERSION_COLUMNS} FROM versions WHERE entrant_id = $1 ORDER BY number"
        ))
        .bind(entrant)
        .fetch_all(&self.pool)
        .await
        .map_err(db)?;
        Ok(rows.iter().map(version_of).collect())
    }

    /// One of the entrant's versions.
    pub async fn version(&self, entrant: i64, number: i64) -> Result<Option<Version>, StoreError> {
        let row = sqlx::query(&format!(
            "SELECT {VERSION_COLUMNS} FROM versions WHERE entrant_id = $1 AND number = $2"
        ))
        .bind(entrant)
        .bind(number)
        .fetch_optional(&self.pool)
        .await
        .map_err(db)?;
        Ok(row.as_ref().map(version_of))
    }
}

/// A version's columns, in [`version_of`]'s order (whether it is active, and whether the
/// active one is this or a later one, as numbers: the two backends' booleans differ under the
/// Any driver).
const VERSION_COLUMNS: &str = "number, digest, files, bytes, status, reason, paused, \
     CAST(CASE WHEN id = (SELECT active FROM entrants WHERE entrants.id = versions.entrant_id) \
     THEN 1 ELSE 0 END AS BIGINT), \
     CAST(CASE WHEN number <= (SELECT a.number FROM entrants e JOIN versions a ON a.id = e.active \
     WHERE e.id = versions.entrant_id) THEN 1 ELSE 0 END AS BIGINT)";

fn version_of(r: &AnyRow) -> Version {
    let paused: Option<String> = r.get(6);
    let status: String = r.get(4);
    Version {
        version: r.get(0),
        digest: r.get(1),
        files: r.get(2),
        bytes: r.get(3),
        // An admitted version the ladder stopped playing shows so.
        status: if paused.is_some() && status == "admitted" {
            "paused".to_owned()
        } else {
            status
        },
        reason: r.get(5),
        paused,
        active: r.get::<i64, _>(7) == 1,
        reached: r.get::<i64, _>(8) == 1,
    }
}
