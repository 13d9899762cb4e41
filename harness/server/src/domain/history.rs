//! The leaderboard's history, read (crate::ladder::history keeps it): the fits kept, the
//! standings at a past moment, and an entrant's rating over its games with its versions
//! marked.

use serde::Serialize;

use super::{App, DomainError};

/// A fit kept: when (milliseconds since 1970), how many games, the highest game id.
#[derive(Debug, Serialize)]
pub struct Fit {
    pub at: i64,
    pub games: i64,
    pub last_game: i64,
}

/// Every fit kept, the oldest first.
pub async fn fits(app: &App) -> Result<Vec<Fit>, DomainError> {
    Ok(app
        .0
        .store
        .standings_history()
        .await?
        .into_iter()
        .map(|k| Fit {
            at: k.at,
            games: k.games,
            last_game: k.last_game,
        })
        .collect())
}

/// The standings at `at` (milliseconds since 1970): the last fit kept at or before it, as
/// JSON (`at`, `last_game`, then the leaderboard's fields).
pub async fn standings_at(app: &App, at: i64) -> Result<String, DomainError> {
    match app.0.store.standings_at(at).await? {
        Some(k) => Ok(k.body),
        None => Err(DomainError::NotFound(
            "no standings were kept at or before that moment".to_owned(),
        )),
    }
}

/// An entrant's rating at one fit: its games then, its rating and the ends of its 95%
/// interval (`None` unbounded or not yet rated).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Point {
    pub at: i64,
    pub games: u64,
    pub elo: Option<f64>,
    pub elo_low: Option<f64>,
    pub elo_high: Option<f64>,
}

/// Where a version began: its number and the entrant's ladder games before its first.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Start {
    pub version: i64,
    pub games: u64,
}

/// An entrant's rating over its games, with where each of its versions began.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Rating {
    pub points: Vec<Point>,
    pub versions: Vec<Start>,
}

/// `name`'s rating over its games (the fits kept in which it has a row).
pub async fn rating_of(app: &App, name: &str) -> Result<Rating, DomainError> {
    let store = &app.0.store;
    let Some(who) = store.entrant_named(name).await? else {
        return Err(DomainError::NotFound(format!("no entrant is named {name}")));
    };
    let mut points = Vec::new();
    for k in store.standings_history().await? {
        let body: serde_json::Value = serde_json::from_str(&k.body).map_err(DomainError::failed)?;
        let row = body["rows"]
            .as_array()
            .and_then(|rows| rows.iter().find(|r| r["name"] == name));
        if let Some(r) = row {
            points.push(Point {
                at: k.at,
                games: r["games"].as_u64().unwrap_or(0),
                elo: r["elo"].as_f64(),
                elo_low: r["elo_low"].as_f64(),
                elo_high: r["elo_high"].as_f64(),
            });
        }
    }
    // Each version's first ladder game, as a count of the entrant's games before it.
    let generation = *app.0.signals.changed.borrow();
    let ladder = app.0.boards.ladder(generation, store).await?;
    let ids: Vec<i64> = match ladder.names.iter().position(|n| n == name) {
        Some(i) => ladder
            .games
            .iter()
            .filter(|(_, g)| g.first as usize == i || g.second as usize == i)
            .map(|(id, _)| *id)
            .collect(),
        None => Vec::new(),
    };
    let versions = store
        .version_starts(who.id)
        .await?
        .into_iter()
        .map(|(version, first)| Start {
            version,
            games: ids.partition_point(|&id| id < first) as u64,
        })
        .collect();
    Ok(Rating { points, versions })
}
