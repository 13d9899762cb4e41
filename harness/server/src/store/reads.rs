//! What the pages and the API read of the matches (their rows, their games), and the host's
//! switches.

use sqlx::Row;

use super::{db, Store, StoreError};

/// A match as the pages and the API show it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct MatchRow {
    pub id: i64,
    /// `ladder` or `test`.
    pub kind: String,
    /// `queued`, `running`, `done`, `failed` or `cancelled`.
    pub state: String,
    pub first: String,
    pub first_version: i64,
    pub second: String,
    pub second_version: i64,
    pub rules: String,
    pub seed: i64,
    /// Why it failed or was cancelled.
    pub reason: String,
    pub created: String,
    /// Who holds it (running) or played it (done): `local-N`, or a remote worker's `NAME/SLOT`.
    pub worker: Option<String>,
    /// How many times a worker took it (a lease lost, it is taken again, once).
    pub attempts: i64,
}

/// A game with its match and which versions played it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LadderRecord {
    pub id: i64,
    pub match_id: i64,
    /// Each entrant of the match with the number of its version that played.
    pub versions: [(String, i64); 2],
    pub record: String,
}

const LADDER_RECORD: &str =
    "SELECT g.id, g.match_id, ea.name, va.number, eb.name, vb.number, g.record \
     FROM games g JOIN matches m ON m.id = g.match_id \
     JOIN versions va ON va.id = m.first JOIN entrants ea ON ea.id = va.entrant_id \
     JOIN versions vb ON vb.id = m.second JOIN entrants eb ON eb.id = vb.entrant_id";

fn ladder_record(r: &sqlx::any::AnyRow) -> LadderRecord {
    LadderRecord {
        id: r.get(0),
        match_id: r.get(1),
        versions: [(r.get(2), r.get(3)), (r.get(4), r.get(5))],
        record: r.get(6),
    }
}

const MATCH_ROW: &str =
    "SELECT m.id, m.kind, m.state, ea.name, va.number, eb.name, vb.number, m.rules, m.seed, \
     m.reason, m.created, m.worker, m.attempts FROM matches m \
     JOIN versions va ON va.id = m.first JOIN entrants ea ON ea.id = va.entrant_id \
     JOIN versions vb ON vb.id = m.second JOIN entrants eb ON eb.id = vb.entrant_id";

fn match_row(r: &sqlx::any::AnyRow) -> MatchRow {
    MatchRow {
        id: r.get(0),
        kind: r.get(1),
        state: r.get(2),
        first: r.get(3),
        first_version: r.get(4),
        second: r.get(5),
        second_version: r.get(6),
        rules: r.get(7),
        seed: r.get(8),
        reason: r.get(9),
        created: r.get(10),
        worker: r.get(11),
        attempts: r.get(12),
    }
}

impl Store {
    /// Games of the ladder between each pair of versions (lower id first), counting a match
    /// queued or running as its two games to come.
    pub async fn pair_games(&self) -> Result<Vec<((i64, i64), i64)>, StoreError> {
        let rows = sqlx::query(
            "SELECT CASE WHEN m.first < m.second THEN m.first ELSE m.second END, \
             CASE WHEN m.first < m.second THEN m.second ELSE m.first END, \
             CAST(SUM(CASE WHEN m.state = 'done' THEN (SELECT COUNT(*) FROM games g WHERE g.match_id = m.id) ELSE 2 END) AS BIGINT) \
             FROM matches m WHERE m.kind = 'ladder' AND m.state IN ('done', 'queued', 'running') GROUP BY 1, 2",
        )
        .fetch_all(&self.pool)
        .await
        .map_err(db)?;
        Ok(rows
            .iter()
            .map(|r| ((r.get(0), r.get(1)), r.get(2)))
            .collect())
    }

    /// The ladder's changes after stamp `after` (see migrations/*/0007_ladder_changes.sql):
    /// each match stamped since, in stamp order, as (match, stamp, whether its games count now:
    /// done, on the ladder).
    pub async fn ladder_changes(&self, after: i64) -> Result<Vec<(i64, i64, bool)>, StoreError> {
        let rows = sqlx::query(
            "SELECT id, changed, CAST(CASE WHEN state = 'done' AND kind = 'ladder' THEN 1 ELSE 0 END AS BIGINT) \
             FROM matches WHERE changed > $1 ORDER BY changed",
        )
        .bind(after)
        .fetch_all(&self.pool)
        .await
        .map_err(db)?;
        Ok(rows
            .iter()
            .map(|r| (r.get(0), r.get(1), r.get::<i64, _>(2) == 1))
            .collect())
    }

    /// The games of matches `ids` (listed from the database, never from a request), in the
    /// order played.
    pub async fn records_of_matches(&self, ids: &[i64]) -> Result<Vec<LadderRecord>, StoreError> {
        let mut out = Vec::new();
        for chunk in ids.chunks(500) {
            let list: Vec<String> = chunk.iter().map(i64::to_string).collect();
            let rows = sqlx::query(&format!(
                "{LADDER_RECORD} WHERE g.match_id IN ({}) ORDER BY g.id",
                list.join(", ")
            ))
            .fetch_all(&self.pool)
            .await
            .map_err(db)?;
            out.extend(rows.iter().map(ladder_record));
        }
        Ok(out)
    }

    /// The records of the ladder's games (matches done, not tests), in the order played, each
    /// with its match and which version of each entrant played it.
    pub async fn ladder_records(&self) -> Result<Vec<LadderRecord>, StoreError> {
        let rows = sqlx::query(&format!(
            "{LADDER_RECORD} WHERE m.state = 'done' AND m.kind = 'ladder' ORDER BY g.id"
        ))
        .fetch_all(&self.pool)
        .await
        .map_err(db)?;
        Ok(rows.iter().map(ladder_record).collect())
    }

    /// The games of done matches an entrant played (`None`: everyone's), tests included, in
    /// the order played, as records.
    pub async fn games_of(&self, entrant: Option<i64>) -> Result<Vec<String>, StoreError> {
        let rows = sqlx::query(
            "SELECT g.record FROM games g JOIN matches m ON m.id = g.match_id \
             JOIN versions va ON va.id = m.first JOIN versions vb ON vb.id = m.second \
             WHERE m.state = 'done' AND ($1 IS NULL OR va.entrant_id = $1 OR vb.entrant_id = $1) ORDER BY g.id",
        )
        .bind(entrant)
        .fetch_all(&self.pool)
        .await
        .map_err(db)?;
        Ok(rows.iter().map(|r| r.get(0)).collect())
    }

    /// One match.
    pub async fn match_row(&self, id: i64) -> Result<Option<MatchRow>, StoreError> {
        let row = sqlx::query(&format!("{MATCH_ROW} WHERE m.id = $1"))
            .bind(id)
            .fetch_optional(&self.pool)
            .await
            .map_err(db)?;
        Ok(row.as_ref().map(match_row))
    }

    /// The latest `limit` matches, of one entrant's (by name) or of all, newest first.
    pub async fn match_rows(
        &self,
        entrant: Option<&str>,
        limit: i64,
    ) -> Result<Vec<MatchRow>, StoreError> {
        let rows = sqlx::query(&format!(
            "{MATCH_ROW} WHERE $1 IS NULL OR ea.name = $1 OR eb.name = $1 ORDER BY m.id DESC LIMIT $2"
        ))
        .bind(entrant)
        .bind(limit)
        .fetch_all(&self.pool)
        .await
        .map_err(db)?;
        Ok(rows.iter().map(match_row).collect())
    }

    /// A match's games, as records.
    pub async fn match_games(&self, id: i64) -> Result<Vec<String>, StoreError> {
        let rows = sqlx::query("SELECT record FROM games WHERE match_id = $1 ORDER BY id")
            .bind(id)
            .fetch_all(&self.pool)
            .await
            .map_err(db)?;
        Ok(rows.iter().map(|r| r.get(0)).collect())
    }

    /// The last `n` games a version played (done matches), newest first, as records.
    pub async fn recent_games(&self, version: i64, n: i64) -> Result<Vec<String>, StoreError> {
        let rows = sqlx::query(
            "SELECT g.record FROM games g JOIN matches m ON m.id = g.match_id \
             WHERE m.state = 'done' AND (m.first = $1 OR m.second = $1) ORDER BY g.id DESC LIMIT $2",
        )
        .bind(version)
        .bind(n)
        .fetch_all(&self.pool)
        .await
        .map_err(db)?;
        Ok(rows.iter().map(|r| r.get(0)).collect())
    }

    /// Whether a switch of the host's is on.
    pub async fn switch(&self, name: &str) -> Result<bool, StoreError> {
        let row = sqlx::query("SELECT value FROM switches WHERE name = $1")
            .bind(name)
            .fetch_optional(&self.pool)
            .await
            .map_err(db)?;
        Ok(row.is_some_and(|r| r.get::<i64, _>(0) != 0))
    }

    /// Sets a switch of the host's.
    pub async fn set_switch(&self, name: &str, on: bool) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO switches (name, value) VALUES ($1, $2) ON CONFLICT (name) DO UPDATE SET value = $2",
        )
        .bind(name)
        .bind(i64::from(on))
        .execute(&self.pool)
        .await
        .map_err(db)?;
        Ok(())
    }
}
